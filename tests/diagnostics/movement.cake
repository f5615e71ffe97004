// Movement (E05xx): each case draws the rule on the line after its
// annotation, beside a near miss that must stay clean. The constraints come
// from the architecture tables (analysis/arch/*.json).

target sm_90a
kernel box_rank(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  // expected-error@+1 [CAKE-E0501] {{box [8192] has 1 dim(s) but `X` has 2: a tensor map's box has one dim per tensor dim}}
  tensormap tX = X box [8192]
}

// -----

target sm_90a
kernel box_too_big(X: global bf16[N, 64]) where N % 512 == 0 grid (N / 512) block 128 {
  // expected-error@+1 [CAKE-E0501] {{box dim 512 is outside 1..256 (cuda_h): load bigger tiles as several boxes}}
  tensormap tX = X box [512, 64]
}

// -----

target sm_90a
kernel inner_not_16(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  // expected-error@+1 [CAKE-E0502] {{inner box dim 6 f32 = 24 bytes is not a multiple of 16 bytes (cuda_h)}}
  tensormap tX = X box [128, 6]
}

// -----

target sm_90a
kernel inner_over_span(X: global f32[N, 128]) where N % 128 == 0 grid (N / 128) block 128 {
  // expected-error@+1 [CAKE-E0502] {{inner box dim 64 f32 = 256 bytes is wider than the 128-byte span of swizzle(128B) (cuda_h): at most 32 f32 per box row; load wider tiles as several boxes}}
  tensormap tX = X box [128, 64] swizzle(128B)
}

// -----

target sm_90a
kernel inner_fits(X: global f32[N, 128]) where N % 128 == 0 grid (N / 128) block 128 {
  tensormap tA = X box [128, 32] swizzle(128B)
  tensormap tB = X box [64, 16] swizzle(64B)
  tensormap tC = X box [256, 128]
}

// -----

