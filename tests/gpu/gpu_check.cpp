// cake-gpu-check: every example kernel that lowers (docs/lowering.md), and
// each op's minimal kernel and each form kernel (tests/codegen/op_kernels.h), run on the GPU it
// finds and compared with the CPU executor's outputs for the same seeded
// inputs (the shapes of tests/codegen/kernel_io.h), with the executor's
// tolerances. A kernel whose target the GPU cannot run (sm_100a code on an
// H200) is skipped, saying so. Without a driver or a GPU it prints why and
// exits 77 (CTest: skipped). Exit 0: every kernel that could run matched;
// 1: a mismatch, a compile or launch failure, or a kernel that hung (after
// which nothing more runs: its context is unusable).
//
// --time FILE: instead, each example kernel at each of its bench shapes,
// timed (median of 20 launches after 3 warm-ups, CUDA events), its outputs
// compared with its bench's reference kernel run on the GPU at the same
// shape (with an absolute floor scaled to the output: see compare_cases), and the times written to FILE as cake-measurements (docs/
// cost-model.md, "Calibration") beside the cost model's estimate.
//
// --rehearse MAJOR.MINOR: all but the GPU's part, for a GPU of that compute
// capability: which kernels would run, their cases and their compiles.
//
// --GROUP FIRST:COUNT: instead, the random kernels of seeds FIRST .. FIRST +
// COUNT - 1 that this GPU runs, of each generator of GROUP in
// tests/codegen/random_generators.h: --random (fragment kernels),
// --random-mma (mma.sync, wgmma and tcgen05.mma kernels), --random-pipeline
// (rings of stages, then mma.sync, wgmma and tcgen05.mma GEMM pipelines).
//
// --only NAME: only the kernels whose name contains NAME (examples, op and
// form kernels alike). --dump DIR: for each kernel whose outputs differ,
// the GPU's bytes of each tensor argument as DIR/KERNEL.TARGET.TENSOR.bin
// (its inputs are the seeded ones of kernel_io.h, so the case can be
// rebuilt on any machine and the difference studied there).
//
// Usage: cake-gpu-check [--rehearse MAJOR.MINOR]
//                       [--time FILE | --GROUP FIRST:COUNT]
//                       [--only NAME] [--dump DIR] [EXAMPLES_DIR]
// (tests/gpu/run.sh wraps it).
#include "driver.h"
#include "kernel_io.h"
#include "op_kernels.h"
#include "random_generators.h"
#include "support/test_files.h"

#include "cake/arch.h"
#include "cake/codegen/nvrtc.h"
#include "cake/cost.h"
#include "cake/device.h"
#include "cake/typing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) { return cake::test::read_file(p).value_or(""); }

/// --only and --dump (see the top of the file).
struct Options {
  std::string only;
  fs::path dump;
  bool wanted(const std::string& kernel) const { return kernel.find(only) != std::string::npos; }
};
Options options;

/// The architecture to compile a kernel lowered for `target` for on a GPU of
/// compute capability major.minor, or "" when that GPU cannot run it: code
/// for an `a` target runs only on its own architecture; plain targets run
/// on the same or a newer one.
std::string arch_for(const std::string& target, int major, int minor) {
  std::string digits = target.substr(3);
  bool specific = !digits.empty() && digits.back() == 'a';
  if (specific) digits.pop_back();
  int want = std::stoi(digits), have = major * 10 + minor;
  if (specific) return want == have ? target : "";
  if (want > have) return "";
  return "sm_" + std::to_string(have);
}

/// How long one launch may run before it counts as hung: the check shapes
/// run in well under a millisecond, the bench shapes in well under a second.
constexpr double kHangSeconds = 20;

/// What became of one kernel on the GPU.
enum class Outcome { Ran, Mismatch, Failed, Broken, Hung };

