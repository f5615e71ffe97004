// Names and types (E01xx): one case per rule that must draw it, and a
// near-miss beside it that must not. Cases are separated by `// -----`.

target sm_90a
kernel undefined_name(A: global f32[N]) grid (1) block 128 {
  reg r: f32[16]
  // expected-error@+1 [CAKE-E0101] {{undefined name `bogus`}}
  load r <- bogus[0 : 16]
}

// -----

target sm_90a
kernel close_name(A: global f32[N]) where N >= 16 grid (1) block 128 {
  reg frag: f32[16]
  // expected-error@+1 [CAKE-E0101] {{undefined name `fragg`}}
  load fragg <- A[0 : 16]
}

// -----

target sm_90a
kernel defined_names(A: global f32[N]) where N >= 16 grid (1) block 128 {
  reg r: f32[16]
  load r <- A[0 : 16]
}

// -----

target sm_90a
kernel duplicate(A: global f32[N]) grid (1) block 128 {
  smem buf: f32[16]
  // expected-error@+1 [CAKE-E0102] {{`buf` is already defined}}
  smem buf: f32[32]
}

// -----

target sm_90a
kernel shadowing(A: global f32[N]) grid (1) block 128 {
  let i = 1
  // expected-error@+1 [CAKE-E0102] {{`i` is already defined}}
  for i in 0 .. 4 { }
}

// -----

target sm_90a
kernel sibling_loops(A: global f32[N]) grid (1) block 128 {
  for i in 0 .. 4 { }
  for i in 0 .. 4 { }
}

// -----

