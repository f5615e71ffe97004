// The CPU executor against direct computations: the GEMM examples against a
// double-precision product of the same inputs, k-means against a direct
// argmin, row softmax against a direct softmax, each at the smallest legal
// shape and at a shape of several CTAs and k-steps; every schedule gives the
// same output; and the mutations the executor must catch (a wrong slice
// offset, a missing stage wait, an off-by-one parity) are caught on the right
// line.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/exec/numeric.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"
#include "cake/registry.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace cake;
using namespace cake::exec;

std::string example(const std::string& name) {
  std::ifstream in(std::string(CAKE_EXAMPLES_DIR) + "/" + name + ".cake");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint32_t kernel_of(const Module& m, std::string_view name) {
  for (uint32_t k = 0; k < m.kernels.size(); ++k)
    if (m.symbols[m.kernels[k].symbol].name == name) return k;
  FAIL("no kernel " << name);
  return 0;
}

struct Ran {
  std::unique_ptr<Analysis> analysis;
  std::vector<TensorData> inputs;
  RunResult result;
};

/// Runs `kernel` of `text` at `shape`; the verifier must accept the text
/// unless `verified` is false (a kernel whose race both report).
Ran run(std::string text, std::string_view kernel, std::vector<std::pair<std::string, int64_t>> shape,
        uint64_t schedule = 0, bool verified = true) {
  Ran r;
  r.analysis = analyze(std::move(text));
  const Module& m = r.analysis->module;
  if (verified) REQUIRE(count(r.analysis->diagnostics).errors == 0);
  uint32_t k = kernel_of(m, kernel);
  ShapeChoice s = choose_shape(m, k, -1, shape);
  REQUIRE(s.error == "");
  std::string error;
  REQUIRE(make_inputs(m, k, s.values, 7, r.inputs, error));
  RunOptions o;
  o.schedule = schedule;
  r.result = run_kernel(m, k, s.values, r.inputs, o);
  return r;
}

TEST_CASE("a col_major tensor is held in column-major order, first dim contiguous") {
  // B (row-major) gets A's values: B's memory is A's transposed.
  auto a = analyze(R"(target sm_80
kernel cm(A: global f32[16, 8] col_major, B: global f32[16, 8], C: global f32[16, 8] col_major) grid (1) block 32 {
  reg x: f32[8]
  load x <- A[lane % 16, :]
  store B[lane % 16, :] <- x
  store C[lane % 16, :] <- x
}
)");
  const Module& m = a->module;
  REQUIRE(count(a->diagnostics).errors == 0);
  uint32_t k = kernel_of(m, "cm");
  ShapeChoice s = choose_shape(m, k, -1, {});
  std::vector<TensorData> inputs;
  std::string error;
  REQUIRE(make_inputs(m, k, s.values, 7, inputs, error));
  CHECK(inputs[0].order == Order::ColMajor);
  std::vector<double> in = inputs[0].values;
  RunResult r = run_kernel(m, k, s.values, inputs, RunOptions{});
  CHECK(r.problems.empty());
  const TensorData& B = r.tensors[1];
  const TensorData& C = r.tensors[2];
  for (int64_t i = 0; i < 16; ++i)
    for (int64_t j = 0; j < 8; ++j) {
      INFO("(" << i << ", " << j << ")");
      CHECK(B.values[static_cast<size_t>(i * 8 + j)] == in[static_cast<size_t>(i + 16 * j)]);
      CHECK(C.values[static_cast<size_t>(i + 16 * j)] == in[static_cast<size_t>(i + 16 * j)]);
    }
}

const TensorData& tensor(const Ran& r, std::string_view name) {
  for (const TensorData& t : r.result.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return r.result.tensors.front();
}

/// C = A B^T in double, rounded into C's dtype, compared with the run's C.
Comparison compare_gemm(const Ran& r) {
  const TensorData& A = tensor(r, "A");
  const TensorData& B = tensor(r, "B");
  const TensorData& C = tensor(r, "C");
  int64_t M = A.dims[0], K = A.dims[1], N = B.dims[0];
  std::vector<double> want(static_cast<size_t>(M * N));
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double s = 0;
      for (int64_t k = 0; k < K; ++k) s += A.values[i * K + k] * B.values[j * K + k];
      want[i * N + j] = round_to(C.dtype, s);
    }
  return compare(C.dtype, C.values, want);
}

void check_gemm(const Ran& r) {
  Comparison c = compare_gemm(r);
  INFO("max abs " << c.max_abs << ", max rel " << c.max_rel);
  CHECK(c.mismatches == 0);
}

std::string problems(const RunResult& r) {
  std::string s;
  for (const RunProblem& p : r.problems) s += std::string(problem_kind_name(p.kind)) + ": " + p.message + "\n";
  return s;
}

void check_clean(const Ran& r) {
  INFO(problems(r.result));
  CHECK(r.result.problems.empty());
  CHECK(r.result.completed());
}

}  // namespace

