target sm_90a

// One library entry point `kmeans` over three nearest-centroid kernels:
//   kmeans_assign_small   K in {128, 256}: all of C stays in smem, every load issued up front;
//   kmeans_assign         K % 128 == 0: warp-specialised TMA + wgmma, 3-stage centroid ring;
//   kmeans_assign_generic any shape: one thread per point, plain loads, no tensor cores.

kernel kmeans_assign_small(
    X:     global bf16[N, 64] row_major,    // points
    C:     global bf16[K, 64] row_major,    // centroids
    Cnorm: global f32[K],                   // ||c||^2, precomputed
    out:   global i32[N])                   // nearest centroid of each point
  where N % 128 == 0, K % 128 == 0, K >= 128, K <= 256
  grid (N / 128)
  block 256                                 // 2 warpgroups, no producer role: nothing to recycle
{
  smem xs: bf16[128, 64] swizzle(128B)     // this CTA's points
  smem cs: bf16[2][128, 64] swizzle(128B)  // all of C (K <= 256), each tile loaded once
  smem cn: f32[2][128]
  mbarrier x_full
  mbarrier c_full[2]                        // one per centroid tile; each completes one phase

  tensormap tX = X box [128, 64] swizzle(128B)
  tensormap tC = C box [128, 64] swizzle(128B)

  role consumer warpgroup(0, 1) {
    let wg = role.rank                              // points wg * 64 .. + 64 of the tile
    reg acc:  f32[64, 128] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row) = +inf
    reg arg:  i32[64] layout(wgmma_acc.row) = 0
    elect {                                         // one thread issues every load at once
      arrive.expect_tx x_full, bytes(xs)
      tma.load xs <- tX[block.x * 128, 0], x_full
      for kt in 0 .. K / 128 {
        arrive.expect_tx c_full[kt], bytes(cs[kt]) + bytes(cn[kt])
        tma.load cs[kt] <- tC[kt * 128, 0], c_full[kt]
        bulk.load cn[kt] <- Cnorm[kt * 128 : 128], c_full[kt]
      }
    }
    wait x_full parity(0)
    for kt in 0 .. K / 128 {
      wait c_full[kt] parity(0)                     // first (only) phase of tile kt
      wgmma.fence
      wgmma acc = xs[wg * 64 : 64, :] @ cs[kt].T    // m64n128k16, 4 k-steps
      wgmma.commit
      wgmma.wait 0
      acc = cn[kt] - 2.0 * acc
      argmin.row best, arg <- acc, base(kt * 128)
    }
    store out[block.x * 128 + wg * 64 : 64] <- arg
  }
}

kernel kmeans_assign(
    X:     global bf16[N, 64] row_major,    // points (64 bf16 = one 128 B swizzle row)
    C:     global bf16[K, 64] row_major,    // centroids
    Cnorm: global f32[K],                   // ||c||^2, precomputed
    out:   global i32[N])                   // nearest centroid of each point
  where N % 128 == 0, K % 128 == 0, K >= 128
  grid (N / 128)
  block 384                                 // 3 warpgroups
{
  smem xs: bf16[128, 64] swizzle(128B)     // this CTA's points, loaded once
  smem cs: bf16[3][128, 64] swizzle(128B)  // centroid tiles, 3-stage ring
  smem cn: f32[3][128]
  mbarrier x_full
  mbarrier full[3]
  mbarrier empty[3] count(256)              // released by every consumer thread

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
        bulk.load cn[s] <- Cnorm[kt * 128 : 128], full[s]
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank                              // 0 or 1 within this role
    reg acc:  f32[64, 128] layout(wgmma_acc)
    reg best: f32[64] layout(wgmma_acc.row) = +inf   // one value per acc row
    reg arg:  i32[64] layout(wgmma_acc.row) = 0
    wait x_full parity(0)
    pipeline s in ring(3) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc = xs[wg * 64 : 64, :] @ cs[s].T     // m64n128k16, 4 k-steps
      wgmma.commit
      wgmma.wait 0
      acc = cn[s] - 2.0 * acc                       // cn[s] broadcast over acc's rows
      argmin.row best, arg <- acc, base(kt * 128)
      arrive empty[s]                               // fixed: all 256 threads read cn[s], 256 arrivals = count(256)
    }
    store out[block.x * 128 + wg * 64 : 64] <- arg
  }
}

