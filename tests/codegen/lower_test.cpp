// Lowering (cake/codegen/lower.h), without a GPU: every example kernel
// either lowers or is refused with CAKE-E0801 inside the kernel; what lowers
// matches its golden CUDA (UPDATE_GOLDEN=1 rewrites them), compiles with
// NVRTC without spills, and maps every PTX line to the .cake file; a
// front-end error inside a statement names that statement's .cake line; the
// launch plan reads the verifier's layout. Compiles are skipped, saying so,
// without NVRTC.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/eval.h"
#include "support/test_files.h"
#include "cake/codegen/lower.h"
#include "cake/codegen/nvrtc.h"
#include "codegen/op_kernels.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) { return cake::test::read_file(p).value_or(""); }

std::string kernel_name(const Analysis& a, uint32_t k) {
  return std::string(a.module.symbols[a.module.kernels[k].symbol].name);
}

std::optional<uint32_t> find_kernel(const Analysis& a, std::string_view name) {
  for (uint32_t k = 0; k < a.module.kernels.size(); ++k)
    if (kernel_name(a, k) == name) return k;
  return std::nullopt;
}

const std::string kFile = "/cake/examples/file.cake";

codegen::Lowered lower_example(const std::string& example, const std::string& kernel, const std::string& target,
                               std::unique_ptr<Analysis>& a) {
  a = analyze(read(fs::path(CAKE_EXAMPLES_DIR) / example));
  auto k = find_kernel(*a, kernel);
  REQUIRE(k);
  return codegen::lower(*a, *k, target, kFile);
}

/// The .cake lines that PTX `.loc` directives of file `file_index` name,
/// and whether any names another file.
struct LocLines {
  std::set<uint32_t> lines;
  std::set<std::string> files;
};

LocLines loc_lines(const std::string& ptx) {
  LocLines out;
  std::map<std::string, std::string> files;  // index -> path
  static const std::regex file_re(R"(\.file\s+(\d+)\s+"([^"]*)\")");
  static const std::regex loc_re(R"(\.loc\s+(\d+)\s+(\d+)\s+\d+)");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), file_re), end; it != end; ++it) files[(*it)[1]] = (*it)[2];
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), loc_re), end; it != end; ++it) {
    out.files.insert(files[(*it)[1]]);
    out.lines.insert(static_cast<uint32_t>(std::stoul((*it)[2])));
  }
  return out;
}

}  // namespace

TEST_CASE("every example kernel lowers or is refused inside the kernel") {
  int lowered = 0, refused = 0;
  for (const auto& entry : fs::directory_iterator(CAKE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".cake") continue;
    auto a = analyze(read(entry.path()));
    REQUIRE(count(a->diagnostics).errors == 0);
    for (uint32_t k = 0; k < a->module.kernels.size(); ++k) {
      for (const std::string& t : file_targets(a->module, {})) {
        INFO(entry.path().filename().string() << " " << kernel_name(*a, k) << " " << t);
        codegen::Lowered low = codegen::lower(*a, k, t, kFile);
        if (low.ok()) {
          ++lowered;
          CHECK(low.cuda.find("extern \"C\" __global__") != std::string::npos);
          CHECK(low.cake_line.size() == static_cast<size_t>(std::count(low.cuda.begin(), low.cuda.end(), '\n')));
          continue;
        }
        ++refused;
        for (const Diagnostic& d : low.diagnostics) {
          INFO(d.message);
          CHECK(d.id == DiagId::NotLowered);
          CHECK(d.message.ends_with("cannot be lowered to CUDA yet"));
          CHECK(d.range.begin >= a->module.kernels[k].range.begin);
          CHECK(d.range.end <= a->module.kernels[k].range.end);
        }
      }
    }
  }
  // Every example kernel × target (18 of them).
  CHECK(lowered >= 18);
  CHECK(refused == 0);
}

TEST_CASE("every kernel of the published results' set lowers") {
  // The cost model's published cases (tests/cost/published/) are written
  // as their sources run them, so they are what a user writes too:
  // FlashAttention-3's P from registers in two K slices, stream-K's
  // store.add, multicast, bulk copies.
  int lowered = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(CAKE_TESTS_DIR) / "cost/published")) {
    if (entry.path().extension() != ".cake") continue;
    auto a = analyze(read(entry.path()));
    REQUIRE(count(a->diagnostics).errors == 0);
    for (uint32_t k = 0; k < a->module.kernels.size(); ++k)
      for (const std::string& t : file_targets(a->module, {})) {
        INFO(entry.path().filename().string() << " " << kernel_name(*a, k) << " " << t);
        codegen::Lowered low = codegen::lower(*a, k, t, kFile);
        for (const Diagnostic& d : low.diagnostics) INFO(d.message);
        CHECK(low.ok());
        ++lowered;
      }
  }
  CHECK(lowered >= 12);
}

/// Every example kernel × target that lowers, with its analysis.
struct LoweredExample {
  std::string file, kernel, target;
  codegen::Lowered low;
  const Analysis* analysis = nullptr;
  uint32_t index = 0;
};

