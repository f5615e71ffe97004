// Synchronisation protocol (E04xx) and races (E06xx): each case is a small
// kernel as a kernel engineer would write it, with one mistake, next to a
// near-miss that must stay clean. Cases are separated by `// -----`.

// The brief's KMeans release bug: elect.warp arrives once per warp.
target sm_90a
kernel release_per_warp(X: global bf16[N, 64], C: global bf16[K, 64], Cnorm: global f32[K], out: global i32[N])
  where N % 128 == 0, K % 128 == 0, K >= 128
  grid (N / 128) block 384
{
  smem xs: bf16[128, 64] swizzle(128B)
  smem cs: bf16[3][128, 64] swizzle(128B)
  smem cn: f32[3][128]
  mbarrier x_full
  mbarrier full[3]
  mbarrier empty[3] count(256)
  tensormap tX = X box [128, 64] swizzle(128B)
  tensormap tC = C box [128, 64] swizzle(128B)
  role producer warpgroup(0) maxnreg(40) {
    elect {
      arrive.expect_tx x_full, bytes(xs)
      tma.load xs <- tX[block.x * 128, 0], x_full
      pipeline s in ring(3) for kt in 0 .. K / 128 {
        // expected-error@+1 [CAKE-E0403] {{deadlock: this wait for parity 0 can never complete; `empty[0]` is in phase 0 with 8 of 256 arrivals (at kt = 3, s = 0, s.phase = 1)}}
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s]) + bytes(cn[s])
        tma.load cs[s] <- tC[kt * 128, 0], full[s]
        bulk.load cn[s] <- Cnorm[kt * 128 : 128], full[s]
      }
    }
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 128] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row) = +inf
    reg arg: i32[64] layout(wgmma_acc.row) = 0
    wait x_full parity(0)
    pipeline s in ring(3) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc = xs[wg * 64 : 64, :] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      acc = cn[s] - 2.0 * acc
      argmin.row best, arg <- acc, base(kt * 128)
      // expected-error@+1 [CAKE-E0401] {{`empty[0]` gets 8 arrival(s) per phase (`elect.warp`: one per warp, 8 warps) but was declared count(256): its phase never completes}}
      elect.warp { arrive empty[s] }
    }
    store out[block.x * 128 + wg * 64 : 64] <- arg
  }
}
bench release_per_warp { N = 1048576, K = 1024 }

// -----

// count(8) instead: the phase completes, but lanes still reading cn[s] are
// not ordered before the producer's overwrite.
target sm_90a
kernel release_race(X: global bf16[N, 64], C: global bf16[K, 64], Cnorm: global f32[K], out: global i32[N])
  where N % 128 == 0, K % 128 == 0, K >= 128
  grid (N / 128) block 384
{
  smem xs: bf16[128, 64] swizzle(128B)
  smem cs: bf16[3][128, 64] swizzle(128B)
  smem cn: f32[3][128]
  mbarrier x_full
  mbarrier full[3]
  mbarrier empty[3] count(8)
  tensormap tX = X box [128, 64] swizzle(128B)
  tensormap tC = C box [128, 64] swizzle(128B)
  role producer warpgroup(0) maxnreg(40) {
    elect {
      arrive.expect_tx x_full, bytes(xs)
      tma.load xs <- tX[block.x * 128, 0], x_full
      pipeline s in ring(3) for kt in 0 .. K / 128 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s]) + bytes(cn[s])
        tma.load cs[s] <- tC[kt * 128, 0], full[s]
        // expected-error@+1 [CAKE-E0602] {{`cn[0]` is overwritten before its readers by role `consumer` release it: their reads are not ordered before this write}}
        bulk.load cn[s] <- Cnorm[kt * 128 : 128], full[s]
      }
    }
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 128] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row) = +inf
    reg arg: i32[64] layout(wgmma_acc.row) = 0
    wait x_full parity(0)
    pipeline s in ring(3) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc = xs[wg * 64 : 64, :] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      acc = cn[s] - 2.0 * acc
      argmin.row best, arg <- acc, base(kt * 128)
      elect.warp { arrive empty[s] }
    }
    store out[block.x * 128 + wg * 64 : 64] <- arg
  }
}
bench release_race { N = 1048576, K = 1024 }

// -----

// Near-miss: a syncthreads-free release by every thread is right (the
// example kernel); here a named barrier first orders the warpgroup, so one
// elected thread may release for it.
target sm_90a
kernel release_after_sync(Cnorm: global f32[K], out: global f32[K])
  where K % 128 == 0, K >= 128
  grid (1) block 256
{
  smem cn: f32[2][128]
  mbarrier full[2]
  mbarrier empty[2] count(1)
  namedbarrier consumers id(1) threads(128)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(2) for kt in 0 .. K / 128 {  // expected-warning [CAKE-W0701] {{pipeline `s` exposes}}
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cn[s])
        bulk.load cn[s] <- Cnorm[kt * 128 : 128], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg v: f32[128]
    pipeline s in ring(2) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      v = v + cn[s]
      sync consumers
      elect { arrive empty[s] }
    }
  }
}
bench release_after_sync { K = 1024 }

// -----

target sm_90a
kernel overflow(A: global f32[N]) where N >= 128 grid (1) block 128 {
  mbarrier b count(1)
  // expected-error@+1 [CAKE-E0401] {{`b` receives 128 arrivals in one phase but was declared count(1): 128 thread(s) of the kernel's threads arrive here}}
  arrive b
  wait b parity(0)
}

// -----

target sm_90a
kernel expect_too_much(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem buf: f32[128]
  mbarrier full
  role all_threads all {
    elect {
      // expected-error@+1 [CAKE-E0402] {{`full` expects 1024 bytes per phase but its copies deliver 512: the phase never completes (a hang)}}
      arrive.expect_tx full, 1024
      bulk.load buf <- A[block.x * 128 : 128], full
    }
  }
}

// -----

target sm_90a
kernel expect_too_little(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem buf: f32[128]
  mbarrier full
  role all_threads all {
    elect {
      // expected-error@+1 [CAKE-E0402] {{`full` expects 256 bytes per phase but its copies deliver 512: the phase completes before the last 256 bytes land (readers race them)}}
      arrive.expect_tx full, 256
      bulk.load buf <- A[block.x * 128 : 128], full
    }
    wait full parity(0)
  }
}

// -----

// bytes() of a slice counts the slice: half of the box is too little.
target sm_90a
kernel expect_slice_too_little(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [128, 64] swizzle(128B)
  role load all {
    elect {
      // expected-error@+1 [CAKE-E0402] {{`full` expects 8192 bytes per phase but its copies deliver 16384: the phase completes before the last 8192 bytes land (readers race them)}}
      arrive.expect_tx full, bytes(xs[0 : 64, :])
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
  }
}

// -----

// The near miss: a slice of the whole box, and one stage of a ring by a
// slice of each, count exactly what lands.
target sm_90a
kernel expect_slice_exact(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[2][128, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [64, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs[0][0 : 128, :])
      tma.load xs[0][0 : 64, :] <- tX[block.x * 128, 0], full
      tma.load xs[0][64 : 64, :] <- tX[block.x * 128 + 64, 0], full
    }
    wait full parity(0)
  }
}

// -----

