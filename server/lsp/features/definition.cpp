// textDocument/definition: the defining name of the symbol under the cursor
// (cake/query.h); null for builtins and where there is no symbol.
#include "cake/query.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json definition(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  uint32_t offset = context.offset(document, params.at("position"));
  const Module& module = document.doc->model_at(offset);
  SymbolId id = symbol_at_cursor(module, offset);
  std::vector<Occurrence> found = occurrences(module, id, true);
  if (found.empty() || !found.front().definition) return nullptr;
  return {{"uri", document.uri}, {"range", context.range(document, found.front().range)}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/definition", definition, [](const json&, json& caps) { caps["definitionProvider"] = true; }});

}  // namespace cake::lsp
