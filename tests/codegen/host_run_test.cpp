// The lowered CUDA computes what the IR says, checked without a GPU: every
// example kernel that lowers is compiled with the host C++ compiler against
// tests/codegen/host/cuda_host.h (threads as fibers, CUDA's barriers and warp
// shuffles kept), run on seeded inputs, and its outputs compared with the
// CPU executor's for the same inputs (exec/, docs/run.md) with the
// executor's tolerances. This checks the lowering's arithmetic: where each
// register of a fragment sits, addresses, reductions, rounding. Instruction
// semantics on a real GPU are tests/gpu/'s to check.
#include <catch2/catch.hpp>

#include "cake/arch.h"
#include "cake/codegen/nvrtc.h"
#include "cake/registry.h"
#include "kernel_io.h"
#include "host/tensor_map.h"
#include "op_kernels.h"
#include "random_generators.h"
#include "support/test_files.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) { return cake::test::read_file(p).value_or(""); }

/// A call of the kernel from an argument array, and the launcher the host
/// runtime provides (cuda_host.h).
std::string entry_points(const codegen::LaunchPlan& plan) {
  std::string entry = "static void cake_entry(void** a) {\n  " + plan.kernel + "(";
  for (size_t i = 0; i < plan.params.size(); ++i) {
    const codegen::LaunchParam& p = plan.params[i];
    std::string type = p.kind == codegen::LaunchParam::Kind::Tensor      ? p.ctype.substr(0, p.ctype.find('*') + 1)
                       : p.kind == codegen::LaunchParam::Kind::TensorMap ? std::string("CakeTensorMap")
                                                                         : p.ctype;
    entry += (i ? ", " : "") + std::string("*(") + type + "*)a[" + std::to_string(i) + "]";
  }
  return entry + ");\n}\n"
                 "extern \"C\" void cake_host_launch(void** a, const unsigned grid[3], const unsigned cluster[3], "
                 "unsigned threads, size_t smem) {\n"
                 "  cake_host::run(cake_entry, a, grid, cluster, threads, cake_smem, smem);\n}\n";
}

/// How each kernel and the host runtime are compiled.
const std::string kHostCompile = std::string(CAKE_HOST_CXX) + " -std=c++20 -O1 -fPIC -w -I" + CAKE_HOST_DIR;

struct HostRuntime {
  fs::path library;  ///< the runtime's sources as a shared library each kernel's shared object needs
  fs::path header;   ///< includes cuda_host.h; precompiled beside it
};

/// The host runtime built once into `work` (a shared library: linking its
/// objects into every kernel took longer than compiling a small kernel),
/// and cuda_host.h precompiled there: a kernel compiled with `-include
/// HEADER` reads it from HEADER.gch (g++) or HEADER.pch (clang++) instead,
/// which both compilers look for beside it.
HostRuntime host_runtime(const fs::path& work) {
  HostRuntime rt{work / "libcake_host.so", work / "cuda_host.h"};
  if (fs::exists(rt.library)) return rt;
  std::ofstream(rt.header) << "#include \"" << CAKE_HOST_DIR << "/cuda_host.h\"\n";
  std::string pch = rt.header.string() + (std::string_view(CAKE_HOST_CXX_ID) == "Clang" ? ".pch" : ".gch");
  std::vector<std::string> commands{kHostCompile + " -x c++-header " + rt.header.string() + " -o " + pch};
  std::string objects;
  for (const char* source : {"cuda_host_run", "cuda_host_copy", "cuda_host_mma"}) {
    fs::path object = work / (std::string(source) + ".o");
    objects += " " + object.string();
    commands.push_back(kHostCompile + " -c " + CAKE_HOST_DIR + "/" + source + ".cpp -o " + object.string());
  }
  commands.push_back(kHostCompile + " -shared" + objects + " -o " + rt.library.string());
  fs::path log = work / "cuda_host_run.log";
  for (const std::string& command : commands) {
    int status = std::system((command + " 2>" + log.string()).c_str());
    INFO(command << "\n" << read(log));
    REQUIRE(status == 0);
  }
  return rt;
}