TEST_CASE("the GEMM examples compute A B^T", "[exec]") {
  struct Case {
    const char* file;
    std::vector<std::pair<std::string, int64_t>> big;
  };
  for (const Case& c : {Case{"ampere_gemm", {{"M", 256}, {"N", 256}, {"K", 160}}},
                        Case{"hopper_gemm", {{"M", 256}, {"N", 512}, {"K", 320}}},
                        Case{"blackwell_gemm", {{"M", 256}, {"N", 512}, {"K", 320}}}}) {
    SECTION(c.file) {
      Ran small = run(example(c.file), c.file, {});
      check_clean(small);
      check_gemm(small);
      Ran big = run(example(c.file), c.file, c.big);
      check_clean(big);
      check_gemm(big);
      CHECK(big.result.ctas == 4);
      for (uint64_t s = 1; s <= 3; ++s) {
        Ran other = run(example(c.file), c.file, c.big, s);
        check_clean(other);
        CHECK(tensor(other, "C").values == tensor(big, "C").values);
      }
    }
  }
}

TEST_CASE("kmeans_assign is the argmin of ||c||^2 - 2 x.c", "[exec]") {
  Ran r = run(example("kmeans_assign"), "kmeans_assign", {{"N", 256}, {"K", 384}});
  check_clean(r);
  const TensorData& X = tensor(r, "X");
  const TensorData& C = tensor(r, "C");
  const TensorData& Cn = tensor(r, "Cnorm");
  const TensorData& out = tensor(r, "out");
  int64_t N = X.dims[0], K = C.dims[0], D = X.dims[1];
  int64_t wrong = 0;
  for (int64_t i = 0; i < N; ++i) {
    // The kernel's f32 values: the wgmma product rounded to f32, then
    // cn - 2 acc in f32; ties go to the smaller index.
    double best = INFINITY;
    int64_t arg = 0;
    for (int64_t k = 0; k < K; ++k) {
      double dot = 0;
      for (int64_t d = 0; d < D; ++d) dot += X.values[i * D + d] * C.values[k * D + d];
      double v = round_to(DType::F32, Cn.values[k] - round_to(DType::F32, 2.0 * round_to(DType::F32, dot)));
      if (v < best) best = v, arg = k;
    }
    wrong += out.values[i] != static_cast<double>(arg);
  }
  CHECK(wrong == 0);
}

TEST_CASE("row_softmax is a softmax of each row", "[exec]") {
  Ran r = run(example("row_softmax"), "row_softmax", {{"R", 32}});
  check_clean(r);
  const TensorData& X = tensor(r, "X");
  const TensorData& Y = tensor(r, "Y");
  int64_t R = X.dims[0], C = X.dims[1];
  std::vector<double> want(X.values.size());
  for (int64_t i = 0; i < R; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < C; ++j) mx = std::max(mx, X.values[i * C + j]);
    for (int64_t j = 0; j < C; ++j) sum += std::exp(X.values[i * C + j] - mx);
    for (int64_t j = 0; j < C; ++j) want[i * C + j] = round_to(Y.dtype, std::exp(X.values[i * C + j] - mx) / sum);
  }
  Comparison c = compare(Y.dtype, Y.values, want);
  INFO("max abs " << c.max_abs << ", max rel " << c.max_rel);
  CHECK(c.mismatches == 0);
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The cases of tests/diagnostics/FILE.cake, split at its `// -----`
/// lines, each analysed alone as cake-verify-diagnostics does (the whole
/// file as one text takes its first `target` line for every kernel).
std::vector<std::string> diagnostic_cases(const char* file) {
  std::string text = read_text(std::string(CAKE_TESTS_DIR) + "/diagnostics/" + file + ".cake");
  std::vector<std::string> cases;
  const std::string cut = "\n// -----\n";
  size_t from = 0;
  for (size_t at = text.find(cut); at != std::string::npos; at = text.find(cut, from)) {
    cases.push_back(text.substr(from, at + 1 - from));
    from = at + cut.size();
  }
  cases.push_back(text.substr(from));
  return cases;
}

