// The host test runtime's own encoding of a tensor map, in the 128 bytes of
// the kernel's CakeTensorMap parameter: what cuTensorMapEncodeTiled is told
// (docs/lowering.md, "The launch plan"), for cuda_host.h's TMA to read. The
// test harness fills it; a GPU gets the driver's encoding instead.
#pragma once

#include <cstdint>

namespace cake_host {

struct TensorMap {
  const unsigned char* base = nullptr;
  uint32_t rank = 0, element_bytes = 0, swizzle = 0, unused = 0;
  uint64_t dims[5] = {};     // innermost first
  uint64_t strides[5] = {};  // bytes between neighbours along each dim (strides[0] = element_bytes)
  uint32_t box[5] = {};      // innermost first
};
static_assert(sizeof(TensorMap) <= 128, "a tensor map is 128 bytes");

}  // namespace cake_host
