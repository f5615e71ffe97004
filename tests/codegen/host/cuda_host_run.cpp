// The scheduler of cuda_host.h: the clusters of a grid one after another
// (a block is a cluster of one without a `cluster` clause), the threads of
// a cluster's blocks as fibers resumed in turn until all have returned.
#include "cuda_host.h"

#include <cstdio>
#include <cstdlib>

alignas(1024) unsigned char cake_smem[256 * 1024];

namespace cake_host {

void run(void (*entry)(void**), void** args, const unsigned grid[3], const unsigned cluster_dims[3], unsigned threads,
         unsigned char* smem, size_t smem_bytes) {
  constexpr size_t kStack = 64 * 1024;
  unsigned per_cluster = cluster_dims[0] * cluster_dims[1] * cluster_dims[2];
  std::vector<char> stacks(static_cast<size_t>(threads) * per_cluster * kStack);
  for (unsigned z = 0; z < grid[2]; z += cluster_dims[2])
    for (unsigned y = 0; y < grid[1]; y += cluster_dims[1])
      for (unsigned x = 0; x < grid[0]; x += cluster_dims[0]) {
        Cluster c;
        c.smem_bytes = smem_bytes;
        c.blocks.resize(per_cluster);
        unsigned rank = 0;
        // %cluster_ctarank: x fastest, as the executor numbers them.
        for (unsigned dz = 0; dz < cluster_dims[2]; ++dz)
          for (unsigned dy = 0; dy < cluster_dims[1]; ++dy)
            for (unsigned dx = 0; dx < cluster_dims[0]; ++dx, ++rank) {
              Block& b = c.blocks[rank];
              b.index = {x + dx, y + dy, z + dz};
              b.rank = rank;
              b.cluster = &c;
              b.smem.assign(smem_bytes, 0xff);  // unwritten shared memory reads as NaN
              b.threads.resize(threads);
              b.warps.resize((threads + 31) / 32);
              b.live = threads;
              b.entry = entry;
              b.args = args;
              for (unsigned t = 0; t < threads; ++t) {
                Thread& th = b.threads[t];
                th.idx = {t, 0, 0};
                getcontext(&th.context);
                th.context.uc_stack.ss_sp = stacks.data() + (static_cast<size_t>(rank) * threads + t) * kStack;
                th.context.uc_stack.ss_size = kStack;
                th.context.uc_link = &b.scheduler;
                makecontext(&th.context, trampoline, 0);
              }
            }
        (void)smem;
        while (c.live() > 0) {
          // A pass in which no barrier opens and no thread ends is a deadlock.
          uint64_t before = c.generation, progress = 0;
          unsigned live = c.live();
          auto state = [&] {
            uint64_t sum = c.generation;
            for (const Block& b : c.blocks) {
              sum += b.generation + b.events;
              for (const Warp& w : b.warps) sum += w.generation;
            }
            return sum;
          };
          progress = state();
          for (Block& b : c.blocks)
            for (Thread& th : b.threads) {
              if (th.done) continue;
              enter(b);
              current = &th;
              swapcontext(&b.scheduler, &th.context);
            }
          if (c.live() == live && c.generation == before && state() == progress && live > 0) {
            std::fprintf(stderr, "cuda_host: cluster at block (%u, %u, %u) deadlocked with %u threads waiting\n", x, y,
                         z, live);
            std::abort();
          }
        }
        for (const Block& b : c.blocks)
          if (!b.tmem.allocated.empty()) {
            std::fprintf(stderr, "cuda_host: block (%u, %u, %u) exited with tensor memory allocated\n", b.index.x,
                         b.index.y, b.index.z);
            std::abort();
          }
        block = nullptr;
        current = nullptr;
      }
}

}  // namespace cake_host
