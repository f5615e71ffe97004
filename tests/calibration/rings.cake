target sm_90a

// One CTA streams T rows through a ring of one stage and one of two stages;
// the consumer only waits and releases, so each iteration is the TMA load
// latency, the barrier round trip and the loop's own overhead: one stage
// pays all of the latency, two stages half of it (lat_tma_cycles,
// lat_barrier_cycles, iter_overhead_cycles).

kernel ring1(A: global bf16[T, 64] row_major)
  where T % 64 == 0
  grid (1)
  block 256
{
  smem buf: bf16[1][64, 64] swizzle(128B)
  mbarrier full[1]
  mbarrier empty[1]
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(1) for t in 0 .. T / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    pipeline s in ring(1) for t in 0 .. T / 64 {
      wait full[s] parity(s.phase)
      elect { arrive empty[s] }
    }
  }
}

kernel ring2(A: global bf16[T, 64] row_major)
  where T % 64 == 0
  grid (1)
  block 256
{
  smem buf: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2]
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(2) for t in 0 .. T / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    pipeline s in ring(2) for t in 0 .. T / 64 {
      wait full[s] parity(s.phase)
      elect { arrive empty[s] }
    }
  }
}

bench ring1 { T = 65536 }
bench ring1 { T = 16384 }
bench ring2 { T = 65536 }
bench ring2 { T = 16384 }
