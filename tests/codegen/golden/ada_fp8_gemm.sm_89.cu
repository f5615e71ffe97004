#line 10 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(256, 1)
#line 10 "@CAKE_FILE@"
ada_fp8_gemm(unsigned char* __restrict__ A, unsigned char* __restrict__ B, float* __restrict__ C, long long M, long long K, long long N) {
#line 10 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 10 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 10 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 18 "@CAKE_FILE@"
  unsigned char* const sA = (unsigned char*)(cake_smem + 0);  // 24576 bytes
#line 19 "@CAKE_FILE@"
  unsigned char* const sB = (unsigned char*)(cake_smem + 24576);  // 24576 bytes
#line 21 "@CAKE_FILE@"
  // role gemm all {
#line 21 "@CAKE_FILE@"
  {
#line 21 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 21 "@CAKE_FILE@"
    (void)cake_rank;
#line 22 "@CAKE_FILE@"
    // let wm = warp.id / 4
#line 22 "@CAKE_FILE@"
    const long long wm = ((long long)cake_warp / 4LL);
#line 23 "@CAKE_FILE@"
    // let wn = warp.id % 4
#line 23 "@CAKE_FILE@"
    const long long wn = ((long long)cake_warp % 4LL);
#line 24 "@CAKE_FILE@"
    // reg acc: f32[64, 32] layout(mma_acc) = 0
#line 24 "@CAKE_FILE@"
    float acc[64];
#line 24 "@CAKE_FILE@"
    #pragma unroll
#line 24 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 64; ++cake_i) acc[cake_i] = 0.0f;
#line 25 "@CAKE_FILE@"
    // reg a: f8e4m3[64, 64] layout(mma_acc)
#line 25 "@CAKE_FILE@"
    unsigned a[32];
#line 26 "@CAKE_FILE@"
    // reg b: f8e4m3[32, 64] layout(mma_acc)
#line 26 "@CAKE_FILE@"
    unsigned b[16];
#line 28 "@CAKE_FILE@"
    // for p in 0 .. 3 {
#line 28 "@CAKE_FILE@"
    for (long long p = 0LL; p < 3LL; p += 1LL) {
#line 29 "@CAKE_FILE@"
      // if p < K / 64 {
#line 29 "@CAKE_FILE@"
      if ((p < (K / 64LL))) {
#line 30 "@CAKE_FILE@"
        // cp.async sA[p] <- A[block.y * 128 : 128, p * 64 : 64]
#line 30 "@CAKE_FILE@"
        #pragma unroll
#line 30 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 30 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 30 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned char*)((unsigned char*)sA + (p) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 64LL + (cake_p % 4 * 16)) * 1), 7, 3, 4))), &A[((((long long)blockIdx.y * 128LL) + (cake_p / 4))) * K + ((p * 64LL) + (cake_p % 4 * 16))]);
#line 30 "@CAKE_FILE@"
        }
#line 31 "@CAKE_FILE@"
        // cp.async sB[p] <- B[block.x * 128 : 128, p * 64 : 64]
#line 31 "@CAKE_FILE@"
        #pragma unroll
#line 31 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 31 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 31 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned char*)((unsigned char*)sB + (p) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 64LL + (cake_p % 4 * 16)) * 1), 7, 3, 4))), &B[((((long long)blockIdx.x * 128LL) + (cake_p / 4))) * K + ((p * 64LL) + (cake_p % 4 * 16))]);
#line 31 "@CAKE_FILE@"
        }
#line 29 "@CAKE_FILE@"
      }
#line 33 "@CAKE_FILE@"
      // cp.async.commit
#line 33 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 28 "@CAKE_FILE@"
    }
#line 36 "@CAKE_FILE@"
    // pipeline s in ring(3) for kt in 0 .. K / 64 {
#line 36 "@CAKE_FILE@"
    #pragma unroll 1
#line 36 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 36 "@CAKE_FILE@"
      const long long s = kt % 3;
#line 36 "@CAKE_FILE@"
      const long long cake_phase_s = kt / 3 % 2;
#line 36 "@CAKE_FILE@"
      (void)s; (void)cake_phase_s;
#line 37 "@CAKE_FILE@"
      // cp.async.wait 2
#line 37 "@CAKE_FILE@"
      CAKE_CP_ASYNC_WAIT(2);
#line 38 "@CAKE_FILE@"
      // syncthreads
#line 38 "@CAKE_FILE@"
      __syncthreads();
#line 39 "@CAKE_FILE@"
      // ldmatrix a <- sA[s][wm * 64 : 64, :]
#line 39 "@CAKE_FILE@"
      #pragma unroll
#line 39 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 8; ++cake_q)
#line 39 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&a[4 * cake_q], &(*(unsigned char*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE((((((wm * 64LL) + (16 * (cake_q / 2) + 8 * ((int)cake_lane / 8 % 2) + (int)cake_lane % 8))) * 64LL + (32 * (cake_q % 2) + 16 * ((int)cake_lane / 16))) * 1), 7, 3, 4))));
#line 40 "@CAKE_FILE@"
      // ldmatrix b <- sB[s][wn * 32 : 32, :]
