target sm_90a

// Each warp reads a 64 x 64 tile of shared memory into registers R times:
// shared-memory-bound (eff_smem).

const R = 1024

kernel smem_reads(A: global bf16[M, 64] row_major)
  where M % 64 == 0
  grid (M / 64)
  block 128
{
  smem tile: bf16[64, 64] swizzle(128B)
  role readers all {
    reg x: bf16[64, 64] layout(mma_acc)
    for r in 0 .. R {
      load x <- tile
    }
  }
}

bench smem_reads { M = 67584 }
bench smem_reads { M = 270336 }
