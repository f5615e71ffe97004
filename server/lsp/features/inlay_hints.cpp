// textDocument/inlayHint: cake::inlay_hints (buffer byte sizes, pipeline
// stage and phase names) and, at the end of each costly line, its share of
// the kernel's estimated time (cake/query_cost.h, labelled by
// render/inlay_hint.cpp; none in a kernel with errors of its own), as
// InlayHints.
#include "cake/query_tokens.h"
#include "feature.h"
#include "render/render.h"

namespace cake::lsp {
namespace {

json inlay_hint(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  ByteRange range = params.contains("range") ? context.byte_range(d, params["range"]) : ByteRange{0, UINT32_MAX};
  json hints = json::array();
  for (const InlayHintInfo& h : inlay_hints(d.doc->model_for(range), d.doc->text(), range)) {
    json hint = {{"position", context.position(d, h.offset)}, {"label", render::hint_label(h)}, {"paddingLeft", true}};
    if (h.kind == InlayHintInfo::Kind::Size)
      hint["tooltip"] = "bytes of `" + std::string(h.name) + "`, dtype × shape (all stages)";
    hints.push_back(std::move(hint));
  }
  for (const DocumentCosts::Entry& k : d.costs.kernels(*d.doc, context.cost_target(d), context.diagnostics(d), range))
    for (const KernelCosts::Hint& h : k.costs->hints) {
      uint32_t offset = k.unit->piece.begin + h.offset;
      if (offset < range.begin || offset > range.end) continue;
      hints.push_back({{"position", context.position(d, offset)},
                       {"label", render::hint_label(h)},
                       {"paddingLeft", true},
                       {"tooltip", "estimated by the cost model (docs/cost-model.md)"}});
    }
  return hints;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/inlayHint", inlay_hint, [](const json&, json& caps) { caps["inlayHintProvider"] = true; }});

}  // namespace cake::lsp
