// Resources (E03xx): each case draws the rule on the line after its
// annotation, beside a near miss that must stay clean. Limits come from the
// architecture tables (analysis/arch/*.json), per listed target.

// Shared memory: 96 KB + 32 KB fits sm_90a's 227 KB but not sm_86's 99 KB.
target sm_86, sm_90a
kernel smem_too_big(A: global f32[N]) grid (1) block 128 {
  smem a: f32[3][128, 64]
  // expected-error@+1 [CAKE-E0301] {{shared memory of `smem_too_big` needs 131072 bytes (buffers and mbarriers, aligned), over the 101376 bytes per block of sm_86 (cccl_arch_traits, ampere_tg); `b` crosses the limit}}
  smem b: f32[128, 64]
}

// -----

// Alignment: each 512-byte stage of a 128B-swizzled ring takes 1024 bytes,
// so 97 stages and 2 KB fill sm_86's 101376 bytes exactly...
target sm_86
kernel smem_exactly_full(A: global f32[N]) grid (1) block 128 {
  smem t: bf16[97][8, 32] swizzle(128B)
  smem u: f32[512]
}

// -----

// ...and one mbarrier (8 bytes) more does not fit.
target sm_86
kernel smem_one_barrier_more(A: global f32[N]) grid (1) block 128 {
  smem t: bf16[97][8, 32] swizzle(128B)
  smem u: f32[512]
  // expected-error@+1 [CAKE-E0301] {{shared memory of `smem_one_barrier_more` needs 101384 bytes (buffers and mbarriers, aligned), over the 101376 bytes per block of sm_86 (cccl_arch_traits, ampere_tg); `done` crosses the limit}}
  mbarrier done
}

// -----

target sm_90a
kernel register_pool(A: global f32[N]) grid (1) block 384 {
  role producer warpgroup(0) maxnreg(40) { }
  // expected-error@+1 [CAKE-E0302] {{the roles' register budgets need 66560 registers (40 × 128 + 240 × 256), more than the 64512 of a 384-thread CTA's pool on sm_90a (cccl_arch_traits, cuda_pg_cc): setmaxnreg would wait forever}}
  role consumer warpgroup(1, 2) maxnreg(240) { }
}

// -----

target sm_90a
kernel register_pool_exact(A: global f32[N]) grid (1) block 384 {
  role producer warpgroup(0) maxnreg(40) { }
  role consumer warpgroup(1, 2) maxnreg(232) { }
}

// -----

// A role without maxnreg keeps the entry count (65536 / 384 rounded down to 8 = 168).
target sm_90a
kernel register_pool_entry(A: global f32[N]) grid (1) block 384 {
  role producer warpgroup(0) { }
  // expected-error@+1 [CAKE-E0302] {{the roles' register budgets need 72704 registers (168 × 128 + 200 × 256), more than the 64512 of a 384-thread CTA's pool on sm_90a (cccl_arch_traits, cuda_pg_cc): setmaxnreg would wait forever}}
  role consumer warpgroup(1, 2) maxnreg(200) { }
}

// -----

target sm_90a
kernel bad_maxnreg(A: global f32[N]) grid (1) block 256 {
  // expected-error@+1 [CAKE-E0303] {{maxnreg(230) is not a multiple of 8: setmaxnreg takes 24..256 in steps of 8 (ptx91, ptxas13)}}
  role a warpgroup(0) maxnreg(230) { }
  // expected-error@+1 [CAKE-E0303] {{maxnreg(16) is outside 24..256: setmaxnreg takes 24..256 in steps of 8 (ptx91, ptxas13)}}
  role b warpgroup(1) maxnreg(16) { }
}

// -----

target sm_90a
kernel fragments_over_maxnreg(A: global f32[N]) grid (1) block 384 {
  role producer warpgroup(0) maxnreg(40) { }
  role consumer warpgroup(1, 2) maxnreg(232) {
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    // expected-error@+1 [CAKE-E0304] {{the fragments of role `consumer` need 272 registers per thread (acc 128 + o 128 + 16 overhead), over its maxnreg(232); `o` crosses it}}
    reg o: f32[64, 256] layout(wgmma_acc)
  }
}

// -----

target sm_90a
kernel fragments_fit(A: global f32[N]) grid (1) block 384 {
  role producer warpgroup(0) maxnreg(40) { }
  role consumer warpgroup(1, 2) maxnreg(232) {
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    reg o: bf16[64, 256] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row)
  }
}

// -----

// Without maxnreg, a thread of a 1024-thread block has at most 64 registers.
target sm_80
kernel fragments_big_block(A: global f32[N]) grid (1) block 1024 {
  // expected-error@+1 [CAKE-E0304] {{the fragments of `fragments_big_block` need 80 registers per thread (x 64 + 16 overhead), over the 64 a thread of a 1024-thread block can have on sm_80; `x` crosses it}}
  reg x: f32[64]
}

// -----

