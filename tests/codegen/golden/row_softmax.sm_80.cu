#line 10 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(128, 1)
#line 10 "@CAKE_FILE@"
row_softmax(float* __restrict__ X, float* __restrict__ Y, long long R) {
#line 10 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 10 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 10 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 17 "@CAKE_FILE@"
  float* const pmax = (float*)(cake_smem + 0);  // 256 bytes
#line 18 "@CAKE_FILE@"
  float* const psum = (float*)(cake_smem + 256);  // 256 bytes
#line 20 "@CAKE_FILE@"
  // role rows all {
#line 20 "@CAKE_FILE@"
  {
#line 20 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 20 "@CAKE_FILE@"
    (void)cake_rank;
#line 21 "@CAKE_FILE@"
    // let w = warp.id
#line 21 "@CAKE_FILE@"
    const long long w = (long long)cake_warp;
#line 22 "@CAKE_FILE@"
    // reg x:  f32[16, 256] layout(mma_acc)
#line 22 "@CAKE_FILE@"
    float x[128];
#line 23 "@CAKE_FILE@"
    // reg pm: f32[16] layout(mma_acc.row)
#line 23 "@CAKE_FILE@"
    float pm[2];
#line 24 "@CAKE_FILE@"
    // reg ps: f32[16] layout(mma_acc.row)
#line 24 "@CAKE_FILE@"
    float ps[2];
#line 25 "@CAKE_FILE@"
    // reg t:  f32[16] layout(mma_acc.row)
#line 25 "@CAKE_FILE@"
    float t[2];
#line 26 "@CAKE_FILE@"
    // reg m:  f32[16] layout(mma_acc.row) = -inf
#line 26 "@CAKE_FILE@"
    float m[2];
#line 26 "@CAKE_FILE@"
    #pragma unroll
#line 26 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) m[cake_i] = (-CAKE_INF);
#line 27 "@CAKE_FILE@"
    // reg l:  f32[16] layout(mma_acc.row) = 0
#line 27 "@CAKE_FILE@"
    float l[2];
#line 27 "@CAKE_FILE@"
    #pragma unroll
#line 27 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) l[cake_i] = 0.0f;
#line 29 "@CAKE_FILE@"
    // load x <- X[block.x * 16 : 16, w * 256 : 256]
#line 29 "@CAKE_FILE@"
    {
#line 29 "@CAKE_FILE@"
      auto* const cake_corner = &X[((((long long)blockIdx.x * 16LL) + cake_lane / 4)) * 1024LL + ((w * 256LL) + 2 * (cake_lane % 4))];
#line 29 "@CAKE_FILE@"
      #pragma unroll
#line 29 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 64; ++cake_j) CAKE_LD_PAIR_F32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 32) + 8 * ((((2 * cake_j)) % 4) / 2))) * 1024LL + (8 * ((((2 * cake_j)) / 4) % 32) + (((2 * cake_j)) % 2))], x[2 * cake_j], x[2 * cake_j + 1]);
#line 29 "@CAKE_FILE@"
    }
#line 30 "@CAKE_FILE@"
    // reduce.row max pm <- x
#line 30 "@CAKE_FILE@"
    #pragma unroll
#line 30 "@CAKE_FILE@"
    for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 30 "@CAKE_FILE@"
      float cake_v = -CAKE_INF;
#line 30 "@CAKE_FILE@"
      #pragma unroll
#line 30 "@CAKE_FILE@"
      for (int cake_c = 0; cake_c < 64; ++cake_c) {
#line 30 "@CAKE_FILE@"
        const float cake_w = x[((((cake_j) / 2) * 32 + (cake_c) / 2) * 4 + ((cake_j) % 2) * 2 + (cake_c) % 2)];
#line 30 "@CAKE_FILE@"
        CAKE_MAX_INTO(cake_v, cake_w);
#line 30 "@CAKE_FILE@"
      }
#line 30 "@CAKE_FILE@"
      for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 30 "@CAKE_FILE@"
        const float cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);
#line 30 "@CAKE_FILE@"
        CAKE_MAX_INTO(cake_v, cake_w);
#line 30 "@CAKE_FILE@"
      }
#line 30 "@CAKE_FILE@"
      pm[cake_j] = cake_v;
#line 30 "@CAKE_FILE@"
    }
#line 31 "@CAKE_FILE@"
    // store pmax[w] <- pm
#line 31 "@CAKE_FILE@"
    if (cake_lane % 4 == 0) {
#line 31 "@CAKE_FILE@"
      {
#line 31 "@CAKE_FILE@"
        auto* const cake_corner = &pmax[(w) * 16LL + cake_lane / 4];
#line 31 "@CAKE_FILE@"
        #pragma unroll
#line 31 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))] = pm[cake_i];
#line 31 "@CAKE_FILE@"
      }
#line 31 "@CAKE_FILE@"
    }
#line 32 "@CAKE_FILE@"
    // syncthreads
#line 32 "@CAKE_FILE@"
    __syncthreads();
#line 33 "@CAKE_FILE@"
    // for i in 0 .. 4 {