target sm_90a
kernel mixed_mma(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: f16[16, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    // expected-error@+1 [CAKE-E0103] {{operands differ in dtype: A is bf16, B is f16}}
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// kind::f8f6f4 names each operand's type: tcgen05.mma mixes any two of
// the 8-, 6- and 4-bit floats, but not one of them with bf16.
target sm_100a
kernel mixed_f8f6f4() grid (1) block 128 {
  smem a: f4e2m1[128, 128] swizzle(128B)
  smem b: f6e2m3[64, 128] swizzle(128B)
  smem c: f8e5m2[64, 128] swizzle(128B)
  smem d: bf16[64, 64] swizzle(128B)
  tmem acc: f32[128, 64]
  mbarrier done
  elect {
    tcgen05.mma acc = a @ b.T
    tcgen05.mma acc += a @ c.T
    // expected-error@+1 [CAKE-E0103] {{operands differ in dtype: A is f4e2m1, B is bf16}}
    tcgen05.mma acc += a @ d.T
    tcgen05.commit done
  }
  wait done parity(0)
}

// -----

target sm_90a
kernel bad_accumulator(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[16, 64]
  role mma warpgroup(0) {
    // expected-error@+3 [CAKE-E0103] {{a i32 accumulator cannot take bf16 products}}
    reg acc: i32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel no_implicit_conversion(A: global bf16[64, 64]) grid (1) block 128 {
  role all_threads all {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg o: bf16[64, 64] layout(wgmma_acc)
    // expected-error@+1 [CAKE-E0103] {{assigning f32 to bf16 fragment without a conversion}}
    o = acc
    o = cvt<bf16>(acc)
  }
}

// -----

target sm_80
kernel bitwise_on_integers(X: global f32[16, 8], K: global i32[16, 8]) grid (1) block 32 {
  reg x: f32[16, 8] layout(mma_acc)
  reg k: i32[16, 8] layout(mma_acc)
  load x <- X
  k = cvt<i32>(x * 8.0)
  k = (k & 255) ^ (k << 2)
  // select's literal values take the dtype of what they meet, not pred's
  x = select(x > 0.5, 2.0, 4.0) * x
  x = select(k > 3, 2.0, 4.0)
  // expected-error@+1 [CAKE-E0103] {{`&` takes integers, and its operands are f32}}
  x = x & 3.0
  // expected-error@+1 [CAKE-E0103] {{`>>` takes integers}}
  x = cvt<f32>(k) >> 1
  store K <- k
}

// -----

target sm_80
kernel store_add_dtypes(X: global f32[N], Y: global bf16[32], Z: global f32[32], W: global i32[32]) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  reg x: f32
  reg y: bf16
  reg k: i32
  load x <- X[block.x * 32 + lane]
  y = cvt<bf16>(x)
  k = cvt<i32>(x)
  // expected-error@+1 [CAKE-E0103] {{`store.add` cannot add bf16 values atomically: it adds f32, f64, i32, u32 and u64}}
  store.add Y[lane] <- y
  // expected-error@+1 [CAKE-E0105] {{the destination of `store.add` must be in global memory; `s` is in smem}}
  store.add s[lane] <- x
  store.add Z[lane] <- x
  store.add W[lane] <- k
}

// -----

target sm_90a
kernel good_mma(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[64, 16]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a @ b.T  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel out_of_bounds(X: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  reg r: f32[200]
  // expected-error@+1 [CAKE-E0104] {{`block.x * 128 : 200` is out of bounds: slice ends at 200 but dim 0 of `X` is 128 (for N = 128, block.x = 0, block.y = 0, block.z = 0)}}
  load r <- X[block.x * 128 : 200]
}

// -----

// M indexed by the N-grid: right whenever M = N, as at the bench; the facts
// allow M = 128 with N = 256 (issue 12: bounds over every shape the facts
// admit, not only the benches'). C, indexed by its own N, stays clean.
target sm_90a
kernel grid_of_the_other(A: global f32[M, 64], C: global f32[N, 64]) where M % 128 == 0, N % 128 == 0 grid (N / 128) block 128 {
  reg x: f32
  // expected-error@+1 [CAKE-E0104] {{`block.x * 128 + warp.id * 32 + lane` is out of bounds: index is 255 but dim 0 of `A` is 128 (for M = 128, N = 256}}
  load x <- A[block.x * 128 + warp.id * 32 + lane, 0]
  store C[block.x * 128 + warp.id * 32 + lane, 0] <- x
}
bench grid_of_the_other { M = 1024, N = 1024 }

// -----

// A TMA box coordinate past the end of K (issue 12): the last box would move
// nothing of A. The box over the tail row is fine: it starts inside.
target sm_90a
kernel tma_past_k(A: global bf16[M, K]) where M % 128 == 0, K % 64 == 0, K >= 64 grid (M / 128) block 128 {
  smem buf: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [128, 64] swizzle(128B)
  elect {
    arrive.expect_tx full, bytes(buf)
    // expected-error@+1 [CAKE-E0104] {{`K` is out of bounds: index is 64 but dim 1 of `A` is 64}}
    tma.load buf <- tA[block.x * 128, K], full
  }
  wait full parity(0)
  elect {
    arrive.expect_tx full, bytes(buf)
    tma.load buf <- tA[block.x * 128 + 127, K - 64], full
  }
  wait full parity(1)
}

// -----

// A prefetch three tiles ahead under an off-by-one guard (issue 12): the loop's
// first and last trips do not show it (the guard excludes the last), the
// guard's last admitted trip does. `kt + 3 < kts` is the right guard.
target sm_80
kernel guard_off_by_one(A: global bf16[128, K]) where K % 32 == 0, K >= 128 grid (1) block 128 {
  smem s: bf16[128, 32]
  let kts = K / 32
  for kt in 0 .. kts {
    if kt + 3 <= kts {
      // expected-error@+1 [CAKE-E0104] {{`(kt + 3) * 32 : 32` is out of bounds: slice ends at 160 but dim 1 of `A` is 128 (for K = 128, kt = 1)}}
      cp.async s <- A[:, (kt + 3) * 32 : 32]
    }
    if kt + 3 < kts {
      cp.async s <- A[:, (kt + 3) * 32 : 32]
    }
    cp.async.commit
    cp.async.wait 0
    syncthreads
  }
}

// -----

// Guards that read `lane`: an `else` branch runs where the condition fails
// (lanes 16 .. 31 index 15 .. 0: clean; it was flagged at lane 0), the
// last lane a guard admits is not a corner (lane 15 reaches 20), and an
// index of `warp.id` under a lane guard is still checked (the guard's lane
// was unknown, so no point was admitted). Each warp writes its own row of
// `s` (E0605 took the two stores for one another's before).
target sm_80
kernel lane_guards(X: global f32[N]) where N % 64 == 0 grid (N / 64) block 64 {
  smem s: f32[2, 20]
  smem t: f32[2]
  reg x: f32
  load x <- X[block.x * 64 + warp.id * 32 + lane]
  if lane < 16 {
    // expected-error@+1 [CAKE-E0104] {{`lane + 5` is out of bounds: index is 20 but dim 1 of `s` is 20 (for N = 64, lane = 15)}}
    store s[warp.id, lane + 5] <- x
  } else {
    store s[warp.id, 31 - lane] <- x
  }
  if lane < 8 {
    // expected-error@+1 [CAKE-E0104] {{`warp.id + 1` is out of bounds: index is 2 but dim 0 of `t` is 2}}
    store t[warp.id + 1] <- x
  }
}

// -----

// A guard on `warp.id` that admits neither the first nor the last warp:
// warp 1 reaches past `u` (no point was tried before: warps 0 and 3 only).
target sm_80
kernel warp_guard(X: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem u: f32[6]
  reg x: f32
  load x <- X[block.x * 128 + warp.id * 32 + lane]
  if warp.id == 1 {
    // expected-error@+1 [CAKE-E0104] {{`warp.id + 5` is out of bounds: index is 6 but dim 0 of `u` is 6 (for N = 128, warp.id = 1)}}
    store u[warp.id + 5] <- x
  }
}

// -----

// Tied by a fact, the symbols do not come apart: clean.
target sm_90a
kernel grid_tied(A: global f32[M, 64], C: global f32[N, 64]) where M % 128 == 0, N % 128 == 0, M == N grid (N / 128) block 128 {
  reg x: f32
  load x <- A[block.x * 128 + warp.id * 32 + lane, 0]
  store C[block.x * 128 + warp.id * 32 + lane, 0] <- x
}

// -----

// Inside a role, `warp.id` ranges over the role's warps only: warps 4..7
// index rows 0..63 with `warp.id - 4`, and `warp.id - 5` reaches -1.
target sm_90a
kernel role_relative(X: global f32[64, 32]) grid (1) block 256 {
  role idle warpgroup(0) { }
  role rows warpgroup(1) {
    let q = warp.id - 4
    reg r: f32[16, 32] layout(mma_acc)
    load r <- X[q * 16 : 16, :]
    // expected-error@+1 [CAKE-E0104] {{`(warp.id - 5) * 16 : 16` is out of bounds: slice starts at -16 but dim 0 of `X` is 64}}
    load r <- X[(warp.id - 5) * 16 : 16, :]
  }
}

// -----

target sm_90a
kernel ring_too_short(X: global f32[K]) where K % 128 == 0, K >= 128 grid (1) block 128 {
  smem cn: f32[2][128]
  mbarrier full[3]
  role p all {
    elect {
      pipeline s in ring(3) for kt in 0 .. K / 128 {
        arrive.expect_tx full[s], bytes(cn[0])
        // expected-error@+1 [CAKE-E0104] {{`s` is out of bounds: index is 2 but dim 0 of `cn` is 2 (for K = 1048576, s = 2, s.phase = 0)}}
        bulk.load cn[s] <- X[kt * 128 : 128], full[s]
        wait full[s] parity(s.phase)
      }
    }
  }
}

// -----

target sm_90a
kernel in_bounds(X: global f32[K]) where K % 128 == 0, K >= 128 grid (1) block 128 {
  smem cn: f32[3][128]
  mbarrier full[3]
  role p all {
    elect {
      pipeline s in ring(3) for kt in 0 .. K / 128 {
        arrive.expect_tx full[s], bytes(cn[s])
        bulk.load cn[s] <- X[kt * 128 : 128], full[s]
        wait full[s] parity(s.phase)
      }
    }
  }
}

// -----

target sm_90a
kernel guarded(X: global f32[N]) grid (cdiv(N, 128)) block 128 {
  reg r: f32[1]
  let i = block.x * 128 + warp.id * 32 + lane
  if i < N {
    load r <- X[i : 1]
  }
}

// -----

target sm_90a
kernel wrong_space(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  reg r: bf16[128, 64]
  mbarrier b
  tensormap tX = X box [128, 64] swizzle(128B)
  role p all {
    elect {
      arrive.expect_tx b, bytes(r)
      // expected-error@+1 [CAKE-E0105] {{the destination of `tma.load` must be in smem memory; `r` is in reg}}
      tma.load r <- tX[block.x * 128, 0], b
      wait b parity(0)
    }
  }
}

// -----

target sm_90a
kernel tma_from_tensor(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier b
  tensormap tX = X box [128, 64] swizzle(128B)
  role p all {
    elect {
      arrive.expect_tx b, bytes(xs)
      // expected-error@+1 [CAKE-E0108] {{`X` is a tensor parameter, not a tensormap}}
      tma.load xs <- X[block.x * 128 : 128, :], b
      wait b parity(0)
    }
  }
}

// -----

target sm_90a
kernel mma_shapes(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 16]
  smem b: bf16[32, 64]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    // expected-error@+1 [CAKE-E0106] {{`wgmma`: [64, 16] @ [32, 64] into [64, 64]: A's K does not match B's K}}
    wgmma acc += a @ b  // expected-warning [CAKE-W0703] {{`wgmma` reads `a`}} expected-warning [CAKE-W0703] {{`wgmma` reads `b`}}
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// K a whole number of instructions: wgmma takes 32 bytes of a row (k16 for
// bf16, k32 for 8-bit floats); mma.sync's narrowest shapes take 16 (m16n8k8
// for bf16, accepted).
target sm_90a
kernel mma_k_steps(A: global bf16[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 8] swizzle(32B)
  smem b: bf16[64, 8] swizzle(32B)
  smem c: f8e4m3[64, 16]
  smem d: f8e4m3[64, 16]
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg m8: f32[16, 16] layout(mma_acc) = 0
    reg x: bf16[16, 8] layout(mma_acc) = 0
    reg y: bf16[16, 8] layout(mma_acc) = 0
    wgmma.fence
    // expected-error@+1 [CAKE-E0106] {{`wgmma`: [64, 8] @ [8, 64] into [64, 64]: K = 8 is not a multiple of 16, the K of one `wgmma` instruction for bf16 operands}}
    wgmma acc += a @ b.T
    // expected-error@+1 [CAKE-E0106] {{K = 16 is not a multiple of 32, the K of one `wgmma` instruction for f8e4m3 operands}}
    wgmma acc += c @ d.T
    mma m8 += x @ y.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// MN-major tiles (B stored [K, N], A stored [K, M] and used as `.T`): wgmma
// reads them for 16-bit operands only (its transpose immediates);
// tcgen05.mma for every kind (the instruction descriptor's transpose bits).
target sm_90a
kernel mma_major() grid (1) block 128 {
  smem a: bf16[32, 64] swizzle(128B)
  smem b: bf16[32, 64] swizzle(128B)
  smem e: f8e4m3[64, 64] swizzle(64B)
  smem f: f8e4m3[64, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += a.T @ b
    // expected-error@+1 [CAKE-E0106] {{`wgmma` reads f8e4m3 operands K-major only: `f` is stored with N contiguous (MN-major); store it as [N, K] and use it as `.T`}}
    wgmma acc += e @ f
    // expected-error@+1 [CAKE-E0106] {{`e.T` is stored with M contiguous (MN-major); store it as [M, K] and use it as it is}}
    wgmma acc += e.T @ f.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

// col_major flips which dim is contiguous: a col_major [K, N] B is K-major,
// a col_major [M, K] A is M-major.
target sm_90a
kernel mma_major_col() grid (1) block 128 {
  smem e: f8e4m3[64, 64] swizzle(64B)
  smem fc: f8e4m3[64, 64] col_major swizzle(64B)
  smem ec: f8e4m3[64, 64] col_major swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    wgmma.fence
    wgmma acc += e @ fc
    // expected-error@+1 [CAKE-E0106] {{`ec` is stored with M contiguous (MN-major); store it as [M, K] and use it as it is}}
    wgmma acc += ec @ fc
    // expected-error@+1 [CAKE-E0106] {{`fc.T` is stored with N contiguous (MN-major)}}
    wgmma acc += e @ fc.T
    wgmma.commit
    wgmma.wait 0
  }
}

// -----

target sm_90a
kernel rank(A: global f32[N]) where N >= 16 grid (1) block 128 {
  reg r: f32[16]
  // expected-error@+1 [CAKE-E0107] {{`A` has 1 dimension(s) but is indexed with 2}}
  load r <- A[0 : 16, 0]
}

// -----

target sm_90a
kernel ring_not_selected(A: global f32[N]) where N >= 128 grid (1) block 128 {
  smem cn: f32[3][128]
  reg r: f32[128]
  // expected-error@+1 [CAKE-E0107] {{`cn` is a ring of 3 stages: select one with `cn[s]`}}
  load r <- cn
}

// -----

target sm_90a
kernel wrong_kind(A: global f32[N]) grid (1) block 128 {
  smem buf: f32[16]
  // expected-error@+1 [CAKE-E0108] {{`buf` is a shared-memory buffer, not an mbarrier}}
  arrive buf
}

// -----

target sm_90a
kernel broadcast(A: global f32[N]) grid (1) block 128 {
  role r warpgroup(0) {
    reg acc: f32[64, 128] layout(wgmma_acc) = 0
    reg v: f32[32]
    reg row: f32[64] layout(wgmma_acc.row)
    reg col: f32[128]
    acc = acc - row
    acc = acc * col
    // expected-error@+1 [CAKE-E0109] {{element-wise shapes [64, 128] and [32] do not broadcast (dims align from the last; each must be equal or 1, and a `.row` vector of length M spreads across the columns of [M, N])}}
    acc = acc + v
    reg one: f32
    // expected-error@+1 [CAKE-E0109] {{value of shape [64] assigned to `one` of shape []}}
    one = row
  }
}

// -----

// expected-error@+1 [CAKE-E0110] {{unknown target `sm_75`}}
target sm_90a, sm_75

// -----

// expected-error@+1 [CAKE-E0110] {{unknown target `sm90a`}}
target sm90a

// -----

target sm_90a
// expected-error@+1 [CAKE-E0111] {{`swizzle` applies only to smem buffers and tensormaps}}
kernel attributes(A: global f32[N] swizzle(128B)) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0111] {{unknown swizzle mode `96B`: use 32B, 64B or 128B}}
  smem s: f32[16] swizzle(96B)
  // expected-error@+1 [CAKE-E0111] {{unknown layout `wgmma_accc`: use mma_acc, mma_acc.row, wgmma_acc, wgmma_acc.row or tcgen05_acc}}
  reg r: f32[16] layout(wgmma_accc)
}

// -----

target sm_90a
kernel not_constant(A: global f32[N]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0112] {{a buffer dimension must be a compile-time constant}}
  smem s: f32[N]
}

// -----

target sm_90a
const STAGES = 3
kernel constant_ok(A: global f32[N]) grid (1) block 128 {
  smem s: f32[STAGES][64]
  mbarrier full[STAGES] count(STAGES * 2)
}

// -----

target sm_90a
kernel misplaced(A: global f32[N]) grid (1) block 128 {
  role p all {
    // expected-error@+1 [CAKE-E0113] {{declarations belong at kernel scope}}
    smem s: f32[16]
  }
}

// -----

// expected-error@+1 [CAKE-E0114] {{missing `target`: a file starts with the targets it is written for, e.g. `target sm_90a`}}
kernel no_target(A: global f32[N]) grid (1) block 128 { }

// -----

target sm_90a
kernel benched(A: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 { }
// expected-error@+1 [CAKE-E0115] {{bench shape (N = 1000) violates the fact `N % 128 == 0` of `benched`}}
bench benched { N = 1000 }
bench benched { N = 1024 }

// -----

target sm_90a
kernel benched2(A: global f32[N]) grid (cdiv(N, 128)) block 128 { }
// expected-error@+1 [CAKE-E0115] {{`M` is not a shape symbol of `benched2` (its shape symbols: N)}}
bench benched2 { N = 1024, M = 3 }

// -----

// E0115's other wordings: a size that is not positive, a symbol left unbound.
target sm_90a
kernel benched3(A: global f32[M, N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0115] {{`N` = 0 is not a positive size}}
bench benched3 { M = 64, N = 0 }
// expected-error@+1 [CAKE-E0115] {{bench of `benched3` leaves N unbound}}
bench benched3 { M = 64 }

// -----

target sm_90a
kernel calls(A: global f32[N]) grid (1) block 128 {
  reg r: f32[16]
  // expected-error@+1 [CAKE-E0116] {{unknown function `exp3`; the builtins are bytes, cdiv, max, min, exp2, log2, exp, log, rsqrt, sqrt, abs, row, col, select and cvt<T>}}
  r = exp3(r)
  r = exp2(r)
  // expected-error@+1 [CAKE-E0116] {{`exp2` takes 1 argument(s), not 2}}
  r = exp2(r, r)
}

// -----

// Masking: row(x), col(x) and select(c, a, b), and their misuses.
target sm_90a
kernel masks(A: global f32[N]) grid (1) block 128 {
  role r warpgroup(0) {
    reg s: f32[64, 64] layout(wgmma_acc) = 0
    reg m: f32[64] layout(wgmma_acc.row)
    reg v: f32[64]
    reg k: i32[64, 64] layout(wgmma_acc)
    s = select(col(s) > row(s) + 64 * block.x, -inf, s)     // causal: clean
    s = select(s > 0.0 && col(s) < 100, s, 0.0)              // predicates combine
    s = select(block.x == 0, s, s * 2.0)                     // a uniform predicate
    m = select(m > 1.0, m, 1.0)
    s = select(col(s) < 8, s - m, v)                         // operands broadcast
    k = row(s) * 64 + col(s)
    // expected-error@+1 [CAKE-E0116] {{`row` takes a 2-D register fragment by name (the tile whose element places it gives)}}
    k = row(s[0 : 64, :])
    // expected-error@+1 [CAKE-E0116] {{`col` takes a 2-D register fragment by name (the tile whose element places it gives)}}
    v = cvt<f32>(col(v))
    // expected-error@+1 [CAKE-E0116] {{`select` takes a predicate first (a comparison, such as `col(s) > row(s)`), not f32}}
    s = select(s, s, 0.0)
    // expected-error@+1 [CAKE-E0116] {{`select` takes 3 argument(s), not 2}}
    s = select(s > 0.0, s)
    // expected-error@+1 [CAKE-E0103] {{assigning i32 to f32 fragment without a conversion}}
    s = row(s)
    // A scalar value arm gives select its dtype as a fragment does.
    s = select(s > 1.0, cvt<f32>(block.x), 3.0)
    // expected-error@+1 [CAKE-E0103] {{assigning i32 to f32 fragment without a conversion}}
    s = select(s > 1.0, block.x, 3.0)
    // expected-error@+1 [CAKE-E0109] {{element-wise shapes [64, 64] and [32] do not broadcast (dims align from the last; each must be equal or 1, and a `.row` vector of length M spreads across the columns of [M, N])}}
    s = select(col(s) < 8, s, cvt<f32>(k[0, 0 : 32]))
  }
}

// -----

// A scalar operand of another dtype is not converted implicitly: the error
// is on the operand that differs from the first.
target sm_90a
kernel scalar_dtype(A: global f32[N]) grid (1) block 128 {
  role r warpgroup(0) {
    reg s: f32[64, 64] layout(wgmma_acc) = 0
    for it in 0 .. 4 {
      // expected-error@+1 [CAKE-E0103] {{element-wise operands differ in dtype: f32 and i32; convert one with cvt<f32>(...)}} fix {{s * cvt<f32>(it)}}
      s = s * it
      s = s * cvt<f32>(it) + 1.0
    }
  }
}

// -----

// Broadcasting: a dim of 1 stretches; reduce.row may keep its column.
target sm_90a
kernel norms(X: global f32[R, 16]) where R % 128 == 0 grid (R / 128) block 128 {
  let i = block.x * 128 + warp.id * 32 + lane
  reg x: f32[1, 16]
  reg mean: f32[1]
  reg y: f32[4, 16]
  reg rows: f32[4, 1]
  reg half: f32[4, 2]
  load x <- X[i : 1, :]
  reduce.row sum mean <- x
  x = x - mean * 0.0625                  // [1] over [1, 16]
  reduce.row max rows <- y
  y = y - rows                             // [4, 1] over [4, 16]
  y = rows - y
  y = y * x                                // [1, 16] over [4, 16]
  // expected-error@+1 [CAKE-E0109] {{element-wise shapes [4, 16] and [4, 2] do not broadcast (dims align from the last; each must be equal or 1, and a `.row` vector of length M spreads across the columns of [M, N])}}
  y = y - half
  // expected-error@+1 [CAKE-E0109] {{`reduce.row` reduces each row of a 2-D fragment into one value per row ([M] or [M, 1]): [4, 16] into [4, 2]}}
  reduce.row sum half <- y
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0117] {{kernel `no_block` has no `block THREADS` clause: a kernel states its launch shape}}
kernel no_block(A: global f32[N]) grid (1) { }

// -----

target sm_90a
// expected-error@+1 [CAKE-E0117] {{`grid` is given twice}}
kernel twice(A: global f32[N]) grid (1) block 128 grid (2) { }

// -----

target sm_80
kernel shifts(K: global i32[32], Y: global i32[32]) grid (1) block 32 {
  reg k: i32[1]
  reg h: u16[1]
  load k <- K[lane : 1]
  // expected-error@+1 [CAKE-E0124] {{`k << 32` shifts a i32 by 32: the amount must be from 0 to 31}}
  k = k << 32
  // expected-error@+1 [CAKE-E0124] {{`cvt<u16>(k) >> 16` shifts a u16 by 16: the amount must be from 0 to 15}}
  h = cvt<u16>(k) >> 16
  // expected-error@+1 [CAKE-E0124] {{`k >> (0 - 1)` shifts a i32 by -1: the amount must be from 0 to 31}}
  k = k >> (0 - 1)
  k = (k >> 31) + (cvt<i32>(h) << 15)
  store Y[lane : 1] <- k
}

// -----

target sm_80
kernel store_expression(X: global f32[N], Y: global f32[N], Z: global i8[N]) where N % 32 == 0 grid (N / 32) block 32 {
  let i = block.x * 32 + lane
  reg x: f32
  reg k: i32
  reg q: i8
  load x <- X[i]
  k = cvt<i32>(x * 4.0)
  // expected-error@+1 [CAKE-E0108] {{`x * 2.0` is an element-wise expression, not a buffer (the source of `store`)}}
  store Y[i] <- x * 2.0
  // expected-error@+1 [CAKE-E0108] {{`cvt<i8>(k)` is an element-wise expression}}
  store Z[i] <- cvt<i8>(k)
  q = cvt<i8>(k)
  store Z[i] <- q
}
