// textDocument/diagnostic (pull) and the JSON both delivery modes send.
#include "features/diagnostics.h"

#include "diagnostic_json.h"

namespace cake::lsp {

bool client_pulls_diagnostics(const json& caps) {
  const json* td = caps.contains("textDocument") ? &caps["textDocument"] : nullptr;
  return td && td->is_object() && td->contains("diagnostic") && (*td)["diagnostic"].is_object();
}

json diagnostics_json(Context& context, OpenDocument& document, const std::vector<Diagnostic>& diagnostics) {
  PositionConverter positions = context.positions(document);
  DocumentContext where{document.uri, &positions, document.doc->targets()};
  json items = json::array();
  for (const Diagnostic& d : diagnostics)
    items.push_back(json(diagnostic_to_json(d, where, context.docs_root())));
  return items;
}

std::vector<Diagnostic> with_compiled(const OpenDocument& document, const std::vector<Diagnostic>& diagnostics) {
  std::vector<Diagnostic> all = diagnostics;
  if (document.compiled_version == document.version)
    all.insert(all.end(), document.compiled.begin(), document.compiled.end());
  return all;
}

namespace {

json pull(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  const std::vector<Diagnostic>& diagnostics = context.diagnostics(document);
  // The result id names the compiler's facts too: they come later.
  bool compiled = document.compiled_version == document.version;
  std::string result_id = std::to_string(document.version) + (compiled ? "c" : "");
  if (params.value("previousResultId", std::string()) == result_id) return {{"kind", "unchanged"}, {"resultId", result_id}};
  return {{"kind", "full"}, {"resultId", result_id}, {"items", diagnostics_json(context, document, with_compiled(document, diagnostics))}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/diagnostic", pull, [](const json& client, json& caps) {
                    if (client_pulls_diagnostics(client))
                      caps["diagnosticProvider"] = {{"identifier", "cake"}, {"interFileDependencies", false},
                                                    {"workspaceDiagnostics", false}};
                  }});

}  // namespace cake::lsp
