// Model unit tests: spans of definitions and uses (the def-use table behind
// go-to-definition and references), and type/shape inference of
// expressions. Spans are found by the text they cover.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/tile_in_buffer.h"
#include "cake/typing.h"

#include <string>

namespace {

constexpr const char* kKernel = R"cake(target sm_90a
kernel k(X: global bf16[N, 64] row_major, out: global i32[N])
  where N % 128 == 0
  grid (N / 128) block 384
{
  smem xs: bf16[128, 64] swizzle(128B)
  smem cs: bf16[3][128, 64] swizzle(128B)
  mbarrier full[3]
  tensormap tX = X box [128, 64] swizzle(128B)
  role consumer warpgroup(1, 2) {
    let wg = role.rank
    reg acc: f32[64, 128] layout(wgmma_acc)
    pipeline s in ring(3) for kt in 0 .. 4 {
      wait full[s] parity(s.phase)
      wgmma acc = xs[wg * 64 : 64, :] @ cs[s].T
    }
  }
}
)cake";

uint32_t offset_of(const std::string& text, const std::string& needle, int nth = 0) {
  size_t pos = text.find(needle);
  while (nth-- > 0 && pos != std::string::npos) pos = text.find(needle, pos + 1);
  REQUIRE(pos != std::string::npos);
  return static_cast<uint32_t>(pos);
}

const cake::Symbol& symbol_named(const cake::Module& m, std::string_view name) {
  for (const auto& s : m.symbols)
    if (s.name == name && s.kind != cake::SymbolKind::Builtin) return s;
  FAIL("no symbol " << name);
  return m.symbols[0];
}

}  // namespace

TEST_CASE("uses carry their expressions, and clauses their ranges") {
  // Comments and line breaks inside the clauses and the index: the model
  // answers from the tree, whatever the layout.
  const std::string source = R"cake(target sm_90a
kernel k() grid (1) block 128 {
  smem cs: bf16[2][64, 64] /* rows */ swizzle( 128B )
  smem plain: bf16[64]
  mbarrier full[2]
  role r warp(0) maxnreg( 40 ) {
    pipeline s in ring /* depth */ ( 2 ) for kt in 0 .. 4 {
      wait full[
        s] parity(s.phase)
    }
  }
}
)cake";
  auto a = cake::analyze(source);
  const std::string& text = a->text;
  const auto& m = a->module;
  auto spelled = [&](cake::ByteRange r) { return text.substr(r.begin, r.end - r.begin); };

  const cake::Symbol& cs = symbol_named(m, "cs");
  CHECK(spelled(cs.type.swizzle_clause) == "swizzle( 128B )");
  CHECK(spelled(cs.type.written) == "bf16[2][64, 64]");
  CHECK(symbol_named(m, "plain").type.swizzle_clause.end == 0);

  const cake::PipelineStmt* pipeline = nullptr;
  const cake::RoleStmt* role = nullptr;
  for (const auto& st : m.stmts) {
    if (auto* p = std::get_if<cake::PipelineStmt>(&st.node)) pipeline = p;
    if (auto* r = std::get_if<cake::RoleStmt>(&st.node)) role = r;
  }
  REQUIRE(pipeline);
  REQUIRE(role);
  CHECK(spelled(pipeline->ring) == "ring /* depth */ ( 2 )");
  CHECK(spelled(role->maxnreg_clause) == "maxnreg( 40 )");

  // `full[\n s]`: the use of `s` is the first index of an Index whose base is `full`.
  const cake::Symbol& s = symbol_named(m, "s");
  REQUIRE(s.refs.size() == 2);  // full[s], s.phase
  const cake::Expr& use = m.expr(s.refs[0]);
  CHECK(use.kind == cake::Expr::Kind::Name);
  REQUIRE(use.parent != cake::kNone);
  const cake::Expr& index = m.expr(use.parent);
  REQUIRE(index.kind == cake::Expr::Kind::Index);
  CHECK(index.items[0].start == s.refs[0]);
  CHECK(m.symbol(m.expr(index.lhs).symbol).name == "full");
  CHECK(m.expr(s.refs[1]).parent != cake::kNone);
  CHECK(m.expr(m.expr(s.refs[1]).parent).kind == cake::Expr::Kind::Field);
}

