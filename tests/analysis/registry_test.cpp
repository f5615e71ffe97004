// Keeps the diagnostic registry, its docs pages and its tests in step: every
// registered code has docs/rules/<code>.md whose first line is
// "# <code>: <summary>", every page belongs to a registered code, and every
// code is drawn by at least one annotated test in tests/diagnostics/ (or, for
// the two that a text file cannot carry, by a case here).
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/registry.h"
#include "diag_builder.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

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
  // nesting deeper than any reviewable file; and the lowering's codes, which
  // `cake lower` and `cake check --compile` draw, not the checks
  // (tests/codegen/lower_test.cpp, facts_test.cpp).
  std::set<std::string> exempt = {"CAKE-E0003", "CAKE-E0005", "CAKE-E0801", "CAKE-E0802", "CAKE-W0803",
                                  "CAKE-W0804"};
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

// Section - message templates (diagnostic_kinds.def, diag_builder.h)

namespace {

/// The placeholder indices {N} of a formatv template ({{ is a literal brace).
std::set<int> placeholders(std::string_view t) {
  std::set<int> out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '{') continue;
    if (i + 1 < t.size() && t[i + 1] == '{') { ++i; continue; }
    size_t close = t.find('}', i);
    REQUIRE(close != std::string_view::npos);
    out.insert(std::stoi(std::string(t.substr(i + 1, close - i - 1))));
    i = close;
  }
  return out;
}

bool contiguous(const std::set<int>& s) { return s.empty() || (*s.begin() == 0 && *s.rbegin() == int(s.size()) - 1); }

}  // namespace

TEST_CASE("message templates number their placeholders from {0} without gaps") {
  for (const cake::RuleInfo& r : cake::all_rules()) {
    INFO(r.code << ": " << r.message_template);
    CHECK(contiguous(placeholders(r.message_template)));
  }
  for (const cake::DiagFormInfo& f : cake::kDiagForms) {
    INFO(cake::rule_info(f.id).code << " form: " << f.message_template);
    CHECK(contiguous(placeholders(f.message_template)));
  }
}

TEST_CASE("make_diagnostic fills a form's template with typed arguments") {
  cake::Diagnostic d = cake::make_diagnostic(cake::DiagForm::ExpectTxLate, cake::ByteRange{}, std::string_view("full[0]"),
                                             int64_t(16384), int64_t(49152), int64_t(32768));
  CHECK(d.id == cake::DiagId::ExpectTxBytes);
  CHECK(d.message ==
        "`full[0]` expects 16384 bytes per phase but its copies deliver 49152: the phase completes before the last "
        "32768 bytes land (readers race them)");
  cake::Diagnostic b = cake::make_diagnostic(cake::DiagId::BulkCopySize, cake::ByteRange{}, cake::BitSize{40 * 8},
                                             int64_t(16), "ptx91");
  CHECK(b.message == "`bulk.load` copies 40 bytes, not a multiple of 16 bytes (ptx91)");
  cake::Diagnostic c = cake::make_diagnostic(cake::DiagId::BulkCopySize, cake::ByteRange{}, cake::BitSize{12},
                                             int64_t(16), "ptx91");
  CHECK(c.message == "`bulk.load` copies 12 bits, not a multiple of 16 bytes (ptx91)");
}

// The case: hopper_gemm with its expect_tx cut to the A tile. The
// copies of one phase deliver sA (16384 B) and sB (32768 B); the phase
// completes after sA, so the last 32768 bytes land late.
TEST_CASE("E0402 counts every copy of the expect_tx in hopper_gemm") {
  std::string text = read(fs::path(CAKE_DOCS_DIR) / "examples" / "hopper_gemm.cake");
  std::string from = "bytes(sA[s]) + bytes(sB[s])";
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "bytes(sA[s])");
  auto a = cake::analyze(text);
  std::vector<std::string> messages;
  for (const auto& d : a->diagnostics)
    if (d.id == cake::DiagId::ExpectTxBytes) messages.push_back(d.message);
  REQUIRE(messages.size() == 1);
  CHECK(messages[0] ==
        "`full[0]` expects 16384 bytes per phase but its copies deliver 49152: the phase completes before the last "
        "32768 bytes land (readers race them)");
}
