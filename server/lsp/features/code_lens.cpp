// textDocument/codeLens: on each kernel, its estimated time, what bounds it
// and the device, per bench shape (cake/query_cost.h, rendered by
// render/code_lens.cpp), e.g.
// "≈ 41.2 µs · hbm-bound 78 % · H100-SXM5-80GB · N=4096". For the file's
// first target that has a device (the `cake.device` setting, else the
// target's default). Summaries are cached per kernel unit: after an edit
// only the edited kernel is estimated again. A kernel with an error of its
// own gets one lens that says it is not estimated; errors elsewhere in the
// file leave it alone.
#include "feature.h"
#include "render/render.h"

namespace cake::lsp {
namespace {

json code_lens(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  json lenses = json::array();
  for (const DocumentCosts::Entry& k : d.costs.kernels(*d.doc, context.cost_target(d), context.diagnostics(d))) {
    if (context.cancelled()) throw RequestError{error_code::ContentModified, "the document changed; ask again"};
    ByteRange at = k.unit->name.end > k.unit->name.begin ? k.unit->name : ByteRange{k.unit->piece.begin, k.unit->piece.begin};
    for (const KernelCosts::Lens& lens : k.costs->lens)
      lenses.push_back(
          {{"range", context.range(d, at)}, {"command", {{"title", render::lens_title(lens)}, {"command", ""}}}});
  }
  return lenses;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/codeLens", code_lens,
                  [](const json&, json& caps) { caps["codeLensProvider"] = {{"resolveProvider", false}}; }});

}  // namespace cake::lsp
