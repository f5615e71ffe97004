// The compiler's facts on the .cake lines (cake/codegen/facts.h): a spill
// in ptxas's report draws W0803 on the kernel's name with its fragments as
// related spans, or on the `maxnreg` of the role whose budget spills (a
// kernel compiled for real); a line the CUDA compiler rejects draws E0802
// on that line's statement; static shared memory the layout does not count
// draws W0804; PTX lines map to .cake lines through `.loc` and
// `inlined_at`; a kernel that does not lower has no facts. Compiles are
// skipped, saying so, without NVRTC.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "support/test_files.h"
#include "cake/codegen/facts.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) { return cake::test::read_file(p).value_or(""); }

// 48 registers of fragments per thread, within the verifier's 64 for a
// 1024-thread block on sm_80 (E0304 counts 16 more for the rest).
const char* kSpill = R"(target sm_80

kernel spill(X: global f32[N, 24] row_major, Y: global f32[N, 24] row_major)
  where N % 1024 == 0
  grid (N / 1024)
  block 1024
{
  let i = block.x * 1024 + warp.id * 32 + lane
  reg x: f32[24]
  reg y: f32[24]
  for k in 0 .. 8 {
    load x <- X[i, :]
    load y <- Y[i, :]
    x = exp2(x * y + x)
    y = y * x + exp2(y)
    store Y[i, :] <- y
    store X[i, :] <- x
  }
}
)";

uint32_t line_of(const Analysis& a, uint32_t offset) { return a.lines.position(offset).line + 1; }

}  // namespace

TEST_CASE("PTX lines map to .cake lines through .loc, following inlined_at") {
  std::string ptx =
      "//\n"
      "  .loc 1 12 3\n"            // line 2
      "  add.f32 %f1, %f2, %f3;\n"  // line 3
      "  .loc 2 5 1, function_name $L__info, inlined_at 1 40 7\n"
      "  cvt.f32.f16 %f4, %rs1;\n"  // line 5
      "  .loc 2 9 1\n"
      "  mov.b32 %r1, 0;\n"  // line 7
      "  .file 1 \"kernel.cake\"\n"
      "  .file 2 \"prelude.cuh\"\n";
  CHECK(codegen::ptx_line_to_cake(ptx, 3, "kernel.cake") == 12);
  CHECK(codegen::ptx_line_to_cake(ptx, 5, "kernel.cake") == 40);
  CHECK(codegen::ptx_line_to_cake(ptx, 7, "kernel.cake") == 40);  // line 6's .loc names only the prelude
  CHECK(codegen::ptx_line_to_cake(ptx, 1, "kernel.cake") == 0);
  CHECK(codegen::ptx_line_to_cake(ptx, 3, "other.cake") == 0);
}

TEST_CASE("PTX instructions are counted by the .cake line of their .loc") {
  std::string ptx =
      "  .loc 1 12 3\n"
      "  ld.global.f32 %f1, [%rd1];\n"
      "  ld.global.f32 %f2, [%rd1+4];\n"
      "  @%p1 bra $L__BB0_2;\n"
      "$L__BB0_2:\n"
      "  .loc 2 5 1, function_name $L__info, inlined_at 1 40 7\n"
      "  {\n"
      "  cvt.f32.f16 %f4, %rs1;\n"
      "  }\n"
      "  .loc 1 41 2\n"
      "  // a comment\n"
      "  ret;\n"
      "  .file 1 \"kernel.cake\"\n"
      "  .file 2 \"prelude.cuh\"\n";
  codegen::PtxLines lines = codegen::ptx_by_line(ptx, "kernel.cake");
  REQUIRE(lines.size() == 3);
  using Ops = std::vector<std::pair<std::string, int>>;
  CHECK(lines[12] == Ops{{"ld.global.f32", 2}, {"bra", 1}});
  CHECK(lines[40] == Ops{{"cvt.f32.f16", 1}});
  CHECK(lines[41] == Ops{{"ret", 1}});
}

TEST_CASE("static shared memory the verifier's layout does not count draws W0804") {
  auto a = analyze(read(fs::path(CAKE_EXAMPLES_DIR) / "row_softmax.cake"));
  codegen::Lowered low = codegen::lower(*a, 0, "sm_80", "kernel.cake");
  REQUIRE(low.ok());
  codegen::CompileResult r;
  r.ok = true;
  r.resources.push_back({"row_softmax", 168, 0, 0, 0, 0, 1024, 0});
  std::vector<Diagnostic> d = codegen::compile_diagnostics(*a, 0, "sm_80", low.plan, r);
  REQUIRE(d.size() == 1);
  CHECK(d[0].id == DiagId::SmemMismatch);
  CHECK(d[0].message.find("1024 bytes of static shared memory") != std::string::npos);
  CHECK(d[0].message.find("(512 bytes, all dynamic)") != std::string::npos);
  CHECK(a->text.substr(d[0].range.begin, d[0].range.end - d[0].range.begin) == "row_softmax");
  r.resources[0].shared = 0;
  CHECK(codegen::compile_diagnostics(*a, 0, "sm_80", low.plan, r).empty());
}

