#line 8 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(256, 1)
#line 8 "@CAKE_FILE@"
ampere_gemm(unsigned short* __restrict__ A, unsigned short* __restrict__ B, float* __restrict__ C, long long M, long long K, long long N) {
#line 8 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 8 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 8 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 16 "@CAKE_FILE@"
  unsigned short* const sA = (unsigned short*)(cake_smem + 0);  // 24576 bytes
#line 17 "@CAKE_FILE@"
  unsigned short* const sB = (unsigned short*)(cake_smem + 24576);  // 24576 bytes
#line 19 "@CAKE_FILE@"
  // role gemm all {
#line 19 "@CAKE_FILE@"
  {
#line 19 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 19 "@CAKE_FILE@"
    (void)cake_rank;
#line 20 "@CAKE_FILE@"
    // let wm = warp.id / 4
#line 20 "@CAKE_FILE@"
    const long long wm = ((long long)cake_warp / 4LL);
#line 21 "@CAKE_FILE@"
    // let wn = warp.id % 4
#line 21 "@CAKE_FILE@"
    const long long wn = ((long long)cake_warp % 4LL);
#line 22 "@CAKE_FILE@"
    // reg acc: f32[64, 32] layout(mma_acc) = 0
#line 22 "@CAKE_FILE@"
    float acc[64];
#line 22 "@CAKE_FILE@"
    #pragma unroll
#line 22 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 64; ++cake_i) acc[cake_i] = 0.0f;
#line 23 "@CAKE_FILE@"
    // reg a: bf16[64, 32] layout(mma_acc)
#line 23 "@CAKE_FILE@"
    unsigned a[32];
#line 24 "@CAKE_FILE@"
    // reg b: bf16[32, 32] layout(mma_acc)
#line 24 "@CAKE_FILE@"
    unsigned b[16];
#line 27 "@CAKE_FILE@"
    // for p in 0 .. 3 {
#line 27 "@CAKE_FILE@"
    for (long long p = 0LL; p < 3LL; p += 1LL) {
#line 28 "@CAKE_FILE@"
      // if p < K / 32 {
#line 28 "@CAKE_FILE@"
      if ((p < (K / 32LL))) {
#line 29 "@CAKE_FILE@"
        // cp.async sA[p] <- A[block.y * 128 : 128, p * 32 : 32]
#line 29 "@CAKE_FILE@"
        #pragma unroll
#line 29 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 29 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 29 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sA + (p) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &A[((((long long)blockIdx.y * 128LL) + (cake_p / 4))) * K + ((p * 32LL) + (cake_p % 4 * 8))]);
#line 29 "@CAKE_FILE@"
        }
#line 30 "@CAKE_FILE@"
        // cp.async sB[p] <- B[block.x * 128 : 128, p * 32 : 32]
#line 30 "@CAKE_FILE@"
        #pragma unroll
#line 30 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 30 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 30 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sB + (p) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &B[((((long long)blockIdx.x * 128LL) + (cake_p / 4))) * K + ((p * 32LL) + (cake_p % 4 * 8))]);
#line 30 "@CAKE_FILE@"
        }
#line 28 "@CAKE_FILE@"
      }
#line 32 "@CAKE_FILE@"
      // cp.async.commit
#line 32 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 27 "@CAKE_FILE@"
    }
#line 35 "@CAKE_FILE@"
    // pipeline s in ring(3) for kt in 0 .. K / 32 {
#line 35 "@CAKE_FILE@"
    #pragma unroll 1
#line 35 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (K / 32LL); kt += 1LL) {
#line 35 "@CAKE_FILE@"
      const long long s = kt % 3;
#line 35 "@CAKE_FILE@"
      const long long cake_phase_s = kt / 3 % 2;
#line 35 "@CAKE_FILE@"
      (void)s; (void)cake_phase_s;
#line 36 "@CAKE_FILE@"
      // cp.async.wait 2
#line 36 "@CAKE_FILE@"
      CAKE_CP_ASYNC_WAIT(2);
#line 37 "@CAKE_FILE@"
      // syncthreads
#line 37 "@CAKE_FILE@"
      __syncthreads();
#line 38 "@CAKE_FILE@"
      // ldmatrix a <- sA[s][wm * 64 : 64, :]
#line 38 "@CAKE_FILE@"
      #pragma unroll
