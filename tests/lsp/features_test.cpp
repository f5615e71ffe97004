// The editor queries behind cake-lsp's features (hover, completion,
// signature help, semantic tokens, inlay hints) on annotated sources: `^`
// marks a position and `[[ ... ]]` a range; the markers are removed before
// analysis. Also the LSP delta encoding of semantic tokens.
#include <catch2/catch.hpp>

#include "cake/document.h"
#include "cake/query_completion.h"
#include "cake/query_hover.h"
#include "cake/query_tokens.h"
#include "cake/registry.h"
#include "features/semantic_tokens.h"
#include "render/render.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

using namespace cake;

struct Annotated {
  std::string text;
  std::vector<uint32_t> points;
  std::vector<ByteRange> ranges;
};

Annotated annotate(std::string_view source) {
  Annotated a;
  std::vector<uint32_t> open;
  for (size_t i = 0; i < source.size(); ++i) {
    auto at = static_cast<uint32_t>(a.text.size());
    if (source[i] == '^') {
      a.points.push_back(at);
    } else if (source.substr(i, 2) == "[[") {
      open.push_back(at);
      ++i;
    } else if (source.substr(i, 2) == "]]" && !open.empty()) {
      a.ranges.push_back({open.back(), at});
      open.pop_back();
      ++i;
    } else {
      a.text += source[i];
    }
  }
  return a;
}

std::string hover_text(Document& doc, uint32_t offset) {
  std::optional<HoverInfo> h = hover_at(doc.model(), doc.text(), *doc.diagnostics(), offset);
  return h ? render::hover_markdown(*h) : std::string();
}

bool has_label(const std::vector<CompletionCandidate>& items, std::string_view label,
               std::optional<CompletionCandidate::Kind> kind = std::nullopt) {
  return std::any_of(items.begin(), items.end(),
                     [&](const CompletionCandidate& c) { return c.label == label && (!kind || c.kind == *kind); });
}

constexpr const char* kGemm = R"cake(target sm_90a
const TILE = 32 * 2
kernel gemm(A: global bf16[M, K] row_major, C: global bf16[M, 256] row_major)
  where M % 128 == 0, K % 64 == 0
  grid (M / 128) block 384
{
  smem ^sA: bf16[4][128, TILE] swizzle(128B)
  mbarrier ^full[4]
  mbarrier empty[4] count(2)
  tensormap tA = A box [128, 64] swizzle(128B)
  role ^producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / TILE {
        wait empty[s] parity(s.phase)
        arrive.expect_tx full[s], bytes(sA[s])
        ^tma.load sA[s] <- tA[block.x * 128, kt * 64], full[s]
      }
    }
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    pipeline s in ring(4) for kt in 0 .. K / ^TILE {
      wait full[s] parity(s.phase)
      ^wgmma.fence
      wgmma acc += sA[s][0 : 64, :] @ sA[s].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] }
    }
  }
}
)cake";

}  // namespace

// Section - Hover

TEST_CASE("hover describes buffers, barriers, roles, ops and consts", "[hover]") {
  Annotated a = annotate(kGemm);
  Document doc(a.text);
  const std::pair<size_t, std::string_view> expected[] = {
      {0, "**sA**"},
      {0, "`bf16`"},
      {0, "[4] stages of [128, "},
      {0, "space: smem"},
      {0, "swizzle: 128B"},
      {0, "size: 65536 B (64 KB), 16384 B (16 KB) per stage"},
      {1, "arrival count: 1"},
      {1, "stages (array size): `4`"},
      {2, "warps: 4"},
      {2, "threads: 128"},
      {2, "maxnreg: `40`"},
      {2, "register budget: 5120 registers"},
      {3, "**tma.load**"},
      {3, "Supported on `sm_90a`"},
      {4, "`32 * 2` = 64"},
      {5, "**wgmma.fence**"},
  };
  for (auto [point, text] : expected) CHECK_THAT(hover_text(doc, a.points[point]), Catch::Contains(std::string(text)));
}

