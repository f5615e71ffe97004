target sm_90a

// The SMs of an H100 or H200 SXM (132), two CTAs of a cluster each: a
// stream-K kernel launches one CTA per SM.
const CLUSTERS = 66

// The published H100/H200 GEMMs (results.json), each as the schedule CAKE IR
// can write closest to the published one. cuBLAS, Triton and DeepGEMM do not
// publish every kernel's tile; where the source does not, the kernel is the
// CUTLASS-class default for the dtype on sm_90a: a 128 x 256 CTA tile, a TMA
// producer warpgroup feeding a 4-stage ring of 128B-swizzled tiles, two wgmma
// consumer warpgroups of 64 x 256, the epilogue from registers. cuBLAS's and
// DeepGEMM's kernels run in a 2-CTA cluster along M (cluster (1, 2) over this
// grid): each CTA loads half of the B tile both share and multicasts it, and
// each consumer releases a stage on both CTAs' `empty`, which counts the four
// consumer warpgroups of the pair. What the language cannot write (persistent
// CTAs with tile rasterisation, a TMA-store epilogue overlapping the next
// tile) is named per result in results.json.

// bf16 in, f32 accumulate, bf16 out; 64-wide k-tiles (128 B rows), wgmma m64n256k16.
kernel wgmma_bf16_128x256(
    A: global bf16[M, K] row_major,
    B: global bf16[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 128)
  block 384
  cluster (1, 2)
{
  smem sA: bf16[4][128, 64] swizzle(128B)
  smem sB: bf16[4][256, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(4)
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        tma.load sA[s] <- tA[block.y * 128, kt * 64], full[s]
        tma.load sB[s][cluster.rank * 128 : 128, :] <- tB[block.x * 256 + cluster.rank * 128, kt * 64], full[s] multicast(3)
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    reg o: bf16[64, 256] layout(wgmma_acc)
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] multicast(3) }
    }
    o = cvt<bf16>(acc)
    store C[block.y * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
  }
}

// f16 in, f32 accumulate, f16 out.
kernel wgmma_f16_128x256(
    A: global f16[M, K] row_major,
    B: global f16[N, K] row_major,
    C: global f16[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 64 == 0, K >= 64
  grid (N / 256, M / 128)
  block 384
  cluster (1, 2)
{
  smem sA: f16[4][128, 64] swizzle(128B)
  smem sB: f16[4][256, 64] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(4)
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        tma.load sA[s] <- tA[block.y * 128, kt * 64], full[s]
        tma.load sB[s][cluster.rank * 128 : 128, :] <- tB[block.x * 256 + cluster.rank * 128, kt * 64], full[s] multicast(3)
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    reg o: f16[64, 256] layout(wgmma_acc)
    pipeline s in ring(4) for kt in 0 .. K / 64 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] multicast(3) }
    }
    o = cvt<f16>(acc)
    store C[block.y * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
  }
}

// f8e4m3 in (per-tensor scaled), f32 accumulate; 128-wide k-tiles (128 B
// rows), m64n256k32. Stream-K over the 66 clusters of an H100/H200 (132 SMs,
// one CTA each): the pairs' 256 x 256 tiles times their k-tiles, in order
// (N fastest, then M, each tile's k-tiles in a row), split into 66 equal
// runs, one per cluster. A cluster's CTAs take the two 128-row halves of
// each pair tile, B multicast as above. A consumer adds its accumulator into
// C (f32, zeroed before) at the end of each tile or of its run, and starts
// the next tile from zero: a tile split between two clusters is summed by
// both adds.
kernel wgmma_f8_128x256_c2_sk(
    A: global f8e4m3[M, K] row_major,
    B: global f8e4m3[N, K] row_major,
    C: global f32[M, N] row_major)
  where M % 256 == 0, N % 256 == 0, K % 128 == 0, K >= 128
  grid (1, 2 * CLUSTERS)
  block 384
  cluster (1, 2)
{
  smem sA: f8e4m3[4][128, 128] swizzle(128B)
  smem sB: f8e4m3[4][256, 128] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(4)
  tensormap tA = A box [128, 128] swizzle(128B)
  tensormap tB = B box [128, 128] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    let units = (M / 256) * (N / 256) * (K / 128)
    let first = (block.y / 2) * units / CLUSTERS
    let last = (block.y / 2 + 1) * units / CLUSTERS
    elect {
      pipeline s in ring(4) for j in 0 .. last - first {
        let tile = (first + j) / (K / 128)
        let kt = (first + j) % (K / 128)
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        tma.load sA[s] <- tA[tile / (N / 256) * 256 + cluster.rank * 128, kt * 128], full[s]
        tma.load sB[s][cluster.rank * 128 : 128, :] <- tB[tile % (N / 256) * 256 + cluster.rank * 128, kt * 128], full[s] multicast(3)
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    let units = (M / 256) * (N / 256) * (K / 128)
    let first = (block.y / 2) * units / CLUSTERS
    let last = (block.y / 2 + 1) * units / CLUSTERS
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    pipeline s in ring(4) for j in 0 .. last - first {
      let tile = (first + j) / (K / 128)
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] multicast(3) }
      if (first + j) % (K / 128) == K / 128 - 1 || first + j == last - 1 {
        store.add C[tile / (N / 256) * 256 + cluster.rank * 128 + wg * 64 : 64, tile % (N / 256) * 256 : 256] <- acc
        acc = 0.0
      }
    }
  }
}

