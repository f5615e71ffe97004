#line 67 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 67 "@CAKE_FILE@"
blackwell_gemm_ref(unsigned short* __restrict__ A, unsigned short* __restrict__ B, unsigned short* __restrict__ C, long long M, long long K, long long N) {
#line 67 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 67 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 67 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 67 "@CAKE_FILE@"
  (void)cake_rank;
#line 75 "@CAKE_FILE@"
  // let i = block.y
#line 75 "@CAKE_FILE@"
  const long long i = (long long)blockIdx.y;
#line 76 "@CAKE_FILE@"
  // let j = block.x * 128 + warp.id * 32 + lane
#line 76 "@CAKE_FILE@"
  const long long j = ((((long long)blockIdx.x * 128LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 77 "@CAKE_FILE@"
  // reg acc: f32 = 0
#line 77 "@CAKE_FILE@"
  float acc[1];
#line 77 "@CAKE_FILE@"
  { const int cake_i = 0; acc[cake_i] = 0.0f; }
#line 78 "@CAKE_FILE@"
  // reg a: bf16
#line 78 "@CAKE_FILE@"
  unsigned short a[1];
#line 79 "@CAKE_FILE@"
  // reg b: bf16
#line 79 "@CAKE_FILE@"
  unsigned short b[1];
#line 80 "@CAKE_FILE@"
  // reg c: bf16
#line 80 "@CAKE_FILE@"
  unsigned short c[1];
#line 81 "@CAKE_FILE@"
  // for k in 0 .. K {
#line 81 "@CAKE_FILE@"
  #pragma unroll 1
#line 81 "@CAKE_FILE@"
  for (long long k = 0LL; k < K; k += 1LL) {
#line 82 "@CAKE_FILE@"
    // load a <- A[i, k]
#line 82 "@CAKE_FILE@"
    { const int cake_i = 0; a[cake_i] = A[(i) * K + k]; }
#line 83 "@CAKE_FILE@"
    // load b <- B[j, k]
#line 83 "@CAKE_FILE@"
    { const int cake_i = 0; b[cake_i] = B[(j) * K + k]; }
#line 84 "@CAKE_FILE@"
    // acc += cvt<f32>(a) * cvt<f32>(b)
#line 84 "@CAKE_FILE@"
    { const int cake_i = 0; acc[cake_i] = (acc[cake_i] + (CAKE_BF16_F32(a[0]) * CAKE_BF16_F32(b[0]))); }
#line 81 "@CAKE_FILE@"
  }
#line 86 "@CAKE_FILE@"
  // c = cvt<bf16>(acc)
#line 86 "@CAKE_FILE@"
  { const int cake_i = 0; c[cake_i] = CAKE_F32_BF16(acc[0]); }
#line 87 "@CAKE_FILE@"
  // store C[i, j] <- c
#line 87 "@CAKE_FILE@"
  { const int cake_i = 0; C[(i) * N + j] = c[cake_i]; }
#line 88 "@CAKE_FILE@"
}
