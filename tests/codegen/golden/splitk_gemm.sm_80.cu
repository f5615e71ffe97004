#line 13 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 13 "@CAKE_FILE@"
splitk_gemm(unsigned short* __restrict__ A, unsigned short* __restrict__ B, float* __restrict__ C, long long M, long long K, long long N) {
#line 13 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 13 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 13 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 21 "@CAKE_FILE@"
  unsigned short* const sA = (unsigned short*)(cake_smem + 0);  // 12288 bytes
#line 22 "@CAKE_FILE@"
  unsigned short* const sB = (unsigned short*)(cake_smem + 12288);  // 12288 bytes
#line 24 "@CAKE_FILE@"
  // role gemm all {
#line 24 "@CAKE_FILE@"
  {
#line 24 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 24 "@CAKE_FILE@"
    (void)cake_rank;
#line 25 "@CAKE_FILE@"
    // let wm = warp.id / 2
#line 25 "@CAKE_FILE@"
    const long long wm = ((long long)cake_warp / 2LL);
#line 26 "@CAKE_FILE@"
    // let wn = warp.id % 2
#line 26 "@CAKE_FILE@"
    const long long wn = ((long long)cake_warp % 2LL);
#line 27 "@CAKE_FILE@"
    // let k0 = block.z * (K / (32 * SPLITS)) * 32
#line 27 "@CAKE_FILE@"
    const long long k0 = (((long long)blockIdx.z * (K / 128LL)) * 32LL);
#line 28 "@CAKE_FILE@"
    // reg acc: f32[32, 32] layout(mma_acc) = 0
#line 28 "@CAKE_FILE@"
    float acc[32];
#line 28 "@CAKE_FILE@"
    #pragma unroll
#line 28 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 32; ++cake_i) acc[cake_i] = 0.0f;
#line 29 "@CAKE_FILE@"
    // reg a: bf16[32, 32] layout(mma_acc)
#line 29 "@CAKE_FILE@"
    unsigned a[16];
#line 30 "@CAKE_FILE@"
    // reg b: bf16[32, 32] layout(mma_acc)
#line 30 "@CAKE_FILE@"
    unsigned b[16];
#line 33 "@CAKE_FILE@"
    // for p in 0 .. 3 {
#line 33 "@CAKE_FILE@"
    for (long long p = 0LL; p < 3LL; p += 1LL) {
#line 34 "@CAKE_FILE@"
      // if p < K / (32 * SPLITS) {
#line 34 "@CAKE_FILE@"
      if ((p < (K / 128LL))) {
#line 35 "@CAKE_FILE@"
        // cp.async sA[p] <- A[block.y * 64 : 64, k0 + p * 32 : 32]
#line 35 "@CAKE_FILE@"
        #pragma unroll
#line 35 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 35 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 128;
#line 35 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sA + (p) * 4096 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &A[((((long long)blockIdx.y * 64LL) + (cake_p / 4))) * K + ((k0 + (p * 32LL)) + (cake_p % 4 * 8))]);
#line 35 "@CAKE_FILE@"
        }
#line 36 "@CAKE_FILE@"
        // cp.async sB[p] <- B[block.x * 64 : 64, k0 + p * 32 : 32]
#line 36 "@CAKE_FILE@"
        #pragma unroll
#line 36 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 36 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 128;
#line 36 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sB + (p) * 4096 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &B[((((long long)blockIdx.x * 64LL) + (cake_p / 4))) * K + ((k0 + (p * 32LL)) + (cake_p % 4 * 8))]);
#line 36 "@CAKE_FILE@"
        }
#line 34 "@CAKE_FILE@"
      }
#line 38 "@CAKE_FILE@"
      // cp.async.commit
#line 38 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 33 "@CAKE_FILE@"
    }
#line 41 "@CAKE_FILE@"
    // pipeline s in ring(3) for kt in 0 .. K / (32 * SPLITS) {
#line 41 "@CAKE_FILE@"
    #pragma unroll 1
#line 41 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (K / 128LL); kt += 1LL) {
#line 41 "@CAKE_FILE@"
      const long long s = kt % 3;
#line 41 "@CAKE_FILE@"
      const long long cake_phase_s = kt / 3 % 2;
#line 41 "@CAKE_FILE@"
      (void)s; (void)cake_phase_s;
#line 42 "@CAKE_FILE@"
      // cp.async.wait 2
#line 42 "@CAKE_FILE@"
      CAKE_CP_ASYNC_WAIT(2);
#line 43 "@CAKE_FILE@"
      // syncthreads
#line 43 "@CAKE_FILE@"
      __syncthreads();
#line 44 "@CAKE_FILE@"
      // ldmatrix a <- sA[s][wm * 32 : 32, :]
#line 44 "@CAKE_FILE@"
      #pragma unroll
#line 44 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 4; ++cake_q)
#line 44 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&a[4 * cake_q], &(*(unsigned short*)((unsigned char*)sA + (s) * 4096 + CAKE_SWIZZLE((((((wm * 32LL) + (8 * (2 * (((4 * cake_q + (int)cake_lane / 8)) / 2 / 4) + ((4 * cake_q + (int)cake_lane / 8)) % 2) + (int)cake_lane % 8))) * 32LL + (8 * (((4 * cake_q + (int)cake_lane / 8)) / 2 % 4))) * 2), 7, 3, 4))));
#line 45 "@CAKE_FILE@"
      // ldmatrix b <- sB[s][wn * 32 : 32, :]
