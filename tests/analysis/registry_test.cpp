// Keeps the diagnostic registry, its docs pages and its tests in step: every
// registered code has docs/rules/<code>.md whose first line is
// "# <code>: <summary>", every page belongs to a registered code, and every
// code is drawn by at least one annotated test in tests/diagnostics/ (or, for
// the two that a text file cannot carry, by a case here).
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/registry.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool draws(const std::string& text, cake::DiagId id) {
  auto a = cake::analyze(text);
  for (const auto& d : a->diagnostics)
    if (d.id == id) return true;
  return false;
}

}  // namespace

TEST_CASE("every registered code has a docs page with its summary") {
  for (const cake::RuleInfo& r : cake::all_rules()) {
    fs::path page = fs::path(CAKE_DOCS_DIR) / "rules" / (std::string(r.code) + ".md");
    INFO(page.string());
    REQUIRE(fs::exists(page));
    std::string first = read(page).substr(0, read(page).find('\n'));
    CHECK(first == "# " + std::string(r.code) + ": " + std::string(r.summary));
  }
}

TEST_CASE("every docs page belongs to a registered code") {
  for (const auto& entry : fs::directory_iterator(fs::path(CAKE_DOCS_DIR) / "rules")) {
    std::string name = entry.path().stem().string();
    if (name == "README") continue;
    INFO(name);
    CHECK(cake::find_rule(name) != nullptr);
  }
}

TEST_CASE("every registered code is drawn by a test") {
  std::string all;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(CAKE_TESTS_DIR) / "diagnostics"))
    if (entry.path().extension() == ".cake") all += read(entry.path());
  // Codes a .cake test file cannot carry: bytes that are not text, and
  // nesting deeper than any reviewable file.
  std::set<std::string> exempt = {"CAKE-E0003", "CAKE-E0005"};
  for (const cake::RuleInfo& r : cake::all_rules()) {
    if (exempt.count(std::string(r.code))) continue;
    INFO(r.code);
    CHECK(all.find("[" + std::string(r.code) + "]") != std::string::npos);
  }
}

TEST_CASE("E0003: NUL bytes and invalid UTF-8") {
  CHECK(draws(std::string("target sm_90a\n\0\n", 16), cake::DiagId::InvalidCharacter));
  CHECK(draws("target sm_90a\n// \xff\xfe\n", cake::DiagId::InvalidCharacter));
  CHECK_FALSE(draws("target sm_90a\n// caf\xc3\xa9\n", cake::DiagId::InvalidCharacter));
}

TEST_CASE("E0005: nesting deeper than the limit") {
  std::string deep = "target sm_90a\nkernel k() grid (1) block 32 {\n";
  std::string shallow = deep;
  for (int i = 0; i < 300; ++i) deep += "if 1 {\n";
  for (int i = 0; i < 300; ++i) deep += "}\n";
  for (int i = 0; i < 20; ++i) shallow += "if 1 {\n";
  for (int i = 0; i < 20; ++i) shallow += "}\n";
  deep += "}\n";
  shallow += "}\n";
  CHECK(draws(deep, cake::DiagId::NestingTooDeep));
  CHECK_FALSE(draws(shallow, cake::DiagId::NestingTooDeep));
}
