// The CUDA driver through dlopen and cuGetProcAddress; see driver.h.
#include "driver.h"

#include <dlfcn.h>

#include <chrono>

namespace cake::gpu {

std::unique_ptr<Driver> Driver::load(std::string& why) {
  std::unique_ptr<Driver> d(new Driver);
  d->library_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!d->library_) {
    const char* e = dlerror();
    why = std::string("no CUDA driver: ") + (e ? e : "libcuda.so.1 not found");
    return nullptr;
  }
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto get = reinterpret_cast<GetProc>(dlsym(d->library_, "cuGetProcAddress_v2"));
  if (!get) {
    why = "the CUDA driver has no cuGetProcAddress_v2 (older than CUDA 12)";
    return nullptr;
  }
  std::string missing;
  CUresult last = CUDA_SUCCESS;
#define CAKE_DRIVER_FN(NAME)                                                                       \
  {                                                                                                \
    CUdriverProcAddressQueryResult status{};                                                       \
    void* fn = nullptr;                                                                            \
    last = get(#NAME, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);                      \
    if (last != CUDA_SUCCESS || !fn) missing += std::string(missing.empty() ? "" : ", ") + #NAME;  \
    d->NAME##_ = reinterpret_cast<decltype(d->NAME##_)>(fn);                                       \
  }
#include "driver_functions.def"
#undef CAKE_DRIVER_FN
  if (last == CUDA_ERROR_STUB_LIBRARY) {
    why = "libcuda.so.1 is the CUDA Toolkit's stub library: no driver is installed";
    return nullptr;
  }
  if (!missing.empty()) {
    why = "the CUDA driver lacks " + missing;
    return nullptr;
  }
  // The toolkit's stub library loads too, and then says so here.
  if (CUresult r = d->cuInit_(0); r != CUDA_SUCCESS) {
    why = "cuInit failed: " + d->check(r, "cuInit");
    return nullptr;
  }
  int count = 0;
  if (d->cuDeviceGetCount_(&count) != CUDA_SUCCESS || count == 0) {
    why = "the CUDA driver sees no GPU";
    return nullptr;
  }
  char name[256] = {};
  if (std::string e = d->check(d->cuDeviceGet_(&d->device_, 0), "cuDeviceGet"); !e.empty()) {
    why = e;
    return nullptr;
  }
  d->cuDeviceGetName_(name, sizeof name, d->device_);
  d->name_ = name;
  d->cuDeviceGetAttribute_(&d->major_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->device_);
  d->cuDeviceGetAttribute_(&d->minor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->device_);
  std::string e = d->check(d->cuDevicePrimaryCtxRetain_(&d->context_, d->device_), "cuDevicePrimaryCtxRetain");
  if (e.empty()) e = d->check(d->cuCtxSetCurrent_(d->context_), "cuCtxSetCurrent");
  if (!e.empty()) {
    why = e;
    return nullptr;
  }
  return d;
}

Driver::~Driver() {
  if (context_ && cuDevicePrimaryCtxRelease_) cuDevicePrimaryCtxRelease_(device_);
  // The library stays loaded: the driver does not expect to be unloaded.
}

std::string Driver::check(CUresult r, const std::string& what) const {
  if (r == CUDA_SUCCESS) return "";
  const char* message = nullptr;
  if (cuGetErrorString_) cuGetErrorString_(r, &message);
  return what + ": " + (message ? message : "error " + std::to_string(static_cast<int>(r)));
}

std::string Driver::load_kernel(const std::vector<char>& cubin, const std::string& name, CUmodule& module,
                                CUfunction& function) {
  if (std::string e = check(cuModuleLoadData_(&module, cubin.data()), "cuModuleLoadData"); !e.empty()) return e;
  return check(cuModuleGetFunction_(&function, module, name.c_str()), "cuModuleGetFunction " + name);
}

void Driver::unload(CUmodule module) { cuModuleUnload_(module); }

std::string Driver::alloc(size_t bytes, CUdeviceptr& ptr) {
  return check(cuMemAlloc_(&ptr, bytes == 0 ? 1 : bytes), "cuMemAlloc");
}

void Driver::free(CUdeviceptr ptr) { cuMemFree_(ptr); }

std::string Driver::to_device(CUdeviceptr dst, const void* src, size_t bytes) {
  return bytes == 0 ? "" : check(cuMemcpyHtoD_(dst, src, bytes), "cuMemcpyHtoD");
}

std::string Driver::to_host(void* dst, CUdeviceptr src, size_t bytes) {
  return bytes == 0 ? "" : check(cuMemcpyDtoH_(dst, src, bytes), "cuMemcpyDtoH");
}

std::string Driver::launch(CUfunction f, const unsigned grid[3], unsigned block, unsigned smem, void** params,
                           double& milliseconds) {
  if (smem > 48 * 1024) {
    std::string e = check(cuFuncSetAttribute_(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(smem)),
                          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
    if (!e.empty()) return e;
  }
  auto t0 = std::chrono::steady_clock::now();
  std::string e = check(cuLaunchKernel_(f, grid[0], grid[1], grid[2], block, 1, 1, smem, nullptr, params, nullptr),
                        "cuLaunchKernel");
  if (e.empty()) e = check(cuCtxSynchronize_(), "the kernel");
  milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return e;
}

int Driver::registers(CUfunction f) const {
  int n = 0;
  cuFuncGetAttribute_(&n, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  return n;
}

}  // namespace cake::gpu
