// SyntaxTree's pieces (cake/syntax.h): where a text is cut, that the pieces
// of a valid file hold exactly the items of one tree-sitter parse of the
// whole file, that an error stays in its piece, and that update() after any
// edit gives the tree of a fresh parse.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/syntax.h"
#include "support/test_files.h"

#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sexp(TSNode n) {
  char* s = ts_node_string(n);
  std::string out(s);
  std::free(s);
  return out;
}

/// "[begin,end) (s-expression)" of every named child of the roots: items,
/// comments and ERROR nodes, as the model sees them.
std::string items(const cake::SyntaxTree& tree) {
  std::string out;
  tree.for_each_root([&](TSNode root) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
      TSNode n = ts_node_named_child(root, i);
      out += "[" + std::to_string(ts_node_start_byte(n)) + "," + std::to_string(ts_node_end_byte(n)) + ") " +
             sexp(n) + "\n";
    }
  });
  return out;
}

/// The same for one plain tree-sitter parse of the whole text.
std::string whole_file_items(std::string_view text) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_cake());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  TSNode root = ts_tree_root_node(tree);
  std::string out;
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode n = ts_node_named_child(root, i);
    out += "[" + std::to_string(ts_node_start_byte(n)) + "," + std::to_string(ts_node_end_byte(n)) + ") " + sexp(n) +
           "\n";
  }
  bool error = ts_node_has_error(root);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return error ? std::string("error") : out;
}

void collect_comments(TSNode n, std::vector<std::pair<uint32_t, uint32_t>>& out) {
  if (std::string_view(ts_node_type(n)) == "comment") out.push_back({ts_node_start_byte(n), ts_node_end_byte(n)});
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) collect_comments(ts_node_child(n, i), out);
}

std::string pieces(const cake::SyntaxTree& tree) {
  std::string out;
  for (const cake::SyntaxTree::Piece& p : tree.pieces())
    out += "[" + std::to_string(p.range.begin) + "," + std::to_string(p.range.end) + ") " +
           sexp(ts_tree_root_node(p.tree.get())) + "\n";
  return out;
}

}  // namespace

TEST_CASE("a text is cut before lines that start like an item", "[pieces]") {
  using V = std::vector<uint32_t>;
  CHECK(cake::piece_starts("") == V{0});
  std::string text = "target sm_90a\nconst N = 4\nkernel k(A: global f32[N])\n{\n}\nbench k { N = 4 }\n"
                     "dispatch d(N) {\n}\n";
  CHECK(cake::piece_starts(text) == V{0, 14, 26, 57, 75});
  // Not an item start: indented, one name, no `(`/`{`/`=` after the name,
  // an assignment to a name `target`, a parameter of space `const`.
  CHECK(cake::piece_starts("x\n kernel k(\nkernel(\nkernel k\nbench k\ntarget = 1\ntarget[0] = 1\nconst f32[4]\n") ==
        V{0});
  // `target` ends at a comma, a comment or the line end.
  CHECK(cake::piece_starts("x\ntarget sm_90a, sm_80\ntarget sm_80 // c\ntarget sm_80") == V{0, 2, 23, 41});
  // Block comments hide item starts until they close; a line comment hides
  // nothing after its line, even a `/*` in it; an unclosed `/*` opens nothing.
  CHECK(cake::piece_starts("/* a\nkernel k(\n*/\nkernel k(\n") == V{0, 18});
  CHECK(cake::piece_starts("x /* a */\nkernel k(\n") == V{0, 10});
  CHECK(cake::piece_starts("// /* a\nkernel k(\n") == V{0, 8});
  CHECK(cake::piece_starts("x /* a\nkernel k(\n/* b\nkernel j(\n") == V{0, 7, 22});
  CHECK(cake::piece_starts("/* a */ /* b\n*/kernel k(\nkernel j(") == V{0, 25});
  // No comment holds a NUL (the lexer's rule): a `/*` whose `*/` comes after
  // one opens nothing, and a `//` comment ends at one.
  using namespace std::string_literals;
  CHECK(cake::piece_starts("/* a\0\nkernel k(\n*/\nkernel j(\n"s) == V{0, 6, 19});
  CHECK(cake::piece_starts("/* a\nkernel k(\n*/\0\nkernel j(\n"s) == V{0, 19});
  CHECK(cake::piece_starts("// a\0 /* b\nkernel k(\n*/\nkernel j(\n"s) == V{0, 24});
}

