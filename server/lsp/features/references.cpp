// textDocument/references: every occurrence of the symbol under the cursor,
// with its definition when context.includeDeclaration (cake/query.h).
#include "cake/query.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json references(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  const Module& module = document.doc->model();
  bool include_definition = params.value("context", json::object()).value("includeDeclaration", true);
  SymbolId id = symbol_at_cursor(module, context.offset(document, params.at("position")));
  json out = json::array();
  for (const Occurrence& o : occurrences(module, id, include_definition))
    out.push_back({{"uri", document.uri}, {"range", context.range(document, o.range)}});
  return out;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/references", references, [](const json&, json& caps) { caps["referencesProvider"] = true; }});

}  // namespace cake::lsp
