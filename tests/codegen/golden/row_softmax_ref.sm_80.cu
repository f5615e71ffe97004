#line 55 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 55 "@CAKE_FILE@"
row_softmax_ref(float* __restrict__ X, float* __restrict__ Y, long long R) {
#line 55 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 55 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 55 "@CAKE_FILE@"
  const long long cake_rank = cake_warp;  // the implicit role's rank: the warp
#line 55 "@CAKE_FILE@"
  (void)cake_rank;
#line 61 "@CAKE_FILE@"
  // let i = block.x * 128 + warp.id * 32 + lane
#line 61 "@CAKE_FILE@"
  const long long i = ((((long long)blockIdx.x * 128LL) + ((long long)cake_warp * 32LL)) + cake_lane);
#line 62 "@CAKE_FILE@"
  // reg x: f32
#line 62 "@CAKE_FILE@"
  float x[1];
#line 63 "@CAKE_FILE@"
  // reg y: f32
#line 63 "@CAKE_FILE@"
  float y[1];
#line 64 "@CAKE_FILE@"
  // reg m: f32 = -inf
#line 64 "@CAKE_FILE@"
  float m[1];
#line 64 "@CAKE_FILE@"
  { const int cake_i = 0; m[cake_i] = (-CAKE_INF); }
#line 65 "@CAKE_FILE@"
  // reg l: f32 = 0
#line 65 "@CAKE_FILE@"
  float l[1];
#line 65 "@CAKE_FILE@"
  { const int cake_i = 0; l[cake_i] = 0.0f; }
#line 66 "@CAKE_FILE@"
  // if i < R {
#line 66 "@CAKE_FILE@"
  __syncwarp();
#line 66 "@CAKE_FILE@"
  const bool cake_taken32 = (i < R);
#line 66 "@CAKE_FILE@"
  const unsigned cake_lanes32 = __ballot_sync(0xffffffffu, cake_taken32);
#line 66 "@CAKE_FILE@"
  if (cake_taken32) {
#line 67 "@CAKE_FILE@"
    // for k in 0 .. C {
#line 67 "@CAKE_FILE@"
    for (long long k = 0LL; k < 1024LL; k += 1LL) {
#line 68 "@CAKE_FILE@"
      // load x <- X[i, k]
#line 68 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = X[(i) * 1024LL + k]; }
#line 69 "@CAKE_FILE@"
      // m = max(m, x)
#line 69 "@CAKE_FILE@"
      { const int cake_i = 0; m[cake_i] = CAKE_MAX(m[0], x[0]); }
#line 67 "@CAKE_FILE@"
    }
#line 71 "@CAKE_FILE@"
    // for k in 0 .. C {
#line 71 "@CAKE_FILE@"
    for (long long k = 0LL; k < 1024LL; k += 1LL) {
#line 72 "@CAKE_FILE@"
      // load x <- X[i, k]
#line 72 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = X[(i) * 1024LL + k]; }
#line 73 "@CAKE_FILE@"
      // l = l + exp2((x - m) * 1.4426950408889634)
#line 73 "@CAKE_FILE@"
      { const int cake_i = 0; l[cake_i] = (l[0] + exp2f(((x[0] - m[0]) * 1.44269504f))); }
#line 71 "@CAKE_FILE@"
    }
#line 75 "@CAKE_FILE@"
    // l = 1.0 / l
#line 75 "@CAKE_FILE@"
    { const int cake_i = 0; l[cake_i] = (1.0f / l[0]); }
#line 76 "@CAKE_FILE@"
    // for k in 0 .. C {
#line 76 "@CAKE_FILE@"
    for (long long k = 0LL; k < 1024LL; k += 1LL) {
#line 77 "@CAKE_FILE@"
      // load x <- X[i, k]
#line 77 "@CAKE_FILE@"
      { const int cake_i = 0; x[cake_i] = X[(i) * 1024LL + k]; }
#line 78 "@CAKE_FILE@"
      // y = exp2((x - m) * 1.4426950408889634) * l
#line 78 "@CAKE_FILE@"
      { const int cake_i = 0; y[cake_i] = (exp2f(((x[0] - m[0]) * 1.44269504f)) * l[0]); }
#line 79 "@CAKE_FILE@"
      // store Y[i, k] <- y
#line 79 "@CAKE_FILE@"
      __syncwarp(cake_lanes32);
#line 79 "@CAKE_FILE@"
      { const int cake_i = 0; Y[(i) * 1024LL + k] = y[cake_i]; }
#line 79 "@CAKE_FILE@"
      __syncwarp(cake_lanes32);
#line 76 "@CAKE_FILE@"
    }
#line 66 "@CAKE_FILE@"
  }
#line 66 "@CAKE_FILE@"
  __syncwarp();
#line 82 "@CAKE_FILE@"
}
