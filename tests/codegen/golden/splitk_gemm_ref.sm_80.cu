#line 61 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(64, 1)
#line 61 "@CAKE_FILE@"
splitk_gemm_ref(unsigned short* __restrict__ A, unsigned short* __restrict__ B, float* __restrict__ C, long long M, long long K, long long N) {
#line 61 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 61 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 61 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 61 "@CAKE_FILE@"
  (void)cake_rank;
#line 69 "@CAKE_FILE@"
  // let i = block.y
#line 69 "@CAKE_FILE@"
  const long long i = (long long)blockIdx.y;
#line 70 "@CAKE_FILE@"
  // let j = block.x * 64 + warp.id * 32 + lane
#line 70 "@CAKE_FILE@"
  const long long j = ((((long long)blockIdx.x * 64LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 71 "@CAKE_FILE@"
  // reg acc: f32
#line 71 "@CAKE_FILE@"
  float acc[1];
#line 72 "@CAKE_FILE@"
  // reg a: bf16
#line 72 "@CAKE_FILE@"
  unsigned short a[1];
#line 73 "@CAKE_FILE@"
  // reg b: bf16
#line 73 "@CAKE_FILE@"
  unsigned short b[1];
#line 74 "@CAKE_FILE@"
  // load acc <- C[i, j]
#line 74 "@CAKE_FILE@"
  { const int cake_i = 0; acc[cake_i] = C[(i) * N + j]; }
#line 75 "@CAKE_FILE@"
  // for k in 0 .. K {
#line 75 "@CAKE_FILE@"
  #pragma unroll 1
#line 75 "@CAKE_FILE@"
  for (long long k = 0LL; k < K; k += 1LL) {
#line 76 "@CAKE_FILE@"
    // load a <- A[i, k]
#line 76 "@CAKE_FILE@"
    { const int cake_i = 0; a[cake_i] = A[(i) * K + k]; }
#line 77 "@CAKE_FILE@"
    // load b <- B[j, k]
#line 77 "@CAKE_FILE@"
    { const int cake_i = 0; b[cake_i] = B[(j) * K + k]; }
#line 78 "@CAKE_FILE@"
    // acc += cvt<f32>(a) * cvt<f32>(b)
#line 78 "@CAKE_FILE@"
    { const int cake_i = 0; acc[cake_i] = (acc[cake_i] + (CAKE_BF16_F32(a[0]) * CAKE_BF16_F32(b[0]))); }
#line 75 "@CAKE_FILE@"
  }
#line 80 "@CAKE_FILE@"
  // store C[i, j] <- acc
#line 80 "@CAKE_FILE@"
  __syncwarp();
#line 80 "@CAKE_FILE@"
  { const int cake_i = 0; C[(i) * N + j] = acc[cake_i]; }
#line 81 "@CAKE_FILE@"
}
