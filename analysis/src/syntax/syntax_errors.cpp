// E00xx: turns tree-sitter's ERROR and MISSING nodes, invalid UTF-8 and NUL
// bytes into specific diagnostics. tree-sitter 0.20 cannot list the tokens
// it expected, so messages are built from what is known: the missing token
// and the bracket it closes, or the keyword whose statement is malformed and
// that statement's form (forms.def).
#include "cake/syntax.h"

#include "cake/source.h"
#include "diag_builder.h"

#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/FormatVariadic.h>

#include <cctype>
#include <cstring>
#include <optional>
#include <set>
#include <string>

namespace cake {
namespace {

constexpr size_t kMaxSyntaxDiagnostics = 50;
constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);

struct Form {
  std::string_view keyword, form;
};
constexpr Form kForms[] = {
#define CAKE_FORM(KEYWORD, FORM) {KEYWORD, FORM},
#include "syntax/forms.def"
#undef CAKE_FORM
};

std::string_view form_of(std::string_view keyword) {
  for (const Form& f : kForms)
    if (f.keyword == keyword) return f.form;
  return {};
}

/// A token's text for a message: at most 24 bytes, no line breaks.
std::string quote(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\r') break;
    out += c;
    if (out.size() >= 24) { out += "..."; break; }
  }
  return "`" + out + "`";
}

std::string_view opener_for(std::string_view closer) {
  if (closer == "]") return "[";
  if (closer == ")") return "(";
  if (closer == "}") return "{";
  return {};
}

std::string_view construct_name(std::string_view parent_type, std::string_view closer) {
  if (parent_type == "index_expression") return "index";
  if (parent_type == "shape") return "shape";
  if (parent_type == "block") return "block";
  if (parent_type == "parameter_list") return "parameter list";
  if (parent_type == "argument_list") return "argument list";
  if (parent_type == "dim_list") return "dimension list";
  if (parent_type == "name_list") return "parameter list";
  if (parent_type == "dispatch_item") return "dispatch";
  if (parent_type == "bench_item") return "bench";
  if (closer == ")") return "parenthesis";
  if (closer == "]") return "bracket";
  return "brace";
}

/// The type of a node, "" for a null node (ts_node_type would crash).
std::string_view type_of(TSNode node) { return ts_node_is_null(node) ? std::string_view() : ts_node_type(node); }

/// The first leaf at or under `node`.
TSNode first_leaf(TSNode node) {
  while (ts_node_child_count(node) > 0) node = ts_node_child(node, 0);
  return node;
}

class SyntaxErrorCollector {
 public:
  SyntaxErrorCollector(std::string_view text, const LineIndex& lines) : text_(text), lines_(lines) {}

  void missing(TSNode node, TSNode parent) {
    std::string_view type = ts_node_type(node);
    uint32_t at = insertion_point(ts_node_start_byte(node));
    std::string what = type == "identifier" ? std::string("a name")
                       : ts_node_is_named(node) ? "a " + std::string(type)
                                                : "`" + std::string(type) + "`";
    std::string context;
    std::vector<RelatedSpan> related;
    std::string_view opener = opener_for(type);
    if (!opener.empty() && !ts_node_is_null(parent)) {
      // The nearest unmatched opener before the missing closer.
      int depth = 0;
      for (int i = static_cast<int>(ts_node_child_count(parent)) - 1; i >= 0; --i) {
        TSNode c = ts_node_child(parent, i);
        if (ts_node_start_byte(c) >= at && !ts_node_eq(c, node)) continue;
        std::string_view ct = type_of(c);
        if (ct == type && !ts_node_is_missing(c)) ++depth;
        if (ct == opener) {
          if (depth == 0) {
            std::string_view name = construct_name(type_of(parent), type);
            auto pos = lines().position(ts_node_start_byte(c));
            context = llvm::formatv(" to close the {0} opened at {1}:{2}", name, pos.line + 1, pos.column + 1).str();
            related.push_back({node_range(c), "`" + std::string(opener) + "` opened here"});
            break;
          }
          --depth;
        }
      }
    }
    if (context.empty() && !ts_node_is_null(parent)) {
      std::string_view keyword = type_of(ts_node_child(parent, 0));
      if (!form_of(keyword).empty()) context = llvm::formatv(" in `{0}`", keyword).str();
    }
    Diagnostic d = make_diagnostic(DiagId::MissingToken, {at, at}, what, context);
    d.related = std::move(related);
    if (!ts_node_is_named(node))
      d.fixes.push_back({llvm::formatv("insert `{0}`", type).str(), {{{at, at}, std::string(type)}}, true});
    add(std::move(d));
  }