// The same FP8 schedule without a cluster: Triton's tutorial kernel (num_ctas 1).
kernel wgmma_f8_128x256(
    A: global f8e4m3[M, K] row_major,
    B: global f8e4m3[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 128 == 0, N % 256 == 0, K % 128 == 0, K >= 128
  grid (N / 256, M / 128)
  block 384
{
  smem sA: f8e4m3[4][128, 128] swizzle(128B)
  smem sB: f8e4m3[4][256, 128] swizzle(128B)
  mbarrier full[4]
  mbarrier empty[4] count(2)
  tensormap tA = A box [128, 128] swizzle(128B)
  tensormap tB = B box [256, 128] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(4) for kt in 0 .. K / 128 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        tma.load sA[s] <- tA[block.y * 128, kt * 128], full[s]
        tma.load sB[s] <- tB[block.x * 256, kt * 128], full[s]
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    reg o: bf16[64, 256] layout(wgmma_acc)
    pipeline s in ring(4) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] }
    }
    o = cvt<bf16>(acc)
    store C[block.y * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
  }
}

// DeepGEMM's FP8 GEMM (deepseek-ai/DeepGEMM) at its 128 x 128 block tile: a
// TMA producer warpgroup, two consumer warpgroups of 64 x 128, a 6-stage
// ring of 128-wide k-tiles, and its "two-level accumulation": each k-tile's
// wgmma result is added into a second f32 accumulator on the CUDA cores
// (DeepGEMM scales it by the per-block scales there; this kernel adds it;
// each k-tile's first wgmma overwrites the partial accumulator, as
// DeepGEMM passes its k-step index as scale-d, instead of zeroing it),
// in the 2-CTA cluster whose multicast DeepGEMM picks for M >= 512.
kernel deepgemm_f8_128x128(
    A: global f8e4m3[M, K] row_major,
    B: global f8e4m3[N, K] row_major,
    C: global bf16[M, N] row_major)
  where M % 256 == 0, N % 128 == 0, K % 128 == 0, K >= 128
  grid (N / 128, M / 128)
  block 384
  cluster (1, 2)
{
  smem sA: f8e4m3[6][128, 128] swizzle(128B)
  smem sB: f8e4m3[6][128, 128] swizzle(128B)
  mbarrier full[6]
  mbarrier empty[6] count(4)
  tensormap tA = A box [128, 128] swizzle(128B)
  tensormap tB = B box [64, 128] swizzle(128B)

  role producer warpgroup(0) maxnreg(40) {
    elect {
      pipeline s in ring(6) for kt in 0 .. K / 128 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
        tma.load sA[s] <- tA[block.y * 128, kt * 128], full[s]
        tma.load sB[s][cluster.rank * 64 : 64, :] <- tB[block.x * 128 + cluster.rank * 64, kt * 128], full[s] multicast(3)
      }
    }
  }

  role consumer warpgroup(1, 2) maxnreg(232) {
    let wg = role.rank
    reg part: f32[64, 128] layout(wgmma_acc) = 0
    reg total: f32[64, 128] layout(wgmma_acc) = 0
    reg o: bf16[64, 128] layout(wgmma_acc)
    pipeline s in ring(6) for kt in 0 .. K / 128 {
      wait full[s] parity(s.phase)
      wgmma.fence
      wgmma part = sA[s][wg * 64 : 64, :] @ sB[s].T   // its first k-step overwrites (scale-d 0), as DeepGEMM's
      wgmma.commit
      wgmma.wait 0
      elect.warpgroup { arrive empty[s] multicast(3) }
      total = total + part
    }
    o = cvt<bf16>(total)
    store C[block.y * 128 + wg * 64 : 64, block.x * 128 : 128] <- o
  }
}

bench wgmma_bf16_128x256 { M = 2048, N = 2048, K = 13312 }
bench wgmma_bf16_128x256 { M = 6144, N = 8192, K = 8192 }
bench wgmma_f16_128x256 { M = 2048, N = 8192, K = 8192 }
bench wgmma_f8_128x256_c2_sk { M = 1024, N = 9216, K = 14336 }
bench wgmma_f8_128x256_c2_sk { M = 1280, N = 4096, K = 12032 }
bench wgmma_f8_128x256 { M = 3584, N = 3584, K = 3584 }
bench deepgemm_f8_128x128 { M = 1024, N = 18432, K = 7168 }
bench deepgemm_f8_128x128 { M = 4096, N = 7168, K = 16384 }
bench deepgemm_f8_128x128 { M = 4096, N = 24576, K = 1536 }
