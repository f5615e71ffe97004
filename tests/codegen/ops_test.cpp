// One minimal kernel per op of ops.def, checked on every target: where the
// target has every op of the kernel, the verifier accepts it and, if its
// ops lower, NVRTC compiles it without spills; where it lacks one, the
// verifier refuses each statement of such an op on its line (CAKE-E02xx)
// and lower() refuses the file before any compile. Ops that do not lower
// yet (docs/lowering.md) are listed here and must be refused with E0801
// naming one of them. A new op in ops.def fails the test until it has a
// kernel here.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/arch.h"
#include "cake/codegen/lower.h"
#include "cake/codegen/nvrtc.h"
#include "cake/ops.h"
#include "cake/registry.h"
#include "op_kernels.h"

#include <cstdlib>
#include <set>
#include <sstream>
#include <string_view>

namespace {

using namespace cake;
using cake::testing::OpKernel;
using cake::testing::op_kernels;

/// Ops whose lowering is still to come (docs/lowering.md, "Not yet").
const std::set<std::string>& not_lowered_yet() {
  static const std::set<std::string> ops = {};
  return ops;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

const OpInfo* find_op(std::string_view spelling) {
  for (const OpInfo& o : all_ops())
    if (o.spelling == spelling) return &o;
  return nullptr;
}

void statements_of(const Module& m, const std::vector<StmtId>& body, std::vector<StmtId>& out) {
  for (StmtId id : body) {
    out.push_back(id);
    std::visit(
        [&](const auto& n) {
          if constexpr (requires { n.body; }) statements_of(m, n.body, out);
          if constexpr (requires { n.then_body; }) {
            statements_of(m, n.then_body, out);
            statements_of(m, n.else_body, out);
          }
        },
        m.stmts[id].node);
  }
}

/// Lowered code compiled for `target` with NVRTC.
codegen::CompileResult compile_for(const codegen::Lowered& low, std::string_view target) {
  codegen::CompileRequest r;
  r.source = low.cuda;
  r.arch = std::string(target);
  return codegen::compile(r);
}

/// Whether each kernel compiles on every target that lowers it, or with
/// CAKE_OPS_COMPILE=first (the sanitizer pass: an NVRTC compile takes half
/// as long again there and runs none of cake's code) on the first only; it
/// still lowers on every target.
bool compile_on_every_target() {
  const char* v = std::getenv("CAKE_OPS_COMPILE");
  return !(v && std::string_view(v) == "first");
}

/// `low` compiles for `target` with NVRTC into one kernel that spills nothing.
void compiles_without_spills(const codegen::Lowered& low, std::string_view target) {
  codegen::CompileResult c = compile_for(low, target);
  INFO(c.log << c.error);
  REQUIRE(c.ok);
  REQUIRE(c.resources.size() == 1);
  CHECK(c.resources[0].spill_stores == 0);
  CHECK(c.resources[0].spill_loads == 0);
}

std::string messages(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("every op has a minimal kernel") {
  std::set<std::string> covered;
  for (const OpKernel& k : op_kernels())
    for (const std::string& w : words(k.ops)) {
      INFO(w);
      CHECK(find_op(w) != nullptr);
      covered.insert(w);
    }
  for (const OpInfo& o : all_ops()) {
#ifdef CAKE_EXTRA_TEST_OP
    if (o.op == Op::ExtraTestOp) continue;
#endif
    INFO("op " << o.spelling);
    CHECK(covered.count(std::string(o.spelling)) == 1);
  }
}

TEST_CASE("each op's kernel compiles where its target has the op and is refused where it does not") {
  int compiled = 0, refused_by_verifier = 0, not_lowered = 0;
  for (const OpKernel& k : op_kernels()) {
    std::vector<std::string> ops = words(k.ops);
    bool lowers = true, compiled_kernel = false;
    for (const std::string& w : ops) lowers = lowers && !not_lowered_yet().count(w);
    for (const TargetInfo& t : all_targets()) {
      std::string text = "target " + std::string(t.name) + "\n" + k.text + "\n";
      INFO("ops " << k.ops << " on " << t.name << "\n" << text);
      auto a = analyze(text);
      const Module& m = a->module;
      REQUIRE(m.kernels.size() == 1);
      // The statements of an op the target lacks.
      std::vector<StmtId> all, missing;
      statements_of(m, m.kernels[0].body, all);
      for (StmtId id : all) {
        auto op = op_of(m.stmts[id]);
        if (!op) continue;
        auto f = op_feature(*op);
        if (f && !t.has(*f)) missing.push_back(id);
      }
      if (!missing.empty()) {
        // Refused by the verifier, on each such statement's line.
        for (StmtId id : missing) {
          uint32_t line = a->lines.position(m.stmts[id].range.begin).line;
          bool found = false;
          for (const Diagnostic& d : a->diagnostics)
            found = found || (d.severity == Severity::Error && rule_info(d.id).code.starts_with("CAKE-E02") &&
                              a->lines.position(d.range.begin).line == line);
          INFO("line " << line + 1);
          CHECK(found);
        }
        codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/ops/op.cake");
        CHECK_FALSE(low.ok());
        REQUIRE(!low.diagnostics.empty());
        CHECK(low.diagnostics[0].message.starts_with("a file with errors cannot be lowered"));
        ++refused_by_verifier;
        continue;
      }
      for (const Diagnostic& d : a->diagnostics) {
        INFO(rule_info(d.id).code << " " << d.message);
        CHECK(d.severity != Severity::Error);
      }
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/ops/op.cake");
      if (!lowers) {
        // Refused with E0801, naming an op that is not lowered yet.
        REQUIRE_FALSE(low.ok());
        bool named = false;
        for (const Diagnostic& d : low.diagnostics) {
          CHECK(d.id == DiagId::NotLowered);
          for (const std::string& w : ops)
            named = named || (not_lowered_yet().count(w) && d.message.find("`" + w + "`") != std::string::npos);
        }
        CHECK(named);
        ++not_lowered;
        continue;
      }
      INFO(messages(low.diagnostics));
      REQUIRE(low.ok());
      if (!codegen::available() || (compiled_kernel && !compile_on_every_target())) continue;
      compiles_without_spills(low, t.name);
      ++compiled;
      compiled_kernel = true;
    }
  }
  if (!codegen::available()) WARN("compiles skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
  else CHECK(compiled >= 20);
  CHECK(refused_by_verifier >= 20);
  CHECK(not_lowered >= int(not_lowered_yet().size()));  // each on at least one target
}

TEST_CASE("each form kernel compiles without spills on every target that lowers it") {
  // tests/codegen/op_kernels.h's form kernels (8- and 16-bit integers and
  // 8-bit floats in registers, as MMA operands, by ldmatrix; ldmatrix and
  // stmatrix .x2): codegen.host_run checks what they compute, this that
  // NVRTC and ptxas take them.
  if (!codegen::available()) {
    WARN("compiles skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  int compiled = 0, forms = 0;
  for (const testing::FormKernel& form : testing::form_kernels()) {
    bool compiled_form = false;
    for (const TargetInfo& t : all_targets()) {
      auto a = analyze("target " + std::string(t.name) + "\n" + form.text + "\n");
      if (count(a->diagnostics).errors > 0) continue;
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/forms/form.cake");
      if (!low.ok()) continue;  // before its first target (codegen.host_run checks the refusal)
      if (compiled_form && !compile_on_every_target()) continue;
      INFO(form.what << " on " << t.name);
      compiles_without_spills(low, t.name);
      ++compiled;
      forms += !compiled_form;
      compiled_form = true;
    }
  }
  CHECK(forms == int(testing::form_kernels().size()));
  if (compile_on_every_target())
    CHECK(compiled >= 4 * 3);  // the four 8-bit float forms alone (from sm_89: sm_89, sm_90, sm_90a, sm_100a where they analyze)
}

TEST_CASE("with tensor memory, every thread synchronisation sits between tcgen05 fences") {
  // tcgen05.fence::before_thread_sync before each arrive, sync, syncthreads
  // and cluster.sync of the kernel's statements; ::after_thread_sync after
  // each that waits (and after each mbarrier wait). Without tensor memory,
  // no fence at all. The lines compared are the CUDA's code lines.
  auto code_lines = [](const std::string& cuda) {
    std::vector<std::string> out;
    std::istringstream in(cuda);
    for (std::string line; std::getline(in, line);) {
      size_t b = line.find_first_not_of(' ');
      if (b == std::string::npos || line.compare(b, 5, "#line") == 0 || line.compare(b, 2, "//") == 0) continue;
      out.push_back(line.substr(b));
    }
    return out;
  };
  auto is = [](const std::string& line, std::string_view macro) { return line.starts_with(macro); };
  int checked_tmem = 0, checked_plain = 0;
  for (const OpKernel& k : op_kernels()) {
    for (std::string_view target : {"sm_100a", "sm_90a"}) {
      auto a = analyze("target " + std::string(target) + "\n" + k.text + "\n");
      if (count(a->diagnostics).errors > 0) continue;
      codegen::Lowered low = codegen::lower(*a, 0, std::string(target), "/ops/op.cake");
      if (!low.ok()) continue;
      INFO(k.ops << " on " << target << "\n" << low.cuda);
      std::vector<std::string> lines = code_lines(low.cuda);
      bool tmem = low.cuda.find("CAKE_TMEM_ALLOC(cake_tmem_slot") != std::string::npos ||
                  low.cuda.find("CAKE_TMEM_ALLOC_PAIR(cake_tmem_slot") != std::string::npos;
      int syncs = 0;
      // The mbarrier prologue's barrier comes before the allocation, the
      // cluster's last barrier after the free: no tcgen05 op to order.
      bool prologue = true, freed = false;
      for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        bool before = is(l, "CAKE_MBAR_ARRIVE") || is(l, "CAKE_NAMED_ARRIVE(") || is(l, "CAKE_NAMED_SYNC(") ||
                      is(l, "CAKE_CLUSTER_SYNC(") || is(l, "__syncthreads();");
        bool after = is(l, "CAKE_MBAR_WAIT(") || is(l, "CAKE_MBAR_TEST_WAIT(") || is(l, "CAKE_NAMED_SYNC(") ||
                     is(l, "CAKE_CLUSTER_SYNC(") || is(l, "__syncthreads();");
        if (is(l, "CAKE_TMEM_ALLOC")) prologue = false;
        if (is(l, "CAKE_TMEM_DEALLOC")) freed = true;
        if (!before && !after) continue;
        if ((prologue || freed) && (is(l, "__syncthreads();") || is(l, "CAKE_CLUSTER_SYNC("))) continue;
        if (!tmem) {
          CHECK_FALSE((i > 0 && is(lines[i - 1], "CAKE_TCGEN05_FENCE")));
          continue;
        }
        INFO("line " << i << ": " << l);
        ++syncs;
        if (before) CHECK((i > 0 && is(lines[i - 1], "CAKE_TCGEN05_FENCE_BEFORE();")));
        // The kernel's end: the dealloc warp fences after its test.
        bool end = i + 2 < lines.size() && is(lines[i + 1], "if (cake_warp == 0) {");
        if (after && !end) CHECK((i + 1 < lines.size() && is(lines[i + 1], "CAKE_TCGEN05_FENCE_AFTER();")));
        if (after && end) CHECK(is(lines[i + 2], "CAKE_TCGEN05_FENCE_AFTER();"));
      }
      if (tmem) {
        ++checked_tmem;
        CHECK(syncs >= 2);
      } else {
        ++checked_plain;
        CHECK(low.cuda.find("CAKE_TCGEN05_FENCE_BEFORE();\n") == std::string::npos);
      }
    }
  }
  CHECK(checked_tmem >= 3);
  CHECK(checked_plain >= 10);
}

TEST_CASE("a role's maxnreg becomes setmaxnreg from the launch's registers, where the target has it") {
  // hopper_gemm's budgets without its TMA and wgmma: 384 threads launch
  // with 168 registers each; the producer gives 128 back, the consumers
  // take them.
  const std::string kernel = R"(
kernel roles(X: global f32[N]) where N % 384 == 0 grid (N / 384) block 384 {
  mbarrier ready count(256)
  role producer warpgroup(0) maxnreg(40) {
    wait ready parity(0)
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    reg x: f32
    load x <- X[block.x * 384 + warp.id * 32 + lane]
    arrive ready
    store X[block.x * 384 + warp.id * 32 + lane] <- x
  }
}
)";
  int compiled = 0;
  for (const TargetInfo& t : all_targets()) {
    INFO(t.name);
    auto a = analyze("target " + std::string(t.name) + "\n" + kernel);
    bool has = t.has(Feature::Setmaxnreg);
    bool refused = false;
    for (const Diagnostic& d : a->diagnostics)
      refused = refused || (d.severity == Severity::Error && rule_info(d.id).code == "CAKE-E0203");
    CHECK(refused == !has);
    if (!has) continue;
    codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/ops/roles.cake");
    INFO(messages(low.diagnostics));
    REQUIRE(low.ok());
    CHECK(low.cuda.find("CAKE_SETMAXNREG_DEC(40);  // from the launch's 168 registers per thread") != std::string::npos);
    CHECK(low.cuda.find("CAKE_SETMAXNREG_INC(232);") != std::string::npos);
    if (!codegen::available()) continue;
    codegen::CompileResult c = compile_for(low, t.name);
    INFO(c.log << c.error);
    REQUIRE(c.ok);
    CHECK(c.ptx.find("setmaxnreg.dec.sync.aligned.u32 40;") != std::string::npos);
    CHECK(c.ptx.find("setmaxnreg.inc.sync.aligned.u32 232;") != std::string::npos);
    // ptxas reports the launch allocation: the pool's share.
    REQUIRE(c.resources.size() == 1);
    CHECK(c.resources[0].registers == 168);
    ++compiled;
  }
  if (codegen::available()) CHECK(compiled == 2);
}
