// The CUDA driver through dlopen and cuGetProcAddress; see driver.h.
#include "driver.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <thread>

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
                           double& milliseconds, double limit_seconds) {
  if (smem > 48 * 1024) {
    std::string e = check(cuFuncSetAttribute_(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(smem)),
                          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
    if (!e.empty()) return e;
  }
  CUevent start = nullptr, stop = nullptr;
  std::string e = check(cuEventCreate_(&start, CU_EVENT_DEFAULT), "cuEventCreate");
  if (e.empty()) e = check(cuEventCreate_(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  if (e.empty()) e = check(cuEventRecord_(start, nullptr), "cuEventRecord");
  if (e.empty())
    e = check(cuLaunchKernel_(f, grid[0], grid[1], grid[2], block, 1, 1, smem, nullptr, params, nullptr),
              "cuLaunchKernel");
  if (e.empty()) e = check(cuEventRecord_(stop, nullptr), "cuEventRecord");
  // Polled, not synchronised: a kernel that hangs must not hang the check.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_seconds);
  while (e.empty()) {
    CUresult r = cuEventQuery_(stop);
    if (r == CUDA_SUCCESS) break;
    if (r != CUDA_ERROR_NOT_READY) {
      e = check(r, "the kernel");
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      char text[96];
      std::snprintf(text, sizeof text, "the kernel was still running after %.0f s: a hang", limit_seconds);
      hung_ = true;
      return text;  // the events stay: destroying them would wait on the kernel
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  float ms = 0;
  if (e.empty()) e = check(cuEventElapsedTime_(&ms, start, stop), "cuEventElapsedTime");
  milliseconds = ms;
  if (start) cuEventDestroy_(start);
  if (stop) cuEventDestroy_(stop);
  return e;
}

std::string Driver::encode_tensor_map(CUtensorMap& map, CUdeviceptr base, const std::string& dtype, int element_bits,
                                      const std::vector<int64_t>& dims, const std::vector<int64_t>& box, int swizzle) {
  CUtensorMapDataType type;
  if (dtype == "bf16") type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  else if (dtype == "f16") type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  else if (dtype == "f32") type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  else if (dtype == "i32") type = CU_TENSOR_MAP_DATA_TYPE_INT32;
  else if (dtype == "u8" || dtype == "f8e4m3" || dtype == "f8e5m2") type = CU_TENSOR_MAP_DATA_TYPE_UINT8;  // 8-bit floats: their bytes
  // Packed 6- and 4-bit floats, sixteen to a 16-byte chunk of shared memory
  // (what tcgen05.mma's kind::f8f6f4 reads).
  else if (dtype == "f4e2m1") type = CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B;
  else if (dtype == "f6e3m2" || dtype == "f6e2m3") type = CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  else return "a tensor map of " + dtype + " is not encoded by this runner";
  CUtensorMapSwizzle mode = swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                            : swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                            : swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                            : CU_TENSOR_MAP_SWIZZLE_NONE;
  size_t rank = dims.size();
  if (rank == 0 || rank > 5 || box.size() != rank) return "a tensor map of rank " + std::to_string(rank);
  cuuint64_t global[5], strides[4];
  cuuint32_t boxes[5], elements[5];
  cuuint64_t stride = static_cast<cuuint64_t>(element_bits);  // in bits until the first row
  for (size_t i = 0; i < rank; ++i) {
    global[i] = static_cast<cuuint64_t>(dims[i]);
    boxes[i] = static_cast<cuuint32_t>(box[i]);
    elements[i] = 1;
    stride *= global[i];
    if (i == 0) stride /= 8;  // a row's bytes (a packed row is whole bytes: 128 values at a time)
    if (i + 1 < rank) strides[i] = stride;  // bytes to the next index of dim i + 1
  }
  return check(cuTensorMapEncodeTiled_(&map, type, static_cast<cuuint32_t>(rank), reinterpret_cast<void*>(base), global,
                                       strides, boxes, elements, CU_TENSOR_MAP_INTERLEAVE_NONE, mode,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
               "cuTensorMapEncodeTiled");
}

int Driver::registers(CUfunction f) const {
  int n = 0;
  cuFuncGetAttribute_(&n, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  return n;
}

}  // namespace cake::gpu
