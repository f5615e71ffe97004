// The CUDA driver, loaded at run time (dlopen of libcuda.so.1, every entry
// point through cuGetProcAddress), so that nothing links it and a machine
// without a driver runs everything else: load() then says why there is no
// GPU. Just what the GPU check needs: the device, modules from cubins,
// memory, launches.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cake::gpu {

class Driver {
 public:
  /// The driver and device 0 with its primary context, or null with `why`.
  static std::unique_ptr<Driver> load(std::string& why);
  ~Driver();

  std::string device_name() const { return name_; }
  int major() const { return major_; }
  int minor() const { return minor_; }

  /// "" on success, else the driver's message for `r` with `what`.
  std::string check(CUresult r, const std::string& what) const;

  /// A module loaded from a cubin and its kernel `name`.
  std::string load_kernel(const std::vector<char>& cubin, const std::string& name, CUmodule& module,
                          CUfunction& function);
  void unload(CUmodule module);

  std::string alloc(size_t bytes, CUdeviceptr& ptr);
  void free(CUdeviceptr ptr);
  std::string to_device(CUdeviceptr dst, const void* src, size_t bytes);
  std::string to_host(void* dst, CUdeviceptr src, size_t bytes);
  /// Launches and waits for the kernel, `params` as cuLaunchKernel takes
  /// them; `milliseconds` is the GPU's time between events around it. A
  /// kernel still running after `limit_seconds` (a hang: a barrier nobody
  /// arrives on) is an error, and hung() says so from then on: the context
  /// is unusable.
  std::string launch(CUfunction f, const unsigned grid[3], unsigned block, unsigned smem, void** params,
                     double& milliseconds, double limit_seconds);
  /// A tiled tensor map of the row-major tensor at `base` (dims innermost
  /// first, `element_bits` each: 4 or 6 for the packed 6- and 4-bit floats)
  /// with `box` and a swizzle of `swizzle` bytes (0, 32, 64, 128):
  /// cuTensorMapEncodeTiled, as the launch plan says (docs/lowering.md).
  std::string encode_tensor_map(CUtensorMap& map, CUdeviceptr base, const std::string& dtype, int element_bits,
                                const std::vector<int64_t>& dims, const std::vector<int64_t>& box, int swizzle);
  bool hung() const { return hung_; }
  /// The registers per thread the loaded kernel uses.
  int registers(CUfunction f) const;

 private:
  Driver() = default;
  void* library_ = nullptr;
  std::string name_;
  int major_ = 0, minor_ = 0;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  bool hung_ = false;

#define CAKE_DRIVER_FN(NAME) decltype(&::NAME) NAME##_ = nullptr;
#include "driver_functions.def"
#undef CAKE_DRIVER_FN
};

}  // namespace cake::gpu