TEST_CASE("pieces start at the item lines outside the comments tree-sitter's lexer reads", "[pieces]") {
  // Random texts with comment openers, closers and NUL bytes: the cuts are
  // the lines that start like an item (the pattern of pieces.cpp, written
  // again here) less those inside a comment of a whole-file parse.
  std::string base = read(std::filesystem::path(CAKE_EXAMPLES_DIR) / "kmeans_assign.cake");
  base += base;
  const std::string fragments[] = {"/*", "*/", "//", std::string(1, '\0'), "\n", "\nkernel k(", "\nconst c = 1"};
  const std::regex item_line(
      R"(^((kernel|dispatch)[ \t]+[A-Za-z_]\w*[ \t]*\(|bench[ \t]+[A-Za-z_]\w*[ \t]*\{|const[ \t]+[A-Za-z_]\w*[ \t]*=|)"
      R"(target[ \t]+[A-Za-z_]\w*[ \t]*([,/\r]|$)))");
  std::mt19937 rng(7);
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_cake());
  size_t nul_in_comment_region = 0;
  for (int round = 0; round < 400; ++round) {
    std::string text = base;
    int edits = 1 + static_cast<int>(rng() % 12);
    for (int e = 0; e < edits; ++e)
      text.insert(rng() % (text.size() + 1), fragments[rng() % std::size(fragments)]);
    TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
    // Every comment token of the tree, wherever it lies (ERROR nodes too).
    std::vector<std::pair<uint32_t, uint32_t>> comments;
    collect_comments(ts_tree_root_node(tree), comments);
    ts_tree_delete(tree);
    auto in_comment = [&](size_t at) {
      for (auto [b, e] : comments)
        if (b < at && at < e) return true;
      return false;
    };
    std::vector<uint32_t> expected{0};
    for (size_t line = text.find('\n'); line != std::string::npos; line = text.find('\n', line + 1)) {
      size_t start = line + 1, end = text.find('\n', start);
      std::string l = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (start < text.size() && !in_comment(start) && std::regex_search(l, item_line))
        expected.push_back(static_cast<uint32_t>(start));
    }
    INFO("round " << round);
    CHECK(cake::piece_starts(text) == expected);
    size_t open = text.find("/*");
    nul_in_comment_region += open != std::string::npos && text.find('\0', open) < text.find("*/", open);
  }
  CHECK(nul_in_comment_region > 20);  // the case of the NUL rule came up
  ts_parser_delete(parser);
}

TEST_CASE("the pieces of a valid file hold the items of one whole-file parse", "[pieces]") {
  size_t valid = 0;
  for (const auto& path :
       cake::test::list_files({CAKE_EXAMPLES_DIR, std::filesystem::path(CAKE_TESTS_DIR) / "diagnostics"}, {".cake"})) {
    std::string text = read(path);
    std::string whole = whole_file_items(text);
    if (whole == "error") continue;  // a file with syntax errors: see below
    INFO(path.string());
    cake::SyntaxTree tree = cake::parse(text);
    CHECK_FALSE(tree.has_error());
    CHECK(items(tree) == whole);
    ++valid;
  }
  CHECK(valid > 10);
}

TEST_CASE("a missing brace stays in its piece", "[pieces]") {
  std::string text = read(std::filesystem::path(CAKE_EXAMPLES_DIR) / "kmeans_assign.cake");
  size_t bench = text.find("\nbench ");
  REQUIRE(bench != std::string::npos);
  size_t brace = text.rfind('}', bench);  // the kernel's closing brace
  std::string broken = text.substr(0, brace) + text.substr(brace + 1);
  std::unique_ptr<cake::Analysis> a = cake::analyze(broken);
  REQUIRE_FALSE(a->diagnostics.empty());
  for (const cake::Diagnostic& d : a->diagnostics) {
    INFO(d.message);
    CHECK(d.range.begin <= brace);  // nothing reported in the bench after it
  }
  // The bench after the broken kernel is still an item of the model.
  bool bench_built = false;
  a->tree.for_each_root([&](TSNode root) {
    for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i)
      bench_built |= std::string(ts_node_type(ts_node_named_child(root, i))) == "bench_item";
  });
  CHECK(bench_built);
}

