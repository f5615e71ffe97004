// The concrete syntax tree: tree-sitter's parse of CAKE IR, owned with RAII.
// `parse()` never fails: bad input yields ERROR and MISSING nodes, which
// syntax_diagnostics() turns into specific E00xx messages.
#pragma once

#include "cake/diagnostic.h"
#include "cake/source.h"

#include <tree_sitter/api.h>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_cake(void);

namespace cake {

struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

/// The syntax tree of a text, in pieces. The text is cut before every line
/// that starts, at its first column, like a top-level item (`kernel NAME(`,
/// `dispatch NAME(`, `bench NAME {`, `const NAME =`, `target NAME`; not
/// inside a block comment), and tree-sitter parses each piece on its own,
/// from its first byte, and the tree is moved to the piece's place, so node
/// positions are those of the text (a parse in place would let the bytes
/// before the piece weigh in its error recovery). In a valid file the cuts
/// fall between items and the pieces' roots hold exactly the items of one
/// parse of the whole file; in a broken
/// file an error stays inside its piece (a missing `}` no longer swallows the
/// kernels after it) and an edit reparses only the pieces it touches.
///
/// The tree is a function of the text alone: each piece is a fresh parse of
/// its bytes, and update() keeps a piece's old tree only when its bytes and
/// its range are unchanged, so the order of edits cannot show in it.
class SyntaxTree {
 public:
  struct Piece {
    ByteRange range;  // [start of its first line, start of the next piece)
    TreePtr tree;     // null until parsed (update() may stop before)
    TSPoint start{};  // the point of range.begin
    /// Its E00xx diagnostics, ranges relative to range.begin, for a piece
    /// starting on line `syntax_line` (messages cite lines); see
    /// syntax_diagnostics().
    mutable std::optional<std::vector<Diagnostic>> syntax;
    mutable uint32_t syntax_line = 0;
  };

  SyntaxTree() = default;
  /// Parses `text` (with `lines`, its line index, for the pieces' points).
  SyntaxTree(std::string_view text, const LineIndex& lines);

  /// The pieces; every one parsed unless update() was cancelled.
  const std::vector<Piece>& pieces() const { return pieces_; }
  bool has_error() const;
  /// Each piece's root node, in text order.
  template <typename Fn>
  void for_each_root(Fn&& fn) const {
    for (const Piece& p : pieces_) fn(ts_tree_root_node(p.tree.get()));
  }
  /// The root of the piece holding `offset` (the last piece for the end).
  TSNode root_at(uint32_t offset) const;

  /// What one or more edits changed since the text was parsed last: the
  /// replaced stretches, disjoint and in text order, each as its bytes in the
  /// old text and in the new one; everything between them is unchanged
  /// (moved). Edits far apart stay apart, so a burst of edits all over a file
  /// reparses only the pieces they fall in.
  struct Changes {
    struct Span {
      uint32_t old_begin = 0, old_end = 0, new_begin = 0, new_end = 0;
    };
    std::vector<Span> spans;
    /// One edit: [begin, end) replaced by `inserted` bytes.
    static Changes of(uint32_t begin, uint32_t end, uint32_t inserted) {
      Changes c;
      c.add(begin, end, inserted);
      return c;
    }
    /// A later edit, in the text as it is after the changes so far; spans it
    /// overlaps or touches merge with it.
    void add(uint32_t begin, uint32_t end, uint32_t inserted);
  };
  /// With `cancelled`, asked before each piece is parsed: when it answers
  /// true, update() returns false and the pieces left stay unparsed until
  /// finish() (or another update()) parses them.
  /// Reparses the pieces that changed and moves the rest.
  bool update(std::string_view text, const LineIndex& lines, const Changes& changed,
              const std::function<bool()>& cancelled = {});
  /// Parses the pieces an update() left; true unless cancelled.
  bool finish(std::string_view text, const LineIndex& lines, const std::function<bool()>& cancelled = {});

 private:
  std::vector<Piece> pieces_;
};

/// The syntax tree of `text` (SyntaxTree above). Never fails.
SyntaxTree parse(std::string_view text);

/// The starts of the pieces of `text`: 0, then the start of every line that
/// begins like a top-level item outside a block comment, in order.
std::vector<uint32_t> piece_starts(std::string_view text);

/// E00xx diagnostics for the ERROR and MISSING nodes of `tree`, and for bytes
/// that are not valid UTF-8 or are NUL. A piece's own are computed once and
/// kept with it while it stays on the same line.
std::vector<Diagnostic> syntax_diagnostics(const SyntaxTree& tree, std::string_view text, const LineIndex& lines);
std::vector<Diagnostic> syntax_diagnostics(const SyntaxTree& tree, std::string_view text);

/// The text of a node.
inline std::string_view node_text(TSNode node, std::string_view text) {
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  if (b > text.size()) b = static_cast<uint32_t>(text.size());
  if (e > text.size()) e = static_cast<uint32_t>(text.size());
  return text.substr(b, e - b);
}

inline ByteRange node_range(TSNode node) {
  return {ts_node_start_byte(node), ts_node_end_byte(node)};
}

}  // namespace cake
