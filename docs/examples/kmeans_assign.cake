target sm_90a

// Flash-KMeans assignment (the brief's §3 example, with its arrival-count bug fixed):
// out[i] = argmin_k ||c_k||^2 - 2 x_i.c_k, computed as a GEMM tile by tile and reduced on the fly.
// One CTA per 128 points; a TMA producer warpgroup feeds a 3-stage ring of centroid tiles
// to two wgmma consumer warpgroups (64 points each), which keep a running argmin per row.

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

// The reference for `cake run`: one thread per point, a scalar dot product
// per centroid, no tensor cores, no async copies, no mbarriers.

kernel kmeans_assign_ref(
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

bench kmeans_assign { N = 1048576, K = 1024 } reference kmeans_assign_ref   // shapes for estimates and runs
