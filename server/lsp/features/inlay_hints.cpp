// textDocument/inlayHint: cake::inlay_hints (buffer byte sizes, pipeline
// stage and phase names) as InlayHints.
#include "cake/query_tokens.h"
#include "feature.h"

namespace cake::lsp {
namespace {

json inlay_hint(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  ByteRange range = params.contains("range") ? context.byte_range(d, params["range"]) : ByteRange{0, UINT32_MAX};
  json hints = json::array();
  for (const InlayHintInfo& h : inlay_hints(d.doc->model(), d.doc->text(), range))
    hints.push_back({{"position", context.position(d, h.offset)}, {"label", h.label}, {"paddingLeft", true}});
  return hints;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/inlayHint", inlay_hint, [](const json&, json& caps) { caps["inlayHintProvider"] = true; }});

}  // namespace cake::lsp