/// A compiled kernel with its arguments on the device: allocated, copied
/// and its tensor maps encoded on construction (error() says what failed),
/// freed on destruction unless a kernel hung.
class DeviceRun {
 public:
  DeviceRun(gpu::Driver& driver, const std::vector<char>& cubin, const codegen::LaunchPlan& plan,
            testing::KernelCase& c)
      : driver_(driver), plan_(plan), case_(c), device_(c.arguments.size(), 0), maps_(c.arguments.size()) {
    error_ = driver.load_kernel(cubin, plan.kernel, module_, function_);
    if (error_.empty()) error_ = upload();
    for (size_t i = 0; i < c.arguments.size() && error_.empty(); ++i) {
      testing::Argument& arg = c.arguments[i];
      if (arg.kind == codegen::LaunchParam::Kind::TensorMap) {
        // Its tensor comes before it, so is on the device already.
        error_ = driver.encode_tensor_map(maps_[i], device_[arg.map_tensor], arg.map.dtype,
                                          static_cast<int>(arg.map.element_bits), arg.map_dims, arg.map.box,
                                          static_cast<int>(arg.map.swizzle));
        params_.push_back(&maps_[i]);
      } else if (arg.kind == codegen::LaunchParam::Kind::Tensor) {
        params_.push_back(&device_[i]);
      } else if (arg.kind == codegen::LaunchParam::Kind::Scalar) {
        params_.push_back(arg.bytes.data());
      } else {
        params_.push_back(&arg.scalar);
      }
    }
  }
  ~DeviceRun() {
    if (driver_.hung()) return;  // freeing would wait on the hung kernel; the process ends soon
    for (CUdeviceptr p : device_)
      if (p) driver_.free(p);
    if (module_) driver_.unload(module_);
  }
  DeviceRun(const DeviceRun&) = delete;
  DeviceRun& operator=(const DeviceRun&) = delete;

  const std::string& error() const { return error_; }
  int registers() const { return function_ ? driver_.registers(function_) : 0; }

  /// Copies every tensor argument to the device (again: a timed loop may
  /// have overwritten them), allocating on the first call.
  std::string upload() {
    for (size_t i = 0; i < case_.arguments.size(); ++i) {
      testing::Argument& arg = case_.arguments[i];
      if (arg.kind != codegen::LaunchParam::Kind::Tensor) continue;
      if (!device_[i])
        if (std::string e = driver_.alloc(arg.bytes.size(), device_[i]); !e.empty()) return e;
      if (std::string e = driver_.to_device(device_[i], arg.bytes.data(), arg.bytes.size()); !e.empty()) return e;
    }
    return "";
  }
  std::string launch(double& milliseconds) {
    unsigned grid[3] = {unsigned(case_.grid[0]), unsigned(case_.grid[1]), unsigned(case_.grid[2])};
    return driver_.launch(function_, grid, unsigned(plan_.block), unsigned(plan_.dynamic_smem), params_.data(),
                          milliseconds, kHangSeconds);
  }
  /// Copies every tensor argument back into the case.
  std::string download() {
    for (size_t i = 0; i < case_.arguments.size(); ++i)
      if (case_.arguments[i].kind == codegen::LaunchParam::Kind::Tensor)
        if (std::string e = driver_.to_host(case_.arguments[i].bytes.data(), device_[i], case_.arguments[i].bytes.size());
            !e.empty())
          return e;
    return "";
  }

 private:
  gpu::Driver& driver_;
  const codegen::LaunchPlan& plan_;
  testing::KernelCase& case_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  std::vector<CUdeviceptr> device_;
  std::vector<CUtensorMap> maps_;
  std::vector<void*> params_;
  std::string error_;
};

/// The outcome of a failed launch, download or set-up, printed under `label`.
Outcome failure(const gpu::Driver& driver, const std::string& label, const std::string& error) {
  bool hung = driver.hung();
  std::printf("  %-16s %s: %s\n", hung ? "HUNG" : "FAILED", label.c_str(), error.c_str());
  // A launch or copy error can leave the context unusable, a hang does.
  return hung ? Outcome::Hung : Outcome::Broken;
}

