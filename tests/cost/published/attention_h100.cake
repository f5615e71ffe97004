target sm_90a

// FlashAttention-3-style forward (results.json), bf16, head dim 128,
// non-causal: O = softmax(Q K^T / sqrt(128)) V per head, the 16 heads of
// 16384 rows stacked along the rows of Q, K and O ([R, 128]) and along the
// columns of V^T ([128, R]; FlashAttention-3's FP8 path also pre-transposes
// V). One CTA per 128 query rows of a head: a TMA producer warpgroup streams
// 128-row K blocks and 128-column V^T blocks, each as two 64-wide halves
// (128 B rows, the 128B swizzle span), through a 2-stage ring; two consumer
// warpgroups of 64 query rows each run S = Q K^T (wgmma), the online softmax
// (row max, exp2, row sum, rescale), and O += P V with P from registers
// (wgmma's register A operand). As FlashAttention-3, the two consumer
// warpgroups take turns at the tensor core (its "ping-pong" schedule): each
// issues its S = Q K^T only on its own named barrier, which the other
// arrives on once it has issued its own, so one warpgroup's softmax runs
// while the other's GEMMs do. The two are written as two roles, one per
// barrier. FlashAttention-3 also overlaps one block's softmax with the next
// block's QK^T inside a warpgroup; that is not written here.

const D = 128
const S = 16384

kernel attention_fwd(
    Q: global bf16[R, D] row_major,
    K: global bf16[R, D] row_major,
    Vt: global bf16[D, R] row_major,         // V transposed, as FlashAttention-3's FP8 path pre-transposes it
    O: global bf16[R, D] row_major)
  where R % S == 0
  grid (S / 128, R / S)
  block 384
{
  smem sQ: bf16[2][128, 64] swizzle(128B)      // Q's two 64-column halves (128 B rows)
  smem sK: bf16[2][2][128, 64] swizzle(128B)   // stage, half of D
  smem sVt: bf16[2][2][128, 64] swizzle(128B)  // stage, half of the key block
  mbarrier qfull
  mbarrier full[2]
  mbarrier empty[2] count(2)
  namedbarrier turn0 id(1) threads(256)        // consumer 0 may issue its S (its 128 + consumer 1's 128 arrivals)
  namedbarrier turn1 id(2) threads(256)        // consumer 1 may issue its S
  tensormap tQ = Q box [128, 64] swizzle(128B)
  tensormap tK = K box [128, 64] swizzle(128B)
  tensormap tVt = Vt box [128, 64] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    let head = block.y * S
    elect {
      arrive.expect_tx qfull, bytes(sQ)
      tma.load sQ[0] <- tQ[head + block.x * 128, 0], qfull
      tma.load sQ[1] <- tQ[head + block.x * 128, 64], qfull
      pipeline s in ring(2) for j in 0 .. S / 128 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sK[s]) + bytes(sVt[s])
        tma.load sK[s][0] <- tK[head + j * 128, 0], full[s]
        tma.load sK[s][1] <- tK[head + j * 128, 64], full[s]
        tma.load sVt[s][0] <- tVt[0, head + j * 128], full[s]
        tma.load sVt[s][1] <- tVt[0, head + j * 128 + 64], full[s]
      }
    }
  }

  role consumer0 warpgroup(1) maxnreg(232) {
    let wg = 0
    reg sc: f32[64, 128] layout(wgmma_acc)
    reg p: bf16[64, 128] layout(wgmma_acc)
    reg acc: f32[64, 128] layout(wgmma_acc) = 0
    reg o: bf16[64, 128] layout(wgmma_acc)
    reg mx: f32[64] layout(wgmma_acc.row)
    reg mnew: f32[64] layout(wgmma_acc.row)
    reg corr: f32[64] layout(wgmma_acc.row)
    reg ps: f32[64] layout(wgmma_acc.row)
    reg m: f32[64] layout(wgmma_acc.row) = -inf
    reg l: f32[64] layout(wgmma_acc.row) = 0
    wait qfull parity(0)
    pipeline s in ring(2) for j in 0 .. S / 128 {
      wait full[s] parity(s.phase)
      sync turn0                                   // this warpgroup's turn
      wgmma.fence
      wgmma sc = sQ[0][wg * 64 : 64, :] @ sK[s][0].T
      wgmma sc += sQ[1][wg * 64 : 64, :] @ sK[s][1].T
      wgmma.commit
      arrive turn1                                 // the other's turn: this S is issued
      wgmma.wait 0
      reduce.row max mx <- sc
      mnew = max(m, mx)
      corr = exp2((m - mnew) * 0.12751743074)        // log2(e) / sqrt(128)
      sc = exp2((sc - mnew) * 0.12751743074)
      reduce.row sum ps <- sc
      l = l * corr + ps
      m = mnew
      acc = acc * corr
      p = cvt<bf16>(sc)
      wgmma.fence
      wgmma acc += p[:, 0 : 64] @ sVt[s][0].T
      wgmma acc += p[:, 64 : 64] @ sVt[s][1].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] }
    }
    l = 1.0 / l
    acc = acc * l
    o = cvt<bf16>(acc)
    store O[block.y * S + block.x * 128 + wg * 64 : 64, :] <- o
  }

  role consumer1 warpgroup(2) maxnreg(232) {
    let wg = 1
    reg sc: f32[64, 128] layout(wgmma_acc)
    reg p: bf16[64, 128] layout(wgmma_acc)
    reg acc: f32[64, 128] layout(wgmma_acc) = 0
    reg o: bf16[64, 128] layout(wgmma_acc)
    reg mx: f32[64] layout(wgmma_acc.row)
    reg mnew: f32[64] layout(wgmma_acc.row)
    reg corr: f32[64] layout(wgmma_acc.row)
    reg ps: f32[64] layout(wgmma_acc.row)
    reg m: f32[64] layout(wgmma_acc.row) = -inf
    reg l: f32[64] layout(wgmma_acc.row) = 0
    wait qfull parity(0)
    arrive turn0                                  // consumer 0 goes first
    pipeline s in ring(2) for j in 0 .. S / 128 {
      wait full[s] parity(s.phase)
      sync turn1                                   // this warpgroup's turn
      wgmma.fence
      wgmma sc = sQ[0][wg * 64 : 64, :] @ sK[s][0].T
      wgmma sc += sQ[1][wg * 64 : 64, :] @ sK[s][1].T
      wgmma.commit
      arrive turn0                                 // the other's turn: this S is issued
      wgmma.wait 0
      reduce.row max mx <- sc
      mnew = max(m, mx)
      corr = exp2((m - mnew) * 0.12751743074)        // log2(e) / sqrt(128)
      sc = exp2((sc - mnew) * 0.12751743074)
      reduce.row sum ps <- sc
      l = l * corr + ps
      m = mnew
      acc = acc * corr
      p = cvt<bf16>(sc)
      wgmma.fence
      wgmma acc += p[:, 0 : 64] @ sVt[s][0].T
      wgmma acc += p[:, 64 : 64] @ sVt[s][1].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] }
    }
    l = 1.0 / l
    acc = acc * l
    o = cvt<bf16>(acc)
    store O[block.y * S + block.x * 128 + wg * 64 : 64, :] <- o
  }
}

bench attention_fwd { R = 262144 }
