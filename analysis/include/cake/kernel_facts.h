// KernelFacts: what one kernel asks of a target, computed once per kernel ×
// target and read by everyone that needs it: the E03xx resource checks, the
// cost model's occupancy and demand, the W07xx rules and their fixes, the
// editor's hovers and (next) the lowering. Nothing here reports anything; a
// check turns these facts into diagnostics, the cost model into times.
//
//   - the role partition: `roles()` (cake/roles.h, contiguous warp ranges,
//     what the protocol checks and the cost model walk) and `partition()`
//     (every role's warp mask, maxnreg, fragments and the problems E0306
//     reports: overlaps, gaps, ranges past the block);
//   - the shared-memory layout of each target (`on(t).smem`): every smem
//     buffer and mbarrier array of the kernel's top level with its per-stage
//     bytes, alignment, placed bytes and offset, and the total. ONE formula:
//     a swizzled tile's stage is padded to the swizzle's repeat (1024 B for
//     128B) and aligned to it, an unswizzled buffer is aligned (and its bytes
//     rounded up) to the target's buffer alignment, an mbarrier takes its
//     bytes rounded up to its alignment, a `tmem` buffer takes 4 bytes (its
//     allocation writes the tensor-memory address there). The slots are placed in order of
//     decreasing alignment, so no padding falls between them and the total
//     is the sum of the slots' bytes. E0301 checks this total against the
//     per-block limit, the occupancy fits it on the SM, W0705 quotes it and
//     the hover shows it;
//   - the register plan of each target (`on(t).registers`): per role its
//     threads, maxnreg, fragments' registers per thread, its need and its
//     budget, and the registers of the whole CTA that occupancy counts;
//   - the tensor-memory plan of each target (`on(t).tmem`): the columns each
//     tmem buffer allocates and the total;
//   - the shape samples (facts/samples.h) the checks evaluate at.
//
// Every part is computed on first use and kept: FactsCache holds one
// KernelFacts per kernel for one analysis (run_checks() builds it and hands
// it to the checks and the cost model).
#pragma once

#include "cake/arch.h"
#include "cake/model.h"
#include "cake/roles.h"
#include "cake/eval.h"

#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace cake {

// Section - shared memory

/// One smem buffer or mbarrier array, placed.
struct SmemSlot {
  SymbolId symbol = kNone;
  bool barrier = false;     // an mbarrier array
  bool tmem_address = false;  // the 4 bytes where a `tmem` buffer's allocation writes its address
  int64_t count = 1;        // stages of a buffer (the product of its stage dims), barriers of an array
  int64_t stage_bytes = 0;  // one stage of a buffer as declared (its tile), or one mbarrier
  int64_t stride = 0;  // one stage (or barrier) as placed: padded to the swizzle's repeat or the barrier's alignment
  int64_t bytes = 0;   // everything the slot takes, aligned
  int64_t align = 1;   // its alignment
  int64_t offset = 0;  // from the start of the CTA's shared memory
};

struct SmemLayout {
  std::vector<SmemSlot> slots;  // in declaration order (offsets follow the placement order)
  int64_t total = 0;            // bytes of all slots, aligned (INT64_MAX on overflow)
  bool complete = true;         // false: some smem buffer's size is not a compile-time constant (or overflows)
  const SmemSlot* find(SymbolId symbol) const;
};

// Section - roles and registers

/// A problem in how the roles partition the block's warps (E0306 words it).
struct PartitionProblem {
  enum class Kind {
    NoWarps,         // `entry` names no warp (a half-open range with end <= first)
    Beyond,          // `entry` names warps [lo, hi) past the block
    Twice,           // role `role` lists `mask` twice
    Overlap,         // `mask` of role `role` already belong to role `other`
    AllAfterOthers,  // role `role` is `all` but role `other` came first
    Unowned,         // `mask` belongs to no role
  };
  Kind kind = Kind::NoWarps;
  ByteRange at;
  size_t role = 0, other = 0;  // indices into RolePartition::roles
  uint64_t mask = 0;
  int64_t lo = 0, hi = 0;   // Beyond: the warps the entry names
  bool warpgroups = false;  // NoWarps: the role counts warpgroups
};

/// Warps [first, end) as a mask (warp i is bit i; warps past 63 are dropped).
inline uint64_t warp_range_mask(int64_t first, int64_t end) {
  uint64_t mask = 0;
  for (int64_t w = first < 0 ? 0 : first; w < end && w < 64; ++w) mask |= uint64_t(1) << w;
  return mask;
}