kernel kmeans_assign_generic(
    X:     global bf16[N, 64] row_major,
    C:     global bf16[K, 64] row_major,
    Cnorm: global f32[K],
    out:   global i32[N])
  grid (cdiv(N, 128))                       // no facts: any N, any K
  block 128                                 // no role: the whole block is one `all` role
{
  let i = block.x * 128 + warp.id * 32 + lane      // this thread's point
  reg xb:   bf16[1, 64]                     // plain fragments: one copy per thread
  reg cb:   bf16[1, 64]
  reg p:    f32[1, 64]
  reg dot:  f32[1]
  reg cn:   f32[1]
  reg zero: f32[1, 1] = 0
  reg dist: f32[1, 1]
  reg best: f32[1] = +inf
  reg arg:  i32[1] = 0
  if i < N {                                // no barrier inside: divergence is harmless
    load xb <- X[i : 1, :]
    for k in 0 .. K {
      load cb <- C[k : 1, :]                // the same row for every thread: served from L1
      load cn <- Cnorm[k : 1]
      p = cvt<f32>(xb) * cvt<f32>(cb)
      reduce.row sum dot <- p               // x . c_k
      dist = zero + cn - 2.0 * dot          // ||c_k||^2 - 2 x.c_k as a [1, 1] row
      argmin.row best, arg <- dist, base(k)
    }
    store out[i : 1] <- arg
  }
}

dispatch kmeans(X, C, Cnorm, out) {                           // first matching case wins
  when N % 128 == 0 && K % 128 == 0 && K >= 128 && K <= 256  -> kmeans_assign_small
  when N % 128 == 0 && K % 128 == 0 && K >= 128              -> kmeans_assign
  else                                                       -> kmeans_assign_generic
}

// The reference of every case kernel (they take the same parameters) for
// `cake run`: one thread per point, a scalar dot product per centroid, no
// tensor cores, no async copies, no mbarriers.

kernel kmeans_ref(
    X:     global bf16[N, 64] row_major,
    C:     global bf16[K, 64] row_major,
    Cnorm: global f32[K],
    out:   global i32[N])
  grid (cdiv(N, 128))                            // any N, any K
  block 128
{
  let i = block.x * 128 + warp.id * 32 + lane    // this thread's point
  reg x:    bf16
  reg c:    bf16
  reg cn:   f32
  reg dot:  f32
  reg dist: f32
  reg best: f32 = +inf
  reg arg:  i32 = 0
  if i < N {
    for k in 0 .. K {                            // upwards, strict `<`: the smallest index wins a tie
      dot = 0.0
      for d in 0 .. 64 {
        load x <- X[i, d]
        load c <- C[k, d]
        dot += cvt<f32>(x) * cvt<f32>(c)
      }
      load cn <- Cnorm[k]
      dist = cn - 2.0 * dot                      // ||c_k||^2 - 2 x_i.c_k
      if dist < best {
        best = dist
        arg = k
      }
    }
    store out[i] <- arg
  }
}

bench kmeans_assign_small { N = 1048576, K = 256 } reference kmeans_ref
bench kmeans_assign_small { N = 1048576, K = 128 } reference kmeans_ref
bench kmeans_assign { N = 1048576, K = 1024 } reference kmeans_ref
bench kmeans_assign { N = 1048576, K = 384 } reference kmeans_ref
bench kmeans_assign_generic { N = 1000000, K = 100 } reference kmeans_ref