  void error(TSNode node, TSNode parent) {
    std::string_view parent_type = type_of(parent);
    // The first token that is a direct child of the ERROR node is where the
    // parser gave up; fall back to the node's first leaf.
    TSNode token = first_leaf(node);
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_child(node, i);
      if (ts_node_child_count(c) == 0) { token = c; break; }
    }
    std::string_view tok = node_text(token, text_);
    ByteRange range = node_range(token);
    // A character the language never uses is the likeliest culprit.
    for (uint32_t i = ts_node_start_byte(node); i < ts_node_end_byte(node) && i < text_.size(); ++i) {
      unsigned char ch = static_cast<unsigned char>(text_[i]);
      if (ch >= 0x80 || std::isalnum(ch) || std::isspace(ch)) continue;
      if (std::string_view("()[]{}<>=+-*/%^&|!.,:@_").find(static_cast<char>(ch)) != std::string_view::npos) continue;
      add(make_diagnostic(DiagId::SyntaxError, {i, i + 1},
                          llvm::formatv("unexpected character `{0}`", static_cast<char>(ch)).str()));
      return;
    }
    if (text_.substr(range.begin).starts_with("/*")) return;  // reported by unterminated_comment()
    std::string message;
    std::string_view form = form_of(tok);
    if (!form.empty() && ts_node_start_byte(token) == ts_node_start_byte(node)) {
      // A keyword-led construct that does not parse: widen to its line.
      uint32_t end = ts_node_end_byte(node);
      uint32_t eol = range.end;
      while (eol < end && eol < text_.size() && text_[eol] != '\n') ++eol;
      range.end = eol;
      message = llvm::formatv("malformed `{0}`: expected `{1}`", tok, form).str();
    } else if (range.begin == range.end) {
      message = "unexpected end of input";
    } else if (parent_type == "source_file" && tok == "reference" &&
               type_of(ts_node_prev_sibling(node)) == "bench_item") {
      // A bench's `reference` clause without a kernel name after it.
      uint32_t end = ts_node_end_byte(node);
      uint32_t eol = range.end;
      while (eol < end && eol < text_.size() && text_[eol] != '\n') ++eol;
      range.end = eol;
      message = llvm::formatv("malformed `reference`: expected `{0}`", form_of("bench")).str();
    } else if (parent_type == "source_file") {
      message = llvm::formatv("unexpected {0}: expected an item (`target`, `const`, `kernel`, `dispatch` or `bench`)",
                              quote(tok)).str();
    } else if (parent_type == "block") {
      message = llvm::formatv("unexpected {0}: expected a statement", quote(tok)).str();
    } else {
      message = llvm::formatv("unexpected {0}", quote(tok)).str();
    }
    add(make_diagnostic(DiagId::SyntaxError, range, message));
  }

  /// A `/*` with no `*/` after it: tree-sitter reports only the stray `/`.
  void unterminated_comment() {
    size_t i = 0;
    while (i + 1 < text_.size()) {
      if (text_[i] == '/' && text_[i + 1] == '/') {
        size_t eol = text_.find('\n', i);
        if (eol == std::string_view::npos) return;
        i = eol + 1;
      } else if (text_[i] == '/' && text_[i + 1] == '*') {
        size_t close = text_.find("*/", i + 2);
        if (close == std::string_view::npos) {
          add(make_diagnostic(DiagId::UnterminatedComment, {uint32_t(i), uint32_t(i + 2)}));
          return;
        }
        i = close + 2;
      } else {
        i = text_.find('/', i + 1);  // only a `/` can start a comment
        if (i == std::string_view::npos) return;
      }
    }
  }

  void encoding() {
    // Invalid UTF-8 sequences and NUL bytes, one diagnostic per run.
    const auto* p = reinterpret_cast<const llvm::UTF8*>(text_.data());
    const auto* end = p + text_.size();
    const auto* begin = p;
    while (p < end && diagnostics_.size() < kMaxSyntaxDiagnostics) {
      p = skip_plain_ascii(p, end);
      if (p == end) break;
      if (*p == 0) {
        const auto* s = p;
        while (p < end && *p == 0) ++p;
        add(make_diagnostic(DiagId::InvalidCharacter, {uint32_t(s - begin), uint32_t(p - begin)},
                            std::string("NUL byte in source text")));
        continue;
      }
      if (*p < 0x80) { ++p; continue; }
      unsigned len = llvm::getNumBytesForUTF8(*p);
      if (p + len <= end && llvm::isLegalUTF8Sequence(p, p + len)) { p += len; continue; }
      const auto* s = p;
      ++p;
      while (p < end && *p >= 0x80) {
        unsigned l = llvm::getNumBytesForUTF8(*p);
        if (p + l <= end && llvm::isLegalUTF8Sequence(p, p + l)) break;
        ++p;
      }
      add(make_diagnostic(DiagId::InvalidCharacter, {uint32_t(s - begin), uint32_t(p - begin)},
                          std::string("invalid UTF-8 byte sequence")));
    }
  }

  /// Skips bytes in 1..0x7f, eight at a time: most text is plain ASCII.
  static const llvm::UTF8* skip_plain_ascii(const llvm::UTF8* p, const llvm::UTF8* end) {
    constexpr uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
    for (uint64_t w; end - p >= 8; p += 8) {
      std::memcpy(&w, p, 8);
      if ((w & kHighs) || ((w - kOnes) & ~w & kHighs)) break;  // a byte >= 0x80, or a NUL
    }
    return p;
  }

  std::vector<Diagnostic> take() { return std::move(diagnostics_); }

  /// Reports the ERROR and MISSING nodes under one root.
  void walk(TSNode root);

  /// tree-sitter places a MISSING token before the next token, past any
  /// comments; move it back to just after the last real token, so that the
  /// insert fix never lands inside or after a comment.
  uint32_t insertion_point(uint32_t at) const {
    uint32_t pos = std::min<uint32_t>(at, static_cast<uint32_t>(text_.size()));
    for (int guard = 0; guard < 1000; ++guard) {
      while (pos > 0 && (text_[pos - 1] == ' ' || text_[pos - 1] == '\t' || text_[pos - 1] == '\n' || text_[pos - 1] == '\r')) --pos;
      if (pos >= 2 && text_.substr(pos - 2, 2) == "*/") {
        size_t open = text_.rfind("/*", pos - 2);
        if (open == std::string_view::npos) break;
        pos = static_cast<uint32_t>(open);
        continue;
      }
      size_t line_start = text_.rfind('\n', pos == 0 ? 0 : pos - 1);
      line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
      size_t slashes = text_.substr(line_start, pos - line_start).find("//");
      if (slashes == std::string_view::npos) break;
      pos = static_cast<uint32_t>(line_start + slashes);
    }
    return pos;
  }

 private:
  void add(Diagnostic d) {
    if (diagnostics_.size() >= kMaxSyntaxDiagnostics) return;
    uint32_t line = lines().position(d.range.begin).line;
    if (!lines_seen_.insert(line).second && d.id != DiagId::InvalidCharacter) return;
    diagnostics_.push_back(std::move(d));
  }

  std::string_view text_;
  const LineIndex& lines() const { return lines_; }

  const LineIndex& lines_;
  std::set<uint32_t> lines_seen_;
  std::vector<Diagnostic> diagnostics_;
};

