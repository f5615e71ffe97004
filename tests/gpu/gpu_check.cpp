// cake-gpu-check: every example kernel that lowers (docs/lowering.md), run on
// the GPU it finds and compared with the CPU executor's outputs for the same
// seeded inputs (the shapes of tests/codegen/kernel_io.h), with the
// executor's tolerances. A kernel whose target the GPU cannot run (sm_100a
// code on an H200) is skipped, saying so. Without a driver or a GPU it
// prints why and exits 77 (CTest: skipped). Exit 0: every kernel that could
// run matched; 1: a mismatch, a compile or launch failure.
//
// Usage: cake-gpu-check [EXAMPLES_DIR]        (tests/gpu/run.sh wraps it)
#include "driver.h"
#include "kernel_io.h"
#include "support/test_files.h"

#include "cake/codegen/nvrtc.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace cake;

std::string read(const fs::path& p) { return cake::test::read_file(p).value_or(""); }

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

}  // namespace

int main(int argc, char** argv) {
  std::string why;
  std::unique_ptr<gpu::Driver> driver = gpu::Driver::load(why);
  if (!driver) {
    std::printf("cake-gpu-check: skipped: %s\n", why.c_str());
    return 77;
  }
  if (!codegen::available()) {
    std::printf("cake-gpu-check: skipped: this build has no NVRTC\n");
    return 77;
  }
  std::printf("cake-gpu-check: %s (sm_%d%d), NVRTC %s\n", driver->device_name().c_str(), driver->major(),
              driver->minor(), codegen::version().c_str());
  fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path(CAKE_EXAMPLES_DIR);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cake") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  int ran = 0, failed = 0, skipped = 0;
  for (const fs::path& file : files) {
    auto a = analyze(read(file));
    const Module& m = a->module;
    for (uint32_t k = 0; k < m.kernels.size(); ++k) {
      std::string kernel(m.symbols[m.kernels[k].symbol].name);
      for (const std::string& target : file_targets(m, {})) {
        std::string label = file.filename().string() + " " + kernel + " " + target;
        codegen::Lowered low = codegen::lower(*a, k, target, fs::absolute(file).string());
        if (!low.ok()) {
          std::printf("  not lowered yet  %s: %s\n", label.c_str(), low.diagnostics[0].message.c_str());
          ++skipped;
          continue;
        }
        std::string arch = arch_for(target, driver->major(), driver->minor());
        if (arch.empty()) {
          std::printf("  skipped          %s: this GPU cannot run %s code\n", label.c_str(), target.c_str());
          ++skipped;
          continue;
        }
        testing::KernelCase c = testing::make_case(m, k, low.plan, 7);
        if (!c.error.empty()) {
          std::printf("  FAILED           %s: %s\n", label.c_str(), c.error.c_str());
          ++failed;
          continue;
        }
        codegen::CompileRequest request;
        request.source = low.cuda;
        request.name = kernel + ".cu";
        request.arch = arch;
        codegen::CompileResult compiled = codegen::compile(request);
        if (!compiled.ok) {
          std::printf("  FAILED           %s: compile for %s: %s\n%s\n", label.c_str(), arch.c_str(),
                      compiled.error.c_str(), compiled.log.c_str());
          ++failed;
          continue;
        }
        CUmodule module = nullptr;
        CUfunction function = nullptr;
        std::string error = driver->load_kernel(compiled.cubin, low.plan.kernel, module, function);
        std::vector<CUdeviceptr> device(c.arguments.size(), 0);
        std::vector<CUtensorMap> maps(c.arguments.size());
        std::vector<void*> params;
        for (size_t i = 0; i < c.arguments.size() && error.empty(); ++i) {
          testing::Argument& arg = c.arguments[i];
          if (arg.kind == codegen::LaunchParam::Kind::TensorMap) {
            // Its tensor comes before it, so is on the device already.
            error = driver->encode_tensor_map(maps[i], device[arg.map_tensor], arg.map.dtype,
                                              static_cast<int>(arg.map.element_bytes), arg.map_dims, arg.map.box,
                                              static_cast<int>(arg.map.swizzle));
            params.push_back(&maps[i]);
            continue;
          }
          if (arg.kind != codegen::LaunchParam::Kind::Tensor) {
            params.push_back(&arg.scalar);
            continue;
          }
          error = driver->alloc(arg.bytes.size(), device[i]);
          if (error.empty()) error = driver->to_device(device[i], arg.bytes.data(), arg.bytes.size());
          params.push_back(&device[i]);
        }
        double ms = 0;
        unsigned grid[3] = {unsigned(c.grid[0]), unsigned(c.grid[1]), unsigned(c.grid[2])};
        if (error.empty())
          error = driver->launch(function, grid, unsigned(low.plan.block), unsigned(low.plan.dynamic_smem),
                                 params.data(), ms);
        for (size_t i = 0; i < c.arguments.size() && error.empty(); ++i)
          if (c.arguments[i].kind == codegen::LaunchParam::Kind::Tensor)
            error = driver->to_host(c.arguments[i].bytes.data(), device[i], c.arguments[i].bytes.size());
        int registers = function ? driver->registers(function) : 0;
        for (CUdeviceptr p : device)
          if (p) driver->free(p);
        if (module) driver->unload(module);
        if (!error.empty()) {
          std::printf("  FAILED           %s: %s\n", label.c_str(), error.c_str());
          ++failed;
          // A failed launch can leave the context unusable: stop here.
          break;
        }
        std::vector<std::string> wrong = testing::mismatches(c);
        std::printf("  %-16s %s as %s at %s: %d registers, %.3f ms\n", wrong.empty() ? "ok" : "MISMATCH", label.c_str(),
                    arch.c_str(), c.shape.text.c_str(), registers, ms);
        for (const std::string& w : wrong) std::printf("                   %s\n", w.c_str());
        if (!wrong.empty()) ++failed;
        ++ran;
      }
    }
  }
  std::printf("cake-gpu-check: %d ran, %d failed, %d not run (not lowered yet, or not for this GPU)\n", ran, failed,
              skipped);
  return failed > 0 || ran == 0 ? 1 : 0;
}