/// Builds `low` with the host compiler, runs it on the seeded inputs of its
/// check shape and compares with the CPU executor's outputs.
void run_on_host(const Module& m, uint32_t k, const codegen::Lowered& low, const fs::path& work) {
  testing::KernelCase c = testing::make_case(m, k, low.plan, 7);
  INFO("shape " << c.shape.text);
  INFO(c.error);
  REQUIRE(c.error.empty());

  // The lowered code, built as a shared object with the host compiler.
  fs::path source = work / (low.plan.kernel + ".cpp"), object = work / (low.plan.kernel + ".so");
  fs::path log = work / (low.plan.kernel + ".log");
  std::ofstream(source) << low.cuda << entry_points(low.plan);
  HostRuntime rt = host_runtime(work);
  std::string command = kHostCompile + " -shared -include " + rt.header.string() + " " + source.string() + " " +
                        rt.library.string() + " -o " + object.string() + " 2>" + log.string();
  int status = std::system(command.c_str());
  INFO(command << "\n" << read(log));
  REQUIRE(status == 0);
  void* so = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(so != nullptr);
  using Launch = void (*)(void**, const unsigned*, const unsigned*, unsigned, size_t);
  auto launch = reinterpret_cast<Launch>(dlsym(so, "cake_host_launch"));
  REQUIRE(launch != nullptr);

  std::vector<void*> pointers(c.arguments.size()), args;
  std::vector<cake_host::TensorMap> maps(c.arguments.size());
  for (size_t i = 0; i < c.arguments.size(); ++i) {
    testing::Argument& arg = c.arguments[i];
    if (arg.kind == codegen::LaunchParam::Kind::Tensor) {
      pointers[i] = arg.bytes.data();
      args.push_back(&pointers[i]);
    } else if (arg.kind == codegen::LaunchParam::Kind::TensorMap) {
      // The host runtime's encoding of what the plan tells the driver.
      cake_host::TensorMap& t = maps[i];
      t.base = c.arguments[arg.map_tensor].bytes.data();
      t.rank = static_cast<uint32_t>(arg.map_dims.size());
      t.element_bytes = static_cast<uint32_t>(arg.map.element_bytes);
      t.element_bits = static_cast<uint32_t>(arg.map.element_bits);
      t.swizzle = static_cast<uint32_t>(arg.map.swizzle);
      // A packed type's rows are dims[0] x bits / 8 bytes (a multiple of
      // 128 values: whole bytes), and values along a row found by bit.
      bool packed = t.element_bits < 8;
      uint64_t stride = packed ? 0 : t.element_bytes;
      for (uint32_t d = 0; d < t.rank; ++d) {
        t.dims[d] = static_cast<uint64_t>(arg.map_dims[d]);
        t.strides[d] = stride;
        stride = d == 0 && packed ? t.dims[0] * t.element_bits / 8 : stride * t.dims[d];
        t.box[d] = static_cast<uint32_t>(arg.map.box.at(d));
      }
      args.push_back(&t);
    } else if (arg.kind == codegen::LaunchParam::Kind::Scalar) {
      args.push_back(arg.bytes.data());
    } else {
      args.push_back(&arg.scalar);
    }
  }
  unsigned grid[3] = {unsigned(c.grid[0]), unsigned(c.grid[1]), unsigned(c.grid[2])};
  CHECK(int64_t(grid[0]) * grid[1] * grid[2] == c.want.ctas);
  unsigned cluster[3] = {1, 1, 1};
  for (size_t d = 0; d < low.plan.cluster.size() && d < 3; ++d) cluster[d] = unsigned(low.plan.cluster[d]);
  launch(args.data(), grid, cluster, static_cast<unsigned>(low.plan.block), static_cast<size_t>(low.plan.dynamic_smem));
  dlclose(so);
  for (const std::string& wrong : testing::mismatches(c)) FAIL_CHECK(wrong);
}

fs::path work_dir() {
  fs::path work = fs::temp_directory_path() / ("cake-host-run-" + std::to_string(::getpid()));
  fs::create_directories(work);
  return work;
}

}  // namespace

TEST_CASE("every kernel that lowers computes on the host what the CPU executor computes") {
  fs::path work = work_dir();
  int ran = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(CAKE_EXAMPLES_DIR))
    if (entry.path().extension() == ".cake") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    auto a = analyze(read(file));
    const Module& m = a->module;
    std::vector<std::string> targets = file_targets(m, {});
    REQUIRE_FALSE(targets.empty());
    for (uint32_t k = 0; k < m.kernels.size(); ++k) {
      codegen::Lowered low = codegen::lower(*a, k, targets[0], file.string());
      if (!low.ok()) continue;
      INFO(file.filename().string() << ": " << low.plan.kernel);
      run_on_host(m, k, low, work);
      ++ran;
    }
  }
  fs::remove_all(work);
  CHECK(ran >= 11);
}

