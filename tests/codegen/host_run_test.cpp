// The lowered CUDA computes what the IR says, checked without a GPU: every
// example kernel that lowers is compiled with the host C++ compiler against
// tests/codegen/host/cuda_host.h (threads as fibers, CUDA's barriers and warp
// shuffles kept), run on seeded inputs, and its outputs compared with the
// CPU executor's for the same inputs (exec/, docs/run.md) with the
// executor's tolerances. This checks the lowering's arithmetic: where each
// register of a fragment sits, addresses, reductions, rounding. Instruction
// semantics on a real GPU are tests/gpu/'s to check.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/exec/numeric.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"

#include <dlfcn.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Shapes larger than the smallest legal one, so loops run more than once
// and several blocks run; small enough for a CPU. Kernels not named here
// run at the smallest shape their facts allow.
const std::map<std::string, std::vector<std::pair<std::string, int64_t>>> kShapes = {
    {"row_softmax", {{"R", 32}}},
    {"row_softmax_ref", {{"R", 32}}},
    {"hopper_gemm_ref", {{"M", 3}, {"N", 256}, {"K", 40}}},
    {"ampere_gemm_ref", {{"M", 5}, {"N", 128}, {"K", 40}}},
    {"blackwell_gemm_ref", {{"M", 3}, {"N", 256}, {"K", 40}}},
    {"kmeans_ref", {{"N", 200}, {"K", 20}}},
    {"kmeans_assign_ref", {{"N", 200}, {"K", 20}}},
};

struct Buffer {
  std::vector<unsigned char> bytes;
  void* pointer = nullptr;  // what the kernel gets (a tensor's data)
  long long scalar = 0;
};

/// The bytes of a parameter as the kernel's C++ type holds them.
std::vector<unsigned char> to_bytes(DType dtype, const std::vector<double>& values) {
  std::vector<unsigned char> out;
  auto put = [&](const void* p, size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  };
  for (double v : values) {
    switch (dtype) {
      case DType::F32: { float f = static_cast<float>(v); put(&f, 4); break; }
      case DType::BF16: {
        // Values are already rounded into bf16: the top half of the f32.
        uint32_t u = std::bit_cast<uint32_t>(static_cast<float>(v));
        uint16_t h = static_cast<uint16_t>(u >> 16);
        put(&h, 2);
        break;
      }
      case DType::I32: { int32_t i = static_cast<int32_t>(v); put(&i, 4); break; }
      default: FAIL("a parameter dtype this test does not convert: " << dtype_name(dtype));
    }
  }
  return out;
}