target sm_80
kernel fragments_big_block_fit(A: global f32[N]) grid (1) block 1024 {
  reg x: f32[48]
}

// -----

target sm_80
// expected-error@+1 [CAKE-E0305] {{a block of 100 threads is not a multiple of the warp size (32): the last warp would be partial}}
kernel partial_warp(A: global f32[N]) grid (1) block 100 { }

// -----

target sm_80
// expected-error@+1 [CAKE-E0305] {{a block of 2048 threads is over the 1024 threads per block of sm_80}}
kernel huge_block(A: global f32[N]) grid (1) block 2048 { }

// -----

target sm_90a
kernel overlap(A: global f32[N]) grid (1) block 256 {
  role a warp(0 .. 6) { }
  // expected-error@+1 [CAKE-E0306] {{warps 4-5 of role `b` already belong to role `a`: roles partition the warps, with no overlap}}
  role b warpgroup(1) { }
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0306] {{warps 4-7 of the block's 8 belong to no role: roles partition the warps (give idle warps an empty role, or shrink the block)}}
kernel gap(A: global f32[N]) grid (1) block 256 {
  role a warpgroup(0) { }
}

// -----

target sm_90a
kernel beyond(A: global f32[N]) grid (1) block 256 {
  role a warpgroup(0, 1) { }
  // expected-error@+1 [CAKE-E0306] {{`2` is warps 8-11, but the block has 8 warps (256 threads)}}
  role b warpgroup(2) { }
}

// -----

target sm_100a
kernel exact_partition(A: global f32[N]) grid (1) block 256 {
  role producer warp(0 .. 1) { }
  role mma warp(1) { }
  role idle warp(2 .. 4) { }
  role epilogue warpgroup(1) { }
}

// -----

target sm_90a
kernel split_warpgroup(A: global bf16[64, 64]) grid (1) block 256 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role other warp(0 .. 2, 6 .. 8) { }
  // expected-error@+1 [CAKE-E0307] {{role `mma` issues `wgmma` but has only warps 2-5 of warps 0-7: warpgroup-wide instructions (wgmma) run on 4 whole warps starting at a multiple of 4}}
  role mma warp(2 .. 6) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a @ b
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel split_maxnreg(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0307] {{role `p` sets `maxnreg` but has only warps 0-1 of warps 0-3: warpgroup-wide instructions (setmaxnreg) run on 4 whole warps starting at a multiple of 4}}
  role p warp(0 .. 2) maxnreg(40) { }
  role q warp(2 .. 4) { }
}

// -----

target sm_90a
kernel aligned_warpgroups(A: global bf16[64, 64]) grid (1) block 256 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role other warp(0 .. 4) { }
  role mma warp(4 .. 8) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_100a
kernel tmem_columns(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0308] {{`a` allocates 96 columns; a tensor-memory allocation is a power of two from 32 to 512 columns (ptx91, ptxas13)}}
  tmem a: f32[128, 96]
  // expected-error@+1 [CAKE-E0308] {{`b` spans 256 lanes; tensor memory has 1 to 128 lanes on sm_100a}}
  tmem b: f32[256, 32]
}

// -----

target sm_100a
kernel tmem_total(A: global f32[N]) grid (1) block 128 {
  tmem a: f32[128, 256]
  tmem b: bf16[128, 256]
  // expected-error@+1 [CAKE-E0308] {{tensor memory reaches 640 columns with `c`, over the 512 columns per CTA of sm_100a}}
  tmem c: f32[128, 256]
}

// -----

target sm_100a
kernel tmem_fits(A: global f32[N]) grid (1) block 128 {
  tmem a: f32[2][128, 128]
  tmem b: bf16[128, 256]
  tmem c: f32[128, 128]
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0309] {{a cluster of 16 CTAs is over the portable size 8 of sm_90a (cuda_pg_cluster, hopper_tg); sizes up to 16 need `nonportable`}}
kernel cluster_16(A: global f32[N]) where N % 512 == 0 grid (N / 128, 4) block 128 cluster (4, 4) { }

// -----