TEST_CASE("each op's minimal kernel that lowers computes on the host what the CPU executor computes") {
  // On the first target that has its ops (tests/codegen/op_kernels.h).
  fs::path work = work_dir();
  int ran = 0;
  for (const testing::OpKernel& op : testing::op_kernels()) {
    for (const TargetInfo& t : all_targets()) {
      auto a = analyze("target " + std::string(t.name) + "\n" + op.text + "\n");
      if (count(a->diagnostics).errors > 0) continue;
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/ops/op.cake");
      if (!low.ok()) break;
      INFO("ops " << op.ops << " on " << t.name);
      run_on_host(a->module, 0, low, work);
      ++ran;
      break;
    }
  }
  fs::remove_all(work);
  // loads and stores, cp.async, ldmatrix + mma, mbarriers + elect + a named
  // barrier, arg-reductions.
  CHECK(ran >= 5);
}

// Kernels of fragment forms beyond the ops (tests/codegen/op_kernels.h): on
// the first target that lowers them, as the CPU executor computes. 8-bit
// floats in registers: both the host runtime's conversions and the CPU
// executor's follow the PTX ISA (.satfinite, nearest even).
TEST_CASE("each form kernel computes on the host what the CPU executor computes, and is refused where it cannot lower") {
  fs::path work = work_dir();
  for (const testing::FormKernel& form : testing::form_kernels()) {
    INFO(form.what);
    bool ran = false;
    for (const TargetInfo& t : all_targets()) {
      auto a = analyze("target " + std::string(t.name) + "\n" + form.text + "\n");
      for (const Diagnostic& d : a->diagnostics) INFO(d.message);
      bool before = t.name != form.first_target && !ran;
      if (before && count(a->diagnostics).errors > 0) {
        // Before its first target the verifier may refuse it (a dtype the
        // target's tensor cores lack: E02xx), on `refused_at`.
        const Diagnostic& d = a->diagnostics[0];
        CHECK(rule_info(d.id).code.starts_with("CAKE-E02"));
        CHECK(a->text.substr(d.range.begin, d.range.end - d.range.begin) == form.refused_at);
        continue;
      }
      REQUIRE(count(a->diagnostics).errors == 0);
      codegen::Lowered low = codegen::lower(*a, 0, std::string(t.name), "/forms/form.cake");
      if (before) {
        // Or the lowering refuses it, on `refused_at`.
        REQUIRE_FALSE(low.ok());
        const ByteRange& at = low.diagnostics[0].range;
        CHECK(a->text.substr(at.begin, at.end - at.begin) == form.refused_at);
        continue;
      }
      for (const Diagnostic& d : low.diagnostics) INFO(d.message);
      REQUIRE(low.ok());
      INFO(low.plan.kernel << " on " << t.name);
      run_on_host(a->module, 0, low, work);
      ran = true;
      break;
    }
    CHECK(ran);
  }
  fs::remove_all(work);
}

// The published stream-K FP8 GEMM (tests/cost/published/gemm_h100.cake):
// TMA with B multicast in 2-CTA clusters, wgmma k32, a flush of the
// accumulator with store.add at each tile's end or the cluster's run's,
// uneven runs over 66 clusters: on the host as the CPU executor computes.
TEST_CASE("the published stream-K FP8 GEMM computes on the host what the CPU executor computes") {
  fs::path file = fs::path(CAKE_TESTS_DIR) / "cost/published/gemm_h100.cake";
  auto a = analyze(read(file));
  REQUIRE(count(a->diagnostics).errors == 0);
  const Module& m = a->module;
  uint32_t k = 0;
  while (k < m.kernels.size() && m.symbols[m.kernels[k].symbol].name != "wgmma_f8_128x256_c2_sk") ++k;
  REQUIRE(k < m.kernels.size());
  codegen::Lowered low = codegen::lower(*a, k, "sm_90a", file.string());
  for (const Diagnostic& d : low.diagnostics) INFO(d.message);
  REQUIRE(low.ok());
  fs::path work = work_dir();
  run_on_host(m, k, low, work);
  fs::remove_all(work);
}