TEST_CASE("a spill in ptxas's report draws W0803 on the kernel's name, with its fragments") {
  auto a = analyze(kSpill);
  REQUIRE(count(a->diagnostics).errors == 0);
  codegen::Lowered low = codegen::lower(*a, 0, "sm_80", "kernel.cake");
  REQUIRE(low.ok());
  if (codegen::available()) {
    // As compiled: ptxas fits its 48 registers of fragments in the 64 a
    // 1024-thread block allows (no spill: no facts). No kernel that the
    // verifier accepts was found to spill (ptxas rematerialises addresses and
    // reloads); __launch_bounds__ overrides --maxrregcount, so the spill
    // below is ptxas's report of one.
    codegen::FactsResult clean = codegen::compiler_facts(*a, 0, "sm_80");
    REQUIRE(clean.compiled);
    CHECK(clean.diagnostics.empty());
    REQUIRE(clean.resources.size() == 1);
    CHECK(clean.resources[0].spill_stores == 0);
  }
  codegen::CompileResult r;
  r.ok = true;
  r.resources.push_back({"spill", 64, 0, 96, 96, 96, 0, 96});
  std::vector<Diagnostic> found = codegen::compile_diagnostics(*a, 0, "sm_80", low.plan, r);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  INFO(d.message);
  CHECK(d.id == DiagId::RegisterSpill);
  CHECK(d.severity == Severity::Warning);
  CHECK(a->text.substr(d.range.begin, d.range.end - d.range.begin) == "spill");
  CHECK(d.message.find("spills registers to local memory when compiled for sm_80: 96 bytes stored and 96 loaded "
                      "per thread, with 64 registers per thread") != std::string::npos);
  REQUIRE(d.related.size() == 2);
  CHECK(d.related[0].message == "`x`: 24 registers per thread");
  CHECK(line_of(*a, d.related[0].range.begin) == 9);
  CHECK(d.related[1].message == "`y`: 24 registers per thread");
  CHECK(d.targets == std::vector<std::string>{"sm_80"});
}

// A producer-style warpgroup at maxnreg(24) computing on an 8-register
// fragment (the verifier's 8 + 16 fits) next to a warpgroup at 232: ptxas
// 13.0 spills in the first one's code.
const char* kRoleSpill = R"(target sm_90a

kernel spill_role(X: global f32[N, 8] row_major, Y: global f32[N, 8] row_major)
  where N % 128 == 0
  grid (N / 128)
  block 256
{
  role lean warpgroup(0) maxnreg(24) {
    let i = block.x * 128 + warp.id * 32 + lane
    reg x: f32[8]
    for k in 0 .. 16 {
      load x <- X[i, :]
      x = exp2(x * x + x) * rsqrt(x + 1.0) + log2(x * 3.0 + 2.0)
      store Y[i, :] <- x
    }
  }
  role wide warpgroup(1) maxnreg(232) {
    let i = block.x * 128 + (warp.id - 4) * 32 + lane
    reg z: f32[8]
    load z <- Y[i, :]
    z = z * 2.0
    store X[i, :] <- z
  }
}
)";

TEST_CASE("a role whose maxnreg makes ptxas spill draws W0803 on that budget, compiled for real") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  auto a = analyze(kRoleSpill);
  REQUIRE(count(a->diagnostics).errors == 0);
  codegen::FactsResult r = codegen::compiler_facts(*a, 0, "sm_90a");
  REQUIRE(r.compiled);
  REQUIRE(r.resources.size() == 1);
  CHECK(r.resources[0].spill_stores > 0);
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics[0];
  INFO(d.message);
  CHECK(d.id == DiagId::RegisterSpill);
  CHECK(line_of(*a, d.range.begin) == 8);  // role lean warpgroup(0) maxnreg(24)
  CHECK(a->text.substr(d.range.begin, d.range.end - d.range.begin) == "24");
  CHECK(d.message.find("role `lean` of `spill_role` spills registers to local memory under its budget of 24 "
                      "registers per thread when compiled for sm_90a") != std::string::npos);
  REQUIRE(d.related.size() == 2);  // the kernel, and only the lean role's fragment
  CHECK(a->text.substr(d.related[0].range.begin, d.related[0].range.end - d.related[0].range.begin) == "spill_role");
  CHECK(d.related[1].message == "`x`: 8 registers per thread");
}

TEST_CASE("a line the CUDA compiler rejects draws E0802 on that line") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  auto a = analyze(read(fs::path(CAKE_EXAMPLES_DIR) / "row_softmax.cake"));
  // As if the lowering wrote a call of a function that does not exist for
  // the exp2 of line 37.
  codegen::FactsResult r = codegen::compiler_facts(*a, 0, "sm_80", {"--define-macro=exp2f=cake_no_such_function"});
  CHECK(r.lowered);
  CHECK_FALSE(r.compiled);
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics[0];
  INFO(d.message);
  CHECK(d.id == DiagId::CudaCompileError);
  CHECK(line_of(*a, d.range.begin) == 37);
  CHECK(d.message.find("for sm_80: identifier \"cake_no_such_function\" is undefined") != std::string::npos);
}

TEST_CASE("a compiled kernel's PTX is counted by its .cake lines") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  auto a = analyze(read(fs::path(CAKE_EXAMPLES_DIR) / "row_softmax.cake"));
  codegen::FactsResult r = codegen::compiler_facts(*a, 0, "sm_80");
  REQUIRE(r.compiled);
  // Line 37: x = exp2((x - m) * 1.4426950408889634), over 128 values.
  REQUIRE(r.ptx_lines.count(37) == 1);
  int ex2 = 0;
  for (const auto& [op, n] : r.ptx_lines.at(37))
    if (op.starts_with("ex2")) ex2 += n;
  CHECK(ex2 == 128);
  CHECK(r.ptx_lines.count(29) == 1);  // the load
}

TEST_CASE("a kernel that does not lower has no compiler facts") {
  auto a = analyze(read(fs::path(CAKE_TESTS_DIR) / "codegen" / "fixtures" / "not_lowered.cake"));
  codegen::FactsResult r = codegen::compiler_facts(*a, 0, "sm_100a");
  CHECK_FALSE(r.lowered);
  CHECK(r.diagnostics.empty());
}