bool inside(ByteRange outer, ByteRange inner) { return inner.begin >= outer.begin && inner.end <= outer.end; }

}  // namespace

// The differential test: every kernel of tests/diagnostics that the verifier
// accepts (no error inside it) runs under 8 schedules with no race and no
// deadlock; every kernel the verifier reports a deadlock in (E0403) also
// deadlocks in the executor. A difference is a bug in one of the two.
namespace {

/// Whether a run of kernel `k` reports a problem of `kind` at its smallest
/// shape scaled by 1, 2, 4, ... `max_factor` (a ring must turn for some),
/// under the first `schedules` seeded schedules; `seen` collects what the
/// runs reported instead.
bool shows_at_scaled_shapes(const Module& m, uint32_t k, RunProblem::Kind kind, int64_t max_factor, uint64_t schedules,
                            std::string& seen) {
  ShapeChoice smallest = choose_shape(m, k, -1, {});
  for (int64_t f = 1; f <= max_factor && smallest.error.empty(); f *= 2) {
    std::vector<std::pair<std::string, int64_t>> scaled;
    for (const auto& [sym, v] : smallest.values) scaled.push_back({std::string(m.symbols[sym].name), v * f});
    ShapeChoice s = choose_shape(m, k, -1, scaled);
    std::vector<TensorData> inputs;
    std::string error;
    if (!s.error.empty() || !make_inputs(m, k, s.values, 3, inputs, error)) continue;
    for (uint64_t schedule = 0; schedule < schedules; ++schedule) {
      RunOptions o;
      o.schedule = schedule;
      o.max_steps = 2000000;
      RunResult r = run_kernel(m, k, s.values, inputs, o);
      if (std::any_of(r.problems.begin(), r.problems.end(), [&](const RunProblem& p) { return p.kind == kind; }))
        return true;
      seen += problems(r);
    }
  }
  return false;
}

}  // namespace

TEST_CASE("the executor agrees with the verifier on tests/diagnostics", "[exec]") {
  int accepted = 0, deadlocks = 0;
  std::vector<std::string> skipped;
  for (const char* file : {"protocol", "resources", "movement", "names_types", "performance", "targets", "dispatch",
                           "suppression"})
    for (const std::string& text : diagnostic_cases(file)) {
      auto a = analyze(text);
      const Module& m = a->module;
      for (uint32_t k = 0; k < m.kernels.size(); ++k) {
        bool errors = false, e0403 = false;
        for (const Diagnostic& d : a->diagnostics) {
          if (d.severity != Severity::Error || !inside(m.kernels[k].range, d.range)) continue;
          errors = true;
          e0403 = e0403 || d.id == DiagId::Deadlock;
        }
        if (errors && !e0403) continue;
        std::string name(m.symbols[m.kernels[k].symbol].name);
        if (e0403) {
          // The verifier's deadlock shows once the rings turn often enough:
          // try the smallest shape scaled by 1, 2, 4 and 8.
          std::string seen;
          bool deadlock = shows_at_scaled_shapes(m, k, RunProblem::Kind::Deadlock, 8, 1, seen);
          INFO(file << ": kernel " << name << " has E0403");
          CHECK(deadlock);
          deadlocks += deadlock;
          continue;
        }
        ShapeChoice s = choose_shape(m, k, -1, {});
        if (!s.error.empty()) continue;
        std::vector<TensorData> inputs;
        std::string error;
        if (!make_inputs(m, k, s.values, 3, inputs, error)) continue;
        for (uint64_t schedule = 0; schedule <= 8; ++schedule) {
          RunOptions o;
          o.schedule = schedule;
          o.max_steps = 2000000;
          RunResult r = run_kernel(m, k, s.values, inputs, o);
          bool unsupported = std::any_of(r.problems.begin(), r.problems.end(), [](const RunProblem& p) {
            return p.kind == RunProblem::Kind::Unsupported;
          });
          if (unsupported) {  // not something the executor runs (said in its message)
            skipped.push_back(name + ": " + problems(r));
            break;
          }
          INFO(file << ": kernel " << name << ", schedule " << schedule << "\n" << problems(r));
          CHECK(r.problems.empty());
          accepted += schedule == 0;
        }
      }
    }
  std::string why;
  for (const std::string& s : skipped) why += "  " + s;
  WARN("kernels run clean under 9 schedules: " << accepted << ", deadlocks agreed: " << deadlocks
                                               << ", not run: " << skipped.size() << "\n" << why);
  CHECK(accepted >= 120);
}