std::vector<LoweredExample> lowered_examples(std::vector<std::unique_ptr<Analysis>>& keep) {
  std::vector<LoweredExample> out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(CAKE_EXAMPLES_DIR))
    if (entry.path().extension() == ".cake") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    keep.push_back(analyze(read(f)));
    const Analysis& a = *keep.back();
    for (uint32_t k = 0; k < a.module.kernels.size(); ++k)
      for (const std::string& t : file_targets(a.module, {})) {
        codegen::Lowered low = codegen::lower(a, k, t, kFile);
        if (low.ok()) out.push_back({f.filename().string(), kernel_name(a, k), t, std::move(low), &a, k});
      }
  }
  return out;
}

/// The synchronisation a loop's IR names: bar.sync for `syncthreads` and
/// `sync`, the wait_group of `cp.async.wait`, `wgmma.wait` and
/// `tma.store.wait`, fence.proxy.async for its op, an mbarrier try_wait or
/// test_wait for `wait`, mbarrier.arrive for `arrive` and
/// `arrive.expect_tx`.
struct SyncCounts {
  int barriers = 0, waits = 0, fences = 0, mbarrier_waits = 0, arrives = 0, warp_meets = 0;
  bool operator==(const SyncCounts&) const = default;
};

void count_ir(const Module& m, const std::vector<StmtId>& body, SyncCounts& c) {
  for (StmtId id : body) {
    const Stmt& s = m.stmts[id];
    if (const auto* p = std::get_if<PlainStmt>(&s.node)) {
      if (p->op == Op::Syncthreads) ++c.barriers;
      if (p->op == Op::FenceProxyAsync) ++c.fences;
    }
    if (std::holds_alternative<SyncStmt>(s.node)) ++c.barriers;
    if (std::holds_alternative<GroupWaitStmt>(s.node)) ++c.waits;
    if (std::holds_alternative<WaitStmt>(s.node)) ++c.mbarrier_waits;
    if (std::holds_alternative<ArriveStmt>(s.node)) ++c.arrives;
    if (const auto* f = std::get_if<IfStmt>(&s.node)) {
      count_ir(m, f->then_body, c);
      count_ir(m, f->else_body, c);
    }
    if (const auto* e = std::get_if<ElectStmt>(&s.node)) count_ir(m, e->body, c);
  }
}

/// The loops of a body whose trip count is not a constant (those are not
/// unrolled) and that hold no other loop: the hot loops.
void hot_loops(const Module& m, const Evaluator& eval, const std::vector<StmtId>& body, std::vector<StmtId>& out) {
  for (StmtId id : body) {
    const Stmt& s = m.stmts[id];
    const std::vector<StmtId>* inner = nullptr;
    bool constant = false;
    if (const auto* f = std::get_if<ForStmt>(&s.node)) inner = &f->body, constant = eval.fold(f->end).has_value();
    if (const auto* p = std::get_if<PipelineStmt>(&s.node)) inner = &p->body, constant = eval.fold(p->end).has_value();
    if (const auto* r = std::get_if<RoleStmt>(&s.node)) inner = &r->body;
    if (const auto* f = std::get_if<IfStmt>(&s.node)) {
      hot_loops(m, eval, f->then_body, out);
      hot_loops(m, eval, f->else_body, out);
    }
    if (const auto* e = std::get_if<ElectStmt>(&s.node)) hot_loops(m, eval, e->body, out);
    if (!inner) continue;
    size_t before = out.size();
    hot_loops(m, eval, *inner, out);
    if (out.size() == before && !constant && !std::holds_alternative<RoleStmt>(s.node)) out.push_back(id);
  }
}

/// The same counts over the PTX instructions whose `.loc` line is in
/// [first, last].
SyncCounts count_ptx(const std::string& ptx, uint32_t first, uint32_t last) {
  SyncCounts c;
  std::istringstream in(ptx);
  std::string line;
  uint32_t at = 0;
  static const std::regex loc_re(R"(^\s*\.loc\s+\d+\s+(\d+)\s)");
  std::smatch match;
  while (std::getline(in, line)) {
    if (std::regex_search(line, match, loc_re)) {
      at = static_cast<uint32_t>(std::stoul(match[1]));
      continue;
    }
    if (at < first || at > last) continue;
    // Inline asm may put several instructions on one line: count each.
    auto count = [&](std::string_view mnemonic) {
      int n = 0;
      for (size_t at = line.find(mnemonic); at != std::string::npos; at = line.find(mnemonic, at + 1)) ++n;
      return n;
    };
    c.barriers += count("bar.sync") + count("barrier.sync");
    c.waits += count("cp.async.wait_group") + count("wgmma.wait_group") + count("cp.async.bulk.wait_group");
    c.fences += count("fence.proxy.async");
    c.mbarrier_waits += count("mbarrier.try_wait") + count("mbarrier.test_wait");
    c.arrives += count("mbarrier.arrive");
    c.warp_meets += count("bar.warp.sync");
  }
  return c;
}

