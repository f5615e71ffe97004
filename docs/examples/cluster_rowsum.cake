target sm_90a

// Y = the sum of each row of X[R, C] f32, C = 4096, with each row's columns split
// over the 4 CTAs of a cluster (1024 each). Each warp sums its 16 x 256 slice of
// 16 rows; every warp of every CTA writes its partial sums into CTA 0's shared
// memory through a dsmem view; after a cluster.sync CTA 0 adds the 16 partials.
// (The DSMEM reduction of a cluster, as a LayerNorm over long rows uses it.)

const C = 4096

kernel cluster_rowsum(
    X: global f32[R, C] row_major,
    Y: global f32[R] row_major)
  where R % 16 == 0
  grid (4, R / 16)                          // x: the cluster's 4 column quarters
  block 128                                 // 4 warps
  cluster (4, 1)
{
  smem part: f32[16][16]                   // CTA 0's: partial row sums of each (CTA, warp)
  dsmem lead = part cta(0)                 // CTA 0's `part`, seen from any CTA of the cluster

  role rows all {
    let w = warp.id                                 // columns cluster.rank * 1024 + w * 256 .. + 256
    reg x:     f32[16, 256] layout(mma_acc)        // 128 regs per thread
    reg ps:    f32[16] layout(mma_acc.row)          // one value per row
    reg t:     f32[16] layout(mma_acc.row)
    reg total: f32[16] layout(mma_acc.row) = 0

    load x <- X[block.y * 16 : 16, cluster.rank * 1024 + w * 256 : 256]
    reduce.row sum ps <- x
    store lead[cluster.rank * 4 + w] <- ps          // into CTA 0, whichever CTA this is
    cluster.sync                                    // every partial in CTA 0; none of its readers gone
    if cluster.rank == 0 {
      for i in 0 .. 16 {
        load t <- part[i]
        total = total + t
      }
      if w == 0 {
        store Y[block.y * 16 : 16] <- total
      }
    }
  }
}

// The reference for `cake run`: one thread per row, a scalar sum in column order.

kernel cluster_rowsum_ref(
    X: global f32[R, C] row_major,
    Y: global f32[R] row_major)
  grid (cdiv(R, 128))                            // one thread per row: any R
  block 128
{
  let i = block.x * 128 + warp.id * 32 + lane    // this thread's row
  reg x: f32
  reg s: f32 = 0
  if i < R {
    for k in 0 .. C {
      load x <- X[i, k]
      s = s + x
    }
    store Y[i] <- s
  }
}

bench cluster_rowsum { R = 65536 } reference cluster_rowsum_ref