/// `low` compiled for `arch`, or nullopt after printing why under `label`.
/// A kernel lowered alike for several targets the GPU runs (an op's kernel
/// for sm_80, sm_86 and sm_89, run as sm_90) is compiled once for each arch.
std::optional<std::vector<char>> compile(const codegen::Lowered& low, const std::string& arch,
                                         const std::string& label) {
  static std::map<std::pair<std::string, std::string>, std::vector<char>> compiled_before;
  auto key = std::make_pair(low.cuda, arch);
  if (auto it = compiled_before.find(key); it != compiled_before.end()) return it->second;
  codegen::CompileRequest request;
  request.source = low.cuda;
  request.name = low.plan.kernel + ".cu";
  request.arch = arch;
  codegen::CompileResult compiled = codegen::compile(request);
  if (!compiled.ok) {
    std::printf("  FAILED           %s: compile for %s: %s\n%s\n", label.c_str(), arch.c_str(), compiled.error.c_str(),
                compiled.log.c_str());
    return std::nullopt;
  }
  return compiled_before[key] = std::move(compiled.cubin);
}

/// The allowance for 8-bit-float wgmmas in kernel `k` on `target`: their
/// accumulator keeps only `wgmma_fp8_accumulator_bits` of f32's mantissa
/// (the target table; e8m13 on Hopper), so each K step of one may leave
/// its sum up to one unit of that mantissa below the exact one the
/// executor computes. As a fraction of an output's largest |value|: twice
/// 2^-bits per K step of every such wgmma (mma.sync keeps f32: 0 there).
double fp8_wgmma_floor(const Module& m, uint32_t k, const std::string& target) {
  const TargetInfo* t = find_target(target);
  if (!t || !t->wgmma_fp8_accumulator_bits.known()) return 0;
  const ByteRange kernel = m.kernels[k].range;
  Typer typer(m, nullptr);
  double steps = 0;
  for (const Stmt& s : m.stmts) {
    const auto* mma = std::get_if<MmaStmt>(&s.node);
    if (!mma || mma->op != Op::Wgmma || s.range.begin < kernel.begin || s.range.end > kernel.end) continue;
    Typed a = typer.type_of(mma->a);
    if (!is_fp8(a.dtype) || a.dims.empty()) continue;
    auto K = typer.evaluator().fold(a.dims.back());
    for (const WgmmaShape& shape : t->wgmma)
      if (shape.dtype == a.dtype && K && shape.k > 0) {
        steps += std::ceil(double(*K) / shape.k);
        break;
      }
  }
  return 2 * steps * std::ldexp(1.0, -int(t->wgmma_fp8_accumulator_bits.value));
}

/// --dump: the GPU's bytes of each tensor argument of `c`.
void dump(const testing::KernelCase& c, const codegen::LaunchPlan& plan, const std::string& arch) {
  std::error_code ec;
  fs::create_directories(options.dump, ec);
  for (size_t i = 0; i < c.arguments.size() && i < plan.params.size(); ++i) {
    const testing::Argument& a = c.arguments[i];
    if (a.kind != codegen::LaunchParam::Kind::Tensor) continue;
    fs::path file = options.dump / (plan.kernel + "." + arch + "." + plan.params[i].name + ".bin");
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(a.bytes.data()),
                                                static_cast<std::streamsize>(a.bytes.size()));
  }
}

/// Compiles `low` for `arch`, runs it on the seeded inputs of its check
/// shape and compares the outputs with the CPU executor's, printing one line
/// (and the mismatches) under `label`. Without a driver (a rehearsal) it
/// stops after the compile.
Outcome check_case(gpu::Driver* gpu, const Module& m, uint32_t k, const codegen::Lowered& low,
                   const std::string& arch, const std::string& label) {
  testing::KernelCase c = testing::make_case(m, k, low.plan, 7);
  if (!c.error.empty()) {
    std::printf("  FAILED           %s: %s\n", label.c_str(), c.error.c_str());
    return Outcome::Failed;
  }
  std::optional<std::vector<char>> cubin = compile(low, arch, label);
  if (!cubin) return Outcome::Failed;
  const double floor = fp8_wgmma_floor(m, k, low.plan.target);
  char allowance[96] = "";
  if (floor > 0) std::snprintf(allowance, sizeof allowance, " (fp8 wgmma: f32 outputs within %.3g of their largest |value|)", floor);
  // A kernel of constant shapes (the random ones) has no shape to name.
  const std::string at = c.shape.text.empty() ? "" : " at " + c.shape.text;
  if (!gpu) {
    std::printf("  compiled         %s as %s%s%s\n", label.c_str(), arch.c_str(), at.c_str(), allowance);
    return Outcome::Ran;
  }
  DeviceRun run(*gpu, *cubin, low.plan, c);
  double ms = 0;
  std::string error = run.error();
  if (error.empty()) error = run.launch(ms);
  if (error.empty()) error = run.download();
  if (!error.empty()) return failure(*gpu, label, error);
  std::vector<std::string> wrong = testing::mismatches(c, floor);
  std::printf("  %-16s %s as %s%s: %d registers, %.3f ms%s\n", wrong.empty() ? "ok" : "MISMATCH", label.c_str(),
              arch.c_str(), at.c_str(), run.registers(), ms, allowance);
  for (const std::string& w : wrong) std::printf("                   %s\n", w.c_str());
  if (!wrong.empty() && !options.dump.empty()) dump(c, low.plan, arch);
  std::fflush(stdout);
  return wrong.empty() ? Outcome::Ran : Outcome::Mismatch;
}