namespace {

/// `text` with the first `from` replaced by `to` (which must be there).
std::string mutate(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

uint32_t line_of(const Analysis& a, ByteRange r) { return a.lines.position(r.begin).line + 1; }

uint32_t line_containing(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n') + 1);
}

RunResult run_unchecked(const Analysis& a, std::string_view kernel, std::vector<std::pair<std::string, int64_t>> shape,
                        std::vector<TensorData>& inputs) {
  const Module& m = a.module;
  uint32_t k = kernel_of(m, kernel);
  ShapeChoice s = choose_shape(m, k, -1, shape);
  REQUIRE(s.error == "");
  std::string error;
  REQUIRE(make_inputs(m, k, s.values, 7, inputs, error));
  return run_kernel(m, k, s.values, inputs, {});
}

}  // namespace

TEST_CASE("mutations are caught on the line that causes them", "[exec]") {
  SECTION("a wrong slice offset: wrong values, mapped to the store that wrote them") {
    std::string text = mutate(example("ampere_gemm"), "sB[s][wn * 32 : 32, :]", "sB[s][wn * 16 : 32, :]");
    auto a = analyze(text);
    REQUIRE(count(a->diagnostics).errors == 0);
    std::vector<TensorData> inputs;
    RunResult r = run_unchecked(*a, "ampere_gemm", {}, inputs);
    REQUIRE(r.problems.empty());
    Ran ran{std::move(a), inputs, std::move(r)};
    const TensorData& C = tensor(ran, "C");
    Comparison c = compare_gemm(ran);
    REQUIRE(c.first);
    CHECK(line_of(*ran.analysis, ran.analysis->module.stmts[C.writers[*c.first]].range) ==
          line_containing(text, "store C["));
  }
  SECTION("a missing stage wait: a race between the TMA write and the wgmma read") {
    std::string text = mutate(example("hopper_gemm"), "      wait full[s] parity(s.phase)\n", "");
    auto a = analyze(text);
    std::vector<TensorData> inputs;
    RunResult r = run_unchecked(*a, "hopper_gemm", {{"K", 256}}, inputs);
    bool found = false;
    for (const RunProblem& p : r.problems)
      if (p.kind == RunProblem::Kind::Race && !p.related.empty()) {
        uint32_t at = line_of(*a, p.at), other = line_of(*a, p.related[0].at);
        uint32_t wgmma = line_containing(text, "wgmma acc +="), load = line_containing(text, "tma.load sA[s]");
        uint32_t load_b = line_containing(text, "tma.load sB[s]");
        found = found || ((at == wgmma || other == wgmma) && (at == load || other == load || at == load_b || other == load_b));
      }
    INFO(problems(r));
    CHECK(found);
  }
  SECTION("an off-by-one parity: a deadlock at that wait") {
    std::string text = mutate(example("hopper_gemm"), "wait empty[s] parity(s.phase ^ 1)", "wait empty[s] parity(s.phase)");
    auto a = analyze(text);
    std::vector<TensorData> inputs;
    RunResult r = run_unchecked(*a, "hopper_gemm", {}, inputs);
    INFO(problems(r));
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].kind == RunProblem::Kind::Deadlock);
    CHECK(line_of(*a, r.problems[0].at) == line_containing(text, "wait empty[s] parity(s.phase)"));
  }
}