TEST_CASE("the lowered CUDA of every kernel that lowers matches its golden file") {
  std::vector<std::unique_ptr<Analysis>> keep;
  std::vector<LoweredExample> all = lowered_examples(keep);
  // Every example kernel × target.
  CHECK(all.size() >= 18);
  // One golden per kernel, for the first target that lowers it (the code
  // differs between targets only where an op does), without the prelude,
  // which has a golden of its own; a kernel that two examples repeat is
  // compared once.
  const std::string end_of_prelude = "// ---- end of prelude ----\n";
  fs::path dir = fs::path(CAKE_TESTS_DIR) / "codegen" / "golden";
  bool update = std::getenv("UPDATE_GOLDEN") != nullptr;
  auto compare = [&](const std::string& name, const std::string& text) {
    fs::path golden = dir / name;
    if (update) {
      std::ofstream(golden, std::ios::binary) << text;
      return;
    }
    INFO(golden.string() << " (UPDATE_GOLDEN=1 rewrites it)");
    REQUIRE(fs::exists(golden));
    CHECK(text == read(golden));
  };
  std::set<std::string> names, kernels, bodies;
  for (const LoweredExample& e : all) {
    std::string cuda = std::regex_replace(e.low.cuda, std::regex(kFile), "@CAKE_FILE@");
    size_t end = cuda.find(end_of_prelude);
    REQUIRE(end != std::string::npos);
    std::string prelude = cuda.substr(0, end + end_of_prelude.size());
    std::string body = cuda.substr(end + end_of_prelude.size());
    if (names.insert("prelude.cuh").second) compare("prelude.cuh", prelude);
    else CHECK(prelude == read(dir / "prelude.cuh"));
    if (!kernels.insert(e.kernel).second || !bodies.insert(body).second) continue;
    std::string name = e.kernel + "." + e.target + ".cu";
    names.insert(name);
    compare(name, body);
  }
  // No golden file is left for a kernel that no longer lowers.
  for (const auto& entry : fs::directory_iterator(dir)) {
    INFO(entry.path().string());
    if (update && !names.count(entry.path().filename().string())) fs::remove(entry.path());
    else CHECK(names.count(entry.path().filename().string()) == 1);
  }
}

TEST_CASE("every line of the CUDA is under a #line of the statement it comes from") {
  std::unique_ptr<Analysis> a;
  codegen::Lowered low = lower_example("row_softmax.cake", "row_softmax", "sm_80", a);
  REQUIRE(low.ok());
  std::istringstream in(low.cuda);
  std::string line;
  uint32_t n = 0, mapped = 0;
  bool in_prelude = true;
  while (std::getline(in, line)) {
    uint32_t cake_line = low.cake_line[n++];
    if (line.starts_with("#line ")) {
      CHECK(cake_line == 0);
      in_prelude = false;
      continue;
    }
    if (in_prelude) continue;
    INFO("CUDA line " << n << ": " << line);
    REQUIRE(cake_line > 0);
    ++mapped;
    // The statement's own text is quoted above its code, on its line.
    if (line.find("// load x <-") != std::string::npos) CHECK(cake_line == 29);
    if (line.find("__syncthreads();") != std::string::npos) CHECK((cake_line == 32 || cake_line == 40));
  }
  CHECK(mapped > 50);
}

TEST_CASE("the launch plan reads the verifier's layout and the benches' shapes") {
  std::unique_ptr<Analysis> a;
  codegen::Lowered low = lower_example("row_softmax.cake", "row_softmax", "sm_80", a);
  REQUIRE(low.ok());
  const codegen::LaunchPlan& p = low.plan;
  REQUIRE(p.params.size() == 3);
  CHECK(p.params[0].name == "X");
  CHECK(p.params[0].kind == codegen::LaunchParam::Kind::Tensor);
  CHECK(p.params[2].name == "R");
  CHECK(p.params[2].kind == codegen::LaunchParam::Kind::ShapeSymbol);
  CHECK(p.block == 128);
  CHECK(p.dynamic_smem == 2 * 4 * 16 * 4);  // pmax and psum: f32[4][16] each
  REQUIRE(p.benches.size() == 2);
  CHECK(p.benches[0].grid == std::vector<int64_t>{65536 / 16, 1, 1});
  CHECK(p.benches[1].grid == std::vector<int64_t>{4096 / 16, 1, 1});
}

