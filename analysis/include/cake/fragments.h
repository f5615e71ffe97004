// What a register fragment costs: the threads that own it and the 32-bit
// registers each of them holds (cake-ir.md §4b, Fragments). Read by the
// kernel facts' register plan (cake/kernel_facts.h), which E0304 and the
// cost model's occupancy share, and by the cost model's demand.
#pragma once

#include "cake/model.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "cake/checked.h"

namespace cake {

/// Registers per thread the lowering needs beside the fragments (addresses,
/// indices, loop counters, descriptors): an estimate, documented in
/// docs/rules/CAKE-E0304.md.
inline constexpr int64_t kRegisterOverhead = 16;
/// A warpgroup is 4 consecutive warps (the language's definition, after
/// PTX's wgmma warpgroup).
inline constexpr int64_t kWarpsPerWarpgroup = 4;
/// Threads that hold one row of an mma.sync or wgmma accumulator (a quad of
/// lanes, PTX 9.7.14.5 and 9.7.15.5 fragment layouts).
inline constexpr int64_t kThreadsPerAccRow = 4;
/// Registers are 32 bits wide.
inline constexpr int64_t kRegisterBits = 32;

/// Threads that own one copy of a fragment of this layout (a thread, a warp,
/// a warpgroup).
inline int64_t fragment_owner_threads(FragLayout layout, int64_t warp_size) {
  switch (layout) {
    case FragLayout::None: return 1;
    case FragLayout::MmaAcc:
    case FragLayout::MmaAccRow:
    case FragLayout::Tcgen05Acc: return warp_size;
    case FragLayout::WgmmaAcc:
    case FragLayout::WgmmaAccRow: return warp_size * kWarpsPerWarpgroup;
  }
  return 1;
}

/// The rows [first, end) of a fragment of `rows` rows that warp `warp` (its
/// index in the block) holds: a warpgroup's four warps a quarter each, in
/// order (PTX's wgmma accumulator layout); a warp-owned fragment's warp, or
/// a thread's own values, all of them. Read by the CPU executor (which
/// rows a warp moves) and E0605 (which rows a warp touches).
inline std::pair<int64_t, int64_t> fragment_warp_rows(FragLayout layout, int64_t rows, int64_t warp) {
  if (fragment_owner_threads(layout, 32) <= 32) return {0, rows};
  int64_t q = warp % kWarpsPerWarpgroup;
  return {q * rows / kWarpsPerWarpgroup, (q + 1) * rows / kWarpsPerWarpgroup};
}

/// ⌈values × bits ÷ (owner × 32)⌉ 32-bit registers per thread for a fragment
/// of `elements` values (per owner) of `bits` each; huge on overflow.
inline int64_t fragment_registers(FragLayout layout, int64_t elements, unsigned bits, int64_t warp_size) {
  int64_t owner = fragment_owner_threads(layout, warp_size);
  int64_t per_value = layout == FragLayout::MmaAccRow || layout == FragLayout::WgmmaAccRow ? kThreadsPerAccRow : 1;
  constexpr int64_t kHuge = INT64_MAX / 4;
  auto values = checked_mul(elements, per_value);
  auto total = values ? checked_mul(*values, static_cast<int64_t>(bits)) : std::nullopt;
  if (!total || owner <= 0) return kHuge;
  int64_t per = owner * kRegisterBits;
  return std::min(kHuge, *total / per + (*total % per != 0));
}

}  // namespace cake