// A race inside one role, which the verifier does not see yet (issue 12:
// E0603 covers two roles only): without the first syncthreads of
// row_softmax, a warp reads another warp's partial maxima before they are
// written. The executor reports the store and the load.
TEST_CASE("a race between warps of one role is found on its two lines", "[exec]") {
  std::string text = mutate(example("row_softmax"), "    syncthreads                                     // all partial maxima visible\n", "");
  auto a = analyze(text);
  std::vector<TensorData> inputs;
  RunResult r = run_unchecked(*a, "row_softmax", {}, inputs);
  INFO(problems(r));
  bool found = false;
  for (const RunProblem& p : r.problems)
    found = found || (p.kind == RunProblem::Kind::Race && !p.related.empty() &&
                      line_of(*a, p.at) == line_containing(text, "load t <- pmax[i]") &&
                      line_of(*a, p.related[0].at) == line_containing(text, "store pmax[w] <- pm"));
  CHECK(found);
}

TEST_CASE("a peer CTA's write through dsmem races with its read without cluster.sync", "[exec]") {
  // Kernels dsmem_exchange (clean) and dsmem_exchange_race of protocol.cake.
  std::string text = read_text(std::string(CAKE_TESTS_DIR) + "/diagnostics/protocol.cake");
  auto a = analyze(text);
  // Each CTA reads what its peer wrote: Y is X with each pair of 32-element
  // halves swapped.
  std::vector<TensorData> inputs;
  RunResult r = run_unchecked(*a, "dsmem_exchange", {{"N", 128}}, inputs);
  INFO(problems(r));
  REQUIRE(r.problems.empty());
  const TensorData* y = nullptr;
  for (const TensorData& t : r.tensors)
    if (t.name == "Y") y = &t;
  REQUIRE(y != nullptr);
  for (size_t i = 0; i < 128; ++i) CHECK(y->values[i] == inputs[0].values[i ^ 32]);

  RunResult rr = run_unchecked(*a, "dsmem_exchange_race", {{"N", 128}}, inputs);
  INFO(problems(rr));
  uint32_t from = line_containing(text, "kernel dsmem_exchange_race");
  bool found = false;
  for (const RunProblem& p : rr.problems)
    found = found || (p.kind == RunProblem::Kind::Race && line_of(*a, p.at) > from);
  CHECK(found);
}