TEST_CASE("what cannot be lowered yet is refused on its line, and so is a file with errors") {
  std::string text = read(fs::path(CAKE_TESTS_DIR) / "codegen" / "fixtures" / "not_lowered.cake");
  auto a = analyze(text);
  REQUIRE(count(a->diagnostics).errors == 0);
  codegen::Lowered low = codegen::lower(*a, 0, "sm_100a", kFile);
  REQUIRE_FALSE(low.ok());
  // `tcgen05.cp` (in a CTA pair's kernel) is refused on its keyword,
  // naming it, and each refusal is said once.
  std::set<std::string> refused;
  for (const Diagnostic& d : low.diagnostics) {
    INFO(d.message);
    CHECK(d.id == DiagId::NotLowered);
    std::string word = a->text.substr(d.range.begin, d.range.end - d.range.begin);
    if (d.message.find("`" + word + "`") != std::string::npos) refused.insert(word);
  }
  CHECK(refused.count("tcgen05.cp") == 1);
  for (size_t i = 1; i < low.diagnostics.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      CHECK_FALSE((low.diagnostics[i].range == low.diagnostics[j].range &&
                   low.diagnostics[i].message == low.diagnostics[j].message));

  auto broken = analyze(text.substr(0, text.rfind('}')));
  REQUIRE(count(broken->diagnostics).errors > 0);
  codegen::Lowered none = codegen::lower(*broken, 0, "sm_100a", kFile);
  REQUIRE(none.diagnostics.size() == 1);
  CHECK(none.diagnostics[0].message.starts_with("a file with errors cannot be lowered"));
  CHECK(none.cuda.empty());
}

TEST_CASE("an 8-bit or tf32 fragment ldmatrix fills keeps the accumulator layout where it is read other than by an mma") {
  // ldmatrix would leave it in the m16n8k32 (m16n8k8) operand layout, which
  // only mma reads; read by a store too, it is loaded value by value
  // instead (codegen.host_run runs such kernels).
  struct Case {
    const char *target, *dtype, *columns;
  };
  for (Case c : {Case{"sm_89", "f8e4m3", "32"}, Case{"sm_80", "tf32", "8"}}) {
    INFO(c.dtype);
    std::string text = R"(target @T
kernel ldm(X: global @D[16, @C], Y: global @D[16, @C], D: global f32[16, 16]) grid (1) block 32 {
  smem s: @D[16, @C] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc)
  reg a: @D[16, @C] layout(mma_acc)
  reg b: @D[16, @C] layout(mma_acc)
  load b <- X
  cp.async s <- X
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- s
  mma acc = a @ b.T
  store Y <- a
  store D <- acc
}
)";
    for (auto [from, to] : {std::pair{"@T", c.target}, {"@D", c.dtype}, {"@C", c.columns}})
      for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, 2, to);
    auto a = analyze(text);
    REQUIRE(count(a->diagnostics).errors == 0);
    codegen::Lowered low = codegen::lower(*a, 0, c.target, kFile);
    for (const Diagnostic& d : low.diagnostics) INFO(d.message);
    REQUIRE(low.ok());
    std::string kernel = low.cuda.substr(low.cuda.find("extern \"C\""));
    CHECK(kernel.find("CAKE_LDMATRIX_X4(") == std::string::npos);
    // The mma gathers its operand from the accumulator layout.
    CHECK(kernel.find(c.dtype == std::string("tf32") ? "CAKE_TF32_OPERAND(" : "CAKE_F8_OPERAND(") != std::string::npos);
    // Without the store, ldmatrix fills it in operand order.
    std::string only_mma = text;
    only_mma.erase(only_mma.find("  store Y <- a\n"), std::string("  store Y <- a\n").size());
    auto b = analyze(only_mma);
    codegen::Lowered direct = codegen::lower(*b, 0, c.target, kFile);
    REQUIRE(direct.ok());
    CHECK(direct.cuda.substr(direct.cuda.find("extern \"C\"")).find("CAKE_LDMATRIX_X4(") != std::string::npos);
  }
}

TEST_CASE("ldmatrix trans of a fragment whose transpose is not whole tiles is an error on its statement, before lowering") {
  // A [16, 8] tile's transpose is [8, 16]: no mma_acc order to hand it out
  // in. The verifier says so (E0509), so the file is not lowered.
  auto a = analyze(R"(target sm_90
kernel odd_trans(X: global bf16[16, 8], C: global bf16[16, 8]) grid (1) block 32 {
  smem s: bf16[16, 8]
  reg y: bf16[16, 8] layout(mma_acc)
  cp.async s <- X
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix y <- s trans
  stmatrix s <- y trans
}
)");
  std::vector<const Diagnostic*> errors;
  for (const Diagnostic& d : a->diagnostics)
    if (d.severity == Severity::Error) errors.push_back(&d);
  REQUIRE(errors.size() == 2);
  for (const Diagnostic* d : errors) CHECK(d->id == DiagId::RegisterOrder);
  CHECK(a->lines.position(errors[0]->range.begin).line == 8);  // the ldmatrix (0-based)
  CHECK(a->lines.position(errors[1]->range.begin).line == 9);  // the stmatrix
  CHECK_FALSE(codegen::lower(*a, 0, "sm_90", kFile).ok());
}

