target sm_90a

// C[M, N] bf16 = A[M, K] bf16 x B[N, K]^T bf16, f32 accumulation in registers.
// 128 x 256 x 64 CTA tile, warp-specialised: a TMA producer warpgroup (setmaxnreg down to 40)
// feeds a 4-stage ring of 128B-swizzled tiles to two wgmma consumer warpgroups (64 x 256 each,
// setmaxnreg up to 232); full/empty mbarriers per stage; the epilogue stores bf16 from registers.

kernel hopper_gemm(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,          // K-major B: the wgmma B operand is sB[s].T
    C: global bf16[M, N] row_major)
  where M % 128 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 128)
  block 384                                 // 3 warpgroups
{
  smem sA: bf16[4][128, 64] swizzle(128B)  // 4 x 16 KB
  smem sB: bf16[4][256, 64] swizzle(128B)  // 4 x 32 KB: 192 KB of sm_90a's 227 KB
  mbarrier full[4]                          // count 1: the producer's arrive.expect_tx
  mbarrier empty[4] count(2)                // one arrival per consumer warpgroup

  tensormap tA = A box [128, 64] swizzle(128B)   // inner box: 64 bf16 = 128 B = swizzle span
  tensormap tB = B box [256, 64] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)                      // fresh ring: passes at once
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])  // 48 KB = both boxes
        tma.load sA[s] <- tA[block.y * 128, kt * 64], full[s]
        tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {   // 40 x 128 + 232 x 256 = 64512 = the pool
    let wg = role.rank                            // rows wg * 64 .. + 64 of the tile
    reg acc: f32[64, 256] layout(wgmma_acc) = 0  // 128 regs per thread
    reg o: bf16[64, 256] layout(wgmma_acc)       // 64 regs per thread
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence                                 // acc was written by its init
      wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T   // m64n256k16, 4 k-steps
      wgmma.commit
      wgmma.wait 0                                // this warpgroup's reads of stage s are done
      elect.warpgroup { arrive empty[s] }         // 2 arrivals per phase = count(2)
    }
    o = cvt<bf16>(acc)                            // acc read only after wgmma.wait
    store C[block.y * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
  }
}

// The reference for `cake run`: one thread per element of C, a scalar f32
// dot product over K, no tensor cores, no async copies, no mbarriers.

kernel hopper_gemm_ref(
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

bench hopper_gemm { M = 8192, N = 8192, K = 8192 } reference hopper_gemm_ref
bench hopper_gemm { M = 4096, N = 4096, K = 4096 } reference hopper_gemm_ref
