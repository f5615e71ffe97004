target sm_90a

// Tensor-bound loops on resident operands: each CTA loads its tiles once,
// then runs R MMAs on them, with wgmma (eff_wgmma) and with mma.sync
// (eff_mma_sync).

const R = 4096

kernel tile_wgmma(A: global bf16[M, 64] row_major, B: global bf16[256, 64] row_major)
  where M % 64 == 0
  grid (M / 64)
  block 128
{
  smem sA: bf16[64, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(128B)
  tensormap tB = B box [256, 64] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    elect {
      arrive.expect_tx full, bytes(sA) + bytes(sB)
      tma.load sA <- tA[block.x * 64, 0], full
      tma.load sB <- tB[0, 0], full
    }
    wait full parity(0)
    for r in 0 .. R {
      wgmma.fence
      wgmma acc += sA @ sB.T
      wgmma.commit
      wgmma.wait 0
    }
  }
}

kernel tile_mma(A: global bf16[M, 32] row_major, B: global bf16[32, 32] row_major)
  where M % 64 == 0
  grid (M / 64)
  block 32
{
  role mma all {
    reg acc: f32[64, 32] layout(mma_acc) = 0
    reg a: bf16[64, 32] layout(mma_acc)
    reg b: bf16[32, 32] layout(mma_acc)
    load a <- A[block.x * 64 : 64, :]
    load b <- B[:, :]
    for r in 0 .. R {
      mma acc += a @ b.T
    }
  }
}

bench tile_wgmma { M = 67584 }
bench tile_wgmma { M = 270336 }
bench tile_mma { M = 67584 }
bench tile_mma { M = 270336 }
