target sm_90a

// One CTA, serial: N barrier round trips (lat_barrier_cycles), and N plain
// global loads, each waiting for the one before (lat_global_cycles).

kernel barriers(A: global f32[N] row_major)
  grid (1)
  block 128
{
  role all_threads all {
    for i in 0 .. N {
      syncthreads
    }
  }
}

kernel chase(A: global f32[N, 16] row_major)
  grid (1)
  block 32
{
  role chaser all {
    reg x: f32[16, 8] layout(mma_acc)
    for i in 0 .. N / 16 {
      load x <- A[i * 16 : 16, 0 : 8]
    }
  }
}

bench barriers { N = 100000 }
bench barriers { N = 20000 }
bench chase { N = 160000 }
bench chase { N = 32000 }
