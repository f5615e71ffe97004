// A CPU stand-in for the CUDA built-ins that lowered code uses, so that a
// lowered translation unit compiles with the host C++ compiler and runs a
// grid of blocks on one core (tests/codegen/host_run_test.cpp). Each block's
// threads are fibers (ucontext) switched cooperatively: at __syncthreads and
// at every warp shuffle a thread waits for the others, as on the GPU, so a
// thread never sees another's write it would not see there. Only what
// docs/lowering.md lowers today is here; inline PTX (`asm`) is not run.
//
// This checks the lowering's own arithmetic (where each register sits,
// addresses, reductions, rounding) against the CPU executor without a GPU.
// It is not a GPU: instruction semantics come from the host's libm.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ucontext.h>
#include <vector>

namespace cake_host {

struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};

struct Thread {
  ucontext_t context;
  Dim3 idx;
  bool done = false;
  // Waiting: for the block's barrier generation, or its warp's, to pass.
  enum class Wait { None, Block, Warp } wait = Wait::None;
  uint64_t until = 0;
};

struct Warp {
  uint64_t generation = 0;
  unsigned arrived = 0;
  uint32_t slots[2][32] = {};
};

struct Block {
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  uint64_t generation = 0;
  unsigned arrived = 0, live = 0;
  ucontext_t scheduler;
  void (*entry)(void**) = nullptr;
  void** args = nullptr;
};

inline Dim3 block_index;
inline Block* block = nullptr;
inline Thread* current = nullptr;

inline void yield() { swapcontext(&current->context, &block->scheduler); }

inline void syncthreads() {
  Thread* self = current;
  uint64_t g = block->generation;
  if (++block->arrived == block->live) {
    block->arrived = 0;
    ++block->generation;
    return;
  }
  self->wait = Thread::Wait::Block;
  self->until = g + 1;
  while (block->generation == g) yield();
  self->wait = Thread::Wait::None;
}

/// Every lane of the warp puts `bits` in and takes lane `from`'s out.
inline uint32_t exchange(uint32_t bits, unsigned from) {
  Thread* self = current;
  unsigned lane = self->idx.x % 32;
  Warp& w = block->warps[self->idx.x / 32];
  uint64_t g = w.generation;
  w.slots[g % 2][lane] = bits;
  if (++w.arrived == 32) {
    w.arrived = 0;
    ++w.generation;
  } else {
    self->wait = Thread::Wait::Warp;
    while (w.generation == g) yield();
    self->wait = Thread::Wait::None;
  }
  return w.slots[g % 2][from % 32];
}

template <typename T>
T shfl(T v, unsigned from) {
  static_assert(sizeof(T) == 4);
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits = exchange(bits, from);
  std::memcpy(&v, &bits, 4);
  return v;
}

inline void trampoline() {
  block->entry(block->args);
  current->done = true;
  --block->live;
  // A barrier the others wait at may now be complete without this thread.
  if (block->live > 0 && block->arrived == block->live) {
    block->arrived = 0;
    ++block->generation;
  }
}

/// Runs `entry(args)` over the grid, block after block; `smem` bytes of
/// dynamic shared memory, filled with 0xff (NaN) at each block's start.
void run(void (*entry)(void**), void** args, const unsigned grid[3], unsigned threads, unsigned char* smem,
         size_t smem_bytes);

}  // namespace cake_host

extern unsigned char cake_smem[];

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(threads, blocks)
#define __shared__
#define __align__(n)
#define threadIdx (cake_host::current->idx)
#define blockIdx (cake_host::block_index)
#define asm(...) ((void)0)

inline void __syncthreads() { cake_host::syncthreads(); }
template <typename T>
T __shfl_sync(unsigned, T v, int from) {
  return cake_host::shfl(v, static_cast<unsigned>(from));
}
template <typename T>
T __shfl_xor_sync(unsigned, T v, int mask) {
  return cake_host::shfl(v, (cake_host::current->idx.x % 32) ^ static_cast<unsigned>(mask));
}
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
using std::isnan;