// The async proxy: two warps stage a tile with plain stores and one thread
// writes it out by TMA. Each warp's `fence.proxy.async` must come after its
// stores and be ordered before the TMA read, so before the barrier. After
// the barrier, warp 1's fence orders nothing for warp 0's `tma.store`: a
// race between proxies the verifier, which sees the block as one role,
// cannot see. A `cp.async` tile read by `wgmma` needs the fence after the
// `cp.async.wait` that completes the copy (the verifier's E0604 too:
// protocol.cake cp_async_fence_before_wait).
TEST_CASE("a generic-proxy write read by the async proxy needs its writer's fence ordered before the read",
          "[exec]") {
  auto stage = [](std::string_view before, std::string_view after) {
    return std::string(R"(target sm_90a
kernel stage(X: global f32[N, 64], Y: global f32[N, 64]) where N % 64 == 0 grid (N / 64) block 64 {
  smem out: f32[64, 64]
  tensormap tY = Y box [64, 64]
  reg x: f32[64]
  load x <- X[block.x * 64 + warp.id * 32 + lane, :]
  store out[warp.id * 32 + lane, :] <- x
)") + std::string(before) + "  syncthreads\n" + std::string(after) + R"(  elect {
    tma.store tY[block.x * 64, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
}
)";
  };
  auto proxy_races = [](const Ran& r) {
    std::vector<std::string> out;
    for (const RunProblem& p : r.result.problems)
      if (p.kind == RunProblem::Kind::Race && p.message.find("race between proxies on `out`") != std::string::npos)
        out.push_back(p.message);
    return out;
  };
  for (uint64_t schedule : {0, 1, 2}) {
    Ran fenced = run(stage("  fence.proxy.async\n", ""), "stage", {{"N", 128}}, schedule);
    INFO(problems(fenced.result));
    CHECK(fenced.result.problems.empty());
    Ran none = run(stage("", ""), "stage", {{"N", 128}}, schedule, false);
    auto found = proxy_races(none);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("no `fence.proxy.async` of the writing threads follows that write") != std::string::npos);
    Ran late = run(stage("", "  fence.proxy.async\n"), "stage", {{"N", 128}}, schedule);
    found = proxy_races(late);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("is ordered before this read") != std::string::npos);
  }

  // protocol.cake's cp_async_fence_before_wait and ..._after_wait.
  std::string text = read_text(std::string(CAKE_TESTS_DIR) + "/diagnostics/protocol.cake");
  auto a = analyze(text);
  std::vector<TensorData> inputs;
  RunResult after = run_unchecked(*a, "cp_async_fence_after_wait", {}, inputs);
  INFO(problems(after));
  CHECK(after.problems.empty());
  RunResult before = run_unchecked(*a, "cp_async_fence_before_wait", {}, inputs);
  INFO(problems(before));
  int races = 0;
  for (const RunProblem& p : before.problems)
    races += p.kind == RunProblem::Kind::Race &&
             p.message.find("wrote through the generic proxy, and no `fence.proxy.async` of the writing threads follows") !=
                 std::string::npos;
  CHECK(races == 2);  // a and b
}

// store.add: the four warps of a CTA all add into Y[lane]; atomic adds do
// not race with each other, and the sum is the input plus every warp's
// value. A plain store to the same elements does race with them (and the
// verifier says so too: E0605).
TEST_CASE("store.add sums every warp's values and races only with plain accesses", "[exec]") {
  std::string text = R"(target sm_80
kernel adds(X: global f32[N], Y: global f32[32]) where N % 128 == 0 grid (N / 128) block 128 {
  reg x: f32
  load x <- X[block.x * 128 + warp.id * 32 + lane]
  store.add Y[lane] <- x
}
)";
  std::string racing = text + R"(kernel adds_and_store(X: global f32[N], Y: global f32[32]) where N % 128 == 0 grid (N / 128) block 128 {
  reg x: f32
  load x <- X[block.x * 128 + warp.id * 32 + lane]
  store.add Y[lane] <- x
  if warp.id == 0 {
    store Y[lane] <- x
  }
}
)";
  Ran r = run(text, "adds", {{"N", 256}});
  check_clean(r);
  const TensorData& X = tensor(r, "X");
  const TensorData& Y = tensor(r, "Y");
  const TensorData* Y0 = nullptr;
  for (const TensorData& t : r.inputs)
    if (t.name == "Y") Y0 = &t;
  REQUIRE(Y0);
  for (int64_t l = 0; l < 32; ++l) {
    double want = Y0->values[l];
    for (int64_t w = 0; w < 8; ++w) want += X.values[w * 32 + l];
    INFO("lane " << l);
    CHECK(Y.values[l] == Approx(want).epsilon(1e-5));
  }
  Ran raced = run(racing, "adds_and_store", {{"N", 128}}, 0, /*verified=*/false);
  bool reported = false;
  for (const Diagnostic& d : raced.analysis->diagnostics) reported = reported || d.id == DiagId::InRoleRace;
  CHECK(reported);
  bool race = false;
  for (const RunProblem& p : raced.result.problems) race = race || p.kind == RunProblem::Kind::Race;
  INFO(problems(raced.result));
  CHECK(race);
}

