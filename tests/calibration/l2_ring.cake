target sm_90a

// Every CTA streams all of B (T rows, a few KB) through a 4-stage TMA ring:
// the CTAs share B in L2, so DRAM sees it once and the kernel is L2-bound
// (eff_l2); each ring iteration also pays the per-iteration overhead.

kernel l2_ring(B: global bf16[T, 64] row_major, Out: global bf16[M, 64] row_major)
  where T % 64 == 0, M % 64 == 0
  grid (M / 64)
  block 256
{
  smem buf: bf16[4][64, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4]
  tensormap tB = B box [64, 64] swizzle(128B)
  tensormap tOut = Out box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(4) for t in 0 .. T / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tB[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    pipeline s in ring(4) for t in 0 .. T / 64 {
      wait full[s] parity(s.phase)
      elect { arrive empty[s] }
    }
  }
}

bench l2_ring { T = 512, M = 540672 }
bench l2_ring { T = 1024, M = 270336 }
