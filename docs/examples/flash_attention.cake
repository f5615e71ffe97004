target sm_90a

// Causal attention forward, one head of dimension 64: O = softmax(Q K^T / 8, causal) V, f32 out.
// FlashAttention-3's shape on Hopper: a TMA producer warpgroup streams 64-key tiles of K and V
// through a 2-stage ring; two consumer warpgroups own 64 query rows each of the CTA's 128, compute
// S = Q K^T with wgmma, mask the keys after each query (row(s), col(s), select), keep the online
// softmax's row max and sum, and feed P from registers (bf16) into O += P V. A CTA reads the key
// tiles up to its diagonal only. V is stored as it comes (keys x dims), so P V's B operand is an
// N-major tile, which the 16-bit wgmma reads through its transpose immediate.

kernel flash_fwd_causal(
    Q: global bf16[S, 64] row_major,
    K: global bf16[S, 64] row_major,
    V: global bf16[S, 64] row_major,
    O: global f32[S, 64] row_major)
  where S % 128 == 0
  grid (S / 128)                             // 128 query rows per CTA
  block 384                                  // 3 warpgroups
{
  smem sQ: bf16[128, 64] swizzle(128B)      // this CTA's queries, loaded once
  smem sK: bf16[2][64, 64] swizzle(128B)    // key tiles: 64 keys x 64 dims
  smem sV: bf16[2][64, 64] swizzle(128B)    // value tiles: 64 keys x 64 dims
  mbarrier qfull
  mbarrier full[2]
  mbarrier empty[2] count(2)                // one arrival per consumer warpgroup
  tensormap tQ = Q box [128, 64] swizzle(128B)
  tensormap tK = K box [64, 64] swizzle(128B)
  tensormap tV = V box [64, 64] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      arrive.expect_tx qfull, bytes(sQ)
      tma.load sQ <- tQ[block.x * 128, 0], qfull
      pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 {   // the key tiles up to the diagonal
        wait empty[st] parity(st.phase ^ 1)
        arrive.expect_tx full[st], bytes(sK[st]) + bytes(sV[st])
        tma.load sK[st] <- tK[kt * 64, 0], full[st]
        tma.load sV[st] <- tV[kt * 64, 0], full[st]
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    let q0 = block.x * 128 + wg * 64               // this warpgroup's first query row
    reg s: f32[64, 64] layout(wgmma_acc)          // scores of one key tile
    reg p: bf16[64, 64] layout(wgmma_acc)         // softmax numerators: the A operand of P V
    reg o: f32[64, 64] layout(wgmma_acc) = 0
    reg m: f32[64] layout(wgmma_acc.row) = -inf   // running row max (log2 units)
    reg l: f32[64] layout(wgmma_acc.row) = 0      // running row sum
    reg mt: f32[64] layout(wgmma_acc.row)         // the new max
    reg c: f32[64] layout(wgmma_acc.row)          // rescale of the old sum and output
    reg rs: f32[64] layout(wgmma_acc.row)
    wait qfull parity(0)
    pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 {
      wait full[st] parity(st.phase)
      wgmma.fence
      wgmma s = sQ[wg * 64 : 64, :] @ sK[st].T
      wgmma.commit
      wgmma.wait 0
      // key kt * 64 + col after query q0 + row: masked; 0.1803... = log2(e) / sqrt(64)
      s = select(kt * 64 + col(s) > q0 + row(s), -inf, s * 0.18033688011112042)
      reduce.row max mt <- s
      mt = max(m, mt)
      c = exp2(m - mt)
      s = exp2(s - mt)
      reduce.row sum rs <- s
      l = l * c + rs
      o = o * c
      m = mt
      p = cvt<bf16>(s)
      wgmma.fence                                 // p was written by the threads
      wgmma o += p @ sV[st]                       // B [keys, dims]: N-major
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[st] }        // both wgmmas have read stage st
    }
    o = o / l
    store O[q0 : 64, :] <- o
  }
}

// The reference for `cake run`: a block per query row and a thread per element of O. Per key
// tile, thread d scores key t * 64 + d once (its dot product summed exactly, in f64, as the
// executor's wgmma does; the scale in f32) into shared memory, and each thread walks the tile's
// scores as the kernel does: the same running max, so P rounds to bf16 at the same values, and
// each tile's P V summed exactly, rounding to f32 where the kernel does.

kernel flash_ref(
    Q: global bf16[S, 64] row_major,
    K: global bf16[S, 64] row_major,
    V: global bf16[S, 64] row_major,
    O: global f32[S, 64] row_major)
  where S % 64 == 0
  grid (S)
  block 64
{
  smem sc: f32[64]          // the scores of this query and the key tile's 64 keys
  let q = block.x
  let d = warp.id * 32 + lane
  reg a: bf16
  reg b: bf16
  reg v: bf16
  reg dot: f64
  reg pv: f64
  reg x: f32
  reg m: f32 = -inf
  reg mt: f32
  reg c: f32
  reg l: f32 = 0
  reg rs: f32
  reg acc: f32 = 0
  for t in 0 .. q / 64 + 1 {
    dot = 0                 // key t * 64 + d: in the tensor, masked below if after q
    for k in 0 .. 64 {
      load a <- Q[q, k]
      load b <- K[t * 64 + d, k]
      dot += cvt<f64>(a) * cvt<f64>(b)
    }
    x = cvt<f32>(dot) * 0.18033688011112042
    store sc[d] <- x
    syncthreads
    mt = m
    for j in 0 .. min(64, q + 1 - t * 64) {
      load x <- sc[j]
      mt = max(mt, x)
    }
    c = exp2(m - mt)
    rs = 0
    pv = 0
    for j in 0 .. min(64, q + 1 - t * 64) {
      load x <- sc[j]
      x = exp2(x - mt)
      rs = rs + x
      load v <- V[t * 64 + j, d]
      pv += cvt<f64>(cvt<bf16>(x)) * cvt<f64>(v)
    }
    l = l * c + rs
    acc = cvt<f32>(cvt<f64>(acc * c) + pv)
    m = mt
    syncthreads             // every thread has read sc before the next tile's scores
  }
  acc = acc / l
  store O[q, d] <- acc
}

bench flash_fwd_causal { S = 1024 } reference flash_ref
bench flash_fwd_causal { S = 16384 } reference flash_ref
