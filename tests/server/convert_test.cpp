// Tests of server/convert: byte offsets <-> LSP UTF-16 positions and 1-based
// code-point columns, over ASCII, multi-byte and astral characters, CRLF,
// invalid UTF-8, and offsets or positions past the end; plus file URIs.
#include "convert.h"

#include <catch2/catch.hpp>

#include <string>

namespace cake {
namespace {

using namespace std::literals;

/// A text and the converter over it, kept alive together.
struct Doc {
  explicit Doc(std::string s) : text(std::move(s)), lines(text), positions(text, lines) {}
  std::string text;
  LineIndex lines;
  PositionConverter positions;
};

TEST_CASE("utf8_step decodes well-formed sequences and rejects the rest") {
  struct Case {
    std::string bytes;
    uint32_t length, units;
    bool valid;
  };
  const Case cases[] = {
      {"a", 1, 1, true},           {"\xC3\xA9", 2, 1, true},         // é
      {"\xE2\x82\xAC", 3, 1, true},                                  // €
      {"\xF0\x9F\x98\x80", 4, 2, true},                              // 😀
      {"\xFF", 1, 1, false},       {"\xC0\xAF", 1, 1, false},        // overlong
      {"\xE0\x80\xAF", 1, 1, false},                                 // overlong
      {"\xED\xA0\x80", 1, 1, false},                                 // surrogate
      {"\xF4\x90\x80\x80", 1, 1, false},                             // > U+10FFFF
      {"\xE2\x82", 1, 1, false},   {"\x80", 1, 1, false},            // truncated, stray
      {std::string("\0"sv), 1, 1, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.bytes);
    Utf8Step step = utf8_step(c.bytes);
    CHECK(step.bytes == c.length);
    CHECK(step.utf16_units == c.units);
    CHECK(step.valid == c.valid);
  }
}

TEST_CASE("lengths count invalid bytes as one unit each") {
  CHECK(utf16_length("a\xC3\xA9\xF0\x9F\x98\x80") == 4);
  CHECK(code_point_length("a\xC3\xA9\xF0\x9F\x98\x80") == 3);
  CHECK(utf16_length("\xFF\xFE\xE2\x82") == 4);
  CHECK(code_point_length("\xFF\xFE\xE2\x82") == 4);
  CHECK(utf16_length("") == 0);
}

TEST_CASE("byte offsets become LSP positions in UTF-16 units") {
  Doc doc("ab\n\xC3\xA9x\xF0\x9F\x98\x80y\n");
  CHECK(doc.positions.lsp_position(0) == LspPosition{0, 0});
  CHECK(doc.positions.lsp_position(2) == LspPosition{0, 2});
  CHECK(doc.positions.lsp_position(3) == LspPosition{1, 0});
  CHECK(doc.positions.lsp_position(5) == LspPosition{1, 1});  // after é
  CHECK(doc.positions.lsp_position(6) == LspPosition{1, 2});  // before 😀
  CHECK(doc.positions.lsp_position(10) == LspPosition{1, 4});  // after 😀
  CHECK(doc.positions.lsp_position(11) == LspPosition{1, 5});
  CHECK(doc.positions.lsp_position(12) == LspPosition{2, 0});
}

TEST_CASE("an offset inside a character maps to the character's start") {
  Doc doc("x\xF0\x9F\x98\x80y");
  for (uint32_t offset = 2; offset < 5; ++offset) CHECK(doc.positions.lsp_position(offset) == LspPosition{0, 1});
}

TEST_CASE("offsets past the end clamp to the end") {
  Doc doc("ab\ncd");
  CHECK(doc.positions.lsp_position(5) == LspPosition{1, 2});
  CHECK(doc.positions.lsp_position(1000) == LspPosition{1, 2});
  CHECK(doc.positions.lsp_range({4, 99}) == LspRange{{1, 1}, {1, 2}});
  CHECK(doc.positions.lsp_range({9, 2}) == LspRange{{1, 2}, {1, 2}});  // inverted: empty at begin
  Doc empty("");
  CHECK(empty.positions.lsp_position(7) == LspPosition{0, 0});
  CHECK(empty.positions.text_position(7) == TextPosition{1, 1});
}

TEST_CASE("CRLF line ends are not part of the line") {
  Doc doc("ab\r\ncd");
  CHECK(doc.positions.lsp_position(2) == LspPosition{0, 2});
  CHECK(doc.positions.lsp_position(3) == LspPosition{0, 2});  // between \r and \n
  CHECK(doc.positions.lsp_position(4) == LspPosition{1, 0});
  CHECK(doc.positions.offset({0, 9}) == 2);
}

TEST_CASE("text positions are 1-based with code-point columns") {
  Doc doc("\t\xC3\xA9\xF0\x9F\x98\x80z\n\xFF\xFEq");
  CHECK(doc.positions.text_position(0) == TextPosition{1, 1});
  CHECK(doc.positions.text_position(1) == TextPosition{1, 2});
  CHECK(doc.positions.text_position(3) == TextPosition{1, 3});
  CHECK(doc.positions.text_position(7) == TextPosition{1, 4});  // z
  CHECK(doc.positions.utf16_text_position(7) == TextPosition{1, 5});
  CHECK(doc.positions.text_position(11) == TextPosition{2, 3});  // q after two bad bytes
}

TEST_CASE("LSP positions become byte offsets, clamped") {
  Doc doc("\xC3\xA9\xF0\x9F\x98\x80z\nab");
  CHECK(doc.positions.offset({0, 0}) == 0);
  CHECK(doc.positions.offset({0, 1}) == 2);
  CHECK(doc.positions.offset({0, 2}) == 2);  // inside the surrogate pair
  CHECK(doc.positions.offset({0, 3}) == 6);
  CHECK(doc.positions.offset({0, 4}) == 7);
  CHECK(doc.positions.offset({0, 99}) == 7);  // past the line: its end
  CHECK(doc.positions.offset({1, 1}) == 9);
  CHECK(doc.positions.offset({7, 0}) == 10);  // past the last line: the end
}

TEST_CASE("every character boundary round-trips through an LSP position") {
  Doc doc(std::string("a\xC3\xA9\r\n\xFF\x00\xF0\x9F\x98\x80\xE2\x82\n\n\xED\xA0\x80z"sv));
  std::string_view rest = doc.text;
  uint32_t offset = 0;
  while (true) {
    CAPTURE(offset);
    bool inside_crlf = offset > 0 && doc.text[offset - 1] == '\r' && rest.starts_with('\n');
    if (!inside_crlf) CHECK(doc.positions.offset(doc.positions.lsp_position(offset)) == offset);
    if (rest.empty()) break;
    uint32_t bytes = utf8_step(rest).bytes;
    rest.remove_prefix(bytes);
    offset += bytes;
  }
}

TEST_CASE("file URIs are absolute and percent-encoded") {
  CHECK(file_uri("/work/a b/x.cake") == "file:///work/a%20b/x.cake");
  CHECK(file_uri("/t/\xC3\xA9#?.cake") == "file:///t/%C3%A9%23%3F.cake");
  CHECK(file_uri("rel") == "file:///rel");
  CHECK(relative_uri("dir/a b.cake") == "dir/a%20b.cake");
}

}  // namespace
}  // namespace cake