void shift(Diagnostic& d, int64_t by) {
  for_each_range(d, [&](ByteRange r) {
    return ByteRange{static_cast<uint32_t>(r.begin + by), static_cast<uint32_t>(r.end + by)};
  });
}

}  // namespace

std::vector<Diagnostic> syntax_diagnostics(const SyntaxTree& tree, std::string_view text, const LineIndex& lines) {
  // The text's own (encoding, an unclosed comment) first, then each piece's
  // in order, one per line and at most kMaxSyntaxDiagnostics in all, as one
  // collector over the whole text would report them: pieces hold disjoint
  // lines, so a piece's collector sees the lines it must skip in its own.
  SyntaxErrorCollector collector(text, lines);
  collector.encoding();
  collector.unterminated_comment();
  std::vector<Diagnostic> out = collector.take();
  std::set<uint32_t> text_lines;
  for (const Diagnostic& d : out) text_lines.insert(lines.position(d.range.begin).line);
  for (const SyntaxTree::Piece& p : tree.pieces()) {
    if (out.size() >= kMaxSyntaxDiagnostics) break;
    if (!p.tree || !ts_node_has_error(ts_tree_root_node(p.tree.get()))) continue;
    uint32_t line = lines.position(p.range.begin).line;
    if (!p.syntax || p.syntax_line != line) {
      SyntaxErrorCollector own(text, lines);
      own.walk(ts_tree_root_node(p.tree.get()));
      std::vector<Diagnostic> found = own.take();
      for (Diagnostic& d : found) shift(d, -int64_t(p.range.begin));
      p.syntax = std::move(found);
      p.syntax_line = line;
    }
    for (const Diagnostic& d : *p.syntax) {
      if (out.size() >= kMaxSyntaxDiagnostics) break;
      Diagnostic copy = d;
      shift(copy, p.range.begin);
      if (text_lines.count(lines.position(copy.range.begin).line)) continue;
      out.push_back(std::move(copy));
    }
  }
  return out;
}

std::vector<Diagnostic> syntax_diagnostics(const SyntaxTree& tree, std::string_view text) {
  return syntax_diagnostics(tree, text, LineIndex(text));
}

void SyntaxErrorCollector::walk(TSNode root) {
  if (!ts_node_has_error(root)) return;
  // Iterative pre-order walk over the subtrees that contain errors.
  // `parents` mirrors the cursor's ancestors (ts_node_parent is unreliable
  // for MISSING nodes in tree-sitter 0.20).
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::vector<TSNode> parents;
  bool done = false;
  while (!done) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    TSNode parent = parents.empty() ? TSNode{} : parents.back();
    bool descend = ts_node_has_error(node);
    if (ts_node_is_missing(node)) missing(node, parent);
    else if (ts_node_symbol(node) == kErrorSymbol) error(node, parent);
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      parents.push_back(node);
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) { done = true; break; }
      parents.pop_back();
    }
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace cake
