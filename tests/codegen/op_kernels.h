// A minimal kernel per op of ops.def (without its `target` line), shared by
// codegen.ops (compiled on every target that has its ops, refused where not)
// and codegen.host_run (each that lowers, run on the host against the CPU
// executor).
#pragma once

#include <string>
#include <vector>

namespace cake::testing {

struct OpKernel {
  std::string ops;  // the ops it tests, space-separated spellings
  std::string text; // the kernel, without its `target` line
};

/// A warpgroup's wgmma from two swizzled shared-memory tiles loaded by
/// cp.async: A `in`[64, k], B `in`[n, k] into an `acc`[64, n] wgmma_acc
/// stored to C, the wgmma statements `wgmmas` (each line indented four).
inline std::string wgmma_from_smem(const std::string& name, const std::string& in, const std::string& acc, int k, int n,
                                   const std::string& swizzle, const std::string& wgmmas) {
  std::string a = in + "[64, " + std::to_string(k) + "]", b = in + "[" + std::to_string(n) + ", " + std::to_string(k) + "]";
  std::string c = acc + "[64, " + std::to_string(n) + "]";
  return "kernel " + name + "(A: global " + a + ", B: global " + b + ", C: global " + c + ") grid (1) block 128 {\n"
         "  smem a: " + a + " swizzle(" + swizzle + ")\n"
         "  smem b: " + b + " swizzle(" + swizzle + ")\n"
         "  role mma warpgroup(0) {\n"
         "    reg acc: " + c + " layout(wgmma_acc)\n"
         "    cp.async a <- A\n"
         "    cp.async b <- B\n"
         "    cp.async.commit\n"
         "    cp.async.wait 0\n"
         "    fence.proxy.async\n"
         "    syncthreads\n" +
         wgmmas +
         "    store C <- acc\n"
         "  }\n"
         "}";
}

inline const std::vector<OpKernel>& op_kernels() {
  static const std::vector<OpKernel> kernels = {
    {"load store", R"(kernel op_copy(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  let i = block.x * 128 + warp.id * 32 + lane
  reg x: f32
  load x <- X[i]
  store Y[i] <- x
})"},
    // Every CTA adds into the same Y, L and C: the adds of all of them land.
    {"store.add", R"(kernel op_store_add(X: global f32[N], K: global i32[N], T: global f32[N, 16], Y: global f32[32], L: global i32[32], C: global f32[16, 16]) where N % 32 == 0 grid (N / 32) block 32 {
  let i = block.x * 32 + lane
  reg x: f32
  reg k: i32
  reg t: f32[16, 16] layout(mma_acc)
  load x <- X[i]
  load k <- K[i]
  store.add Y[lane] <- x
  store.add L[lane] <- k
  load t <- T[block.x * 32 : 16, :]
  store.add C <- t
})"},
    {"cp.async cp.async.commit cp.async.wait syncthreads", R"(kernel op_cp_async(A: global bf16[M, K], C: global bf16[M, 32]) where M % 128 == 0, K % 32 == 0 grid (M / 128) block 128 {
  smem sa: bf16[128, 32]
  reg x: bf16
  cp.async sa <- A[block.x * 128 : 128, 0 : 32]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  load x <- sa[warp.id * 32 + lane, 0]
  store C[block.x * 128 + warp.id * 32 + lane, 0] <- x
})"},
    {"ldmatrix mma", R"(kernel op_mma(A: global bf16[M, 16], B: global bf16[N, 16], C: global f32[M, N]) where M % 16 == 0, N % 16 == 0 grid (N / 16, M / 16) block 32 {
  smem sa: bf16[16, 16] swizzle(32B)
  smem sb: bf16[16, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  cp.async sa <- A[block.y * 16 : 16, :]
  cp.async sb <- B[block.x * 16 : 16, :]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb
  mma acc += a @ b.T
  store C[block.y * 16 : 16, block.x * 16 : 16] <- acc
})"},
    {"arrive", R"(kernel op_mbarrier(X: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  mbarrier done count(128)
  mbarrier one
  mbarrier warps count(4)
  mbarrier groups
  namedbarrier half id(1) threads(128)
  arrive done
  wait done parity(0)
  elect { arrive one }
  elect.warp { arrive warps }
  elect.warpgroup { arrive groups }
  wait one parity(0)
  wait warps parity(0)
  wait groups parity(0)
  sync half
})"},
    {"arrive", R"(kernel op_named_arrive(X: global f32[N], Y: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem buf: f32[64]
  namedbarrier ready id(1) threads(128)
  role producer warp(0 .. 2) {
    reg x: f32
    load x <- X[block.x * 128 + (warp.id % 2) * 32 + lane]
    store buf[(warp.id % 2) * 32 + lane] <- x
    arrive ready
  }
  role consumer warp(2 .. 4) {
    reg y: f32
    sync ready
    load y <- buf[(warp.id % 2) * 32 + lane]
    store Y[block.x * 128 + 64 + (warp.id % 2) * 32 + lane] <- y
  }
})"},
    {"tma.load arrive.expect_tx tma.store tma.store.commit tma.store.wait.read tma.store.wait", R"(kernel op_tma(X: global bf16[N, 64], Y: global bf16[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem xs: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tX = X box [128, 64] swizzle(128B)
  tensormap tY = Y box [128, 64] swizzle(128B)
  role load all {
    elect {
      arrive.expect_tx full, bytes(xs)
      tma.load xs <- tX[block.x * 128, 0], full
    }
    wait full parity(0)
    elect {
      tma.store tY[block.x * 128, 0] <- xs
      tma.store.commit
      tma.store.wait.read 0
      tma.store.wait 0
    }
  }
})"},
    // Tiles of rank 3 in shared memory: a TMA box of three dims (two
    // 64-row slabs of 128-byte rows) in and out, written in between by the
    // threads, and a cp.async of a [2, 16, 24] bf16 tile (48-byte rows).
    {"tma.load tma.store cp.async", R"(kernel op_rank3(X: global f32[4, 64, 32], Y: global f32[4, 64, 32], Z: global bf16[4, 16, 24], W: global bf16[4, 16, 24]) grid (2) block 128 {
  smem s: f32[2, 64, 32] swizzle(128B)
  smem z: bf16[2, 16, 24]
  mbarrier full
  tensormap tX = X box [2, 64, 32] swizzle(128B)
  tensormap tY = Y box [2, 64, 32] swizzle(128B)
  reg v: f32[32]
  reg w: bf16[6]
  let t = warp.id * 32 + lane
  cp.async z <- Z[block.x * 2 : 2, :, :]
  cp.async.commit
  elect {
    arrive.expect_tx full, bytes(s)
    tma.load s <- tX[block.x * 2, 0, 0], full
  }
  wait full parity(0)
  load v <- s[t / 64, t % 64, :]
  v = v * 2.0 + 1.0
  store s[t / 64, t % 64, :] <- v
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tma.store tY[block.x * 2, 0, 0] <- s
    tma.store.commit
    tma.store.wait 0
  }
  load w <- z[t / 64, t % 64 / 4, t % 4 * 6 : 6]
  store W[block.x * 2 + t / 64, t % 64 / 4, t % 4 * 6 : 6] <- w
})"},
    {"bulk.load", R"(kernel op_bulk(V: global f32[N], W: global f32[N]) where N % 128 == 0 grid (N / 128) block 128 {
  smem vs: f32[128]
  mbarrier full
  reg x: f32
  role load all {
    elect {
      arrive.expect_tx full, bytes(vs)
      bulk.load vs <- V[block.x * 128 : 128], full
    }
    wait full parity(0)
    load x <- vs[warp.id * 32 + lane]
    store W[block.x * 128 + warp.id * 32 + lane] <- x
  }
})"},
    // B stored [K, N] (N-major): ldmatrix .trans gives the mma its K-major
    // operand; two x4 steps per operand.
    {"ldmatrix mma", R"(kernel op_mma_trans(A: global bf16[M, 32], B: global bf16[32, N], C: global f32[M, N]) where M % 16 == 0, N % 16 == 0 grid (N / 16, M / 16) block 32 {
  smem sa: bf16[16, 32] swizzle(64B)
  smem sb: bf16[32, 16] swizzle(32B)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 32] layout(mma_acc)
  reg b: bf16[32, 16] layout(mma_acc)
  cp.async sa <- A[block.y * 16 : 16, :]
  cp.async sb <- B[:, block.x * 16 : 16]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb trans
  mma acc += a @ b
  store C[block.y * 16 : 16, block.x * 16 : 16] <- acc
})"},
    // col_major (docs/language.md, "Element order"): cp.async runs down the
    // columns, ldmatrix and stmatrix read and write the columns with the
    // instruction's transpose the other way round (A col_major is as A
    // row-major; B [K, N] col_major is K-major, so `trans` reads it
    // plainly), and loads and stores address the first dim contiguously.
    {"ldmatrix stmatrix mma cp.async", R"(kernel op_col_major(A: global bf16[16, 32] col_major, B: global bf16[32, 16] col_major, X: global f32[32, 8] col_major, C: global f32[16, 16] col_major, D: global bf16[32, 16] col_major, Y: global f32[32, 8], Z: global f32[32, 8] col_major) grid (1) block 32 {
  smem sa: bf16[16, 32] col_major
  smem sb: bf16[32, 16] col_major
  smem sd: bf16[32, 16] col_major
  smem sx: f32[32, 8] col_major
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 32] layout(mma_acc)
  reg b: bf16[32, 16] layout(mma_acc)
  reg c: bf16[32, 16] layout(mma_acc)
  reg v: f32[8]
  reg w: bf16[16]
  cp.async sa <- A
  cp.async sb <- B
  cp.async sx <- X[:, 0 : 8]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix a <- sa
  ldmatrix b <- sb trans
  mma acc += a @ b
  store C <- acc
  ldmatrix c <- sb
  stmatrix sd <- c
  syncthreads
  load w <- sd[lane, :]
  store D[lane, :] <- w
  load v <- sx[lane, :]
  store Y[lane, :] <- v
  store Z[lane, :] <- v
})"},
    // ldmatrix .trans there and stmatrix .trans back: the tile again.
    {"ldmatrix stmatrix", R"(kernel op_stmatrix_trans(X: global bf16[32, 16], C: global bf16[32, 16]) grid (1) block 32 {
  smem xs: bf16[32, 16]
  smem cs: bf16[32, 16]
  reg b: bf16[32, 16] layout(mma_acc)
  reg y: bf16[16]
  cp.async xs <- X
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix b <- xs trans
  stmatrix cs <- b trans
  syncthreads
  load y <- cs[lane, :]
  store C[lane, :] <- y
})"},
    {"stmatrix fence.proxy.async", R"(kernel op_stmatrix(X: global bf16[16, 16], C: global bf16[16, 16]) grid (1) block 32 {
  smem cs: bf16[16, 16]
  reg c: bf16[16, 16] layout(mma_acc)
  reg y: bf16[8]
  load c <- X
  stmatrix cs <- c
  fence.proxy.async
  syncthreads
  load y <- cs[lane / 2, lane % 2 * 8 : 8]
  store C[lane / 2, lane % 2 * 8 : 8] <- y
})"},
    // Each CTA multicasts its row of X to both, and loads its own row
    // without multicast into `mine`.
    {"cluster.sync", R"(kernel op_cluster(X: global f32[2, 64], Y: global f32[4, 64], Z: global f32[2, 64]) grid (2) block 32 cluster (2) {
  smem s: f32[2, 64]
  smem mine: f32[1, 64]
  tensormap t = X box [1, 64]
  mbarrier full
  mbarrier own
  reg y: f32[2]
  reg z: f32[2]
  elect {
    arrive.expect_tx full, bytes(s)
    tma.load s[cluster.rank : 1, :] <- t[cluster.rank, 0], full multicast(3)
    arrive.expect_tx own, bytes(mine)
    tma.load mine <- t[cluster.rank, 0], own
  }
  wait full parity(0)
  wait own parity(0)
  load y <- s[lane / 16, lane % 16 * 4 : 2]
  store Y[block.x * 2 + lane / 16, lane % 16 * 4 : 2] <- y
  load z <- mine[0, lane * 2 : 2]
  store Z[block.x, lane * 2 : 2] <- z
  cluster.sync
})"},
    // A multicast ring released by remote arrives: each CTA's consumer
    // arrives on both CTAs' `empty` (count 64: 32 threads of each).
    {"arrive", R"(kernel op_remote_arrive(X: global f32[8, 64], Y: global f32[16, 64]) grid (2) block 64 cluster (2) {
  smem s: f32[2][2, 64]
  tensormap t = X box [1, 64]
  mbarrier full[2]
  mbarrier empty[2] count(64)
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
})"},
    {"load store cluster.sync", R"(kernel op_dsmem(X: global f32[64], Y: global f32[64]) grid (2) block 32 cluster (2) {
  smem buf: f32[32]
  dsmem peer = buf cta(cluster.rank ^ 1)
  reg x: f32
  load x <- X[block.x * 32 + lane]
  store peer[lane] <- x
  cluster.sync
  load x <- buf[lane]
  store Y[block.x * 32 + lane] <- x
})"},
    {"wgmma wgmma.fence wgmma.commit wgmma.wait", R"(kernel op_wgmma(A: global bf16[64, 16], B: global bf16[64, 16], C: global f32[64, 64]) grid (1) block 128 {
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
})"},
    // 8-bit integers (m64nNk32 .s32.s8.s8, no scale immediates): `=` then
    // `+=`, 64-byte rows.
    {"wgmma", wgmma_from_smem("op_wgmma_s8", "i8", "i32", 64, 32, "64B",
                     "    wgmma.fence\n"
                     "    wgmma acc = a @ b.T\n"
                     "    wgmma acc += a @ b.T\n"
                     "    wgmma.commit\n"
                     "    wgmma.wait 0\n")},
    // op_wgmma_s8 came back from an H100 with a @ b once (docs/lowering.md,
    // "What ran"). These three tell the cases apart on the next GPU run:
    // the same chain of two statements from shared memory in bf16; s8 with
    // the first statement's group waited for before the second; s8 as one
    // statement.
    {"wgmma", wgmma_from_smem("op_wgmma_chain_bf16", "bf16", "f32", 32, 32, "64B",
                     "    wgmma.fence\n"
                     "    wgmma acc = a @ b.T\n"
                     "    wgmma acc += a @ b.T\n"
                     "    wgmma.commit\n"
                     "    wgmma.wait 0\n")},
    {"wgmma", wgmma_from_smem("op_wgmma_s8_waited", "i8", "i32", 64, 32, "64B",
                     "    wgmma.fence\n"
                     "    wgmma acc = a @ b.T\n"
                     "    wgmma.commit\n"
                     "    wgmma.wait 0\n"
                     "    wgmma.fence\n"
                     "    wgmma acc += a @ b.T\n"
                     "    wgmma.commit\n"
                     "    wgmma.wait 0\n")},
    {"wgmma", wgmma_from_smem("op_wgmma_s8_once", "i8", "i32", 64, 32, "64B",
                     "    wgmma.fence\n"
                     "    wgmma acc = a @ b.T\n"
                     "    wgmma.commit\n"
                     "    wgmma.wait 0\n")},
    {"wgmma", R"(kernel op_wgmma_rs(A: global bf16[64, 32], B: global bf16[64, 32], C: global f32[64, 64]) grid (1) block 128 {
  smem b: bf16[64, 32] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg p: bf16[64, 32] layout(wgmma_acc)
    load p <- A
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc += p @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    // A from registers as column slices (`p[:, 32 : 32]`: FlashAttention's
    // P split along K over two B tiles), 16-bit and 8-bit (gathered);
    // `accumulate(P)` false (overwrite) and true (add).
    {"wgmma", R"(kernel op_wgmma_rs_slices(A: global f32[64, 64], B: global bf16[64, 64], E: global f8e4m3[64, 64], C: global f32[64, 64], D: global f32[64, 64]) grid (1) block 128 {
  smem b0: bf16[64, 32] swizzle(64B)
  smem b1: bf16[64, 32] swizzle(64B)
  smem e0: f8e4m3[64, 32] swizzle(32B)
  smem e1: f8e4m3[64, 32] swizzle(32B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg acc8: f32[64, 64] layout(wgmma_acc) = 0
    reg x: f32[64, 64] layout(wgmma_acc)
    reg p: bf16[64, 64] layout(wgmma_acc)
    reg q: f8e4m3[64, 64] layout(wgmma_acc)
    load x <- A
    p = cvt<bf16>(x)
    q = cvt<f8e4m3>(x * 8.0)
    cp.async b0 <- B[:, 0 : 32]
    cp.async b1 <- B[:, 32 : 32]
    cp.async e0 <- E[:, 0 : 32]
    cp.async e1 <- E[:, 32 : 32]
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc += p[:, 0 : 32] @ b0.T
    wgmma acc += p[:, 32 : 32] @ b1.T, accumulate(role.rank > 0)
    wgmma acc8 += q[:, 0 : 32] @ e0.T, accumulate(role.rank == 0)
    wgmma acc8 += q[:, 32 : 32] @ e1.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
    store D <- acc8
  }
})"},
    // wgmma_acc fragments by stmatrix and ldmatrix (Hopper's epilogue into
    // shared memory, bf16 and e4m3): each warp moves its 16 rows of the warpgroup's 64;
    // the stored tile read back per thread, the loaded one stored as it is.
    {"wgmma stmatrix ldmatrix", R"(kernel op_wgmma_matrices(A: global bf16[128, 64], B: global bf16[64, 64], C: global bf16[128, 64], D: global bf16[128, 64], E: global f8e4m3[128, 64]) grid (1) block 256 {
  smem sa: bf16[128, 64] swizzle(128B)
  smem sb: bf16[64, 64] swizzle(128B)
  smem sc: bf16[128, 64]
  smem s8: f8e4m3[128, 64]
  role mma warpgroup(0, 1) {
    let wg = role.rank
    let t = warp.id * 32 + lane
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    reg o: bf16[64, 64] layout(wgmma_acc)
    reg p: bf16[64, 64] layout(wgmma_acc)
    reg y: bf16[32]
    reg q8: f8e4m3[64, 64] layout(wgmma_acc)
    reg y8: f8e4m3[32]
    cp.async sa <- A
    cp.async sb <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc += sa[wg * 64 : 64, :] @ sb.T
    wgmma.commit
    wgmma.wait 0
    o = cvt<bf16>(acc)
    stmatrix sc[wg * 64 : 64, :] <- o
    q8 = cvt<f8e4m3>(acc * 4.0)
    stmatrix s8[wg * 64 : 64, :] <- q8
    ldmatrix p <- sa[wg * 64 : 64, :]
    store D[wg * 64 : 64, :] <- p
    syncthreads
    load y <- sc[t / 2, (t % 2) * 32 : 32]
    store C[t / 2, (t % 2) * 32 : 32] <- y
    load y8 <- s8[t / 2, (t % 2) * 32 : 32]
    store E[t / 2, (t % 2) * 32 : 32] <- y8
  }
})"},
    // 8-bit floats in registers as wgmma's A (FlashAttention-3's FP8 P):
    // an f32 tile rounded to e4m3 in wgmma_acc, each k32 step's operand
    // gathered from that layout.
    {"wgmma", R"(kernel op_wgmma_rs_e4m3(A: global f32[64, 64], B: global f8e4m3[64, 64], C: global f32[64, 64]) grid (1) block 128 {
  smem b: f8e4m3[64, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc)
    reg x: f32[64, 64] layout(wgmma_acc)
    reg p: f8e4m3[64, 64] layout(wgmma_acc)
    load x <- A
    p = cvt<f8e4m3>(x * 64.0)
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc = p @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    // 8-bit integer A from registers: s8 values loaded into wgmma_acc and
    // gathered into the k32 operand layout each wgmma; `=` then `+=`.
    {"wgmma", R"(kernel op_wgmma_rs_s8(A: global i8[64, 64], B: global i8[32, 64], C: global i32[64, 32]) grid (1) block 128 {
  smem b: i8[32, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: i32[64, 32] layout(wgmma_acc)
    reg p: i8[64, 64] layout(wgmma_acc)
    load p <- A
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc = p @ b.T
    wgmma acc += p @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    // tf32: k8 steps of 32-byte rows (no transpose immediates), A from
    // shared memory, then from registers (each k8 step's operand gathered
    // from the wgmma_acc layout).
    {"wgmma", R"(kernel op_wgmma_tf32(A: global tf32[64, 32], B: global tf32[32, 32], C: global f32[64, 32]) grid (1) block 128 {
  smem a: tf32[64, 32] swizzle(128B)
  smem b: tf32[32, 32] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 32] layout(wgmma_acc)
    reg p: tf32[64, 32] layout(wgmma_acc)
    load p <- A
    p = p * 0.75
    cp.async a <- A
    cp.async b <- B
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc = a @ b.T
    wgmma acc += p @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    // MN-major operands (the 16-bit forms' transpose immediates): B a
    // [K, N] tile (128B and 64B spans), A a [K, M] one used as `.T`, and A
    // from registers with an N-major B.
    {"wgmma", R"(kernel op_wgmma_mn(A: global bf16[32, 64], B: global bf16[32, 64], P: global bf16[64, 32], H: global f16[64, 16], G: global f16[16, 32], C: global f32[64, 64], D: global f32[64, 32]) grid (1) block 128 {
  smem at: bf16[32, 64] swizzle(128B)
  smem b: bf16[32, 64] swizzle(128B)
  smem h: f16[64, 16] swizzle(32B)
  smem g: f16[16, 32] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc)
    reg acc2: f32[64, 32] layout(wgmma_acc)
    reg p: bf16[64, 32] layout(wgmma_acc)
    load p <- P
    cp.async at <- A
    cp.async b <- B
    cp.async h <- H
    cp.async g <- G
    cp.async.commit
    cp.async.wait 0
    fence.proxy.async
    syncthreads
    wgmma.fence
    wgmma acc = at.T @ b
    wgmma acc += p @ b
    wgmma acc2 = h @ g
    wgmma.commit
    wgmma.wait 0
    store C <- acc
    store D <- acc2
  }
})"},
    // col_major operands by TMA: A [M, K] col_major is M-major (the
    // transpose immediate), B [K, N] col_major K-major.
    {"wgmma tma.load", R"(kernel op_wgmma_col(A: global bf16[64, 32] col_major, B: global bf16[32, 64] col_major, C: global f32[64, 64]) grid (1) block 128 {
  smem a: bf16[64, 32] col_major swizzle(128B)
  smem b: bf16[32, 64] col_major swizzle(64B)
  mbarrier full
  tensormap tA = A box [64, 32] swizzle(128B)
  tensormap tB = B box [32, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc)
    elect {
      arrive.expect_tx full, bytes(a) + bytes(b)
      tma.load a <- tA[0, 0], full
      tma.load b <- tB[0, 0], full
    }
    wait full parity(0)
    wgmma.fence
    wgmma acc = a @ b
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    // 8-bit floats: k32 steps of 32-byte rows, the operands by TMA (e4m3)
    // and cp.async (e5m2).
    {"wgmma tma.load", R"(kernel op_wgmma_e4m3(A: global f8e4m3[64, 64], B: global f8e4m3[64, 64], C: global f32[64, 64]) grid (1) block 128 {
  smem a: f8e4m3[64, 64] swizzle(64B)
  smem b: f8e4m3[64, 64] swizzle(64B)
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(64B)
  tensormap tB = B box [64, 64] swizzle(64B)
  role mma warpgroup(0) {
    reg acc: f32[64, 64] layout(wgmma_acc) = 0
    elect {
      arrive.expect_tx full, bytes(a) + bytes(b)
      tma.load a <- tA[0, 0], full
      tma.load b <- tB[0, 0], full
    }
    wait full parity(0)
    wgmma.fence
    wgmma acc += a @ b.T
    wgmma.commit
    wgmma.wait 0
    store C <- acc
  }
})"},
    {"wgmma cp.async", R"(kernel op_wgmma_e5m2(A: global f8e5m2[64, 64], B: global f8e5m2[64, 64], C: global f32[64, 64]) grid (1) block 128 {
  smem a: f8e5m2[64, 64] swizzle(64B)
  smem b: f8e5m2[64, 64] swizzle(64B)
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
})"},
    // The accumulator reused: every thread's tcgen05.ld is done before its
    // arrive on `free`, which the MMA's issuer waits for (the lowering's
    // tcgen05 fences around each thread synchronisation order them).
    {"tcgen05.mma tcgen05.commit tcgen05.ld tcgen05.wait.ld arrive", R"(kernel op_tcgen05(A: global bf16[128, 16], B: global bf16[64, 16], C: global f32[256, 64]) grid (1) block 128 {
  smem sA: bf16[128, 16] swizzle(32B)
  smem sB: bf16[64, 16] swizzle(32B)
  tmem acc: f32[128, 64]
  mbarrier done
  mbarrier free count(128)
  namedbarrier everyone id(1) threads(128)
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  for t in 0 .. 2 {
    elect {
      wait free parity((t & 1) ^ 1)
      tcgen05.mma acc += sA @ sB.T, accumulate(false)
      tcgen05.commit done
    }
    wait done parity(t & 1)
    for c in 0 .. 64 step 32 {
      tcgen05.ld r <- acc[q * 32 : 32, c : 32]
      tcgen05.wait.ld
      r = r + cvt<f32>(t)
      store C[t * 128 + q * 32 : 32, c : 32] <- r
    }
    arrive free
    sync everyone
  }
})"},
    // Each CTA's commit arrives on both CTAs' `done` (count 2).
    {"tcgen05.commit", R"(kernel op_tcgen05_multicast(A: global bf16[128, 16], B: global bf16[64, 16], C: global f32[256, 64]) grid (2) block 128 cluster (2) {
  smem sA: bf16[128, 16] swizzle(32B)
  smem sB: bf16[64, 16] swizzle(32B)
  tmem acc: f32[128, 64]
  mbarrier done count(2)
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB.T
    tcgen05.commit done multicast(3)
  }
  wait done parity(0)
  for c in 0 .. 64 step 32 {
    tcgen05.ld r <- acc[q * 32 : 32, c : 32]
    tcgen05.wait.ld
    store C[block.x * 128 + q * 32 : 32, c : 32] <- r
  }
})"},
    // 8-bit operands: e4m3 A and e5m2 B (kind::f8f6f4, f32 D), `=` then
    // `+=`; s8 A and B (kind::i8, s32 D). Each k-step is 32 bytes of K.
    {"tcgen05.mma", R"(kernel op_tcgen05_f8(A: global f8e4m3[128, 64], B: global f8e5m2[64, 64], C: global f32[128, 64]) grid (1) block 128 {
  smem sA: f8e4m3[128, 64] swizzle(64B)
  smem sB: f8e5m2[64, 64] swizzle(64B)
  tmem acc: f32[128, 64]
  mbarrier done
  reg r: f32[32, 64] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB.T
    tcgen05.mma acc += sA @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    {"tcgen05.mma", R"(kernel op_tcgen05_i8(A: global i8[128, 128], B: global i8[32, 128], C: global i32[128, 32]) grid (1) block 128 {
  smem sA: i8[128, 128] swizzle(128B)
  smem sB: i8[32, 128] swizzle(128B)
  tmem acc: i32[128, 32]
  mbarrier done
  reg r: i32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    // kind::tf32: k8 steps, A from shared memory, then from tensor memory
    // (one tf32 value a column, by tcgen05.st).
    {"tcgen05.mma tcgen05.st", R"(kernel op_tcgen05_tf32(A: global tf32[128, 32], B: global tf32[32, 32], C: global f32[128, 32]) grid (1) block 128 {
  smem sA: tf32[128, 32] swizzle(128B)
  smem sB: tf32[32, 32] swizzle(128B)
  tmem ta: tf32[128, 32]
  tmem acc: f32[128, 32]
  mbarrier done
  reg a: tf32[32, 32] layout(tcgen05_acc)
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load a <- A[q * 32 : 32, :]
  a = a * -1.5
  tcgen05.st ta[q * 32 : 32, :] <- a
  tcgen05.wait.st
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB.T
    tcgen05.mma acc += ta @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    // MN-major operands (the instruction descriptor's transpose bits): a
    // bf16 and a tf32 B as [K, N] tiles, and an e4m3 A as a [K, M] tile used
    // as `.T` (128 one-byte values a 128-byte span) with an N-major B.
    {"tcgen05.mma", R"(kernel op_tcgen05_mn(A: global bf16[128, 32], B: global bf16[32, 64], S: global tf32[128, 32], T: global tf32[32, 32], E: global f8e4m3[64, 128], F: global f8e4m3[64, 128], C: global f32[128, 64], D: global f32[128, 32], G: global f32[128, 128]) grid (1) block 128 {
  smem sA: bf16[128, 32] swizzle(64B)
  smem sB: bf16[32, 64] swizzle(128B)
  smem sS: tf32[128, 32] swizzle(128B)
  smem sT: tf32[32, 32] swizzle(128B)
  smem sE: f8e4m3[64, 128] swizzle(128B)
  smem sF: f8e4m3[64, 128] swizzle(128B)
  tmem acc: f32[128, 64]
  tmem acct: f32[128, 32]
  tmem acc8: f32[128, 128]
  mbarrier done
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async sS <- S
  cp.async sT <- T
  cp.async sE <- E
  cp.async sF <- F
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = sA @ sB
    tcgen05.mma acct = sS @ sT
    tcgen05.mma acc8 = sE.T @ sF
    tcgen05.commit done
  }
  wait done parity(0)
  for c in 0 .. 64 step 32 {
    tcgen05.ld r <- acc[q * 32 : 32, c : 32]
    tcgen05.wait.ld
    store C[q * 32 : 32, c : 32] <- r
  }
  tcgen05.ld r <- acct[q * 32 : 32, :]
  tcgen05.wait.ld
  store D[q * 32 : 32, :] <- r
  for c in 0 .. 128 step 32 {
    tcgen05.ld r <- acc8[q * 32 : 32, c : 32]
    tcgen05.wait.ld
    store G[q * 32 : 32, c : 32] <- r
  }
})"},
    // col_major operands by TMA (the map lists the first dim innermost):
    // A [M, K] col_major is M-major, B [K, N] col_major K-major; the A tile
    // goes back through its map.
    {"tcgen05.mma tma.load tma.store", R"(kernel op_tcgen05_col(A: global f8e4m3[128, 32] col_major, B: global f8e4m3[32, 64] col_major, C: global f32[128, 64], E: global f8e4m3[128, 32] col_major) grid (1) block 128 {
  smem sA: f8e4m3[128, 32] col_major swizzle(128B)
  smem sB: f8e4m3[32, 64] col_major swizzle(32B)
  tmem acc: f32[128, 64]
  mbarrier full
  mbarrier done
  tensormap tA = A box [128, 32] swizzle(128B)
  tensormap tB = B box [32, 64] swizzle(32B)
  tensormap tE = E box [128, 32] swizzle(128B)
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  elect {
    arrive.expect_tx full, bytes(sA) + bytes(sB)
    tma.load sA <- tA[0, 0], full
    tma.load sB <- tB[0, 0], full
  }
  wait full parity(0)
  elect {
    tcgen05.mma acc = sA @ sB
    tcgen05.commit done
  }
  wait done parity(0)
  for c in 0 .. 64 step 32 {
    tcgen05.ld r <- acc[q * 32 : 32, c : 32]
    tcgen05.wait.ld
    store C[q * 32 : 32, c : 32] <- r
  }
  elect {
    tma.store tE[0, 0] <- sA
    tma.store.commit
    tma.store.wait 0
  }
})"},
    // 6- and 4-bit floats (kind::f8f6f4, mixed): packed tensors, each
    // 16 values unpacked by TMA (16U4/16U6_ALIGN16B) into a 16-byte chunk
    // of shared memory, a byte a value there; f4 A @ e2m3 B, then += e3m2
    // A @ e4m3 B (8-bit, through a plain byte map), over two k-tiles of
    // 128 and 64 rows of B beside 32 more columns of D.
    {"tcgen05.mma tma.load", R"(kernel op_tcgen05_f6f4(A: global f4e2m1[128, 256], B: global f6e2m3[64, 256], E: global f6e3m2[128, 128], F: global f8e4m3[64, 128], C: global f32[128, 64]) grid (1) block 128 {
  smem sA: f4e2m1[2][128, 128] swizzle(128B)
  smem sB: f6e2m3[2][64, 128] swizzle(128B)
  smem sE: f6e3m2[128, 128] swizzle(128B)
  smem sF: f8e4m3[64, 128] swizzle(128B)
  tmem acc: f32[128, 64]
  mbarrier full
  mbarrier done
  tensormap tA = A box [128, 128] swizzle(128B)
  tensormap tB = B box [64, 128] swizzle(128B)
  tensormap tE = E box [128, 128] swizzle(128B)
  tensormap tF = F box [64, 128] swizzle(128B)
  reg r: f32[32, 64] layout(tcgen05_acc)
  let q = warp.id % 4
  elect {
    arrive.expect_tx full, bytes(sA) + bytes(sB) + bytes(sE) + bytes(sF)
    tma.load sA[0] <- tA[0, 0], full
    tma.load sA[1] <- tA[0, 128], full
    tma.load sB[0] <- tB[0, 0], full
    tma.load sB[1] <- tB[0, 128], full
    tma.load sE <- tE[0, 0], full
    tma.load sF <- tF[0, 0], full
  }
  wait full parity(0)
  elect {
    tcgen05.mma acc = sA[0] @ sB[0].T
    tcgen05.mma acc += sA[1] @ sB[1].T
    tcgen05.mma acc += sE @ sF.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    // 6- and 4-bit floats per thread: codes read from packed tensors (f6
    // values straddle bytes), decoded element-wise, and f32 values rounded
    // to them (beyond the largest value: saturated; 5 between 4 and 6:
    // the even 4) and read back.
    {"load", R"(kernel op_subbyte_load(A: global f4e2m1[64, 10], B: global f6e3m2[64, 10], D: global f6e2m3[64], X: global f32[64, 8], C: global f32[64, 10], E: global f32[64, 8]) grid (1) block 64 {
  let i = warp.id * 32 + lane
  reg a: f4e2m1[10]
  reg b: f6e3m2[10]
  reg d: f6e2m3
  reg x: f32[8]
  reg q: f4e2m1[8]
  reg h: f6e2m3[8]
  reg u: f4e2m1[8]
  reg c: f32[10]
  reg r: f32[8]
  load a <- A[i, :]
  load b <- B[i, :]
  load d <- D[i]
  load x <- X[i, :]
  c = cvt<f32>(a) * cvt<f32>(b) + cvt<f32>(d)
  q = cvt<f4e2m1>(x * 8.0)
  h = cvt<f6e2m3>(x)
  u = cvt<f4e2m1>(x * 0.0 + 5.0)
  r = cvt<f32>(q) + cvt<f32>(h) + cvt<f32>(u)
  store C[i, :] <- c
  store E[i, :] <- r
})"},
    // Quantising per thread: each thread rounds its row of f32 values to
    // f4e2m1 and f6e3m2 and stores them as whole bytes it owns (8 values:
    // 4 and 6 bytes), the f4 row's second half from element 4 (a byte in).
    {"store", R"(kernel op_subbyte_store(X: global f32[64, 8], Q: global f4e2m1[64, 8], H: global f6e3m2[64, 8], R: global f4e2m1[64, 12]) grid (1) block 64 {
  let i = warp.id * 32 + lane
  reg x: f32[8]
  reg q: f4e2m1[8]
  reg h: f6e3m2[8]
  reg t: f4e2m1[4]
  reg y: f32[4]
  load x <- X[i, :]
  q = cvt<f4e2m1>(x * 8.0)
  h = cvt<f6e3m2>(x * 32.0)
  store Q[i, :] <- q
  store H[i, :] <- h
  load y <- X[i, 4 : 4]
  t = cvt<f4e2m1>(y)
  store R[i, 4 : 4] <- t
})"},
    // A row of 96 f32 columns moved as .x64 then .x32, and e4m3 values four
    // to a column (packed registers), each read back by other pieces.
    {"tcgen05.st tcgen05.ld", R"(kernel op_tcgen05_wide(X: global f32[128, 96], Y: global f8e4m3[128, 64], C: global f32[128, 96], D: global f8e4m3[128, 64]) grid (1) block 128 {
  tmem t: f32[128, 128]
  tmem u: f8e4m3[128, 128]
  reg x: f32[32, 96] layout(tcgen05_acc)
  reg o1: f32[32, 64] layout(tcgen05_acc)
  reg o2: f32[32, 32] layout(tcgen05_acc)
  reg y: f8e4m3[32, 64] layout(tcgen05_acc)
  reg z1: f8e4m3[32, 32] layout(tcgen05_acc)
  reg z2: f8e4m3[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load x <- X[q * 32 : 32, :]
  tcgen05.st t[q * 32 : 32, 0 : 96] <- x
  load y <- Y[q * 32 : 32, :]
  tcgen05.st u[q * 32 : 32, 0 : 64] <- y
  tcgen05.wait.st
  tcgen05.ld o1 <- t[q * 32 : 32, 0 : 64]
  tcgen05.ld o2 <- t[q * 32 : 32, 64 : 32]
  tcgen05.ld z1 <- u[q * 32 : 32, 0 : 32]
  tcgen05.ld z2 <- u[q * 32 : 32, 32 : 32]
  tcgen05.wait.ld
  store C[q * 32 : 32, 0 : 64] <- o1
  store C[q * 32 : 32, 64 : 32] <- o2
  store D[q * 32 : 32, 0 : 32] <- z1
  store D[q * 32 : 32, 32 : 32] <- z2
})"},
    {"tcgen05.st tcgen05.wait.st", R"(kernel op_tcgen05_st(X: global f32[128, 32], C: global f32[128, 32]) grid (1) block 128 {
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
})"},
    // M = 64 (data-path layout F: rows 16 q .. + 15 in the first 16 lanes of
    // quarter q, a 64-lane buffer's rows), K-major and M-major A, N = 40
    // and 32; the accumulators read by .16x256b into mma_acc fragments
    // (5 blocks of 8 columns: .x4 then .x1). Packed bf16 fragments written
    // by .16x128b to lanes 0 .. 15 and 16 .. 31 of each quarter, read back
    // by .32x32b (E) and by .16x128b into a [32, 32] fragment, two
    // instructions (F). A in tensor memory at M = 64 (G):
    // a 64-lane buffer filled by .16x128b, its rows where D's are.
    {"tcgen05.mma tcgen05.ld tcgen05.st", R"(kernel op_tcgen05_m64(A: global bf16[64, 32], B: global bf16[40, 32], P: global bf16[32, 64], H: global bf16[128, 32], C: global f32[64, 40], D: global f32[64, 32], E: global bf16[128, 32], F: global bf16[128, 32], G: global f32[64, 40]) grid (1) block 128 {
  smem sA: bf16[64, 32] swizzle(64B)
  smem sB: bf16[40, 32] swizzle(64B)
  smem sP: bf16[32, 64] swizzle(128B)
  tmem acc: f32[64, 64]
  tmem acc2: f32[64, 32]
  tmem acc3: f32[64, 64]
  tmem ta: bf16[64, 64]
  tmem tb: bf16[128, 64]
  mbarrier done
  reg r: f32[16, 40] layout(mma_acc)
  reg r2: f32[16, 32] layout(mma_acc)
  reg h: bf16[16, 32] layout(mma_acc)
  reg h2: bf16[16, 32] layout(mma_acc)
  reg o: bf16[32, 32] layout(tcgen05_acc)
  reg h32: bf16[32, 32] layout(mma_acc)
  let q = warp.id % 4
  load h <- A[q * 16 : 16, :]
  tcgen05.st ta[q * 16 : 16, 0 : 32] <- h
  tcgen05.wait.st
  cp.async sA <- A
  cp.async sB <- B
  cp.async sP <- P
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc[:, 0 : 40] = sA @ sB.T
    tcgen05.mma acc2 = sP.T @ sB[0 : 32, :].T
    tcgen05.mma acc3[:, 0 : 40] = ta[:, 0 : 32] @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 16 : 16, 0 : 40]
  tcgen05.ld r2 <- acc2[q * 16 : 16, :]
  tcgen05.wait.ld
  store C[q * 16 : 16, :] <- r
  store D[q * 16 : 16, :] <- r2
  tcgen05.ld r <- acc3[q * 16 : 16, 0 : 40]
  tcgen05.wait.ld
  store G[q * 16 : 16, :] <- r
  load h <- H[q * 32 : 16, :]
  load h2 <- H[q * 32 + 16 : 16, :]
  tcgen05.st tb[q * 32 : 16, 0 : 32] <- h
  tcgen05.st tb[q * 32 + 16 : 16, 0 : 32] <- h2
  tcgen05.wait.st
  tcgen05.ld o <- tb[q * 32 : 32, 0 : 32]
  tcgen05.ld h32 <- tb[q * 32 : 32, 0 : 32]
  tcgen05.wait.ld
  store E[q * 32 : 32, :] <- o
  store F[q * 32 : 32, :] <- h32
})"},
    {"tcgen05.mma tcgen05.st tcgen05.wait.st", R"(kernel op_tcgen05_tmem_a(A: global bf16[128, 64], B: global bf16[64, 64], C: global f32[128, 64]) grid (1) block 128 {
  smem sB: bf16[64, 64] swizzle(128B)
  tmem ta: bf16[128, 64]
  tmem acc: f32[128, 64]
  mbarrier done
  reg a: bf16[32, 64] layout(tcgen05_acc)
  reg r: f32[32, 64] layout(tcgen05_acc)
  let q = warp.id % 4
  load a <- A[q * 32 : 32, :]
  tcgen05.st ta[q * 32 : 32, :] <- a
  tcgen05.wait.st
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.mma acc = ta @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    // 8-bit A in tensor memory, four to a column: kind::f8f6f4 (e4m3 by
    // e5m2, A by tcgen05.st of packed fragments) and kind::i8 (s8 by s8, A
    // by tcgen05.cp of a 64B-swizzled tile).
    {"tcgen05.mma tcgen05.st tcgen05.cp", R"(kernel op_tcgen05_tmem_a8(A: global f8e4m3[128, 64], B: global f8e5m2[64, 64], A8: global i8[128, 64], B8: global i8[32, 64], C: global f32[128, 64], D: global i32[128, 32]) grid (1) block 128 {
  smem sB: f8e5m2[64, 64] swizzle(64B)
  smem sA8: i8[128, 64] swizzle(64B)
  smem sB8: i8[32, 64] swizzle(64B)
  tmem ta: f8e4m3[128, 128]
  tmem t8: i8[128, 128]
  tmem acc: f32[128, 64]
  tmem iacc: i32[128, 32]
  mbarrier done
  reg a: f8e4m3[32, 64] layout(tcgen05_acc)
  reg r: f32[32, 64] layout(tcgen05_acc)
  reg ri: i32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load a <- A[q * 32 : 32, :]
  tcgen05.st ta[q * 32 : 32, 0 : 64] <- a
  tcgen05.wait.st
  cp.async sB <- B
  cp.async sA8 <- A8
  cp.async sB8 <- B8
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.cp t8[:, 0 : 64] <- sA8
    tcgen05.mma acc = ta[:, 0 : 64] @ sB.T
    tcgen05.mma iacc = t8[:, 0 : 64] @ sB8.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.ld ri <- iacc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
  store D[q * 32 : 32, :] <- ri
})"},
    // A CTA pair's MMA with A in tensor memory: each CTA's 128 rows of A in
    // its own TMEM (tcgen05.st), its half of B's rows in shared memory; the
    // even CTA issues the m256n64k16 steps, its commit reaches both.
    {"tcgen05.mma tcgen05.st cluster.sync", R"(kernel op_tcgen05_pair_tmem_a(A: global bf16[256, 64], B: global bf16[64, 64], C: global f32[256, 64]) grid (2) block 128 cluster (2) cta_group 2 {
  smem sB: bf16[32, 64] swizzle(128B)
  tmem ta: bf16[128, 64]
  tmem acc: f32[128, 64]
  mbarrier done
  reg a: bf16[32, 64] layout(tcgen05_acc)
  reg r: f32[32, 64] layout(tcgen05_acc)
  let half = cluster.rank % 2
  let q = warp.id % 4
  load a <- A[half * 128 + q * 32 : 32, :]
  tcgen05.st ta[q * 32 : 32, :] <- a
  tcgen05.wait.st
  cp.async sB <- B[half * 32 : 32, :]
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  cluster.sync
  if half == 0 {
    elect {
      tcgen05.mma acc = ta @ sB.T
      tcgen05.commit done multicast(3)
    }
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[half * 128 + q * 32 : 32, :] <- r
})"},
    // 2-D bulk copies: whole rows (one run of bytes) and a column slice (a
    // copy per row).
    {"bulk.load", R"(kernel op_bulk_2d(X: global f32[M, 64], Y: global f32[M, 64], Z: global f32[M, 32]) where M % 8 == 0 grid (M / 8) block 64 {
  smem s: f32[8, 64]
  smem t: f32[8, 32]
  mbarrier full
  elect {
    arrive.expect_tx full, bytes(s) + bytes(t)
    bulk.load s <- X[block.x * 8 : 8, :], full
    bulk.load t <- X[block.x * 8 : 8, 16 : 32], full
  }
  wait full parity(0)
  reg x: f32[8]
  reg z: f32[4]
  let i = warp.id * 32 + lane
  load x <- s[i / 8, (i % 8) * 8 : 8]
  store Y[block.x * 8 + i / 8, (i % 8) * 8 : 8] <- x
  load z <- t[i / 8, (i % 8) * 4 : 4]
  store Z[block.x * 8 + i / 8, (i % 8) * 4 : 4] <- z
})"},
    // Bulk copies of rank 3: a whole [2, 4, 16] tile (one run), a column
    // slice of it (a copy per row, its row index split over the outer
    // dims), and a [2, 16] tile with a dim fixed between its two (rows 256
    // bytes apart: a copy per row).
    {"bulk.load", R"(kernel op_bulk_3d(W: global f32[M, 4, 16], A3: global f32[M, 4, 16], B3: global f32[M, 4, 8], C2: global f32[M, 16]) where M % 2 == 0 grid (M / 2) block 64 {
  smem a: f32[2, 4, 16]
  smem b: f32[2, 4, 8]
  smem c: f32[2, 16]
  mbarrier full
  elect {
    arrive.expect_tx full, bytes(a) + bytes(b) + bytes(c)
    bulk.load a <- W[block.x * 2 : 2, :, :], full
    bulk.load b <- W[block.x * 2 : 2, :, 4 : 8], full
    bulk.load c <- W[block.x * 2 : 2, 1, :], full
  }
  wait full parity(0)
  reg xa: f32[2]
  reg xb: f32
  reg xc: f32
  let i = warp.id * 32 + lane
  load xa <- a[i / 32, i / 8 % 4, i % 8 * 2 : 2]
  store A3[block.x * 2 + i / 32, i / 8 % 4, i % 8 * 2 : 2] <- xa
  load xb <- b[i / 32, i / 8 % 4, i % 8]
  store B3[block.x * 2 + i / 32, i / 8 % 4, i % 8] <- xb
  load xc <- c[i / 32, i % 16]
  store C2[block.x * 2 + i / 32, i % 16] <- xc
})"},
    // col_major bulk copies: whole columns are one run; half columns are a
    // run each, 64 elements apart.
    {"bulk.load", R"(kernel op_bulk_col(D: global f32[64, 16] col_major, E: global f32[32, 8] col_major, F: global f32[64, 8]) grid (1) block 64 {
  smem whole: f32[64, 8] col_major
  smem half: f32[32, 8] col_major
  mbarrier full
  elect {
    arrive.expect_tx full, bytes(whole) + bytes(half)
    bulk.load whole <- D[:, 8 : 8], full
    bulk.load half <- D[16 : 32, 0 : 8], full
  }
  wait full parity(0)
  reg x: f32[8]
  reg y: f32[4]
  let i = warp.id * 32 + lane
  load x <- whole[i, :]
  store F[i, :] <- x
  load y <- half[i % 32, i / 32 * 4 : 4]
  store E[i % 32, i / 32 * 4 : 4] <- y
})"},
    {"tcgen05.cp", R"(kernel op_tcgen05_cp(X: global f32[128, 32], C: global f32[128, 32]) grid (1) block 128 {
  smem s: f32[128, 32] swizzle(128B)
  tmem u: f32[128, 32]
  mbarrier done
  reg x: f32[32, 32] layout(tcgen05_acc)
  reg r: f32[32, 32] layout(tcgen05_acc)
  let q = warp.id % 4
  load x <- X[q * 32 : 32, :]
  store s[q * 32 : 32, :] <- x
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.cp u <- s
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- u[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    // A 16-bit tile copied from shared into tensor memory (two values a
    // column, as tcgen05.cp moves bits), then the MMA's A from there.
    {"tcgen05.cp tcgen05.mma", R"(kernel op_tcgen05_cp_a(A: global bf16[128, 64], B: global bf16[64, 64], C: global f32[128, 64]) grid (1) block 128 {
  smem sA: bf16[128, 64] swizzle(128B)
  smem sB: bf16[64, 64] swizzle(128B)
  tmem ta: bf16[128, 64]
  tmem acc: f32[128, 64]
  mbarrier done
  reg r: f32[32, 64] layout(tcgen05_acc)
  let q = warp.id % 4
  cp.async sA <- A
  cp.async sB <- B
  cp.async.commit
  cp.async.wait 0
  fence.proxy.async
  syncthreads
  elect {
    tcgen05.cp ta <- sA
    tcgen05.mma acc = ta @ sB.T
    tcgen05.commit done
  }
  wait done parity(0)
  tcgen05.ld r <- acc[q * 32 : 32, :]
  tcgen05.wait.ld
  store C[q * 32 : 32, :] <- r
})"},
    {"argmin.row argmax.row", R"(kernel op_argmin(X: global f32[M, 32], I: global i32[M], J: global i32[M]) where M % 16 == 0 grid (M / 16) block 32 {
  reg x: f32[16, 32] layout(mma_acc)
  reg best: f32[16] layout(mma_acc.row) = +inf
  reg worst: f32[16] layout(mma_acc.row) = -inf
  reg arg: i32[16] layout(mma_acc.row) = 0
  reg top: i32[16] layout(mma_acc.row) = 0
  load x <- X[block.x * 16 : 16, :]
  argmin.row best, arg <- x
  argmax.row worst, top <- x
  store I[block.x * 16 : 16] <- arg
  store J[block.x * 16 : 16] <- top
})"},
    // Not ops but element-wise forms every lowering must place right:
    // row()/col() and select() on each fragment layout, and broadcasting
    // of [M, 1] and [1] operands (cake/broadcast.h).
    {"load store", R"(kernel op_mask_mma(X: global f32[M, 32], Y: global f32[M, 32]) where M % 16 == 0 grid (M / 16) block 32 {
  reg x: f32[16, 32] layout(mma_acc)
  reg m: f32[16] layout(mma_acc.row)
  load x <- X[block.x * 16 : 16, :]
  x = select(col(x) > row(x) + block.x * 4 || x < -0.5, -inf, x)
  reduce.row max m <- x
  x = x - m
  store Y[block.x * 16 : 16, :] <- x
})"},
    // Parts of fragments: column and row slices of an mma_acc tile, of a
    // .row vector (stored by one lane of each quad), a packed bf16 tile's
    // columns, a scalar row of a per-thread tile, and a load into a part.
    {"load store", R"(kernel op_fragment_part(X: global f32[16, 16], Y: global f32[16, 16], Z: global f32[16], W: global f32[8, 4], B: global bf16[16, 8], P: global f32[32, 4], Q: global f32[32]) grid (1) block 32 {
  reg x: f32[16, 16] layout(mma_acc)
  reg y: f32[16, 16] layout(mma_acc)
  reg h: bf16[16, 16] layout(mma_acc)
  reg v: f32[16] layout(mma_acc.row)
  reg t: f32[2, 4]
  load x <- X
  y = x * 2.0
  load y[:, 8 : 8] <- X[0 : 16, 0 : 8]
  store Y[0 : 16, 0 : 8] <- y[:, 8 : 8]
  store Y[0 : 16, 8 : 8] <- y[:, 0 : 8]
  reduce.row max v <- x
  store Z[0 : 8] <- v[8 : 8]
  store Z[8 : 8] <- v[0 : 8]
  store W <- x[4 : 8, 12 : 4]
  h = cvt<bf16>(x)
  store B <- h[:, 4 : 8]
  load t <- X[lane % 8 : 2, lane / 8 * 4 : 4]
  store P[lane, :] <- t[1, :]
  store Q[lane] <- t[0, 3]
})"},
    // Assignments to parts of fragments (`x[:, 0 : 8] = ...`, a row, a
    // per-thread row), reading the same part: mma_acc, per thread, and
    // wgmma_acc f32, packed bf16 and i32.
    {"load store", R"(kernel op_assign_part(X: global f32[16, 16], Y: global f32[16, 16]) grid (1) block 32 {
  reg x: f32[16, 16] layout(mma_acc)
  reg z: f32[2, 4]
  load x <- X
  x[:, 0 : 8] = x[:, 0 : 8] * 2.0
  x[3, :] = 0.5
  z = 1.0
  z[1, :] = 2.0
  store Y <- x
})"},
    {"load store", R"(kernel op_assign_part_wgmma(X: global f32[64, 16], Y: global f32[64, 16], B: global bf16[64, 16], K: global i32[64, 16]) grid (1) block 128 {
  role wg warpgroup(0) {
    reg x: f32[64, 16] layout(wgmma_acc)
    reg y: f32[64, 16] layout(wgmma_acc)
    reg h: bf16[64, 16] layout(wgmma_acc)
    reg k: i32[64, 16] layout(wgmma_acc)
    load x <- X
    y = x
    y[8 : 40, 4 : 8] = x[8 : 40, 4 : 8] * 3.0 - y[8 : 40, 4 : 8]
    y[2, :] += 1.0
    h = cvt<bf16>(x)
    h[:, 0 : 8] = cvt<bf16>(x[:, 0 : 8] * 2.0)
    k = col(x)
    k[0 : 32, :] *= 3
    store Y <- y
    store B <- h
    store K <- k
  }
})"},
    // Parts read at other places than the part written, and whole
    // fragments of a part's shape: in the accumulator layouts from the lanes
    // that hold them (shuffles), in place from a copy of the old registers.
    {"load store", R"(kernel op_part_other(X: global f32[16, 16], Y: global f32[16, 16], B: global bf16[16, 16], H: global f32[8, 16], K: global i32[16, 8], Z: global f32[4, 4]) grid (1) block 32 {
  reg x: f32[16, 16] layout(mma_acc)
  reg y: f32[16, 8] layout(mma_acc)
  reg y2: f32[8, 16] layout(mma_acc)
  reg h: bf16[16, 16] layout(mma_acc)
  reg k: i32[16, 8] layout(mma_acc)
  reg z: f32[4, 4]
  reg w: f32[2, 2]
  reg v: f32[4]
  load x <- X
  y = x[:, 8 : 8] * 2.0
  x[:, 0 : 8] = y
  x[0 : 8, 8 : 8] = x[8 : 8, 0 : 8] + 1.0
  x[3 : 4, 3 : 5] = x[5 : 4, 10 : 5]
  x[1 : 15, :] += x[0 : 15, :]
  y2 = x[4 : 8, :]
  y2[1 : 7, 2 : 13] = y2[0 : 7, 3 : 13] - y2[1 : 7, 2 : 13]
  h = cvt<bf16>(x)
  h[2 : 12, 1 : 14] = h[4 : 12, 0 : 14]
  k = col(y) * 3 + row(y)
  k[:, 1 : 7] += k[:, 0 : 7]
  k[9, :] = k[2, :]
  z = 1.0
  w = 2.5
  z[1 : 2, 2 : 2] = w
  z[0 : 3, :] = z[1 : 3, :] + 1.0
  v = 0.5
  v[1 : 3] = v[0 : 3] + 1.0
  z[3, :] = v
  x[0 : 8, 0 : 8] = cvt<f32>(h[8 : 8, 3 : 8]) + cvt<f32>(k[5 : 8, :])
  store Y <- x
  store B <- h
  store H <- y2
  store K <- k
  store Z <- z
})"},
    // One element of a fragment as a scalar: from the lane that holds it.
    {"load store", R"(kernel op_fragment_element(X: global f32[16, 16], Y: global f32[16, 16], Z: global f32[4, 4], T: global f32[32, 16]) grid (1) block 32 {
  reg x: f32[16, 16] layout(mma_acc)
  reg h: bf16[16, 16] layout(mma_acc)
  reg m: f32[16] layout(mma_acc.row)
  reg t: f32[32, 16] layout(tcgen05_acc)
  reg z: f32[4, 4]
  load x <- X
  load t <- T
  h = cvt<bf16>(x)
  reduce.row max m <- x
  z = x[3, 5] * 2.0 + cvt<f32>(h[10, 9])
  z[1, :] = m[11] + t[17, 3]
  z[2, 2] = z[0, 1]
  z = z * 0.5 - z[0, 0]
  x = x - x[15, 14]
  x[2, :] = m[2]
  store Y <- x
  store Z <- z
})"},
    {"load store", R"(kernel op_part_other_tcgen05(X: global f32[32, 16], Y: global f32[32, 16]) grid (1) block 32 {
  reg r: f32[32, 16] layout(tcgen05_acc)
  load r <- X
  r[3 : 20, 2 : 9] = r[5 : 20, 0 : 9] * 2.0
  r[0 : 8, 12 : 4] += r[24 : 8, 0 : 4]
  store Y <- r
})"},
    {"load store", R"(kernel op_part_other_wgmma(X: global f32[64, 32], Y: global f32[64, 32], B: global bf16[64, 32]) grid (1) block 128 {
  role wg warpgroup(0) {
    reg x: f32[64, 32] layout(wgmma_acc)
    reg y: f32[64, 16] layout(wgmma_acc)
    reg h: bf16[64, 32] layout(wgmma_acc)
    load x <- X
    y = x[:, 8 : 16]
    x[:, 16 : 16] = y * 2.0
    x[0 : 8, :] = x[8 : 8, :]
    x[16 : 16, 1 : 31] = x[16 : 16, 0 : 31]
    x[35 : 10, 0 : 29] = x[37 : 10, 3 : 29]
    h = cvt<bf16>(x)
    h[50 : 4, :] = h[58 : 4, :]
    store Y <- x
    store B <- h
  }
})"},
    // A packed 16-bit fragment written whole, a register at a time: `=`
    // into f16 and bf16, and `*=` of a bf16 one.
    {"load store", R"(kernel op_pack16(X: global f32[16, 16], Y: global f16[16, 16], Z: global bf16[16, 16]) grid (1) block 32 {
  reg x: f32[16, 16] layout(mma_acc)
  reg y: f16[16, 16] layout(mma_acc)
  reg z: bf16[16, 16] layout(mma_acc)
  load x <- X
  y = cvt<f16>(x * 3.0)
  z = cvt<bf16>(x)
  z *= z
  store Y <- y
  store Z <- z
})"},
    {"load store", R"(kernel op_mask_wgmma(X: global f32[M, 32], Y: global f32[M, 32]) where M % 128 == 0 grid (M / 128) block 256 {
  role wg warpgroup(0, 1) {
    reg x: f32[64, 32] layout(wgmma_acc)
    load x <- X[block.x * 128 + role.rank * 64 : 64, :]
    x = select(col(x) + 32 * role.rank >= row(x), x * 2.0, cvt<f32>(row(x) * 100 + col(x)))
    store Y[block.x * 128 + role.rank * 64 : 64, :] <- x
  }
})"},
    {"load store", R"(kernel op_row_broadcast(X: global f32[M, 32], Y: global f32[M, 32]) where M % 256 == 0 grid (M / 256) block 128 {
  let i = block.x * 256 + (warp.id * 32 + lane) * 2
  reg x: f32[2, 32]
  reg s: f32[2, 1]
  reg t: f32[1, 32]
  reg u: f32[1]
  load x <- X[i : 2, :]
  reduce.row max s <- x
  x = x - s
  load t <- X[i : 1, :]
  reduce.row max u <- t
  t = select(col(t) == 3, u - t, t - u)
  x = x + t
  store Y[i : 2, :] <- x
})"},
  };
  return kernels;
}

