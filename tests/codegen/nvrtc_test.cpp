// The NVRTC layer (cake/codegen/nvrtc.h): a small kernel compiles to a cubin
// for each target family in-process, ptxas's report is read back (registers,
// barriers, spills), a front-end error comes back in the log with its
// `#line` file and line, and the report parser reads both nvcc's and NVRTC's
// styles; the cubin cache (cache.h) answers a repeated compile. Without NVRTC the test is skipped (exit 77), saying why.
#include <catch2/catch.hpp>

#include "cake/codegen/cache.h"
#include "cake/codegen/nvrtc.h"

#include <unistd.h>

#include <filesystem>

#include <cstdlib>
#include <iostream>

namespace {

using namespace cake::codegen;

const char* kKernel = R"(
#line 3 "probe.cake"
extern "C" __global__ void probe(float* out, const float* in, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = s[127 - threadIdx.x] * 2.0f;
}
)";

}  // namespace

TEST_CASE("ptxas reports are read in nvcc's and NVRTC's styles") {
  std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'hopper_gemm' for 'sm_90a'\n"
      "ptxas info    : Function properties for hopper_gemm\n"
      "ptxas         .     8 bytes stack frame, 52 bytes spill stores, 52 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 8 bytes lmem, 1024 bytes smem, 552 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
      "ptxas info    : Function properties for k2\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, 360 bytes cmem[0]\n";
  auto r = parse_resources(log);
  REQUIRE(r.size() == 2);
  CHECK(r[0].function == "hopper_gemm");
  CHECK(r[0].registers == 168);
  CHECK(r[0].barriers == 1);
  CHECK(r[0].stack == 8);
  CHECK(r[0].spill_stores == 52);
  CHECK(r[0].spill_loads == 52);
  CHECK(r[0].local == 8);
  CHECK(r[0].shared == 1024);
  CHECK(r[1].function == "k2");
  CHECK(r[1].registers == 12);
  CHECK(r[1].spill_stores == 0);
}

TEST_CASE("a kernel compiles in-process for every target family") {
  if (!available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  INFO("NVRTC " << version());
  for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a"}) {
    CompileRequest r;
    r.source = kKernel;
    r.name = "probe.cu";
    r.arch = arch;
    CompileResult c = compile(r);
    INFO(arch << "\n" << c.log << c.error);
    REQUIRE(c.ok);
    CHECK(c.cubin.size() > 4);
    CHECK(std::string(c.cubin.data(), 4) == "\x7f" "ELF");
    CHECK(c.ptx.find(".entry probe") != std::string::npos);
    REQUIRE(c.resources.size() == 1);
    CHECK(c.resources[0].function == "probe");
    CHECK(c.resources[0].registers > 0);
    CHECK(c.resources[0].spill_stores == 0);
  }
}

TEST_CASE("a front-end error names the #line file and line") {
  if (!available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  CompileRequest r;
  r.source = "#line 41 \"k.cake\"\nextern \"C\" __global__ void k() { undefined_name = 1; }\n";
  r.arch = "sm_90a";
  CompileResult c = compile(r);
  CHECK_FALSE(c.ok);
  CHECK(c.cubin.empty());
  INFO(c.log);
  CHECK(c.log.find("k.cake(41)") != std::string::npos);
  CHECK(c.log.find("undefined_name") != std::string::npos);
}

TEST_CASE("the cubin cache answers a second compile of the same program, and only that") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("cake-cubin-cache-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  CompileRequest r;
  r.source = kKernel;
  r.name = "probe.cu";
  r.arch = "sm_80";
  CompileRequest other = r;
  other.arch = "sm_90a";
  CompileRequest option = r;
  option.options.push_back("-DCAKE_SOMETHING=1");
  CHECK(cache_key(r) != cache_key(other));
  CHECK(cache_key(r) != cache_key(option));
  CHECK(cache_key(r) == cache_key(CompileRequest(r)));
  if (!available()) {
    WARN("skipped the compiles: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  bool hit = true;
  CompileResult first = compile_cached(r, dir.string(), &hit);
  REQUIRE(first.ok);
  CHECK_FALSE(hit);
  CompileResult second = compile_cached(r, dir.string(), &hit);
  CHECK(hit);
  CHECK(second.ok);
  CHECK(second.cubin == first.cubin);
  CHECK(second.ptx == first.ptx);
  REQUIRE(second.resources.size() == 1);
  CHECK(second.resources[0].registers == first.resources[0].registers);
  compile_cached(other, dir.string(), &hit);
  CHECK_FALSE(hit);  // another architecture is another entry
  // An entry without its cubin does not count: compiled again, and kept.
  fs::remove(dir / (cache_key(r) + ".cubin"));
  compile_cached(r, dir.string(), &hit);
  CHECK_FALSE(hit);
  compile_cached(r, dir.string(), &hit);
  CHECK(hit);
  // A failed compile is not kept.
  CompileRequest bad = r;
  bad.source = "extern \"C\" __global__ void k() { undefined_name = 1; }\n";
  CHECK_FALSE(compile_cached(bad, dir.string(), &hit).ok);
  CHECK_FALSE(fs::exists(dir / (cache_key(bad) + ".cubin")));
  fs::remove_all(dir);
}
