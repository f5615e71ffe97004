// Folding ranges (cake/query.h), read from the tree rather than the model so
// that blocks inside broken statements fold too. The node types are those of
// grammar/queries/folds.scm, which editors with tree-sitter use directly.
#include "cake/query.h"

#include "cake/syntax.h"

#include <algorithm>
#include <cstring>

namespace cake {
namespace {

constexpr const char* kFoldedNodes[] = {"kernel_item", "dispatch_item", "bench_item", "parameter_list", "block"};

bool is_folded(const char* type) {
  return std::any_of(std::begin(kFoldedNodes), std::end(kFoldedNodes), [&](const char* t) { return std::strcmp(t, type) == 0; });
}

/// Whether only blanks precede `offset` on its line.
bool first_on_line(std::string_view text, const LineIndex& lines, uint32_t offset) {
  uint32_t start = lines.line_start(lines.position(offset).line);
  for (uint32_t i = start; i < offset && i < text.size(); ++i)
    if (text[i] != ' ' && text[i] != '\t') return false;
  return true;
}

}  // namespace

std::vector<FoldingRange> folding_ranges(const SyntaxTree& tree, std::string_view text, const LineIndex& lines) {
  std::vector<FoldingRange> out;
  auto line = [&](uint32_t offset) { return lines.position(offset).line; };

  // Comment runs: consecutive lines that each start with a comment.
  bool in_run = false;
  FoldingRange run{0, 0, FoldingRange::Kind::Comment};
  auto close_run = [&] {
    if (in_run && run.end_line > run.start_line) out.push_back(run);
    in_run = false;
  };

  tree.for_each_root([&](TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    const char* type = ts_node_type(node);
    uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
    if (std::strcmp(type, "comment") == 0) {
      if (first_on_line(text, lines, begin)) {
        if (!(in_run && line(begin) == run.end_line + 1)) {
          close_run();
          in_run = true;
          run.start_line = line(begin);
        }
        run.end_line = line(end > begin ? end - 1 : begin);
      } else {
        close_run();
      }
    } else if (ts_node_is_named(node) && is_folded(type) && end > begin) {
      uint32_t first = line(begin), last = line(end - 1);
      char closing = text[end - 1];
      // Keep the closing `}` or `)` visible when it starts its line.
      if ((closing == '}' || closing == ')') && last > first && first_on_line(text, lines, end - 1)) --last;
      if (last > first) out.push_back({first, last, FoldingRange::Kind::Region});
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor))
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
  }
  ts_tree_cursor_delete(&cursor);
  });
  close_run();

  // One range per start line: the widest.
  std::stable_sort(out.begin(), out.end(), [](const FoldingRange& a, const FoldingRange& b) {
    return a.start_line != b.start_line ? a.start_line < b.start_line : a.end_line > b.end_line;
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const FoldingRange& a, const FoldingRange& b) { return a.start_line == b.start_line; }),
            out.end());
  return out;
}

}  // namespace cake