/// A GEMM's k-loop on one warp: [32, k] tiles of A and B by cp.async,
/// ldmatrix into mma_acc fragments, mma into a [32, 32] accumulator of
/// `acc` (a `dtype` row of k values is one swizzle span).
inline std::string ldmatrix_gemm(const std::string& name, const std::string& dtype, const std::string& acc, int k,
                                 const std::string& swizzle) {
  std::string K = std::to_string(k);
  std::string tile = dtype + "[32, " + K + "]";
  return "kernel " + name + "(A: global " + dtype + "[M, K], B: global " + dtype + "[N, K], D: global " + acc +
         "[M, N]) where M % 32 == 0, N % 32 == 0, K % " + K + " == 0 grid (N / 32, M / 32) block 32 {\n"
         "  smem sa: " + tile + " swizzle(" + swizzle + ")\n"
         "  smem sb: " + tile + " swizzle(" + swizzle + ")\n"
         "  reg acc: " + acc + "[32, 32] layout(mma_acc) = 0\n"
         "  reg a: " + tile + " layout(mma_acc)\n"
         "  reg b: " + tile + " layout(mma_acc)\n"
         "  for k in 0 .. K / " + K + " {\n"
         "    cp.async sa <- A[block.y * 32 : 32, k * " + K + " : " + K + "]\n"
         "    cp.async sb <- B[block.x * 32 : 32, k * " + K + " : " + K + "]\n"
         "    cp.async.commit\n"
         "    cp.async.wait 0\n"
         "    syncthreads\n"
         "    ldmatrix a <- sa\n"
         "    ldmatrix b <- sb\n"
         "    mma acc += a @ b.T\n"
         "    syncthreads\n"
         "  }\n"
         "  store D[block.y * 32 : 32, block.x * 32 : 32] <- acc\n"
         "}";
}