#line 33 "@CAKE_FILE@"
    for (long long i = 0LL; i < 4LL; i += 1LL) {
#line 34 "@CAKE_FILE@"
      // load t <- pmax[i]
#line 34 "@CAKE_FILE@"
      {
#line 34 "@CAKE_FILE@"
        auto* const cake_corner = &pmax[(i) * 16LL + cake_lane / 4];
#line 34 "@CAKE_FILE@"
        #pragma unroll
#line 34 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) t[cake_i] = cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))];
#line 34 "@CAKE_FILE@"
      }
#line 35 "@CAKE_FILE@"
      // m = max(m, t)
#line 35 "@CAKE_FILE@"
      #pragma unroll
#line 35 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) m[cake_i] = CAKE_MAX(m[cake_i], t[cake_i]);
#line 33 "@CAKE_FILE@"
    }
#line 37 "@CAKE_FILE@"
    // x = exp2((x - m) * 1.4426950408889634)
#line 37 "@CAKE_FILE@"
    #pragma unroll
#line 37 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 128; ++cake_i) x[cake_i] = exp2f(((x[cake_i] - m[(2 * (((cake_i) / 4) / 32) + ((cake_i) % 4) / 2)]) * 1.44269504f));
#line 38 "@CAKE_FILE@"
    // reduce.row sum ps <- x
#line 38 "@CAKE_FILE@"
    #pragma unroll
#line 38 "@CAKE_FILE@"
    for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 38 "@CAKE_FILE@"
      float cake_v = 0.0f;
#line 38 "@CAKE_FILE@"
      #pragma unroll
#line 38 "@CAKE_FILE@"
      for (int cake_c = 0; cake_c < 64; ++cake_c) {
#line 38 "@CAKE_FILE@"
        const float cake_w = x[((((cake_j) / 2) * 32 + (cake_c) / 2) * 4 + ((cake_j) % 2) * 2 + (cake_c) % 2)];
#line 38 "@CAKE_FILE@"
        cake_v = cake_v + cake_w;
#line 38 "@CAKE_FILE@"
      }
#line 38 "@CAKE_FILE@"
      for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 38 "@CAKE_FILE@"
        const float cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);
#line 38 "@CAKE_FILE@"
        cake_v = cake_v + cake_w;
#line 38 "@CAKE_FILE@"
      }
#line 38 "@CAKE_FILE@"
      ps[cake_j] = cake_v;
#line 38 "@CAKE_FILE@"
    }
#line 39 "@CAKE_FILE@"
    // store psum[w] <- ps
#line 39 "@CAKE_FILE@"
    if (cake_lane % 4 == 0) {
#line 39 "@CAKE_FILE@"
      {
#line 39 "@CAKE_FILE@"
        auto* const cake_corner = &psum[(w) * 16LL + cake_lane / 4];
#line 39 "@CAKE_FILE@"
        #pragma unroll
#line 39 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))] = ps[cake_i];
#line 39 "@CAKE_FILE@"
      }
#line 39 "@CAKE_FILE@"
    }
#line 40 "@CAKE_FILE@"
    // syncthreads
#line 40 "@CAKE_FILE@"
    __syncthreads();
#line 41 "@CAKE_FILE@"
    // for i in 0 .. 4 {
#line 41 "@CAKE_FILE@"
    for (long long i = 0LL; i < 4LL; i += 1LL) {
#line 42 "@CAKE_FILE@"
      // load t <- psum[i]
#line 42 "@CAKE_FILE@"
      {
#line 42 "@CAKE_FILE@"
        auto* const cake_corner = &psum[(i) * 16LL + cake_lane / 4];
#line 42 "@CAKE_FILE@"
        #pragma unroll
#line 42 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) t[cake_i] = cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))];
#line 42 "@CAKE_FILE@"
      }
#line 43 "@CAKE_FILE@"
      // l = l + t
#line 43 "@CAKE_FILE@"
      #pragma unroll
#line 43 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) l[cake_i] = (l[cake_i] + t[cake_i]);
#line 41 "@CAKE_FILE@"
    }
#line 45 "@CAKE_FILE@"
    // l = 1.0 / l
#line 45 "@CAKE_FILE@"
    #pragma unroll
#line 45 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) l[cake_i] = (1.0f / l[cake_i]);
#line 46 "@CAKE_FILE@"
    // x = x * l
#line 46 "@CAKE_FILE@"
    #pragma unroll
#line 46 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 128; ++cake_i) x[cake_i] = (x[cake_i] * l[(2 * (((cake_i) / 4) / 32) + ((cake_i) % 4) / 2)]);
#line 47 "@CAKE_FILE@"
    // store Y[block.x * 16 : 16, w * 256 : 256] <- x
#line 47 "@CAKE_FILE@"
    {
#line 47 "@CAKE_FILE@"
      auto* const cake_corner = &Y[((((long long)blockIdx.x * 16LL) + cake_lane / 4)) * 1024LL + ((w * 256LL) + 2 * (cake_lane % 4))];
#line 47 "@CAKE_FILE@"
      #pragma unroll
#line 47 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 64; ++cake_j) CAKE_ST_PAIR_F32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 32) + 8 * ((((2 * cake_j)) % 4) / 2))) * 1024LL + (8 * ((((2 * cake_j)) / 4) % 32) + (((2 * cake_j)) % 2))], x[2 * cake_j], x[2 * cake_j + 1]);
#line 47 "@CAKE_FILE@"
    }
#line 20 "@CAKE_FILE@"
  }
#line 49 "@CAKE_FILE@"
}
