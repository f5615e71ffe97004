// The canonical format (cake/format.h): the examples are already in it, a
// messy file comes out as expected, formatting twice changes nothing, and no
// token or comment is lost, on every example and test file.
#include <catch2/catch.hpp>

#include "cake/format.h"
#include "support/test_files.h"

#include <string>

namespace {

std::optional<std::string> fmt(const std::string& text) {
  cake::SyntaxTree tree = cake::parse(text);
  return cake::format_source(tree, text);
}

/// The text without any whitespace: what formatting must keep.
std::string squeezed(std::string_view text) {
  std::string out;
  for (char ch : text)
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') out += ch;
  return out;
}

std::vector<std::filesystem::path> inputs() {
  return cake::test::list_files({CAKE_EXAMPLES_DIR, std::filesystem::path(CAKE_TESTS_DIR) / "diagnostics"}, {".cake"});
}

}  // namespace

TEST_CASE("the examples are in the canonical format") {
  auto files = cake::test::list_files(CAKE_EXAMPLES_DIR, {".cake"});
  REQUIRE(!files.empty());
  for (const auto& path : files) {
    auto text = cake::test::read_file(path);
    REQUIRE(text);
    INFO(path.string());
    auto out = fmt(*text);
    REQUIRE(out);
    CHECK(*out == *text);
  }
}

TEST_CASE("a messy file gets indentation, blank lines and trailing spaces fixed") {
  std::string messy =
      "\n\ntarget sm_90a   \n"
      "kernel k(A: global f32[N],\n"
      "B: global f32[N])\n"
      "where N % 128 == 0\n"
      "      grid (N / 128) block 128\n"
      "{\n"
      "smem t: f32[128]      // aligned comment   \n"
      "\n\n\n"
      "      for i in 0 .. 4 {\n"
      "  // a comment line\n"
      "let x = i   *  2\n"
      "}\n"
      "}";
  std::string expected =
      "target sm_90a\n"
      "kernel k(A: global f32[N],\n"
      "    B: global f32[N])\n"
      "  where N % 128 == 0\n"
      "  grid (N / 128) block 128\n"
      "{\n"
      "  smem t: f32[128]      // aligned comment\n"
      "\n"
      "  for i in 0 .. 4 {\n"
      "    // a comment line\n"
      "    let x = i   *  2\n"
      "  }\n"
      "}\n";
  auto out = fmt(messy);
  REQUIRE(out);
  CHECK(*out == expected);
  CHECK(fmt(*out) == out);
}

TEST_CASE("a file with syntax errors is not formatted") {
  CHECK_FALSE(fmt("target sm_90a\nkernel k( {\n"));
}

TEST_CASE("formatting keeps every token and is idempotent") {
  auto files = inputs();
  REQUIRE(!files.empty());
  int formatted = 0;
  for (const auto& path : files) {
    auto text = cake::test::read_file(path);
    REQUIRE(text);
    INFO(path.string());
    auto once = fmt(*text);
    if (!once) continue;  // syntax errors on purpose
    ++formatted;
    CHECK(squeezed(*once) == squeezed(*text));
    CHECK(fmt(*once) == once);
  }
  CHECK(formatted > 0);
}