// The expect_tx covers the first copy only: the phase completes when it
// lands, so the second copy's bytes arrive late. The message counts every
// copy of the expect_tx (512 + 1024) and the late ones (hopper_gemm's bug).
target sm_90a
kernel expect_first_copy_only(A: global f32[N], B: global f32[N]) where N % 256 == 0 grid (N / 256) block 128 {
  smem buf: f32[128]
  smem wide: f32[256]
  mbarrier full
  role all_threads all {
    elect {
      // expected-error@+1 [CAKE-E0402] {{`full` expects 512 bytes per phase but its copies deliver 1536: the phase completes before the last 1024 bytes land (readers race them)}}
      arrive.expect_tx full, bytes(buf)
      bulk.load buf <- A[block.x * 128 : 128], full
      bulk.load wide <- B[block.x * 256 : 256], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel expect_exact(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem buf: f32[128]
  mbarrier full
  role all_threads all {
    reg v: f32[128]
    elect {
      arrive.expect_tx full, bytes(buf)
      bulk.load buf <- A[block.x * 128 : 128], full
    }
    wait full parity(0)
    v = v + buf
  }
}

// -----

target sm_90a
kernel no_arrivals(A: global f32[N]) grid (1) block 128 {
  mbarrier ready
  // expected-error@+1 [CAKE-E0404] {{nothing ever arrives on `ready`}}
  wait ready parity(0)
}

// -----

target sm_90a
kernel sync_in_role(A: global f32[N]) grid (1) block 256 {
  role a warpgroup(0) {
    // expected-error@+1 [CAKE-E0405] {{`syncthreads` inside role `a` of a kernel with several roles: role `b` never reaches a `syncthreads` (a hang)}}
    syncthreads
  }
  role b warpgroup(1) { }
}

// -----

// Every role reaches a `syncthreads` of its own, as often as the others:
// they pair up as one CTA-wide barrier (bar.sync 0 counts warps, whichever
// instruction they reach), which orders role a's store before role b's read
// (clean).
target sm_90a
kernel sync_every_role(A: global f32[128]) grid (1) block 256 {
  smem buf: f32[128]
  role a warpgroup(0) {
    reg v: f32
    load v <- A[warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- v
    syncthreads
  }
  role b warpgroup(1) {
    reg w: f32
    syncthreads
    load w <- buf[(warp.id - 4) * 32 + lane]
    store A[(warp.id - 4) * 32 + lane] <- w
  }
}

// -----

// Role b reads before its `syncthreads`: nothing orders role a's store first.
target sm_90a
kernel sync_every_role_early(A: global f32[128]) grid (1) block 256 {
  smem buf: f32[128]
  role a warpgroup(0) {
    reg v: f32
    load v <- A[warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- v
    syncthreads
  }
  role b warpgroup(1) {
    reg w: f32
    // expected-error@+1 [CAKE-E0601] {{`buf` is read before the barrier that publishes its write}}
    load w <- buf[(warp.id - 4) * 32 + lane]
    syncthreads
    store A[(warp.id - 4) * 32 + lane] <- w
  }
}

// -----

// The same, but role a reaches its `syncthreads` once more than role b: the
// second round never fills.
target sm_90a
kernel sync_count(A: global f32[128]) grid (1) block 256 {
  smem buf: f32[128]
  role a warpgroup(0) {
    reg v: f32
    load v <- A[warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- v
    for i in 0 .. 2 {
      // expected-error@+1 [CAKE-E0405] {{`syncthreads` in role `a` is never released: role `b` ends without reaching `syncthreads` as often (a hang)}}
      syncthreads
    }
  }
  role b warpgroup(1) {
    reg w: f32
    syncthreads
    load w <- buf[(warp.id - 4) * 32 + lane]
    store A[(warp.id - 4) * 32 + lane] <- w
  }
}

// -----

target sm_90a
kernel sync_divergent(A: global f32[N]) grid (1) block 128 {
  if lane < 16 {
    // expected-error@+1 [CAKE-E0405] {{under a condition that differs between threads}}
    syncthreads
  }
  elect {
    // expected-error@+1 [CAKE-E0405] {{inside `elect`}}
    syncthreads
  }
  if block.x < 4 {
    syncthreads
  }
}

// -----

target sm_90a
kernel named_count(A: global f32[N]) grid (1) block 256 {
  namedbarrier epi id(1) threads(256)
  namedbarrier ok id(2) threads(128)
  role a warpgroup(0) {
    // expected-error@+1 [CAKE-E0406] {{`epi` is declared threads(256) but 128 threads reach it: the barrier never releases (a hang)}}
    sync epi
    sync ok
  }
  role b warpgroup(1) { }
}

// -----

target sm_90a
kernel no_fence(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[64, 16]
  reg acc: f32[64, 64] layout(wgmma_acc) = 0
  // expected-error@+1 [CAKE-E0407] {{no `wgmma.fence` before the first wgmma}}
  wgmma acc += a @ b.T  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
  wgmma.commit
  wgmma.wait 0
  acc = acc * 2.0
  wgmma.fence
  wgmma acc += a @ b.T  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
  wgmma.commit
  wgmma.wait 0
}

// -----

target sm_90a
kernel no_wait(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[64, 16]
  reg acc: f32[64, 64] layout(wgmma_acc) = 0
  wgmma.fence
  wgmma acc += a @ b.T  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
  wgmma.commit
  // expected-error@+1 [CAKE-E0408] {{`acc` is used while a wgmma that writes it is in flight: add `wgmma.wait 0` before this line}}
  acc = acc * 2.0
}

// -----

target sm_80
kernel cp_async_no_wait(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64]
  reg a: bf16[64, 64] layout(mma_acc)
  cp.async sA <- A[block.x * 64 : 64, :]
  cp.async.commit
  // expected-error@+1 [CAKE-E0409] {{still in flight}}
  ldmatrix a <- sA  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sA`}}
}

// -----

target sm_80
kernel cp_async_no_barrier(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64]
  reg a: bf16[64, 64] layout(mma_acc)
  cp.async sA <- A[block.x * 64 : 64, :]
  cp.async.commit
  cp.async.wait 0
  // expected-error@+1 [CAKE-E0409] {{without a barrier}}
  ldmatrix a <- sA  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sA`}}
}

// -----

target sm_80
kernel cp_async_ok(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64]
  reg a: bf16[64, 64] layout(mma_acc)
  cp.async sA <- A[block.x * 64 : 64, :]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sA  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sA`}}
}

// -----

target sm_100a
kernel commit_elsewhere(A: global bf16[M, 64]) where M % 128 == 0 grid (M / 128) block 128 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  tmem acc: f32[128, 256]
  mbarrier done
  elect {
    tcgen05.mma acc += sA @ sB.T, accumulate(false)
  }
  // expected-error@+2 [CAKE-E0410] {{`tcgen05.commit` must run on the thread that issued the MMAs it covers; this one runs on 128 thread(s)}}
  // expected-error@+1 [CAKE-E0401] {{`done` receives 128 arrivals in one phase but was declared count(1): 128 thread(s) of the kernel's threads arrive here}}
  tcgen05.commit done
}

// -----

target sm_100a
kernel tmem_early(C: global f32[M, 256]) where M % 128 == 0 grid (M / 128) block 128 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  tmem acc: f32[128, 256]
  mbarrier done
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  elect {
    tcgen05.mma acc += sA @ sB.T, accumulate(false)
    tcgen05.commit done
  }
  // expected-error@+1 [CAKE-E0411] {{`acc` is read before the completion of the MMAs that write it is observed}}
  tcgen05.ld r <- acc[q * 32 : 32, 0 : 32]
  tcgen05.wait.ld
  store C[block.x * 128 + q * 32 : 32, 0 : 32] <- r
}

// -----

target sm_100a
kernel tmem_ok(C: global f32[M, 256]) where M % 128 == 0 grid (M / 128) block 128 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  tmem acc: f32[128, 256]
  mbarrier done
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  elect {
    tcgen05.mma acc += sA @ sB.T, accumulate(false)
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, 0 : 32]
  // expected-error@+1 [CAKE-E0412] {{`r` is used before `tcgen05.wait.ld`}}
  store C[block.x * 128 + q * 32 : 32, 0 : 32] <- r
  tcgen05.wait.ld
  store C[block.x * 128 + q * 32 : 32, 32 : 32] <- r
}

// -----

target sm_100a
kernel tmem_lanes(C: global f32[M, 256]) where M % 128 == 0 grid (M / 128) block 256 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  tmem acc: f32[128, 256]
  mbarrier done
  role mma warpgroup(0) {
    elect {
      tcgen05.mma acc += sA @ sB.T, accumulate(false)
      tcgen05.commit done
    }
  }
  role epilogue warpgroup(1) {
    reg r: f32[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    // expected-error@+1 [CAKE-E0413] {{warp 5 touches TMEM lanes 0 .. 31, but a warp may reach only lanes 32 .. 63 (32 × (warp % 4)); index the lanes with `(warp.id % 4) * 32`}}
    tcgen05.ld r <- acc[0 : 32, 0 : 32]
    tcgen05.ld r <- acc[(warp.id % 4) * 32 : 32, 32 : 32]
    tcgen05.wait.ld
  }
}

// -----

// An M = 64 accumulator in a 128-lane buffer: the fix declares it with 64
// lanes, which also places the rows the epilogue reads in its quarters.
target sm_100a
kernel tmem_m64_fix(C: global f32[64, 64]) grid (1) block 128 {
  smem sA: bf16[64, 64] swizzle(128B)
  smem sB: bf16[64, 64] swizzle(128B)
  tmem acc: f32[128, 64]
  mbarrier done
  reg r: f32[16, 64] layout(mma_acc)
  elect {
    // expected-error@+1 [CAKE-E0106] {{but `acc` has 128 lanes: declare the accumulator with 64 lanes}} fix {{tmem acc: f32[64, 64]}}
    tcgen05.mma acc[0 : 64, :] = sA @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  // expected-error@+1 [CAKE-E0413] {{warp 1 touches TMEM lanes 16 .. 31}}
  tcgen05.ld r <- acc[(warp.id % 4) * 16 : 16, :]
  tcgen05.wait.ld
  store C[(warp.id % 4) * 16 : 16, :] <- r
}

// -----

// M = 64: the MMA writes rows 16 q .. 16 q + 15 to the first 16 lanes of
// quarter q, which is where a 64-lane buffer holds them; `mma_acc`
// fragments move 16 lanes at a time from lane 0 or 16 of a quarter.
target sm_100a
kernel tmem_m64(C: global f32[M, 64]) where M % 64 == 0 grid (M / 64) block 256 {
  smem sA: bf16[64, 64] swizzle(128B)
  smem sB: bf16[64, 64] swizzle(128B)
  smem sA128: bf16[128, 64] swizzle(128B)
  tmem acc: f32[64, 64]
  tmem wide: f32[128, 64]
  tmem ta: bf16[128, 64]
  tmem ta64: bf16[64, 64]
  mbarrier done
  role mma warpgroup(0) {
    elect {
      tcgen05.mma acc = sA @ sB.T
      // expected-error@+1 [CAKE-E0106] {{an M = 64 `tcgen05.mma` keeps the rows of its accumulator and of an A in tensor memory 16 to each quarter of TMEM lanes (the first 16 lanes of each), where only a 64-lane tmem buffer holds them, but `wide` has 128 lanes: declare the accumulator with 64 lanes}}
      tcgen05.mma wide[0 : 64, :] = sA @ sB.T
      // expected-error@+1 [CAKE-E0106] {{`tcgen05.mma` of one CTA on bf16 operands computes M = 64 by N = 8 .. 256 step 8; or M = 128 by N = 16 .. 256 step 16; this one is M = 32, N = 64}}
      tcgen05.mma wide[0 : 32, :] = sA[0 : 32, :] @ sB.T
      // expected-error@+1 [CAKE-E0106] {{this one is M = 128, N = 40}}
      tcgen05.mma wide[:, 0 : 40] = sA128 @ sB[0 : 40, :].T
      tcgen05.mma acc[:, 0 : 40] = sA @ sB[0 : 40, :].T
      // expected-error@+1 [CAKE-E0106] {{but `ta` has 128 lanes: declare A with 64 lanes}}
      tcgen05.mma acc = ta[0 : 64, :] @ sB.T
      tcgen05.mma acc = ta64 @ sB.T
      tcgen05.commit done
    }
  }
  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[16, 32] layout(mma_acc)
    reg t: f32[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    tcgen05.ld r <- acc[q * 16 : 16, 0 : 32]
    // expected-error@+1 [CAKE-E0413] {{warp 5 touches rows 32 .. 47 of `acc`, TMEM lanes 64 .. 79, but a warp may reach only lanes 32 .. 63: a 64-lane buffer holds an M = 64 MMA's rows 16 q .. 16 q + 15 in the first 16 lanes of quarter q; index the rows with `(warp.id % 4) * 16`}}
    tcgen05.ld r <- acc[(q % 2) * 32 : 16, 0 : 32]
    // expected-error@+1 [CAKE-E0413] {{warp 4 touches rows 0 .. 31 of `acc`, TMEM lanes 0 .. 47}}
    tcgen05.ld t <- acc[(q % 2) * 32 : 32, 0 : 32]
    tcgen05.ld r <- wide[q * 32 + 16 : 16, 0 : 32]
    // expected-error@+1 [CAKE-E0413] {{warp 4 moves `mma_acc` rows 16 TMEM lanes at a time (the .16x shapes) from lane 8, which is not lane 0 or 16 of a quarter}}
    tcgen05.ld r <- wide[q * 32 + 8 : 16, 0 : 32]
    tcgen05.wait.ld
  }
}

// -----

target sm_90a
kernel read_unpublished(C: global bf16[K, 64]) where K % 128 == 0, K >= 128 grid (1) block 256 {
  smem cs: bf16[2][128, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  tensormap tC = C box [128, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(2) for kt in 0 .. K / 128 {  // expected-warning [CAKE-W0701] {{pipeline `s` exposes}}
        // expected-error@+1 [CAKE-E0403] {{deadlock: this wait for parity 0 can never complete; `empty[0]` is in phase 2 with 0 of 128 arrivals (at kt = 2, s = 0, s.phase = 1)}}
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(cs[s])
        tma.load cs[s] <- tC[kt * 128, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg acc: f32[64, 128] layout(wgmma_acc) = 0
    pipeline s in ring(2) for kt in 0 .. K / 128 {
      // waits on the wrong stage's barrier
      wait full[0] parity(0)
      wgmma.fence
      // expected-error@+1 [CAKE-E0601] {{`cs[1]` is read before the barrier that publishes its write: this role never waits on the phase that carries it to every thread}}
      wgmma acc += cs[s][0 : 64, :] @ cs[s].T
      wgmma.commit
      wgmma.wait 0
      arrive empty[s]
    }
  }
}
bench read_unpublished { K = 512 }

// -----

target sm_90a
kernel two_writers(A: global f32[N]) where N >= 128 grid (1) block 256 {
  smem buf: f32[128]
  role a warpgroup(0) {
    reg v: f32[128]
    elect {
      store buf <- v
    }
  }
  role b warpgroup(1) {
    reg w: f32[128]
    elect {
      // expected-error@+1 [CAKE-E0603] {{`buf` is written by two roles with no barrier ordering the writes}}
      store buf <- w
    }
  }
}

// -----

// Two CTAs of a cluster each multicast their row of the tile to both: each
// CTA's barrier receives both copies' bytes, so expecting all of `s` is
// right (clean). Issue 12: only the CTA's own copy used to be credited.
target sm_90a
kernel multicast_halves(X: global f32[2, 64], Y: global f32[4, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  reg y: f32[2]
  elect {
    arrive.expect_tx full, bytes(s)
    tma.load s[cluster.rank : 1, :] <- t[cluster.rank, 0], full multicast(3)
  }
  wait full parity(0)
  load y <- s[lane / 16, lane % 16 * 4 : 2]
  store Y[block.x * 2 + lane / 16, lane % 16 * 4 : 2] <- y
  cluster.sync
}

// -----

// The mask names CTA 2 of a two-CTA cluster.
target sm_90a
kernel multicast_outside(X: global f32[2, 64], Y: global f32[4, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  reg y: f32[2]
  elect {
    arrive.expect_tx full, bytes(s)
    // expected-error@+1 [CAKE-E0414] {{`multicast(7)` names CTAs outside this kernel's cluster of 2 (ranks 0 .. 1): keep the mask within 3}}
    tma.load s[cluster.rank : 1, :] <- t[cluster.rank, 0], full multicast(7)
  }
  wait full parity(0)
  load y <- s[lane / 16, lane % 16 * 4 : 2]
  store Y[block.x * 2 + lane / 16, lane % 16 * 4 : 2] <- y
  cluster.sync
}

// -----

// Both CTAs send their row only to CTA 0: CTA 1's barrier never gets its
// bytes, and the report says which CTA hangs.
target sm_90a
kernel multicast_starves(X: global f32[2, 64], Y: global f32[4, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  reg y: f32[2]
  elect {
    // expected-error@+1 [CAKE-E0402] {{`full` expects 512 bytes per phase but its copies deliver 0: the phase never completes (a hang)}}
    arrive.expect_tx full, bytes(s)
    tma.load s[cluster.rank : 1, :] <- t[cluster.rank, 0], full multicast(1)
  }
  // expected-error@+1 [CAKE-E0403] {{deadlock: this wait for parity 0 can never complete; `full` is in phase 0 with 1 of 1 arrivals and 0 of 512 bytes}}
  wait full parity(0)
  load y <- s[lane / 16, lane % 16 * 4 : 2]
  store Y[block.x * 2 + lane / 16, lane % 16 * 4 : 2] <- y
  cluster.sync
}

// -----

// A named barrier shared by two roles (128 + 32 threads on one id) is a
// rendezvous: the producer's stores are ordered before the consumer's loads
// (clean). Issue 12: `sync` used to order nothing across roles.
target sm_90a
kernel named_rendezvous(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 160 {
  smem buf: f32[128]
  namedbarrier ready id(1) threads(160)
  role producer warpgroup(0) {
    reg x: f32
    load x <- X[block.x * 128 + warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- x
    sync ready
  }
  role consumer warp(4 .. 5) {
    reg y: f32[4]
    sync ready
    load y <- buf[lane * 4 : 4]
    store Y[block.x * 128 + lane * 4 : 4] <- y
  }
}

// -----

// The producer stores after the rendezvous: nothing orders its write and
// the consumer's read.
target sm_90a
kernel named_store_late(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 160 {
  smem buf: f32[128]
  namedbarrier ready id(1) threads(160)
  role producer warpgroup(0) {
    reg x: f32
    load x <- X[block.x * 128 + warp.id * 32 + lane]
    sync ready
    // expected-error@+1 [CAKE-E0602] {{`buf` is overwritten before its readers by role `consumer` release it: their reads are not ordered before this write}}
    store buf[warp.id * 32 + lane] <- x
  }
  role consumer warp(4 .. 5) {
    reg y: f32[4]
    sync ready
    load y <- buf[lane * 4 : 4]
    store Y[block.x * 128 + lane * 4 : 4] <- y
  }
}

// -----

// `arrive ready` (bar.arrive): the producer counts toward the round and goes
// on; its stores before the arrive are ordered before the consumer's loads
// after its `sync` (clean). Its 128 threads count toward threads(160).
target sm_90a
kernel named_handoff(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 160 {
  smem buf: f32[128]
  namedbarrier ready id(1) threads(160)
  role producer warpgroup(0) {
    reg x: f32
    load x <- X[block.x * 128 + warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- x
    arrive ready
  }
  role consumer warp(4 .. 5) {
    reg y: f32[4]
    sync ready
    load y <- buf[lane * 4 : 4]
    store Y[block.x * 128 + lane * 4 : 4] <- y
  }
}

// -----

// The producer arrives before it stores: the arrive orders nothing after it.
target sm_90a
kernel named_arrive_early(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 160 {
  smem buf: f32[128]
  namedbarrier ready id(1) threads(160)
  role producer warpgroup(0) {
    reg x: f32
    load x <- X[block.x * 128 + warp.id * 32 + lane]
    arrive ready
    store buf[warp.id * 32 + lane] <- x
  }
  role consumer warp(4 .. 5) {
    reg y: f32[4]
    sync ready
    // expected-error@+1 [CAKE-E0601] {{`buf` is read before the barrier that publishes its write}}
    load y <- buf[lane * 4 : 4]
    store Y[block.x * 128 + lane * 4 : 4] <- y
  }
}

// -----

// Arrivals count toward the declared threads (128 declared, 160 reach it),
// and an `arrive` on a named barrier inside `elect` counts one thread.
target sm_90a
kernel named_arrive_counts(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 160 {
  smem buf: f32[128]
  namedbarrier ready id(1) threads(128)
  namedbarrier other id(2) threads(160)
  role producer warpgroup(0) {
    reg x: f32
    load x <- X[block.x * 128 + warp.id * 32 + lane]
    store buf[warp.id * 32 + lane] <- x
    // expected-error@+1 [CAKE-E0406] {{`ready` is declared threads(128) but 160 threads reach it}}
    arrive ready
    elect {
      // expected-error@+1 [CAKE-E0405] {{`arrive` inside `elect`: only the elected threads reach it}}
      arrive other
    }
  }
  role consumer warp(4 .. 5) {
    reg y: f32[4]
    sync ready
    sync other
    load y <- buf[lane * 4 : 4]
    store Y[block.x * 128 + lane * 4 : 4] <- y
  }
}

// -----

// A tile staged by plain stores and written out by TMA: the async proxy
// reads it, so the stores need `fence.proxy.async` before the barrier.
target sm_90a
kernel stage_store(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  syncthreads
  elect {
    // expected-error@+1 [CAKE-E0604] {{`out` is read by `tma.store` (the async proxy) but its last write, by `store`, is a generic-proxy one with no `fence.proxy.async` after it}} fix {{fence.proxy.async}}
    tma.store tY[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// The same with the fence (clean).
target sm_90a
kernel stage_store_fenced(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tY[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// The writer fences, but after the arrive that lets the storer read: the
// fence is not ordered before the TMA store's read.
target sm_90a
kernel fence_after_publish(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 64 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  mbarrier staged count(32)
  role writer warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    arrive staged
    fence.proxy.async
  }
  role storer warp(1) {
    wait staged parity(0)
    elect {
      // expected-error@+1 [CAKE-E0604] {{`out` is read by `tma.store` (the async proxy) after its last write, by `store`, through the generic proxy; the `fence.proxy.async` that follows the write is not ordered before this read}} fix {{fence.proxy.async}}
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
  }
}

// -----

// The fence before the arrive (clean).
target sm_90a
kernel fence_before_publish(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 64 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  mbarrier staged count(32)
  role writer warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    arrive staged
  }
  role storer warp(1) {
    wait staged parity(0)
    elect {
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
  }
}

// -----

// cp.async writes through the generic proxy too: a wgmma reading the tile
// needs the fence.
target sm_90a
kernel cp_async_wgmma(A: global bf16[64, 16], B: global bf16[64, 16], C: global f32[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16] swizzle(32B)
  smem b: bf16[64, 16] swizzle(32B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    cp.async a <- A
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    syncthreads
    wgmma.fence
    // expected-error@+1 [CAKE-E0604] {{`a` is read by `wgmma` (the async proxy) but its last write, by `cp.async`, is a generic-proxy one}} fix {{fence.proxy.async}}
    wgmma acc += a @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
}

// -----

// The fence before the wait: the copy may not have written the tile yet, so
// the fence orders nothing; the fix puts it after the wait.
target sm_90a
kernel cp_async_fence_before_wait(A: global bf16[64, 16], B: global bf16[64, 16], C: global f32[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16] swizzle(32B)
  smem b: bf16[64, 16] swizzle(32B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    cp.async a <- A
    cp.async b <- B
    cp.async.commit
    fence.proxy.async
    cp.async.wait 0
    syncthreads
    wgmma.fence
    // expected-error@+1 [CAKE-E0604] {{`a` is read by `wgmma` (the async proxy) but its last write, by `cp.async`, is a generic-proxy one}} fix {{fence.proxy.async}}
    wgmma acc += a @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
}

// -----

// The fence after the wait (clean).
target sm_90a
kernel cp_async_fence_after_wait(A: global bf16[64, 16], B: global bf16[64, 16], C: global f32[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16] swizzle(32B)
  smem b: bf16[64, 16] swizzle(32B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    cp.async a <- A
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc += a @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
}

// -----

// Every lane stores its element, then the elected thread reads the whole
// tile: `elect` orders nothing, so lane 0 may read before lane 5's store
// lands. The block is the role, so `syncthreads` before the `elect` fixes it.
target sm_90a
kernel elect_reads_lanes(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  reg x: f32[1]
  load x <- X[block.x * 32 + lane : 1]
  store s[lane : 1] <- x
  elect {
    reg t: f32[32]
    // expected-error@+1 [CAKE-E0601] {{`s` is read inside `elect` after every thread of the role wrote it, with no barrier between}} fix {{syncthreads}}
    load t <- s
    store Y[block.x * 32 : 32] <- t
  }
}

// -----

// The same with the barrier (clean).
target sm_90a
kernel elect_reads_after_sync(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  reg x: f32[1]
  load x <- X[block.x * 32 + lane : 1]
  store s[lane : 1] <- x
  syncthreads
  elect {
    reg t: f32[32]
    load t <- s
    store Y[block.x * 32 : 32] <- t
  }
}

// -----

// Or an mbarrier phase that every lane arrives on and the elected thread
// waits for (clean): the wait acquires every lane's store.
target sm_90a
kernel elect_reads_after_phase(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  mbarrier lanes count(32)
  reg x: f32[1]
  load x <- X[block.x * 32 + lane : 1]
  store s[lane : 1] <- x
  arrive lanes
  elect { wait lanes parity(0) }
  elect {
    reg t: f32[32]
    load t <- s
    store Y[block.x * 32 : 32] <- t
  }
}

// -----

// One warp reads a tile each step and its elected thread copies the next
// one over it: with no barrier of the warp between, the copy may land
// before every lane has read. `syncthreads` before the `elect` fixes it.
// No bench: the smallest N gives the loop one trip, so the verifier grows
// N until it runs twice, as it turns rings twice.
target sm_90a
kernel elect_copies_over_reads(X: global f32[N, 32], Y: global f32[32]) where N % 32 == 0 grid (1) block 32 {
  smem s: f32[32]
  mbarrier full
  reg acc: f32[1] = 0
  reg t: f32[1]
  for k in 0 .. N / 32 {
    elect {
      arrive.expect_tx full, bytes(s)
      // expected-error@+1 [CAKE-E0602] {{`s` is overwritten inside `elect` after every thread of the role read it, with no barrier between}} fix {{syncthreads}}
      bulk.load s <- X[k, :], full
    }
    wait full parity(k % 2)
    load t <- s[lane : 1]
    acc = acc + t
  }
  store Y[lane : 1] <- acc
}

// -----

// The same with the barrier after the reads (clean).
target sm_90a
kernel elect_copies_after_sync(X: global f32[N, 32], Y: global f32[32]) where N % 32 == 0 grid (1) block 32 {
  smem s: f32[32]
  mbarrier full
  reg acc: f32[1] = 0
  reg t: f32[1]
  for k in 0 .. N / 32 {
    elect {
      arrive.expect_tx full, bytes(s)
      bulk.load s <- X[k, :], full
    }
    wait full parity(k % 2)
    load t <- s[lane : 1]
    acc = acc + t
    syncthreads
  }
  store Y[lane : 1] <- acc
}

// -----

// An epilogue warp stages its tile, fences, and one thread stores it by TMA
// with no barrier of the warp between: the TMA unit may read rows whose
// stores have not landed. A role needs its own named barrier: the fix
// declares one (the first free id, the role's threads) and syncs on it.
target sm_90a
kernel epilogue_store_unsynced(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  role epilogue warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    elect {
      // expected-error@+1 [CAKE-E0601] {{`out` is read inside `elect` after every thread of the role wrote it}} fix {{sync epilogue_sync}}
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
  }
}

// -----

// The `elect` under an `if` of the role: a barrier there would wait for
// threads that never come, so no fix is offered.
target sm_90a
kernel elect_under_if(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 64) block 64 {
  smem s: f32[64]
  role io warp(0 .. 2) {
    reg x: f32[1]
    load x <- X[block.x * 64 + warp.id * 32 + lane : 1]
    store s[warp.id * 32 + lane : 1] <- x
    if warp.id == 0 {
      elect {
        reg t: f32[64]
        // expected-error@+2 [CAKE-E0601] {{`s` is read inside `elect` after every thread of the role wrote it}} nofix
        // expected-error@+1 [CAKE-E0605] {{`s` reads what another warp of role `io` wrote, with no barrier between}}
        load t <- s
        store Y[block.x * 64 : 64] <- t
      }
    }
  }
}

// -----

// The same with the warp's named barrier (clean).
target sm_90a
kernel epilogue_store_synced(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  namedbarrier epi id(1) threads(32)
  role epilogue warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    sync epi
    elect {
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
  }
}

// -----

// tcgen05.st then tcgen05.ld of the same cells: the store must be waited for.
target sm_100a
kernel st_then_ld(X: global f32[128, 32], C: global f32[128, 32]) grid (1) block 128 {
  tmem t: f32[128, 32]
  reg r: f32[32, 32] layout(tcgen05_acc)
  reg o: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load r <- X[q * 32 : 32, :]
  tcgen05.st t[q * 32 : 32, :] <- r
  // expected-error@+1 [CAKE-E0415] {{`t` is read by `tcgen05.ld` before `tcgen05.wait.st` completes the `tcgen05.st` that writes it}}
  tcgen05.ld o <- t[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- o
}

// -----

// The same with the wait (clean).
target sm_100a
kernel st_wait_ld(X: global f32[128, 32], C: global f32[128, 32]) grid (1) block 128 {
  tmem t: f32[128, 32]
  reg r: f32[32, 32] layout(tcgen05_acc)
  reg o: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load r <- X[q * 32 : 32, :]
  tcgen05.st t[q * 32 : 32, :] <- r
  tcgen05.wait.st
  tcgen05.ld o <- t[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- o
}

// -----

// A staged TMA store that is committed but never waited for: the CTA may
// exit while the store still reads its shared memory.
target sm_90a
kernel store_never_waited(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    // expected-error@+1 [CAKE-E0416] {{this `tma.store` of `out` is never waited for}}
    tma.store tY[block.x * 32, 0] <- out
    tma.store.commit
  }
}

// -----

// The staging tile is rewritten for the next rows while the previous
// tile's store may still be reading it.
target sm_90a
kernel staging_reused(X: global f32[N, 64], Y: global f32[N, 64]) where N % 64 == 0 grid (N / 64) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  for i in 0 .. 2 {
    load x <- X[block.x * 64 + i * 32 + lane, :]
    // expected-error@+1 [CAKE-E0416] {{`out` is written while a `tma.store` still reads it}}
    store out[lane, :] <- x
    fence.proxy.async
    syncthreads
    elect {
      tma.store tY[block.x * 64 + i * 32, 0] <- out
      tma.store.commit
    }
  }
  elect {
    tma.store.wait 0
  }
}

// -----

// The same, waiting for each store before the tile is reused (clean).
target sm_90a
kernel staging_waited(X: global f32[N, 64], Y: global f32[N, 64]) where N % 64 == 0 grid (N / 64) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  for i in 0 .. 2 {
    load x <- X[block.x * 64 + i * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    syncthreads
    elect {
      tma.store tY[block.x * 64 + i * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
    syncthreads
  }
}

// -----

// `tma.store.wait.read` is enough to reuse the staging tile and to end the
// role: the stores' reads of shared memory are done (clean).
target sm_90a
kernel staging_read_waited(X: global f32[N, 64], Y: global f32[N, 64]) where N % 64 == 0 grid (N / 64) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  for i in 0 .. 2 {
    load x <- X[block.x * 64 + i * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    syncthreads
    elect {
      tma.store tY[block.x * 64 + i * 32, 0] <- out
      tma.store.commit
      tma.store.wait.read 0
    }
    syncthreads
  }
}

// -----

// E0417: the stored rows are read back after only a `.read` wait, which
// says nothing of the store's writes to global memory.
target sm_90a
kernel read_back_early(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tY[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait.read 0
  }
  syncthreads
  // expected-error@+1 [CAKE-E0417] {{`Y` is read while a `tma.store` to it may still be writing: only its reads of shared memory were waited for}} fix {{tma.store.wait 0}}
  load y <- Y[block.x * 32 + lane, :]
}

// -----

// E0417 before the store's group is even committed; the fix commits it.
target sm_90a
kernel read_back_uncommitted(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tY[block.x * 32, 0] <- out
  }
  // expected-error@+1 [CAKE-E0417] {{its group is not even committed}} fix {{tma.store.commit}}
  load y <- Y[block.x * 32 + lane, :]
  elect {
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// Near misses (clean): the full wait before reading back, and reading
// another tensor after a `.read` wait.
target sm_90a
kernel read_back_waited(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 32 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tY[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait.read 0
    tma.store.wait 0
  }
  syncthreads
  load y <- Y[block.x * 32 + lane, :]
  load x <- X[block.x * 32 + lane, :]
}

// -----

// Another role reads the stored rows back. The storer waits for the whole
// store before the named barrier that orders the reader after it (clean).
target sm_90a
kernel read_back_other_role(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 64 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  namedbarrier stored id(1) threads(64)
  namedbarrier staged id(2) threads(32)
  role storer warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    sync staged
    elect {
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait 0
    }
    sync stored
  }
  role reader warp(1) {
    reg y: f32[64]
    sync stored
    load y <- Y[block.x * 32 + lane, :]
  }
}

// -----

// The same with only the `.read` wait before the barrier: the reader may
// see the old rows.
target sm_90a
kernel read_back_other_role_early(X: global f32[N, 64], Y: global f32[N, 64]) where N % 32 == 0 grid (N / 32) block 64 {
  smem out: f32[32, 64]
  tensormap tY = Y box [32, 64]
  namedbarrier stored id(1) threads(64)
  namedbarrier staged id(2) threads(32)
  role storer warp(0) {
    reg x: f32[64]
    load x <- X[block.x * 32 + lane, :]
    store out[lane, :] <- x
    fence.proxy.async
    sync staged
    elect {
      tma.store tY[block.x * 32, 0] <- out
      tma.store.commit
      tma.store.wait.read 0
    }
    sync stored
    elect {
      tma.store.wait 0
    }
  }
  role reader warp(1) {
    reg y: f32[64]
    sync stored
    // expected-error@+1 [CAKE-E0417] {{`Y` is read while role `storer`'s `tma.store` to it may still be writing: no `tma.store.wait` (not `.read`) of that role is ordered before this read}}
    load y <- Y[block.x * 32 + lane, :]
  }
}

// -----

// In a cluster, CTA 0 adds the rows CTA 1 stored. Each CTA waits for its
// whole store before the cluster.sync that orders the read after it (clean).
target sm_90a
kernel peer_rows(X: global f32[N, 64], W: global f32[N, 64], Z: global f32[N, 64]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
  cluster.sync
  if cluster.rank == 0 {
    load y <- W[(block.x + 1) * 32 + lane, :]
    x = x + y
    store Z[block.x * 32 + lane, :] <- x
  }
}

// -----

// The same with only the `.read` wait before the cluster.sync: CTA 1's rows
// may not be in global memory yet. CTA 0's own store writes other rows, so
// only the peer form is reported.
target sm_90a
kernel peer_rows_read_wait(X: global f32[N, 64], W: global f32[N, 64], Z: global f32[N, 64]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait.read 0
  }
  cluster.sync
  if cluster.rank == 0 {
    // expected-error@+1 [CAKE-E0417] {{`W` is read while CTA 1's `tma.store` to the same elements may still be writing: no `tma.store.wait` (not `.read`) of that CTA is ordered before this read}}
    load y <- W[(block.x + 1) * 32 + lane, :]
    x = x + y
    store Z[block.x * 32 + lane, :] <- x
  }
  elect {
    tma.store.wait 0
  }
}

// -----

// Without the cluster.sync nothing orders CTA 1's store and CTA 0's read,
// whichever runs first.
target sm_90a
kernel peer_rows_unsynced(X: global f32[N, 64], W: global f32[N, 64], Z: global f32[N, 64]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
  if cluster.rank == 0 {
    // expected-error@+1 [CAKE-E0417] {{`W` is read while CTA 1's `tma.store` to the same elements may still be writing}}
    load y <- W[(block.x + 1) * 32 + lane, :]
    x = x + y
    store Z[block.x * 32 + lane, :] <- x
  }
}

// -----

// Near miss: each CTA reads back only the rows it stored itself, after its
// own whole wait and a barrier that gives every lane what the elected
// thread waited for; the other CTA's rows are never read, so no
// cluster.sync is needed (clean).
target sm_90a
kernel own_rows_in_cluster(X: global f32[N, 64], W: global f32[N, 64], Z: global f32[N, 64]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
  syncthreads
  load y <- W[block.x * 32 + lane, :]
  x = x + y
  store Z[block.x * 32 + lane, :] <- x
}

// -----

// The same without that barrier: only the elected thread waited for the
// store, and `elect` orders nothing for the other lanes' reads.
target sm_90a
kernel own_rows_elected_wait(X: global f32[N, 64], W: global f32[N, 64], Z: global f32[N, 64]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 32 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 32, 0] <- out
    tma.store.commit
    tma.store.wait 0
  }
  // expected-error@+1 [CAKE-E0417] {{`W` is read by every thread of the role, but only the elected thread waited for the `tma.store` that writes it}} fix {{syncthreads}}
  load y <- W[block.x * 32 + lane, :]
  x = x + y
  store Z[block.x * 32 + lane, :] <- x
}

// -----

// Near miss: the role reads rows of `W` that its store does not write, so
// the `.read` wait is enough (clean).
target sm_90a
kernel other_rows_read_back(X: global f32[N, 64], W: global f32[N, 64]) where N % 64 == 0 grid (N / 64) block 32 {
  smem out: f32[32, 64]
  tensormap tW = W box [32, 64]
  reg x: f32[64]
  reg y: f32[64]
  load x <- X[block.x * 64 + lane, :]
  store out[lane, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tma.store tW[block.x * 64, 0] <- out
    tma.store.commit
    tma.store.wait.read 0
  }
  load y <- W[block.x * 64 + 32 + lane, :]
  elect {
    tma.store.wait 0
  }
}

// -----

// E0605: the warps of one role run in no order. Each warp stores its
// partial row maxima, then every warp reads all four: without a barrier
// between, a warp may read a slot before its writer stored it.
target sm_80
kernel row_max_race(X: global f32[R, 1024] row_major, Y: global f32[R, 1024] row_major)
  where R % 16 == 0 grid (R / 16) block 128
{
  smem pmax: f32[4][16]
  role rows all {
    let w = warp.id
    reg x: f32[16, 256] layout(mma_acc)
    reg pm: f32[16] layout(mma_acc.row)
    reg t: f32[16] layout(mma_acc.row)
    reg m: f32[16] layout(mma_acc.row) = -inf
    load x <- X[block.x * 16 : 16, w * 256 : 256]
    reduce.row max pm <- x
    store pmax[w] <- pm
    for i in 0 .. 4 {
      // expected-error@+1 [CAKE-E0605] {{`pmax[i]` reads what another warp of role `rows` wrote, with no barrier between}} fix {{syncthreads}}
      load t <- pmax[i]
      m = max(m, t)
    }
    x = x - m
    store Y[block.x * 16 : 16, w * 256 : 256] <- x
  }
}

// -----

// The same with the barrier (clean), and a warp reading back its own slot
// before it (its own part: program order suffices).
target sm_80
kernel row_max_synced(X: global f32[R, 1024] row_major, Y: global f32[R, 1024] row_major)
  where R % 16 == 0 grid (R / 16) block 128
{
  smem pmax: f32[4][16]
  role rows all {
    let w = warp.id
    reg x: f32[16, 256] layout(mma_acc)
    reg pm: f32[16] layout(mma_acc.row)
    reg t: f32[16] layout(mma_acc.row)
    reg m: f32[16] layout(mma_acc.row) = -inf
    load x <- X[block.x * 16 : 16, w * 256 : 256]
    reduce.row max pm <- x
    store pmax[w] <- pm
    load m <- pmax[w]
    syncthreads
    for i in 0 .. 4 {
      load t <- pmax[i]
      m = max(m, t)
    }
    x = x - m
    store Y[block.x * 16 : 16, w * 256 : 256] <- x
  }
}

// -----

// Loop-carried: the next round's store overwrites a slot another warp may
// still be reading from this round (the barrier orders only the first).
target sm_80
kernel row_max_rounds(X: global f32[R, 1024] row_major, Y: global f32[R, 1024] row_major)
  where R % 16 == 0 grid (R / 16) block 128
{
  smem pmax: f32[4][16]
  role rows all {
    let w = warp.id
    reg x: f32[16, 256] layout(mma_acc)
    reg pm: f32[16] layout(mma_acc.row)
    reg t: f32[16] layout(mma_acc.row)
    reg m: f32[16] layout(mma_acc.row) = -inf
    load x <- X[block.x * 16 : 16, w * 256 : 256]
    for round in 0 .. 2 {
      reduce.row max pm <- x
      // expected-error@+1 [CAKE-E0605] {{`pmax[w]` overwrites what another warp of role `rows` reads, with no barrier between}} fix {{syncthreads}}
      store pmax[w] <- pm
      syncthreads
      for i in 0 .. 4 {
        load t <- pmax[i]
        m = max(m, t)
      }
      x = x - m
    }
    store Y[block.x * 16 : 16, w * 256 : 256] <- x
  }
}

// -----

// Near miss: each thread copies its own 8 values from stage 1 into stage 0.
// The two stages are constant indices that never meet, so the store needs
// no barrier after the load (clean).
target sm_80
kernel stage_to_stage(X: global f32[16, 64], Y: global f32[16, 64]) grid (1) block 128 {
  smem s: f32[2][16, 64]
  reg v: f32[8]
  let r = (warp.id * 32 + lane) / 8
  let c = ((warp.id * 32 + lane) % 8) * 8
  load v <- X[r, c : 8]
  store s[1][r, c : 8] <- v
  syncthreads
  load v <- s[1][r, c : 8]
  store s[0][r, c : 8] <- v
  syncthreads
  load v <- s[0][r, c : 8]
  store Y[r, c : 8] <- v
}

// -----

// Every warp holds the whole mma_acc tile, so when both warps store it to
// the same place they overwrite each other in no order.
target sm_80
kernel both_warps_store(X: global bf16[16, 64], Y: global bf16[16, 64]) grid (1) block 64 {
  smem s: bf16[16, 64] swizzle(128B)
  reg x: bf16[16, 64] layout(mma_acc)
  load x <- X
  // expected-error@+1 [CAKE-E0605] {{`s` is written whole by every warp of the kernel: each warp holds all of `x` (layout mma_acc), so they overwrite one another in no order}}
  store s <- x
  syncthreads
  load x <- s
  if warp.id == 0 {
    store Y <- x
  }
}

// -----

// Near miss: one warp writes the tile (an `if` on the thread), the other
// reads it after the barrier (clean).
target sm_80
kernel one_warp_stores(X: global bf16[16, 64], Y: global bf16[16, 64]) grid (1) block 64 {
  smem s: bf16[16, 64] swizzle(128B)
  reg x: bf16[16, 64] layout(mma_acc)
  load x <- X
  if warp.id == 0 {
    store s <- x
  }
  syncthreads
  if warp.id == 1 {
    load x <- s
    store Y <- x
  }
}

// -----

// An index of the lane alone is the same elements in every warp: warp 1
// reads `s[lane]` that warp 0 wrote (this was taken for each warp's own
// part). Each warp's own row, indexed by `warp.id`, with its lanes
// exchanging values in it, is clean.
target sm_80
kernel lanes_of_every_warp(X: global f32[64], Y: global f32[64]) grid (1) block 64 {
  smem s: f32[32]
  smem t: f32[2, 32]
  reg x: f32
  reg y: f32
  load x <- X[warp.id * 32 + lane]
  if warp.id == 0 {
    store s[lane] <- x
  }
  // expected-error@+1 [CAKE-E0605] {{`s[lane]` reads what another warp of the kernel wrote, with no barrier between}} fix {{syncthreads}}
  load y <- s[lane]
  store t[warp.id, 31 - lane] <- x
  load y <- t[warp.id, lane]
  store t[warp.id, lane ^ 1] <- y
  store Y[warp.id * 32 + lane] <- y
}

// -----

// The same exchanges through one flat row: each warp's 32 elements are its
// own whatever the lanes' order (`31 - lane`, `lane ^ 1`; E0605 took them
// for a race before), while `+ 1` reaches the next warp's first element.
target sm_80
kernel flat_lanes(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem s: f32[128]
  reg x: f32
  reg y: f32
  load x <- X[block.x * 128 + warp.id * 32 + lane]
  store s[warp.id * 32 + 31 - lane] <- x
  load y <- s[warp.id * 32 + (lane ^ 1)]
  store s[warp.id * 32 + lane] <- y
  // expected-error@+1 [CAKE-E0605] {{`s[(warp.id * 32 + lane + 1) % 128]` reads what another warp of the kernel wrote, with no barrier between}} fix {{syncthreads}}
  load x <- s[(warp.id * 32 + lane + 1) % 128]
  store Y[block.x * 128 + warp.id * 32 + lane] <- x
}

// -----

// Only the warps a guard admits make its accesses: warp 0 alone exchanging
// values in `t` is clean (an index of the lane alone would otherwise be
// every warp's); two warps doing so race, and no barrier can be offered
// there (one under `if warp.id < 2` only some warps reach: E0405).
target sm_80
kernel guarded_lanes(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem t: f32[32]
  smem u: f32[32]
  reg x: f32
  reg y: f32
  load x <- X[block.x * 128 + warp.id * 32 + lane]
  y = x
  if warp.id == 0 {
    store t[lane] <- x
    load y <- t[lane ^ 1]
    store t[lane] <- y
  }
  if warp.id < 2 {
    // expected-error@+1 [CAKE-E0605] {{`u[lane]` is written by several warps of the kernel at the same elements}}
    store u[lane] <- x
    // expected-error@+1 [CAKE-E0605] {{`u[lane ^ 1]` reads what another warp of the kernel wrote, with no barrier between}}
    load y <- u[lane ^ 1]
  }
  store Y[block.x * 128 + warp.id * 32 + lane] <- y
}

// -----

// One statement can race with itself: every warp writes `s[lane]` (and
// `s[0]`, and `s[i * 32 + lane]` in a loop) at the same elements, and no
// barrier orders a statement with itself. Each warp's own elements, one
// warp's write and one thread's are clean.
target sm_80
kernel same_elements(X: global f32[64], Y: global f32[64]) grid (1) block 64 {
  smem s: f32[128]
  reg x: f32
  load x <- X[warp.id * 32 + lane]
  // expected-error@+1 [CAKE-E0605] {{`s[lane]` is written by several warps of the kernel at the same elements}}
  store s[lane] <- x
  syncthreads
  // expected-error@+1 [CAKE-E0605] {{`s[0]` is written by several warps of the kernel at the same elements}}
  store s[0] <- x
  syncthreads
  for i in 0 .. 4 {
    // expected-error@+1 [CAKE-E0605] {{`s[i * 32 + lane]` is written by several warps of the kernel}}
    store s[i * 32 + lane] <- x
  }
  syncthreads
  store s[warp.id * 32 + lane] <- x
  syncthreads
  for i in 0 .. 2 {
    store s[warp.id * 64 + i * 32 + lane] <- x
  }
  syncthreads
  if warp.id == 1 {
    store s[0] <- x
    store s[lane] <- x
  }
  syncthreads
  elect {
    store s[1] <- x
  }
  syncthreads
  load x <- s[warp.id * 32 + lane]
  store Y[warp.id * 32 + lane] <- x
}

// -----

// Global memory too: two warps storing their own values at `Y[lane]`
// write the same elements (the CPU executor reports the race as well).
target sm_80
kernel global_same_elements(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 64) block 64 {
  reg x: f32
  load x <- X[block.x * 64 + warp.id * 32 + lane]
  // expected-error@+1 [CAKE-E0605] {{`Y[block.x * 64 + lane]` is written by several warps of the kernel at the same elements}}
  store Y[block.x * 64 + lane] <- x
}

// -----

// A warp reading from global memory what the other warp of its block
// stored needs a barrier as in shared memory; atomic adds (`store.add`)
// of both warps to the same elements are clean.
target sm_80
kernel global_exchange(X: global f32[N], Y: global f32[N], Z: global f32[N]) where N % 64 == 0 grid (N / 64) block 64 {
  reg x: f32
  reg y: f32
  load x <- X[block.x * 64 + warp.id * 32 + lane]
  store Z[block.x * 64 + warp.id * 32 + lane] <- x
  // expected-error@+1 [CAKE-E0605] {{`Z[block.x * 64 + (warp.id * 32 + lane + 32) % 64]` reads what another warp of the kernel wrote, with no barrier between}} fix {{syncthreads}}
  load y <- Z[block.x * 64 + (warp.id * 32 + lane + 32) % 64]
  store.add Y[block.x * 64 + lane] <- y
  store.add Y[block.x * 64 + 32 + lane] <- x
}

// -----

// A warpgroup's four warps each hold a quarter of a `wgmma_acc` tile's
// rows: reading back its own rows through an `mma_acc` slice is each
// warp's own (E0605 took the whole tile for every warp's before), reading
// the next warp's is a race (the CPU executor agrees on both).
target sm_90a
kernel warpgroup_rows(X: global f32[64, 16], Y: global f32[64, 16]) grid (1) block 128 {
  smem s: f32[64, 24]
  smem t: f32[64, 24]
  role wg warpgroup(0) {
    reg w: f32[64, 16] layout(wgmma_acc)
    reg x: f32[16, 16] layout(mma_acc)
    load w <- X
    store s[:, 0 : 16] <- w
    load x <- s[16 * warp.id : 16, 0 : 16]
    store t[:, 0 : 16] <- w
    // expected-error@+1 [CAKE-E0605] {{`t[16 * ((warp.id + 1) % 4) : 16, 0 : 16]` reads what another warp of role `wg` wrote, with no barrier between}}
    load x <- t[16 * ((warp.id + 1) % 4) : 16, 0 : 16]
    store Y[16 * warp.id : 16, :] <- x
  }
}

// -----

// Of a part of a `wgmma_acc` tile the warps hold other rows than of the
// whole: rows 32 .. 63 of `w` are warps 2 and 3's, stored to rows 0 .. 31
// of `s`, which warps 0 and 1 then read (the CPU executor reports the race).
target sm_90a
kernel warpgroup_part_rows(X: global f32[64, 16], Y: global f32[64, 16]) grid (1) block 128 {
  smem s: f32[64, 24]
  role wg warpgroup(0) {
    reg w: f32[64, 16] layout(wgmma_acc)
    reg x: f32[16, 16] layout(mma_acc)
    load w <- X
    store s[0 : 32, 0 : 16] <- w[32 : 32, :]
    // expected-error@+1 [CAKE-E0605] {{`s[16 * warp.id : 16, 0 : 16]` reads what another warp of role `wg` wrote, with no barrier between}}
    load x <- s[16 * warp.id : 16, 0 : 16]
    store Y[16 * warp.id : 16, :] <- x
  }
}

// -----

// An index that reads a loop's variable is footprinted over the loop's
// trips (its bounds constant): each warp's 128 elements stay its own
// whatever the trip (E0605 took them for a race before); where a warp's
// elements over all trips meet another's, the expressions decide as
// before, and here they race (the CPU executor agrees on both).
target sm_80
kernel loop_lanes(X: global f32[256], Y: global f32[256], Z: global f32[64]) grid (1) block 64 {
  smem s: f32[256]
  smem t: f32[256]
  reg x: f32
  reg y: f32
  load x <- X[warp.id * 32 + lane]
  for i in 0 .. 4 {
    store s[warp.id * 128 + i * 32 + lane] <- x
    store t[warp.id * 128 + i * 32 + lane] <- x
  }
  for i in 0 .. 4 {
    load y <- s[warp.id * 128 + i * 32 + (lane ^ 1)]
    store Y[warp.id * 128 + i * 32 + lane] <- y
  }
  // expected-error@+1 [CAKE-E0605] {{`t[(warp.id * 128 + 160) % 256 + lane]` reads what another warp of the kernel wrote, with no barrier between}}
  load y <- t[(warp.id * 128 + 160) % 256 + lane]
  store Z[warp.id * 32 + lane] <- y
}

// -----

// Constant ranges that overlap do meet: the warpgroup's four warps read
// rows 0 .. 63 (16 each) and then write rows 32 .. 95, which another warp
// may still be reading. Rows 64 .. 127 would not (clean below).
target sm_90a
kernel overlapping_rows(X: global bf16[64, 64], Y: global bf16[64, 64]) grid (1) block 128 {
  smem s: bf16[128, 64] swizzle(128B)
  reg x: bf16[64, 64] layout(wgmma_acc)
  load x <- X
  store s[0 : 64, :] <- x
  syncthreads
  load x <- s[0 : 64, :]
  // expected-error@+1 [CAKE-E0605] {{`s[32 : 64, :]` overwrites what another warp of the kernel reads, with no barrier between}} fix {{syncthreads}}
  store s[32 : 64, :] <- x
  syncthreads
  load x <- s[32 : 64, :]
  store Y <- x
}

// -----

target sm_90a
kernel disjoint_rows(X: global bf16[64, 64], Y: global bf16[64, 64]) grid (1) block 128 {
  smem s: bf16[128, 64] swizzle(128B)
  reg x: bf16[64, 64] layout(wgmma_acc)
  load x <- X
  store s[0 : 64, :] <- x
  syncthreads
  load x <- s[0 : 64, :]
  store s[64 : 64, :] <- x
  syncthreads
  load x <- s[64 : 64, :]
  store Y <- x
}

// -----

// E0419: a persistent GEMM that restarts its ring for every tile. At
// K = 384 (6 k-steps, 4 stages) stages 2 and 3 are one phase behind the
// restarted parity: the consumer's wait on stage 2 passes on tile 0's phase.
target sm_90a
kernel restarted_ring(A: global bf16[M, K] row_major, B: global bf16[N, K] row_major, C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 256) block 384
{
  smem sA: bf16[4][128, 64] swizzle(128B)
  smem sB: bf16[4][256, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(2)
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [256, 64] swizzle(128B)
  role producer warpgroup(0) maxnreg(40) {
    elect {
      for t in 0 .. 2 {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait empty[s] parity(s.phase ^ 1)
          arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
          tma.load sA[s] <- tA[block.y * 256 + t * 128, kt * 64], full[s]
          tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
        }
      }
    }
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 256] layout(wgmma_acc)
    reg o: bf16[64, 256] layout(wgmma_acc)
    for t in 0 .. 2 {
      acc = 0
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        // expected-error@+1 [CAKE-E0419] {{this wait passes on phase 0 of `full[2]`, the phase it passed on last time, while phase 1 is yet to come}}
        wait full[s] parity(s.phase)
        wgmma.fence
        wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
        wgmma.commit
        wgmma.wait 0
        elect.warpgroup { arrive empty[s] }
      }
      o = cvt<bf16>(acc)
      store C[block.y * 256 + t * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
    }
  }
}
bench restarted_ring { M = 256, N = 256, K = 384 }

// -----

// The same kernel with the ring's position kept across tiles: clean at
// K = 384, and at K = 512 (where the restart above happens to line up).
target sm_90a
kernel running_ring(A: global bf16[M, K] row_major, B: global bf16[N, K] row_major, C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 256) block 384
{
  smem sA: bf16[4][128, 64] swizzle(128B)
  smem sB: bf16[4][256, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(2)
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [256, 64] swizzle(128B)
  role producer warpgroup(0) maxnreg(40) {
    elect {
      for t in 0 .. 2 {
        pipeline s in ring(4) for it in t * (K / 64) .. (t + 1) * (K / 64) {
          wait empty[s] parity(s.phase ^ 1)
          arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
          tma.load sA[s] <- tA[block.y * 256 + t * 128, (it - t * (K / 64)) * 64], full[s]
          tma.load sB[s] <- tB[block.x * 256, (it - t * (K / 64)) * 64], full[s]
        }
      }
    }
  }
  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 256] layout(wgmma_acc)
    reg o: bf16[64, 256] layout(wgmma_acc)
    for t in 0 .. 2 {
      acc = 0
      pipeline s in ring(4) for it in t * (K / 64) .. (t + 1) * (K / 64) {
        wait full[s] parity(s.phase)
        wgmma.fence
        wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
        wgmma.commit
        wgmma.wait 0
        elect.warpgroup { arrive empty[s] }
      }
      o = cvt<bf16>(acc)
      store C[block.y * 256 + t * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
    }
  }
}
bench running_ring { M = 256, N = 256, K = 384 }
bench running_ring { M = 256, N = 256, K = 512 }

// -----

// E0418: the consumer stops a tile early; the producer's last box is never
// read. The error is on the copy that completes the unobserved phase.
target sm_90a
kernel short_consumer(A: global bf16[256, 64], C: global f32[256, 64]) grid (1) block 256 {
  smem sA: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(2) for t in 0 .. 4 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s])
        // expected-error@+1 [CAKE-E0418] {{phase 1 of `full[1]` completes here, but no wait observes it (the waits see phases 0 of its 2)}}
        tma.load sA[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg x: bf16[64, 64] layout(wgmma_acc)
    reg y: f32[64, 64] layout(wgmma_acc)
    pipeline s in ring(2) for t in 0 .. 3 {
      wait full[s] parity(s.phase)
      load x <- sA[s]
      arrive empty[s]
      y = cvt<f32>(x)
      store C[t * 64 : 64, :] <- y
    }
  }
}

// -----

// Near misses: a one-phase flag waited for on every trip, and the last
// releases of a free-stage barrier that the producer never needs.
target sm_90a
kernel flag_and_frees(A: global bf16[256, 64], C: global f32[256, 64]) grid (1) block 256 {
  smem sA: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  mbarrier ready count(128)
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    arrive ready
    elect {
      pipeline s in ring(2) for t in 0 .. 4 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s])
        tma.load sA[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg x: bf16[64, 64] layout(wgmma_acc)
    reg y: f32[64, 64] layout(wgmma_acc)
    pipeline s in ring(2) for t in 0 .. 4 {
      wait ready parity(0)
      wait full[s] parity(s.phase)
      load x <- sA[s]
      arrive empty[s]
      y = cvt<f32>(x)
      store C[t * 64 : 64, :] <- y
    }
  }
}

// -----

// A producer that never waits for a free stage. Run ahead, it fills the
// ring twice and the consumer's wait blocks on a phase long gone (what a
// single schedule reported as a deadlock on the consumer's wait); with the
// roles interleaved statement by statement it overwrites a stage the
// consumer still reads, and that is the error, on the copy that overwrites.
target sm_90a
kernel no_free_wait(A: global bf16[256, 64], C: global f32[256, 64]) grid (1) block 256 {
  smem sA: bf16[2][64, 64] swizzle(128B)
  mbarrier full[2]
  mbarrier empty[2] count(128)
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(2) for t in 0 .. 4 {
        arrive.expect_tx full[s], bytes(sA[s])
        // expected-error@+1 [CAKE-E0602] {{`sA[0]` is overwritten before its readers by role `consumer` release it}}
        tma.load sA[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    reg x: bf16[64, 64] layout(wgmma_acc)
    reg y: f32[64, 64] layout(wgmma_acc)
    pipeline s in ring(2) for t in 0 .. 4 {
      wait full[s] parity(s.phase)
      load x <- sA[s]
      arrive empty[s]
      y = cvt<f32>(x)
      store C[t * 64 : 64, :] <- y
    }
  }
}

// -----

// A two-CTA cluster where each CTA multicasts its row of every k-step's
// tile to both: the per-step cluster.sync keeps a CTA from sending the next
// row while its peer still reads this one (clean). cluster.sync is a
// rendezvous of the whole cluster.
target sm_90a
kernel multicast_steps(X: global f32[8, 64], Y: global f32[16, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  reg y: f32[2]
  for k in 0 .. 4 {
    elect {
      arrive.expect_tx full, bytes(s)
      tma.load s[cluster.rank : 1, :] <- t[k * 2 + cluster.rank, 0], full multicast(3)
    }
    wait full parity(k % 2)
    load y <- s[lane / 16, lane % 16 * 4 : 2]
    store Y[block.x * 8 + k * 2 + lane / 16, lane % 16 * 4 : 2] <- y
    cluster.sync
  }
}

// -----

// The same without the cluster.sync: a CTA's next row lands in its peer's
// tile while the peer still reads this step's (the cross-CTA race that
// used to pass).
target sm_90a
kernel multicast_steps_unsynced(X: global f32[8, 64], Y: global f32[16, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  reg y: f32[2]
  for k in 0 .. 4 {
    elect {
      arrive.expect_tx full, bytes(s)
      // expected-error@+1 [CAKE-E0602] {{`s` is overwritten inside `elect` after every thread of the role read it}}
      tma.load s[cluster.rank : 1, :] <- t[k * 2 + cluster.rank, 0], full multicast(3)
    }
    wait full parity(k % 2)
    // expected-error@+1 [CAKE-E0601] {{`s` is read before the barrier that publishes its write}}
    load y <- s[lane / 16, lane % 16 * 4 : 2]
    store Y[block.x * 8 + k * 2 + lane / 16, lane % 16 * 4 : 2] <- y
  }
}

// -----

// A multicast ring without a cluster.sync per step: each CTA's consumer
// releases the stage on both CTAs' `empty` (arrive ... multicast), so a
// producer refills it only once both CTAs have read it (clean).
target sm_90a
kernel multicast_ring(X: global f32[8, 64], Y: global f32[16, 64]) grid (2) block 64 cluster (2) {
  smem s: f32[2][2, 64]
  tensormap t = X box [1, 64]
  mbarrier full[2]
  mbarrier empty[2] count(64)                 // 32 threads of each CTA's consumer
  role producer warp(0) {
    elect {
      pipeline st in ring(2) for k in 0 .. 4 {
        wait empty[st] parity(st.phase ^ 1)
        arrive.expect_tx full[st], bytes(s[st])
        tma.load s[st][cluster.rank : 1, :] <- t[k * 2 + cluster.rank, 0], full[st] multicast(3)
      }
    }
  }
  role consumer warp(1) {
    reg y: f32[2]
    pipeline st in ring(2) for k in 0 .. 4 {
      wait full[st] parity(st.phase)
      load y <- s[st][lane / 16, lane % 16 * 4 : 2]
      store Y[block.x * 8 + k * 2 + lane / 16, lane % 16 * 4 : 2] <- y
      arrive empty[st] multicast(3)
    }
  }
}

// -----

// The same ring with each consumer releasing only its own CTA's stage: a
// producer's next multicast lands in its peer's stage while the peer's
// consumer may still read it.
target sm_90a
kernel multicast_ring_local_release(X: global f32[8, 64], Y: global f32[16, 64]) grid (2) block 64 cluster (2) {
  smem s: f32[2][2, 64]
  tensormap t = X box [1, 64]
  mbarrier full[2]
  mbarrier empty[2] count(32)
  role producer warp(0) {
    elect {
      pipeline st in ring(2) for k in 0 .. 4 {
        wait empty[st] parity(st.phase ^ 1)
        arrive.expect_tx full[st], bytes(s[st])
        // expected-error@+1 [CAKE-E0602] {{`s[0]` is overwritten before its readers by role `consumer` release it}}
        tma.load s[st][cluster.rank : 1, :] <- t[k * 2 + cluster.rank, 0], full[st] multicast(3)
      }
    }
  }
  role consumer warp(1) {
    reg y: f32[2]
    pipeline st in ring(2) for k in 0 .. 4 {
      wait full[st] parity(st.phase)
      load y <- s[st][lane / 16, lane % 16 * 4 : 2]
      store Y[block.x * 8 + k * 2 + lane / 16, lane % 16 * 4 : 2] <- y
      arrive empty[st]
    }
  }
}

// -----

// A named barrier is one CTA's: no multicast.
target sm_90a
kernel named_multicast(X: global f32[64]) grid (2) block 64 cluster (2) {
  namedbarrier both id(1) threads(64)
  // expected-error@+1 [CAKE-E0108] {{`multicast` is a named barrier's arrive, not an mbarrier's arrive (a named barrier is this CTA's only)}}
  arrive both multicast(3)
  sync both
}

// -----

// A remote arrive needs a cluster (sm_8x has none).
target sm_80
kernel remote_on_ampere(X: global f32[64]) grid (1) block 32 {
  mbarrier b count(32)
  // expected-error@+1 [CAKE-E0203] {{`multicast(...)` is not available on sm_80}}
  arrive b multicast(1)
  wait b parity(0)
}

// -----

// Distributed shared memory: each CTA of a pair writes its row into its
// peer's `buf`; the cluster.sync orders the writes before the peer reads
// them and before either CTA ends (clean).
target sm_90a
kernel dsmem_exchange(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem buf: f32[32]
  dsmem peer = buf cta(cluster.rank ^ 1)
  reg x: f32
  load x <- X[block.x * 32 + lane]
  store peer[lane] <- x
  cluster.sync
  load x <- buf[lane]
  store Y[block.x * 32 + lane] <- x
}

// -----

// The same without the cluster.sync: nothing orders a CTA's read of its
// own `buf` after its peer's write, and the peer may have ended before the
// write lands.
target sm_90a
kernel dsmem_exchange_race(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem buf: f32[32]
  dsmem peer = buf cta(cluster.rank ^ 1)
  reg x: f32
  load x <- X[block.x * 32 + lane]
  // expected-error@+2 [CAKE-E0420] {{`peer[lane]` touches the shared memory of another CTA of the cluster, but nothing orders it before that CTA ends}}
  // expected-error@+1 [CAKE-E0602] {{`buf` is overwritten before its readers release it}}
  store peer[lane] <- x
  // expected-error@+1 [CAKE-E0601] {{`buf` is read before the barrier that publishes its write}}
  load x <- buf[lane]
  store Y[block.x * 32 + lane] <- x
}

// -----

// Each CTA reads its peer's row after the cluster.sync that publishes it,
// but nothing keeps the peer from ending before that read: the fix ends the
// kernel with another cluster.sync.
target sm_90a
kernel dsmem_read_late(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem buf: f32[32]
  dsmem peer = buf cta(cluster.rank ^ 1)
  reg x: f32
  load x <- X[block.x * 32 + lane]
  store buf[lane] <- x
  cluster.sync
  // expected-error@+1 [CAKE-E0420] {{`peer[lane]` touches the shared memory of another CTA of the cluster}} fix {{cluster.sync}}
  load x <- peer[lane]
  store Y[block.x * 32 + lane] <- x
}

// -----

// The peer's rank must be one of the cluster; the viewed name must be an
// smem buffer.
target sm_90a
kernel dsmem_outside(X: global f32[N]) grid (2) block 32 cluster (2) {
  smem buf: f32[32]
  // expected-error@+1 [CAKE-E0414] {{`far` names CTA 2, outside this kernel's cluster of 2 (ranks 0 .. 1)}}
  dsmem far = buf cta(cluster.rank + 1)
  // expected-error@+1 [CAKE-E0108] {{`X` is a tensor parameter, not a shared-memory buffer}}
  dsmem wrong = X cta(0)
  reg x: f32
  load x <- far[lane]
  cluster.sync
}

// -----

// The peer signals instead: after its write it arrives on `full` of the
// CTA it wrote to, which waits before reading; that wait also orders the
// write before the reader ends, so no cluster.sync is needed (clean).
target sm_90a
kernel dsmem_signal(X: global f32[N], Y: global f32[N]) where N % 64 == 0 grid (N / 32) block 32 cluster (2) {
  smem buf: f32[32]
  mbarrier full count(32)
  dsmem peer = buf cta(cluster.rank ^ 1)
  reg x: f32
  load x <- X[block.x * 32 + lane]
  store peer[lane] <- x
  arrive full multicast(1 << (cluster.rank ^ 1))
  wait full parity(0)
  load x <- buf[lane]
  store Y[block.x * 32 + lane] <- x
}

// -----

// dsmem needs clusters.
target sm_80
kernel dsmem_ampere(X: global f32[N]) grid (1) block 32 {
  smem buf: f32[32]
  // expected-error@+1 [CAKE-E0202] {{`dsmem`}}
  dsmem own = buf cta(0)
  reg x: f32
  load x <- own[lane]
}

// -----

// CTA pairs (cta_group 2): a 256 x 256 tile per pair of a 2-CTA cluster.
// Each CTA loads 128 rows of A and of B into its own ring and completes
// the bytes on the even CTA's `full` (through a view); the even CTA issues
// tcgen05.mma (m256n256k16) over both CTAs' stages and its commits
// multicast to both CTAs' `empty` and `done` (clean).
target sm_100a
kernel pair_gemm(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// The MMA role without its even-CTA guard: the odd CTA would issue the
// pair's MMAs too.
target sm_100a
kernel pair_mma_both(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if true {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          // expected-error@+1 [CAKE-E0421] {{this `tcgen05.mma` runs in CTA 1, the odd CTA of its pair}}
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// The final commit reaches only the even CTA's `done`: the odd CTA's
// epilogue waits forever. The error is on the commit, with a fix.
target sm_100a
kernel pair_done_own(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        // expected-error@+1 [CAKE-E0403] {{`tcgen05.commit done` arrives only on its own CTA's `done`, but CTA 1 waits on its `done`}} fix {{multicast(3 << cluster.rank)}}
        tcgen05.commit done
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// The stage commits reach only the even CTA's `empty`: the odd CTA's
// producer never learns a stage is free.
target sm_100a
kernel pair_empty_own(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          // expected-error@+1 [CAKE-E0403] {{`tcgen05.commit empty[s]` arrives only on its own CTA's `empty[0]`}} fix {{multicast(3 << cluster.rank)}}
          tcgen05.commit empty[s]
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// The even CTA expects only its own bytes: the phase completes before the
// odd CTA's boxes land, and the MMA reads them too early.
target sm_100a
kernel pair_expect_half(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          // expected-error@+1 [CAKE-E0402] {{`full[0]` expects 32768 bytes per phase but its copies deliver 65536}}
          arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        }
        // expected-error@+1 [CAKE-E0602] {{`sA[1]` is overwritten before its readers by role `mma` release it}}
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        // expected-error@+1 [CAKE-E0602] {{`sB[1]` is overwritten before its readers by role `mma` release it}}
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          // expected-error@+1 [CAKE-E0601] {{`sA[0]` is read before the barrier that publishes its write}}
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// Without `cta_group 2` a copy may not complete on a peer's barrier, and
// B's half of N no longer matches the accumulator.
target sm_100a
kernel pair_no_group(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        // expected-error@+1 [CAKE-E0421] {{this copy completes on `lead_full`, another CTA's mbarrier: only the copies of a `cta_group 2` kernel may}}
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        // expected-error@+1 [CAKE-E0421] {{only the copies of a `cta_group 2` kernel may}}
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          // expected-error@+1 [CAKE-E0106] {{B's N does not match the accumulator's columns}}
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// A wait must be on this CTA's barrier, not a view of the pair's.
target sm_100a
kernel pair_wait_view(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (2 * (N / 256), M / 256)
  block 256
  cluster (2)
  cta_group 2
{
  smem sA: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of A
  smem sB: bf16[4][128, 64] swizzle(128B)   // this CTA's 128 of the pair's 256 rows of B
  tmem acc: f32[128, 256]                   // this CTA's 128 rows of the pair's 256 x 256
  mbarrier full[4]                          // the even CTA's counts both CTAs' bytes
  mbarrier empty[4]
  mbarrier done
  dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)   // the even CTA's full barriers

  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  let pair = block.x / 2
  let half = cluster.rank % 2

  role producer warp(0 .. 1) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        // expected-error@+1 [CAKE-E0105] {{`lead_full` is another CTA's mbarrier: `wait` works on this CTA's barriers}}
        wait lead_full[s] parity(s.phase ^ 1)
        if half == 0 {
          arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
        }
        tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
        tma.load sB[s] <- tB[pair * 256 + half * 128, kt * 64], lead_full[s]
      }
    }
  }

  role mma warp(1 .. 2) {
    if half == 0 {
      elect {
        pipeline s in ring(4) for kt in 0 .. K / 64 {
          wait full[s] parity(s.phase)
          tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
          tcgen05.commit empty[s] multicast(3 << cluster.rank)
        }
        tcgen05.commit done multicast(3 << cluster.rank)
      }
    }
  }

  role idle warp(2 .. 4) { }

  role epilogue warpgroup(1) {
    let q = warp.id % 4
    reg r: f32[32, 32] layout(tcgen05_acc)
    reg o: bf16[32, 32] layout(tcgen05_acc)
    wait done parity(0)
    for c in 0 .. 256 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      o = cvt<bf16>(r)
      store C[block.y * 256 + half * 128 + q * 32 : 32, pair * 256 + c : 32] <- o
    }
  }
}

// -----

// A pair's copy completes on a barrier of its own CTA or its pair's, not
// a third CTA's.
target sm_100a
kernel pair_far_barrier(A: global bf16[512, 64]) grid (4) block 32 cluster (4) cta_group 2 {
  smem sA: bf16[128, 64] swizzle(128B)
  mbarrier full
  dsmem far = full cta((cluster.rank + 2) % 4)
  tensormap tA = A box [128, 64] swizzle(128B)
  elect {
    arrive.expect_tx full, bytes(sA)
    // expected-error@+1 [CAKE-E0421] {{this copy completes on `full` of CTA 2, which is neither this CTA (0) nor its pair (1)}}
    tma.load sA <- tA[block.x * 128, 0], far
  }
  wait full parity(0)
  cluster.sync
}

// -----

// A multicast copy completes on each destination's own barrier.
target sm_100a
kernel pair_multicast_view(A: global bf16[256, 64]) grid (2) block 32 cluster (2) cta_group 2 {
  smem sA: bf16[128, 64] swizzle(128B)
  mbarrier full
  dsmem lead = full cta(0)
  tensormap tA = A box [128, 64] swizzle(128B)
  elect {
    arrive.expect_tx full, bytes(sA)
    // expected-error@+1 [CAKE-E0421] {{a multicast copy completes on the barrier of each CTA it writes to: name this CTA's barrier, not the view `lead`}}
    tma.load sA <- tA[0, 0], lead multicast(3)
  }
  wait full parity(0)
  cluster.sync
}

// -----

// `cta_group 2` needs a cluster, of an even number of CTAs; its value is 1
// or 2; it needs tcgen05 (sm_100a).
target sm_100a
// expected-error@+1 [CAKE-E0309] {{`cta_group 2` in a kernel without a `cluster` clause}} fix {{cluster (2) cta_group 2}}
kernel pair_no_cluster(X: global f32[64]) grid (2) block 32 cta_group 2 {
}

// -----

target sm_100a
// expected-error@+1 [CAKE-E0309] {{`cta_group 2` pairs the CTAs of the cluster (ranks 2i and 2i + 1), but a cluster of 3 CTAs has an odd count}}
kernel pair_odd_cluster(X: global f32[64]) grid (3) block 32 cluster (3) cta_group 2 {
}

// -----

target sm_100a
// expected-error@+1 [CAKE-E0309] {{`cta_group 4`: a tcgen05 CTA group is 1 or 2 CTAs}}
kernel pair_group_four(X: global f32[64]) grid (2) block 32 cluster (2) cta_group 4 {
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0203] {{`cta_group` is not available on sm_90a}}
kernel pair_on_hopper(X: global f32[64]) grid (2) block 32 cluster (2) cta_group 2 {
}

// -----

// A pair's MMA shapes: each CTA holds 128 rows of A and of the
// accumulator, and half of the pair's N in B.
target sm_100a
kernel pair_shapes(X: global f32[64]) grid (2) block 128 cluster (2) cta_group 2 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sA64: bf16[64, 64] swizzle(128B)
  smem sB: bf16[128, 64] swizzle(128B)
  tmem acc: f32[128, 256]
  tmem acc64: f32[64, 128]
  tmem acc128: f32[128, 128]
  mbarrier done
  if cluster.rank % 2 == 0 {
    elect {
      tcgen05.mma acc = sA @ sB.T
      // expected-error@+1 [CAKE-E0106] {{each CTA holds 128 rows of the pair's M = 256 in A and in its accumulator}}
      tcgen05.mma acc64 = sA64 @ sB.T
      // expected-error@+1 [CAKE-E0106] {{each CTA holds half of the pair's N in B, so the accumulator has twice B's columns (N = 128, B has 128)}}
      tcgen05.mma acc128 = sA @ sB.T
      tcgen05.commit done multicast(3 << cluster.rank)
    }
  }
  wait done parity(0)
}

// -----

target sm_90a
kernel divergent(X: global f32[64, 16], Y: global f32[64, 16]) grid (1) block 128 {
  role wg warpgroup(0) {
    reg x: f32[16, 16] layout(mma_acc)
    reg m: f32[16] layout(mma_acc.row)
    reg w: f32[64, 16] layout(wgmma_acc)
    reg t: f32[4]
    load x <- X[16 * warp.id : 16, :]
    load w <- X
    load t <- X[lane, 0 : 4]
    if lane < 16 {
      // expected-error@+1 [CAKE-E0422] {{this `reduce.row` works on `m`, which each warp holds together, but only some of the warp's threads run it (`lane < 16` depends on the lane): each would compute a share the others never see}}
      reduce.row max m <- x
      t = t * 2.0
    }
    for i in 0 .. lane % 4 {
      // expected-error@+1 [CAKE-E0422] {{this assignment works on `x`, which each warp holds together, but only some of the warp's threads run it (`lane % 4` depends on the lane): each would compute a share the others never see}}
      x = x * 2.0
    }
    elect {
      // expected-error@+1 [CAKE-E0422] {{this assignment works on `w`, which each warpgroup holds together, but only some of the warpgroup's threads run it (`elect` runs it on one thread): each would compute a share the others never see}}
      w = w + 1.0
    }
    if warp.id == 0 {
      x = x + 1.0
      // expected-error@+1 [CAKE-E0422] {{this assignment works on `w`, which each warpgroup holds together, but only some of the warpgroup's threads run it (`warp.id == 0` depends on the warp): each would compute a share the others never see}}
      w = w * 0.5
      // expected-error@+1 [CAKE-E0422] {{`wgmma.fence` is issued by each warpgroup together, but only some of the warpgroup's threads run it here (`warp.id == 0` depends on the warp)}}
      wgmma.fence
    }
    x = select(col(x) < 8, x * 3.0, x)
    store Y[16 * warp.id : 16, :] <- x
    store Y <- w
  }
}

// -----

// Nested loops simulate as the product of their trips: at the bench shape
// these two rings would be 128 x 128 bodies, so the simulation takes the
// smallest shape grown until each ring turns twice, and still finds the
// read of a stage whose cp.async is in flight in the inner ring.
target sm_80
kernel nested_rings(A: global bf16[M, K] row_major)
  where M % 128 == 0, K % 32 == 0, K >= 32
  grid (1, M / 128)
  block 256
{
  smem sA: bf16[3][128, 32] swizzle(64B)
  role gemm all {
    reg a: bf16[16, 32] layout(mma_acc)
    pipeline s in ring(3) for kt in 0 .. K / 32 {  // expected-warning [CAKE-W0701] {{pipeline `s` exposes}}
      pipeline s2 in ring(3) for kt2 in 0 .. K / 32 {
        cp.async sA[s2] <- A[block.y * 128 : 128, kt2 * 32 : 32]
        cp.async.commit
        // expected-error@+1 [CAKE-E0409] {{`sA[0]` is read while the cp.async that fills it is still in flight}}
        ldmatrix a <- sA[s2][warp.id * 16 : 16, :]
        syncthreads
      }
    }
  }
}

bench nested_rings { M = 4096, K = 4096 }

// -----

// `elect` orders nothing: the one thread that arrives carries its own
// stores, not the other lanes' (docs/language.md, "Who executes a
// statement"), so role b may read lane 5's element before lane 5 wrote it.
target sm_90a
kernel publish_by_elected(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 64 {
  smem s: f32[32]
  mbarrier full count(1)
  role a warp(0) {
    reg x: f32
    load x <- X[block.x * 32 + lane]
    store s[lane] <- x
    elect { arrive full }
  }
  role b warp(1) {
    reg y: f32
    wait full parity(0)
    // expected-error@+1 [CAKE-E0601] {{`s` is read before the barrier that publishes its write}}
    load y <- s[lane]
    store Y[block.x * 32 + lane] <- y
  }
}
bench publish_by_elected { N = 64 }

// -----

// The near miss: a barrier of role a's threads orders every lane's store
// before the elected thread's arrival.
target sm_90a
kernel publish_after_sync(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 64 {
  smem s: f32[32]
  mbarrier full count(1)
  namedbarrier written id(1) threads(32)
  role a warp(0) {
    reg x: f32
    load x <- X[block.x * 32 + lane]
    store s[lane] <- x
    sync written
    elect { arrive full }
  }
  role b warp(1) {
    reg y: f32
    wait full parity(0)
    load y <- s[lane]
    store Y[block.x * 32 + lane] <- y
  }
}
bench publish_after_sync { N = 64 }

// -----

// The other side: only the elected thread waits, so the other lanes of
// role b may read before the phase completes.
target sm_90a
kernel acquire_by_elected(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 64 {
  smem s: f32[32]
  mbarrier full count(32)
  role a warp(0) {
    reg x: f32
    load x <- X[block.x * 32 + lane]
    store s[lane] <- x
    arrive full
  }
  role b warp(1) {
    reg y: f32
    elect { wait full parity(0) }
    // expected-error@+1 [CAKE-E0601] {{`s` is read before the barrier that publishes its write}}
    load y <- s[lane]
    store Y[block.x * 32 + lane] <- y
  }
}
bench acquire_by_elected { N = 64 }

// -----

// The near miss: a barrier of role b's threads after the elected wait
// passes what it acquired to every lane.
target sm_90a
kernel acquire_then_sync(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 64 {
  smem s: f32[32]
  mbarrier full count(32)
  namedbarrier seen id(1) threads(32)
  role a warp(0) {
    reg x: f32
    load x <- X[block.x * 32 + lane]
    store s[lane] <- x
    arrive full
  }
  role b warp(1) {
    reg y: f32
    elect { wait full parity(0) }
    sync seen
    load y <- s[lane]
    store Y[block.x * 32 + lane] <- y
  }
}
bench acquire_then_sync { N = 64 }

// -----

// A cp.async group never waited for: the copy may land after the CTA has
// exited, in shared memory another CTA now holds.
target sm_80
kernel cp_async_at_end(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 32 {
  smem s: f32[128]
  reg x: f32[4]
  load x <- X[block.x * 128 + lane * 4 : 4]
  store Y[block.x * 128 + lane * 4 : 4] <- x
  // expected-error@+1 [CAKE-E0423] {{this `cp.async` is never waited for: it may still write `s` after the CTA exits}} fix {{cp.async.wait 0}}
  cp.async s <- X[block.x * 128 : 128]
  cp.async.commit
}

// -----

// Its group not even committed: the fix commits and waits.
target sm_80
kernel cp_async_open_at_end(X: global f32[N]) where N % 128 == 0 grid (N / 128) block 32 {
  smem s: f32[128]
  // expected-error@+1 [CAKE-E0423] {{add `cp.async.commit` and `cp.async.wait 0` before the role ends}} fix {{cp.async.commit}}
  cp.async s <- X[block.x * 128 : 128]
}

// -----

// A wgmma whose result nobody reads, never waited for: it may still read
// sA and sB after the CTA exits.
target sm_90a
kernel wgmma_at_end(A: global bf16[64, 16], B: global bf16[32, 16]) grid (1) block 128 {
  smem sA: bf16[64, 16] swizzle(32B)
  smem sB: bf16[32, 16] swizzle(32B)
  reg a: bf16[8]
  reg b: bf16[4]
  reg acc: f32[64, 32] layout(wgmma_acc)
  load a <- A[warp.id * 16 + lane / 2, lane % 2 * 8 : 8]
  store sA[warp.id * 16 + lane / 2, lane % 2 * 8 : 8] <- a
  load b <- B[warp.id * 8 + lane / 4, lane % 4 * 4 : 4]
  store sB[warp.id * 8 + lane / 4, lane % 4 * 4 : 4] <- b
  fence.proxy.async
  syncthreads
  wgmma.fence
  // expected-error@+1 [CAKE-E0423] {{this `wgmma` is never waited for}} fix {{wgmma.wait 0}}
  wgmma acc = sA @ sB.T  // expected-warning [CAKE-W0704] {{N = 32}}
  wgmma.commit
}

// -----

// A ring of 4 stepped by 3: i = 0, 3, 6 are stages 0, 3 and 2, and stage
// 2's first use is in phase 1 (s.phase = (i / 4) % 2). The consumer's wait
// for parity 1 on a barrier that has completed no phase passes at once, and
// it reads the stage before the producer's copy fills it.
target sm_90a
kernel ring_stepped_past_phase(X: global f32[N, 8], Y: global f32[N, 8]) where N % 144 == 0 grid (N / 144) block 64 {
  smem buf: f32[4][16, 8]
  mbarrier full[4]
  mbarrier empty[4] count(32)
  tensormap tx = X box [16, 8]
  role producer warp(0) {
    elect {
      pipeline s in ring(4) for k in 0 .. 9 step 3 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tx[(block.x * 9 + k) * 16, 0], full[s]
      }
    }
  }
  role consumer warp(1) {
    reg y: f32[4]
    pipeline s in ring(4) for k in 0 .. 9 step 3 {
      wait full[s] parity(s.phase)
      // expected-error@+1 [CAKE-E0601] {{`buf[2]` is read before anything has written it}}
      load y <- buf[s][lane / 2, lane % 2 * 4 : 4]
      store Y[(block.x * 9 + k) * 16 + lane / 2, lane % 2 * 4 : 4] <- y
      arrive empty[s]
    }
  }
}
bench ring_stepped_past_phase { N = 144 }

// -----

// The near miss: stepped by 2, the ring uses stages 0 and 2, each first in
// phase 0 and then alternating.
target sm_90a
kernel ring_stepped_by_two(X: global f32[N, 8], Y: global f32[N, 8]) where N % 160 == 0 grid (N / 160) block 64 {
  smem buf: f32[4][16, 8]
  mbarrier full[4]
  mbarrier empty[4] count(32)
  tensormap tx = X box [16, 8]
  role producer warp(0) {
    elect {
      pipeline s in ring(4) for k in 0 .. 10 step 2 {  // expected-warning [CAKE-W0701] {{pipeline `s` exposes}}
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tx[(block.x * 10 + k) * 16, 0], full[s]
      }
    }
  }
  role consumer warp(1) {
    reg y: f32[4]
    pipeline s in ring(4) for k in 0 .. 10 step 2 {
      wait full[s] parity(s.phase)
      load y <- buf[s][lane / 2, lane % 2 * 4 : 4]
      store Y[(block.x * 10 + k) * 16 + lane / 2, lane % 2 * 4 : 4] <- y
      arrive empty[s]
    }
  }
}
bench ring_stepped_by_two { N = 160 }

// -----

// A copy nobody waits for: its bytes are never read, and it may still land
// after the CTA has exited.
target sm_90a
kernel copy_never_waited(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem buf: f32[128]
  mbarrier full
  elect {
    arrive.expect_tx full, bytes(buf)
    // expected-error@+1 [CAKE-E0418] {{phase 0 of `full` completes here, but nothing waits on `full`}}
    bulk.load buf <- A[block.x * 128 : 128], full
  }
}