/// Kernels `make` gives for seeds CAKE_RANDOM_SEED (default 1) on,
/// CAKE_RANDOM_KERNELS of them (default `count`): each is accepted by the
/// verifier, lowers, compiles with NVRTC where NVRTC is found, and computes
/// on the host what the CPU executor computes.
void run_random_kernels(testing::RandomKernel (*make)(uint64_t), uint64_t count) {
  auto number = [](const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
  };
  count = number("CAKE_RANDOM_KERNELS", count);
  uint64_t first = number("CAKE_RANDOM_SEED", 1);
  fs::path work = work_dir();
  for (uint64_t seed = first; seed < first + count; ++seed) {
    testing::RandomKernel r = make(seed);
    std::string text = "target " + r.target + "\n" + r.text;
    INFO("seed " << seed << ": " << r.what << "\n" << text);
    auto a = analyze(text);
    std::string errors;
    for (const Diagnostic& d : a->diagnostics)
      if (d.severity == Severity::Error) errors += "  " + d.message + "\n";
    if (!errors.empty()) {
      FAIL_CHECK("the verifier refuses it:\n" << errors);
      continue;
    }
    codegen::Lowered low = codegen::lower(*a, 0, r.target, "/random/seed" + std::to_string(seed) + ".cake");
    if (!low.ok()) {
      for (const Diagnostic& d : low.diagnostics) errors += "  " + d.message + "\n";
      FAIL_CHECK("the lowering refuses it:\n" << errors);
      continue;
    }
    // NVRTC is stricter than the host compiler (an `isnan` of an int is
    // ambiguous there): where it is at hand, the kernel compiles with it.
    if (codegen::available()) {
      codegen::CompileRequest request;
      request.source = low.cuda;
      request.arch = r.target;
      request.line_info = false;
      codegen::CompileResult built = codegen::compile(request);
      INFO(built.error << "\n" << built.log);
      CHECK(built.ok);
    }
    run_on_host(a->module, 0, low, work);
  }
  fs::remove_all(work);
}

/// Every generator of `group` (tests/codegen/random_generators.h), each
/// for its default count of seeds.
void run_random_group(std::string_view group) {
  for (const testing::RandomGenerator& g : testing::random_generators)
    if (g.group == group) {
      INFO(g.what << " kernels");
      run_random_kernels(g.make, g.host_seeds);
    }
}

// Random kernels of register fragments (tests/codegen/random_kernels.h).
TEST_CASE("random fragment kernels compute on the host what the CPU executor computes", "[random]") {
  run_random_group("random");
}

// Random mma.sync, wgmma and tcgen05.mma kernels (tests/codegen/random_mma_kernels.h).
TEST_CASE("random MMA kernels compute on the host what the CPU executor computes", "[random-mma]") {
  run_random_group("random-mma");
}

// Random rings of stages and GEMM pipelines (tests/codegen/random_pipeline_kernels.h).
TEST_CASE("random pipelines compute on the host what the CPU executor computes", "[random-pipeline]") {
  run_random_group("random-pipeline");
}

// Hidden (run by name or tag): every kernel of the file CAKE_HOST_RUN_FILE
// names, on its first target, on the host against the CPU executor. For a
// kernel being written or a failure being reduced:
//   CAKE_HOST_RUN_FILE=k.cake build/bin/cake-codegen-host-run-test "[.file]"
TEST_CASE("the kernels of the file CAKE_HOST_RUN_FILE compute on the host what the CPU executor computes", "[.file]") {
  const char* path = std::getenv("CAKE_HOST_RUN_FILE");
  REQUIRE(path != nullptr);
  auto a = analyze(read(path));
  for (const Diagnostic& d : a->diagnostics) INFO(d.message);
  REQUIRE(count(a->diagnostics).errors == 0);
  REQUIRE(!a->module.targets.empty());
  std::string target(a->module.targets[0].name);
  fs::path work = work_dir();
  for (uint32_t k = 0; k < a->module.kernels.size(); ++k) {
    codegen::Lowered low = codegen::lower(*a, k, target, path);
    for (const Diagnostic& d : low.diagnostics) INFO(d.message);
    REQUIRE(low.ok());
    INFO(low.plan.kernel << " on " << target);
    run_on_host(a->module, k, low, work);
  }
  fs::remove_all(work);
}