target sm_90a
kernel cluster_16_nonportable(A: global f32[N]) where N % 512 == 0 grid (N / 128, 4) block 128 cluster (4, 4) nonportable { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0309] {{a cluster of 32 CTAs is over the 16 that sm_90a allows even with `nonportable` (hopper_tg, driver_types)}}
kernel cluster_32(A: global f32[N]) where N % 4096 == 0 grid (N / 128) block 128 cluster (32) nonportable { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0309] {{grid x is 1 for N = 128, not a multiple of the cluster's 2: the launch would fail}}
kernel cluster_grid(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 cluster (2) { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0310] {{grid dimension `N / 256` is 0 for N = 128, which the facts allow: state a fact that keeps it positive}}
kernel grid_zero(A: global f32[N]) where N % 128 == 0 grid (N / 256) block 128 { }

// -----

target sm_90a
kernel grid_positive(A: global f32[N]) where N % 256 == 0 grid (N / 256, cdiv(N, 1024)) block 128 { }

// -----

target sm_90a
kernel named_barriers(A: global f32[N]) grid (1) block 256 {
  // expected-error@+1 [CAKE-E0311] {{named barrier id 0 is outside 1..15 (0 is the barrier `syncthreads` uses)}}
  namedbarrier a id(0) threads(128)
  // expected-error@+1 [CAKE-E0311] {{named barrier thread count 48 is not a positive multiple of 32 (whole warps)}}
  namedbarrier b id(1) threads(48)
  // expected-error@+1 [CAKE-E0311] {{named barrier thread count 512 is more than the block's 256 threads: the barrier would never complete}}
  namedbarrier c id(2) threads(512)
  // expected-error@+1 [CAKE-E0311] {{named barrier id 2 is already used by `c`: two names would share one hardware barrier}}
  namedbarrier d id(2) threads(128)
  namedbarrier e id(15) threads(256)
}

// -----

target sm_90a
kernel mbarrier_counts(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0312] {{arrival count 0 is outside 1..1048575 (ptx91): a phase needs at least one arrival}}
  mbarrier a count(0)
  // expected-error@+1 [CAKE-E0312] {{arrival count 2000000 is outside 1..1048575 (ptx91)}}
  mbarrier b count(2000000)
  // expected-error@+1 [CAKE-E0312] {{an mbarrier array of 0 barriers: declare at least one}}
  mbarrier c[0]
  mbarrier d[4] count(1048575)
}

// -----

target sm_90a
kernel expect_tx_too_many(A: global f32[N]) grid (1) block 128 {
  mbarrier full
  role r all {
    elect {
      // The protocol check (E0402) also sees that no copy delivers the bytes.
      // expected-error@+2 [CAKE-E0312] {{a phase expecting 2000000 bytes is outside the transaction count 0..1048575 of an mbarrier: split the copy over more phases or barriers}}
      // expected-error@+1 [CAKE-E0402]
      arrive.expect_tx full, 2000000
    }
  }
}

// -----

target sm_90a
kernel all_beside_others(A: global f32[N]) grid (1) block 256 {
  role a warpgroup(0) { }
  // expected-error@+1 [CAKE-E0306] {{role `b` is `all`, but role `a` already has warps 0-3}}
  role b all { }
}

// -----

// A kernel without roles is one `all` role: 3 warps cannot issue wgmma.
target sm_90a
// expected-error@+1 [CAKE-E0307] {{the block issues `wgmma` but has only warps 0-2 of warps 0-3: warpgroup-wide instructions (wgmma) run on 4 whole warps starting at a multiple of 4}}
kernel no_roles_wgmma(A: global bf16[64, 64]) grid (1) block 96 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  reg acc: f32[64, 64] layout(wgmma_acc) = 0
  wgmma.fence
  wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
  wgmma.commit
  wgmma.wait 0
}

// -----

// Multi-target: one report for the two targets with the same limit.
target sm_80, sm_86, sm_89, sm_90a
kernel smem_ada(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0301] {{shared memory of `smem_ada` needs 106496 bytes (buffers and mbarriers, aligned), over the 101376 bytes per block of sm_86, sm_89 (cccl_arch_traits, ampere_tg); `a` crosses the limit}}
  smem a: f32[26][1024]
}

// -----

// The other wordings of E0305, E0308-E0311, each with its numbers.
target sm_90a
// expected-error@+1 [CAKE-E0310] {{grid dimension `0` is 0: a grid has at least one CTA per dimension}}
kernel grid_zero(A: global f32[N]) grid (0) block 128 { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0309] {{cluster dimension 0: a cluster has at least one CTA per dimension}}
kernel cluster_zero(A: global f32[N]) grid (4) block 128 cluster (0) { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0309] {{grid x is 3, not a multiple of the cluster's 2: the launch would fail}}
kernel cluster_grid_folded(A: global f32[N]) grid (3) block 128 cluster (2) { }

// -----

target sm_90a
kernel named_barrier_id_high(A: global f32[N]) grid (1) block 256 {
  // expected-error@+1 [CAKE-E0311] {{named barrier id 16 is outside 1..15}}
  namedbarrier a id(16) threads(128)
}

// -----

target sm_100a
kernel tmem_forms(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0308] {{a tmem buffer is `DTYPE[LANES, COLUMNS]`; `a` has 1 dimension(s)}}
  tmem a: f32[128]
  // expected-error@+1 [CAKE-E0308] {{`b` allocates 96 columns (3 stages); a tensor-memory allocation is a power of two from 32 to 512 columns (ptx91, ptxas13)}}
  tmem b: f32[3][128, 32]
}

// -----

target sm_90a
kernel role_twice(A: global f32[N]) grid (1) block 256 {
  // expected-error@+1 [CAKE-E0306] {{role `a` lists warp 1 twice}}
  role a warp(0, 1, 1) { }
  role b warp(2 .. 8) { }
}
