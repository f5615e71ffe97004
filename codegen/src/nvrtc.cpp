// NVRTC compiles and ptxas's report; see cake/codegen/nvrtc.h.
#include "cake/codegen/nvrtc.h"

#include <regex>
#include <sstream>

#ifdef CAKE_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace cake::codegen {

std::vector<FunctionResources> parse_resources(const std::string& log) {
  // ptxas -v, one block per function:
  //   ptxas info    : Compiling entry function 'k' for 'sm_90a'
  //   ptxas info    : Function properties for k
  //   [ptxas         .]    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 8 registers, used 1 barriers, 360 bytes cmem[0]
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex lmem(R"((\d+) bytes lmem)");
  std::vector<FunctionResources> out;
  std::istringstream in(log);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      out.push_back({});
      out.back().function = m[1];
      continue;
    }
    if (out.empty()) continue;
    FunctionResources& f = out.back();
    if (std::regex_search(line, m, frame)) {
      f.stack = std::stoll(m[1]);
      f.spill_stores = std::stoll(m[2]);
      f.spill_loads = std::stoll(m[3]);
    }
    if (std::regex_search(line, m, used)) f.registers = std::stoll(m[1]);
    if (std::regex_search(line, m, barriers)) f.barriers = std::stoll(m[1]);
    if (std::regex_search(line, m, smem)) f.shared = std::stoll(m[1]);
    if (std::regex_search(line, m, lmem)) f.local = std::stoll(m[1]);
  }
  return out;
}

#ifdef CAKE_HAVE_NVRTC

bool available() { return true; }

std::string version() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile(const CompileRequest& r) {
  CompileResult out;
  std::vector<const char*> names, texts;
  for (const Header& h : r.headers) {
    names.push_back(h.name.c_str());
    texts.push_back(h.text.c_str());
  }
  nvrtcProgram program = nullptr;
  nvrtcResult status = nvrtcCreateProgram(&program, r.source.c_str(), r.name.c_str(), static_cast<int>(names.size()),
                                          texts.data(), names.data());
  if (status != NVRTC_SUCCESS) {
    out.error = nvrtcGetErrorString(status);
    return out;
  }
  std::vector<std::string> options{"--gpu-architecture=" + r.arch, "--ptxas-options=-v", "-std=c++17"};
  if (r.line_info) options.push_back("-lineinfo");
  options.insert(options.end(), r.options.begin(), r.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  status = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) == NVRTC_SUCCESS && size > 1) {
    out.log.resize(size);
    nvrtcGetProgramLog(program, out.log.data());
    out.log.resize(size - 1);
  }
  // The PTX is there even when ptxas failed: its errors index it.
  if (nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS && size > 1) {
    out.ptx.resize(size);
    nvrtcGetPTX(program, out.ptx.data());
    out.ptx.resize(size - 1);
  }
  if (status == NVRTC_SUCCESS && nvrtcGetCUBINSize(program, &size) == NVRTC_SUCCESS && size > 0) {
    out.cubin.resize(size);
    nvrtcGetCUBIN(program, out.cubin.data());
    out.ok = true;
  } else if (status != NVRTC_SUCCESS) {
    out.error = nvrtcGetErrorString(status);
  }
  nvrtcDestroyProgram(&program);
  out.resources = parse_resources(out.log);
  return out;
}

#else

bool available() { return false; }
std::string version() { return ""; }
CompileResult compile(const CompileRequest&) {
  CompileResult out;
  out.error = "this cake was built without the CUDA Toolkit's NVRTC; lowering to a cubin needs it";
  return out;
}

#endif

}  // namespace cake::codegen
