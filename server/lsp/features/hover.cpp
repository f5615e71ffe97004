// textDocument/hover: cake::hover_at (cake/query_hover.h) rendered as
// markdown (render/hover.cpp): for each diagnostic under the cursor its
// rule, with the "What it means" section of its page (built in,
// rule_pages.h) and a link to the page when the docs are on disk, but not
// its message, which the editor shows with the diagnostic; on a kernel's
// name, a pipeline or an op, its estimated cost (cake/query_cost.h,
// render/cost_hover.cpp), unless the kernel has errors of its own; and the
// PTX the line became, once a background compile of this version found it.
#include "cake/query_hover.h"
#include "diagnostic_json.h"
#include "feature.h"
#include "render/render.h"
#include "rule_pages.h"

namespace cake::lsp {
namespace {

json hover(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  uint32_t offset = context.offset(d, params.value("position", json::object()));
  // The diagnostics of the units around the cursor, not of every kernel a
  // burst of edits touched (Document::diagnostics_around).
  const std::vector<Diagnostic>& diagnostics = d.doc->diagnostics_around(offset);
  const Module& model = d.doc->model_at(offset);
  std::optional<HoverInfo> h = hover_at(model, d.doc->text(), diagnostics, offset);
  std::string markdown = h ? render::hover_markdown(*h, [&](std::string_view code) {
    return render::RuleText{rule_meaning(code), rule_docs_uri(context.docs_root(), code)};
  }) : std::string();
  ByteRange range = h ? h->range : ByteRange{};
  // The cost of the kernel, pipeline or op under the cursor, after the
  // description; none in a kernel with errors of its own (as its lens and hints).
  bool estimated = true;
  const std::vector<KernelUnit>& units = d.doc->kernel_units();
  for (size_t i = 0; i < units.size(); ++i)
    if (units[i].piece.begin <= offset && offset < units[i].piece.end)
      estimated = !d.doc->kernel_has_errors(i, diagnostics);
  if (std::optional<CostHover> cost = estimated ? cost_hover(model, d.doc->text(), d.doc->lines(), offset,
                                                             context.analyze_options().device)
                                                : std::nullopt) {
    if (!h) range = cost->range;
    markdown += (h ? "\n\n---\n\n" : "") + render::cost_hover_markdown(*cost);
  } else if (!h) {
    range = {};
  }
  // The PTX this line became, from the last background compile of this
  // version (docs/lsp.md), after everything else.
  if (d.compiled_version == d.version) {
    uint32_t line = d.doc->lines().position(offset).line + 1;
    auto it = d.ptx_lines.find(line);
    if (it != d.ptx_lines.end() && !it->second.empty()) {
      if (markdown.empty()) {
        std::string_view text = d.doc->lines().line_text(line - 1);
        size_t first = text.find_first_not_of(" \t");
        uint32_t begin = d.doc->lines().line_start(line - 1);
        range = {begin + static_cast<uint32_t>(first == std::string_view::npos ? 0 : first),
                 begin + static_cast<uint32_t>(text.size())};
      }
      markdown += (markdown.empty() ? "" : "\n\n---\n\n") + render::ptx_hover_markdown(d.ptx_target, it->second);
    }
  }
  if (markdown.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}, {"range", context.range(d, range)}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/hover", hover, [](const json&, json& caps) { caps["hoverProvider"] = true; }});

}  // namespace cake::lsp
