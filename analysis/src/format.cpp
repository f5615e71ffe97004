// format_source(); see format.h. Walks the tokens (the tree's leaves, with
// comments) in order and rebuilds the whitespace that starts each line.
#include "cake/format.h"

#include "model/cst.h"

#include <algorithm>
#include <vector>

namespace cake {
namespace {

struct Token {
  uint32_t begin, end;
  uint32_t construct;  // start of the innermost item or statement holding it
  bool comment;
};

/// The leaves in order, each with the start of the innermost item or
/// statement (a child of the file or of a block) that holds it.
void tokens(TSNode root, std::vector<Token>& out) {
  const Cst& c = Cst::get();
  std::vector<TSNode> ancestors;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_child_count(node) > 0) {
      ancestors.push_back(node);
      ts_tree_cursor_goto_first_child(&cursor);
      continue;
    }
    uint32_t begin = ts_node_start_byte(node);
    if (ts_node_end_byte(node) > begin) {
      uint32_t construct = begin;
      for (size_t i = ancestors.size(); i-- > 1;) {
        TSSymbol parent = ts_node_symbol(ancestors[i - 1]);
        if (parent == c.block || parent == c.source_file) {
          construct = ts_node_start_byte(ancestors[i]);
          break;
        }
      }
      out.push_back({begin, ts_node_end_byte(node), construct, ts_node_symbol(node) == c.comment});
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      ancestors.pop_back();
    }
  }
}



std::vector<Token> tokens(const SyntaxTree& tree) {
  std::vector<Token> out;
  tree.for_each_root([&](TSNode root) { tokens(root, out); });
  return out;
}

}  // namespace

std::optional<std::string> format_source(const SyntaxTree& tree, std::string_view text) {
  if (tree.has_error()) return std::nullopt;
  std::string out;
  out.reserve(text.size());
  int brackets = 0;                 // open `(` and `[`
  std::vector<uint32_t> braces;     // where each open `{` is
  uint32_t previous_end = 0;
  bool first = true;
  for (const Token& t : tokens(tree)) {
    std::string_view tok = text.substr(t.begin, t.end - t.begin);
    if (tok == "}" && !braces.empty()) braces.pop_back();
    if (tok == ")" || tok == "]") brackets = std::max(0, brackets - 1);
    std::string_view gap = text.substr(previous_end, t.begin - previous_end);
    size_t newlines = first ? 0 : std::count(gap.begin(), gap.end(), '\n');
    if (first || newlines > 0) {
      out.append(std::min<size_t>(newlines, 2), '\n');  // at most one blank line
      // A line that goes on with a construct begun on an earlier line (and
      // not inside a block that construct opened) is indented once more.
      bool continues = t.construct < t.begin && (braces.empty() || t.construct > braces.back());
      size_t indent = 2 * braces.size();
      if (brackets > 0) indent += 4;
      else if (continues && !t.comment && tok != "{" && tok != "}") indent += 2;
      out.append(indent, ' ');
    } else {
      out += gap;  // spacing within a line is the author's (alignment)
    }
    // Line comments lose trailing blanks; other tokens are copied.
    if (tok.starts_with("//")) tok = tok.substr(0, tok.find_last_not_of(" \t\r") + 1);
    out += tok;
    if (tok == "{") braces.push_back(t.begin);
    if (tok == "(" || tok == "[") ++brackets;
    previous_end = t.end;
    first = false;
  }
  if (!out.empty()) out += '\n';
  return out;
}

}  // namespace cake
