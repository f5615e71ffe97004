target sm_100a

// C[M, N] bf16 = A[M, K] bf16 x B[N, K]^T bf16 with 64-row tiles, for short M
// (a decode step's tokens): one CTA's M = 64 tcgen05.mma (m64n256k16), f32 in a
// 64-lane tensor-memory buffer. 64 x 256 x 64 CTA tile, 4-stage TMA ring: warp 0
// loads, one thread of warp 1 issues the MMAs and commits, warps 4..7 drain the
// accumulator 16 rows each (an M = 64 MMA keeps rows 16 q .. 16 q + 15 in the
// first 16 lanes of quarter q) into mma_acc fragments.

kernel blackwell_gemm_m64(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // K-major B: the MMA B operand is sB[s].T
    C: global bf16[M, N] row_major)
  where M % 64 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 64)
  block 256                                 // 8 warps
{
  smem sA: bf16[4][64, 64] swizzle(128B)   // 4 x 8 KB
  smem sB: bf16[4][256, 64] swizzle(128B)  // 4 x 32 KB
  tmem acc: f32[64, 256]                    // 64 lanes: rows 16 q .. + 15 in quarter q
  mbarrier full[4]                          // count 1: the producer's arrive.expect_tx
  mbarrier empty[4]                         // count 1: one tcgen05.commit per phase
  mbarrier done                             // count 1: the final tcgen05.commit

  tensormap tA = A box [64, 64] swizzle(128B)    // inner box: 64 bf16 = 128 B = swizzle span
  tensormap tB = B box [256, 64] swizzle(128B)

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])  // 40 KB = both boxes
        tma.load sA[s] <- tA[block.y * 64, kt * 64], full[s]
        tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    elect {                                       // one thread issues every MMA and commit
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait full[s] parity(s.phase)
        tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)   // 4 x m64n256k16
        tcgen05.commit empty[s]                   // arrives once these MMAs have read stage s
      }
      tcgen05.commit done                         // arrives once every MMA has completed
    }
  }

  role idle warp(2 .. 4) { }                      // pads the epilogue to a warpgroup boundary

  role epilogue warpgroup(1) {                    // warps 4..7
    let q = warp.id % 4                           // this warp's 16 rows: q * 16 .. + 15
    reg r: f32[16, 32] layout(mma_acc)           // 16 regs per thread: .16x256b's fragment
    reg o: bf16[16, 32] layout(mma_acc)          // 8 regs per thread
    wait done parity(0)                           // the accumulator's only phase
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 16 : 16, c : 32]
      tcgen05.wait.ld                             // r is valid only after this
      o = cvt<bf16>(r)
      store C[block.y * 64 + q * 16 : 16, block.x * 256 + c : 32] <- o
    }
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K, no tensor cores, no async copies, no mbarriers.

kernel blackwell_gemm_m64_ref(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where N % 128 == 0
  grid (N / 128, M)
  block 128
{
  let i = block.y                                // row of C
  let j = block.x * 128 + warp.id * 32 + lane    // column of C
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

bench blackwell_gemm_m64 { M = 64, N = 8192, K = 8192 } reference blackwell_gemm_m64_ref
bench blackwell_gemm_m64 { M = 256, N = 8192, K = 8192 } reference blackwell_gemm_m64_ref
