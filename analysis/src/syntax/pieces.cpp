// piece_starts(): where SyntaxTree cuts a text (cake/syntax.h). A cut goes
// before a line whose first column starts one of
//   kernel NAME (      dispatch NAME (      bench NAME {
//   const NAME =       target NAME  (then a comma, a comment or the line end)
// with spaces or tabs between the tokens, unless the line lies inside a
// block comment. Two names in a row are never an expression or a statement,
// so in a valid file each such line starts an item; the test is on the line
// alone, so a line's status depends only on itself and on block comments.
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
  bool closes_left = true;  // false once no `*/` follows: later `/*` open nothing
  // Each line start is tested once; comments are skipped whole. A block
  // comment without its `*/` is no comment to the lexer either: its `/*`
  // is then read as two characters.
  while (line < n) {
    if (line > 0 && starts_item(text, line)) starts.push_back(static_cast<uint32_t>(line));
    pos = line;
    const void* nl = std::memchr(base + pos, '\n', n - pos);
    size_t line_end = nl ? static_cast<const char*>(nl) - base : n;
    // Block comments that open on this line may end on a later one.
    for (;;) {
      const void* slash = std::memchr(base + pos, '/', line_end - pos);
      if (!slash) break;
      size_t s = static_cast<const char*>(slash) - base;
      if (s + 1 >= n) break;
      if (base[s + 1] == '/') break;  // a line comment: the rest of the line
      if (base[s + 1] != '*') {
        pos = s + 1;
        continue;
      }
      size_t close = closes_left ? text.find("*/", s + 2) : std::string_view::npos;
      if (close == std::string_view::npos) {
        closes_left = false;
        pos = s + 2;
        continue;
      }
      pos = close + 2;
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
