target sm_80, sm_86, sm_89

// C[M, N] f32 += A[M, K] bf16 x B[N, K]^T bf16, split-K: for a GEMM whose
// M x N tiles alone are too few to fill the GPU (a small M, as in decoding),
// the K range is cut into SPLITS slices, one per grid z. Each CTA computes a
// 64 x 64 tile's partial sum over its slice (4 warps as 2 x 2, each a 32 x 32
// block of mma.sync m16n8k16; a 3-stage cp.async ring as in ampere_gemm) and
// adds it into C with `store.add`: one red.global.add.f32 per value, so the
// slices' sums all land, in any order. C holds zeros (or a bias) before.

const SPLITS = 4

kernel splitk_gemm(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // B^T, K-major: the mma B operand is b.T
    C: global f32[M, N] row_major)
  where M % 64 == 0, N % 64 == 0, K % (32 * SPLITS) == 0, K >= 32 * SPLITS
  grid (N / 64, M / 64, SPLITS)
  block 128                                 // 4 warps
{
  smem sA: bf16[3][64, 32] swizzle(64B)    // 64 B rows: 64B swizzle keeps ldmatrix conflict-free
  smem sB: bf16[3][64, 32] swizzle(64B)    // 2 x 3 x 4 KB = 24 KB

  role gemm all {
    let wm = warp.id / 2                        // warp row 0..1: tile rows wm * 32 .. + 32
    let wn = warp.id % 2                        // warp col 0..1: tile cols wn * 32 .. + 32
    let k0 = block.z * (K / (32 * SPLITS)) * 32  // this slice's first k
    reg acc: f32[32, 32] layout(mma_acc) = 0   // 32 regs per thread
    reg a: bf16[32, 32] layout(mma_acc)        // A operand, both k16 steps: 16 regs
    reg b: bf16[32, 32] layout(mma_acc)        // B^T operand (n x k), both k16 steps: 16 regs

    // prologue: the slice's k-tiles 0, 1, 2 into stages 0, 1, 2; one group each
    for p in 0 .. 3 {
      if p < K / (32 * SPLITS) {
        cp.async sA[p] <- A[block.y * 64 : 64, k0 + p * 32 : 32]
        cp.async sB[p] <- B[block.x * 64 : 64, k0 + p * 32 : 32]
      }
      cp.async.commit
    }

    pipeline s in ring(3) for kt in 0 .. K / (32 * SPLITS) {
      cp.async.wait 2                           // k-tile kt's group has retired
      syncthreads                               // ...in every thread: stage s is complete
      ldmatrix a <- sA[s][wm * 32 : 32, :]
      ldmatrix b <- sB[s][wn * 32 : 32, :]
      syncthreads                               // every warp holds stage s in registers
      if kt + 3 < K / (32 * SPLITS) {           // uniform: refill stage s with k-tile kt + 3
        cp.async sA[s] <- A[block.y * 64 : 64, k0 + (kt + 3) * 32 : 32]
        cp.async sB[s] <- B[block.x * 64 : 64, k0 + (kt + 3) * 32 : 32]
      }
      cp.async.commit                           // always, so group kt + 3 exists (maybe empty)
      mma acc += a @ b.T                        // 2 x 4 x 2 m16n8k16, overlaps the refill
    }
    store.add C[block.y * 64 + wm * 32 : 32, block.x * 64 + wn * 32 : 32] <- acc
  }
}

// The reference for `cake run`: one thread per element of C, adding its
// whole dot product over K to what C holds, as the slices' adds do.

kernel splitk_gemm_ref(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global f32[M, N] row_major)
  where N % 64 == 0
  grid (N / 64, M)
  block 64
{
  let i = block.y                                // row of C
  let j = block.x * 64 + warp.id * 32 + lane     // column of C
  reg acc: f32
  reg a: bf16
  reg b: bf16
  load acc <- C[i, j]
  for k in 0 .. K {
    load a <- A[i, k]
    load b <- B[j, k]
    acc += cvt<f32>(a) * cvt<f32>(b)
  }
  store C[i, j] <- acc
}

bench splitk_gemm { M = 128, N = 4096, K = 8192 } reference splitk_gemm_ref
bench splitk_gemm { M = 256, N = 1024, K = 4096 } reference splitk_gemm_ref