/// A role's warps as a mask (warp i is bit i), its budget and fragments.
struct RolePlan {
  StmtId stmt = kNone;  // kNone: the implicit role of a kernel without roles
  std::string_view name;
  ByteRange header;  // the role's name (or the kernel's)
  ByteRange spec;    // its warp list
  uint64_t mask = 0;
  bool known = false;   // every entry is a known constant and the block is valid
  bool beyond = false;  // an entry names warps past the block
  std::optional<int64_t> maxnreg;
  ByteRange maxnreg_value;
  StmtId first_wgmma = kNone;  // its first warpgroup-wide op (wgmma, its fence, commit or wait)
  struct Fragment {
    SymbolId symbol;
    int64_t elements;  // per owner
    unsigned bits;
    FragLayout layout;
  };
  std::vector<Fragment> fragments;
  std::vector<StmtId> arrivals;  // its `arrive.expect_tx` statements
  int64_t threads(int64_t warp_size) const { return std::popcount(mask) * warp_size; }
};

struct RolePartition {
  std::vector<RolePlan> roles;  // in text order; one implicit role when the kernel has none
  std::vector<PartitionProblem> problems;
  bool has_roles = false;
  bool block_ok = false;  // the block is a positive multiple of the warp size, at most 64 warps
  int64_t warps = 0;      // of the block, when block_ok
};

/// One role's registers on a target.
struct RoleRegisters {
  int64_t threads = 0;
  std::vector<int64_t> fragments;  // registers per thread of each of RolePlan::fragments
  int64_t need = 0;                // kRegisterOverhead + the fragments (all live at once)
  int64_t budget = 0;              // maxnreg where the target has setmaxnreg, else the most a thread can have
  bool from_maxnreg = false;
};

struct RegisterPlan {
  bool known = false;                // the block is valid (RolePartition::block_ok)
  int64_t unit = 0;                  // registers a warp allocates per thread at a time
  int64_t pool = 0;                  // ⌊regs per block ÷ (unit · T)⌋ · unit · T: what setmaxnreg redistributes
  std::vector<RoleRegisters> roles;  // as RolePartition::roles
  /// Registers of one CTA for occupancy: each role's maxnreg × threads
  /// where setmaxnreg applies, at least the widest other role's need
  /// (rounded to the unit, at most the per-thread maximum) for every thread.
  int64_t per_cta = 0;
};

// Section - tensor memory

struct TmemBuffer {
  SymbolId symbol = kNone;
  std::optional<int64_t> lanes, columns, stages;  // as declared, when constant
  std::optional<int64_t> allocated;               // columns allocated (cells rounded up, times the stages)
  bool valid = false;  // `allocated` is a power of two within this target's allocation range
  int64_t end = 0;     // the columns of the valid allocations up to and including this one
  bool two_dims = false;                          // `DTYPE[LANES, COLUMNS]`
};

struct TmemPlan {
  int64_t cell_bits = 0;
  std::vector<TmemBuffer> buffers;  // in declaration order
  /// Columns of the buffers whose allocation is valid on this target (a
  /// power of two within the allocation range).
  int64_t columns = 0;
  const TmemBuffer* find(SymbolId symbol) const;
};

// Section - facts

/// What a kernel asks of one target.
struct TargetFacts {
  const TargetInfo* target = nullptr;
  SmemLayout smem;
  RegisterPlan registers;
  TmemPlan tmem;
};

class KernelFacts {
 public:
  KernelFacts(const Module& module, uint32_t kernel);
  KernelFacts(const KernelFacts&) = delete;
  KernelFacts& operator=(const KernelFacts&) = delete;

  const Module& module() const { return m_; }
  uint32_t kernel() const { return k_; }
  const Evaluator& evaluator() const { return eval_; }
  /// The block's threads, when a constant.
  std::optional<int64_t> threads() const { return threads_; }

  /// The roles as contiguous warp ranges (kernel_roles()), or nullopt.
  const std::optional<std::vector<RoleView>>& roles() const;
  /// Every role's warps, budget and fragments, and the partition's problems.
  const RolePartition& partition() const;
  /// Sample shapes the kernel's facts allow (shape_samples()).
  const std::vector<Env>& samples() const;
  /// The layout, register and tmem plans on `target`.
  const TargetFacts& on(const TargetInfo& target) const;

 private:
  const Module& m_;
  uint32_t k_;
  Evaluator eval_;
  std::optional<int64_t> threads_;
  mutable std::optional<std::optional<std::vector<RoleView>>> roles_;
  mutable std::optional<RolePartition> partition_;
  mutable std::optional<std::vector<Env>> samples_;
  mutable std::array<std::unique_ptr<TargetFacts>, 64> targets_;  // by all_targets() index
  mutable std::vector<std::unique_ptr<TargetFacts>> others_;
};

/// One KernelFacts per kernel of a module, built on first use.
class FactsCache {
 public:
  explicit FactsCache(const Module& module) : m_(module), kernels_(module.kernels.size()) {}
  const KernelFacts& kernel(uint32_t k) const;
  const Module& module() const { return m_; }

 private:
  const Module& m_;
  mutable std::vector<std::unique_ptr<KernelFacts>> kernels_;
};

}  // namespace cake
