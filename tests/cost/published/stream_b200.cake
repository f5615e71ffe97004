target sm_100a

// BabelStream "mul" (b = scalar * c) over 8-bit integers as CUB's
// DeviceTransform runs it on sm_100 since NVIDIA/cccl pull request 9481
// (commit fb3c9451): its ublkcp kernel, 128 threads, one 4 KiB tile a CTA
// (32 bytes a thread: 64 KiB in flight per SM at 16 CTAs), brought into
// shared memory by one bulk copy on an mbarrier, then read back, scaled and
// stored 16 bytes at a time (STG.128), each thread's chunks 2 KiB apart.

kernel stream_mul_bulk(
    C: global i8[N] row_major,
    B: global i8[N] row_major)
  where N % 4096 == 0
  grid (N / 4096)
  block 128
{
  smem tile: i8[4096]
  mbarrier full

  role all all {
    let t = warp.id * 32 + lane
    elect {
      arrive.expect_tx full, bytes(tile)
      bulk.load tile <- C[block.x * 4096 : 4096], full
    }
    wait full parity(0)
    reg x: i8[16]
    for i in 0 .. 2 {
      load x <- tile[i * 2048 + t * 16 : 16]
      x = x * 3
      store B[block.x * 4096 + i * 2048 + t * 16 : 16] <- x
    }
  }
}

bench stream_mul_bulk { N = 268435456 }