#line 45 "@CAKE_FILE@"
      #pragma unroll
#line 45 "@CAKE_FILE@"
      for (int cake_q = 0; cake_q < 4; ++cake_q)
#line 45 "@CAKE_FILE@"
        CAKE_LDMATRIX_X4(&b[4 * cake_q], &(*(unsigned short*)((unsigned char*)sB + (s) * 4096 + CAKE_SWIZZLE((((((wn * 32LL) + (8 * (2 * (((4 * cake_q + (int)cake_lane / 8)) / 2 / 4) + ((4 * cake_q + (int)cake_lane / 8)) % 2) + (int)cake_lane % 8))) * 32LL + (8 * (((4 * cake_q + (int)cake_lane / 8)) / 2 % 4))) * 2), 7, 3, 4))));
#line 46 "@CAKE_FILE@"
      // syncthreads
#line 46 "@CAKE_FILE@"
      __syncthreads();
#line 47 "@CAKE_FILE@"
      // if kt + 3 < K / (32 * SPLITS) {           // uniform: refill stage s with k-tile kt + 3
#line 47 "@CAKE_FILE@"
      if (((kt + 3LL) < (K / 128LL))) {
#line 48 "@CAKE_FILE@"
        // cp.async sA[s] <- A[block.y * 64 : 64, k0 + (kt + 3) * 32 : 32]
#line 48 "@CAKE_FILE@"
        #pragma unroll
#line 48 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 48 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 128;
#line 48 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sA + (s) * 4096 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &A[((((long long)blockIdx.y * 64LL) + (cake_p / 4))) * K + ((k0 + ((kt + 3LL) * 32LL)) + (cake_p % 4 * 8))]);
#line 48 "@CAKE_FILE@"
        }
#line 49 "@CAKE_FILE@"
        // cp.async sB[s] <- B[block.x * 64 : 64, k0 + (kt + 3) * 32 : 32]
#line 49 "@CAKE_FILE@"
        #pragma unroll
#line 49 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 49 "@CAKE_FILE@"
          const int cake_p = (int)threadIdx.x + cake_j * 128;
#line 49 "@CAKE_FILE@"
          CAKE_CP_ASYNC_16(&(*(unsigned short*)((unsigned char*)sB + (s) * 4096 + CAKE_SWIZZLE(((((cake_p / 4)) * 32LL + (cake_p % 4 * 8)) * 2), 7, 3, 4))), &B[((((long long)blockIdx.x * 64LL) + (cake_p / 4))) * K + ((k0 + ((kt + 3LL) * 32LL)) + (cake_p % 4 * 8))]);
#line 49 "@CAKE_FILE@"
        }
#line 47 "@CAKE_FILE@"
      }
#line 51 "@CAKE_FILE@"
      // cp.async.commit
#line 51 "@CAKE_FILE@"
      CAKE_CP_ASYNC_COMMIT();
#line 52 "@CAKE_FILE@"
      // mma acc += a @ b.T
#line 52 "@CAKE_FILE@"
      #pragma unroll
#line 52 "@CAKE_FILE@"
      for (int cake_m = 0; cake_m < 2; ++cake_m)
#line 52 "@CAKE_FILE@"
      #pragma unroll
#line 52 "@CAKE_FILE@"
      for (int cake_n = 0; cake_n < 4; ++cake_n)
#line 52 "@CAKE_FILE@"
      #pragma unroll
#line 52 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 2; ++cake_k)
#line 52 "@CAKE_FILE@"
        CAKE_MMA_M16N8K16("bf16", &acc[4 * (cake_m * 4 + cake_n)], &a[(2 * ((2 * cake_m) / 2 * 4 + (2 * cake_k)) + (2 * cake_m) % 2)], b[(2 * ((cake_n) / 2 * 4 + (2 * cake_k)) + (cake_n) % 2)], b[(2 * ((cake_n) / 2 * 4 + (2 * cake_k + 1)) + (cake_n) % 2)]);
#line 41 "@CAKE_FILE@"
    }
#line 54 "@CAKE_FILE@"
    // store.add C[block.y * 64 + wm * 32 : 32, block.x * 64 + wn * 32 : 32] <- acc
#line 54 "@CAKE_FILE@"
    {
#line 54 "@CAKE_FILE@"
      auto* const cake_corner = &C[(((((long long)blockIdx.y * 64LL) + (wm * 32LL)) + cake_lane / 4)) * N + ((((long long)blockIdx.x * 64LL) + (wn * 32LL)) + 2 * (cake_lane % 4))];
#line 54 "@CAKE_FILE@"
      #pragma unroll
#line 54 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 32; ++cake_i) CAKE_RED_ADD("f32", "f", &cake_corner[((16 * (((cake_i) / 4) / 4) + 8 * (((cake_i) % 4) / 2))) * N + (8 * (((cake_i) / 4) % 4) + ((cake_i) % 2))], acc[cake_i]);
#line 54 "@CAKE_FILE@"
    }
#line 24 "@CAKE_FILE@"
  }
#line 56 "@CAKE_FILE@"
}