#line 40 "@CAKE_FILE@"
      #pragma unroll
#line 40 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 4; ++cake_q)
#line 40 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&b[4 * cake_q], &(*(unsigned char*)((unsigned char*)sB + (s) * 8192 + CAKE_SWIZZLE((((((wn * 32LL) + (16 * (cake_q / 2) + 8 * ((int)cake_lane / 8 % 2) + (int)cake_lane % 8))) * 64LL + (32 * (cake_q % 2) + 16 * ((int)cake_lane / 16))) * 1), 7, 3, 4))));
#line 41 "@CAKE_FILE@"
      // syncthreads
#line 41 "@CAKE_FILE@"
      __syncthreads();
#line 42 "@CAKE_FILE@"
      // if kt + 3 < K / 64 {
#line 42 "@CAKE_FILE@"
      if (((kt + 3LL) < (K / 64LL))) {
#line 43 "@CAKE_FILE@"
        // cp.async sA[s] <- A[block.y * 128 : 128, (kt + 3) * 64 : 64]
#line 43 "@CAKE_FILE@"
        #pragma unroll
#line 43 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 43 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 43 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned char*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 64LL + (cake_p % 4 * 16)) * 1), 7, 3, 4))), &A[((((long long)blockIdx.y * 128LL) + (cake_p / 4))) * K + (((kt + 3LL) * 64LL) + (cake_p % 4 * 16))]);
#line 43 "@CAKE_FILE@"
        }
#line 44 "@CAKE_FILE@"
        // cp.async sB[s] <- B[block.x * 128 : 128, (kt + 3) * 64 : 64]
#line 44 "@CAKE_FILE@"
        #pragma unroll
#line 44 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 44 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 256;
#line 44 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned char*)((unsigned char*)sB + (s) * 8192 + CAKE_SWIZZLE(((((cake_p / 4)) * 64LL + (cake_p % 4 * 16)) * 1), 7, 3, 4))), &B[((((long long)blockIdx.x * 128LL) + (cake_p / 4))) * K + (((kt + 3LL) * 64LL) + (cake_p % 4 * 16))]);
#line 44 "@CAKE_FILE@"
        }
#line 42 "@CAKE_FILE@"
      }
#line 46 "@CAKE_FILE@"
      // cp.async.commit
#line 46 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 47 "@CAKE_FILE@"
      // mma acc += a @ b.T
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 2; ++cake_k) {
#line 47 "@CAKE_FILE@"
        unsigned cake_fa[4][4], cake_fb[2][4];
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
        for (int cake_t = 0; cake_t < 4; ++cake_t) for (int cake_j = 0; cake_j < 4; ++cake_j) cake_fa[cake_t][cake_j] = a[4 * (cake_t * 2 + cake_k) + cake_j];
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
        for (int cake_t = 0; cake_t < 2; ++cake_t) for (int cake_j = 0; cake_j < 4; ++cake_j) cake_fb[cake_t][cake_j] = b[4 * (cake_t * 2 + cake_k) + cake_j];
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
        for (int cake_m = 0; cake_m < 4; ++cake_m)
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
          for (int cake_n = 0; cake_n < 4; ++cake_n)
#line 47 "@CAKE_FILE@"
            CAKE_MMA_M16N8K32("e4m3", "e4m3", &acc[4 * (cake_m * 4 + cake_n)], cake_fa[cake_m], cake_fb[cake_n / 2][cake_n % 2], cake_fb[cake_n / 2][2 + cake_n % 2]);
#line 47 "@CAKE_FILE@"
      }
#line 36 "@CAKE_FILE@"
    }
#line 49 "@CAKE_FILE@"
    // store C[block.y * 128 + wm * 64 : 64, block.x * 128 + wn * 32 : 32] <- acc
#line 49 "@CAKE_FILE@"
    {
#line 49 "@CAKE_FILE@"
      auto* const cake_corner = &C[(((((long long)blockIdx.y * 128LL) + (wm * 64LL)) + cake_lane / 4)) * N + ((((long long)blockIdx.x * 128LL) + (wn * 32LL)) + 2 * (cake_lane % 4))];
#line 49 "@CAKE_FILE@"
      #pragma unroll
#line 49 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 32; ++cake_j) CAKE_ST_PAIR_F32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 4) + 8 * ((((2 * cake_j)) % 4) / 2))) * N + (8 * ((((2 * cake_j)) / 4) % 4) + (((2 * cake_j)) % 2))], acc[2 * cake_j], acc[2 * cake_j + 1]);
#line 49 "@CAKE_FILE@"
    }
#line 21 "@CAKE_FILE@"
  }
#line 51 "@CAKE_FILE@"
}
