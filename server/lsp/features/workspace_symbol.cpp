// workspace/symbol: the kernels, consts and dispatches of every open
// document whose name contains the query (cake/query.h find_items).
#include "cake/query.h"
#include "feature.h"
#include "features/outline_kind.h"

namespace cake::lsp {
namespace {

json workspace_symbol(Context& context, const json& params) {
  std::string query = params.value("query", std::string());
  json out = json::array();
  for (const auto& [uri, open] : context.documents()) {
    OpenDocument& document = const_cast<OpenDocument&>(open);  // Context converts through non-const documents
    for (const OutlineItem& item : find_items(document.doc->model(), query))
      out.push_back({{"name", item.name}, {"kind", lsp_symbol_kind(item.kind)},
                     {"location", {{"uri", uri}, {"range", context.range(document, item.selection)}}}});
  }
  return out;
}

}  // namespace

CAKE_LSP_FEATURE({"workspace/symbol", workspace_symbol, [](const json&, json& caps) { caps["workspaceSymbolProvider"] = true; }});

}  // namespace cake::lsp