// Literals, lets and builtins carry no dtype: bitwise operators on them are
// the language's signed 64-bit index arithmetic. `(2 - 5) << 1` was taken
// as an unsigned 64-bit word, rounded to 2^64 as a double and saturated
// (a random kernel of tests/codegen/random_kernels.h found it).
TEST_CASE("bitwise operators on literals and builtins are signed", "[exec]") {
  std::string text = R"(target sm_80
kernel bits(Y: global i32[32, 4]) grid (1) block 32 {
  reg k: i32[4]
  k[0] = (2 - 5) << 1
  k[1] = ((lane >> 1) * ((2 - 5) << 1)) & 65535
  k[2] = (0 - lane) >> 1
  k[3] = (0 - 1) ^ lane
  store Y[lane, :] <- k
}
)";
  Ran r = run(text, "bits", {});
  check_clean(r);
  const TensorData& Y = tensor(r, "Y");
  for (int64_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    CHECK(Y.values[l * 4 + 0] == -6);
    CHECK(Y.values[l * 4 + 1] == double(((l >> 1) * -6) & 65535));
    CHECK(Y.values[l * 4 + 2] == double((-l) >> 1));
    CHECK(Y.values[l * 4 + 3] == double(-1 ^ l));
  }
}

// A loop whose range differs between the lanes (`for k in lane .. C step
// 32`, the strided per-lane loop): each lane runs its own trips (lanes
// 0 .. C % 32 - 1 one more), iteration k of every lane before iteration
// k + 1 of any, the lanes done waiting at the loop's end. It was refused
// ("the lanes of a warp run this loop a different number of times").
// A nested loop whose range reads the outer one's variable varies too, and
// lanes that exchange values inside an iteration (`t[k ^ 1]`) see their
// partner's value of that iteration.
TEST_CASE("a loop whose range differs between lanes runs each lane's trips", "[exec]") {
  std::string text = R"(target sm_80
kernel strided(X: global f32[R, C], S: global f32[R, 32], Z: global f32[R, C], W: global f32[R, 32]) where R % 4 == 0, C % 2 == 0, C >= 2 grid (R / 4) block 128 {
  smem t: f32[4, 96]
  reg x: f32
  reg y: f32
  reg acc: f32 = 0.0
  reg n: f32 = 0.0
  let row = block.x * 4 + warp.id
  for k in lane .. C step 32 {
    load x <- X[row, k]
    acc += x
    store t[warp.id, k] <- x
    load y <- t[warp.id, k ^ 1]
    store Z[row, k] <- y
    for j in k .. k + k % 3 {
      n += 1.0
    }
  }
  store S[row, lane] <- acc
  store W[row, lane] <- n
}
)";
  for (int64_t C : {40, 64, 96}) {
    INFO("C = " << C);
    Ran r = run(text, "strided", {{"R", 8}, {"C", C}});
    check_clean(r);
    const TensorData& X = tensor(r, "X");
    const TensorData& S = tensor(r, "S");
    const TensorData& Z = tensor(r, "Z");
    const TensorData& W = tensor(r, "W");
    for (int64_t row = 0; row < 8; ++row)
      for (int64_t l = 0; l < 32; ++l) {
        INFO("row " << row << ", lane " << l);
        double sum = 0, trips = 0;
        for (int64_t k = l; k < C; k += 32) {
          sum += X.values[row * C + k];
          trips += k % 3;
          CHECK(Z.values[row * C + k] == X.values[row * C + (k ^ 1)]);
        }
        CHECK(S.values[row * 32 + l] == Approx(sum).epsilon(1e-6));
        CHECK(W.values[row * 32 + l] == trips);
      }
  }
}