/// Counts of what ran; `stop` once a kernel failed in a way that can leave
/// the context unusable (a launch error, a hang).
struct Tally {
  int ran = 0, failed = 0, skipped = 0;
  bool stop = false;
  void add(Outcome o) {
    if (o != Outcome::Failed) ++ran;
    if (o != Outcome::Ran) ++failed;
    if (o == Outcome::Hung || o == Outcome::Broken) stop = true;
  }
};

/// The example files of `dir`, sorted.
std::vector<fs::path> example_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cake") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// The check: every example kernel on every target it lists, then each op's
/// minimal kernel on every target this GPU runs that has its ops.
Tally check(gpu::Driver* driver, int major, int minor, const fs::path& dir) {
  Tally tally;
  std::printf("example kernels, on every target they list:\n");
  for (const fs::path& file : example_files(dir)) {
    auto a = analyze(read(file));
    const Module& m = a->module;
    for (uint32_t k = 0; k < m.kernels.size() && !tally.stop; ++k) {
      std::string kernel(m.symbols[m.kernels[k].symbol].name);
      if (!options.wanted(kernel)) continue;
      for (const std::string& target : file_targets(m, {})) {
        std::string label = file.filename().string() + " " + kernel + " " + target;
        codegen::Lowered low = codegen::lower(*a, k, target, fs::absolute(file).string());
        if (!low.ok()) {
          std::printf("  not lowered yet  %s: %s\n", label.c_str(), low.diagnostics[0].message.c_str());
          ++tally.skipped;
          continue;
        }
        std::string arch = arch_for(target, major, minor);
        if (arch.empty()) {
          std::printf("  skipped          %s: this GPU cannot run %s code\n", label.c_str(), target.c_str());
          ++tally.skipped;
          continue;
        }
        tally.add(check_case(driver, m, k, low, arch, label));
        if (tally.stop) break;
      }
    }
  }
  std::printf("op and form kernels, on every target this GPU runs that has their ops or forms:\n");
  for (const testing::FormKernel& form : testing::form_kernels()) {
    for (const TargetInfo& t : all_targets()) {
      if (tally.stop) break;
      std::string arch = arch_for(std::string(t.name), major, minor);
      if (arch.empty()) continue;
      auto a = analyze("target " + std::string(t.name) + "\n" + form.text + "\n");
      if (count(a->diagnostics).errors > 0) continue;
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/forms/form.cake");
      if (!low.ok()) continue;  // before its first target (codegen.host_run checks the refusal)
      if (!options.wanted(low.plan.kernel)) continue;
      tally.add(check_case(driver, a->module, 0, low, arch,
                           "[" + form.what + "] " + low.plan.kernel + " " + std::string(t.name)));
    }
  }
  for (const testing::OpKernel& op : testing::op_kernels()) {
    for (const TargetInfo& t : all_targets()) {
      if (tally.stop) break;
      std::string arch = arch_for(std::string(t.name), major, minor);
      if (arch.empty()) continue;
      auto a = analyze("target " + std::string(t.name) + "\n" + op.text + "\n");
      if (count(a->diagnostics).errors > 0) continue;
      std::string kernel(a->module.symbols[a->module.kernels[0].symbol].name);
      if (!options.wanted(kernel)) continue;
      std::string label = "[" + op.ops + "] " + kernel + " " + std::string(t.name);
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/ops/op.cake");
      if (!low.ok()) {
        std::printf("  not lowered yet  %s: %s\n", label.c_str(), low.diagnostics[0].message.c_str());
        ++tally.skipped;
        continue;
      }
      tally.add(check_case(driver, a->module, 0, low, arch, label));
    }
  }
  return tally;
}