TEST_CASE("an MN-major shared-memory operand sets the MMA's transpose immediate or bit, and rows wider than a span are refused") {
  auto lowered = [](const std::string& text, const std::string& target) {
    auto a = analyze(text);
    for (const Diagnostic& d : a->diagnostics) INFO(d.message);
    REQUIRE(count(a->diagnostics).errors == 0);
    return codegen::lower(*a, 0, target, kFile);
  };
  // wgmma: A a [K, M] tile used as `.T`, B a [K, N] tile; imm-trans-a and
  // imm-trans-b 1, each k16 step 16 rows of 128 bytes down the tiles.
  codegen::Lowered w = lowered(R"(target sm_90a
kernel mn(X: global bf16[32, 64], C: global f32[64, 64]) grid (1) block 128 {
  smem at: bf16[32, 64] swizzle(128B)
  smem b: bf16[32, 64] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc)
    cp.async at <- X
    cp.async b <- X
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc = at.T @ b
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
}
)", "sm_90a");
  for (const Diagnostic& d : w.diagnostics) INFO(d.message);
  REQUIRE(w.ok());
  CHECK(w.cuda.find("cake_p, 1, 1, 1, 1; }") != std::string::npos);
  CHECK(w.cuda.find("CAKE_WGMMA_M64N64K16_BF16_TA_TB(") != std::string::npos);
  CHECK(w.cuda.find(" + 2048 * cake_k, 1024, 1)") != std::string::npos);
  // tcgen05.mma: B a [K, N] tile; bit 16 of the instruction descriptor
  // (f32 D, bf16 A and B, N = 64, M = 128).
  codegen::Lowered t = lowered(R"(target sm_100a
kernel mn(X: global bf16[128, 32], Y: global bf16[32, 64], C: global f32[128, 64]) grid (1) block 128 {
  smem sA: bf16[128, 32] swizzle(64B)
  smem sB: bf16[32, 64] swizzle(128B)
  tmem acc: f32[128, 64]
  mbarrier done
  reg r: f32[32, 64] layout(tcgen05_acc)
  cp.async sA <- X
  cp.async sB <- Y
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[warp.id * 32 : 32, :]
  tcgen05.wait.ld
  store C[warp.id * 32 : 32, :] <- r
}
)", "sm_100a");
  for (const Diagnostic& d : t.diagnostics) INFO(d.message);
  REQUIRE(t.ok());
  CHECK(t.cuda.find("0x08110490u") != std::string::npos);
  // A [K, N] B whose rows are two spans: refused on the operand.
  auto a = analyze(R"(target sm_90a
kernel wide(X: global bf16[16, 128], C: global f32[64, 128]) grid (1) block 128 {
  smem a: bf16[64, 16] swizzle(32B)
  smem b: bf16[16, 128] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 128] layout(wgmma_acc)
    wgmma.fence
    wgmma acc = a @ b
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
}
)");
  REQUIRE(count(a->diagnostics).errors == 0);
  codegen::Lowered low = codegen::lower(*a, 0, "sm_90a", kFile);
  REQUIRE_FALSE(low.ok());
  REQUIRE(low.diagnostics.size() == 1);
  CHECK(low.diagnostics[0].id == DiagId::NotLowered);
  CHECK(a->text.substr(low.diagnostics[0].range.begin, 1) == "b");
  CHECK(low.diagnostics[0].message.find("MN-major [K, MN]") != std::string::npos);
  // A slice of a buffer's rows (its rows are two spans), a tile from row 4
  // (mid-pattern) and one whose rows are 16 rows apart (a dim fixed
  // between its two): a descriptor names none of them.
  for (const std::string& decl_use : {std::string("bf16[64, 128] swizzle(128B)|b[:, 64 : 64]"),
                                      std::string("bf16[72, 64] swizzle(128B)|b[4 : 64, :]"),
                                      std::string("bf16[64, 16, 64] swizzle(128B)|b[:, 8, :]")}) {
    std::string decl = decl_use.substr(0, decl_use.find('|')), use = decl_use.substr(decl_use.find('|') + 1);
    auto s = analyze("target sm_90a\nkernel sl(C: global f32[64, 64]) grid (1) block 128 {\n  smem a: bf16[64, 64] swizzle(128B)\n"
                     "  smem b: " + decl + "\n  role mma warpgroup(0) {\n    reg acc: f32[64, 64] layout(wgmma_acc)\n"
                     "    wgmma.fence\n    wgmma acc = a @ " + use + ".T\n    wgmma.commit\n    wgmma.wait 0\n    store C <- acc\n  }\n}\n");
    INFO(decl_use);
    REQUIRE(count(s->diagnostics).errors == 0);
    codegen::Lowered sl = codegen::lower(*s, 0, "sm_90a", kFile);
    REQUIRE_FALSE(sl.ok());
    REQUIRE(sl.diagnostics.size() == 1);
    CHECK(s->text.substr(sl.diagnostics[0].range.begin, use.size()) == use);
  }
}

TEST_CASE("neighbouring values move as one access only where the pair is aligned") {
  // An mma_acc tile stored at column `C0` of a row of pitch 64: columns
  // 2t, 2t + 1 of each value pair are one float2 when C0 is even.
  auto lowered = [](const std::string& c0, const std::string& pitch) {
    std::string text = "target sm_80\nkernel pairs(X: global f32[16, " + pitch + "], Y: global f32[16, " + pitch +
                       "]) grid (1) block 32 {\n  reg x: f32[16, 16] layout(mma_acc)\n  load x <- X[:, " + c0 +
                       " : 16]\n  store Y[:, " + c0 + " : 16] <- x\n}\n";
    auto a = analyze(text);
    for (const Diagnostic& d : a->diagnostics) INFO(d.message);
    REQUIRE(count(a->diagnostics).errors == 0);
    codegen::Lowered low = codegen::lower(*a, 0, "sm_80", kFile);
    REQUIRE(low.ok());
    return low.cuda;
  };
  std::string even = lowered("2", "64");
  CHECK(even.find("CAKE_LD_PAIR_F32(&cake_corner[") != std::string::npos);
  CHECK(even.find("CAKE_ST_PAIR_F32(&cake_corner[") != std::string::npos);
  for (const std::string& odd : {lowered("1", "64"), lowered("0", "65")}) {  // an odd start, an odd pitch
    CHECK(odd.find("CAKE_LD_PAIR_F32(&") == std::string::npos);
    CHECK(odd.find("CAKE_ST_PAIR_F32(&") == std::string::npos);
  }
}

