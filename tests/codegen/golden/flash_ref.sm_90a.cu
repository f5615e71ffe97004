#line 89 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(64, 1)
#line 89 "@CAKE_FILE@"
flash_ref(unsigned short* __restrict__ Q, unsigned short* __restrict__ K, unsigned short* __restrict__ V, float* __restrict__ O, long long S) {
#line 89 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 89 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 89 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 98 "@CAKE_FILE@"
  float* const sc = (float*)(cake_smem + 0);  // 256 bytes
#line 89 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 89 "@CAKE_FILE@"
  (void)cake_rank;
#line 99 "@CAKE_FILE@"
  // let q = block.x
#line 99 "@CAKE_FILE@"
  const long long q = (long long)blockIdx.x;
#line 100 "@CAKE_FILE@"
  // let d = warp.id * 32 + lane
#line 100 "@CAKE_FILE@"
  const long long d = (((long long)cake_warp * 32LL) + cake_lane);
#line 101 "@CAKE_FILE@"
  // reg a: bf16
#line 101 "@CAKE_FILE@"
  unsigned short a[1];
#line 102 "@CAKE_FILE@"
  // reg b: bf16
#line 102 "@CAKE_FILE@"
  unsigned short b[1];
#line 103 "@CAKE_FILE@"
  // reg v: bf16
#line 103 "@CAKE_FILE@"
  unsigned short v[1];
#line 104 "@CAKE_FILE@"
  // reg dot: f64
#line 104 "@CAKE_FILE@"
  double dot[1];
#line 105 "@CAKE_FILE@"
  // reg pv: f64
#line 105 "@CAKE_FILE@"
  double pv[1];
#line 106 "@CAKE_FILE@"
  // reg x: f32
#line 106 "@CAKE_FILE@"
  float x[1];
#line 107 "@CAKE_FILE@"
  // reg m: f32 = -inf
#line 107 "@CAKE_FILE@"
  float m[1];
#line 107 "@CAKE_FILE@"
  { const int cake_i = 0; m[cake_i] = (-CAKE_INF); }
#line 108 "@CAKE_FILE@"
  // reg mt: f32
#line 108 "@CAKE_FILE@"
  float mt[1];
#line 109 "@CAKE_FILE@"
  // reg c: f32
#line 109 "@CAKE_FILE@"
  float c[1];
#line 110 "@CAKE_FILE@"
  // reg l: f32 = 0
#line 110 "@CAKE_FILE@"
  float l[1];
#line 110 "@CAKE_FILE@"
  { const int cake_i = 0; l[cake_i] = 0.0f; }
#line 111 "@CAKE_FILE@"
  // reg rs: f32
#line 111 "@CAKE_FILE@"
  float rs[1];
#line 112 "@CAKE_FILE@"
  // reg acc: f32 = 0
#line 112 "@CAKE_FILE@"
  float acc[1];
#line 112 "@CAKE_FILE@"
  { const int cake_i = 0; acc[cake_i] = 0.0f; }
#line 113 "@CAKE_FILE@"
  // for t in 0 .. q / 64 + 1 {
#line 113 "@CAKE_FILE@"
  #pragma unroll 1
#line 113 "@CAKE_FILE@"
  for (long long t = 0LL; t < ((q / 64LL) + 1LL); t += 1LL) {
#line 114 "@CAKE_FILE@"
    // dot = 0
#line 114 "@CAKE_FILE@"
    { const int cake_i = 0; dot[cake_i] = 0.0; }
#line 115 "@CAKE_FILE@"
    // for k in 0 .. 64 {
#line 115 "@CAKE_FILE@"
    for (long long k = 0LL; k < 64LL; k += 1LL) {
#line 116 "@CAKE_FILE@"
      // load a <- Q[q, k]
#line 116 "@CAKE_FILE@"
      { const int cake_i = 0; a[cake_i] = Q[(q) * 64LL + k]; }
#line 117 "@CAKE_FILE@"
      // load b <- K[t * 64 + d, k]
#line 117 "@CAKE_FILE@"
      { const int cake_i = 0; b[cake_i] = K[(((t * 64LL) + d)) * 64LL + k]; }
#line 118 "@CAKE_FILE@"
      // dot += cvt<f64>(a) * cvt<f64>(b)
#line 118 "@CAKE_FILE@"
      { const int cake_i = 0; dot[cake_i] = (dot[cake_i] + ((double)(CAKE_BF16_F32(a[0])) * (double)(CAKE_BF16_F32(b[0])))); }
#line 115 "@CAKE_FILE@"
    }
#line 120 "@CAKE_FILE@"
    // x = cvt<f32>(dot) * 0.18033688011112042
#line 120 "@CAKE_FILE@"
    { const int cake_i = 0; x[cake_i] = ((float)(dot[0]) * 0.18033688f); }
#line 121 "@CAKE_FILE@"
    // store sc[d] <- x
#line 121 "@CAKE_FILE@"
    { const int cake_i = 0; sc[d] = x[cake_i]; }
#line 122 "@CAKE_FILE@"
    // syncthreads
#line 122 "@CAKE_FILE@"
    __syncthreads();
#line 123 "@CAKE_FILE@"
    // mt = m
#line 123 "@CAKE_FILE@"
    { const int cake_i = 0; mt[cake_i] = m[0]; }
#line 124 "@CAKE_FILE@"
    // for j in 0 .. min(64, q + 1 - t * 64) {
#line 124 "@CAKE_FILE@"
    #pragma unroll 1
#line 124 "@CAKE_FILE@"
    for (long long j = 0LL; j < (64LL < ((q + 1LL) - (t * 64LL)) ? 64LL : ((q + 1LL) - (t * 64LL))); j += 1LL) {
#line 125 "@CAKE_FILE@"
      // load x <- sc[j]
#line 125 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = sc[j]; }
#line 126 "@CAKE_FILE@"
      // mt = max(mt, x)
#line 126 "@CAKE_FILE@"
      { const int cake_i = 0; mt[cake_i] = CAKE_MAX(mt[0], x[0]); }
#line 124 "@CAKE_FILE@"
    }
#line 128 "@CAKE_FILE@"
    // c = exp2(m - mt)
#line 128 "@CAKE_FILE@"
    { const int cake_i = 0; c[cake_i] = exp2f((m[0] - mt[0])); }
#line 129 "@CAKE_FILE@"
    // rs = 0
#line 129 "@CAKE_FILE@"
    { const int cake_i = 0; rs[cake_i] = 0.0f; }
#line 130 "@CAKE_FILE@"
    // pv = 0
#line 130 "@CAKE_FILE@"
    { const int cake_i = 0; pv[cake_i] = 0.0; }
#line 131 "@CAKE_FILE@"
    // for j in 0 .. min(64, q + 1 - t * 64) {
#line 131 "@CAKE_FILE@"
    #pragma unroll 1
#line 131 "@CAKE_FILE@"
    for (long long j = 0LL; j < (64LL < ((q + 1LL) - (t * 64LL)) ? 64LL : ((q + 1LL) - (t * 64LL))); j += 1LL) {
#line 132 "@CAKE_FILE@"
      // load x <- sc[j]
#line 132 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = sc[j]; }
#line 133 "@CAKE_FILE@"
      // x = exp2(x - mt)
#line 133 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = exp2f((x[0] - mt[0])); }
#line 134 "@CAKE_FILE@"
      // rs = rs + x
#line 134 "@CAKE_FILE@"
      { const int cake_i = 0; rs[cake_i] = (rs[0] + x[0]); }
#line 135 "@CAKE_FILE@"
      // load v <- V[t * 64 + j, d]
#line 135 "@CAKE_FILE@"
      { const int cake_i = 0; v[cake_i] = V[(((t * 64LL) + j)) * 64LL + d]; }
#line 136 "@CAKE_FILE@"
      // pv += cvt<f64>(cvt<bf16>(x)) * cvt<f64>(v)
#line 136 "@CAKE_FILE@"
      { const int cake_i = 0; pv[cake_i] = (pv[cake_i] + ((double)(CAKE_ROUND_BF16(x[0])) * (double)(CAKE_BF16_F32(v[0])))); }
#line 131 "@CAKE_FILE@"
    }
#line 138 "@CAKE_FILE@"
    // l = l * c + rs
#line 138 "@CAKE_FILE@"
    { const int cake_i = 0; l[cake_i] = ((l[0] * c[0]) + rs[0]); }
#line 139 "@CAKE_FILE@"
    // acc = cvt<f32>(cvt<f64>(acc * c) + pv)
#line 139 "@CAKE_FILE@"
    { const int cake_i = 0; acc[cake_i] = ((double)((acc[0] * c[0])) + pv[0]); }
#line 140 "@CAKE_FILE@"
    // m = mt
#line 140 "@CAKE_FILE@"
    { const int cake_i = 0; m[cake_i] = mt[0]; }
#line 141 "@CAKE_FILE@"
    // syncthreads
#line 141 "@CAKE_FILE@"
    __syncthreads();
#line 113 "@CAKE_FILE@"
  }
#line 143 "@CAKE_FILE@"
  // acc = acc / l
#line 143 "@CAKE_FILE@"
  { const int cake_i = 0; acc[cake_i] = (acc[0] / l[0]); }
#line 144 "@CAKE_FILE@"
  // store O[q, d] <- acc
#line 144 "@CAKE_FILE@"
  { const int cake_i = 0; O[(q) * 64LL + d] = acc[cake_i]; }
#line 145 "@CAKE_FILE@"
}
