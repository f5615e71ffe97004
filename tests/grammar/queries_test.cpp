// Checks the editor queries in grammar/queries/*.scm against the grammar they
// ship with. `compile`: every query file compiles with ts_query_new against
// tree_sitter_cake() (a renamed node or field breaks Neovim and Helix
// silently, so it must break here loudly). `highlights`: highlights.scm, run
// over a built-in sample that holds every construct of the table below, gives
// each listed node the expected capture (first matching pattern wins, as in
// tree-sitter-highlight, and `#match?`/`#eq?` predicates are honoured).
// `examples`: the same table holds for every docs/examples/*.cake (exit 77,
// a CTest skip, when there are none).
//
// Usage: cake-queries-test compile [DIR] | highlights | examples

#include "../support/test_files.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Regex.h>
#include <tree_sitter/api.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_cake(void);

namespace {

namespace fs = std::filesystem;

struct QueryDeleter {
  void operator()(TSQuery* q) const { ts_query_delete(q); }
};
struct CursorDeleter {
  void operator()(TSQueryCursor* c) const { ts_query_cursor_delete(c); }
};
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using QueryPtr = std::unique_ptr<TSQuery, QueryDeleter>;
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

const char* query_error_name(TSQueryError error) {
  switch (error) {
    case TSQueryErrorNone: return "none";
    case TSQueryErrorSyntax: return "syntax error";
    case TSQueryErrorNodeType: return "unknown node type";
    case TSQueryErrorField: return "unknown field";
    case TSQueryErrorCapture: return "unknown capture";
    case TSQueryErrorStructure: return "impossible pattern structure";
    case TSQueryErrorLanguage: return "language mismatch";
  }
  return "unknown error";
}

/// Compiles a query; on failure prints where and why and returns null.
QueryPtr compile_query(const fs::path& path, const std::string& source) {
  uint32_t offset = 0;
  TSQueryError error = TSQueryErrorNone;
  TSQuery* query = ts_query_new(tree_sitter_cake(), source.data(),
                                static_cast<uint32_t>(source.size()), &offset, &error);
  if (query) return QueryPtr(query);
  unsigned line = 1, column = 1;
  for (uint32_t i = 0; i < offset && i < source.size(); ++i) {
    if (source[i] == '\n') ++line, column = 1;
    else ++column;
  }
  size_t line_start = source.rfind('\n', offset == 0 ? 0 : offset - 1);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  size_t line_end = source.find('\n', offset);
  std::string text = source.substr(line_start, line_end == std::string::npos ? std::string::npos
                                                                             : line_end - line_start);
  std::printf("%s:%u:%u: query does not compile: %s (byte offset %u)\n    %s\n    %*s^\n",
              path.c_str(), line, column, query_error_name(error), offset, text.c_str(),
              static_cast<int>(column - 1), "");
  return nullptr;
}

TreePtr parse(const std::string& text) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  ts_parser_set_language(parser.get(), tree_sitter_cake());
  return TreePtr(ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                        static_cast<uint32_t>(text.size())));
}

std::string_view text_of(TSNode node, std::string_view text) {
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  return text.substr(b, e - b);
}

/// Whether the text predicates of `match` hold (`#match?`, `#not-match?`,
/// `#eq?`, `#not-eq?`, `#any-of?`); other predicates and directives are
/// ignored, as a highlighter that does not know them would.
bool predicates_hold(const TSQuery* query, const TSQueryMatch& match, std::string_view text) {
  uint32_t count = 0;
  const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(query, match.pattern_index, &count);
  auto capture_text = [&](uint32_t capture_id) -> std::string {
    for (uint16_t i = 0; i < match.capture_count; ++i)
      if (match.captures[i].index == capture_id) return std::string(text_of(match.captures[i].node, text));
    return {};
  };
  auto string_of = [&](const TSQueryPredicateStep& step) -> std::string {
    if (step.type == TSQueryPredicateStepTypeCapture) return capture_text(step.value_id);
    uint32_t length = 0;
    const char* s = ts_query_string_value_for_id(query, step.value_id, &length);
    return std::string(s, length);
  };
  for (uint32_t i = 0; i < count;) {
    uint32_t end = i;
    while (end < count && steps[end].type != TSQueryPredicateStepTypeDone) ++end;
    if (end - i >= 3) {
      std::string name = string_of(steps[i]);
      std::string subject = string_of(steps[i + 1]);
      if (name == "match?" || name == "not-match?") {
        std::string pattern = string_of(steps[i + 2]);
        llvm::Regex regex(pattern);
        bool found = regex.match(subject);
        if (found != (name == "match?")) return false;
      } else if (name == "eq?" || name == "not-eq?") {
        bool equal = subject == string_of(steps[i + 2]);
        if (equal != (name == "eq?")) return false;
      } else if (name == "any-of?") {
        bool any = false;
        for (uint32_t k = i + 2; k < end; ++k) any = any || subject == string_of(steps[k]);
        if (!any) return false;
      }
    }
    i = end + 1;
  }
  return true;
}