#line 38 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 8; ++cake_q)
#line 38 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&a[4 * cake_q], &(*(unsigned short*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE((((((wm * 64LL) + (8 * (2 * (((4 * cake_q + (int)cake_lane / 8)) / 2 / 4) + ((4 * cake_q + (int)cake_lane / 8)) % 2) + (int)cake_lane % 8))) * 32LL + (8 * (((4 * cake_q + (int)cake_lane / 8)) / 2 % 4))) * 2), 7, 3, 4))));
#line 39 "@CAKE_FILE@"
      // ldmatrix b <- sB[s][wn * 32 : 32, :]
#line 39 "@CAKE_FILE@"
      #pragma unroll
#line 39 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 4; ++cake_q)
#line 39 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&b[4 * cake_q], &(*(unsigned short*)((unsigned char*)sB + (s) * 8192 + CAKE_SWIZZLE((((((wn * 32LL) + (8 * (2 * (((4 * cake_q + (int)cake_lane / 8)) / 2 / 4) + ((4 * cake_q + (int)cake_lane / 8)) % 2) + (int)cake_lane % 8))) * 32LL + (8 * (((4 * cake_q + (int)cake_lane / 8)) / 2 % 4))) * 2), 7, 3, 4))));
#line 40 "@CAKE_FILE@"
      // syncthreads
#line 40 "@CAKE_FILE@"
      __syncthreads();
#line 41 "@CAKE_FILE@"
      // if kt + 3 < K / 32 {                      // uniform: refill stage s with k-tile kt + 3
#line 41 "@CAKE_FILE@"
      if (((kt + 3LL) < (K / 32LL))) {
#line 42 "@CAKE_FILE@"
        // cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 32 : 32]
#line 42 "@CAKE_FILE@"
        #pragma unroll
#line 42 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 42 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 42 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &A[((((long long)blockIdx.y * 128LL) + (cake_p / 4))) * K + (((kt + 3LL) * 32LL) + (cake_p % 4 * 8))]);
#line 42 "@CAKE_FILE@"
        }
#line 43 "@CAKE_FILE@"
        // cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 32 : 32]
#line 43 "@CAKE_FILE@"
        #pragma unroll
#line 43 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 43 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 43 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sB + (s) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &B[((((long long)blockIdx.x * 128LL) + (cake_p / 4))) * K + (((kt + 3LL) * 32LL) + (cake_p % 4 * 8))]);
#line 43 "@CAKE_FILE@"
        }
#line 41 "@CAKE_FILE@"
      }
#line 45 "@CAKE_FILE@"
      // cp.async.commit
#line 45 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 46 "@CAKE_FILE@"
      // mma acc += a @ b.T
#line 46 "@CAKE_FILE@"
      #pragma unroll
#line 46 "@CAKE_FILE@"
      for (int cake_m = 0; cake_m < 4; ++cake_m)
#line 46 "@CAKE_FILE@"
      #pragma unroll
#line 46 "@CAKE_FILE@"
      for (int cake_n = 0; cake_n < 4; ++cake_n)
#line 46 "@CAKE_FILE@"
      #pragma unroll
#line 46 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 2; ++cake_k)
#line 46 "@CAKE_FILE@"
        CAKE_MMA_M16N8K16("bf16", &acc[4 * (cake_m * 4 + cake_n)], &a[(2 * ((2 * cake_m) / 2 * 4 + (2 * cake_k)) + (2 * cake_m) % 2)], b[(2 * ((cake_n) / 2 * 4 + (2 * cake_k)) + (cake_n) % 2)], b[(2 * ((cake_n) / 2 * 4 + (2 * cake_k + 1)) + (cake_n) % 2)]);
#line 35 "@CAKE_FILE@"
    }
#line 48 "@CAKE_FILE@"
    // store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- acc
#line 48 "@CAKE_FILE@"
    {
#line 48 "@CAKE_FILE@"
      auto* const cake_corner = &C[(((((long long)blockIdx.y * 128LL) + (wm * 64LL)) + cake_lane / 4)) * N + ((((long long)blockIdx.x * 128LL) + (wn * 32LL)) + 2 * (cake_lane % 4))];
#line 48 "@CAKE_FILE@"
      #pragma unroll
#line 48 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 32; ++cake_j) CAKE_ST_PAIR_F32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 4) + 8 * ((((2 * cake_j)) % 4) / 2))) * N + (8 * ((((2 * cake_j)) / 4) % 4) + (((2 * cake_j)) % 2))], acc[2 * cake_j], acc[2 * cake_j + 1]);
#line 48 "@CAKE_FILE@"
    }
#line 19 "@CAKE_FILE@"
  }
#line 50 "@CAKE_FILE@"
}