// Integer `+ - * / %` are computed in 64-bit two's complement and wrapped
// to the dtype: the product of two u32 values near 2^32 is near 2^64, which
// a double rounds, so its low 32 bits came out wrong (36 off in a random
// kernel of tests/codegen/random_kernels.h against the lowered code), and a
// u32 `0 - 1` wrapped through 2^64 - 1, which a double rounds up to 2^64.
TEST_CASE("integer arithmetic wraps exactly, products of large values too", "[exec]") {
  std::string text = R"(target sm_80
kernel wraps(U: global u32[32, 3], S: global i32[32, 2]) grid (1) block 32 {
  reg k: u32[3]
  reg j: i32[2]
  k[0] = cvt<u32>(lane) * 3 - 7
  k[1] = k[0] * k[0]
  k[2] = (k[1] * 4294967291) / 3 + k[1] % 7
  j[0] = cvt<i32>(lane) * 123456789 - 2000000000
  j[1] = j[0] * j[0] * 987
  store U[lane, :] <- k
  store S[lane, :] <- j
}
)";
  Ran r = run(text, "wraps", {});
  check_clean(r);
  const TensorData& U = tensor(r, "U");
  const TensorData& S = tensor(r, "S");
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    uint32_t k0 = l * 3u - 7u, k1 = k0 * k0, k2 = (k1 * 4294967291u) / 3u + k1 % 7u;
    CHECK(U.values[l * 3 + 0] == double(k0));
    CHECK(U.values[l * 3 + 1] == double(k1));
    CHECK(U.values[l * 3 + 2] == double(k2));
    auto j0 = static_cast<int32_t>(static_cast<uint32_t>(l) * 123456789u - 2000000000u);
    auto j1 = static_cast<int32_t>(static_cast<uint32_t>(j0) * static_cast<uint32_t>(j0) * 987u);
    CHECK(S.values[l * 2 + 0] == double(j0));
    CHECK(S.values[l * 2 + 1] == double(j1));
  }
}

// The other direction: each kernel of tests/diagnostics with a race the
// verifier reports (an unordered access pair: E0601, E0602, E0603, E0605,
// E0411, E0415, E0417; with a CTA's end: E0416, E0418, E0420; between the
// proxies: E0604) races on the executor too, and one whose multicast mask
// or dsmem view names a CTA outside its cluster (E0414) goes out of bounds
// there, at its smallest shape scaled by 1, 2 or 4 (a ring must turn)
// under one of five schedules.
TEST_CASE("every race and CTA outside the cluster the verifier reports in tests/diagnostics, the executor finds",
          "[exec]") {
  const std::map<std::string_view, RunProblem::Kind> expected{
      {"CAKE-E0601", RunProblem::Kind::Race},        {"CAKE-E0602", RunProblem::Kind::Race},
      {"CAKE-E0603", RunProblem::Kind::Race},        {"CAKE-E0605", RunProblem::Kind::Race},
      {"CAKE-E0411", RunProblem::Kind::Race},        {"CAKE-E0415", RunProblem::Kind::Race},
      {"CAKE-E0417", RunProblem::Kind::Race},        {"CAKE-E0416", RunProblem::Kind::Race},
      {"CAKE-E0420", RunProblem::Kind::Race},        {"CAKE-E0418", RunProblem::Kind::Race},
      {"CAKE-E0604", RunProblem::Kind::Race},        {"CAKE-E0414", RunProblem::Kind::OutOfBounds}};
  int kernels = 0;
  for (const char* file : {"protocol", "resources", "movement", "names_types", "performance", "targets", "dispatch",
                           "suppression"})
    for (const std::string& text : diagnostic_cases(file)) {
      auto a = analyze(text);
      const Module& m = a->module;
      for (uint32_t k = 0; k < m.kernels.size(); ++k) {
        std::string codes;
        std::set<RunProblem::Kind> kinds;
        for (const Diagnostic& d : a->diagnostics) {
          auto it = expected.find(rule_info(d.id).code);
          if (d.severity != Severity::Error || !inside(m.kernels[k].range, d.range) || it == expected.end()) continue;
          codes += std::string(rule_info(d.id).code) + " ";
          kinds.insert(it->second);
        }
        if (kinds.empty()) continue;
        ++kernels;
        std::string name(m.symbols[m.kernels[k].symbol].name);
        for (RunProblem::Kind kind : kinds) {
          std::string seen;
          bool shows = shows_at_scaled_shapes(m, k, kind, 4, 5, seen);
          INFO(file << ": kernel " << name << " has " << codes << "; the executor reported: " << seen);
          CHECK(shows);
        }
      }
    }
  WARN("kernels with a race or an out-of-cluster CTA the executor found too: " << kernels);
  CHECK(kernels >= 40);
}

