target sm_80, sm_86, sm_89

// C[M, N] f32 = A[M, K] bf16 x B[N, K]^T bf16 (both operands K-major, f32 accumulation).
// 128 x 128 x 32 CTA tile; 8 warps as 2 x 4, each a 64 x 32 block of mma.sync m16n8k16.
// 3-stage cp.async ring, one commit group per k-tile: wait 2 + syncthreads before a stage
// is read, a second syncthreads once every warp holds it in registers, then it is refilled.

kernel ampere_gemm(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // B^T, K-major: the mma B operand is b.T
    C: global f32[M, N] row_major)
  where M % 128 == 0, N % 128 == 0, K % 32 == 0, K >= 32
  grid (N / 128, M / 128)
  block 256                                 // 8 warps
{
  smem sA: bf16[3][128, 32] swizzle(64B)   // 64 B rows: 64B swizzle keeps ldmatrix conflict-free
  smem sB: bf16[3][128, 32] swizzle(64B)   // 2 x 3 x 8 KB = 48 KB, fits sm_86/89's 99 KB

  role gemm all {
    let wm = warp.id / 4                        // warp row 0..1: tile rows wm * 64 .. + 64
    let wn = warp.id % 4                        // warp col 0..3: tile cols wn * 32 .. + 32
    reg acc: f32[64, 32] layout(mma_acc) = 0   // 64 regs per thread
    reg a: bf16[64, 32] layout(mma_acc)        // A operand, both k16 steps: 32 regs
    reg b: bf16[32, 32] layout(mma_acc)        // B^T operand (n x k), both k16 steps: 16 regs

    // prologue: k-tiles 0, 1, 2 into stages 0, 1, 2; one group each (empty if K is short)
    for p in 0 .. 3 {
      if p < K / 32 {
        cp.async sA[p] <- A[block.y * 128 : 128, p * 32 : 32]   // 8 KB: 2 x 16 B per thread
        cp.async sB[p] <- B[block.x * 128 : 128, p * 32 : 32]
      }
      cp.async.commit
    }

    pipeline s in ring(3) for kt in 0 .. K / 32 {
      cp.async.wait 2                           // kt + 3 groups committed: k-tile kt's has retired
      syncthreads                               // ...in every thread: stage s is complete
      ldmatrix a <- sA[s][wm * 64 : 64, :]
      ldmatrix b <- sB[s][wn * 32 : 32, :]
      syncthreads                               // every warp holds stage s in registers
      if kt + 3 < K / 32 {                      // uniform: refill stage s with k-tile kt + 3
        cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 32 : 32]
        cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 32 : 32]
      }
      cp.async.commit                           // always, so group kt + 3 exists (maybe empty)
      mma acc += a @ b.T                        // 4 x 4 x 2 m16n8k16, overlaps the refill
    }
    store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- acc
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K, no tensor cores, no async copies, no mbarriers.

kernel ampere_gemm_ref(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global f32[M, N] row_major)
  where N % 128 == 0
  grid (N / 128, M)
  block 128
{
  let i = block.y                                // row of C
  let j = block.x * 128 + warp.id * 32 + lane    // column of C
  reg acc: f32 = 0
  reg a: bf16
  reg b: bf16
  for k in 0 .. K {
    load a <- A[i, k]
    load b <- B[j, k]
    acc += cvt<f32>(a) * cvt<f32>(b)
  }
  store C[i, j] <- acc
}

bench ampere_gemm { M = 4096, N = 4096, K = 4096 } reference ampere_gemm_ref
bench ampere_gemm { M = 8192, N = 8192, K = 1024 } reference ampere_gemm_ref
