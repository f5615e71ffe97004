// The navigation queries of cake/query.h (what the language server's
// definition, references, highlight, rename, documentSymbol, workspace/symbol
// and foldingRange answer) on annotated sources. Markers, stripped to get
// the source:
//   «name»   an expected range (for symbols: every occurrence, the definition first)
//   ^        on a line of its own: a cursor at that column of the line above
//            (columns count « and » as one each, as an editor shows them)
#include <catch2/catch.hpp>

#include "cake/document.h"
#include "cake/query.h"

#include <sstream>
#include <string>
#include <vector>

namespace {

using cake::ByteRange;

struct Annotated {
  std::string text;
  std::vector<uint32_t> cursors;
  std::vector<ByteRange> ranges;
};

constexpr std::string_view kOpen = "\xC2\xAB", kClose = "\xC2\xBB";  // « »

bool is_cursor_line(std::string_view line) {
  return line.find('^') != std::string_view::npos && line.find_first_not_of(" ^") == std::string_view::npos;
}

Annotated annotate(std::string_view source) {
  Annotated out;
  std::vector<uint32_t> column_offset;  // the previous line: original column -> stripped offset
  std::vector<uint32_t> open;
  size_t pos = 0;
  while (pos < source.size()) {
    size_t eol = source.find('\n', pos);
    std::string_view line = source.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? source.size() : eol + 1;
    if (is_cursor_line(line)) {
      for (size_t c = 0; c < line.size(); ++c)
        if (line[c] == '^') out.cursors.push_back(column_offset.at(c));
      continue;
    }
    column_offset.clear();
    for (size_t c = 0; c < line.size();) {
      auto here = static_cast<uint32_t>(out.text.size());
      if (line.substr(c, 2) == kOpen) {
        open.push_back(here);
        column_offset.push_back(here);  // one column, as an editor shows it
        c += 2;
      } else if (line.substr(c, 2) == kClose) {
        out.ranges.push_back({open.back(), here});
        open.pop_back();
        column_offset.push_back(here);
        c += 2;
      } else {
        column_offset.push_back(here);
        out.text += line[c++];
      }
    }
    column_offset.push_back(static_cast<uint32_t>(out.text.size()));  // just past the line's end
    out.text += '\n';
  }
  std::sort(out.ranges.begin(), out.ranges.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  return out;
}

std::string show(const std::vector<ByteRange>& ranges, std::string_view text) {
  std::ostringstream out;
  for (ByteRange r : ranges) out << "[" << r.begin << "," << r.end << ")`" << text.substr(r.begin, r.end - r.begin) << "` ";
  return out.str();
}

std::vector<ByteRange> ranges_of(const std::vector<cake::Occurrence>& found) {
  std::vector<ByteRange> out;
  for (const cake::Occurrence& o : found) out.push_back(o.range);
  return out;
}

struct SymbolCase {
  const char* what;
  const char* source;
};

// Every cursor names the symbol whose occurrences are marked.
const SymbolCase kSymbolCases[] = {
    {"tensor parameter", R"(target sm_90a
kernel k(«A»: global bf16[M, 64] row_major, C: global f32[M] row_major)
         ^
  grid (M / 128)
  block 128
{
  tensormap tA = «A» box [128, 64]
                 ^ ^
  tensormap tB = «A» box [64, 64]
}
)"},
    {"shape symbol through where, grid, shapes and bench", R"(target sm_90a
kernel k(A: global bf16[«M», 64] row_major, C: global f32[«M»] row_major)
                        ^
  where «M» % 128 == 0
  grid («M» / 128)
        ^
  block 128
{
}
bench k { «M» = 4096 }
          ^
)"},
    {"kernel through a bench's reference", R"(target sm_90a
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel «k_ref»(A: global f32[N]) grid (N) block 32 { }
       ^
bench k { N = 128 } reference «k_ref»
                              ^   ^
bench k { N = 256 } reference «k_ref»
)"},
    {"const at file scope", R"(target sm_90a
const «TILE» = 64
      ^
kernel k(A: global bf16[M, 64] row_major)
  grid (M / «TILE»)
            ^   ^
  block 128
{
  smem buf: bf16[«TILE», 64]
}
)"},
    {"let in a role", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  role r warpgroup(0) {
    let «wg» = role.rank
        ^
    let x = «wg» * 64 + «wg»
                        ^
  }
}
)"},
    {"mbarrier", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  mbarrier «full»[4]
           ^
  role r warpgroup(0) {
    wait «full»[0] parity(0)
          ^
    arrive «full»[1]
  }
}
)"},
    {"role name", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  role «producer» warpgroup(0) {
       ^       ^
  }
}
)"},
    {"pipeline stage variable", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  mbarrier full[4]
  role r warpgroup(0) {
    pipeline «s» in ring(4) for kt in 0 .. 8 {
             ^
      wait full[«s»] parity(«s».phase)
                            ^
    }
  }
}
)"},
    {"pipeline loop variable", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  mbarrier full[4]
  role r warpgroup(0) {
    pipeline s in ring(4) for «kt» in 0 .. 8 {
                              ^
      wait full[«kt» % 4] parity(0)
                 ^
    }
  }
}
)"},
    {"for loop variable", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  mbarrier full[4]
  role r warpgroup(0) {
    for «i» in 0 .. 4 { wait full[«i»] parity(«i» % 2) }
                                  ^
  }
}
)"},
    {"kernel through dispatch and bench", R"(target sm_90a
kernel «k»(A: global f32[M] row_major) grid (M / 128) block 128 {
       ^
}
dispatch d(A) {
  when M % 128 == 0 -> «k»
                       ^
}
bench «k» { M = 128 }
)"},
    {"a use after a line of garbage", R"(target sm_90a
kernel k(B: global f32[N] row_major) block 64 {
  role c warp(0) {
    let «n» = 4
    foo bar baz
    let y = «n» * 2
            ^
  }
}
)"},
    {"a use in a statement missing its `)`", R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  mbarrier «full»[4]
  role r warpgroup(0) {
    wait «full»[0] parity(0
          ^
    arrive «full»[1]
  }
}
)"},
};