/// The groups of random generators, in their table's order, each once.
std::vector<std::string_view> random_groups() {
  std::vector<std::string_view> groups;
  for (const testing::RandomGenerator& g : testing::random_generators)
    if (std::find(groups.begin(), groups.end(), g.group) == groups.end()) groups.push_back(g.group);
  return groups;
}

/// The random kernels of generator `g` of seeds first .. first + kernels - 1
/// whose target this GPU runs.
Tally check_random(gpu::Driver* driver, int major, int minor, uint64_t first, uint64_t kernels,
                   const testing::RandomGenerator& g) {
  Tally tally;
  std::printf("random %.*s kernels, seeds %llu .. %llu:\n", static_cast<int>(g.what.size()), g.what.data(),
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + kernels - 1));
  for (uint64_t seed = first; seed < first + kernels && !tally.stop; ++seed) {
    testing::RandomKernel r = g.make(seed);
    std::string label = "[" + r.what + "] seed " + std::to_string(seed);
    std::string arch = arch_for(r.target, major, minor);
    if (arch.empty()) {
      std::printf("  skipped          %s: this GPU cannot run %s code\n", label.c_str(), r.target.c_str());
      ++tally.skipped;
      continue;
    }
    auto a = analyze("target " + r.target + "\n" + r.text);
    codegen::Lowered low = codegen::lower(*a, 0, r.target, "/random/seed" + std::to_string(seed) + ".cake");
    if (count(a->diagnostics).errors > 0 || !low.ok()) {
      // codegen.random_kernels, random_mma and random_pipelines check that every seed
      // verifies and lowers.
      std::printf("  FAILED           %s: refused by the verifier or the lowering\n", label.c_str());
      ++tally.failed;
      continue;
    }
    tally.add(check_case(driver, a->module, 0, low, arch, label));
  }
  return tally;
}

/// Each tensor parameter of `got` against the reference's parameter at the
/// same position (references match by position, E0118); a line per
/// difference. The inputs are compared too: that both kernels got the same
/// ones is what makes the outputs comparable. The executor's tolerances
/// (exec::tolerance_for) are for short sums; at a bench's reduction lengths
/// sums that cancel differ by more than their absolute floor when the order
/// of the additions or the tensor cores' rounding differs, so the floor is
/// raised to kScaledFloor of the reference tensor's RMS, and for a kernel
/// with 8-bit-float wgmmas to `fp8_floor` (fp8_wgmma_floor()) of its
/// largest |value|. The strict count is printed beside.
constexpr double kScaledFloor = 1e-4;
std::vector<std::string> compare_cases(const testing::KernelCase& got, const testing::KernelCase& want,
                                       const codegen::LaunchPlan& plan, double fp8_floor, int& compared,
                                       std::string& strict) {
  std::vector<std::string> out;
  compared = 0;
  for (size_t i = 0; i < got.arguments.size(); ++i) {
    const testing::Argument& g = got.arguments[i];
    if (g.kind != codegen::LaunchParam::Kind::Tensor) continue;
    for (const testing::Argument& w : want.arguments) {
      if (w.kind != codegen::LaunchParam::Kind::Tensor || w.expected != g.expected) continue;
      std::vector<double> a = testing::from_bytes(g.dtype, g.bytes), b = testing::from_bytes(w.dtype, w.bytes);
      double squares = 0;
      for (double v : b) squares += std::isfinite(v) ? v * v : 0;
      double rms = b.empty() ? 0 : std::sqrt(squares / static_cast<double>(b.size()));
      exec::Tolerance tolerance = exec::tolerance_for(g.dtype);
      exec::Comparison exact = exec::compare(tolerance, a, b);
      tolerance.atol = std::max(tolerance.atol, kScaledFloor * rms);
      if (fp8_floor > 0 && g.dtype == DType::F32)  // fp8_wgmma_floor(): the kernel's own truncation
        tolerance.atol = std::max(tolerance.atol, fp8_floor * testing::largest(b));
      exec::Comparison cmp = exec::compare(tolerance, a, b);
      ++compared;
      char text[160];
      if (!exact.matches()) {
        std::snprintf(text, sizeof text, "%s%s: %zu of %zu beyond the executor's tolerance, max abs %.3g (RMS %.3g)",
                      strict.empty() ? "" : "; ", plan.params[i].name.c_str(), exact.mismatches, a.size(),
                      exact.max_abs, rms);
        strict += text;
      }
      if (!cmp.matches())
        out.push_back(plan.params[i].name + ": " + std::to_string(cmp.mismatches) + " of " +
                      std::to_string(a.size()) + " elements differ (max abs " + std::to_string(cmp.max_abs) +
                      ", max rel " + std::to_string(cmp.max_rel) + ", RMS " + std::to_string(rms) + ")");
    }
  }
  return out;
}

