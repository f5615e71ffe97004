// textDocument/documentHighlight: the occurrences of the symbol under the
// cursor, the definition as Write (3) and references as Read (2).
#include "cake/query.h"
#include "feature.h"

namespace cake::lsp {
namespace {

constexpr int kRead = 2, kWrite = 3;

json highlight(Context& context, const json& params) {
  OpenDocument& document = context.document(params);
  const Module& module = document.doc->model();
  SymbolId id = symbol_at_cursor(module, context.offset(document, params.at("position")));
  json out = json::array();
  for (const Occurrence& o : occurrences(module, id, true))
    out.push_back({{"range", context.range(document, o.range)}, {"kind", o.definition ? kWrite : kRead}});
  return out;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/documentHighlight", highlight,
                  [](const json&, json& caps) { caps["documentHighlightProvider"] = true; }});

}  // namespace cake::lsp