target sm_90a
kernel swizzle_mismatch(X: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(64B)
  mbarrier full
  tensormap tX = X box [128, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      // expected-error@+1 [CAKE-E0503] {{the destination `xs` has swizzle(64B) but tensor map `tX` has swizzle(128B): TMA would lay the tile out in another order than its readers expect}}
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel box_tile_mismatch(X: global bf16[N, 128]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64]
  mbarrier full
  tensormap tX = X box [64, 128]
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      // expected-error@+1 [CAKE-E0504] {{the destination tile is [128, 64] but the box of `tX` is [64, 128]: TMA writes the box row by row, so the tile's rows would not be the box's}}
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel tma_matches(X: global bf16[N, 64], Y: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[2][64, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [64, 64] swizzle(128B)
  tensormap tY = Y box [64, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      tma.load xs[0] <- tX[block.x * 128, 0], full
      tma.load xs[1] <- tX[block.x * 128 + 64, 0], full
    }
    wait full parity(0)
    elect {
      tma.store tY[block.x * 128, 0] <- xs[0]
      tma.store.commit
      tma.store.wait 0
    }
  }
}

// -----

// K bf16 per row: a row pitch of 2 bytes when K = 1, which nothing rules out.
target sm_90a
// expected-error@+1 [CAKE-E0505] {{rows of `X` are K × bf16 apart (2 bytes for N = 128, K = 1); TMA needs global strides that are multiples of 16 bytes (cuda_h)}}
kernel tma_pitch(X: global bf16[N, K]) where N % 128 == 0 grid (N / 128) block 128 {
  tensormap tX = X box [128, 8]
}

// -----

target sm_90a
kernel tma_pitch_ok(X: global bf16[N, K]) where N % 128 == 0, K % 8 == 0 grid (N / 128) block 128 {
  tensormap tX = X box [128, 8]
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0505] {{rows of `X` are 3 × f32 = 12 bytes apart; TMA needs global strides that are multiples of 16 bytes (cuda_h)}}
kernel tma_pitch_literal(X: global f32[N, 3]) where N % 128 == 0 grid (N / 128) block 128 {
  tensormap tX = X box [128, 4]
}

// -----

target sm_80
kernel cp_async_rows(A: global bf16[M, 64]) where M % 128 == 0 grid (M / 128) block 128 {
  smem sa: bf16[128, 3]
  // expected-error@+1 [CAKE-E0506] {{`cp.async` copies rows of 3 bf16 = 6 bytes, which do not split into 4, 8 or 16-byte pieces (ptx91, ptxas13); copy a multiple of 4 bytes per row, or use `load`/`store`}}
  cp.async sa <- A[block.x * 128 : 128, 0 : 3]
  cp.async.commit
  cp.async.wait 0
  syncthreads
}

// -----

target sm_80
kernel cp_async_offset(A: global bf16[M, 64]) where M % 128 == 0 grid (M / 128) block 128 {
  smem sa: bf16[128, 32]
  // expected-error@+1 [CAKE-E0506] {{`cp.async` starts 1 bf16 into each row of `A`, not at a multiple of 4 bytes: its pieces would be misaligned}}
  cp.async sa <- A[block.x * 128 : 128, 1 : 32]
  cp.async.commit
  cp.async.wait 0
  syncthreads
}

// -----

target sm_80
kernel cp_async_pitch(A: global bf16[M, K]) where M % 128 == 0, K >= 32 grid (M / 128) block 128 {
  smem sa: bf16[128, 32]
  // expected-error@+1 [CAKE-E0506] {{rows of `A` are K × bf16 apart (33 bf16 for M = 256, K = 33), not a multiple of 4 bytes: `cp.async` pieces of later rows would be misaligned}}
  cp.async sa <- A[block.x * 128 : 128, 0 : 32]
  cp.async.commit
  cp.async.wait 0
  syncthreads
}

// -----

target sm_80
kernel cp_async_ok(A: global bf16[M, K]) where M % 128 == 0, K % 2 == 0, K >= 32 grid (M / 128) block 128 {
  smem sa: bf16[128, 32]
  smem sb: bf16[128, 2]
  cp.async sa <- A[block.x * 128 : 128, 0 : 32]
  cp.async sb <- A[block.x * 128 : 128, 2 : 2]
  cp.async.commit
  cp.async.wait 0
  syncthreads
}

// -----

target sm_90a
kernel bulk_size(V: global f32[N]) where N % 128 == 0 grid (N / 128) block 32 {
  smem vs: f32[10]
  mbarrier full
  role load all {
    elect {
      arrive.expect_tx full, bytes(vs)
      // expected-error@+1 [CAKE-E0507] {{`bulk.load` copies 40 bytes, not a multiple of 16 bytes (ptx91, ptxas13)}}
      bulk.load vs <- V[block.x * 128 : 10], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel bulk_offset(V: global f32[N]) where N >= 130 grid (1) block 32 {
  smem vs: f32[128]
  mbarrier full
  role load all {
    elect {
      arrive.expect_tx full, bytes(vs)
      // expected-error@+1 [CAKE-E0507] {{`bulk.load` starts 2 f32 into `V`, not at a multiple of 16 bytes (ptx91)}}
      bulk.load vs <- V[2 : 128], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel bulk_ok(V: global f32[N]) where N % 128 == 0, N >= 256 grid (N / 128) block 32 {
  smem vs: f32[2][128]
  mbarrier full
  role load all {
    elect {
      arrive.expect_tx full, bytes(vs)
      bulk.load vs[0] <- V[block.x * 128 : 128], full
      bulk.load vs[1] <- V[4 : 128], full
    }
    wait full parity(0)
  }
}

// -----

target sm_80
kernel ldmatrix_rows(A: global bf16[64, 64]) grid (1) block 32 {
  smem sa: bf16[64, 64]
  smem sp: bf16[16, 36]
  reg a: bf16[16, 4] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  // expected-error@+1 [CAKE-E0508] {{`ldmatrix` addresses rows of 4 bf16 = 8 bytes; its 8x8 matrices are made of 16-byte rows (ptx91)}}
  ldmatrix a <- sa[0 : 16, 0 : 4]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sa`}}
  // expected-error@+1 [CAKE-E0508] {{`ldmatrix` starts 4 bf16 into each row of `sa`: its rows must start at 16-byte aligned addresses (ptx91)}}
  ldmatrix b <- sa[0 : 16, 4 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sa`}}
  // expected-error@+1 [CAKE-E0508] {{rows of `sp` are 36 bf16 = 72 bytes apart, so `ldmatrix` rows after the first are not 16-byte aligned (ptx91)}}
  ldmatrix b <- sp[0 : 16, 0 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sp`}}
  ldmatrix b <- sa[16 : 16, 8 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sa`}}
}

// -----

// The same rules for a ring buffer's stage (issue 12: E0508 skipped rings).
target sm_80
kernel ldmatrix_ring_rows(A: global bf16[64, 64]) grid (1) block 32 {
  smem ring: bf16[2][16, 36]
  smem ok: bf16[2][16, 64]
  reg b: bf16[16, 16] layout(mma_acc)
  // expected-error@+1 [CAKE-E0508] {{rows of `ring` are 36 bf16 = 72 bytes apart, so `ldmatrix` rows after the first are not 16-byte aligned (ptx91)}}
  ldmatrix b <- ring[1][0 : 16, 0 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `ring`}}
  // expected-error@+1 [CAKE-E0508] {{`ldmatrix` starts 4 bf16 into each row of `ok`: its rows must start at 16-byte aligned addresses (ptx91)}}
  ldmatrix b <- ok[1][0 : 16, 4 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `ok`}}
  ldmatrix b <- ok[0][0 : 16, 8 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `ok`}}
}

// -----

target sm_90a
kernel stmatrix_rows(C: global bf16[16, 16]) grid (1) block 32 {
  smem cs: bf16[16, 24]
  reg c: bf16[16, 16] layout(mma_acc) = 0
  stmatrix cs[:, 8 : 16] <- c
  // expected-error@+1 [CAKE-E0508] {{`stmatrix` starts 4 bf16 into each row of `cs`: its rows must start at 16-byte aligned addresses (ptx91)}}
  stmatrix cs[:, 4 : 16] <- c
}

// -----

// E0509: B stored [K, N] goes to `a @ b` through `ldmatrix ... trans`
// (issue 12: an N-major B fed to mma without trans). The CPU executor gets
// the right answer either way; the GPU would not.
target sm_80
kernel b_without_trans(A: global bf16[16, 16], B: global bf16[16, 16], C: global f32[16, 16]) grid (1) block 32 {
  smem sa: bf16[16, 16] swizzle(32B)
  smem sb: bf16[16, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  cp.async sa <- A
  cp.async sb <- B
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb
  // expected-error@+1 [CAKE-E0509] {{`a @ b` takes `b` as a [K, N] B operand, whose registers must be in the order of its transpose, but `ldmatrix` fills it in plain order}} fix {{trans}}
  mma acc += a @ b
  store C <- acc
}

// -----

target sm_80
kernel b_with_trans(A: global bf16[16, 16], B: global bf16[16, 16], C: global f32[16, 16]) grid (1) block 32 {
  smem sa: bf16[16, 16] swizzle(32B)
  smem sb: bf16[16, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  cp.async sa <- A
  cp.async sb <- B
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb trans
  mma acc += a @ b
  store C <- acc
}

// -----

// A transposed fragment read in plain order: as `.T`, as A, stored, mixed
// with a plain load, stored back without `trans`; and a stray `trans`.
target sm_90
kernel transposed_misread(A: global bf16[16, 16], C: global bf16[16, 16], D: global f32[16, 16]) grid (1) block 32 {
  smem sa: bf16[16, 16] swizzle(32B)
  smem sc: bf16[16, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  cp.async sa <- A
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sa trans
  // expected-error@+1 [CAKE-E0509] {{`b` holds its values in the register order of its transpose}}
  mma acc += a @ b.T
  // expected-error@+1 [CAKE-E0509] {{`b` holds its values in the register order of its transpose}}
  mma acc += b @ a.T
  // expected-error@+1 [CAKE-E0509] {{`b` holds its values in the register order of its transpose}}
  store C <- b
  // expected-error@+1 [CAKE-E0509] {{`b` holds its values in the register order of its transpose}}
  stmatrix sc <- b
  stmatrix sc <- b trans
  // expected-error@+1 [CAKE-E0509] {{`stmatrix ... trans` stores `a` as if its registers were in the order of its transpose}} nofix
  stmatrix sc <- a trans
  store D <- acc
}

// -----

target sm_80
kernel mixed_orders(A: global bf16[16, 16], B: global bf16[16, 16], C: global f32[16, 16]) grid (1) block 32 {
  smem sa: bf16[16, 16] swizzle(32B)
  smem sb: bf16[16, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  cp.async sa <- A
  cp.async sb <- B
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb trans
  mma acc += a @ b
  // expected-error@+1 [CAKE-E0509] {{this `ldmatrix` fills `b` in plain order, but another fills it with `trans`}} fix {{trans}}
  ldmatrix b <- sb[0 : 16, 0 : 16]
  mma acc += a @ b
  store C <- acc
}

// -----

// E0509's TransShape form: `trans` gives a fragment the register order of
// its transpose, which only a 16-bit mma_acc [K, N] with N a multiple of
// 16 has (the transpose is whole 16 x 8 tiles); nothing else can hold it.
target sm_90a
kernel trans_shapes() grid (1) block 128 {
  smem s: bf16[64, 16]
  smem t: bf16[16, 8]
  smem u: bf16[32, 16]
  role mma warpgroup(0) {
    reg w: bf16[64, 16] layout(wgmma_acc)
    reg n8: bf16[16, 8] layout(mma_acc)
    reg ok: bf16[32, 16] layout(mma_acc)
    // expected-error@+1 [CAKE-E0509] {{`trans` gives `w` the register order of its transpose, an mma.sync B operand's, which only a 16-bit mma_acc [K, N] fragment with N a multiple of 16 has; `w` is bf16 [64, 16] wgmma_acc: drop `trans`}}
    ldmatrix w <- s trans  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `s`}}
    // expected-error@+1 [CAKE-E0509] {{`n8` is bf16 [16, 8] mma_acc: drop `trans`}}
    ldmatrix n8 <- t trans
    // expected-error@+1 [CAKE-E0509] {{`w` is bf16 [64, 16] wgmma_acc}}
    stmatrix s <- w trans
    ldmatrix ok <- u trans  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `u`}}
    // expected-error@+1 [CAKE-E0605] {{`u` is written whole by every warp of role `mma`: each warp holds all of `ok` (layout mma_acc)}}
    stmatrix u <- ok trans
  }
}

// -----

// E0510: TMA packs its box densely, so a tile of a wider buffer's column
// range (issue 12: a TMA store from a column half) takes the wrong rows.
target sm_90a
kernel tma_column_half(A: global bf16[M, 64], C: global bf16[M, 64]) where M % 128 == 0 grid (M / 128) block 128 {
  smem wide: bf16[128, 128]
  smem whole: bf16[128, 64]
  mbarrier full
  tensormap tA = A box [128, 64]
  tensormap tC = C box [128, 64]
  elect {
    arrive.expect_tx full, bytes(whole) + bytes(wide[:, 0 : 64])
    tma.load whole <- tA[block.x * 128, 0], full
    // expected-error@+1 [CAKE-E0510] {{the destination `wide[:, 0 : 64]` takes 64 of the 128 elements of each row of `wide`}}
    tma.load wide[:, 0 : 64] <- tA[block.x * 128, 0], full
  }
  wait full parity(0)
  fence.proxy.async
  elect {
    // expected-error@+1 [CAKE-E0510] {{the source `wide[:, 64 : 64]` takes 64 of the 128 elements of each row of `wide`}}
    tma.store tC[block.x * 128, 0] <- wide[:, 64 : 64]
    tma.store tC[block.x * 128, 0] <- whole
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// E0510's second form: an index between a tile's first and inner dims
// that fixes or narrows a dim leaves its rows apart; the outer dims
// indexed and the rest whole is dense.
target sm_90a
kernel tma_rows_apart(X: global f32[64, 32], Y: global f32[2, 4, 32]) grid (1) block 128 {
  smem s: f32[2, 4, 32]
  mbarrier full
  tensormap tX = X box [2, 32]
  tensormap tY = Y box [2, 4, 32]
  elect {
    arrive.expect_tx full, bytes(s[:, 1, :]) + bytes(s[1, 0 : 2, :])
    // expected-error@+1 [CAKE-E0510] {{the destination `s[:, 1, :]` is not dense: `1` fixes or narrows a dim between its rows}}
    tma.load s[:, 1, :] <- tX[0, 0], full
    tma.load s[1, 0 : 2, :] <- tX[2, 0], full
  }
  wait full parity(0)
  fence.proxy.async
  elect {
    tma.store tY[0, 0, 0] <- s
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// col_major (docs/language.md, "Element order"): the first dim is the
// contiguous one. A TMA box lands in the tensor's order, so the smem tile
// must have it (E0504); the inner box is the first dim (E0502) and the
// global stride the first dim's extent (E0505).
target sm_90a
kernel col_major_tma(A: global bf16[64, 128] col_major) grid (1) block 128 {
  smem sc: bf16[64, 64] col_major swizzle(128B)
  smem sr: bf16[64, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(128B)
  // expected-error@+1 [CAKE-E0502] {{inner box dim 4 bf16 = 8 bytes is not a multiple of 16 bytes}}
  tensormap tThin = A box [4, 64]
  role load all {
    elect {
      arrive.expect_tx full, bytes(sc) + bytes(sr)
      tma.load sc <- tA[0, 0], full
      // expected-error@+1 [CAKE-E0504] {{the destination `sr` is row_major but `A`, the tensor of `tA`, is col_major: TMA writes the box in the tensor's element order, so the tile would hold it transposed; declare `sr` col_major}}
      tma.load sr <- tA[0, 64], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
// expected-error@+1 [CAKE-E0505] {{rows of `B` are N × bf16 apart (2 bytes for N = 1)}}
kernel col_major_pitch(B: global bf16[N, 64] col_major) grid (1) block 128 {
  tensormap tB = B box [64, 64]
}

// -----

// Copies run along a dim both sides store contiguously (E0506, E0507).
target sm_90a
kernel col_major_copies(C: global f32[64, 64], D: global f32[64, 64] col_major, E: global bf16[64, 64] col_major)
    grid (1) block 128 {
  smem fc: f32[64, 64] col_major
  smem sc: bf16[64, 64] col_major
  mbarrier full
  role load all {
    elect {
      arrive.expect_tx full, bytes(fc) + bytes(fc)
      // expected-error@+1 [CAKE-E0507] {{`bulk.load` copies from row_major `C` into col_major `fc`: it moves contiguous runs, and the two store different dims contiguously; give them one order}}
      bulk.load fc <- C, full
      bulk.load fc <- D, full
    }
    wait full parity(0)
    // expected-error@+1 [CAKE-E0506] {{`cp.async` copies from row_major `C` into col_major `fc`}}
    cp.async fc <- C
    cp.async fc <- D
    // expected-error@+1 [CAKE-E0506] {{`cp.async` starts 1 bf16 into each row of `E`, not at a multiple of 4 bytes}}
    cp.async sc[0 : 8, :] <- E[1 : 8, :]
    cp.async sc[0 : 8, :] <- E[2 : 8, :]
    cp.async.commit
    cp.async.wait 0
  }
}

// -----

// ldmatrix/stmatrix transpose a col_major tile's 16-byte runs, which they
// do for 16-bit elements only (E0508); the runs are along the first dim.
target sm_90a
kernel col_major_ldmatrix() grid (1) block 32 {
  smem sc: bf16[64, 64] col_major
  smem f8: f8e4m3[32, 32] col_major
  reg a: bf16[16, 16] layout(mma_acc)
  reg q: f8e4m3[16, 32] layout(mma_acc)
  ldmatrix a <- sc[0 : 16, 0 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sc`}}
  // expected-error@+1 [CAKE-E0508] {{`ldmatrix` of col_major `f8` reads its 16-byte runs down the columns and transposes them, which the instruction does for 16-bit elements only, and `f8` holds f8e4m3; store `f8` row_major}}
  ldmatrix q <- f8[0 : 16, :]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `f8`}}
  // expected-error@+1 [CAKE-E0508] {{`ldmatrix` starts 4 bf16 into each row of `sc`}}
  ldmatrix a <- sc[4 : 16, 0 : 16]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `sc`}}
}

// -----

// The order forms' fixes: the shared-memory buffer takes the tensor's order
// (E0504), the copy source's (E0506), or row_major (E0508).
target sm_90a
kernel tma_order_fix(A: global bf16[64, 64] col_major) grid (1) block 128 {
  smem sr: bf16[64, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(sr)
      // expected-error@+1 [CAKE-E0504] {{the destination `sr` is row_major but `A`}} fix {{smem sr: bf16[64, 64] col_major swizzle(128B)}}
      tma.load sr <- tA[0, 0], full
    }
    wait full parity(0)
  }
}

// -----

target sm_90a
kernel copy_order_fix(C: global f32[64, 64]) grid (1) block 128 {
  smem fc: f32[64, 64] col_major
  // expected-error@+1 [CAKE-E0506] {{copies from row_major `C` into col_major `fc`}} fix {{smem fc: f32[64, 64] row_major}}
  cp.async fc <- C
  cp.async.commit
  cp.async.wait 0
}

// -----

target sm_90a
kernel ldmatrix_order_fix() grid (1) block 32 {
  smem f8: f8e4m3[32, 32] col_major
  reg q: f8e4m3[16, 32] layout(mma_acc)
  // expected-error@+1 [CAKE-E0508] {{of col_major `f8`}} fix {{smem f8: f8e4m3[32, 32] row_major}}
  ldmatrix q <- f8[0 : 16, :]  // expected-warning [CAKE-W0703] {{`ldmatrix` reads `f8`}}
}

// -----

// E0511: a tensor map of 6- or 4-bit floats unpacks sixteen values into a
// 16-byte chunk (16U4/16U6_ALIGN16B): inner box exactly 128 values,
// swizzle 128B or none, rows a multiple of 128 values, 4-bit load-only.
// The shared-memory tile takes a byte a value (rows 128 B: one 128B span).
target sm_100a
// expected-error@+1 [CAKE-E0511] {{rows of `B` have 200 f6e2m3 values}}
kernel packed(B: global f6e2m3[64, 200], C: global f4e2m1[128, 128], D: global f6e3m2[64, 128]) grid (1) block 128 {
  tensormap tB = B box [64, 128] swizzle(128B)
  tensormap tC = C box [128, 128]
  tensormap tD = D box [64, 128] swizzle(128B)
  smem sB: f6e2m3[64, 128] swizzle(128B)
  smem sC: f4e2m1[128, 128]
  smem sD: f6e3m2[64, 128] swizzle(128B)
  mbarrier full
  elect {
    arrive.expect_tx full, bytes(sB) + bytes(sD)
    tma.load sB <- tB[0, 0], full
    tma.load sD <- tD[0, 0], full
  }
  wait full parity(0)
  fence.proxy.async
  elect {
    // expected-error@+1 [CAKE-E0511] {{`tma.store` through `tC`: TMA stores no 4-bit floats}}
    tma.store tC[0, 0] <- sC
    tma.store tD[0, 0] <- sD
    tma.store.commit
    tma.store.wait 0
  }
}

// -----

// E0511 with its fixes: rows for a shape the facts allow (the fact that
// rules it out), the inner box, the swizzle.
target sm_100a
// expected-error@+1 [CAKE-E0511] {{rows of `A` have 64 f4e2m1 values for K = 64}} fix {{K % 128 == 0}}
kernel packed_rows(A: global f4e2m1[128, K]) where K % 64 == 0 grid (1) block 128 {
  tensormap tA = A box [128, 128] swizzle(128B)
}

// -----

target sm_100a
kernel packed_box(A: global f4e2m1[128, 256]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0511] {{inner box dim 64 f4e2m1}} fix {{128}}
  tensormap tA = A box [128, 64]
}

// -----

target sm_100a
kernel packed_swizzle(A: global f6e2m3[128, 256]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0511] {{tensor map `tA` of f6e2m3 has swizzle(32B)}} fix {{swizzle(128B)}}
  tensormap tA = A box [128, 128] swizzle(32B)
}

// -----

// E0511 holds on each listed target whose table has the packed types,
// whichever target is listed first (sm_90a has no such rules).
target sm_90a, sm_100a
kernel packed_two(A: global f4e2m1[128, 256]) grid (1) block 128 {
  // expected-error@+1 [CAKE-E0511] {{inner box dim 64 f4e2m1}} fix {{128}}
  tensormap tA = A box [128, 64]
}