/// The winning capture name of each captured byte range: the capture of the
/// lowest-numbered pattern whose match (predicates included) covers it.
using Captures = std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, std::string>>;

Captures run_query(const TSQuery* query, TSNode root, std::string_view text) {
  Captures winners;
  std::unique_ptr<TSQueryCursor, CursorDeleter> cursor(ts_query_cursor_new());
  ts_query_cursor_exec(cursor.get(), query, root);
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor.get(), &match)) {
    if (!predicates_hold(query, match, text)) continue;
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      uint32_t length = 0;
      const char* name = ts_query_capture_name_for_id(query, match.captures[i].index, &length);
      TSNode node = match.captures[i].node;
      auto key = std::make_pair(ts_node_start_byte(node), ts_node_end_byte(node));
      auto it = winners.find(key);
      if (it == winners.end() || match.pattern_index < it->second.first)
        winners[key] = {match.pattern_index, std::string(name, length)};
    }
  }
  return winners;
}

// Section - The expectations

/// Selects nodes by type, and optionally by parent type, field and text.
struct Expectation {
  const char* type;
  bool named;
  const char* capture;
  const char* parent = nullptr;  // the parent's type
  const char* field = nullptr;   // the field under which the node sits
  const char* text = nullptr;    // the node's exact text
};

const Expectation kHighlights[] = {
    {"kernel", false, "keyword"},
    {"target", false, "keyword"},
    {"role", false, "keyword"},
    {"smem", false, "keyword"},
    {"mbarrier", false, "keyword"},
    {"tensormap", false, "keyword"},
    {"block", false, "keyword"},
    {"pipeline", false, "keyword.repeat"},
    {"for", false, "keyword.repeat"},
    {"if", false, "keyword.conditional"},
    {"tma.load", false, "function.builtin"},
    {"bulk.load", false, "function.builtin"},
    {"arrive.expect_tx", false, "function.builtin"},
    {"wgmma", false, "function.builtin"},
    {"wgmma.fence", false, "function.builtin"},
    {"wgmma.wait", false, "function.builtin"},
    {"wait", false, "function.builtin"},
    {"argmin.row", false, "function.builtin"},
    {"elect", false, "keyword"},
    {"elect.warp", false, "keyword"},
    {"primitive_type", true, "type.builtin"},
    {"memory_space", true, "type.qualifier"},
    {"comment", true, "comment"},
    {"integer_literal", true, "number"},
    {"float_literal", true, "float"},
    {"byte_size", true, "number"},
    {"order_attribute", true, "attribute"},
    {"identifier", true, "function", "kernel_item", "name"},
    {"identifier", true, "function", "bench_item", "kernel"},
    {"identifier", true, "namespace", "role_declaration", "name"},
    {"identifier", true, "parameter", "tensor_parameter", "name"},
    {"identifier", true, "constant.builtin", "layout_attribute", "name"},
    {"identifier", true, "property", "field_expression", "field"},
    {"identifier", true, "function.call", "call_expression", "function"},
    {"identifier", true, "variable.builtin", nullptr, nullptr, "inf"},
    {"identifier", true, "variable", "index_expression", "value"},
};

/// A small file that holds every node of kHighlights.
constexpr std::string_view kSample = R"cake(// every highlighted construct once
target sm_90a

kernel sample(X: global bf16[N, 64] row_major, out: global i32[N])
  grid (N / 128)
  block 384
{
  smem xs: bf16[3][128, 64] swizzle(128B)
  mbarrier full[3]
  tensormap tX = X box [128, 64] swizzle(128B)
  role consumer warpgroup(0) maxnreg(232) {
    reg acc: f32[64, 128] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row) = +inf
    reg arg: i32[64] layout(wgmma_acc.row) = 0
    pipeline s in ring(3) for kt in 0 .. cdiv(N, 128) {
      elect {
        arrive.expect_tx full[s], bytes(xs[s])
        tma.load xs[s] <- tX[block.x * 128, 0], full[s]
      }
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc = xs[s] @ xs[s].T
      wgmma.wait 0
      acc = 2.0 * acc
      argmin.row best, arg <- acc, base(kt * 128)
      elect.warp { bulk.load xs[s] <- X[0 : 64], full[s] }
    }
    for i in 0 .. 2 { if i == 0 { syncthreads } }
  }
}

bench sample { N = 1024 }
)cake";

struct Counts {
  unsigned checked = 0, failed = 0;
};

