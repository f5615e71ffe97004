// NVRTC compiles and ptxas's report; see cake/codegen/nvrtc.h.
#include "cake/codegen/nvrtc.h"

#include <regex>
#include <sstream>

#ifdef CAKE_HAVE_NVRTC
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <type_traits>
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

namespace {

/// NVRTC's entry points, from the library loaded on first use: linked at
/// start-up, its 109 MB took about 40 ms and 30 MB of resident memory from every
/// `cake` and `cake-lsp` run, most of which never compile
/// (docs/benchmarks.md).
struct Nvrtc {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  std::string load_error;  // why it did not load; empty when it did
};

const Nvrtc& nvrtc() {
  static const Nvrtc api = [] {
    Nvrtc n;
    // $CAKE_NVRTC when set; else the toolkit's library found at build
    // time, else the same soname on the loader's search path.
    const char* chosen = std::getenv("CAKE_NVRTC");
    std::string name = chosen && *chosen ? chosen : CAKE_NVRTC_SONAME;
    void* lib = nullptr;
    if (chosen && *chosen) lib = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    else if (!(lib = dlopen(CAKE_NVRTC_LIBRARY, RTLD_NOW | RTLD_LOCAL))) lib = dlopen(CAKE_NVRTC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      n.load_error = "could not load NVRTC (" + name + "): " + (why ? why : "not found");
      return n;
    }
    bool missing = false;
    auto get = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      missing |= fn == nullptr;
    };
    get(n.version, "nvrtcVersion");
    get(n.error_string, "nvrtcGetErrorString");
    get(n.create, "nvrtcCreateProgram");
    get(n.compile, "nvrtcCompileProgram");
    get(n.log_size, "nvrtcGetProgramLogSize");
    get(n.log, "nvrtcGetProgramLog");
    get(n.ptx_size, "nvrtcGetPTXSize");
    get(n.ptx, "nvrtcGetPTX");
    get(n.cubin_size, "nvrtcGetCUBINSize");
    get(n.cubin, "nvrtcGetCUBIN");
    get(n.destroy, "nvrtcDestroyProgram");
    if (missing) n.load_error = name + " lacks an NVRTC function cake calls";
    return n;
  }();
  return api;
}

}  // namespace

bool available() { return nvrtc().load_error.empty(); }
bool built_with_nvrtc() { return true; }
std::string why_unavailable() { return nvrtc().load_error; }

std::string version() {
  const Nvrtc& api = nvrtc();
  int major = 0, minor = 0;
  if (!api.load_error.empty() || api.version(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile(const CompileRequest& r) {
  CompileResult out;
  const Nvrtc& api = nvrtc();
  if (!api.load_error.empty()) {
    out.error = api.load_error + "; lowering to a cubin needs the CUDA Toolkit's NVRTC";
    return out;
  }
  std::vector<const char*> names, texts;
  for (const Header& h : r.headers) {
    names.push_back(h.name.c_str());
    texts.push_back(h.text.c_str());
  }
  nvrtcProgram program = nullptr;
  nvrtcResult status = api.create(&program, r.source.c_str(), r.name.c_str(), static_cast<int>(names.size()),
                                  texts.data(), names.data());
  if (status != NVRTC_SUCCESS) {
    out.error = api.error_string(status);
    return out;
  }
  std::vector<std::string> options{"--gpu-architecture=" + r.arch, "--ptxas-options=-v", "-std=c++17"};
  if (r.line_info) options.push_back("-lineinfo");
  options.insert(options.end(), r.options.begin(), r.options.end());
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  status = api.compile(program, static_cast<int>(argv.size()), argv.data());
  size_t size = 0;
  if (api.log_size(program, &size) == NVRTC_SUCCESS && size > 1) {
    out.log.resize(size);
    api.log(program, out.log.data());
    out.log.resize(size - 1);
  }
  // The PTX is there even when ptxas failed: its errors index it.
  if (api.ptx_size(program, &size) == NVRTC_SUCCESS && size > 1) {
    out.ptx.resize(size);
    api.ptx(program, out.ptx.data());
    out.ptx.resize(size - 1);
  }
  if (status == NVRTC_SUCCESS && api.cubin_size(program, &size) == NVRTC_SUCCESS && size > 0) {
    out.cubin.resize(size);
    api.cubin(program, out.cubin.data());
    out.ok = true;
  } else if (status != NVRTC_SUCCESS) {
    out.error = api.error_string(status);
  }
  api.destroy(&program);
  out.resources = parse_resources(out.log);
  return out;
}

#else

bool available() { return false; }
bool built_with_nvrtc() { return false; }
std::string why_unavailable() { return "this cake was built without the CUDA Toolkit's NVRTC"; }
std::string version() { return ""; }
CompileResult compile(const CompileRequest&) {
  CompileResult out;
  out.error = "this cake was built without the CUDA Toolkit's NVRTC; lowering to a cubin needs it";
  return out;
}

#endif

}  // namespace cake::codegen
