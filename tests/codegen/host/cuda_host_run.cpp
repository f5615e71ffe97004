// The scheduler of cuda_host.h: the blocks of a grid one after another, the
// threads of a block as fibers resumed in turn until all have returned.
#include "cuda_host.h"

#include <cstdio>
#include <cstdlib>

alignas(1024) unsigned char cake_smem[256 * 1024];

namespace cake_host {

void run(void (*entry)(void**), void** args, const unsigned grid[3], unsigned threads, unsigned char* smem,
         size_t smem_bytes) {
  constexpr size_t kStack = 64 * 1024;
  std::vector<char> stacks(static_cast<size_t>(threads) * kStack);
  for (unsigned z = 0; z < grid[2]; ++z)
    for (unsigned y = 0; y < grid[1]; ++y)
      for (unsigned x = 0; x < grid[0]; ++x) {
        block_index = {x, y, z};
        std::memset(smem, 0xff, smem_bytes);  // unwritten shared memory reads as NaN
        Block b;
        b.threads.resize(threads);
        b.warps.resize((threads + 31) / 32);
        b.live = threads;
        b.entry = entry;
        b.args = args;
        block = &b;
        for (unsigned t = 0; t < threads; ++t) {
          Thread& th = b.threads[t];
          th.idx = {t, 0, 0};
          getcontext(&th.context);
          th.context.uc_stack.ss_sp = stacks.data() + static_cast<size_t>(t) * kStack;
          th.context.uc_stack.ss_size = kStack;
          th.context.uc_link = &b.scheduler;
          makecontext(&th.context, trampoline, 0);
        }
        while (b.live > 0) {
          // A pass in which no barrier opens and no thread ends is a deadlock.
          uint64_t before = b.generation, events = b.events;
          unsigned live = b.live;
          uint64_t warp_sum = 0;
          for (const Warp& w : b.warps) warp_sum += w.generation;
          for (Thread& th : b.threads) {
            if (th.done) continue;
            current = &th;
            swapcontext(&b.scheduler, &th.context);
          }
          uint64_t warp_after = 0;
          for (const Warp& w : b.warps) warp_after += w.generation;
          if (b.live == live && b.generation == before && b.events == events && warp_after == warp_sum && live > 0) {
            std::fprintf(stderr, "cuda_host: block (%u, %u, %u) deadlocked with %u threads waiting\n", x, y, z, live);
            std::abort();
          }
        }
        if (!b.tmem.allocated.empty()) {
          std::fprintf(stderr, "cuda_host: block (%u, %u, %u) exited with tensor memory allocated\n", x, y, z);
          std::abort();
        }
        block = nullptr;
        current = nullptr;
      }
}

}  // namespace cake_host
