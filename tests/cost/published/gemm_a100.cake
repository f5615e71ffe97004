target sm_80

// The published A100 GEMMs (results.json). cuBLAS does not publish its
// kernel per shape; this is the CUTLASS 2.x-class sm_80 schedule: a
// 128 x 128 x 32 CTA tile, 8 warps of 64 x 32 (mma.sync m16n8k16 from
// ldmatrix), a 3-stage cp.async ring with one commit group per k-tile,
// f32 accumulation, the epilogue converted and stored from registers.

kernel mma_bf16_128x128(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 128 == 0, N % 128 == 0, K % 32 == 0, K >= 32
  grid (N / 128, M / 128)
  block 256
{
  smem sA: bf16[3][128, 32] swizzle(64B)
  smem sB: bf16[3][128, 32] swizzle(64B)

  role gemm all {
    let wm = warp.id / 4
    let wn = warp.id % 4
    reg acc: f32[64, 32] layout(mma_acc) = 0
    reg a: bf16[64, 32] layout(mma_acc)
    reg b: bf16[32, 32] layout(mma_acc)
    reg o: bf16[64, 32] layout(mma_acc)
    for p in 0 .. 3 {
      if p < K / 32 {
        cp.async sA[p] <- A[block.y * 128 : 128, p * 32 : 32]
        cp.async sB[p] <- B[block.x * 128 : 128, p * 32 : 32]
      }
      cp.async.commit
    }
    pipeline s in ring(3) for kt in 0 .. K / 32 {
      cp.async.wait 2
      syncthreads
      ldmatrix a <- sA[s][wm * 64 : 64, :]
      ldmatrix b <- sB[s][wn * 32 : 32, :]
      syncthreads
      if kt + 3 < K / 32 {
        cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 32 : 32]
        cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 32 : 32]
      }
      cp.async.commit
      mma acc += a @ b.T
    }
    o = cvt<bf16>(acc)
    store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- o
  }
}

kernel mma_f16_128x128(
    A: global f16[M, K] row_major,
    B: global f16[N, K] row_major,
    C: global f16[M, N] row_major)
  where M % 128 == 0, N % 128 == 0, K % 32 == 0, K >= 32
  grid (N / 128, M / 128)
  block 256
{
  smem sA: f16[3][128, 32] swizzle(64B)
  smem sB: f16[3][128, 32] swizzle(64B)

  role gemm all {
    let wm = warp.id / 4
    let wn = warp.id % 4
    reg acc: f32[64, 32] layout(mma_acc) = 0
    reg a: f16[64, 32] layout(mma_acc)
    reg b: f16[32, 32] layout(mma_acc)
    reg o: f16[64, 32] layout(mma_acc)
    for p in 0 .. 3 {
      if p < K / 32 {
        cp.async sA[p] <- A[block.y * 128 : 128, p * 32 : 32]
        cp.async sB[p] <- B[block.x * 128 : 128, p * 32 : 32]
      }
      cp.async.commit
    }
    pipeline s in ring(3) for kt in 0 .. K / 32 {
      cp.async.wait 2
      syncthreads
      ldmatrix a <- sA[s][wm * 64 : 64, :]
      ldmatrix b <- sB[s][wn * 32 : 32, :]
      syncthreads
      if kt + 3 < K / 32 {
        cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 32 : 32]
        cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 32 : 32]
      }
      cp.async.commit
      mma acc += a @ b.T
    }
    o = cvt<f16>(acc)
    store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- o
  }
}

// cuBLAS's large bf16 GEMM on GA100 as profiles name it,
// ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3: a 256 x 128 CTA
// tile, 64-wide k-tiles in a 3-stage cp.async ring, 8 warps of 64 x 64, each
// k-tile as four 16-wide steps of ldmatrix + mma.sync m16n8k16.
kernel mma_bf16_256x128(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 128 == 0, K % 64 == 0, K >= 64
  grid (N / 128, M / 256)
  block 256
{
  smem sA: bf16[3][256, 64] swizzle(128B)
  smem sB: bf16[3][128, 64] swizzle(128B)

  role gemm all {
    let wm = warp.id / 2
    let wn = warp.id % 2
    reg acc: f32[64, 64] layout(mma_acc) = 0
    reg a: bf16[64, 16] layout(mma_acc)
    reg b: bf16[64, 16] layout(mma_acc)
    reg o: bf16[64, 64] layout(mma_acc)
    for p in 0 .. 3 {
      if p < K / 64 {
        cp.async sA[p] <- A[block.y * 256 : 256, p * 64 : 64]
        cp.async sB[p] <- B[block.x * 128 : 128, p * 64 : 64]
      }
      cp.async.commit
    }
    pipeline s in ring(3) for kt in 0 .. K / 64 {
      cp.async.wait 2
      syncthreads
      for kk in 0 .. 4 {
        ldmatrix a <- sA[s][wm * 64 : 64, kk * 16 : 16]
        ldmatrix b <- sB[s][wn * 64 : 64, kk * 16 : 16]
        mma acc += a @ b.T
      }
      syncthreads
      if kt + 3 < K / 64 {
        cp.async sA[s] <- A[block.y * 256 : 256, (kt + 3) * 64 : 64]
        cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 64 : 64]
      }
      cp.async.commit
    }
    o = cvt<bf16>(acc)
    store C[block.y * 256 + wm * 64 : 64, block.x * 128 + wn * 64 : 64] <- o
  }
}

bench mma_bf16_256x128 { M = 1024, N = 10240, K = 5120 }
bench mma_bf16_256x128 { M = 32768, N = 8192, K = 8192 }
bench mma_f16_128x128 { M = 2048, N = 2048, K = 2048 }