TEST_CASE("definitions and uses carry exact byte ranges") {
  auto a = cake::analyze(kKernel);
  // The snippet is a fragment (no producer): only name and type errors matter here.
  for (const auto& d : a->diagnostics) {
    INFO(d.message);
    CHECK(static_cast<int>(d.id) > static_cast<int>(cake::DiagId::LaunchClause));
  }
  const std::string text = a->text;
  const auto& m = a->module;

  const cake::Symbol& cs = symbol_named(m, "cs");
  CHECK(cs.def.begin == offset_of(text, "cs: bf16"));
  CHECK(cs.def.end == cs.def.begin + 2);
  REQUIRE(cs.uses.size() == 1);
  CHECK(cs.uses[0].begin == offset_of(text, "cs[s].T"));

  // N is introduced by its first use in a parameter shape and used after it.
  const cake::Symbol& n = symbol_named(m, "N");
  CHECK(n.kind == cake::SymbolKind::ShapeSymbol);
  CHECK(n.def.begin == offset_of(text, "N, 64]"));
  std::string where;
  for (const auto& u : n.uses) where += std::to_string(u.begin) + " ";
  INFO("uses of N at " << where << "; def at " << n.def.begin);
  CHECK(n.uses.size() == 3);  // out's shape, the fact, the grid

  const cake::Symbol& s = symbol_named(m, "s");
  CHECK(s.kind == cake::SymbolKind::StageVar);
  CHECK(s.uses.size() == 3);  // full[s], s.phase, cs[s]

  // symbol_at finds a symbol from any of its uses.
  cake::SymbolId at = m.symbol_at(offset_of(text, "xs[wg"));
  REQUIRE(at != cake::kNone);
  CHECK(m.symbols[at].name == "xs");
}

TEST_CASE("shape inference of slices, ring stages and transposes") {
  auto a = cake::analyze(kKernel);
  const auto& m = a->module;
  cake::Typer typer(m, nullptr);
  auto type_at = [&](const std::string& needle) {
    uint32_t begin = offset_of(a->text, needle);
    for (cake::ExprId i = 0; i < m.exprs.size(); ++i)
      if (m.exprs[i].range.begin == begin && m.exprs[i].range.end == begin + needle.size()) return typer.type_of(i);
    FAIL("no expression " << needle);
    return cake::Typed{};
  };
  struct Case {
    std::string expr, shape;
    cake::Space space;
  };
  const Case cases[] = {
      {"xs[wg * 64 : 64, :]", "[64, 64]", cake::Space::Smem},
      {"cs[s].T", "[64, 128]", cake::Space::Smem},
      {"cs[s]", "[128, 64]", cake::Space::Smem},
  };
  for (const Case& c : cases) {
    INFO(c.expr);
    cake::Typed t = type_at(c.expr);
    CHECK(t.kind == cake::Typed::Kind::Buffer);
    CHECK(typer.shape_text(t.dims) == c.shape);
    CHECK(t.space == c.space);
    CHECK(t.dtype == cake::DType::BF16);
  }
  CHECK(type_at("full[s]").kind == cake::Typed::Kind::Barrier);
  CHECK(type_at("role.rank").kind == cake::Typed::Kind::Scalar);
}

TEST_CASE("constant folding over consts and bytes()") {
  auto a = cake::analyze("target sm_90a\nconst T = 64\nconst B = T * 2 + cdiv(100, 32)\n");
  const auto& m = a->module;
  cake::Evaluator eval(m);
  const cake::Symbol& b = symbol_named(m, "B");
  REQUIRE(eval.fold(b.value).has_value());
  CHECK(*eval.fold(b.value) == 132);
}

TEST_CASE("a bench's reference is a use of its kernel, and E0118 points at both parameters") {
  const std::string source = R"cake(target sm_90a
kernel k(A: global f32[N], B: global bf16[N]) grid (1) block 128 { }
bench k { N = 128 } reference k_ref
bench k { N = 256 }
kernel k_ref(A: global f32[N], B: global f16[N]) grid (1) block 128 { }
)cake";
  auto a = cake::analyze(source);
  const std::string text = a->text;
  const auto& m = a->module;
  REQUIRE(m.benches.size() == 2);
  const cake::Bench& b = m.benches[0];
  CHECK(b.reference == "k_ref");
  CHECK(b.reference_range.begin == offset_of(text, "k_ref\n"));
  CHECK(b.reference_range.end == b.reference_range.begin + 5);
  const cake::Symbol& ref = symbol_named(m, "k_ref");
  REQUIRE(b.reference_symbol != cake::kNone);
  CHECK(&m.symbols[b.reference_symbol] == &ref);
  REQUIRE(ref.uses.size() == 1);
  CHECK(ref.uses[0] == b.reference_range);
  CHECK(m.benches[1].reference.empty());
  CHECK(m.benches[1].reference_symbol == cake::kNone);

  REQUIRE(a->diagnostics.size() == 1);
  const cake::Diagnostic& d = a->diagnostics[0];
  CHECK(d.id == cake::DiagId::BenchReferenceSignature);
  CHECK(d.message == "`B` is f16 in `k_ref` but bf16 in `k`");
  CHECK(d.range == b.reference_range);
  REQUIRE(d.related.size() == 2);
  CHECK(d.related[0].range.begin == offset_of(text, "B: global f16"));
  CHECK(d.related[0].message == "in `k_ref`");
  CHECK(d.related[1].range.begin == offset_of(text, "B: global bf16"));
  CHECK(d.related[1].message == "in `k`");
}