/// The device table for the GPU named `name` ("NVIDIA H200" → h200), or null.
const DeviceInfo* device_named(std::string name) {
  if (name.rfind("NVIDIA ", 0) == 0) name = name.substr(7);
  std::string alias;
  for (char ch : name) {
    if (ch == ' ') break;
    alias += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return find_device(alias);
}

/// --time: each example kernel with benches, on the first of its targets
/// this GPU runs, at each bench shape: timed, checked against the bench's
/// reference kernel on the GPU, and written to `out` as cake-measurements.
/// Without a driver (a rehearsal for a GPU of `major`.`minor`, an H200's
/// device table) it makes the cases and compiles, and runs nothing.
Tally time_benches(gpu::Driver* gpu, int major, int minor, const fs::path& dir, const fs::path& out) {
  Tally tally;
  const DeviceInfo* device = device_named(gpu ? gpu->device_name() : "NVIDIA H200");
  nlohmann::json measurements = nlohmann::json::array();
  std::printf("bench shapes: median of 20 launches; outputs against the bench's reference kernel on the GPU\n");
  std::printf("  %-44s %-24s %10s %10s %7s  %s\n", "kernel (target as arch)", "shape", "measured", "estimate",
              "est/meas", "reference");
  for (const fs::path& file : example_files(dir)) {
    auto a = analyze(read(file));
    const Module& m = a->module;
    for (uint32_t k = 0; k < m.kernels.size() && !tally.stop; ++k) {
      std::vector<size_t> benches = exec::kernel_benches(m, k);
      if (benches.empty()) continue;
      std::string kernel(m.symbols[m.kernels[k].symbol].name);
      if (!options.wanted(kernel)) continue;
      std::string target, arch;
      for (const std::string& t : file_targets(m, {}))
        if (arch.empty() && !(arch = arch_for(t, major, minor)).empty()) target = t;
      if (arch.empty()) {
        std::printf("  skipped          %s %s: this GPU runs none of its targets\n", file.filename().c_str(),
                    kernel.c_str());
        ++tally.skipped;
        continue;
      }
      std::string label = kernel + " (" + target + " as " + arch + ")";
      codegen::Lowered low = codegen::lower(*a, k, target, fs::absolute(file).string());
      if (!low.ok()) {
        std::printf("  not lowered yet  %s: %s\n", label.c_str(), low.diagnostics[0].message.c_str());
        ++tally.skipped;
        continue;
      }
      std::optional<std::vector<char>> cubin = compile(low, arch, label);
      if (!cubin) {
        tally.add(Outcome::Failed);
        continue;
      }
      for (size_t bench : benches) {
        if (tally.stop) break;
        const Bench& b = m.benches[bench];
        // Where a bench's wall time goes (the inputs, the timed launches,
        // the reference), printed with it: a run with a time limit shows
        // what to shorten.
        using Clock = std::chrono::steady_clock;
        auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
        Clock::time_point started = Clock::now();
        exec::NamedShape shape = exec::named_shape(m, exec::choose_shape(m, k, static_cast<int64_t>(bench), {}).values);
        testing::KernelCase c = testing::make_case(m, k, low.plan, 7, &shape);
        if (!c.error.empty()) {
          std::printf("  FAILED           %s: %s\n", label.c_str(), c.error.c_str());
          tally.add(Outcome::Failed);
          continue;
        }
        double estimate_us = 0;
        if (device) {
          Estimate e = estimate_bench(*a, k, static_cast<int32_t>(bench), target, *device);
          if (e.ok) estimate_us = e.time_us;
        }
        if (!gpu) {
          std::printf("  %-44s %-24s %10s %8.1f us\n", label.c_str(), c.shape.text.c_str(), "compiled", estimate_us);
          tally.add(Outcome::Ran);
          continue;
        }
        gpu::Driver& driver = *gpu;
        double inputs_s = since(started);
        Clock::time_point launched = Clock::now();
        std::vector<double> times;
        std::string error;
        int registers = 0;
        {
          DeviceRun run(driver, *cubin, low.plan, c);
          error = run.error();
          registers = run.registers();
          for (int i = 0; i < 23 && error.empty(); ++i) {
            double ms = 0;
            error = run.launch(ms);
            if (i >= 3) times.push_back(ms);
          }
          // The outputs of one launch on fresh inputs.
          double ms = 0;
          if (error.empty()) error = run.upload();
          if (error.empty()) error = run.launch(ms);
          if (error.empty()) error = run.download();
        }
        if (!error.empty()) {
          tally.add(failure(driver, label, error));
          break;
        }
        std::sort(times.begin(), times.end());
        double median_us = times[times.size() / 2] * 1000;
        double runs_s = since(launched);
        Clock::time_point referenced = Clock::now();
        // The reference at the same shape, on the GPU.
        std::string verdict = "no reference";
        Outcome outcome = Outcome::Ran;
        if (b.reference_symbol != kNone) {
          uint32_t r = m.symbols[b.reference_symbol].kernel;
          std::string ref_name(m.symbols[m.kernels[r].symbol].name);
          codegen::Lowered ref = codegen::lower(*a, r, target, fs::absolute(file).string());
          testing::KernelCase rc = testing::make_case(m, r, ref.plan, 7, &shape);
          std::optional<std::vector<char>> ref_cubin;
          if (ref.ok() && rc.error.empty()) ref_cubin = compile(ref, arch, ref_name);
          if (!ref_cubin) {
            verdict = ref_name + " not run: " + (!ref.ok() ? ref.diagnostics[0].message : rc.error);
          } else {
            DeviceRun run(driver, *ref_cubin, ref.plan, rc);
            double ms = 0;
            error = run.error();
            if (error.empty()) error = run.launch(ms);
            if (error.empty()) error = run.download();
            if (!error.empty()) {
              tally.add(failure(driver, ref_name, error));
              break;
            }
            int compared = 0;
            std::string strict;
            std::vector<std::string> wrong = compare_cases(c, rc, low.plan, fp8_wgmma_floor(m, k, target), compared, strict);
            verdict = (wrong.empty() ? "matches " : "MISMATCH against ") + ref_name + " (" +
                      std::to_string(compared) + " tensors)";
            for (const std::string& w : wrong) verdict += "\n                   " + w;
            if (!strict.empty()) verdict += "\n                   strictly: " + strict;
            if (!wrong.empty() || compared == 0) outcome = Outcome::Mismatch;
          }
        }
        std::printf("  %-44s %-24s %8.1f us %8.1f us %7.2f  %s\n", label.c_str(), c.shape.text.c_str(), median_us,
                    estimate_us, estimate_us > 0 ? estimate_us / median_us : 0.0, verdict.c_str());
        std::printf("  %-44s wall: inputs %.1f s, launches %.1f s, reference and comparison %.1f s\n", "",
                    inputs_s, runs_s, since(referenced));
        std::fflush(stdout);
        tally.add(outcome);
        nlohmann::json bench_shape = nlohmann::json::object();
        for (const auto& [name, value] : shape) bench_shape[name] = value;
        // Relative to the measurement file's directory, as `cake calibrate` reads it.
        std::string where = fs::relative(fs::absolute(file), fs::absolute(out).parent_path()).string();
        measurements.push_back({{"file", where},
                                {"kernel", kernel},
                                {"target", target},
                                {"device", device ? std::string(device->id) : gpu->device_name()},
                                {"bench", bench_shape},
                                {"time_us", median_us},
                                {"repetitions", times.size()},
                                {"registers", registers},
                                {"estimate_us", estimate_us}});
        // Written after each bench, so a run stopped by its time limit
        // keeps what it measured.
        nlohmann::json doc = {{"format", "cake-measurements"}, {"version", 1},
                              {"gpu", gpu->device_name()}, {"measurements", measurements}};
        std::ofstream(out) << doc.dump(2) << "\n";
      }
    }
  }
  std::printf("cake-gpu-check: %zu measurements written to %s\n", measurements.size(), out.c_str());
  return tally;
}

}  // namespace

