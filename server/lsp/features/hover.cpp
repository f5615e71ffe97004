// textDocument/hover: cake::hover_at (cake/query_hover.h) rendered as
// markdown (render/hover.cpp), and for each diagnostic under the cursor the
// "What it means" section of its rule page (docs/rules/<code>.md) with a
// link to the page; on a kernel's name, a pipeline or an op, its estimated
// cost (cake/query_cost.h, render/cost_hover.cpp).
#include "cake/query_hover.h"
#include "diagnostic_json.h"
#include "feature.h"
#include "render/render.h"

#include <fstream>
#include <map>
#include <sstream>

namespace cake::lsp {
namespace {

/// The first section of a rule page, read once per code.
const std::string& rule_meaning(const std::string& docs_root, std::string_view code) {
  static std::map<std::string, std::string, std::less<>> cache;
  auto it = cache.find(code);
  if (it != cache.end()) return it->second;
  std::string meaning;
  std::ifstream in(docs_root + "/rules/" + std::string(code) + ".md");
  std::ostringstream page;
  page << in.rdbuf();
  std::string text = page.str();
  size_t start = text.find("## What it means");
  if (start != std::string::npos) {
    start = text.find('\n', start);
    size_t end = text.find("\n## ", start);
    meaning = text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
    while (!meaning.empty() && (meaning.back() == '\n' || meaning.back() == ' ')) meaning.pop_back();
  }
  return cache.emplace(std::string(code), std::move(meaning)).first->second;
}

json hover(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  uint32_t offset = context.offset(d, params.value("position", json::object()));
  const std::vector<Diagnostic>& diagnostics = context.diagnostics(d);
  const Module& model = d.doc->model_at(offset);
  std::optional<HoverInfo> h = hover_at(model, d.doc->text(), diagnostics, offset);
  std::string markdown = h ? render::hover_markdown(*h) : std::string();
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
    return nullptr;
  }
  if (h && !context.docs_root().empty())
    for (const HoverDiagnostic& diagnostic : h->diagnostics) {
      std::string_view code = diagnostic.code;
      const std::string& meaning = rule_meaning(context.docs_root(), code);
      if (!meaning.empty()) markdown += "\n\n" + meaning;
      markdown += "\n\n[" + std::string(code) + "](" + rule_docs_uri(context.docs_root(), code) + ")";
    }
  return {{"contents", {{"kind", "markdown"}, {"value", markdown}}}, {"range", context.range(d, range)}};
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/hover", hover, [](const json&, json& caps) { caps["hoverProvider"] = true; }});

}  // namespace cake::lsp