/// A kernel of a fragment form beyond the ops (conversions), lowered on
/// `first_target` and the targets listed after it in all_targets(); on the
/// ones before, lowering refuses the declaration `refused_at`. Shared by
/// codegen.host_run and cake-gpu-check.
struct FormKernel {
  std::string what;
  std::string first_target;
  std::string refused_at;
  std::string text;  // without its `target` line
};

inline const std::vector<FormKernel>& form_kernels() {
  static const std::vector<FormKernel> kernels = {
    // 8- and 16-bit integers per thread, their arithmetic (`=`, `*=`)
    // wrapping as the stored type: runs of 16 bytes (global and shared memory), of 8 (rows
    // of 24 bytes) and of 4 moved as 32-bit words; a run at an odd address
    // moved a byte at a time.
    {"8- and 16-bit integers per thread", "sm_80", "",
     R"(kernel small_ints(A: global i8[N], B: global u16[N, 12], C: global i8[N], D: global u16[N, 12], E: global u8[N], F: global u8[N]) where N % 2048 == 0 grid (N / 2048) block 64 {
  smem s: i8[2048]
  let t = warp.id * 32 + lane
  reg x: i8[32]
  reg y: u16[3, 12]
  reg z: u8[4]
  load x <- A[block.x * 2048 + t * 32 : 32]
  x = x * 37 + 5
  store s[t * 32 : 32] <- x
  syncthreads
  load x <- s[(63 - t) * 32 : 32]
  store C[block.x * 2048 + t * 32 : 32] <- x
  load y <- B[block.x * 192 + t * 3 : 3, :]
  y *= 5000
  store D[block.x * 192 + t * 3 : 3, :] <- y
  load z <- E[block.x * 2048 + t * 4 : 4]
  z = z * 20
  store F[block.x * 2048 + t * 4 + 1 : 4] <- z
})"},
    // Integer row reductions compute in the integers, wrapping modulo
    // 2^bits as the language's arithmetic does: per thread i32 sums,
    // maxima and minima of values up to 3.2e9 (wrapped once), u16 sums of
    // the same values' low halves, an i32 argmin.
    {"integer row reductions per thread", "sm_80", "",
     R"(kernel int_rows(X: global i32[N, 8], S: global i32[N], M: global i32[N], L: global i32[N], H: global u16[N], I: global i32[N]) where N % 64 == 0 grid (N / 64) block 64 {
  let i = block.x * 64 + warp.id * 32 + lane
  reg x: i32[1, 8]
  reg s: i32[1]
  reg m: i32[1, 1]
  reg l: i32[1]
  reg h: u16[1, 8]
  reg hs: u16[1]
  reg best: i32[1] = 2147483647
  reg arg: i32[1] = -1
  load x <- X[i : 1, :]
  x = x * 400000000 + col(x)
  reduce.row sum s <- x
  reduce.row max m <- x
  reduce.row min l <- x
  h = cvt<u16>(x)
  reduce.row sum hs <- h
  argmin.row best, arg <- x, base(100)
  store S[i : 1] <- s
  store M[i : 1] <- m[:, 0]
  store L[i : 1] <- l
  store H[i : 1] <- hs
  store I[i : 1] <- arg
})"},
    // An i32 mma_acc (i8 mma.sync) reduced into its .row vectors in the
    // integers: sums past 2^31 wrap, and the quad's shuffles carry i32.
    {"i32 accumulator row reductions", "sm_80", "",
     R"(kernel int_acc_rows(A: global i8[16, 32], B: global i8[8, 32], S: global i32[16], M: global i32[16], L: global i32[16], I: global i32[16], C: global i32[16, 8]) grid (1) block 32 {
  reg a: i8[16, 32] layout(mma_acc)
  reg b: i8[8, 32] layout(mma_acc)
  reg acc: i32[16, 8] layout(mma_acc) = 0
  reg s: i32[16] layout(mma_acc.row)
  reg m: i32[16] layout(mma_acc.row)
  reg l: i32[16] layout(mma_acc.row)
  reg best: i32[16] layout(mma_acc.row) = -2147483647
  reg arg: i32[16] layout(mma_acc.row) = 0
  load a <- A
  load b <- B
  mma acc += a @ b.T
  acc = acc * 3000017 + col(acc)
  reduce.row sum s <- acc
  reduce.row max m <- acc
  reduce.row min l <- acc
  argmax.row best, arg <- acc
  store S <- s
  store M <- m
  store L <- l
  store I <- arg
  store C <- acc
})"},
    // f64 per thread: arithmetic with literals in f64, max, min, sqrt and
    // abs of f64, row sums, maxima and an argmax in f64, all where f32
    // would round the values together.
    {"f64 row reductions per thread", "sm_80", "",
     R"(kernel f64_rows(X: global f64[N, 8], S: global f64[N], M: global f64[N], I: global i32[N], Y: global f64[N, 8], Z: global f64[N, 8]) where N % 32 == 0 grid (N / 32) block 32 {
  let i = block.x * 32 + lane
  reg x: f64[1, 8]
  reg z: f64[1, 8]
  reg s: f64[1]
  reg m: f64[1]
  reg best: f64[1] = -inf
  reg arg: i32[1] = 0
  load x <- X[i : 1, :]
  x = x * 0.1 + 10000000000.3
  z = max(x, 10000000000.29) - min(x, 10000000000.31) + sqrt(abs(x - 10000000000.3))
  reduce.row sum s <- x
  reduce.row max m <- x
  argmax.row best, arg <- x
  store S[i : 1] <- s
  store M[i : 1] <- m
  store I[i : 1] <- arg
  store Y[i : 1, :] <- x
  store Z[i : 1, :] <- z
})"},
    // An RMSNorm as row_softmax is written: bf16 rows in mma_acc, each
    // warp's sums of squares combined through shared memory, a scalar
    // parameter, rsqrt, a bf16 weight vector broadcast over the rows.
    {"an RMSNorm over mma_acc rows", "sm_80", "",
     R"(const C = 1024

kernel rmsnorm(X: global bf16[R, C], W: global bf16[C], Y: global bf16[R, C], eps: f32)
  where R % 16 == 0
  grid (R / 16)
  block 128
{
  smem pss: f32[4][16]
  smem w: bf16[C]
  let wi = warp.id
  reg x: bf16[16, 256] layout(mma_acc)
  reg f: f32[16, 256] layout(mma_acc)
  reg ss: f32[16] layout(mma_acc.row)
  reg t: f32[16] layout(mma_acc.row)
  reg l: f32[16] layout(mma_acc.row) = 0
  load x <- X[block.x * 16 : 16, wi * 256 : 256]
  cp.async w[wi * 256 : 256] <- W[wi * 256 : 256]
  cp.async.commit
  f = cvt<f32>(x)
  f = f * f
  reduce.row sum ss <- f
  store pss[wi] <- ss
  cp.async.wait 0
  syncthreads
  for i in 0 .. 4 {
    load t <- pss[i]
    l = l + t
  }
  l = rsqrt(l * 0.0009765625 + eps)
  f = cvt<f32>(x) * l * cvt<f32>(w[wi * 256 : 256])
  x = cvt<bf16>(f)
  store Y[block.x * 16 : 16, wi * 256 : 256] <- x
})"},
    // A GEMM epilogue: bias from shared memory and a per-row scale over
    // the accumulator, relu, bf16 through shared memory by stmatrix; an
    // i8 fragment in mma_acc written element-wise (packed four to a
    // register, wrapping), scaled in place and read back.
    {"a GEMM epilogue, and 8-bit integers in mma_acc written element-wise", "sm_90", "stmatrix",
     R"(kernel epi(A: global bf16[M, 32], B: global bf16[N, 32], Bias: global f32[N], S: global f32[M], Y: global bf16[M, N], Q: global i8[M, N], P: global i32[M, N])
  where M % 32 == 0, N % 64 == 0
  grid (N / 64, M / 32)
  block 64
{
  smem bias: f32[64]
  smem c: bf16[2][16, 64] swizzle(128B)
  let wr = warp.id
  reg a: bf16[16, 32] layout(mma_acc)
  reg b: bf16[64, 32] layout(mma_acc)
  reg acc: f32[16, 64] layout(mma_acc) = 0
  reg sc: f32[16] layout(mma_acc.row)
  reg o: bf16[16, 64] layout(mma_acc)
  reg q: i32[16, 64] layout(mma_acc)
  reg q8: i8[16, 64] layout(mma_acc)
  load a <- A[block.y * 32 + wr * 16 : 16, :]
  load b <- B[block.x * 64 : 64, :]
  load sc <- S[block.y * 32 + wr * 16 : 16]
  mma acc += a @ b.T
  cp.async bias <- Bias[block.x * 64 : 64]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  acc = max(acc + bias, 0.0) * sc
  o = cvt<bf16>(acc)
  stmatrix c[wr] <- o
  syncthreads
  load o <- c[1 - wr]
  store Y[block.y * 32 + (1 - wr) * 16 : 16, block.x * 64 : 64] <- o
  q = col(q) * 37 - row(q) * 5 - 100
  q8 = cvt<i8>(q)
  q8 *= 3
  q = cvt<i32>(q8) * 1000 + q
  store Q[block.y * 32 + wr * 16 : 16, block.x * 64 : 64] <- q8
  store P[block.y * 32 + wr * 16 : 16, block.x * 64 : 64] <- q
})"},
    // A LayerNorm, a thread a row: per-thread [1, 64] tiles loaded from a
    // row's run and gamma/beta from 1-D runs (a tile with fewer dims than
    // the fragment, its unit dim dropped), two reductions a row.
    {"a LayerNorm per thread, tiles of unit dims", "sm_80", "",
     R"(const C = 256

// One thread per row: mean and variance per thread, then normalize with gamma/beta.
kernel layernorm(X: global f32[R, C], G: global f32[C], B: global f32[C], Y: global f32[R, C], eps: f32)
  where R % 64 == 0
  grid (R / 64)
  block 64
{
  let r = block.x * 64 + warp.id * 32 + lane
  reg x: f32[1, 64]
  reg g: f32[1, 64]
  reg b: f32[1, 64]
  reg s: f32[1, 1]
  reg t: f32[1, 1]
  reg mean: f32[1, 1] = 0
  reg var: f32[1, 1] = 0
  for c in 0 .. 4 {
    load x <- X[r : 1, c * 64 : 64]
    reduce.row sum s <- x
    mean = mean + s
  }
  mean = mean * 0.00390625
  for c in 0 .. 4 {
    load x <- X[r : 1, c * 64 : 64]
    x = (x - mean) * (x - mean)
    reduce.row sum t <- x
    var = var + t
  }
  var = rsqrt(var * 0.00390625 + eps)
  for c in 0 .. 4 {
    load x <- X[r : 1, c * 64 : 64]
    load g <- G[c * 64 : 64]
    load b <- B[c * 64 : 64]
    x = (x - mean) * var * g + b
    store Y[r : 1, c * 64 : 64] <- x
  }
})"},
    // A transpose through padded shared memory: each warp's [1, 4] runs
    // of a row loaded by a scalar row index, stored as a column, read back
    // as [4, 1].
    {"a transpose through shared memory, per-thread runs and columns", "sm_80", "",
     R"(kernel transpose(X: global f32[M, N], Y: global f32[N, M]) where M % 32 == 0, N % 32 == 0 grid (N / 32, M / 32) block 256 {
  smem t: f32[32, 33]
  let w = warp.id
  reg v: f32[1, 4]
  reg u: f32[4, 1]
  load v <- X[block.y * 32 + lane, block.x * 32 + w * 4 : 4]
  store t[lane : 1, w * 4 : 4] <- v
  syncthreads
  load u <- t[w * 4 : 4, lane : 1]
  store Y[block.x * 32 + w * 4 : 4, block.y * 32 + lane : 1] <- u
})"},
    // A GEMV, a thread a row: a loop over K in tiles, a row sum's [1, 1]
    // result read as `s[:, 0]`, two f32 scalar parameters.
    {"a GEMV per thread, a part of a row sum's result", "sm_80", "",
     R"(kernel gemv(A: global bf16[M, K], x: global bf16[K], y: global f32[M], alpha: f32, beta: f32) where M % 128 == 0, K % 64 == 0 grid (M / 128) block 128 {
  let row = block.x * 128 + warp.id * 32 + lane
  reg a: bf16[1, 64]
  reg v: bf16[64]
  reg p: f32[1, 64]
  reg s: f32[1, 1]
  reg acc: f32[1] = 0
  reg old: f32[1]
  for k in 0 .. K / 64 {
    load a <- A[row : 1, k * 64 : 64]
    load v <- x[k * 64 : 64]
    p = cvt<f32>(a) * cvt<f32>(v)
    reduce.row sum s <- p
    acc = acc + s[:, 0]
  }
  load old <- y[row : 1]
  acc = alpha * acc + beta * old
  store y[row : 1] <- acc
})"},
    // Parts of per-thread fragments as operands of whole results: a row
    // (`t[1, :]`, over every row), a column (`t[:, 2 : 1]`, over every
    // column), a [1, 4] block, `s[:, 0]` of a row reduction's [4, 1], and
    // a row by one index (`t[3]`: read as element 3 before; written,
    // loaded and stored, refused before).
    {"parts of per-thread fragments as operands", "sm_80", "",
     R"(kernel thread_parts(X: global f32[M, 8], Y: global f32[M, 8], Z: global f32[M, 4], W: global f32[M], V: global f32[M, 8], U: global f32[M, 8]) where M % 128 == 0 grid (M / 128) block 32 {
  let i = block.x * 32 + lane
  reg x: f32[4, 8]
  reg t: f32[4, 8]
  reg s: f32[4, 1]
  reg z: f32[4, 4]
  reg w: f32[4]
  reg v: f32[8]
  load x <- X[i * 4 : 4, :]
  t = x * 2.0 - 1.0
  reduce.row max s <- x
  v = t[3] * 2.0 + x[0]
  t[1] = t[0] * 0.5 - x[2]
  t[2] += t[1]
  load t[0] <- X[i * 4 + 3, :]
  store U[i * 4 : 4, :] <- t
  store U[i * 4 + 1, :] <- t[3]
  x = x * t[1, :] + t[:, 2 : 1]
  z = x[:, 4 : 4] - t[2 : 1, 0 : 4] * s[:, 0]
  w = s[:, 0] + x[:, 7]
  store Y[i * 4 : 4, :] <- x
  store Z[i * 4 : 4, :] <- z
  store W[i * 4 : 4] <- w
  store V[i, :] <- v
})"},
    // Lanes of a warp exchange values through shared memory (another
    // lane's store, then a load; a store under `if lane == 3` read by
    // every lane), and two stores to one global row from different lanes:
    // the language orders a warp's accesses, and without __syncwarp()
    // between them the host runtime's lanes ran each statement pair alone
    // (34 of 64 values differed; the row store 12 of 256).
    {"lanes of a warp exchanging values through memory", "sm_80", "",
     R"(kernel lanes(X: global f32[N] row_major, Y: global f32[N] row_major, A: global f32[N, 16] row_major, B: global f32[N, 16] row_major) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  smem t: f32[1]
  reg x: f32
  reg y: f32
  reg z: f32
  reg a: f32[16, 16] layout(mma_acc)
  load x <- X[block.x * 32 + lane]
  store s[31 - lane] <- x
  if lane == 3 {
    store t[0] <- x
  }
  load y <- s[lane]
  load z <- t[0]
  y = y * 2.0 + z
  store Y[block.x * 32 + lane] <- y
  if block.x * 32 + 16 <= N {
    load a <- A[block.x * 16 : 16, :]
    store B[block.x * 16 : 16, :] <- a
    store B[block.x * 16 + 7, :] <- a[3]
  }
})"},
    // Lanes exchanging values through shared memory inside code some lanes
    // skip: two stores and a load under `if lane < 16`, its `else` reading
    // what the `then` lanes wrote (the language runs the branches one after
    // the other), an `elect` among lanes 8 .. 31 (lane 8 is elected), and a
    // loop whose bounds read `lane` (the same range for every lane here; see
    // the strided form below) passing values round the warp a slot per
    // iteration.
    // The host runtime's lanes ran each branch and the loop alone before
    // the lowering met them by a ballot's mask (__syncwarp(mask)): 16 of 32
    // values of Y and 28 of Z differed; the elect chose lane 0, which was
    // not there.
    {"lanes exchanging values through memory inside lane-divergent code", "sm_80", "",
     R"(kernel split(X: global f32[N] row_major, Y: global f32[N] row_major, Z: global f32[N] row_major) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  smem t: f32[16]
  smem u: f32[1]
  reg x: f32
  reg y: f32
  reg z: f32
  reg v: f32
  load x <- X[block.x * 32 + lane]
  if lane < 16 {
    store s[15 - lane] <- x
    load y <- s[lane]
    store t[lane] <- y
  } else {
    load y <- t[(31 - lane) % 16]
    y = y + x
  }
  if lane >= 8 {
    elect {
      store u[0] <- x
    }
    load v <- u[0]
    y = y + v
  }
  store Y[block.x * 32 + lane] <- y
  z = x * 3.0
  let w = lane / 32
  for k in w .. w + 4 {
    store s[(lane + k) % 32] <- z
    load z <- s[(lane + k + 1) % 32]
  }
  store Z[block.x * 32 + lane] <- z
})"},
    // The strided per-lane loop (`for k in lane .. 40 step 32`): lanes 0 .. 7
    // run two trips, the others one, so the lowering runs it while any lane
    // still iterates, a ballot per iteration; partners exchange values in
    // an iteration (`t[k ^ 1]`), and a second loop reads what another lane
    // wrote in the first. The CPU executor refused such a loop before (the
    // lanes' trips differ); without the ballot's meetings 20 of 40 values
    // of Z differed on the host.
    {"a loop whose trips differ between lanes, exchanging values", "sm_80", "",
     R"(kernel strided(X: global f32[N, 40], Y: global f32[N, 40], Z: global f32[N, 40]) where N >= 1 grid (N) block 32 {
  smem s: f32[40]
  smem t: f32[40]
  reg x: f32
  reg y: f32
  for k in lane .. 40 step 32 {
    load x <- X[block.x, k]
    store s[39 - k] <- x
    store t[k] <- x
    load y <- t[k ^ 1]
    store Z[block.x, k] <- y
  }
  for k in lane .. 40 step 32 {
    load x <- s[k]
    x = x * 2.0
    store Y[block.x, k] <- x
  }
})"},
    // Lanes exchanging values across a loop's trips, with no barrier in the
    // loop: a trip reads what the next lane stored in the trip before. The
    // lowering's meets (codegen/src/meets.cpp) walk the body until what
    // reaches its head stops growing; walked once, the meet before the
    // load was missing and 30 of 32 values of Y differed on the host.
    {"lanes exchanging values across a loop's trips", "sm_80", "",
     R"(kernel carried(X: global f32[N], Y: global f32[N]) where N % 32 == 0 grid (N / 32) block 32 {
  smem s: f32[32]
  reg x: f32
  reg y: f32
  load x <- X[block.x * 32 + lane]
  store s[lane] <- x
  syncthreads
  for k in 0 .. 4 {
    load y <- s[(lane + 1) % 32]
    y = y * 0.5 + x
    store s[lane] <- y
  }
  syncthreads
  load y <- s[lane]
  store Y[block.x * 32 + lane] <- y
})"},
    // cp.async inside elect.warp: each warp's elected thread copies its
    // warp's row whole (refused before: no group of threads to split it).
    {"cp.async by each warp's elected thread", "sm_80", "",
     R"(kernel ew(X: global f32[N, 32], Y: global f32[N, 32]) where N % 4 == 0 grid (N / 4) block 128 {
  smem s: f32[4, 32]
  reg y: f32[1, 32]
  elect.warp {
    cp.async s[warp.id : 1, :] <- X[block.x * 4 + warp.id : 1, :]
    cp.async.commit
    cp.async.wait 0
  }
  syncthreads
  load y <- s[3 - warp.id : 1, :]
  y = y * 2.0
  if lane == 0 {
    store Y[block.x * 4 + 3 - warp.id : 1, :] <- y
  }
})"},
    // f16 arithmetic of several operations (`a * h - b`), computed in f32
    // and rounded once when stored, as the lowering computes it: the
    // executor rounded after each operation (144 of 4096 values differed).
    // Then a part of the tile moved within it, and a row dot product.
    {"16-bit float arithmetic of several operations in mma_acc", "sm_80", "",
     R"(kernel rowdot(A: global f16[M, 64], B: global f16[M, 64], Y: global f32[M], Z: global f16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  reg a: f16[16, 64] layout(mma_acc)
  reg b: f16[16, 64] layout(mma_acc)
  reg p: f32[16, 64] layout(mma_acc)
  reg s: f32[16] layout(mma_acc.row)
  reg h: f16[16] layout(mma_acc.row)
  let r = block.x * 64 + warp.id * 16
  load a <- A[r : 16, :]
  load b <- B[r : 16, :]
  p = cvt<f32>(a) * cvt<f32>(b)
  reduce.row sum s <- p
  h = cvt<f16>(s)
  a = a * h - b
  a[0 : 8, :] = a[8 : 8, :]
  store Y[r : 16] <- s
  store Z[r : 16, :] <- a
})"},
    // Per thread, one value to a byte: cvt<f8e4m3> beyond 448 saturates
    // (.satfinite), cvt<f32> decodes exactly.
    {"8-bit floats per thread", "sm_89", "reg y: f8e4m3[8]",
     R"(kernel f8_cvt(X: global f32[N, 8], Y: global f8e4m3[N, 8], Z: global f32[N, 8], W: global f8e5m2[N, 8]) where N % 128 == 0 grid (N / 128) block 128 {
  let i = block.x * 128 + warp.id * 32 + lane
  reg x: f32[8]
  reg y: f8e4m3[8]
  reg w: f8e5m2[8]
  reg z: f32[8]
  load x <- X[i, :]
  y = cvt<f8e4m3>(x * 1000.0)
  w = cvt<f8e5m2>(x * 3000.0)
  z = cvt<f32>(y) + cvt<f32>(w)
  store Y[i, :] <- y
  store W[i, :] <- w
  store Z[i, :] <- z
})"},
    // In mma_acc, four to a register: an FP8 epilogue stored, reloaded and
    // decoded.
    {"8-bit floats in an accumulator layout", "sm_89", "reg o: f8e4m3[16, 16] layout(mma_acc)",
     R"(kernel f8_acc(A: global bf16[M, 16], B: global bf16[N, 16], C: global f8e4m3[M, N], D: global f32[M, N]) where M % 16 == 0, N % 16 == 0 grid (N / 16, M / 16) block 32 {
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[16, 16] layout(mma_acc)
  reg o: f8e4m3[16, 16] layout(mma_acc)
  load a <- A[block.y * 16 : 16, :]
  load b <- B[block.x * 16 : 16, :]
  mma acc += a @ b.T
  o = cvt<f8e4m3>(acc * 64.0)
  store C[block.y * 16 : 16, block.x * 16 : 16] <- o
  load o <- C[block.y * 16 : 16, block.x * 16 : 16]
  acc = cvt<f32>(o) * 0.5
  store D[block.y * 16 : 16, block.x * 16 : 16] <- acc
})"},
    // mma_acc fragments of an odd multiple of 8 rows (16-row tiles, then a
    // row of half tiles, rows g only): an [N, K] B of 24 rows (three n8
    // tiles: m16n8k16's B of the half tile's one register) by ldmatrix .x4
    // and .x2, an [8, 16] f32 tile written element-wise with row() and
    // col() and reduced into its mma_acc.row, an [8, 8] bf16 one by
    // ldmatrix .x1.
    {"mma_acc fragments of an odd multiple of 8 rows", "sm_80", "",
     R"(kernel n8_tiles(A: global bf16[M, 16], B: global bf16[N, 16], C: global f32[M, N], X: global f32[M, 16], Y: global f32[M, 16], Z: global f32[M], H: global bf16[M, 8], G: global bf16[M, 8]) where M % 16 == 0, N % 24 == 0 grid (N / 24, M / 16) block 32 {
  smem sb: bf16[24, 16] swizzle(32B)
  smem sh: bf16[8, 8]
  reg acc: f32[16, 24] layout(mma_acc)
  reg a: bf16[16, 16] layout(mma_acc)
  reg b: bf16[24, 16] layout(mma_acc)
  reg x: f32[8, 16] layout(mma_acc)
  reg m: f32[8] layout(mma_acc.row)
  reg h: bf16[8, 8] layout(mma_acc)
  load a <- A[block.y * 16 : 16, :]
  cp.async sb <- B[block.x * 24 : 24, :]
  cp.async sh <- H[block.y * 16 + 8 : 8, :]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix b <- sb
  mma acc = a @ b.T
  store C[block.y * 16 : 16, block.x * 24 : 24] <- acc
  load x <- X[block.y * 16 + 8 : 8, :]
  x = x * 2.0 + cvt<f32>(col(x)) - cvt<f32>(row(x))
  reduce.row max m <- x
  x = x - m
  store Y[block.y * 16 + 8 : 8, :] <- x
  store Z[block.y * 16 + 8 : 8] <- m
  ldmatrix h <- sh
  h = h * 3.0
  store G[block.y * 16 + 8 : 8, :] <- h
})"},
    // 8-bit floats by stmatrix (sm_90+): from the accumulator layout
    // (gathered into ldmatrix's order, plain and 64B-swizzled), and as a
    // plain ldmatrix left them; each read back per thread.
    // Per-thread runs of 16- and 8-bit values in swizzled, staged shared
    // memory: each thread's 8 values one 16- or 8-byte access at their
    // swizzled address (a swizzle moves whole 16-byte chunks).
    {"8- and 16-bit runs in swizzled, staged shared memory", "sm_80", "",
     R"(kernel words_swizzled(X: global bf16[16, 64], W: global i8[16, 64], Y: global bf16[16, 64], Z: global i8[16, 64]) grid (1) block 128 {
  smem s: bf16[2][16, 64] swizzle(128B)
  smem b: i8[2][16, 64] swizzle(64B)
  reg v: bf16[8]
  reg w: i8[8]
  let r = (warp.id * 32 + lane) / 8
  let c = ((warp.id * 32 + lane) % 8) * 8
  cp.async s[1] <- X
  cp.async b[0] <- W
  cp.async.commit
  cp.async.wait 0
  syncthreads
  load v <- s[1][r, c : 8]
  v = v * 2.0
  store s[0][r, c : 8] <- v
  load w <- b[0][r, c : 8]
  w = w * 3
  store b[1][r, c : 8] <- w
  syncthreads
  load v <- s[0][r, c : 8]
  store Y[r, c : 8] <- v
  load w <- b[1][r, c : 8]
  store Z[r, c : 8] <- w
})"},
    {"8-bit floats by stmatrix", "sm_90", "stmatrix",
     R"(kernel f8_stmatrix(X: global f32[32, 64], Y: global f8e4m3[32, 64], Z: global f8e4m3[32, 64]) grid (1) block 32 {
  smem sy: f8e4m3[32, 64]
  smem sz: f8e4m3[32, 64] swizzle(64B)
  smem sw: f8e4m3[32, 64] swizzle(64B)
  reg x: f32[32, 64] layout(mma_acc)
  reg e: f8e4m3[32, 64] layout(mma_acc)
  reg o: f8e4m3[32, 64] layout(mma_acc)
  reg y: f8e4m3[64]
  load x <- X
  e = cvt<f8e4m3>(x * 10.0 + cvt<f32>(col(x)))
  stmatrix sy <- e
  stmatrix sz <- e
  syncthreads
  load y <- sy[lane, :]
  store Y[lane, :] <- y
  ldmatrix o <- sz
  stmatrix sw <- o
  syncthreads
  load y <- sw[lane, :]
  store Z[lane, :] <- y
})"},
    // Row reductions of packed fragments into .row vectors of their type:
    // bf16 (two to a register), e4m3 (four, an argmax too) and tf32.
    {"row reductions of packed fragments", "sm_89", "reg e: f8e4m3[16, 32] layout(mma_acc)",
     R"(kernel packed_rows(X: global f32[M, 32], Y: global bf16[M], Z: global f8e4m3[M], A: global f8e4m3[M], I: global i32[M], T: global tf32[M]) where M % 16 == 0 grid (M / 16) block 32 {
  reg x: f32[16, 32] layout(mma_acc)
  reg h: bf16[16, 32] layout(mma_acc)
  reg e: f8e4m3[16, 32] layout(mma_acc)
  reg f: tf32[16, 32] layout(mma_acc)
  reg mx: bf16[16] layout(mma_acc.row)
  reg sm: f8e4m3[16] layout(mma_acc.row)
  reg best: f8e4m3[16] layout(mma_acc.row) = -inf
  reg arg: i32[16] layout(mma_acc.row) = 0
  reg t: tf32[16] layout(mma_acc.row)
  load x <- X[block.x * 16 : 16, :]
  h = cvt<bf16>(x * 3.0)
  e = cvt<f8e4m3>(x * 10.0)
  f = cvt<tf32>(x * 1.3)
  reduce.row max mx <- h
  reduce.row sum sm <- e
  argmax.row best, arg <- e
  reduce.row sum t <- f
  store Y[block.x * 16 : 16] <- mx
  store Z[block.x * 16 : 16] <- sm
  store A[block.x * 16 : 16] <- best
  store I[block.x * 16 : 16] <- arg
  store T[block.x * 16 : 16] <- t
})"},
    // Fragments of an odd number of 16 x 8 tiles (4n + 2 registers): a
    // [16, 24] tile by ldmatrix .x4 then .x2 and back by stmatrix, a [16, 8]
    // one by .x2 alone; a [24, 8] one (a whole tile and a half one) by .x2
    // then .x1. stmatrix is sm_90+. (`trans` needs the transpose to be whole
    // tiles: columns a multiple of 16, so 4n registers.)
    {"16-bit fragments of 4n + 2 registers by ldmatrix and stmatrix", "sm_90", "stmatrix",
     R"(kernel x2_matrices(X: global bf16[16, 24], Y: global bf16[16, 8], C: global bf16[16, 24], D: global bf16[16, 8], Z: global bf16[24, 8], W: global bf16[24, 8]) grid (1) block 32 {
  smem sx: bf16[16, 24]
  smem sy: bf16[16, 8]
  smem sc: bf16[16, 24]
  smem sd: bf16[16, 8]
  smem sz: bf16[24, 8]
  smem sw: bf16[24, 8]
  reg x: bf16[16, 24] layout(mma_acc)
  reg y: bf16[16, 8] layout(mma_acc)
  reg z: bf16[24, 8] layout(mma_acc)
  cp.async sx <- X
  cp.async sy <- Y
  cp.async sz <- Z
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix x <- sx
  stmatrix sc <- x
  ldmatrix y <- sy
  stmatrix sd <- y
  ldmatrix z <- sz
  stmatrix sw <- z
  syncthreads
  ldmatrix x <- sc
  store C <- x
  ldmatrix y <- sd
  store D <- y
  ldmatrix z <- sw
  store W <- z
})"},
    // 8-bit integers as mma.sync operands (m16n8k32 into s32): s8 tiles
    // loaded into mma_acc (negative values packed four to a register) and
    // gathered each k-step, `=` then `+=`; a u8 GEMM's k-loop by cp.async
    // and ldmatrix (no gathering).
    {"8-bit integers as mma.sync operands", "sm_80", "",
     R"(kernel i8_mma(A: global i8[M, 64], B: global i8[N, 64], D: global i32[M, N]) where M % 32 == 0, N % 16 == 0 grid (N / 16, M / 32) block 32 {
  reg acc: i32[32, 16] layout(mma_acc)
  reg a: i8[32, 64] layout(mma_acc)
  reg b: i8[16, 64] layout(mma_acc)
  load a <- A[block.y * 32 : 32, :]
  load b <- B[block.x * 16 : 16, :]
  mma acc = a @ b.T
  mma acc += a @ b.T, accumulate(block.y == 0)
  store D[block.y * 32 : 32, block.x * 16 : 16] <- acc
})"},
    {"8-bit integers by ldmatrix as mma.sync operands", "sm_80", "",
     ldmatrix_gemm("u8_ldmatrix_mma", "u8", "i32", 64, "64B")},
    // tf32 (an f32 rounded to 10 mantissa bits) as mma.sync operands
    // (m16n8k8): loaded into mma_acc and gathered each k-step (B of 24 rows:
    // a whole tile and a half one), `=` then `+=`; a tf32 fragment written element-wise (cvt<tf32> and a plain
    // product both round to nearest even), per thread too, and stored.
    {"tf32 as mma.sync operands", "sm_80", "",
     R"(kernel tf32_mma(A: global tf32[M, 16], B: global tf32[N, 16], X: global f32[M, 16], D: global f32[M, N], E: global tf32[M, 16], F: global tf32[M, 16]) where M % 32 == 0, N % 24 == 0 grid (N / 24, M / 32) block 32 {
  reg acc: f32[32, 24] layout(mma_acc)
  reg a: tf32[32, 16] layout(mma_acc)
  reg b: tf32[24, 16] layout(mma_acc)
  reg x: f32[32, 16] layout(mma_acc)
  reg y: tf32[16]
  load a <- A[block.y * 32 : 32, :]
  load b <- B[block.x * 24 : 24, :]
  load x <- X[block.y * 32 : 32, :]
  mma acc = a @ b.T
  a = cvt<tf32>(x * 3.0) + a
  mma acc += a @ b.T, accumulate(block.x > 0)
  store D[block.y * 32 : 32, block.x * 24 : 24] <- acc
  store E[block.y * 32 : 32, :] <- a
  load y <- A[block.y * 32 + lane, :]
  y = y * 1.7
  store F[block.y * 32 + lane, :] <- y
})"},
    // A tf32 GEMM's k-loop: cp.async tiles, ldmatrix into the m16n8k8
    // operand layout (no gathering).
    {"tf32 by ldmatrix as mma.sync operands", "sm_80", "",
     ldmatrix_gemm("tf32_ldmatrix_mma", "tf32", "f32", 32, "128B")},
    // 8-bit floats as mma.sync operands (m16n8k32, sm_89+): e4m3 A and e5m2
    // B in mma_acc fragments, each k-step's operands gathered from the
    // accumulator layout; `=` then `+=`.
    {"8-bit floats as mma.sync operands", "sm_89", "a",
     R"(kernel f8_mma(A: global f8e4m3[M, 64], B: global f8e5m2[N, 64], D: global f32[M, N]) where M % 32 == 0, N % 16 == 0 grid (N / 16, M / 32) block 32 {
  reg acc: f32[32, 16] layout(mma_acc)
  reg a: f8e4m3[32, 64] layout(mma_acc)
  reg b: f8e5m2[16, 64] layout(mma_acc)
  load a <- A[block.y * 32 : 32, :]
  load b <- B[block.x * 16 : 16, :]
  mma acc = a @ b.T
  mma acc += a @ b.T
  store D[block.y * 32 : 32, block.x * 16 : 16] <- acc
})"},
    // 8-bit B operands with a half tile (N an odd multiple of 8: rows g
    // only): e4m3 A by an e5m2 B of 24 rows (a whole 16-row tile and a
    // half), and s8 by an s8 B of 8 rows (the half tile alone), each k-step's
    // half row gathered by CAKE_F8_OPERAND_HALF.
    {"8-bit mma.sync B operands of an odd multiple of 8 rows", "sm_89", "a",
     R"(kernel f8_half_b(A: global f8e4m3[M, 64], B: global f8e5m2[N, 64], A8: global i8[M, 32], B8: global i8[N, 32], D: global f32[M, N], E: global i32[M, 8]) where M % 16 == 0, N % 24 == 0 grid (N / 24, M / 16) block 32 {
  reg acc: f32[16, 24] layout(mma_acc)
  reg a: f8e4m3[16, 64] layout(mma_acc)
  reg b: f8e5m2[24, 64] layout(mma_acc)
  reg iacc: i32[16, 8] layout(mma_acc)
  reg a8: i8[16, 32] layout(mma_acc)
  reg b8: i8[8, 32] layout(mma_acc)
  load a <- A[block.y * 16 : 16, :]
  load b <- B[block.x * 24 : 24, :]
  mma acc = a @ b.T
  store D[block.y * 16 : 16, block.x * 24 : 24] <- acc
  load a8 <- A8[block.y * 16 : 16, :]
  load b8 <- B8[block.x * 24 + 8 : 8, :]
  mma iacc = a8 @ b8.T
  store E[block.y * 16 : 16, :] <- iacc
})"},
    // 8-bit and tf32 tiles by ldmatrix that are also read element-wise (a
    // W8A16 GEMM's dequantised B): kept in the accumulator layout, loaded
    // value by value; the mma gathers its operand from there.
    {"8-bit and tf32 tiles by ldmatrix read element-wise", "sm_80", "",
     R"(kernel ldmatrix_read(A: global bf16[M, 32], A8: global i8[M, 32], B: global i8[N, 32], T: global tf32[M, 8], D: global f32[M, N], E: global i32[M, N], F: global f32[M, 8]) where M % 16 == 0, N % 16 == 0 grid (N / 16, M / 16) block 32 {
  smem sb: i8[16, 32] swizzle(32B)
  smem st: tf32[16, 8] swizzle(32B)
  reg a: bf16[16, 32] layout(mma_acc)
  reg a8: i8[16, 32] layout(mma_acc)
  reg b8: i8[16, 32] layout(mma_acc)
  reg b: bf16[16, 32] layout(mma_acc)
  reg t: tf32[16, 8] layout(mma_acc)
  reg f: f32[16, 8] layout(mma_acc)
  reg acc: f32[16, 16] layout(mma_acc) = 0
  reg iacc: i32[16, 16] layout(mma_acc) = 0
  load a <- A[block.y * 16 : 16, :]
  load a8 <- A8[block.y * 16 : 16, :]
  cp.async sb <- B[block.x * 16 : 16, :]
  cp.async st <- T[block.y * 16 : 16, :]
  cp.async.commit
  cp.async.wait 0
  syncthreads
  ldmatrix b8 <- sb
  b = cvt<bf16>(b8) * 0.25
  mma acc += a @ b.T
  mma iacc += a8 @ b8.T
  ldmatrix t <- st
  f = cvt<f32>(t) * 2.0
  store D[block.y * 16 : 16, block.x * 16 : 16] <- acc
  store E[block.y * 16 : 16, block.x * 16 : 16] <- iacc
  store F[block.y * 16 : 16, :] <- f
})"},
    // An FP8 GEMM's k-loop on sm_89: 8-bit tiles by cp.async, ldmatrix into
    // the m16n8k32 operand layout (no gathering), e4m3 x e4m3.
    {"8-bit floats by ldmatrix as mma.sync operands", "sm_89", "a",
     ldmatrix_gemm("f8_ldmatrix_mma", "f8e4m3", "f32", 64, "64B")},
  };
  return kernels;
}

}  // namespace cake::testing