TEST_CASE("definition and references", "[navigation]") {
  for (const SymbolCase& c : kSymbolCases) {
    Annotated a = annotate(c.source);
    cake::Document doc(a.text);
    const cake::Module& m = doc.model();
    INFO(c.what << "\n" << a.text);
    REQUIRE(!a.cursors.empty());
    REQUIRE(!a.ranges.empty());
    cake::SymbolId first = cake::symbol_at_cursor(m, a.cursors.front());
    REQUIRE(first != cake::kNone);
    for (uint32_t cursor : a.cursors) CHECK(cake::symbol_at_cursor(m, cursor) == first);

    std::vector<cake::Occurrence> all = cake::occurrences(m, first, true);
    CHECK(show(ranges_of(all), a.text) == show(a.ranges, a.text));
    REQUIRE(!all.empty());
    CHECK(all.front().definition);  // go-to-definition answers this one
    CHECK(all.front().range == m.symbol(first).def);

    std::vector<ByteRange> uses(a.ranges.begin() + 1, a.ranges.end());
    CHECK(show(ranges_of(cake::occurrences(m, first, false)), a.text) == show(uses, a.text));
  }
}

TEST_CASE("builtins have references but no definition", "[navigation]") {
  Annotated a = annotate(R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  role r warpgroup(0) {
    let x = «block».x * 2 + «block».y
            ^
  }
}
)");
  cake::Document doc(a.text);
  const cake::Module& m = doc.model();
  cake::SymbolId id = cake::symbol_at_cursor(m, a.cursors.at(0));
  REQUIRE(id != cake::kNone);
  CHECK(m.symbol(id).kind == cake::SymbolKind::Builtin);
  CHECK(show(ranges_of(cake::occurrences(m, id, true)), a.text) == show(a.ranges, a.text));
  for (const cake::Occurrence& o : cake::occurrences(m, id, true)) CHECK_FALSE(o.definition);
}

TEST_CASE("nothing under the cursor", "[navigation]") {
  Annotated a = annotate(R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
^  ^          ^      ^         ^
}
)");
  cake::Document doc(a.text);
  for (uint32_t cursor : a.cursors) CHECK(cake::symbol_at_cursor(doc.model(), cursor) == cake::kNone);
}

// Section - Rename

std::string apply(std::string text, std::vector<cake::TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const auto& x, const auto& y) { return x.range.begin > y.range.begin; });
  for (const cake::TextEdit& e : edits) text.replace(e.range.begin, e.range.end - e.range.begin, e.new_text);
  return text;
}

const char* const kRenameSource = R"(target sm_90a
const TILE = 64
kernel k(A: global bf16[M, 64] row_major, C: global f32[M] row_major)
  where M % 128 == 0
  grid (M / TILE)
  block 128
{
  mbarrier full[4]
  role producer warpgroup(0) {
    for i in 0 .. 4 { wait full[i] parity(block.x) }
  }
}
bench k { M = 4096 }
)";

