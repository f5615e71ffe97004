// In-process CUDA compiles with NVRTC: one program per kernel × target,
// straight to a cubin (whole-program: no -rdc, no nvJitLink, which drop
// setmaxnreg), with ptxas's resource report read back from the log. Built
// only when the CUDA Toolkit's NVRTC is found (CAKE_HAVE_NVRTC); without
// it, compile() says so and available() is false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cake::codegen {

/// An in-memory header passed to NVRTC (nothing is read from disk).
struct Header {
  std::string name, text;
};

struct CompileRequest {
  std::string source;
  std::string name = "kernel.cu";   // the program's file name in messages
  std::string arch;                  // "sm_80", "sm_90a", "sm_100a"
  std::vector<Header> headers;
  std::vector<std::string> options;  // extra NVRTC options
  bool line_info = true;             // -lineinfo: SASS maps to `#line` files
};

/// ptxas's report for one function (`-v`).
struct FunctionResources {
  std::string function;
  int64_t registers = 0, barriers = 0;
  int64_t spill_stores = 0, spill_loads = 0;  // bytes
  int64_t stack = 0, shared = 0, local = 0;   // bytes
};

struct CompileResult {
  bool ok = false;
  std::string log;                       // NVRTC's program log (front end and ptxas)
  std::string ptx;                       // also after a ptxas failure
  std::vector<char> cubin;
  std::vector<FunctionResources> resources;
  std::string error;                     // why there is no cubin, when !ok
};

/// Whether NVRTC can compile: this build found it, and its library loads
/// (loaded on the first call of this or compile()).
bool available();
/// Whether this build found NVRTC, without loading its library.
bool built_with_nvrtc();
/// Why available() is false ("" when it is true): built without NVRTC, or
/// its library (`$CAKE_NVRTC` when set, else the toolkit's found at build
/// time, else its soname on the loader's path) did not load.
std::string why_unavailable();
/// NVRTC's version, "13.0", or "" without NVRTC.
std::string version();
/// Compiles `request`; never throws.
CompileResult compile(const CompileRequest& request);

/// ptxas's `-v` lines in `log` (nvcc's and NVRTC's continuation styles).
std::vector<FunctionResources> parse_resources(const std::string& log);

}  // namespace cake::codegen