TEST_CASE("a per-thread run of 8- or 16-bit values moves in the widest words its alignment allows") {
  // `reg x: T[n]` loaded from and stored to X[start : n] of a 1-D tensor
  // (its base 16-byte aligned): the widest of 16, 8 and 4 bytes that divides
  // both the run and its start's bytes, else a value at a time.
  auto lowered = [](const std::string& dtype, const std::string& n, const std::string& start) {
    std::string text = "target sm_80\nkernel run(X: global " + dtype + "[4096], Y: global " + dtype +
                       "[4096]) grid (1) block 32 {\n  reg x: " + dtype + "[" + n + "]\n  load x <- X[lane * 64 + " +
                       start + " : " + n + "]\n  store Y[lane * 64 + " + start + " : " + n + "] <- x\n}\n";
    auto a = analyze(text);
    for (const Diagnostic& d : a->diagnostics) INFO(d.message);
    REQUIRE(count(a->diagnostics).errors == 0);
    codegen::Lowered low = codegen::lower(*a, 0, "sm_80", kFile);
    for (const Diagnostic& d : low.diagnostics) INFO(d.message);
    REQUIRE(low.ok());
    return low.cuda.substr(low.cuda.find("extern \"C\""));
  };
  auto moves = [](const std::string& cuda, const std::string& width) {
    return cuda.find("CAKE_LD_" + width + "(") != std::string::npos && cuda.find("CAKE_ST_" + width + "(") != std::string::npos;
  };
  CHECK(moves(lowered("i8", "32", "0"), "B128"));
  CHECK(moves(lowered("u8", "24", "8"), "B64"));   // 24 bytes from an 8-byte boundary
  CHECK(moves(lowered("i16", "12", "0"), "B64"));  // 24 bytes
  CHECK(moves(lowered("f16", "8", "0"), "B128"));
  CHECK(moves(lowered("u16", "2", "2"), "B32"));
  for (const std::string& odd : {lowered("i8", "16", "1"), lowered("u8", "6", "0"), lowered("i16", "3", "0")}) {
    CHECK(odd.find("CAKE_LD_B") == std::string::npos);  // an odd start, runs of 6 and 6 bytes
    CHECK(odd.find("CAKE_ST_B") == std::string::npos);
  }
}

TEST_CASE("8-bit floats lower as the bytes TMA copies and wgmma reads, and are decoded element-wise") {
  const char* text = R"(target sm_90a
kernel f8(A: global f8e4m3[64, 64], R: global f8e4m3[64], C: global f32[64, 64]) grid (1) block 128 {
  smem a: f8e4m3[64, 64] swizzle(64B)
  smem r: f8e4m3[64]
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    elect {
      arrive.expect_tx full, bytes(a) + bytes(r)
      tma.load a <- tA[0, 0], full
      bulk.load r <- R, full
    }
    wait full parity(0)
    wgmma.fence
    wgmma acc += a @ a.T
    wgmma.commit
    wgmma.wait 0
    acc = acc * cvt<f32>(r)
    store C <- acc
  }
}
)";
  auto b = analyze(text);
  REQUIRE(count(b->diagnostics).errors == 0);
  codegen::Lowered ok = codegen::lower(*b, 0, "sm_90a", kFile);
  for (const Diagnostic& e : ok.diagnostics) INFO(e.message);
  REQUIRE(ok.ok());
  // The tensor is its bytes, the map an 8-bit one, the wgmma the k32 form
  // with no transpose immediates, and `r`'s bytes are decoded where read.
  CHECK(ok.cuda.find("CAKE_E4M3_F32(") != std::string::npos);
  CHECK(ok.plan.params[0].ctype == "unsigned char* __restrict__");
  const codegen::LaunchParam* map = nullptr;
  for (const codegen::LaunchParam& p : ok.plan.params)
    if (p.kind == codegen::LaunchParam::Kind::TensorMap) map = &p;
  REQUIRE(map);
  CHECK(map->map.dtype == "f8e4m3");
  CHECK(map->map.element_bytes == 1);
  CHECK(ok.cuda.find("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3") != std::string::npos);
  CHECK(ok.cuda.find("cake_p, 1, 1; }") != std::string::npos);
  CHECK(ok.cuda.find("cake_k < 2;") != std::string::npos);  // K = 64: two k32 steps
}