TEST_CASE("rename", "[rename]") {
  struct Case {
    const char* at;        // the text at the cursor (its first occurrence)
    const char* new_name;
    const char* expected;  // a substring of the result, or the error
    bool ok;
  };
  const Case cases[] = {
      {"M, 64", "Rows", "bf16[Rows, 64] row_major, C: global f32[Rows] row_major)\n  where Rows % 128", true},
      {"M = 4096", "Rows", "bench k { Rows = 4096 }", true},
      {"TILE =", "TILE_K", "const TILE_K = 64", true},
      {"TILE =", "T", "is not a valid name", false},  // `x.T` makes `T` a keyword
      {"full[i]", "ready", "mbarrier ready[4]", true},
      {"i in", "j", "for j in 0 .. 4 { wait full[j]", true},
      {"producer", "loader", "role loader warpgroup(0)", true},
      {"k(", "gemm", "bench gemm {", true},
      {"M, 64", "smem", "is not a valid name", false},
      {"M, 64", "bf16", "is not a valid name", false},
      {"M, 64", "block", "is not a valid name", false},
      {"M, 64", "9x", "is not a valid name", false},
      {"M, 64", "C", "`C` is already defined", false},
      {"M, 64", "TILE", "`TILE` is already defined", false},
      {"block.x", "b", "is a builtin", false},
      {"mbarrier", "b", "no symbol to rename", false},
  };
  std::string text = kRenameSource;
  cake::Document doc(text);
  for (const Case& c : cases) {
    INFO(c.at << " -> " << c.new_name);
    size_t at = text.find(c.at);
    REQUIRE(at != std::string::npos);
    cake::RenameResult r = cake::rename_symbol(doc.model(), static_cast<uint32_t>(at), c.new_name);
    if (c.ok) {
      CHECK(r.error.empty());
      std::string renamed = apply(text, r.edits);
      CHECK_THAT(renamed, Catch::Contains(c.expected));
      CHECK(cake::Document(renamed).diagnostics()->size() == doc.diagnostics()->size());  // same meaning
      // prepareRename offers the name under the cursor.
      cake::RenamePlan plan = cake::prepare_rename(doc.model(), static_cast<uint32_t>(at));
      CHECK(plan.error.empty());
      CHECK(plan.range.begin == at);
    } else {
      CHECK(r.edits.empty());
      CHECK_THAT(r.error, Catch::Contains(c.expected));
    }
  }
}

TEST_CASE("rename a kernel from a bench's reference", "[rename]") {
  std::string text = R"(target sm_90a
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel k_ref(A: global f32[N]) grid (N) block 32 { }
bench k { N = 128 } reference k_ref
)";
  cake::Document doc(text);
  auto at = static_cast<uint32_t>(text.rfind("k_ref"));
  cake::RenameResult r = cake::rename_symbol(doc.model(), at, "k_naive");
  CHECK(r.error.empty());
  std::string renamed = apply(text, r.edits);
  CHECK_THAT(renamed, Catch::Contains("kernel k_naive(A"));
  CHECK_THAT(renamed, Catch::Contains("} reference k_naive\n"));
  CHECK(cake::Document(renamed).diagnostics()->empty());
}

TEST_CASE("prepareRename refuses builtins and keywords", "[rename]") {
  std::string text = kRenameSource;
  cake::Document doc(text);
  CHECK_FALSE(cake::prepare_rename(doc.model(), static_cast<uint32_t>(text.find("block.x"))).error.empty());
  CHECK_FALSE(cake::prepare_rename(doc.model(), static_cast<uint32_t>(text.find("where"))).error.empty());
  CHECK(cake::prepare_rename(doc.model(), static_cast<uint32_t>(text.find("full["))).error.empty());
}

// Section - Outline and workspace symbols

const char* kind_name(cake::OutlineKind kind) {
  switch (kind) {
    case cake::OutlineKind::Kernel: return "kernel";
    case cake::OutlineKind::Role: return "role";
    case cake::OutlineKind::Smem: return "smem";
    case cake::OutlineKind::Tmem: return "tmem";
    case cake::OutlineKind::Reg: return "reg";
    case cake::OutlineKind::Mbarrier: return "mbarrier";
    case cake::OutlineKind::NamedBarrier: return "namedbarrier";
    case cake::OutlineKind::Tensormap: return "tensormap";
    case cake::OutlineKind::Const: return "const";
    case cake::OutlineKind::Dispatch: return "dispatch";
    case cake::OutlineKind::Bench: return "bench";
  }
  return "?";
}

/// One line per entry, indented by depth; checks that each name lies in its range.
void render(const std::vector<cake::OutlineItem>& items, int depth, std::string& out) {
  for (const cake::OutlineItem& i : items) {
    CHECK(i.range.begin <= i.selection.begin);
    CHECK(i.selection.end <= i.range.end);
    out += std::string(depth * 2, ' ') + kind_name(i.kind) + " " + i.name + "\n";
    render(i.children, depth + 1, out);
  }
}

