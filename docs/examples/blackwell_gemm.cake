target sm_100a

// C[M, N] bf16 = A[M, K] bf16 x B[N, K]^T bf16, f32 accumulation in tensor memory.
// 128 x 256 x 64 CTA tile, 4-stage TMA ring: warp 0 loads, one thread of warp 1 issues
// tcgen05.mma (m128n256k16) and frees each stage with tcgen05.commit; warps 4..7 drain TMEM
// (each warp its own 32 lanes) once the final commit lands on `done`.

kernel blackwell_gemm(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // K-major B: the MMA B operand is sB[s].T
    C: global bf16[M, N] row_major)
  where M % 128 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 128)
  block 256                                 // 8 warps
{
  smem sA: bf16[4][128, 64] swizzle(128B)  // 4 x 16 KB
  smem sB: bf16[4][256, 64] swizzle(128B)  // 4 x 32 KB: 192 KB of sm_100a's 227 KB
  tmem acc: f32[128, 256]                   // 128 lanes x 256 columns (a power of two)
  mbarrier full[4]                          // count 1: the producer's arrive.expect_tx
  mbarrier empty[4]                         // count 1: one tcgen05.commit per phase
  mbarrier done                             // count 1: the final tcgen05.commit

  tensormap tA = A box [128, 64] swizzle(128B)   // inner box: 64 bf16 = 128 B = swizzle span
  tensormap tB = B box [256, 64] swizzle(128B)

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])  // 48 KB = both boxes
        tma.load sA[s] <- tA[block.y * 128, kt * 64], full[s]
        tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    elect {                                       // one thread issues every MMA and commit
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait full[s] parity(s.phase)
        tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)   // 4 x m128n256k16
        tcgen05.commit empty[s]                   // arrives once these MMAs have read stage s
      }
      tcgen05.commit done                         // arrives once every MMA has completed
    }
  }

  role idle warp(2 .. 4) { }                      // pads the epilogue to a warpgroup boundary

  role epilogue warpgroup(1) {                    // warps 4..7
    let q = warp.id % 4                           // this warp may touch TMEM lanes q * 32 .. + 31
    reg r: f32[32, 32] layout(tcgen05_acc)       // 32 regs per thread: one row, 32 columns
    reg o: bf16[32, 32] layout(tcgen05_acc)      // 16 regs per thread
    wait done parity(0)                           // the accumulator's only phase
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld                             // r is valid only after this
      o = cvt<bf16>(r)
      store C[block.y * 128 + q * 32 : 32, block.x * 256 + c : 32] <- o
    }
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K, no tensor cores, no async copies, no mbarriers.

kernel blackwell_gemm_ref(
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

bench blackwell_gemm { M = 8192, N = 8192, K = 8192 } reference blackwell_gemm_ref
bench blackwell_gemm { M = 4096, N = 4096, K = 4096 } reference blackwell_gemm_ref