TEST_CASE("update() after random edits gives the tree of a fresh parse", "[pieces]") {
  std::string text = read(std::filesystem::path(CAKE_EXAMPLES_DIR) / "hopper_gemm.cake") +
                     read(std::filesystem::path(CAKE_EXAMPLES_DIR) / "kmeans_assign.cake");
  const char* fragments[] = {"}", "{", "(", "\n", "/*", "*/", "//", "kernel k(", "\nkernel j(", "\ntarget sm_80\n",
                             "bench k {", "x", " ", "\nconst C = 3\n", ""};
  std::mt19937 rng(7);
  cake::LineIndex lines(text);
  cake::SyntaxTree tree(text, lines);
  for (int step = 0; step < 400; ++step) {
    // One to six edits, applied to the text before the tree follows.
    cake::SyntaxTree::Changes w;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      uint32_t begin = static_cast<uint32_t>(rng() % (text.size() + 1));
      uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(text.size()), begin + rng() % 12);
      std::string insert = fragments[rng() % std::size(fragments)];
      text.replace(begin, end - begin, insert);
      uint32_t inserted = static_cast<uint32_t>(insert.size());
      if (e == 0) w = cake::SyntaxTree::Changes::of(begin, end, inserted);
      else w.add(begin, end, inserted);
    }
    lines = cake::LineIndex(text);
    tree.update(text, lines, w);
    INFO("step " << step);
    REQUIRE(pieces(tree) == pieces(cake::parse(text)));
  }
}

TEST_CASE("Changes keeps far-apart edits apart and maps every byte outside them", "[pieces]") {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    std::string old_text;
    for (int i = 0; i < 400; ++i) old_text += static_cast<char>('a' + rng() % 26);
    std::string text = old_text;
    cake::SyntaxTree::Changes c;
    int edits = 1 + static_cast<int>(rng() % 12);
    for (int e = 0; e < edits; ++e) {
      uint32_t begin = static_cast<uint32_t>(rng() % (text.size() + 1));
      uint32_t end = std::min<uint32_t>(static_cast<uint32_t>(text.size()), begin + rng() % 6);
      std::string insert(rng() % 5, '#');
      text.replace(begin, end - begin, insert);
      if (e == 0) c = cake::SyntaxTree::Changes::of(begin, end, static_cast<uint32_t>(insert.size()));
      else c.add(begin, end, static_cast<uint32_t>(insert.size()));
    }
    INFO("round " << round);
    REQUIRE_FALSE(c.spans.empty());
    CHECK(c.spans.size() <= static_cast<size_t>(edits));
    // Disjoint, in order, not touching; the stretches between map 1:1.
    uint32_t old_at = 0, new_at = 0;
    for (const auto& s : c.spans) {
      REQUIRE(s.old_begin <= s.old_end);
      REQUIRE(s.new_begin <= s.new_end);
      REQUIRE(s.old_begin - old_at == s.new_begin - new_at);
      CHECK(text.substr(new_at, s.new_begin - new_at) == old_text.substr(old_at, s.old_begin - old_at));
      if (new_at > 0 || old_at > 0) CHECK(s.new_begin > new_at);
      old_at = s.old_end;
      new_at = s.new_end;
    }
    CHECK(text.size() - new_at == old_text.size() - old_at);
    CHECK(text.substr(new_at) == old_text.substr(old_at));
  }
}

TEST_CASE("LineIndex::replace() gives the index of a fresh scan after random edits", "[pieces]") {
  // Edits that add, remove and split lines, at the start, the end and
  // around line breaks, including "\r\n".
  const char* const fragments[] = {"", "\n", "\n\n", "x", "ab\ncd", "\r\n", "kernel k(\n", "}\n\n{"};
  std::mt19937 rng(20261204);
  std::string text = "target sm_90a\n\nkernel k() {\n  x\n}\n";
  cake::LineIndex lines(text);
  for (int step = 0; step < 3000; ++step) {
    uint32_t size = static_cast<uint32_t>(text.size());
    uint32_t begin = std::uniform_int_distribution<uint32_t>(0, size)(rng);
    uint32_t end = std::min(size, begin + std::uniform_int_distribution<uint32_t>(0, 6)(rng));
    std::string inserted = fragments[std::uniform_int_distribution<size_t>(0, std::size(fragments) - 1)(rng)];
    if (text.size() > 4000) inserted.clear();  // keep it small
    text.replace(begin, end - begin, inserted);
    lines.replace(text, begin, end, static_cast<uint32_t>(inserted.size()));
    cake::LineIndex fresh(text);
    INFO("step " << step << ": [" << begin << ", " << end << ") -> \"" << inserted << "\"");
    REQUIRE(lines.line_count() == fresh.line_count());
    for (uint32_t l = 0; l < fresh.line_count(); ++l) REQUIRE(lines.line_start(l) == fresh.line_start(l));
    uint32_t probe = std::uniform_int_distribution<uint32_t>(0, static_cast<uint32_t>(text.size()))(rng);
    REQUIRE(lines.position(probe).line == fresh.position(probe).line);
    REQUIRE(lines.position(probe).column == fresh.position(probe).column);
  }
}