const char* const kOutlineSource = R"(target sm_90a
const TILE = 64
kernel gemm(A: global bf16[M, 64] row_major)
  grid (M / 128) block 256
{
  smem sA: bf16[4][128, 64] swizzle(128B)
  tmem acc: f32[128, 128]
  mbarrier full[4]
  namedbarrier nb id(1) threads(128)
  tensormap tA = A box [128, 64]
  role producer warpgroup(0) {
    elect { for i in 0 .. 4 { wait full[i] parity(0) } }
  }
  role consumer warpgroup(1) {
    reg o: f32[64, 64] layout(wgmma_acc)
    if block.x > 0 { reg p: f32[64, 64] layout(wgmma_acc) }
  }
}
dispatch entry(A) {
  when M % 128 == 0 -> gemm
}
bench gemm { M = 4096 }
)";

TEST_CASE("documentSymbol outline", "[outline]") {
  std::string text = kOutlineSource;
  cake::Document doc(text);
  std::string out;
  render(cake::outline(doc.model()), 0, out);
  CHECK(out ==
        "const TILE\n"
        "kernel gemm\n"
        "  smem sA\n"
        "  tmem acc\n"
        "  mbarrier full\n"
        "  namedbarrier nb\n"
        "  tensormap tA\n"
        "  role producer\n"
        "  role consumer\n"
        "    reg o\n"
        "    reg p\n"
        "dispatch entry\n"
        "bench bench gemm\n");
}

TEST_CASE("documentSymbol in a broken file", "[outline]") {
  std::string text = kOutlineSource;
  text.replace(text.find("elect {"), 7, "elect ((( = {");
  cake::Document doc(text);
  std::string out;
  render(cake::outline(doc.model()), 0, out);
  CHECK_THAT(out, Catch::Contains("kernel gemm\n  smem sA\n"));
  CHECK_THAT(out, Catch::Contains("dispatch entry\n"));
}

TEST_CASE("workspace symbols by substring", "[outline]") {
  cake::Document doc(kOutlineSource);
  auto names = [&](std::string_view query) {
    std::string out;
    for (const cake::OutlineItem& i : cake::find_items(doc.model(), query)) out += std::string(kind_name(i.kind)) + " " + i.name + ";";
    return out;
  };
  CHECK(names("") == "const TILE;kernel gemm;dispatch entry;");
  CHECK(names("GEM") == "kernel gemm;");
  CHECK(names("t") == "const TILE;dispatch entry;");
  CHECK(names("producer") == "");  // roles are not workspace symbols
}

// Section - Folding

std::string folds(std::string_view text) {
  cake::Document doc{std::string(text)};
  std::string out;
  for (const cake::FoldingRange& r : cake::folding_ranges(doc.tree(), doc.text(), doc.lines()))
    out += std::to_string(r.start_line) + "-" + std::to_string(r.end_line) +
           (r.kind == cake::FoldingRange::Kind::Comment ? " comment" : "") + "\n";
  return out;
}

TEST_CASE("folding ranges", "[folding]") {
  CHECK(folds(R"(target sm_90a
// A comment run
// of three
// lines.
kernel k(
    A: global f32[M] row_major,
    B: global f32[M] row_major)
  grid (M / 128) block 128
{
  mbarrier full[4]  // trailing comments
  mbarrier empty[4] // do not fold
  role r warpgroup(0) {
    pipeline s in ring(4) for kt in 0 .. 8 {
      wait full[s] parity(s.phase)
    }
    if kt > 0 {
      elect {
        arrive empty[0]
      }
    }
    elect { arrive full[0] }
  }
}
/* a block
   comment */
bench k { M = 128 }
)") == "1-3 comment\n"
       "4-21\n"     // kernel_item
       "8-21\n"     // the kernel's body
       "11-20\n"    // role
       "12-13\n"    // pipeline
       "15-18\n"    // if
       "16-17\n"    // elect
       "23-24 comment\n");
  CHECK(folds("target sm_90a\nkernel k(A: global f32[M] row_major) grid (M / 128) block 128 {\n  role r warpgroup(0) {\n    elect { arrive x[0] }\n  }\n}\n") ==
        "1-4\n"
        "2-3\n");
}

TEST_CASE("folding in a broken file", "[folding]") {
  std::string out = folds(R"(target sm_90a
kernel k(A: global f32[M] row_major) grid (M / 128) block 128 {
  role r warpgroup(0) {
    foo bar baz
    for i in 0 .. 4 {
      wait full[i] parity(0)
    }
  }
}
)");
  CHECK_THAT(out, Catch::Contains("4-5\n"));  // the loop body still folds
}

}  // namespace