/// Checks kHighlights over one text; `seen[i]` counts nodes selected by row i.
void check_highlights(const TSQuery* query, std::string_view name, const std::string& text,
                      std::vector<unsigned>& seen, Counts& counts) {
  TreePtr tree = parse(text);
  TSNode root = ts_tree_root_node(tree.get());
  Captures captures = run_query(query, root, text);
  // Walk every node, named or not, with a cursor (no recursion).
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    const char* field = ts_tree_cursor_current_field_name(&cursor);
    TSNode parent = ts_node_parent(node);
    for (size_t i = 0; i < std::size(kHighlights); ++i) {
      const Expectation& e = kHighlights[i];
      if (std::strcmp(ts_node_type(node), e.type) != 0 || ts_node_is_named(node) != e.named) continue;
      if (e.parent && (ts_node_is_null(parent) || std::strcmp(ts_node_type(parent), e.parent) != 0)) continue;
      if (e.field && (!field || std::strcmp(field, e.field) != 0)) continue;
      if (e.text && text_of(node, text) != e.text) continue;
      ++seen[i];
      ++counts.checked;
      auto it = captures.find({ts_node_start_byte(node), ts_node_end_byte(node)});
      std::string got = it == captures.end() ? "(none)" : "@" + it->second.second;
      if (got != std::string("@") + e.capture) {
        ++counts.failed;
        TSPoint p = ts_node_start_point(node);
        std::printf("%.*s:%u:%u: `%.*s` (%s%s%s) is highlighted %s, expected @%s\n",
                    static_cast<int>(name.size()), name.data(), p.row + 1, p.column + 1,
                    static_cast<int>(text_of(node, text).size()), text_of(node, text).data(), e.type,
                    e.field ? " field " : "", e.field ? e.field : "", got.c_str(), e.capture);
      }
    }
    // Depth-first step.
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

QueryPtr load_highlights() {
  fs::path path = fs::path(CAKE_QUERIES_DIR) / "highlights.scm";
  std::optional<std::string> source = cake::test::read_file(path);
  if (!source) {
    std::printf("%s: cannot read\n", path.c_str());
    return nullptr;
  }
  return compile_query(path, *source);
}

// Section - The modes

int run_compile(const fs::path& dir) {
  const std::vector<fs::path> files = cake::test::list_files(dir, {.extension = ".scm"});
  int failures = 0;
  for (const char* required : {"highlights.scm", "locals.scm", "folds.scm", "indents.scm"}) {
    if (!fs::exists(dir / required)) {
      std::printf("%s/%s: missing\n", dir.c_str(), required);
      ++failures;
    }
  }
  for (const fs::path& file : files) {
    std::optional<std::string> source = cake::test::read_file(file);
    QueryPtr query = source ? compile_query(file, *source) : nullptr;
    if (!query) {
      ++failures;
      continue;
    }
    std::printf("ok   %s: %u pattern(s), %u capture(s)\n", file.filename().c_str(),
                ts_query_pattern_count(query.get()), ts_query_capture_count(query.get()));
  }
  std::printf("%zu query file(s), %d failure(s)\n", files.size(), failures);
  return failures == 0 ? 0 : 1;
}

int run_highlights() {
  QueryPtr query = load_highlights();
  if (!query) return 1;
  std::vector<unsigned> seen(std::size(kHighlights), 0);
  Counts counts;
  check_highlights(query.get(), "<sample>", std::string(kSample), seen, counts);
  // Every row must select something, or the row (or the sample) is stale.
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen[i] != 0) continue;
    ++counts.failed;
    std::printf("<sample>: no `%s` node%s%s selected for @%s: the sample or the table is stale\n",
                kHighlights[i].type, kHighlights[i].field ? " in field " : "",
                kHighlights[i].field ? kHighlights[i].field : "", kHighlights[i].capture);
  }
  std::printf("%u node(s) checked, %u failure(s)\n", counts.checked, counts.failed);
  return counts.failed == 0 ? 0 : 1;
}

int run_examples() {
  const std::vector<fs::path> files = cake::test::list_files(CAKE_EXAMPLES_DIR, {.extension = ".cake"});
  if (files.empty()) {
    std::printf("SKIP: no examples in %s\n", CAKE_EXAMPLES_DIR);
    return 77;
  }
  QueryPtr query = load_highlights();
  if (!query) return 1;
  std::vector<unsigned> seen(std::size(kHighlights), 0);
  Counts counts;
  for (const fs::path& file : files) {
    std::optional<std::string> text = cake::test::read_file(file);
    if (!text) {
      std::printf("%s: cannot read\n", file.c_str());
      ++counts.failed;
      continue;
    }
    check_highlights(query.get(), file.native(), *text, seen, counts);
  }
  std::printf("%zu example(s), %u node(s) checked, %u failure(s)\n", files.size(), counts.checked,
              counts.failed);
  return counts.failed == 0 && counts.checked > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view mode = argc > 1 ? argv[1] : "";
  if (mode == "compile") return run_compile(argc > 2 ? argv[2] : CAKE_QUERIES_DIR);
  if (mode == "highlights") return run_highlights();
  if (mode == "examples") return run_examples();
  std::printf("usage: %s compile [DIR] | highlights | examples\n", argv[0]);
  return 2;
}