std::vector<double> from_bytes(DType dtype, const std::vector<unsigned char>& bytes) {
  std::vector<double> out;
  size_t size = dtype == DType::BF16 ? 2 : 4;
  for (size_t at = 0; at + size <= bytes.size(); at += size) {
    switch (dtype) {
      case DType::F32: { float f; std::memcpy(&f, &bytes[at], 4); out.push_back(f); break; }
      case DType::BF16: {
        uint16_t h;
        std::memcpy(&h, &bytes[at], 2);
        out.push_back(std::bit_cast<float>(uint32_t(h) << 16));
        break;
      }
      case DType::I32: { int32_t i; std::memcpy(&i, &bytes[at], 4); out.push_back(i); break; }
      default: FAIL("a parameter dtype this test does not convert: " << dtype_name(dtype));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every kernel that lowers computes on the host what the CPU executor computes") {
  fs::path work = fs::temp_directory_path() / ("cake-host-run-" + std::to_string(::getpid()));
  fs::create_directories(work);
  int ran = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(CAKE_EXAMPLES_DIR))
    if (entry.path().extension() == ".cake") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    auto a = analyze(read(file));
    const Module& m = a->module;
    for (uint32_t k = 0; k < m.kernels.size(); ++k) {
      std::string name(m.symbols[m.kernels[k].symbol].name);
      std::vector<std::string> targets = file_targets(m, {});
      REQUIRE_FALSE(targets.empty());
      codegen::Lowered low = codegen::lower(*a, k, targets[0], file.string());
      if (!low.ok()) continue;
      INFO(file.filename().string() << ": " << name);

      // Inputs, and what the executor computes from them.
      auto it = kShapes.find(name);
      exec::ShapeChoice shape = exec::choose_shape(m, k, -1, it == kShapes.end() ? decltype(it->second){} : it->second);
      INFO(shape.error);
      REQUIRE(shape.error.empty());
      INFO("shape " << shape.text);
      std::vector<exec::TensorData> inputs;
      std::string error;
      REQUIRE(exec::make_inputs(m, k, shape.values, 7, inputs, error));
      exec::RunResult want = exec::run_kernel(m, k, shape.values, inputs, {});
      REQUIRE(want.completed());
      REQUIRE(want.problems.empty());

      // The lowered code and a call of it from an argument array, built
      // as a shared object with the host compiler.
      std::string entry = "static void cake_entry(void** a) {\n  " + low.plan.kernel + "(";
      for (size_t i = 0; i < low.plan.params.size(); ++i) {
        const codegen::LaunchParam& p = low.plan.params[i];
        std::string type = p.kind == codegen::LaunchParam::Kind::Tensor ? p.ctype.substr(0, p.ctype.find('*') + 1) : p.ctype;
        entry += (i ? ", " : "") + std::string("*(") + type + "*)a[" + std::to_string(i) + "]";
      }
      entry += ");\n}\n";
      entry += "extern \"C\" void cake_host_launch(void** a, const unsigned grid[3], unsigned threads, size_t smem) {\n"
               "  cake_host::run(cake_entry, a, grid, threads, cake_smem, smem);\n}\n";
      fs::path source = work / (name + ".cpp"), object = work / (name + ".so");
      std::ofstream(source) << "#include \"cuda_host.h\"\n" << low.cuda << entry;
      std::string command = std::string(CAKE_HOST_CXX) + " -std=c++20 -O1 -fPIC -shared -w -I" + CAKE_HOST_DIR + " " +
                            source.string() + " " + CAKE_HOST_DIR + "/cuda_host_run.cpp -o " + object.string() +
                            " 2>" + (work / (name + ".log")).string();
      INFO(command << "\n" << read(work / (name + ".log")));
      REQUIRE(std::system(command.c_str()) == 0);
      void* so = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
      REQUIRE(so != nullptr);
      using Launch = void (*)(void**, const unsigned*, unsigned, size_t);
      auto launch = reinterpret_cast<Launch>(dlsym(so, "cake_host_launch"));
      REQUIRE(launch != nullptr);

      // Arguments in the plan's order: tensors and scalars as make_inputs
      // made them, then the shape symbols.
      std::vector<Buffer> buffers(low.plan.params.size());
      std::vector<void*> args;
      size_t tensor = 0;
      for (size_t i = 0; i < low.plan.params.size(); ++i) {
        const codegen::LaunchParam& p = low.plan.params[i];
        Buffer& b = buffers[i];
        if (p.kind == codegen::LaunchParam::Kind::ShapeSymbol) {
          for (const auto& [s, v] : shape.values)
            if (m.symbols[s].name == p.name) b.scalar = v;
          args.push_back(&b.scalar);
          continue;
        }
        const exec::TensorData& t = inputs[tensor++];
        REQUIRE(t.name == p.name);
        if (p.kind == codegen::LaunchParam::Kind::Scalar) {
          b.scalar = static_cast<long long>(t.values.at(0));
          args.push_back(&b.scalar);
          continue;
        }
        b.bytes = to_bytes(t.dtype, t.values);
        b.pointer = b.bytes.data();
        args.push_back(&b.pointer);
      }
      std::vector<int64_t> g = codegen::launch_grid(m, k, shape.values);
      REQUIRE(g.size() == 3);
      unsigned grid[3] = {unsigned(g[0]), unsigned(g[1]), unsigned(g[2])};
      CHECK(int64_t(grid[0]) * grid[1] * grid[2] == want.ctas);
      launch(args.data(), grid, static_cast<unsigned>(low.plan.block), static_cast<size_t>(low.plan.dynamic_smem));
      dlclose(so);

      tensor = 0;
      for (size_t i = 0; i < low.plan.params.size(); ++i) {
        if (low.plan.params[i].kind != codegen::LaunchParam::Kind::Tensor) {
          if (low.plan.params[i].kind == codegen::LaunchParam::Kind::Scalar) ++tensor;
          continue;
        }
        const exec::TensorData& expected = want.tensors[tensor++];
        std::vector<double> got = from_bytes(expected.dtype, buffers[i].bytes);
        exec::Comparison c = exec::compare(expected.dtype, got, expected.values);
        INFO(expected.name << ": " << c.mismatches << " of " << got.size() << " differ, max abs " << c.max_abs
                           << ", max rel " << c.max_rel);
        CHECK(c.matches());
      }
      ++ran;
    }
  }
  fs::remove_all(work);
  CHECK(ran >= 7);
}