TEST_CASE("6- and 4-bit floats lower as packed tensors TMA unpacks and tcgen05.mma reads; other moves are refused") {
  auto f6f4 = std::find_if(testing::op_kernels().begin(), testing::op_kernels().end(),
                           [](const testing::OpKernel& k) { return k.text.find("op_tcgen05_f6f4") != std::string::npos; });
  REQUIRE(f6f4 != testing::op_kernels().end());
  auto a = analyze("target sm_100a\n" + f6f4->text + "\n");
  REQUIRE(count(a->diagnostics).errors == 0);
  codegen::Lowered ok = codegen::lower(*a, 0, "sm_100a", kFile);
  for (const Diagnostic& e : ok.diagnostics) INFO(e.message);
  REQUIRE(ok.ok());
  // Packed tensors are bytes; shared memory a byte a value (the layout's
  // 16 KB per f4 stage), the maps the packed types', the transaction the
  // packed bytes: 2 x 8 KB of f4, 2 x 6 KB and 12 KB of f6, 8 KB of e4m3.
  CHECK(ok.plan.params[0].ctype == "unsigned char* __restrict__");
  std::map<std::string, const codegen::TensorMapEncoding*> maps;
  for (const codegen::LaunchParam& p : ok.plan.params)
    if (p.kind == codegen::LaunchParam::Kind::TensorMap) maps[p.map.tensor] = &p.map;
  REQUIRE(maps.size() == 4);
  CHECK((maps["A"]->element_bits == 4 && maps["A"]->element_bytes == 1 && maps["A"]->box[0] == 128));
  CHECK((maps["B"]->element_bits == 6 && maps["B"]->element_bytes == 1));
  CHECK((maps["F"]->element_bits == 8 && maps["F"]->element_bytes == 1));
  CHECK(ok.cuda.find("unsigned char* const sA = (unsigned char*)(cake_smem + 0);  // 32768 bytes") != std::string::npos);
  CHECK(ok.cuda.find("CAKE_MBAR_ARRIVE_EXPECT_TX(full, 49152LL)") != std::string::npos);
  // kind::f8f6f4, K = 32 a step (four of 128), the formats e2m1 (5) and
  // e2m3 (3), then e3m2 (4) and e4m3 (0), M = 128, N = 64.
  CHECK(ok.cuda.find("cake_k < 4;") != std::string::npos);
  CHECK(ok.cuda.find("0x08100e90u") != std::string::npos);
  CHECK(ok.cuda.find("0x08100210u") != std::string::npos);

  // Every other way in or out of shared memory is refused on its line.
  auto refused = [](const std::string& body, const std::string& what) {
    auto b = analyze("target sm_100a\nkernel k(A: global f6e2m3[128, 128], C: global f32[128, 128]) grid (1) block 128 {\n" + body + "}\n");
    REQUIRE(count(b->diagnostics).errors == 0);
    codegen::Lowered low = codegen::lower(*b, 0, "sm_100a", kFile);
    REQUIRE(!low.ok());
    bool found = false;
    for (const Diagnostic& d : low.diagnostics) found |= d.id == DiagId::NotLowered && d.message.find(what) != std::string::npos;
    INFO(body);
    CHECK(found);
  };
  refused("  smem s: f6e2m3[128, 128]\n  cp.async s <- A\n  cp.async.commit\n  cp.async.wait 0\n", "a cp.async of 6- or 4-bit floats");
  refused("  smem s: f6e2m3[128, 128]\n  mbarrier b\n  elect {\n    arrive.expect_tx b, bytes(s)\n    bulk.load s <- A[0 : 128, :], b\n  }\n  wait b parity(0)\n",
          "a bulk copy of 6- or 4-bit floats");
  refused("  smem s: f6e2m3[128, 128] swizzle(128B)\n  tmem t: f6e2m3[128, 128]\n  mbarrier d\n  elect {\n    tcgen05.cp t <- s\n    tcgen05.commit d\n  }\n  wait d parity(0)\n",
          "a tcgen05.cp of 6- or 4-bit floats");
  refused("  smem s: f6e2m3[128, 128] swizzle(128B)\n  tensormap tA = A box [128, 128] swizzle(128B)\n  elect {\n    tma.store tA[0, 0] <- s\n    tma.store.commit\n    tma.store.wait 0\n  }\n",
          "a tma.store of 6- or 4-bit floats");
  // Per thread they load from a tensor (op_subbyte_load) and store runs of
  // whole bytes (op_subbyte_store); a run from element 2 of 6-bit values
  // starts inside a byte another thread's values may share, and shared
  // memory holds them in chunks.
  refused("  reg v: f6e2m3[4]\n  load v <- A[warp.id * 32 + lane, 0 : 4]\n  store A[warp.id * 32 + lane, 2 : 4] <- v\n",
          "a store of 6- or 4-bit floats other than a run of whole bytes");
  refused("  smem s: f6e2m3[128, 128]\n  reg v: f6e2m3[4]\n  reg f: f32[4]\n  load v <- s[warp.id * 32 + lane, 0 : 4]\n  f = cvt<f32>(v)\n  store C[warp.id * 32 + lane, 0 : 4] <- f\n",
          "a load of 6- or 4-bit floats other than with a tensor");
}

TEST_CASE("a part read at another place of an accumulator is fetched by shuffles every lane runs in its warp") {
  auto lowered = [](const std::string& body) {
    auto a = analyze("target sm_90a\nkernel k(X: global f32[64, 32], Y: global f32[64, 32]) grid (1) block 128 {\n"
                     "  role wg warpgroup(0) {\n    reg x: f32[64, 32] layout(wgmma_acc)\n    load x <- X\n" + body +
                     "    store Y <- x\n  }\n}\n");
    REQUIRE(count(a->diagnostics).errors == 0);
    return codegen::lower(*a, 0, "sm_90a", kFile);
  };
  // Rows 16 .. 31 from rows 18 .., columns one to the right: another lane,
  // four candidate blocks; the shuffles before the part's guard, the
  // values from a copy of x.
  codegen::Lowered low = lowered("    x[16 : 14, 1 : 31] = x[18 : 14, 0 : 31] * 2.0\n");
  REQUIRE(low.ok());
  size_t copy = low.cuda.find("float x_was[16];"), shuffle = low.cuda.find("__shfl_sync(0xffffffffu, x_was[");
  size_t guard = low.cuda.find("if (", shuffle);
  REQUIRE(copy != std::string::npos);
  REQUIRE(shuffle != std::string::npos);
  CHECK(copy < shuffle);
  CHECK(low.cuda.find("x[cake_i] = (((float)(cake_rc0 ? (cake_cc0 ? cake_f3_0 : cake_f2_0) : (cake_cc0 ? cake_f1_0 : cake_f0_0))) * 2.0f); }", guard) !=
        std::string::npos);
  // Columns 8 over and rows 8 down stay in the lane: no shuffle.
  low = lowered("    x[0 : 8, 0 : 8] = x[8 : 8, 8 : 8]\n");
  REQUIRE(low.ok());
  CHECK(low.cuda.find("__shfl_sync(0xffffffffu, x") == std::string::npos);
  // Rows 16 .. 19 from rows 12 ..: warp 0 holds those, warp 1 these.
  low = lowered("    x[16 : 4, :] = x[12 : 4, :]\n");
  REQUIRE(!low.ok());
  bool found = false;
  for (const Diagnostic& d : low.diagnostics)
    found |= d.id == DiagId::NotLowered && d.message.find("`x[12 : 4, :]` across warps (its row 12 into row 16, which another warp holds)") != std::string::npos;
  CHECK(found);
}

