// textDocument/prepareRename and textDocument/rename (cake/query.h): builtins,
// keywords and clashes are refused with a RequestError; a rename answers a
// WorkspaceEdit with `changes` for the one document.
#include "cake/query.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json prepare(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  RenamePlan plan = prepare_rename(document.doc->model(), context.offset(document, params.at("position")));
  if (!plan.error.empty()) throw RequestError{error_code::InvalidParams, plan.error};
  return {{"range", context.range(document, plan.range)},
          {"placeholder", document.doc->text().substr(plan.range.begin, plan.range.end - plan.range.begin)}};
}

json rename(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  if (!params.contains("newName") || !params["newName"].is_string())
    throw RequestError{error_code::InvalidParams, "rename needs a `newName` string"};
  RenameResult result = rename_symbol(document.doc->model(), context.offset(document, params.at("position")),
                                      params["newName"].get<std::string>());
  if (!result.error.empty()) throw RequestError{error_code::InvalidParams, result.error};
  json edits = json::array();
  for (const TextEdit& e : result.edits) edits.push_back({{"range", context.range(document, e.range)}, {"newText", e.new_text}});
  return {{"changes", {{document.uri, edits}}}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/rename", rename, [](const json& client, json& caps) {
                    json td = client.value("textDocument", json::object());
                    bool prepare_support = td.value("rename", json::object()).value("prepareSupport", false);
                    caps["renameProvider"] = prepare_support ? json{{"prepareProvider", true}} : json(true);
                  }});
CAKE_LSP_FEATURE({"textDocument/prepareRename", prepare, {}});

}  // namespace cake::lsp
