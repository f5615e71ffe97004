#line 63 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 63 "@CAKE_FILE@"
kmeans_assign_ref(unsigned short* __restrict__ X, unsigned short* __restrict__ C, float* __restrict__ Cnorm, int* __restrict__ out, long long N, long long K) {
#line 63 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 63 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 63 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 63 "@CAKE_FILE@"
  (void)cake_rank;
#line 71 "@CAKE_FILE@"
  // let i = block.x * 128 + warp.id * 32 + lane
#line 71 "@CAKE_FILE@"
  const long long i = ((((long long)blockIdx.x * 128LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 72 "@CAKE_FILE@"
  // reg x:    bf16
#line 72 "@CAKE_FILE@"
  unsigned short x[1];
#line 73 "@CAKE_FILE@"
  // reg c:    bf16
#line 73 "@CAKE_FILE@"
  unsigned short c[1];
#line 74 "@CAKE_FILE@"
  // reg cn:   f32
#line 74 "@CAKE_FILE@"
  float cn[1];
#line 75 "@CAKE_FILE@"
  // reg dot:  f32
#line 75 "@CAKE_FILE@"
  float dot[1];
#line 76 "@CAKE_FILE@"
  // reg dist: f32
#line 76 "@CAKE_FILE@"
  float dist[1];
#line 77 "@CAKE_FILE@"
  // reg best: f32 = +inf
#line 77 "@CAKE_FILE@"
  float best[1];
#line 77 "@CAKE_FILE@"
  { const int cake_i = 0; best[cake_i] = (+CAKE_INF); }
#line 78 "@CAKE_FILE@"
  // reg arg:  i32 = 0
#line 78 "@CAKE_FILE@"
  int arg[1];
#line 78 "@CAKE_FILE@"
  { const int cake_i = 0; arg[cake_i] = (int)(0LL); }
#line 79 "@CAKE_FILE@"
  // if i < N {
#line 79 "@CAKE_FILE@"
  __syncwarp();
#line 79 "@CAKE_FILE@"
  const bool cake_taken41 = (i < N);
#line 79 "@CAKE_FILE@"
  const unsigned cake_lanes41 = __ballot_sync(0xffffffffu, cake_taken41);
#line 79 "@CAKE_FILE@"
  if (cake_taken41) {
#line 80 "@CAKE_FILE@"
    // for k in 0 .. K {                            // upwards, strict `<`: the smallest index wins a tie
#line 80 "@CAKE_FILE@"
    #pragma unroll 1
#line 80 "@CAKE_FILE@"
    for (long long k = 0LL; k < K; k += 1LL) {
#line 81 "@CAKE_FILE@"
      // dot = 0.0
#line 81 "@CAKE_FILE@"
      { const int cake_i = 0; dot[cake_i] = 0.0f; }
#line 82 "@CAKE_FILE@"
      // for d in 0 .. 64 {
#line 82 "@CAKE_FILE@"
      for (long long d = 0LL; d < 64LL; d += 1LL) {
#line 83 "@CAKE_FILE@"
        // load x <- X[i, d]
#line 83 "@CAKE_FILE@"
        { const int cake_i = 0; x[cake_i] = X[(i) * 64LL + d]; }
#line 84 "@CAKE_FILE@"
        // load c <- C[k, d]
#line 84 "@CAKE_FILE@"
        { const int cake_i = 0; c[cake_i] = C[(k) * 64LL + d]; }
#line 85 "@CAKE_FILE@"
        // dot += cvt<f32>(x) * cvt<f32>(c)
#line 85 "@CAKE_FILE@"
        { const int cake_i = 0; dot[cake_i] = (dot[cake_i] + (CAKE_BF16_F32(x[0]) * CAKE_BF16_F32(c[0]))); }
#line 82 "@CAKE_FILE@"
      }
#line 87 "@CAKE_FILE@"
      // load cn <- Cnorm[k]
#line 87 "@CAKE_FILE@"
      { const int cake_i = 0; cn[cake_i] = Cnorm[k]; }
#line 88 "@CAKE_FILE@"
      // dist = cn - 2.0 * dot
#line 88 "@CAKE_FILE@"
      { const int cake_i = 0; dist[cake_i] = (cn[0] - (2.0f * dot[0])); }
#line 89 "@CAKE_FILE@"
      // if dist < best {
#line 89 "@CAKE_FILE@"
      if ((dist[0] < best[0])) {
#line 90 "@CAKE_FILE@"
        // best = dist
#line 90 "@CAKE_FILE@"
        { const int cake_i = 0; best[cake_i] = dist[0]; }
#line 91 "@CAKE_FILE@"
        // arg = k
#line 91 "@CAKE_FILE@"
        { const int cake_i = 0; arg[cake_i] = (int)(k); }
#line 89 "@CAKE_FILE@"
      }
#line 80 "@CAKE_FILE@"
    }
#line 94 "@CAKE_FILE@"
    // store out[i] <- arg
#line 94 "@CAKE_FILE@"
    __syncwarp(cake_lanes41);
#line 94 "@CAKE_FILE@"
    { const int cake_i = 0; out[i] = arg[cake_i]; }
#line 94 "@CAKE_FILE@"
    __syncwarp(cake_lanes41);
#line 79 "@CAKE_FILE@"
  }
#line 79 "@CAKE_FILE@"
  __syncwarp();
#line 96 "@CAKE_FILE@"
}