TEST_CASE("lowered kernels compile without spills and map every PTX line to the .cake file") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  std::vector<std::unique_ptr<Analysis>> keep;
  int hot = 0;
  for (const LoweredExample& e : lowered_examples(keep)) {
    codegen::CompileRequest r;
    r.source = e.low.cuda;
    r.name = e.kernel + ".cu";
    r.arch = e.target;
    codegen::CompileResult c = codegen::compile(r);
    INFO(e.file << " " << e.kernel << " " << e.target << "\n" << c.log << c.error);
    REQUIRE(c.ok);
    REQUIRE(c.resources.size() == 1);
    CHECK(c.resources[0].spill_stores == 0);
    CHECK(c.resources[0].spill_loads == 0);
    CHECK(c.resources[0].local == 0);
    LocLines locs = loc_lines(c.ptx);
    CHECK(locs.files == std::set<std::string>{kFile});
    // The hot loops hold exactly the barriers, waits and fences their IR names.
    const Module& m = e.analysis->module;
    Evaluator eval(m);
    std::vector<StmtId> loops;
    hot_loops(m, eval, m.kernels[e.index].body, loops);
    for (StmtId id : loops) {
      const Stmt& s = m.stmts[id];
      uint32_t first = e.analysis->lines.position(s.range.begin).line + 1;
      uint32_t last = e.analysis->lines.position(s.range.end - 1).line + 1;
      SyncCounts want;
      const auto* f = std::get_if<ForStmt>(&s.node);
      count_ir(m, f ? f->body : std::get<PipelineStmt>(s.node).body, want);
      SyncCounts got = count_ptx(c.ptx, first, last);
      INFO("hot loop at lines " << first << " .. " << last);
      CHECK(got.barriers == want.barriers);
      CHECK(got.waits == want.waits);
      CHECK(got.fences == want.fences);
      CHECK(got.mbarrier_waits == want.mbarrier_waits);
      CHECK(got.arrives == want.arrives);
      // No warp meet (`bar.warp.sync`) either: the IR names none, and no
      // example's hot loop has lanes exchange data through memory with no
      // barrier between (ampere_gemm's held six a trip before the meets
      // were planned: docs/lowering.md).
      CHECK(got.warp_meets == want.warp_meets);
      if (e.kernel == "ampere_gemm") CHECK(want == SyncCounts{2, 1, 0, 0, 0});
      // The producer's loop: wait empty, arrive.expect_tx; the consumers':
      // wait full, wgmma.wait, arrive empty.
      if (e.kernel == "hopper_gemm") CHECK((want == SyncCounts{0, 0, 0, 1, 1} || want == SyncCounts{0, 1, 0, 1, 1}));
      ++hot;
    }
    if (e.kernel != "row_softmax" && e.kernel != "row_softmax_ref") continue;
    // Every statement that does work has instructions on its line.
    std::set<uint32_t> expected = e.kernel == "row_softmax"
                                      ? std::set<uint32_t>{29, 30, 31, 32, 34, 35, 37, 38, 39, 40, 42, 43, 45, 46, 47}
                                      : std::set<uint32_t>{61, 66, 68, 69, 72, 73, 75, 77, 78, 79};
    for (uint32_t l : expected) {
      INFO("line " << l);
      CHECK(locs.lines.count(l) == 1);
    }
  }
  // ampere_gemm's k-loop on three targets, and the reference kernels' loops.
  CHECK(hot >= 10);
}

TEST_CASE("a front-end error inside a statement names its .cake line") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  std::unique_ptr<Analysis> a;
  codegen::Lowered low = lower_example("row_softmax.cake", "row_softmax", "sm_80", a);
  REQUIRE(low.ok());
  // Break the code of line 35 (`m = max(m, t)`) the way a wrong lowering would.
  std::string marker = "#line 35 \"" + kFile + "\"\n";
  size_t at = low.cuda.find(marker);
  REQUIRE(at != std::string::npos);
  size_t next = low.cuda.find('\n', at + marker.size());
  std::string cuda = low.cuda.substr(0, next + 1) + marker + "  cake_not_declared = 1;\n" + low.cuda.substr(next + 1);
  codegen::CompileRequest r;
  r.source = cuda;
  r.arch = "sm_80";
  codegen::CompileResult c = codegen::compile(r);
  CHECK_FALSE(c.ok);
  INFO(c.log);
  CHECK(c.log.find(kFile + "(35): error") != std::string::npos);
}
