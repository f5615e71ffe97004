#line 106 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 106 "@CAKE_FILE@"
kmeans_assign_generic(unsigned short* __restrict__ X, unsigned short* __restrict__ C, float* __restrict__ Cnorm, int* __restrict__ out, long long N, long long K) {
#line 106 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 106 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 106 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 106 "@CAKE_FILE@"
  (void)cake_rank;
#line 114 "@CAKE_FILE@"
  // let i = block.x * 128 + warp.id * 32 + lane
#line 114 "@CAKE_FILE@"
  const long long i = ((((long long)blockIdx.x * 128LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 115 "@CAKE_FILE@"
  // reg xb:   bf16[1, 64]
#line 115 "@CAKE_FILE@"
  unsigned short xb[64];
#line 116 "@CAKE_FILE@"
  // reg cb:   bf16[1, 64]
#line 116 "@CAKE_FILE@"
  unsigned short cb[64];
#line 117 "@CAKE_FILE@"
  // reg p:    f32[1, 64]
#line 117 "@CAKE_FILE@"
  float p[64];
#line 118 "@CAKE_FILE@"
  // reg dot:  f32[1]
#line 118 "@CAKE_FILE@"
  float dot[1];
#line 119 "@CAKE_FILE@"
  // reg cn:   f32[1]
#line 119 "@CAKE_FILE@"
  float cn[1];
#line 120 "@CAKE_FILE@"
  // reg zero: f32[1, 1] = 0
#line 120 "@CAKE_FILE@"
  float zero[1];
#line 120 "@CAKE_FILE@"
  { const int cake_i = 0; zero[cake_i] = 0.0f; }
#line 121 "@CAKE_FILE@"
  // reg dist: f32[1, 1]
#line 121 "@CAKE_FILE@"
  float dist[1];
#line 122 "@CAKE_FILE@"
  // reg best: f32[1] = +inf
#line 122 "@CAKE_FILE@"
  float best[1];
#line 122 "@CAKE_FILE@"
  { const int cake_i = 0; best[cake_i] = (+CAKE_INF); }
#line 123 "@CAKE_FILE@"
  // reg arg:  i32[1] = 0
#line 123 "@CAKE_FILE@"
  int arg[1];
#line 123 "@CAKE_FILE@"
  { const int cake_i = 0; arg[cake_i] = (int)(0LL); }
#line 124 "@CAKE_FILE@"
  // if i < N {                                // no barrier inside: divergence is harmless
#line 124 "@CAKE_FILE@"
  __syncwarp();
#line 124 "@CAKE_FILE@"
  const bool cake_taken72 = (i < N);
#line 124 "@CAKE_FILE@"
  const unsigned cake_lanes72 = __ballot_sync(0xffffffffu, cake_taken72);
#line 124 "@CAKE_FILE@"
  if (cake_taken72) {
#line 125 "@CAKE_FILE@"
    // load xb <- X[i : 1, :]
#line 125 "@CAKE_FILE@"
    {
#line 125 "@CAKE_FILE@"
      auto* const cake_corner = &X[((i + 0)) * 64LL + 0];
#line 125 "@CAKE_FILE@"
      #pragma unroll
#line 125 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 8; ++cake_j) {
#line 125 "@CAKE_FILE@"
        unsigned cake_w[4];
#line 125 "@CAKE_FILE@"
        CAKE_LD_B128(&cake_corner[((((8 * cake_j)) / 64)) * 64LL + (((8 * cake_j)) % 64)], cake_w);
#line 125 "@CAKE_FILE@"
        #pragma unroll
#line 125 "@CAKE_FILE@"
        for (int cake_e = 0; cake_e < 8; ++cake_e) xb[8 * cake_j + cake_e] = (unsigned short)(cake_w[cake_e / 2] >> (16 * (cake_e % 2)));
#line 125 "@CAKE_FILE@"
      }
#line 125 "@CAKE_FILE@"
    }
#line 126 "@CAKE_FILE@"
    // for k in 0 .. K {
#line 126 "@CAKE_FILE@"
    #pragma unroll 1
#line 126 "@CAKE_FILE@"
    for (long long k = 0LL; k < K; k += 1LL) {
#line 127 "@CAKE_FILE@"
      // load cb <- C[k : 1, :]
#line 127 "@CAKE_FILE@"
      {
#line 127 "@CAKE_FILE@"
        auto* const cake_corner = &C[((k + 0)) * 64LL + 0];
#line 127 "@CAKE_FILE@"
        #pragma unroll
#line 127 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 8; ++cake_j) {
#line 127 "@CAKE_FILE@"
          unsigned cake_w[4];
#line 127 "@CAKE_FILE@"
          CAKE_LD_B128(&cake_corner[((((8 * cake_j)) / 64)) * 64LL + (((8 * cake_j)) % 64)], cake_w);
#line 127 "@CAKE_FILE@"
          #pragma unroll
#line 127 "@CAKE_FILE@"
          for (int cake_e = 0; cake_e < 8; ++cake_e) cb[8 * cake_j + cake_e] = (unsigned short)(cake_w[cake_e / 2] >> (16 * (cake_e % 2)));
#line 127 "@CAKE_FILE@"
        }
#line 127 "@CAKE_FILE@"
      }
#line 128 "@CAKE_FILE@"
      // load cn <- Cnorm[k : 1]
#line 128 "@CAKE_FILE@"
      {
#line 128 "@CAKE_FILE@"
        auto* const cake_corner = &Cnorm[(k + 0)];
#line 128 "@CAKE_FILE@"
        { const int cake_i = 0; cn[cake_i] = cake_corner[(cake_i)]; }
#line 128 "@CAKE_FILE@"
      }
#line 129 "@CAKE_FILE@"
      // p = cvt<f32>(xb) * cvt<f32>(cb)
#line 129 "@CAKE_FILE@"
      #pragma unroll
#line 129 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 64; ++cake_i) p[cake_i] = (CAKE_BF16_F32(xb[cake_i]) * CAKE_BF16_F32(cb[cake_i]));
#line 130 "@CAKE_FILE@"
      // reduce.row sum dot <- p
#line 130 "@CAKE_FILE@"
      #pragma unroll
#line 130 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 1; ++cake_j) {
#line 130 "@CAKE_FILE@"
        float cake_v = 0.0f;
#line 130 "@CAKE_FILE@"
        #pragma unroll
#line 130 "@CAKE_FILE@"
        for (int cake_c = 0; cake_c < 64; ++cake_c) {
#line 130 "@CAKE_FILE@"
          const float cake_w = p[cake_j * 64 + cake_c];
#line 130 "@CAKE_FILE@"
          cake_v = cake_v + cake_w;
#line 130 "@CAKE_FILE@"
        }
#line 130 "@CAKE_FILE@"
        dot[cake_j] = cake_v;
#line 130 "@CAKE_FILE@"
      }
#line 131 "@CAKE_FILE@"
      // dist = zero + cn - 2.0 * dot
#line 131 "@CAKE_FILE@"
      { const int cake_i = 0; dist[cake_i] = ((zero[cake_i] + cn[(cake_i) % 1]) - (2.0f * dot[(cake_i) % 1])); }
#line 132 "@CAKE_FILE@"
      // argmin.row best, arg <- dist, base(k)
#line 132 "@CAKE_FILE@"
      #pragma unroll
#line 132 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 1; ++cake_j)
#line 132 "@CAKE_FILE@"
      #pragma unroll
#line 132 "@CAKE_FILE@"
        for (int cake_col = 0; cake_col < 1; ++cake_col) {
#line 132 "@CAKE_FILE@"
          const float cake_w = dist[cake_j * 1 + cake_col];
#line 132 "@CAKE_FILE@"
          if (cake_w < best[cake_j]) { best[cake_j] = cake_w; arg[cake_j] = (int)(cake_col + k); }
#line 132 "@CAKE_FILE@"
        }
#line 126 "@CAKE_FILE@"
    }
#line 134 "@CAKE_FILE@"
    // store out[i : 1] <- arg
#line 134 "@CAKE_FILE@"
    __syncwarp(cake_lanes72);
#line 134 "@CAKE_FILE@"
    {
#line 134 "@CAKE_FILE@"
      auto* const cake_corner = &out[(i + 0)];
#line 134 "@CAKE_FILE@"
      { const int cake_i = 0; cake_corner[(cake_i)] = arg[cake_i]; }
#line 134 "@CAKE_FILE@"
    }
#line 134 "@CAKE_FILE@"
    __syncwarp(cake_lanes72);
#line 124 "@CAKE_FILE@"
  }
#line 124 "@CAKE_FILE@"
  __syncwarp();
#line 136 "@CAKE_FILE@"
}
