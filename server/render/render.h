// What editors show, as text: the structured hovers, code lenses and inlay
// hints of analysis/ (cake/query_hover.h, cake/query_cost.h) rendered as
// markdown and labels, and completion details (cake/query_completion.h).
// One surface per file (hover.cpp, cost_hover.cpp, code_lens.cpp,
// inlay_hint.cpp, completion.cpp); numbers go through units.h.
#pragma once

#include "cake/query_completion.h"
#include "cake/query_cost.h"
#include "cake/query_hover.h"
#include "cake/query_tokens.h"

#include <functional>
#include <string>
#include <string_view>

namespace cake::render {

/// What a hover adds under a diagnostic's code and rule summary: the "What
/// it means" section of the rule's page and a link to the page (either may
/// be empty).
struct RuleText {
  std::string_view meaning;
  std::string link;
};

/// The hover's markdown: "**name**: kind", then its facts as a list, or an
/// op's form, summary and target support; then, after a rule, each
/// diagnostic's rule: its code and summary, and `rule(code)`'s meaning and
/// link. Not the diagnostic's message: the editor shows the diagnostic
/// itself beside the hover (VS Code in the same box, Neovim as virtual text
/// and in vim.diagnostic.open_float()). Paragraphs are separated by blank
/// lines.
std::string hover_markdown(const HoverInfo& hover, const std::function<RuleText(std::string_view code)>& rule = {});

/// The cost hover's markdown: a kernel's estimate table and roofline, a
/// pipeline's per-iteration breakdown or a line's demand and time.
std::string cost_hover_markdown(const CostHover& hover);

/// The PTX instructions a .cake line became (opcode and count, in order),
/// as one hover paragraph.
std::string ptx_hover_markdown(std::string_view target, const std::vector<std::pair<std::string, int>>& ops);

/// A code lens title, "≈ 41.2 µs · hbm-bound 78 % · H100-SXM5-80GB · N=4096".
std::string lens_title(const KernelCosts::Lens& lens);

/// Inlay hint labels, each after paddingLeft and led by a word that says
/// what the figure is, so that `reg acc: ... = 0` does not read "= 0 64 KB":
/// on a costly line "time ≈ 12.5 µs on tensor · 31 % of kernel", or on a
/// pipeline without shapes "time ≈ 0.412 µs per iteration · latency-bound";
/// after a buffer's declaration "size 64 KB" ("size 48 KB, 16 KB per stage"
/// for a ring); after a stage variable ": stage 0..3, phase s.phase".
std::string hint_label(const KernelCosts::Hint& hint);
std::string hint_label(const InlayHintInfo& hint);

/// A completion item's detail: the candidate's own, or for a buffer's dim
/// "stage dim 0 of `sA`".
std::string completion_detail(const CompletionCandidate& candidate);

}  // namespace cake::render