TEST_CASE("hover on a col_major buffer says which dim is contiguous", "[hover]") {
  Annotated a = annotate(
      "target sm_80\nkernel k(^A: global f32[16, 8] col_major, ^B: global f32[16, 8]) grid (1) block 32 {\n"
      "  smem ^s: bf16[16, 16] col_major\n  smem ^v: f32[16] col_major\n}\n");
  Document doc(a.text);
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::Contains("order: col_major (the first dim contiguous)"));
  CHECK_THAT(hover_text(doc, a.points[2]), Catch::Contains("order: col_major (the first dim contiguous)"));
  CHECK_THAT(hover_text(doc, a.points[1]), !Catch::Contains("order:"));  // row_major, the default
  CHECK_THAT(hover_text(doc, a.points[3]), !Catch::Contains("order:"));  // 1-D: the same either way
}

TEST_CASE("hover on a 64-lane tmem buffer says where its rows lie", "[hover]") {
  Annotated a = annotate(
      "target sm_100a\nkernel k() grid (1) block 128 {\n  tmem ^a: f32[64, 64]\n  tmem ^b: f32[128, 64]\n}\n");
  Document doc(a.text);
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::Contains("lanes: rows 16 q .. 16 q + 15 in the first 16 lanes of quarter q"));
  CHECK_THAT(hover_text(doc, a.points[1]), !Catch::Contains("lanes:"));  // row i in lane i
}

TEST_CASE("hover names targets that lack an op", "[hover]") {
  Annotated a = annotate("target sm_80, sm_90a\nkernel k() grid (1) block 128 {\n  ^wgmma.fence\n}\n");
  Document doc(a.text);
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::Contains("**Not supported** on `sm_80`"));
}

TEST_CASE("hover on a dsmem view names its buffer and CTA", "[hover]") {
  Annotated a = annotate(
      "target sm_90a\nkernel k() grid (2) block 32 cluster (2) {\n  smem buf: f32[32]\n"
      "  dsmem ^peer = buf cta(1 - cluster.rank)\n  reg x: f32\n  load x <- ^peer[lane]\n  cluster.sync\n}\n");
  Document doc(a.text);
  for (size_t point : {0, 1}) {
    std::string text = hover_text(doc, a.points[point]);
    CHECK_THAT(text, Catch::Contains("**peer**: a view of a peer CTA's shared memory"));
    CHECK_THAT(text, Catch::Contains("space: dsmem"));
    CHECK_THAT(text, Catch::Contains("buffer: `buf`"));
    CHECK_THAT(text, Catch::Contains("cta: `1 - cluster.rank`"));
  }
}

TEST_CASE("hover on a view of a peer's mbarrier names the barrier and CTA", "[hover]") {
  Annotated a = annotate(
      "target sm_100a\nkernel k() grid (2) block 32 cluster (2) cta_group 2 {\n  mbarrier full[2]\n"
      "  dsmem ^lead = full cta(cluster.rank - cluster.rank % 2)\n}\n");
  Document doc(a.text);
  std::string text = hover_text(doc, a.points[0]);
  CHECK_THAT(text, Catch::Contains("**lead**: a view of a peer CTA's shared memory"));
  CHECK_THAT(text, Catch::Contains("mbarrier: `full`"));
  CHECK_THAT(text, Catch::Contains("cta: `cluster.rank - cluster.rank % 2`"));
  CHECK_THAT(text, !Catch::Contains("space: dsmem"));
}

