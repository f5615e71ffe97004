// Keeps the examples honest. `parse`: every docs/examples/*.cake, and every
// .cake under tests/ that is not a diagnostics test, parses with no ERROR or
// MISSING node (each one is reported as file:line:col). A diagnostics test is
// a file under tests/diagnostics/ or tests/verifier/, or one carrying
// `// expected-` annotations: those are meant to be wrong. tests/fuzz/ is
// skipped too (its corpus is garbage on purpose). `check`: every
// docs/examples/*.cake gets zero error diagnostics from cake::analyze (each
// one is printed). A mode with no file to look at exits 77, a CTest skip.
//
// Usage: cake-examples-test parse|check

#include "../support/test_files.h"

#include "cake/analyze.h"
#include "cake/registry.h"

#include <tree_sitter/api.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool is_diagnostics_test(const fs::path& path, std::string_view text) {
  for (const fs::path& part : path)
    if (part == "diagnostics" || part == "verifier") return true;
  return text.find("// expected-") != std::string_view::npos;
}

bool under(const fs::path& path, const fs::path& dir) {
  auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

/// 1-based line and column of a byte offset.
std::pair<unsigned, unsigned> line_col(std::string_view text, uint32_t offset) {
  unsigned line = 1, col = 1;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return {line, col};
}

/// Prints every ERROR and MISSING node of `text`'s parse; returns how many.
unsigned report_syntax_errors(const fs::path& path, const std::string& text) {
  std::unique_ptr<TSParser, decltype(&ts_parser_delete)> parser(ts_parser_new(), ts_parser_delete);
  ts_parser_set_language(parser.get(), tree_sitter_cake());
  std::unique_ptr<TSTree, decltype(&ts_tree_delete)> tree(
      ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())),
      ts_tree_delete);
  TSNode root = ts_tree_root_node(tree.get());
  if (!ts_node_has_error(root)) return 0;
  unsigned errors = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = ts_node_has_error(node);
    if (ts_node_is_missing(node) || std::strcmp(ts_node_type(node), "ERROR") == 0) {
      auto [line, col] = line_col(text, ts_node_start_byte(node));
      if (ts_node_is_missing(node))
        std::printf("%s:%u:%u: MISSING `%s`\n", path.c_str(), line, col, ts_node_type(node));
      else
        std::printf("%s:%u:%u: ERROR node over `%.*s`\n", path.c_str(), line, col,
                    static_cast<int>(std::min<uint32_t>(40, ts_node_end_byte(node) - ts_node_start_byte(node))),
                    text.data() + ts_node_start_byte(node));
      ++errors;
      descend = false;  // one report per error subtree
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return errors == 0 ? 1 : errors;  // has_error with nothing found: still an error
}

int run_parse() {
  std::vector<fs::path> files = cake::test::list_files(CAKE_EXAMPLES_DIR, {.extension = ".cake"});
  unsigned diagnostics_tests = 0;
  for (const fs::path& file : cake::test::list_files(CAKE_TESTS_DIR, {.extension = ".cake", .recursive = true})) {
    if (under(file, fs::path(CAKE_TESTS_DIR) / "fuzz")) continue;
    files.push_back(file);
  }
  unsigned checked = 0, failed = 0;
  for (const fs::path& file : files) {
    std::optional<std::string> text = cake::test::read_file(file);
    if (!text) {
      std::printf("%s: cannot read\n", file.c_str());
      ++failed;
      continue;
    }
    if (is_diagnostics_test(file.lexically_relative(CAKE_TESTS_DIR), *text) && !under(file, CAKE_EXAMPLES_DIR)) {
      ++diagnostics_tests;
      continue;
    }
    ++checked;
    if (report_syntax_errors(file, *text) != 0) ++failed;
  }
  std::printf("%u file(s) parsed, %u with syntax errors (%u diagnostics test(s) skipped)\n", checked,
              failed, diagnostics_tests);
  if (checked == 0 && failed == 0) {
    std::printf("SKIP: no example or test .cake file to parse\n");
    return 77;
  }
  return failed == 0 ? 0 : 1;
}

int run_check() {
  const std::vector<fs::path> files = cake::test::list_files(CAKE_EXAMPLES_DIR, {.extension = ".cake"});
  if (files.empty()) {
    std::printf("SKIP: no examples in %s\n", CAKE_EXAMPLES_DIR);
    return 77;
  }
  unsigned failed = 0, warnings = 0;
  for (const fs::path& file : files) {
    std::optional<std::string> text = cake::test::read_file(file);
    if (!text) {
      std::printf("%s: cannot read\n", file.c_str());
      ++failed;
      continue;
    }
    std::unique_ptr<cake::Analysis> analysis = cake::analyze(*text);
    unsigned errors = 0;
    for (const cake::Diagnostic& d : analysis->diagnostics) {
      if (d.severity == cake::Severity::Warning) ++warnings;
      if (d.severity != cake::Severity::Error) continue;
      ++errors;
      auto [line, col] = line_col(analysis->text, d.range.begin);
      std::printf("%s:%u:%u: error [%.*s] %s\n", file.c_str(), line, col,
                  static_cast<int>(cake::rule_info(d.id).code.size()), cake::rule_info(d.id).code.data(),
                  d.message.c_str());
    }
    if (errors != 0) ++failed;
  }
  std::printf("%zu example(s) checked, %u with errors, %u warning(s) in all\n", files.size(), failed,
              warnings);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "parse") return run_parse();
  if (mode == "check") return run_check();
  std::printf("usage: %s parse|check\n", argv[0]);
  return 2;
}