TEST_CASE("tile_in_buffer walks a tile in its buffer's memory order") {
  const std::string text = R"cake(target sm_90a
kernel t(W: global f32[4, 8, 16], X: global f32[16, 8] col_major) grid (1) block 32 {
  smem s: f32[3][64, 16]
  reg row: f32[16]
  reg two: f32[2, 16]
  reg col: f32[16]
  reg part: f32[8, 2]
  load two <- W[0 : 2, 1, :]
  load row <- s[1][3, :]
  load two <- s[2][0 : 2, :]
  load col <- X[:, 3]
  load part <- X[0 : 8, 0 : 2]
  load row <- W[0, 2, :]
}
)cake";
  auto a = cake::analyze(text);
  REQUIRE(a);
  const cake::Module& m = a->module;
  cake::Evaluator eval(m);
  std::vector<std::optional<cake::TileInBuffer>> t;
  for (const cake::Stmt& s : m.stmts)
    if (const auto* mv = std::get_if<cake::MoveStmt>(&s.node)) t.push_back(cake::tile_in_buffer(m, eval, mv->src));
  REQUIRE(t.size() == 6);
  for (const auto& x : t) REQUIRE(x);
  // W[0 : 2, 1, :]: rows 8 × 16 apart, the fixed middle dim between them.
  CHECK(t[0]->gap == size_t(1));
  CHECK_FALSE(t[0]->dense);
  CHECK(t[0]->runs);
  CHECK(t[0]->kept == std::vector<size_t>{0, 1});
  // A stage's row, and a stage's first two rows: one run each.
  CHECK_FALSE(t[1]->gap);
  CHECK(t[1]->dense);
  CHECK(t[1]->kept == std::vector<size_t>{0});
  CHECK(t[2]->dense);
  CHECK(t[2]->whole_rows);
  CHECK(t[2]->order == std::vector<size_t>{0, 1, 2});
  // col_major: the first dim is contiguous. A column is one run; a row
  // would not be; two half columns are runs 16 apart.
  CHECK(t[3]->order == std::vector<size_t>{1, 0});
  CHECK(t[3]->runs);
  CHECK(t[3]->dense);
  CHECK(t[4]->runs);
  CHECK_FALSE(t[4]->dense);
  CHECK_FALSE(t[4]->whole_rows);
  CHECK_FALSE(t[4]->gap);
  CHECK(t[4]->kept == std::vector<size_t>{1, 0});
  // W[0, 2, :]: one row, dense.
  CHECK(t[5]->dense);
  CHECK_FALSE(t[5]->gap);
}

TEST_CASE("E0413's forms for 64-lane buffers and mma_acc moves relate the buffer and the fragment") {
  const std::string text = R"cake(target sm_100a
kernel k(C: global f32[64, 32]) grid (1) block 128 {
  tmem acc: f32[64, 32]
  tmem wide: f32[128, 32]
  reg r: f32[16, 32] layout(mma_acc)
  tcgen05.ld r <- acc[(warp.id % 2) * 32 : 16, :]
  tcgen05.ld r <- wide[(warp.id % 4) * 32 + 8 : 16, :]
  tcgen05.wait.ld
  store C[(warp.id % 4) * 16 : 16, :] <- r
}
)cake";
  auto a = cake::analyze(text);
  std::vector<const cake::Diagnostic*> lanes;
  for (const cake::Diagnostic& d : a->diagnostics)
    if (d.id == cake::DiagId::TmemLanes) lanes.push_back(&d);
  REQUIRE(lanes.size() == 2);
  CHECK(lanes[0]->range.begin == offset_of(text, "(warp.id % 2) * 32"));
  REQUIRE(lanes[0]->related.size() == 1);
  CHECK(lanes[0]->related[0].range.begin == offset_of(text, "tmem acc"));
  CHECK(lanes[1]->range.begin == offset_of(text, "(warp.id % 4) * 32 + 8"));
  REQUIRE(lanes[1]->related.size() == 1);
  CHECK(lanes[1]->related[0].range.begin == offset_of(text, "reg r"));
}
