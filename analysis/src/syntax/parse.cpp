// SyntaxTree (cake/syntax.h): pieces parsed by one tree-sitter parser per
// thread, reused across documents.
#include "cake/syntax.h"

#include <algorithm>
#include <thread>

namespace cake {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

// A text at least this long is parsed by two threads.
constexpr size_t kParallelParseBytes = 256 * 1024;

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

/// A fresh parse of the bytes `range` of `text`, moved to their place in
/// it. The bytes are parsed on their own, from byte 0, and the tree then
/// moved (ts_tree_edit): parsed in place (an included range), the first
/// token carries everything before the range as its padding, whose size
/// weighs in tree-sitter's error recovery, so a broken piece could parse
/// differently at another place in the text (a fuzz input, now
/// tests/fuzz/corpus/piece-parse-depends-on-its-place: ERROR at one offset,
/// source_file holding an ERROR at another), and a piece kept across an
/// edit would not be what a fresh parse gives.
void parse_piece(std::string_view text, const LineIndex& lines, SyntaxTree::Piece& piece) {
  TSParser* parser = thread_parser();
  ByteRange range = piece.range;
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data() + range.begin, range.end - range.begin);
  if (!tree) {  // cancelled or timed out: never leave the caller without a tree
    ts_parser_reset(parser);
    tree = ts_parser_parse_string(parser, nullptr, "", 0);
  }
  TSPoint start = point(lines, range.begin);
  if (range.begin > 0) {
    TSInputEdit e{};
    e.new_end_byte = range.begin;
    e.new_end_point = start;
    ts_tree_edit(tree, &e);
  }
  piece.tree.reset(tree);
  piece.start = start;
  piece.syntax.reset();
}

}  // namespace

SyntaxTree::SyntaxTree(std::string_view text, const LineIndex& lines) {
  std::vector<uint32_t> starts = piece_starts(text);
  pieces_.resize(starts.size());
  for (size_t i = 0; i < starts.size(); ++i)
    pieces_[i].range = {starts[i], i + 1 < starts.size() ? starts[i + 1] : static_cast<uint32_t>(text.size())};
  // A large text: a second thread (with its own parser) parses the pieces
  // of its second half. Pieces are independent parses.
  if (text.size() >= kParallelParseBytes && pieces_.size() > 1 && std::thread::hardware_concurrency() > 1) {
    size_t half = static_cast<size_t>(
        std::upper_bound(starts.begin(), starts.end(), static_cast<uint32_t>(text.size() / 2)) - starts.begin());
    half = std::clamp<size_t>(half, 1, pieces_.size() - 1);
    std::thread helper([&] {
      for (size_t i = half; i < pieces_.size(); ++i) parse_piece(text, lines, pieces_[i]);
    });
    for (size_t i = 0; i < half; ++i) parse_piece(text, lines, pieces_[i]);
    helper.join();
  }
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

void SyntaxTree::Changes::add(uint32_t begin, uint32_t end, uint32_t inserted) {
  // The spans [i, j) overlap or touch [begin, end] (new coordinates).
  size_t i = 0;
  while (i < spans.size() && spans[i].new_end < begin) ++i;
  size_t j = i;
  while (j < spans.size() && spans[j].new_begin <= end) ++j;
  // Up to the end of a span, new - old is the shift of everything before.
  auto shift_through = [&](size_t k) { return k ? int64_t(spans[k - 1].new_end) - spans[k - 1].old_end : 0; };
  Span merged;
  if (j > i && spans[i].new_begin <= begin) {
    merged.old_begin = spans[i].old_begin;
    merged.new_begin = spans[i].new_begin;
  } else {
    merged.old_begin = uint32_t(begin - shift_through(i));
    merged.new_begin = begin;
  }
  uint32_t reach = end;  // the merged stretch's end, before this edit
  if (j > i && spans[j - 1].new_end >= end) {
    merged.old_end = spans[j - 1].old_end;
    reach = spans[j - 1].new_end;
  } else {
    merged.old_end = uint32_t(end - shift_through(j));
  }
  int64_t delta = int64_t(inserted) - int64_t(end - begin);
  merged.new_end = uint32_t(reach + delta);
  spans.erase(spans.begin() + i, spans.begin() + j);
  spans.insert(spans.begin() + i, merged);
  for (size_t k = i + 1; k < spans.size(); ++k) {
    spans[k].new_begin = uint32_t(spans[k].new_begin + delta);
    spans[k].new_end = uint32_t(spans[k].new_end + delta);
  }
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

bool SyntaxTree::update(std::string_view text, const LineIndex& lines, const Changes& changed,
                        const std::function<bool()>& cancelled) {
  std::vector<uint32_t> starts = piece_starts(text);
  const std::vector<Changes::Span>& spans = changed.spans;
  std::vector<Piece> next;
  next.reserve(starts.size());
  size_t old = 0;   // pieces_ before `old` are passed
  size_t span = 0;  // spans before `span` end at or before the piece
  for (size_t i = 0; i < starts.size(); ++i) {
    ByteRange r{starts[i], i + 1 < starts.size() ? starts[i + 1] : static_cast<uint32_t>(text.size())};
    while (span < spans.size() && spans[span].new_end <= r.begin) ++span;
    // The same bytes as before the changes, moved by those before it: no
    // span reaches into it. A piece's tree depends only on its bytes: the
    // lexer sees nothing outside its range.
    bool unchanged = true;
    for (size_t k = span; k < spans.size() && spans[k].new_begin < r.end; ++k)
      if (spans[k].new_end > r.begin) unchanged = false;
    if (unchanged) {
      int64_t shift = span ? int64_t(spans[span - 1].new_end) - spans[span - 1].old_end : 0;
      ByteRange was{uint32_t(r.begin - shift), uint32_t(r.end - shift)};
      while (old < pieces_.size() && pieces_[old].range.begin < was.begin) ++old;
      if (old < pieces_.size() && pieces_[old].range.begin == was.begin && pieces_[old].range.end == was.end) {
        Piece p = std::move(pieces_[old++]);
        if (p.tree && r.begin != was.begin) {
          // Every byte before the piece, from the first change on, was
          // replaced (as far as its tree is concerned).
          TSInputEdit e{};
          e.start_byte = spans.front().new_begin;
          e.old_end_byte = was.begin;
          e.new_end_byte = r.begin;
          e.start_point = point(lines, e.start_byte);
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
