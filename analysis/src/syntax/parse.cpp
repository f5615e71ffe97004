// SyntaxTree (cake/syntax.h): pieces parsed by one tree-sitter parser per
// thread, reused across documents.
#include "cake/syntax.h"

#include <algorithm>

namespace cake {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

TSParser* thread_parser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser = [] {
    std::unique_ptr<TSParser, ParserDeleter> p(ts_parser_new());
    ts_parser_set_language(p.get(), tree_sitter_cake());
    return p;
  }();
  return parser.get();
}

TSPoint point(const LineIndex& lines, uint32_t offset) {
  LineCol p = lines.position(offset);
  return {p.line, p.column};
}

/// A fresh parse of the bytes `range` of `text`, at their place in it.
void parse_piece(std::string_view text, const LineIndex& lines, SyntaxTree::Piece& piece) {
  TSParser* parser = thread_parser();
  ByteRange range = piece.range;
  TSRange r{point(lines, range.begin), point(lines, range.end), range.begin, range.end};
  ts_parser_set_included_ranges(parser, &r, 1);
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  if (!tree) {  // cancelled or timed out: never leave the caller without a tree
    ts_parser_reset(parser);
    ts_parser_set_included_ranges(parser, nullptr, 0);
    tree = ts_parser_parse_string(parser, nullptr, "", 0);
  }
  piece.tree.reset(tree);
  piece.start = r.start_point;
  piece.syntax.reset();
}

}  // namespace

SyntaxTree::SyntaxTree(std::string_view text, const LineIndex& lines) {
  std::vector<uint32_t> starts = piece_starts(text);
  pieces_.resize(starts.size());
  for (size_t i = 0; i < starts.size(); ++i)
    pieces_[i].range = {starts[i], i + 1 < starts.size() ? starts[i + 1] : static_cast<uint32_t>(text.size())};
  finish(text, lines);
}

bool SyntaxTree::finish(std::string_view text, const LineIndex& lines, const std::function<bool()>& cancelled) {
  for (Piece& p : pieces_) {
    if (p.tree) continue;
    if (cancelled && cancelled()) return false;
    parse_piece(text, lines, p);
  }
  return true;
}

void SyntaxTree::Window::add(uint32_t b, uint32_t e, uint32_t inserted) {
  // Bytes before the window's begin are the parsed text's; bytes after its
  // end are too, moved: the part of [b, e) past the end widens both ends.
  uint32_t reach = std::max(new_end, e);
  old_end += reach - new_end;
  new_end = reach - (e - b) + inserted;
  begin = std::min(begin, b);
}

SyntaxTree parse(std::string_view text) { return SyntaxTree(text, LineIndex(text)); }

bool SyntaxTree::has_error() const {
  return std::any_of(pieces_.begin(), pieces_.end(),
                     [](const Piece& p) { return ts_node_has_error(ts_tree_root_node(p.tree.get())); });
}

TSNode SyntaxTree::root_at(uint32_t offset) const {
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), offset,
                             [](uint32_t o, const Piece& p) { return o < p.range.begin; });
  if (it != pieces_.begin()) --it;
  return ts_tree_root_node(it->tree.get());
}

bool SyntaxTree::update(std::string_view text, const LineIndex& lines, Window changed,
                        const std::function<bool()>& cancelled) {
  std::vector<uint32_t> starts = piece_starts(text);
  int64_t shift = int64_t(changed.new_end) - int64_t(changed.old_end);
  std::vector<Piece> next;
  next.reserve(starts.size());
  size_t old = 0;  // pieces_ before `old` are passed
  for (size_t i = 0; i < starts.size(); ++i) {
    ByteRange r{starts[i], i + 1 < starts.size() ? starts[i + 1] : static_cast<uint32_t>(text.size())};
    // The same bytes at the same place before the change, or after it, moved.
    // A piece's tree depends only on its bytes: the lexer sees nothing
    // outside its range.
    ByteRange was = r;
    bool unchanged = r.end <= changed.begin;
    if (!unchanged && r.begin >= changed.new_end) {
      unchanged = true;
      was = {uint32_t(r.begin - shift), uint32_t(r.end - shift)};
    }
    if (unchanged) {
      while (old < pieces_.size() && pieces_[old].range.begin < was.begin) ++old;
      if (old < pieces_.size() && pieces_[old].range.begin == was.begin && pieces_[old].range.end == was.end) {
        Piece p = std::move(pieces_[old++]);
        if (p.tree && r.begin != was.begin) {
          // Every byte before the piece, from the change on, was replaced.
          TSInputEdit e{};
          e.start_byte = changed.begin;
          e.old_end_byte = was.begin;
          e.new_end_byte = r.begin;
          e.start_point = point(lines, changed.begin);
          e.old_end_point = p.start;
          e.new_end_point = point(lines, r.begin);
          ts_tree_edit(p.tree.get(), &e);
          p.start = e.new_end_point;
        }
        p.range = r;
        next.push_back(std::move(p));
        continue;
      }
    }
    next.emplace_back().range = r;  // parsed below
  }
  pieces_ = std::move(next);
  return finish(text, lines, cancelled);
}

}  // namespace cake