int main(int argc, char** argv) {
  int major = 0, minor = 0;
  bool rehearse = false;
  std::string time_file;
  unsigned long long random_first = 0, random_count = 0;
  std::string random_group;  // a group of tests/codegen/random_generators.h, from --GROUP
  const std::vector<std::string_view> groups = random_groups();
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--rehearse" && i + 1 < argc && std::sscanf(argv[i + 1], "%d.%d", &major, &minor) == 2) {
      rehearse = true;
      ++i;
    } else if (arg == "--time" && i + 1 < argc) {
      time_file = argv[++i];
    } else if (arg.rfind("--", 0) == 0 && groups.end() != std::find(groups.begin(), groups.end(), arg.substr(2)) &&
               i + 1 < argc &&
               std::sscanf(argv[i + 1], "%llu:%llu", &random_first, &random_count) == 2 && random_count > 0) {
      random_group = arg.substr(2);
      ++i;
    } else if (arg == "--only" && i + 1 < argc) {
      options.only = argv[++i];
    } else if (arg == "--dump" && i + 1 < argc) {
      options.dump = argv[++i];
    } else if (arg.rfind("--", 0) == 0 || !rest.empty()) {
      std::string random;
      for (std::string_view group : groups) random += " | --" + std::string(group) + " FIRST:COUNT";
      std::fprintf(stderr, "usage: cake-gpu-check [--rehearse MAJOR.MINOR] [--time FILE%s] [--only NAME] [--dump DIR] [EXAMPLES_DIR]\n",
                   random.c_str());
      return 2;
    } else {
      rest.push_back(arg);
    }
  }
  std::unique_ptr<gpu::Driver> driver;
  if (!rehearse) {
    std::string why;
    driver = gpu::Driver::load(why);
    if (!driver) {
      std::printf("cake-gpu-check: skipped: %s\n", why.c_str());
      return 77;
    }
    major = driver->major();
    minor = driver->minor();
  }
  if (!codegen::available()) {
    std::printf("cake-gpu-check: skipped: this build has no NVRTC\n");
    return 77;
  }
  std::printf("cake-gpu-check: %s (sm_%d%d), NVRTC %s\n", driver ? driver->device_name().c_str() : "a rehearsal",
              major, minor, codegen::version().c_str());
  fs::path dir = rest.empty() ? fs::path(CAKE_EXAMPLES_DIR) : fs::path(rest[0]);
  Tally tally;
  if (!random_group.empty()) {
    for (const testing::RandomGenerator& g : testing::random_generators) {
      if (g.group != random_group) continue;
      if (tally.stop) break;
      Tally more = check_random(driver.get(), major, minor, random_first, random_count, g);
      tally.ran += more.ran, tally.failed += more.failed, tally.skipped += more.skipped, tally.stop = more.stop;
    }
  } else {
    tally = time_file.empty() ? check(driver.get(), major, minor, dir) : time_benches(driver.get(), major, minor, dir, time_file);
  }
  if (tally.stop) std::printf("cake-gpu-check: stopped after a failure that can leave the context unusable\n");
  std::printf("cake-gpu-check: %d %s, %d failed, %d not run (not lowered yet, or not for this GPU)\n", tally.ran,
              driver ? "ran" : "compiled", tally.failed, tally.skipped);
  return tally.failed > 0 || tally.ran == 0 ? 1 : 0;
}