TEST_CASE("a role whose warps do not fold still lists its facts", "[hover]") {
  Annotated a = annotate(
      "target sm_90a\nkernel k(A: global f32[N] row_major) grid (1) block 128 {\n  role ^r warp(0 .. N) maxnreg(40) {\n  }\n}\n");
  Document doc(a.text);
  std::optional<HoverInfo> h = hover_at(doc.model(), doc.text(), *doc.diagnostics(), a.points[0]);
  REQUIRE(h);
  REQUIRE(h->subject);
  REQUIRE(h->subject->facts.size() == 1);  // no warps or threads: only maxnreg
  CHECK(h->subject->facts[0].label == "maxnreg");
  CHECK(h->subject->facts[0].kind == HoverFact::Kind::Expr);
  CHECK(h->subject->facts[0].text == "40");
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::StartsWith("**r**: a role\n\n- maxnreg: `40`"));
}

TEST_CASE("hover on a diagnostic's range gives its code and rule summary", "[hover]") {
  Annotated a = annotate("target sm_90a\nkernel k() grid (1) block 128 {\n  let x = [[undefined_nam^e]] + 1\n}\n");
  Document doc(a.text);
  const std::vector<Diagnostic>& diags = *doc.diagnostics();
  auto it = std::find_if(diags.begin(), diags.end(), [&](const Diagnostic& d) { return d.range.contains(a.points[0]); });
  REQUIRE(it != diags.end());
  std::string text = hover_text(doc, a.points[0]);
  CHECK_THAT(text, Catch::Contains(std::string(rule_info(it->id).code)));
  CHECK_THAT(text, Catch::Contains(std::string(rule_info(it->id).summary)));
  std::optional<HoverInfo> h = hover_at(doc.model(), doc.text(), diags, a.points[0]);
  REQUIRE(h);
  REQUIRE(h->diagnostics.size() == 1);
  CHECK(h->diagnostics[0].code == rule_info(it->id).code);
  // Not the message: editors show the diagnostic itself beside the hover (issue 16).
  CHECK_THAT(text, !Catch::Contains(it->message));
}

// Section - Completion and signature help

TEST_CASE("completion offers keywords, target ops, names in scope and snippets", "[completion]") {
  Annotated a = annotate(R"cake(target sm_80
kernel k(X: global f32[N]) grid (1) block 128 {
  smem buf: f32[2][64, 32]
  for i in 0 .. 4 {
    ^
  }
  ^
}
)cake");
  Document doc(a.text);
  auto inside = completions_at(doc.model(), doc.text(), a.points[0]);
  CHECK(has_label(inside, "pipeline", CompletionCandidate::Kind::Keyword));
  CHECK(has_label(inside, "cp.async", CompletionCandidate::Kind::Op));
  CHECK_FALSE(has_label(inside, "wgmma"));  // sm_80 has no wgmma
  CHECK(has_label(inside, "buf", CompletionCandidate::Kind::Name));
  CHECK(has_label(inside, "i", CompletionCandidate::Kind::Name));
  CHECK(has_label(inside, "X", CompletionCandidate::Kind::Name));
  CHECK(has_label(inside, "bf16", CompletionCandidate::Kind::Type));
  // Builtin functions once each, as functions (`max` is also reduce.row's).
  CHECK(has_label(inside, "select", CompletionCandidate::Kind::Function));
  CHECK(has_label(inside, "row", CompletionCandidate::Kind::Function));
  CHECK(has_label(inside, "exp2", CompletionCandidate::Kind::Function));
  CHECK(std::count_if(inside.begin(), inside.end(), [](const CompletionCandidate& c) { return c.label == "max"; }) == 1);
  auto snippet = std::find_if(inside.begin(), inside.end(), [](const CompletionCandidate& c) {
    return c.kind == CompletionCandidate::Kind::Snippet && c.label == "kernel";
  });
  REQUIRE(snippet != inside.end());
  CHECK_THAT(snippet->insert_text, Catch::Contains("${1:name}"));

  auto after = completions_at(doc.model(), doc.text(), a.points[1]);
  CHECK_FALSE(has_label(after, "i", CompletionCandidate::Kind::Name));  // out of the loop
}

