// cake-bench-run: how fast the CPU reference executor (cake/exec/run.h) runs,
// against the targets of issue 15 and docs/benchmarks.md: each example at its
// smallest legal shape with its bench's reference kernel (the whole
// `cake run FILE --backend cpu` job, the check that the outputs match
// included) in < 2 s, and the GEMM examples at 1024^3 in < 10 s, on one
// core. Each case runs N times (min / median / p95); the last column is the
// ratio to the target (>= 1.00 meets it). A benchmark, not a timed test: the
// exit status is 0 whatever the timings, unless --fail-on-miss is given; it
// is 1 when a run has a finding (the numbers would then time a failure).
//
// Usage: cake-bench-run [--runs N] [--gemm-runs N] [--no-gemm] [--fail-on-miss] [--smoke]

#include "cake/analyze.h"
#include "cake/exec/numeric.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace cake;
using namespace cake::exec;

struct Timing {
  double min = 0, median = 0, p95 = 0;
};

Timing summarise(std::vector<double> s) {
  std::sort(s.begin(), s.end());
  Timing t;
  t.min = s.front();
  t.median = s[s.size() / 2];
  t.p95 = s[std::min(s.size() - 1, static_cast<size_t>(0.95 * static_cast<double>(s.size())))];
  return t;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs every benched kernel of `a` (and its reference) at `shape` (empty:
/// the smallest legal); false on any finding or mismatch.
bool run_file(const Analysis& a, const std::vector<std::pair<std::string, int64_t>>& shape, bool with_reference) {
  const Module& m = a.module;
  for (uint32_t k = 0; k < m.kernels.size(); ++k) {
    std::vector<size_t> benches = kernel_benches(m, k);
    if (benches.empty()) continue;
    ShapeChoice s = choose_shape(m, k, -1, shape);
    std::vector<TensorData> inputs;
    std::string error;
    if (!s.error.empty() || !make_inputs(m, k, s.values, 1, inputs, error)) return false;
    RunResult got = run_kernel(m, k, s.values, inputs, {});
    if (!got.problems.empty()) return false;
    SymbolId ref = m.benches[benches.front()].reference_symbol;
    if (!with_reference || ref == kNone) continue;
    uint32_t rk = m.symbols[ref].kernel;
    ShapeChoice rs = choose_shape(m, rk, -1, named_shape(m, s.values));
    if (!rs.error.empty()) return false;
    RunResult want = run_kernel(m, rk, rs.values, inputs, {});
    if (!want.problems.empty()) return false;
    for (size_t i = 0; i < got.tensors.size(); ++i) {
      const TensorData& t = got.tensors[i];
      bool written = std::any_of(t.writers.begin(), t.writers.end(), [](StmtId w) { return w != kNone; });
      if (written && !compare(t.dtype, t.values, want.tensors[i].values).matches()) return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5, gemm_runs = 3;
  bool gemm = true, fail_on_miss = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--gemm-runs" && i + 1 < argc) gemm_runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--no-gemm") gemm = false;
    else if (a == "--fail-on-miss") fail_on_miss = true;
    else if (a == "--smoke") runs = 1, gemm = false;
    else {
      std::fprintf(stderr, "usage: cake-bench-run [--runs N] [--gemm-runs N] [--no-gemm] [--fail-on-miss] [--smoke]\n");
      return 2;
    }
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(CAKE_EXAMPLES_DIR))
    if (e.path().extension() == ".cake") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  bool ok = true, missed = false;
  std::printf("%-34s %5s %10s %10s %10s %8s %7s\n", "case", "runs", "min", "median", "p95", "target", "ratio");
  auto row = [&](const std::string& name, int n, const Timing& t, double target) {
    double ratio = target / t.median;
    missed = missed || ratio < 1;
    std::printf("%-34s %5d %8.3f s %8.3f s %8.3f s %6.0f s %7.2f\n", name.c_str(), n, t.min, t.median, t.p95, target,
                ratio);
  };
  auto time = [&](const Analysis& a, const std::vector<std::pair<std::string, int64_t>>& shape, bool ref, int n) {
    std::vector<double> samples;
    for (int r = 0; r < n; ++r) {
      auto start = std::chrono::steady_clock::now();
      ok = run_file(a, shape, ref) && ok;
      samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return summarise(samples);
  };
  for (const auto& f : files) {
    auto a = analyze(slurp(f));
    row(f.stem().string() + " + reference, smallest", runs, time(*a, {}, true, runs), 2.0);
  }
  if (gemm)
    for (const char* name : {"ampere_gemm", "hopper_gemm", "blackwell_gemm"}) {
      auto a = analyze(slurp(std::filesystem::path(CAKE_EXAMPLES_DIR) / (std::string(name) + ".cake")));
      row(std::string(name) + " at 1024^3", gemm_runs, time(*a, {{"M", 1024}, {"N", 1024}, {"K", 1024}}, false, gemm_runs),
          10.0);
    }
  if (!ok) {
    std::fprintf(stderr, "cake-bench-run: a run had a finding or a mismatch; the timings measure a failure\n");
    return 1;
  }
  return fail_on_miss && missed ? 1 : 0;
}
