target sm_90a

// One TMA load and one TMA store per 16 KB tile: DRAM-bound on many CTAs
// (eff_hbm); on one CTA the launch, the TMA latency and the barrier round
// trip are all there is (launch_us, lat_tma_cycles, lat_barrier_cycles).

kernel copy(A: global bf16[M, 64] row_major, B: global bf16[M, 64] row_major)
  where M % 128 == 0
  grid (M / 128)
  block 128
{
  smem buf: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)
  role copier all {
    elect {
      arrive.expect_tx full, bytes(buf)
      tma.load buf <- tA[block.x * 128, 0], full
      wait full parity(0)
      tma.store tB[block.x * 128, 0] <- buf
      tma.store.commit
      tma.store.wait 0
    }
  }
}

bench copy { M = 16777216 }
bench copy { M = 33554432 }
bench copy { M = 128 }
