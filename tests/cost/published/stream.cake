target sm_80

// BabelStream "mul" (b = scalar * c) over 8-bit integers, as CUB's
// DeviceTransform benchmark runs it: a streaming kernel, one read and one
// write of every element. Here each thread loads 16 consecutive bytes (one
// 128-bit access), scales them and stores them; 256 threads per CTA.
// Published: NVIDIA/cccl pull request 7019 (A100-SXM4-80GB), element
// type I8, 2^28 elements (results.json). The B200 result is CUB's bulk-copy
// kernel, written as it runs (stream_b200.cake).

kernel stream_mul(
    C: global i8[N] row_major,
    B: global i8[N] row_major)
  where N % 4096 == 0
  grid (N / 4096)
  block 256
{
  role all all {
    let t = warp.id * 32 + lane
    reg x: i8[16]
    load x <- C[block.x * 4096 + t * 16 : 16]
    x = x * 3
    store B[block.x * 4096 + t * 16 : 16] <- x
  }
}

bench stream_mul { N = 268435456 }
