// Performance (W07xx): findings of the cost model (docs/cost-model.md) on
// each target's default device. Each rule has a case that draws it and a
// near miss that must stay clean; fixes are applied and re-checked by the
// runner (`fix {{...}}`).

// W0701: 2 stages of a 16 KB TMA ring; the consumer's work per stage is
// short, so the load round trip shows. 4 stages hide it and fit.
target sm_90a
kernel shallow(C: global bf16[K, 64], out: global f32[K]) where K % 128 == 0, K >= 128 grid (132) block 256 {
  smem cs: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      // expected-warning@+1 [CAKE-W0701] {{pipeline `s` exposes 0.111 µs of load latency per iteration on H100-SXM5-80GB (sm_90a): an iteration's work takes 0.129 µs, and with 2 stages the work of the others in flight covers 0.129 µs of the 0.351 µs load round trip; 4 stages would hide it}} fix {{ring(4)}}
      pipeline s in ring(2) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(2) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench shallow { K = 65536 }

// -----

// Near miss: the same ring with 4 stages hides the round trip.
target sm_90a
kernel deep(C: global bf16[K, 64], out: global f32[K]) where K % 128 == 0, K >= 128 grid (132) block 256 {
  smem cs: bf16[4][64, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench deep { K = 65536 }

// -----

// W0701 without a fix: the stage count is a const (other kernels may share it).
target sm_90a
const STAGES = 2
kernel shallow_const(C: global bf16[K, 64], out: global f32[K]) where K % 128 == 0, K >= 128 grid (132) block 256 {
  smem cs: bf16[STAGES][64, 64] swizzle(128B)
  mbarrier full[STAGES]
  mbarrier empty[STAGES] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      // expected-warning@+1 [CAKE-W0701] {{pipeline `s` exposes 0.111 µs of load latency per iteration on H100-SXM5-80GB (sm_90a): an iteration's work takes 0.129 µs, and with 2 stages the work of the others in flight covers 0.129 µs of the 0.351 µs load round trip; 4 stages would hide it}} nofix
      pipeline s in ring(STAGES) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(STAGES) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench shallow_const { K = 65536 }

// -----

// W0701 finds a ring's buffers by the model's index expressions, not by the
// text after each use: `empty` indexed across a line break (and with a
// comment inside the brackets) is still part of the ring, so the fix deepens
// `mbarrier empty` too and the fixed file stays consistent.
target sm_90a
kernel shallow_split(C: global bf16[K, 64], out: global f32[K]) where K % 128 == 0, K >= 128 grid (132) block 256 {
  smem cs: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      // expected-warning@+1 [CAKE-W0701] {{pipeline `s` exposes 0.111 µs of load latency per iteration on H100-SXM5-80GB (sm_90a): an iteration's work takes 0.129 µs, and with 2 stages the work of the others in flight covers 0.129 µs of the 0.351 µs load round trip; 4 stages would hide it}} fix {{mbarrier empty[4] count(128)}}
      pipeline s in ring(2) for kt in 0 .. K / 64 {
        wait empty[
          s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(2) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[ /* the stage */
        s]
    }
  }
}
bench shallow_split { K = 65536 }

// -----

// W0702: 139 CTAs are 1.05 waves of 132 CTAs (one per SM): the second wave
// holds 7 CTAs and costs nearly as long as the first.
target sm_90a
kernel tail(C: global bf16[K, 64], out: global f32[M]) where M % 64 == 0, K % 64 == 0, K >= 64
  // expected-warning@+1 [CAKE-W0702] {{the grid's 139 CTAs for M = 8896, K = 65536 run in 1.05 waves of 132 CTAs (1 per SM) on H100-SXM5-80GB (sm_90a): the last wave holds 7 CTAs (5 % full) and adds 110 µs, 44 % of the kernel's 251 µs; a tile size that makes the CTA count a multiple of the wave, or fills the last wave, avoids it}}
  grid (M / 64)
  block 256
{
  smem cs: bf16[4][64, 64] swizzle(128B)
  smem spill: f32[40000]                // 156 KB: one CTA per SM
  mbarrier full[4]
  mbarrier empty[4] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench tail { M = 8896, K = 65536 }

// -----

// Near miss: 251 CTAs, 1.9 waves (the last one 90 % full).
target sm_90a
kernel no_tail(C: global bf16[K, 64], out: global f32[M]) where M % 64 == 0, K % 64 == 0, K >= 64
  grid (M / 64)
  block 256
{
  smem cs: bf16[4][64, 64] swizzle(128B)
  smem spill: f32[40000]                // 156 KB: one CTA per SM
  mbarrier full[4]
  mbarrier empty[4] count(128)
  tensormap tC = C box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += cs[s] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench no_tail { M = 16064, K = 65536 }

// -----

// W0703: ldmatrix reads 8 rows of 16 B whose 128-byte pitch maps them to
// the same 4 banks; swizzle(128B) spreads them.
target sm_80
kernel conflicted(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64]
  role mma all {
    reg a: bf16[64, 64] layout(mma_acc)
    cp.async sA <- A[block.x * 64 : 64, :]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    // expected-warning@+1 [CAKE-W0703] {{`ldmatrix` reads `sA` with 8-way bank conflicts on sm_80: its rows are 128 B apart with no swizzle, so the 8 rows of 16 B that one request reads ask one bank for 8 words; swizzle(128B) makes it conflict-free}} fix {{swizzle(128B)}}
    ldmatrix a <- sA[0 : 64, :]
  }
}

// -----

// Near miss: the swizzled tile.
target sm_80
kernel swizzled(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64] swizzle(128B)
  role mma all {
    reg a: bf16[64, 64] layout(mma_acc)
    cp.async sA <- A[block.x * 64 : 64, :]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    ldmatrix a <- sA[0 : 64, :]
  }
}

// -----

// W0703: swizzle(32B) only halves the conflict on 128-byte rows; the fix
// replaces it with the smallest swizzle that clears it.
target sm_80
kernel weak_swizzle(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64] swizzle(32B)
  role mma all {
    reg a: bf16[64, 64] layout(mma_acc)
    cp.async sA <- A[block.x * 64 : 64, :]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    // expected-warning@+1 [CAKE-W0703] {{`ldmatrix` reads `sA` with 4-way bank conflicts on sm_80: its rows are 128 B apart with swizzle(32B), so the 8 rows of 16 B that one request reads ask one bank for 4 words; swizzle(128B) makes it conflict-free}} fix {{smem sA: bf16[64, 64] swizzle(128B)}}
    ldmatrix a <- sA[0 : 64, :]
  }
}

// -----

// W0703, accumulator layouts: each quad of threads reads 2 f32 of a row,
// so a request holds 4 rows of 32 B, 128 B apart: 4-way. The same for an
// element-wise operand. A swizzle permutes 16-byte chunks within a row,
// which leaves 2 rows of 32 B on the same banks: padding the rows to 160 B
// (an odd multiple of 32 B) is the remedy, and not a mechanical one.
target sm_80
kernel acc_reads(A: global f32[64, 32]) grid (1) block 128 {
  smem sA: f32[64, 32]
  role r all {
    reg acc: f32[64, 32] layout(mma_acc)
    cp.async sA <- A[0 : 64, :]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    // expected-warning@+1 [CAKE-W0703] {{`load` reads `sA` with 4-way bank conflicts on sm_80: its rows are 128 B apart with no swizzle, so the 4 rows of 32 B that one request reads ask one bank for 4 words; no swizzle removes it: pad each row to 160 B (an odd multiple of 32 B)}} nofix
    load acc <- sA[0 : 64, :]
    // expected-warning@+1 [CAKE-W0703] {{an element-wise op reads `sA` with 4-way bank conflicts on sm_80: its rows are 128 B apart with no swizzle, so the 4 rows of 32 B that one request reads ask one bank for 4 words; no swizzle removes it: pad each row to 160 B (an odd multiple of 32 B)}} nofix
    acc = acc + sA[0 : 64, :]
  }
}

// -----

// Near miss: a row vector (1-D) is broadcast over the rows; no conflicts.
target sm_80
kernel row_vector(A: global f32[32]) grid (1) block 128 {
  smem v: f32[32]
  role r all {
    reg acc: f32[64, 32] layout(mma_acc) = 0
    cp.async v <- A[0 : 32]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    acc = acc + v
  }
}

// -----

// W0703 without a fix: TMA fills the buffer, so its swizzle must stay the
// tensor map's (E0503).
target sm_90a
kernel tma_unswizzled(X: global bf16[N, 64]) where N % 64 == 0 grid (N / 64) block 128 {
  smem xs: bf16[64, 64]
  mbarrier full
  tensormap tX = X box [64, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    elect {
      arrive.expect_tx full, bytes(xs)
      tma.load xs <- tX[block.x * 64, 0], full
    }
    wait full parity(0)
    wgmma.fence
    // expected-warning@+2 [CAKE-W0703] {{`wgmma` reads `xs` with 8-way bank conflicts on sm_90a: its rows are 128 B apart with no swizzle, so the 8 rows of 16 B that one request reads ask one bank for 8 words; swizzle(128B) would remove it, but tensor map `tX` fills the buffer and must then change too (E0503)}} nofix
    // expected-warning@+1 [CAKE-W0703] {{`wgmma` reads `xs` with 8-way bank conflicts on sm_90a: its rows are 128 B apart with no swizzle, so the 8 rows of 16 B that one request reads ask one bank for 8 words; swizzle(128B) would remove it, but tensor map `tX` fills the buffer and must then change too (E0503)}} nofix
    wgmma acc += xs @ xs.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// W0704: N = 32 with A in shared memory: 64 x 64 A elements are read for
// only 32 columns.
target sm_90a
kernel narrow(X: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 64] swizzle(128B)
  smem b: bf16[32, 64] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 32] layout(wgmma_acc) = 0
    wgmma.fence
    // expected-warning@+1 [CAKE-W0704] {{wgmma with N = 32 on H100-SXM5-80GB (sm_90a): it reads 12 KB of shared-memory operands for 262144 FLOPs, and those reads take 1.29× its tensor-core time, so it runs at most at 78 % of the wgmma peak; with N >= 64 each A tile it reads serves enough columns to keep the tensor cores busy}}
    wgmma acc += a @ b.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// Near misses: N = 64 with A in shared memory; N = 32 with A in registers
// (only B is read from shared memory: the tensor cores set the pace).
target sm_90a
kernel wide(X: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 64] swizzle(128B)
  smem b: bf16[64, 64] swizzle(128B)
  smem b32: bf16[32, 64] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg acc32: f32[64, 32] layout(wgmma_acc) = 0
    reg ar: bf16[64, 64] layout(wgmma_acc)
    wgmma.fence
    wgmma acc += a @ b.T
    wgmma acc32 += ar @ b32.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// W0705: 150 KB of shared memory leave room for one CTA per SM, and one role
// both loads and computes.
target sm_90a
// expected-warning@+1 [CAKE-W0705] {{kernel `fat` runs one CTA per SM on H100-SXM5-80GB (sm_90a), limited by shared memory (153600 bytes of buffers and mbarriers, 151 KB with the per-block reservation, of the SM's 228 KB), and has a single role: while its warps wait for memory no other CTA or role keeps the SM busy; split it into producer and consumer roles, or use less shared memory so that 2 CTAs fit}}
kernel fat(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem big: f32[600, 64]
  role all_in_one all {
    reg x: f32[32, 64] layout(wgmma_acc)
    load x <- X[block.x * 32 : 32, :]
  }
}
bench fat { N = 16896 }

// -----

// Near miss: the same shared memory in a warp-specialised kernel.
target sm_90a
kernel fat_specialised(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 256 {
  smem big: f32[600, 64]
  role loader warpgroup(0) {
    reg x: f32[32, 64] layout(wgmma_acc)
    load x <- X[block.x * 32 : 32, :]
  }
  role math warpgroup(1) { }
}
bench fat_specialised { N = 16896 }
