// The host runtime's state (cuda_host.h): the blocks of the running
// cluster, their threads, warps, barriers and tensor memory, and what the
// runtime's own sources share about it. Kernels never include this: it is
// compiled once, in cuda_host_run.cpp, cuda_host_copy.cpp and
// cuda_host_mma.cpp.
#pragma once

#include "cuda_host.h"

#include <deque>
#include <map>
#include <vector>

namespace cake_host {

/// The lanes of a warp meeting by one member mask: how many have arrived at
/// the meeting in progress and each one's contribution to it, by generation
/// parity (a lane cannot be two meetings ahead of another).
struct Meeting {
  unsigned mask = 0xffffffffu;
  uint64_t generation = 0;
  unsigned arrived = 0;
  static constexpr size_t kSlotBytes = 64;
  unsigned char slots[2][32][kSlotBytes] = {};
};

struct Warp {
  /// The whole warp's meetings (every .sync.aligned collective).
  Meeting all;
  /// Those of fewer lanes (`__syncwarp(mask)`, `__ballot_sync(mask, p)` in
  /// code some lanes skip), one per mask seen; a deque, so that a waiting
  /// lane's reference stays valid when another mask is added.
  std::deque<Meeting> some;
};

/// An mbarrier (PTX ISA, mbarrier): the arrivals a phase takes, those
/// still pending and the transaction bytes it still expects; `phase`
/// counts completed phases.
struct Mbarrier {
  uint32_t expected = 0, pending = 0;
  int64_t tx = 0;
  uint64_t phase = 0;
};

/// A named barrier (bar.sync id, threads): threads arrived in this round.
struct Named {
  uint64_t generation = 0;
  unsigned arrived = 0;
};

/// Tensor memory (PTX ISA, "Tensor Memory"): 128 lanes x 512 columns of
/// 32-bit cells per CTA, and the columns allocated, by first column.
struct Tmem {
  static constexpr unsigned kLanes = 128, kColumns = 512;
  std::vector<uint32_t> cells = std::vector<uint32_t>(kLanes * kColumns, 0xffffffffu);  // NaN until written
  std::map<unsigned, unsigned> allocated;  // first column -> columns
  bool relinquished = false;
};

struct Cluster;

struct Block {
  std::vector<Thread> threads;
  Tmem tmem;
  Dim3 index;     // blockIdx
  unsigned rank = 0;  // %cluster_ctarank
  Cluster* cluster = nullptr;
  std::vector<unsigned char> smem;  // its shared memory while another block's runs
  std::vector<Warp> warps;
  std::map<const void*, Mbarrier> mbarriers;  // by address in shared memory
  std::map<unsigned, Named> named;
  uint64_t events = 0;  // changes to mbarriers and named barriers: progress
  uint64_t generation = 0;
  unsigned arrived = 0, live = 0;
  ucontext_t scheduler;
  void (*entry)(void**) = nullptr;
  void** args = nullptr;
};

/// The blocks of one cluster, scheduled together, and its barrier
/// (barrier.cluster: every thread of every block arrives).
struct Cluster {
  std::vector<Block> blocks;
  Block* resident = nullptr;  // whose shared memory is in cake_smem
  size_t smem_bytes = 0;
  uint64_t generation = 0;
  unsigned arrived = 0;
  unsigned live() const {
    unsigned n = 0;
    for (const Block& b : blocks) n += b.live;
    return n;
  }
};

/// The running block (cuda_host_run.cpp).
extern Block* block;

/// Makes `b` the running block: its shared memory into cake_smem (the
/// resident block's set aside), its index and rank current.
inline void enter(Block& b) {
  Cluster& c = *b.cluster;
  if (c.resident != &b) {
    if (c.resident) std::memcpy(c.resident->smem.data(), cake_smem, c.smem_bytes);
    std::memcpy(cake_smem, b.smem.data(), c.smem_bytes);
    c.resident = &b;
  }
  block = &b;
  block_index = b.index;
}

/// Where block `b`'s shared memory is now: cake_smem if it runs, else aside.
inline unsigned char* smem_of(Block& b) { return b.cluster->resident == &b ? cake_smem : b.smem.data(); }

inline void yield() { swapcontext(&current->context, &block->scheduler); }

/// Stops the runtime with `what` went wrong: something the hardware would
/// fault on, or that the PTX ISA leaves undefined.
[[noreturn]] inline void fault(const char* what) {
  std::fprintf(stderr, "cuda_host: %s\n", what);
  std::abort();
}

/// The mbarrier at `bar`'s offset in block `in` (the running block's by default).
Mbarrier& mbar(const void* bar, Block* in = nullptr);

/// The blocks of the running cluster that multicast `mask` names (bit r:
/// the block of rank r); a bit past the cluster aborts.
std::vector<Block*> multicast_blocks(unsigned mask);

/// Byte offset `o` from the block's shared memory, swizzled with a span of
/// `swizzle` bytes (16-byte chunk bits XOR the bits from 7).
inline size_t swizzle_offset(size_t o, uint32_t swizzle) {
  size_t mask = swizzle == 128 ? 7 : swizzle == 64 ? 3 : swizzle == 32 ? 1 : 0;
  return o ^ (((o >> 7) & mask) << 4);
}

/// The `bits` (at most 8) bits at bit `at` of the bytes at `p`, low bits
/// first; the byte after is read only when the field reaches into it.
inline uint32_t bits_at(const unsigned char* p, uint64_t at, unsigned bits) {
  uint32_t word = p[at / 8];
  if (at % 8 + bits > 8) word |= uint32_t(p[at / 8 + 1]) << 8;
  return (word >> (at % 8)) & ((1u << bits) - 1);
}

}  // namespace cake_host
