target sm_89

// C[M, N] f32 = A[M, K] f8e4m3 x B[N, K]^T f8e4m3 (both operands K-major, f32
// accumulation), for Ada's FP8 tensor cores (L4, RTX 4090: mma.sync m16n8k32).
// 128 x 128 x 64 CTA tile; 8 warps as 2 x 4, each a 64 x 32 block. 3-stage
// cp.async ring, one commit group per k-tile, as ampere_gemm. ldmatrix hands
// the bytes out in the m16n8k32 operand layout, so the MMAs read the
// registers as they are (docs/lowering.md, ldmatrix).

kernel ada_fp8_gemm(
    A: global f8e4m3[M, K] row_major,
    B: global f8e4m3[N, K] row_major,       // B^T, K-major: the mma B operand is b.T
    C: global f32[M, N] row_major)
  where M % 128 == 0, N % 128 == 0, K % 64 == 0, K >= 64
  grid (N / 128, M / 128)
  block 256                                 // 8 warps
{
  smem sA: f8e4m3[3][128, 64] swizzle(64B)  // 64 B rows, as ampere_gemm's bf16 tiles
  smem sB: f8e4m3[3][128, 64] swizzle(64B)  // 2 x 3 x 8 KB = 48 KB

  role gemm all {
    let wm = warp.id / 4                        // warp row 0..1: tile rows wm * 64 .. + 64
    let wn = warp.id % 4                        // warp col 0..3: tile cols wn * 32 .. + 32
    reg acc: f32[64, 32] layout(mma_acc) = 0   // 64 regs per thread
    reg a: f8e4m3[64, 64] layout(mma_acc)      // A operand, both k32 steps: 32 regs
    reg b: f8e4m3[32, 64] layout(mma_acc)      // B^T operand (n x k): 16 regs

    for p in 0 .. 3 {
      if p < K / 64 {
        cp.async sA[p] <- A[block.y * 128 : 128, p * 64 : 64]   // 8 KB: 2 x 16 B per thread
        cp.async sB[p] <- B[block.x * 128 : 128, p * 64 : 64]
      }
      cp.async.commit
    }

    pipeline s in ring(3) for kt in 0 .. K / 64 {
      cp.async.wait 2                           // k-tile kt's group has retired
      syncthreads                               // ...in every thread: stage s is complete
      ldmatrix a <- sA[s][wm * 64 : 64, :]
      ldmatrix b <- sB[s][wn * 32 : 32, :]
      syncthreads                               // every warp holds stage s in registers
      if kt + 3 < K / 64 {
        cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 64 : 64]
        cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 64 : 64]
      }
      cp.async.commit
      mma acc += a @ b.T                        // 4 x 4 x 2 m16n8k32
    }
    store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- acc
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K of the decoded values.

kernel ada_fp8_gemm_ref(
    A: global f8e4m3[M, K] row_major,
    B: global f8e4m3[N, K] row_major,
    C: global f32[M, N] row_major)
  where N % 128 == 0
  grid (N / 128, M)
  block 128
{
  let i = block.y
  let j = block.x * 128 + warp.id * 32 + lane
  reg acc: f32 = 0
  reg a: f8e4m3
  reg b: f8e4m3
  for k in 0 .. K {
    load a <- A[i, k]
    load b <- B[j, k]
    acc += cvt<f32>(a) * cvt<f32>(b)
  }
  store C[i, j] <- acc
}

bench ada_fp8_gemm { M = 4096, N = 4096, K = 4096 } reference ada_fp8_gemm_ref
