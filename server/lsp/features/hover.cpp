// textDocument/hover: the markdown of cake::hover_at (cake/query_hover.h).
#include "cake/query_hover.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json hover(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  uint32_t offset = context.offset(d, params.value("position", json::object()));
  const std::vector<Diagnostic>* diagnostics = d.doc->diagnostics([&] { return context.cancelled(); });
  if (!diagnostics) throw RequestError{error_code::ContentModified, "the document changed; ask again"};
  std::optional<HoverInfo> h = hover_at(d.doc->model_at(offset), d.doc->text(), *diagnostics, offset);
  if (!h) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", h->markdown}}}, {"range", context.range(d, h->range)}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/hover", hover, [](const json&, json& caps) { caps["hoverProvider"] = true; }});

}  // namespace cake::lsp
