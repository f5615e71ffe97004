// textDocument/documentSymbol: the hierarchical outline of cake/query.h
// (kernel -> roles -> resources; consts, dispatches, benches) as
// DocumentSymbol objects.
#include "cake/query.h"
#include "feature.h"
#include "features/outline_kind.h"

namespace cake::lsp {
namespace {

json symbols_json(Context& context, OpenDocument& document, const std::vector<OutlineItem>& items) {
  json out = json::array();
  for (const OutlineItem& item : items)
    out.push_back({{"name", item.name}, {"detail", item.detail}, {"kind", lsp_symbol_kind(item.kind)},
                   {"range", context.range(document, item.range)},
                   {"selectionRange", context.range(document, item.selection)},
                   {"children", symbols_json(context, document, item.children)}});
  return out;
}

json document_symbol(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  return symbols_json(context, document, outline(document.doc->model()));
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/documentSymbol", document_symbol,
                  [](const json&, json& caps) { caps["documentSymbolProvider"] = true; }});

}  // namespace cake::lsp
