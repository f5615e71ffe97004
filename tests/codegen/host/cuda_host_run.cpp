// The host runtime's scheduler and meetings (cuda_host.h): the clusters of a
// grid one after another (a block is a cluster of one without a `cluster`
// clause), the threads of a cluster's blocks as fibers resumed in turn until
// all have returned; __syncthreads, the warp collectives, mbarriers, named
// barriers, elect and the cluster's barrier.
#include "cuda_host_state.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>

alignas(1024) unsigned char cake_smem[256 * 1024];

namespace cake_host {

Dim3 block_index;
Block* block = nullptr;
Thread* current = nullptr;

void syncthreads() {
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

void gather(const void* mine, size_t bytes, void* all, unsigned mask) {
  Thread* self = current;
  unsigned lane = self->idx.x % 32;
  if ((mask >> lane & 1) == 0) fault("a warp collective whose member mask leaves out the lane that runs it");
  Warp& w = block->warps[self->idx.x / 32];
  Meeting* meeting = &w.all;
  if (mask != 0xffffffffu) {
    auto it = std::find_if(w.some.begin(), w.some.end(), [&](const Meeting& m) { return m.mask == mask; });
    meeting = it != w.some.end() ? &*it : &w.some.emplace_back();
    meeting->mask = mask;
  }
  Meeting& mt = *meeting;
  uint64_t g = mt.generation;
  std::memcpy(mt.slots[g % 2][lane], mine, bytes);
  if (++mt.arrived == static_cast<unsigned>(std::popcount(mask))) {
    mt.arrived = 0;
    ++mt.generation;
    ++block->events;
  } else {
    self->wait = Thread::Wait::Warp;
    while (mt.generation == g) yield();
    self->wait = Thread::Wait::None;
  }
  for (unsigned l = 0; l < 32; ++l) {
    auto* to = static_cast<unsigned char*>(all) + l * bytes;
    if (mask >> l & 1) std::memcpy(to, mt.slots[g % 2][l], bytes);
    else std::memset(to, 0, bytes);
  }
}

/// The lanes of `mask` meet (a .sync.aligned instruction over the whole
/// warp, or bar.warp.sync): none goes on before all have reached it, so
/// what each lane did before is done for all (a tcgen05.ld reads what
/// another lane's tcgen05.st wrote).
void warp_rendezvous(unsigned mask) {
  unsigned char mine = 0, all[32];
  gather(&mine, 1, all, mask);
}

unsigned ballot(unsigned mask, bool predicate) {
  unsigned char mine = predicate, all[32];
  gather(&mine, 1, all, mask);
  unsigned out = 0;
  for (unsigned l = 0; l < 32; ++l) out |= unsigned(all[l] != 0) << l;
  return out & mask;
}

/// Every lane of the warp puts `bits` in and takes lane `from`'s out.
uint32_t exchange(uint32_t bits, unsigned from) {
  uint32_t all[32];
  gather(&bits, 4, all);
  return all[from % 32];
}

/// barrier.cluster.arrive + wait: every live thread of every block.
void cluster_sync() {
  Thread* self = current;
  Cluster& c = *block->cluster;
  uint64_t g = c.generation;
  ++block->events;
  if (++c.arrived == c.live()) {
    c.arrived = 0;
    ++c.generation;
    return;
  }
  self->wait = Thread::Wait::Block;
  while (c.generation == g) yield();  // the scheduler enters this block before resuming
  self->wait = Thread::Wait::None;
}

unsigned cluster_rank() { return block->rank; }

// Section - mbarriers, named barriers and elect.

void mbar_init(const void* bar, unsigned count) {
  block->mbarriers[bar] = Mbarrier{count, count, 0, 0};
  ++block->events;
}

Mbarrier& mbar(const void* bar, Block* in) {
  Block& b = in ? *in : *block;
  auto it = b.mbarriers.find(bar);
  if (it == b.mbarriers.end()) {
    fault("an mbarrier used before mbarrier.init");
  }
  return it->second;
}

/// One arrival, after adding `tx` expected bytes: the phase completes when
/// no arrival and no byte is pending.
void mbar_arrive(const void* bar, int64_t tx, Block* in) {
  Mbarrier& b = mbar(bar, in);
  b.tx += tx;
  if (b.pending == 0) {
    fault("more arrivals on an mbarrier than its count");
  }
  if (--b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
  ++block->events;
}

/// `bytes` of the phase's expected transactions have arrived (a copy's
/// complete_tx): the phase completes when nothing is pending.
void mbar_complete_tx(const void* bar, int64_t bytes, Block* in) {
  Mbarrier& b = mbar(bar, in);
  b.tx -= bytes;
  if (b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
  ++block->events;
}

/// Returns once the phase of parity `parity` has completed: the current
/// phase's parity differs from it.
void mbar_wait(const void* bar, unsigned parity) {
  Thread* self = current;
  while (mbar(bar).phase % 2 == parity % 2) {
    self->wait = Thread::Wait::Mbarrier;
    yield();
  }
  self->wait = Thread::Wait::None;
}

void named_sync(unsigned id, unsigned threads) {
  Thread* self = current;
  Named& n = block->named[id];
  uint64_t g = n.generation;
  ++block->events;
  if (++n.arrived == threads) {
    n.arrived = 0;
    ++n.generation;
    return;
  }
  self->wait = Thread::Wait::Named;
  while (block->named[id].generation == g) yield();
  self->wait = Thread::Wait::None;
}

/// bar.arrive: counts toward the barrier's round without waiting for it.
void named_arrive(unsigned id, unsigned threads) {
  Named& n = block->named[id];
  ++block->events;
  if (++n.arrived == threads) {
    n.arrived = 0;
    ++n.generation;
  }
}

/// elect.sync over the lanes of `mask`: each takes part; the lowest is the
/// leader (as the CPU executor elects).
unsigned elect_sync(unsigned mask) {
  warp_rendezvous(mask);
  return current->idx.x % 32 == static_cast<unsigned>(std::countr_zero(mask));
}

std::vector<Block*> multicast_blocks(unsigned mask) {
  std::vector<Block*> out;
  Cluster& c = *block->cluster;
  if (mask == 0 || (c.blocks.size() < 16 && (mask >> c.blocks.size()) != 0)) {
    std::fprintf(stderr, "cuda_host: a multicast mask 0x%x outside a cluster of %zu\n", mask, c.blocks.size());
    std::abort();
  }
  for (Block& b : c.blocks)
    if ((mask >> b.rank) & 1) out.push_back(&b);
  return out;
}

/// `arrive b multicast(mask)` (mapa + mbarrier.arrive.shared::cluster), and
/// tcgen05.commit .multicast::cluster: one arrival on `bar` of each block
/// `mask` names.
void arrive_multicast(const void* bar, unsigned mask) {
  for (Block* b : multicast_blocks(mask)) mbar_arrive(bar, 0, b);
}
void commit_multicast(const void* bar, unsigned mask) { arrive_multicast(bar, mask); }

/// mapa: the same shared-memory object in the block of rank `rank`. Only
/// the running block's memory is in cake_smem, so a peer's is where it is
/// set aside, which stays true while this block runs; its own is `p`.
void* mapa(const void* p, unsigned rank) {
  Cluster& c = *block->cluster;
  if (rank >= c.blocks.size()) {
    std::fprintf(stderr, "cuda_host: mapa to rank %u outside a cluster of %zu\n", rank, c.blocks.size());
    std::abort();
  }
  size_t offset = static_cast<size_t>(static_cast<const unsigned char*>(p) - cake_smem_base());
  for (Block& b : c.blocks)
    if (b.rank == rank) return smem_of(b) + offset;
  return const_cast<void*>(p);
}

// Section - The scheduler.

namespace {

inline void trampoline() {
  block->entry(block->args);
  current->done = true;
  --block->live;
  // A barrier the others wait at may now be complete without this thread.
  if (block->live > 0 && block->arrived == block->live) {
    block->arrived = 0;
    ++block->generation;
  }
  Cluster& c = *block->cluster;
  if (c.arrived > 0 && c.arrived == c.live()) {
    c.arrived = 0;
    ++c.generation;
  }
}

}  // namespace

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
              for (const Warp& w : b.warps) sum += w.all.generation;
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
