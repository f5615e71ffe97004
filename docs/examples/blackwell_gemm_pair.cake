target sm_100a

// C[M, N] bf16 = A[M, K] bf16 x B[N, K]^T bf16 on CTA pairs (cta_group::2): one 256 x 256 x 64
// tile per pair of a 2-CTA cluster. Each CTA loads its 128 rows of A and its 128 rows of B (half
// of the pair's N) into its own 4-stage ring, completing the bytes on the even CTA's `full`
// through a view; one thread of the even CTA issues the pair's tcgen05.mma (m256n256k16), which
// reads both CTAs' stages and writes both CTAs' accumulators, and its commits reach both CTAs.
// Each CTA's epilogue drains its own 128 rows of the tile.

kernel blackwell_gemm_pair(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // K-major B: the MMA B operand is sB[s].T
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)             // two CTAs per 256 x 256 tile
  block 256                                 // 8 warps
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)  // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)  // this CTA's 128 of the pair's 256 columns of C
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256 tile
  mbarrier full[4]                          // the even CTA's counts both CTAs' 64 KB per stage
  mbarrier empty[4]                         // count 1: the even CTA's commit reaches both CTAs
  mbarrier done                             // count 1: the final commit, in both CTAs
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's `full`

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let half = cluster.rank % 2               // 0: the even CTA of the pair, 1: the odd
  let tile_n = block.x / 2                  // the pair's 256 columns of C

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))   // both CTAs' boxes
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[tile_n * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {                              // the even CTA issues the pair's MMAs
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)   // 4 x m256n256k16
          tcgen05.commit empty[s] multicast(3 << cluster.rank)      // frees stage s in both CTAs
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }                      // pads the epilogue to a warpgroup boundary

  role epilogue warpgroup(1) {                    // warps 4..7
    let q = warp.id % 4                           // this warp may touch TMEM lanes q * 32 .. + 31
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)                           // also keeps this CTA alive while the pair's MMA reads it
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, tile_n * 256 + c : 32] <- o
    }
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K.

kernel blackwell_gemm_pair_ref(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where N % 128 == 0
  grid (N / 128, M)
  block 128
{
  let i = block.y
  let j = block.x * 128 + warp.id * 32 + lane
  reg acc: f32 = 0
  reg a: bf16
  reg b: bf16
  reg c: bf16
  for k in 0 .. K {
    load a <- A[i, k]
    load b <- B[j, k]
    acc += cvt<f32>(a) * cvt<f32>(b)
  }
  c = cvt<bf16>(acc)
  store C[i, j] <- c
}

bench blackwell_gemm_pair { M = 8192, N = 8192, K = 8192 } reference blackwell_gemm_pair_ref
bench blackwell_gemm_pair { M = 4096, N = 4096, K = 4096 } reference blackwell_gemm_pair_ref