TEST_CASE("completion after `buf[` gives its dims and index names", "[completion]") {
  Annotated a = annotate(R"cake(target sm_90a
kernel k() grid (1) block 128 {
  smem buf: f32[2][64, 32]
  for i in 0 .. 4 {
    let v = buf[^
  }
}
)cake");
  Document doc(a.text);
  auto items = completions_at(doc.model(), doc.text(), a.points[0]);
  CHECK(has_label(items, "2", CompletionCandidate::Kind::Dim));
  CHECK(has_label(items, "64", CompletionCandidate::Kind::Dim));
  CHECK(has_label(items, "32", CompletionCandidate::Kind::Dim));
  auto dim = std::find_if(items.begin(), items.end(), [](const CompletionCandidate& c) {
    return c.kind == CompletionCandidate::Kind::Dim && c.label == "2";
  });
  REQUIRE(dim != items.end());
  CHECK(dim->stage_dim);
  CHECK(dim->dim == 0);
  CHECK(dim->buffer == "buf");
  CHECK(render::completion_detail(*dim) == "stage dim 0 of `buf`");
  CHECK(has_label(items, "i", CompletionCandidate::Kind::Name));
  CHECK_FALSE(has_label(items, "buf"));
  CHECK_FALSE(has_label(items, "kernel"));
}

TEST_CASE("completion after a bench's `reference` offers the other kernels", "[completion]") {
  Annotated a = annotate(R"cake(target sm_90a
const D = 64
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel k_ref(A: global f32[N]) grid (N) block 32 { }
bench k { N = 128 } reference ^
bench k { N = 256 } reference k_^r
bench k { N = 512 }
^
)cake");
  Document doc(a.text);
  for (uint32_t point : {a.points[0], a.points[1]}) {
    auto items = completions_at(doc.model(), doc.text(), point);
    CHECK(has_label(items, "k_ref", CompletionCandidate::Kind::Name));
    CHECK_FALSE(has_label(items, "k"));  // the benched kernel: not its own reference
    CHECK_FALSE(has_label(items, "D"));
    CHECK_FALSE(has_label(items, "reference", CompletionCandidate::Kind::Keyword));
  }
  auto elsewhere = completions_at(doc.model(), doc.text(), a.points[2]);
  CHECK(has_label(elsewhere, "reference", CompletionCandidate::Kind::Keyword));
  CHECK(has_label(elsewhere, "D", CompletionCandidate::Kind::Name));
}

TEST_CASE("hover on a bench's reference describes the kernel", "[hover]") {
  Annotated a = annotate(R"cake(target sm_90a
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel ^k_ref(A: global f32[N]) grid (N) block 32 {
  smem s: f32[256]
}
bench k { N = 128 } reference k_^ref
)cake");
  Document doc(a.text);
  std::string on_reference = hover_text(doc, a.points[1]);
  CHECK_THAT(on_reference, Catch::StartsWith("**k_ref**: a kernel"));
  CHECK(on_reference == hover_text(doc, a.points[0]));
}

TEST_CASE("hover and completion work in a file with a syntax error", "[hover][completion]") {
  Annotated a = annotate(R"cake(target sm_90a
kernel k() grid (1) block 128 {
  smem ^buf: f16[64, 64]
  let x = (1 + 
  for i in 0 .. 4 {
    ^
  }
}
)cake");
  Document doc(a.text);
  REQUIRE_FALSE(doc.diagnostics()->empty());
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::Contains("size: 8192 B (8 KB)"));
  auto items = completions_at(doc.model(), doc.text(), a.points[1]);
  CHECK(has_label(items, "buf", CompletionCandidate::Kind::Name));
  CHECK(has_label(items, "wgmma", CompletionCandidate::Kind::Op));
}

TEST_CASE("signature help follows the operands of an op", "[signature]") {
  Annotated a = annotate("  tma.load ^sA[s] <- ^tA[0, 0], ^full[s]\n  ^syncthreads\n");
  std::optional<SignatureInfo> first = signature_at(a.text, a.points[0]);
  REQUIRE(first);
  CHECK_THAT(first->label, Catch::StartsWith("tma.load dst <- src"));
  REQUIRE(first->parameters.size() >= 3);
  auto [b, e] = first->parameters[0];
  CHECK(first->label.substr(b, e - b) == "dst");
  CHECK(first->active == 0);
  CHECK(signature_at(a.text, a.points[1])->active == 1);
  CHECK(signature_at(a.text, a.points[2])->active == 2);
  CHECK_FALSE(signature_at(a.text, a.points[3]));  // inside the op's own name
}

// Section - Semantic tokens and inlay hints

TEST_CASE("semantic tokens classify the words of a kernel", "[tokens]") {
  struct Row {
    std::string_view source;
    TokenKind kind;
  };
  const Row rows[] = {
      {"[[target]] sm_90a\nkernel k() grid (1) block 128 {}\n", TokenKind::Keyword},
      {"target [[sm_90a]]\n", TokenKind::Target},
      {"target sm_90a\nkernel k() grid (1) block 128 {\n  smem [[b]]: [[f16]][64]\n}\n", TokenKind::Buffer},
      {"target sm_90a\nkernel k() grid (1) block 128 {\n  mbarrier [[m]][2]\n  wait [[m]][0] parity(0)\n}\n",
       TokenKind::Barrier},
      {"target sm_90a\nkernel k() grid (1) block 128 {\n  role [[r]] warpgroup(0) { [[wgmma.fence]] }\n}\n",
       TokenKind::Role},
      {"target sm_90a [[// a comment]]\n", TokenKind::Comment},
      {"target sm_90a\nkernel [[k]]([[X]]: global f32[ [[N]] ]) grid ([[1]]) block 128 {}\n", TokenKind::Function},
      // A call's function is a function (highlights.scm's @function.call), and
      // every word token of the grammar is a keyword (`step` too).
      {"target sm_90a\nkernel k() grid (1) block 128 {\n  smem b: f16[64]\n  mbarrier m[1]\n"
       "  arrive.expect_tx m[0], [[bytes]](b)\n}\n",
       TokenKind::Function},
      {"target sm_90a\nkernel k() grid (1) block 128 {\n  for i in 0 .. 4 [[step]] 2 {}\n}\n", TokenKind::Keyword},
  };
  for (const Row& row : rows) {
    Annotated a = annotate(row.source);
    Document doc(a.text);
    std::vector<SemanticToken> tokens = semantic_tokens(doc.model(), doc.tree(), doc.text(), {0, UINT32_MAX});
    auto kind_at = [&](ByteRange r) -> std::optional<TokenKind> {
      for (const SemanticToken& t : tokens)
        if (t.range == r) return t.kind;
      return std::nullopt;
    };
    INFO(row.source);
    REQUIRE(!a.ranges.empty());
    std::sort(a.ranges.begin(), a.ranges.end(), [](ByteRange x, ByteRange y) { return x.begin < y.begin; });
    CHECK(kind_at(a.ranges[0]) == row.kind);
    if (row.kind == TokenKind::Buffer) CHECK(kind_at(a.ranges[1]) == TokenKind::Type);
    if (row.kind == TokenKind::Barrier) CHECK(kind_at(a.ranges[1]) == TokenKind::Barrier);
    if (row.kind == TokenKind::Role) CHECK(kind_at(a.ranges[1]) == TokenKind::Op);
    if (row.kind == TokenKind::Comment) CHECK(tokens.back().kind == TokenKind::Comment);
    if (row.kind == TokenKind::Function && a.ranges.size() > 1) {
      CHECK(kind_at(a.ranges[1]) == TokenKind::Parameter);
      CHECK(kind_at(a.ranges[2]) == TokenKind::Parameter);
      CHECK(kind_at(a.ranges[3]) == TokenKind::Number);
    }
  }
}

TEST_CASE("semantic tokens are delta-encoded in the negotiated encoding", "[tokens]") {
  // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 UTF-16 units.
  std::string text = "target sm_90a /* é */\n// 𝄞 x\nconst N = 4\n";
  LineIndex lines(text);
  SyntaxTree tree = parse(text);
  std::vector<SemanticToken> tokens = semantic_tokens(Module{}, tree, text, {0, UINT32_MAX});
  REQUIRE(tokens.size() == 5);  // sm_90a is no target of an empty model
  PositionConverter utf16(text, lines, PositionEncoding::Utf16);
  std::vector<uint32_t> expected = {
      0, 0,  6,  uint32_t(TokenKind::Keyword), 0,  // target
      0, 14, 7,  uint32_t(TokenKind::Comment), 0,  // /* é */: 7 UTF-16 units
      1, 0,  7,  uint32_t(TokenKind::Comment), 0,  // // 𝄞 x: 7 units
      1, 0,  5,  uint32_t(TokenKind::Keyword), 0,  // const
      0, 10, 1,  uint32_t(TokenKind::Number), 0,   // 4
  };
  CHECK(cake::lsp::encode_semantic_tokens(tokens, text, utf16) == expected);
  PositionConverter utf8(text, lines, PositionEncoding::Utf8);
  std::vector<uint32_t> bytes = cake::lsp::encode_semantic_tokens(tokens, text, utf8);
  CHECK(bytes[7] == 8);   // /* é */ is 8 bytes
  CHECK(bytes[12] == 9);  // // 𝄞 x is 9 bytes
  CHECK(cake::lsp::semantic_token_legend().size() == kTokenKindCount);
}

TEST_CASE("hover and inlay hints size a 6- or 4-bit float buffer where it lives", "[hover][inlay]") {
  // A byte a value in shared and tensor memory (kind::f8f6f4's chunks); a
  // register fragment is counted packed, as bytes() counts.
  Annotated a = annotate(R"cake(target sm_100a
kernel k() grid (1) block 128 {
  smem ^sA: f4e2m1[2][128, 128] swizzle(128B)
  tmem ^t: f6e2m3[128, 128]
  reg ^r: f4e2m1[32, 32] layout(tcgen05_acc)
}
)cake");
  Document doc(a.text);
  CHECK_THAT(hover_text(doc, a.points[0]), Catch::Contains("size: 32768 B (32 KB), 16384 B (16 KB) per stage"));
  CHECK_THAT(hover_text(doc, a.points[1]), Catch::Contains("size: 16384 B (16 KB)"));
  CHECK_THAT(hover_text(doc, a.points[2]), Catch::Contains("size: 512 B"));
  std::vector<InlayHintInfo> hints = inlay_hints(doc.model(), doc.text(), {0, UINT32_MAX});
  auto has = [&](std::string_view label) {
    return std::any_of(hints.begin(), hints.end(), [&](const InlayHintInfo& h) { return render::hint_label(h) == label; });
  };
  CHECK(has("size 32 KB, 16 KB per stage"));
  CHECK(has("size 16 KB"));
}

TEST_CASE("inlay hints show buffer sizes and pipeline stages", "[inlay]") {
  Annotated a = annotate(kGemm);
  Document doc(a.text);
  std::vector<InlayHintInfo> hints = inlay_hints(doc.model(), doc.text(), {0, UINT32_MAX});
  auto has = [&](std::string_view label) {
    return std::any_of(hints.begin(), hints.end(), [&](const InlayHintInfo& h) { return render::hint_label(h) == label; });
  };
  CHECK(has("size 64 KB"));                     // acc, 64 x 256 f32
  CHECK(has("size 64 KB, 16 KB per stage"));    // sA, a ring of 4
  CHECK(has(": stage 0..3, phase s.phase"));
}
