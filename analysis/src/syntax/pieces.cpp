// piece_starts(): where SyntaxTree cuts a text (cake/syntax.h). A cut goes
// before a line whose first column starts one of
//   kernel NAME (      dispatch NAME (      bench NAME {
//   const NAME =       target NAME  (then a comma, a comment or the line end)
// with spaces or tabs between the tokens, unless the line lies inside a
// block comment. Two names in a row are never an expression or a statement,
// so in a valid file each such line starts an item; the test is on the line
// alone, so a line's status depends only on itself and on block comments.
// Comments are found as the lexer finds them (grammar/src/parser.c): a
// comment never holds a NUL byte, so a `//` comment ends at one and a `/*`
// whose `*/` comes after one opens nothing. A block comment that did not
// end there would merge pieces that the parser reads as code, and parsing
// such a piece again after each edit took 25 ms where 2 ms would do.
#include "cake/syntax.h"

#include <cstring>

namespace cake {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_name_start(char c) { return is_name_char(c) && !(c >= '0' && c <= '9'); }

/// Skips spaces and tabs from `at`.
size_t blanks(std::string_view s, size_t at) {
  while (at < s.size() && (s[at] == ' ' || s[at] == '\t')) ++at;
  return at;
}

/// Does the line starting at `at` begin like a top-level item?
bool starts_item(std::string_view text, size_t at) {
  static constexpr struct {
    std::string_view keyword;
    char after_name;  // '\0': target (a comma, a comment or the line end)
  } kItems[] = {{"kernel", '('}, {"dispatch", '('}, {"bench", '{'}, {"const", '='}, {"target", '\0'}};
  std::string_view rest = text.substr(at);
  for (const auto& item : kItems) {
    if (rest.substr(0, item.keyword.size()) != item.keyword) continue;
    size_t i = item.keyword.size();
    size_t name = blanks(rest, i);
    if (name == i || name >= rest.size() || !is_name_start(rest[name])) return false;
    size_t end = name;
    while (end < rest.size() && is_name_char(rest[end])) ++end;
    size_t next = blanks(rest, end);
    if (item.after_name != '\0') return next < rest.size() && rest[next] == item.after_name;
    return next >= rest.size() || rest[next] == ',' || rest[next] == '\n' || rest[next] == '\r' || rest[next] == '/';
  }
  return false;
}

}  // namespace

std::vector<uint32_t> piece_starts(std::string_view text) {
  std::vector<uint32_t> starts{0};
  const char* base = text.data();
  size_t n = text.size();
  size_t line = 0;  // start of the current line
  size_t pos = 0;   // scanned up to here
  // The first `*/` and the first NUL at or after some earlier point; both
  // only move forward, so every byte is searched once (n: none left).
  size_t close = 0, nul = 0;
  bool close_found = false, nul_found = false;
  auto first_close = [&](size_t from) {
    if (!close_found || (close != n && close < from)) {
      size_t c = text.find("*/", from);
      close = c == std::string_view::npos ? n : c;
      close_found = true;
    }
    return close;
  };
  auto first_nul = [&](size_t from) {
    if (!nul_found || (nul != n && nul < from)) {
      const void* z = std::memchr(base + from, '\0', n - from);
      nul = z ? static_cast<const char*>(z) - base : n;
      nul_found = true;
    }
    return nul;
  };
  // Each line start is tested once; comments are skipped whole.
  while (line < n) {
    if (line > 0 && starts_item(text, line)) starts.push_back(static_cast<uint32_t>(line));
    pos = line;
    const void* nl = std::memchr(base + pos, '\n', n - pos);
    size_t line_end = nl ? static_cast<const char*>(nl) - base : n;
    // Block comments that open on this line may end on a later one.
    while (pos < line_end) {
      const void* slash = std::memchr(base + pos, '/', line_end - pos);
      if (!slash) break;
      size_t s = static_cast<const char*>(slash) - base;
      if (s + 1 >= n) break;
      if (base[s + 1] == '/') {
        // A line comment: the rest of the line, or up to a NUL in it.
        size_t z = first_nul(s + 2);
        if (z >= line_end) break;
        pos = z + 1;
        continue;
      }
      if (base[s + 1] != '*') {
        pos = s + 1;
        continue;
      }
      size_t c = first_close(s + 2);
      if (c == n || first_nul(s + 2) < c) {
        pos = s + 2;  // no comment: `/` and `*`
        continue;
      }
      pos = c + 2;
      if (pos > line_end) {
        // Ends on a later line: scanning goes on there, and the lines in
        // between (and the one it ends on) start no piece.
        nl = std::memchr(base + pos, '\n', n - pos);
        line_end = nl ? static_cast<const char*>(nl) - base : n;
      }
    }
    line = line_end + 1;
  }
  return starts;
}

}  // namespace cake
