// The host test runtime's own encoding of a tensor map, in the 128 bytes of
// the kernel's CakeTensorMap parameter: what cuTensorMapEncodeTiled is told
// (docs/lowering.md, "The launch plan"), for cuda_host.h's TMA to read. The
// test harness fills it; a GPU gets the driver's encoding instead.
#pragma once

#include <cstdint>

namespace cake_host {

struct TensorMap {
  const unsigned char* base = nullptr;
  // element_bytes: in shared memory; element_bits: in the tensor, 4 or 6
  // for the packed 16U4/16U6_ALIGN16B types (16 values to a 16-byte chunk
  // of shared memory), else 8 x element_bytes.
  uint32_t rank = 0, element_bytes = 0, swizzle = 0, element_bits = 0;
  uint64_t dims[5] = {};     // innermost first
  uint64_t strides[5] = {};  // bytes between neighbours along each dim (strides[0] = element_bytes; 0 when packed)
  uint32_t box[5] = {};      // innermost first
};
static_assert(sizeof(TensorMap) <= 128, "a tensor map is 128 bytes");

}  // namespace cake_host
