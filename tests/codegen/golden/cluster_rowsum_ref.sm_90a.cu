#line 47 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 47 "@CAKE_FILE@"
cluster_rowsum_ref(float* __restrict__ X, float* __restrict__ Y, long long R) {
#line 47 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 47 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 47 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 47 "@CAKE_FILE@"
  (void)cake_rank;
#line 53 "@CAKE_FILE@"
  // let i = block.x * 128 + warp.id * 32 + lane
#line 53 "@CAKE_FILE@"
  const long long i = ((((long long)blockIdx.x * 128LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 54 "@CAKE_FILE@"
  // reg x: f32
#line 54 "@CAKE_FILE@"
  float x[1];
#line 55 "@CAKE_FILE@"
  // reg s: f32 = 0
#line 55 "@CAKE_FILE@"
  float s[1];
#line 55 "@CAKE_FILE@"
  { const int cake_i = 0; s[cake_i] = 0.0f; }
#line 56 "@CAKE_FILE@"
  // if i < R {
#line 56 "@CAKE_FILE@"
  __syncwarp();
#line 56 "@CAKE_FILE@"
  const bool cake_taken21 = (i < R);
#line 56 "@CAKE_FILE@"
  const unsigned cake_lanes21 = __ballot_sync(0xffffffffu, cake_taken21);
#line 56 "@CAKE_FILE@"
  if (cake_taken21) {
#line 57 "@CAKE_FILE@"
    // for k in 0 .. C {
#line 57 "@CAKE_FILE@"
    for (long long k = 0LL; k < 4096LL; k += 1LL) {
#line 58 "@CAKE_FILE@"
      // load x <- X[i, k]
#line 58 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = X[(i) * 4096LL + k]; }
#line 59 "@CAKE_FILE@"
      // s = s + x
#line 59 "@CAKE_FILE@"
      { const int cake_i = 0; s[cake_i] = (s[0] + x[0]); }
#line 57 "@CAKE_FILE@"
    }
#line 61 "@CAKE_FILE@"
    // store Y[i] <- s
#line 61 "@CAKE_FILE@"
    __syncwarp(cake_lanes21);
#line 61 "@CAKE_FILE@"
    { const int cake_i = 0; Y[i] = s[cake_i]; }
#line 61 "@CAKE_FILE@"
    __syncwarp(cake_lanes21);
#line 56 "@CAKE_FILE@"
  }
#line 56 "@CAKE_FILE@"
  __syncwarp();
#line 63 "@CAKE_FILE@"
}
