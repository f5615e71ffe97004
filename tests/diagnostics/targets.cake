// Target features (E02xx): each case draws the rule on the line after its
// annotation, beside a near miss that must stay clean. The gates are data
// (analysis/arch/*.json); a diagnostic names only the targets that lack the
// feature, so `target sm_80, sm_90a` reports a wgmma once, for sm_80.

target sm_80, sm_90a
kernel wgmma_on_ampere(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    // expected-error@+1 [CAKE-E0201] {{`wgmma.fence` is not available on sm_80; targets with `wgmma`: sm_90a}}
    wgmma.fence
    // expected-error@+1 [CAKE-E0201] {{`wgmma` is not available on sm_80; targets with `wgmma`: sm_90a}}
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    // expected-error@+1 [CAKE-E0201] {{`wgmma.commit` is not available on sm_80}}
    wgmma.commit
    // expected-error@+1 [CAKE-E0201] {{`wgmma.wait` is not available on sm_80}}
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel wgmma_on_hopper(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_100a
kernel wgmma_on_blackwell(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    // expected-error@+1 [CAKE-E0201] {{`wgmma.fence` is not available on sm_100a}}
    wgmma.fence
    // expected-error@+1 [CAKE-E0201] {{`wgmma` is not available on sm_100a; targets with `wgmma`: sm_90a}}
    wgmma acc += a @ b
    // expected-error@+1 [CAKE-E0201] {{`wgmma.commit` is not available on sm_100a}}
    wgmma.commit
    // expected-error@+1 [CAKE-E0201] {{`wgmma.wait` is not available on sm_100a}}
    wgmma.wait 0
  }
}

// -----

target sm_90
kernel wgmma_on_plain_sm90(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    // expected-error@+1 [CAKE-E0201] {{`wgmma.fence` is not available on sm_90}}
    wgmma.fence
    // expected-error@+1 [CAKE-E0201] {{`wgmma` is not available on sm_90}}
    wgmma acc += a @ b
    // expected-error@+1 [CAKE-E0201] {{`wgmma.commit` is not available on sm_90}}
    wgmma.commit
    // expected-error@+1 [CAKE-E0201] {{`wgmma.wait` is not available on sm_90}}
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel tcgen05_on_hopper(A: global bf16[128, 64]) grid (1) block 128 {
  smem a: bf16[128, 16]
  smem b: bf16[16, 128]
  // expected-error@+1 [CAKE-E0202] {{`tmem` is not available on sm_90a; targets with `tcgen05` and tensor memory: sm_100a}}
  tmem acc: f32[128, 128]
  mbarrier done
  role mma warp(0 .. 4) {
    elect {
      // expected-error@+1 [CAKE-E0201] {{`tcgen05.mma` is not available on sm_90a}}
      tcgen05.mma acc += a @ b
      // expected-error@+1 [CAKE-E0201] {{`tcgen05.commit` is not available on sm_90a}}
      tcgen05.commit done
    }
    wait done parity(0)
  }
}

// -----

target sm_100a
kernel tcgen05_on_blackwell(A: global bf16[128, 64]) grid (1) block 128 {
  smem a: bf16[128, 16]
  smem b: bf16[16, 128]
  tmem acc: f32[128, 128]
  mbarrier done
  role mma warp(0 .. 4) {
    elect {
      tcgen05.mma acc += a @ b  // expected-warning [CAKE-W0703] {{`tcgen05.mma` reads `a`}} expected-warning [CAKE-W0703] {{`tcgen05.mma` reads `b`}}
      tcgen05.commit done
    }
    wait done parity(0)
  }
}

// -----

target sm_89
kernel tma_on_ada(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier full
  // expected-error@+1 [CAKE-E0202] {{`tensormap` is not available on sm_89; targets with TMA (`cp.async.bulk.tensor`): sm_90, sm_90a, sm_100a}}
  tensormap tX = X box [128, 64] swizzle(128B)
  role load all {
    elect {
      // expected-error@+1 [CAKE-E0201] {{`arrive.expect_tx` is not available on sm_89; targets with mbarrier transaction counts: sm_90,}}
      arrive.expect_tx full, bytes(xs)
      // expected-error@+1 [CAKE-E0201] {{`tma.load` is not available on sm_89}}
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90
kernel tma_on_sm90(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [128, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
  }
}

// -----

target sm_86, sm_90a
kernel bulk_on_ampere(V: global f32[N]) where N % 128 == 0 grid (N / 128) block 32 {
  smem vs: f32[128]
  mbarrier full
  role load all {
    elect {
      // expected-error@+1 [CAKE-E0201] {{`arrive.expect_tx` is not available on sm_86}}
      arrive.expect_tx full, bytes(vs)
      // expected-error@+1 [CAKE-E0201] {{`bulk.load` is not available on sm_86; targets with bulk copies (`cp.async.bulk`): sm_90, sm_90a, sm_100a}}
      bulk.load vs <- V[block.x * 128 : 128], full
    }
    wait full parity(0)
  }
}

// -----

target sm_80
kernel hopper_ops_on_ampere(C: global bf16[16, 16]) grid (1) block 32 {
  smem cs: bf16[16, 16]
  reg c: bf16[16, 16] layout(mma_acc) = 0
  // expected-error@+1 [CAKE-E0201] {{`stmatrix` is not available on sm_80; targets with `stmatrix`: sm_90, sm_90a, sm_100a}}
  stmatrix cs <- c
  // expected-error@+1 [CAKE-E0201] {{`fence.proxy.async` is not available on sm_80}}
  fence.proxy.async
  // expected-error@+1 [CAKE-E0201] {{`cluster.sync` is not available on sm_80; targets with thread block clusters}}
  cluster.sync
}

// -----

target sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a
kernel everywhere(A: global bf16[M, K]) where M % 128 == 0, K % 32 == 0 grid (M / 128) block 128 {
  smem sa: bf16[128, 32]
  mbarrier done count(128)
  cp.async sa <- A[block.x * 128 : 128, 0 : 32]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  arrive done
  wait done parity(0)
}

// -----

target sm_90
// expected-error@+1 [CAKE-E0203] {{`maxnreg(...)` is not available on sm_90; targets with `setmaxnreg`: sm_90a, sm_100a}}
kernel maxnreg_on_sm90(A: global f32[N]) grid (1) block 128 { role r warpgroup(0) maxnreg(40) { } }

// -----

target sm_90a, sm_100a
kernel maxnreg_on_arch_specific(A: global f32[N]) grid (1) block 128 { role r warpgroup(0) maxnreg(40) { } }

// -----

target sm_89, sm_90a
// expected-error@+1 [CAKE-E0203] {{`cluster (...)` is not available on sm_89; targets with thread block clusters: sm_90, sm_90a, sm_100a}}
kernel clustered(A: global f32[N]) where N % 256 == 0 grid (N / 128) block 128 cluster (2) {
  // expected-error@+1 [CAKE-E0203] {{`cluster.rank` is not available on sm_89}}
  let r = cluster.rank
}

// -----

target sm_80
kernel cluster_rank(A: global f32[N]) grid (1) block 32 {
  // expected-error@+1 [CAKE-E0203] {{`cluster.rank` is not available on sm_80}}
  let r = cluster.rank
}

// -----

// Each CTA of the pair loads half of the pair's tile into both CTAs.
target sm_90a
kernel multicast_ok(X: global bf16[N, 64]) where N % 256 == 0 grid (N / 128) block 128 cluster (2) {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [64, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      tma.load xs[cluster.rank * 64 : 64, :] <- tX[block.x / 2 * 128 + cluster.rank * 64, 0], full multicast(0b11)
    }
    wait full parity(0)
  }
}

// -----

target sm_86, sm_89
kernel fp8_mma(A: global f32[16, 8]) grid (1) block 32 {
  reg a: f8e4m3[16, 32] layout(mma_acc)
  reg b: f8e4m3[32, 8] layout(mma_acc)
  reg acc: f32[16, 8] layout(mma_acc) = 0
  // expected-error@+1 [CAKE-E0204] {{`mma` on f8e4m3 operands is not available on sm_86; targets with f8e4m3 shapes of `mma`: sm_89, sm_90, sm_90a, sm_100a}}
  mma acc += a @ b
}

// -----

target sm_89
kernel fp8_mma_ada(A: global f32[16, 8]) grid (1) block 32 {
  reg a: f8e4m3[16, 32] layout(mma_acc)
  reg b: f8e4m3[32, 8] layout(mma_acc)
  reg acc: f32[16, 8] layout(mma_acc) = 0
  mma acc += a @ b
}

// -----

target sm_90a
kernel f32_mma(A: global f32[16, 8]) grid (1) block 32 {
  reg a: f32[16, 8] layout(mma_acc)
  reg b: f32[8, 8] layout(mma_acc)
  reg acc: f32[16, 8] layout(mma_acc) = 0
  // expected-error@+1 [CAKE-E0204] {{`mma` on f32 operands is not available on sm_90a; no target has a f32 shape of `mma`}}
  mma acc += a @ b
}

// -----

// A name listed twice on the `target` line (CAKE-E0102): listed once it
// counts once, and the fix removes the repeat with its comma.
// expected-error@+1 [CAKE-E0102] {{`sm_90a` is already defined in the target list}} fix {{target sm_80, sm_90a}}
target sm_80, sm_90a, sm_90a
kernel listed_twice(A: global f32[N]) grid (1) block 128 { }

// -----

// A repeated `target` item (CAKE-E0114) that adds a target: the fix moves
// `sm_90a` to the first item and deletes the repeat; `sm_80` on it is not
// reported again as a duplicate.
target sm_80
// expected-error@+1 [CAKE-E0114] {{a file has one `target` item; list several targets on it, separated by commas}} fix {{target sm_80, sm_90a}}
target sm_90a, sm_80
kernel retargeted(A: global f32[N]) grid (1) block 128 { }

// -----

// The same `target` line again: one error (no CAKE-E0102 for its names),
// and the fix deletes the line (the kernel's line takes its place).
target sm_90a
// expected-error@+1 [CAKE-E0114] {{a file has one `target` item}} fix {{kernel same_line_twice}}
target sm_90a
kernel same_line_twice(A: global f32[N]) grid (1) block 128 { }
