// Tests of server/text_report: the header line, the source and caret lines
// (code-point alignment, tabs kept, spans that run past the line, empty
// spans, invalid bytes), notes, fixes, target suffixes and colour.
#include "text_report.h"

#include <catch2/catch.hpp>

namespace cake {
namespace {

using namespace std::literals;

struct Doc {
  explicit Doc(std::string s) : text(std::move(s)), lines(text), positions(text, lines) {}
  std::string text;
  LineIndex lines;
  PositionConverter positions;
};

Diagnostic undefined(ByteRange range, std::string message = "undefined buffer `xs`") {
  Diagnostic d;
  d.id = DiagId::UndefinedName;
  d.range = range;
  d.message = std::move(message);
  return d;
}

std::string render(const Doc& doc, const Diagnostic& d, std::vector<std::string> targets = {"sm_90a"},
                   bool color = false) {
  TextDocument document{"k.cake", &doc.positions, std::move(targets)};
  return render_diagnostics({d}, document, {.color = color});
}

TEST_CASE("caret lines align by code points and keep tabs") {
  struct Case {
    std::string line;
    uint32_t begin, end;
    std::string expected;
  };
  const Case cases[] = {
      {"abcdef", 2, 4, "  ^~"},
      {"abcdef", 0, 0, "^"},                        // empty span
      {"abc", 3, 3, "   ^"},                        // at the end of the line
      {"abc", 1, UINT32_MAX, " ^~"},                // runs past the line
      {"\tx = y", 5, 6, "\t    ^"},                 // tab kept
      {"\xC3\xA9\xC3\xA9x", 4, 5, "  ^"},           // two é, one column each
      {"\xF0\x9F\x98\x80" "ab", 4, 6, " ^~"},        // astral: one code point
      {"\xFF\xFEx", 2, 3, "  ^"},                   // invalid bytes: one each
      {"a\xE2\x82\xAC\xE2\x82\xAC", 1, 7, " ^~"},   // span of multi-byte chars
  };
  for (const Case& c : cases) {
    CAPTURE(c.line, c.begin, c.end);
    CHECK(caret_line(c.line, c.begin, c.end) == c.expected);
  }
}

TEST_CASE("printable replaces invalid bytes and control characters") {
  CHECK(printable("a\tb") == "a\tb");
  CHECK(printable(std::string("a\0b"sv)) == "a\xEF\xBF\xBD" "b");
  CHECK(printable("\xFF\xC3\xA9\x1B") == "\xEF\xBF\xBD\xC3\xA9\xEF\xBF\xBD");
}

TEST_CASE("a diagnostic renders as header, source line and caret line") {
  Doc doc("target sm_90a\n\ttma.load xs <- t\n");
  std::string out = render(doc, undefined({24, 26}));
  CHECK(out ==
        "k.cake:2:11: error[CAKE-E0101]: undefined buffer `xs`\n"
        "\ttma.load xs <- t\n"
        "\t         ^~\n");
}

TEST_CASE("columns count code points") {
  Doc doc("// \xC3\xA9\xF0\x9F\x98\x80\nx \xC3\xA9 yy\n");
  std::string out = render(doc, undefined({15, 17}, "m"));
  CHECK(out.starts_with("k.cake:2:5: error[CAKE-E0101]: m\n"));
  CHECK(out.ends_with("x \xC3\xA9 yy\n    ^~\n"));
}

TEST_CASE("related spans become notes and fixes become help lines") {
  Doc doc("const T = 1\nconst T = 2\n");
  Diagnostic d;
  d.id = DiagId::DuplicateName;
  d.range = {18, 19};
  d.message = "`T` is already defined";
  d.related.push_back({{6, 7}, "first defined here"});
  d.fixes.push_back({"rename to `T2`", {{{18, 19}, "T2"}}, true});
  CHECK(render(doc, d) ==
        "k.cake:2:7: error[CAKE-E0102]: `T` is already defined\n"
        "const T = 2\n"
        "      ^\n"
        "k.cake:1:7: note: first defined here\n"
        "const T = 1\n"
        "      ^\n"
        "  help: rename to `T2`\n");
}

TEST_CASE("a span over several lines underlines to the end of its first") {
  Doc doc("ab\ncdef\ngh");
  CHECK(render(doc, undefined({4, 9}, "m")) == "k.cake:2:2: error[CAKE-E0101]: m\ncdef\n ^~~\n");
}

TEST_CASE("diagnostics past the end or on bad bytes never break the output") {
  Doc doc(std::string("x\0\xFF\n"sv));
  CHECK(render(doc, undefined({1, 3}, "m")) == "k.cake:1:2: error[CAKE-E0101]: m\nx\xEF\xBF\xBD\xEF\xBF\xBD\n ^~\n");
  CHECK(render(doc, undefined({90, 99}, "m")) == "k.cake:2:1: error[CAKE-E0101]: m\n\n^\n");
}

TEST_CASE("targets are named when they are not all of the file's") {
  Doc doc("x\n");
  Diagnostic d = undefined({0, 1}, "m");
  d.targets = {"sm_80"};
  CHECK(render(doc, d, {"sm_80", "sm_90a"}).starts_with("k.cake:1:1: error[CAKE-E0101]: m [target sm_80]\n"));
  CHECK(render(doc, d, {"sm_80"}).starts_with("k.cake:1:1: error[CAKE-E0101]: m\n"));
}

TEST_CASE("colour adds ANSI escapes only when asked") {
  Doc doc("x\n");
  CHECK(render(doc, undefined({0, 1}, "m")).find('\x1b') == std::string::npos);
  std::string colored = render(doc, undefined({0, 1}, "m"), {}, true);
  CHECK(colored.find("\x1b[1;31merror") != std::string::npos);
  CHECK(colored.find("\x1b[0m") != std::string::npos);
}

}  // namespace
}  // namespace cake
