#line 11 "@CAKE_FILE@"
extern "C" __global__ void __cluster_dims__(4, 1, 1) __launch_bounds__(128, 1)
#line 11 "@CAKE_FILE@"
cluster_rowsum(float* __restrict__ X, float* __restrict__ Y, long long R) {
#line 11 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 11 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 11 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 17 "@CAKE_FILE@"
  unsigned cake_cluster_rank;
#line 17 "@CAKE_FILE@"
  CAKE_CLUSTER_RANK(cake_cluster_rank);
#line 19 "@CAKE_FILE@"
  float* const part = (float*)(cake_smem + 0);  // 1024 bytes
#line 20 "@CAKE_FILE@"
  // dsmem lead = part cta(0)
#line 20 "@CAKE_FILE@"
  unsigned long long lead_at;
#line 20 "@CAKE_FILE@"
  CAKE_MAPA(lead_at, part, 0LL);
#line 20 "@CAKE_FILE@"
  float* const lead = (float*)lead_at;
#line 22 "@CAKE_FILE@"
  // role rows all {
#line 22 "@CAKE_FILE@"
  {
#line 22 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 22 "@CAKE_FILE@"
    (void)cake_rank;
#line 23 "@CAKE_FILE@"
    // let w = warp.id
#line 23 "@CAKE_FILE@"
    const long long w = (long long)cake_warp;
#line 24 "@CAKE_FILE@"
    // reg x:     f32[16, 256] layout(mma_acc)
#line 24 "@CAKE_FILE@"
    float x[128];
#line 25 "@CAKE_FILE@"
    // reg ps:    f32[16] layout(mma_acc.row)
#line 25 "@CAKE_FILE@"
    float ps[2];
#line 26 "@CAKE_FILE@"
    // reg t:     f32[16] layout(mma_acc.row)
#line 26 "@CAKE_FILE@"
    float t[2];
#line 27 "@CAKE_FILE@"
    // reg total: f32[16] layout(mma_acc.row) = 0
#line 27 "@CAKE_FILE@"
    float total[2];
#line 27 "@CAKE_FILE@"
    #pragma unroll
#line 27 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) total[cake_i] = 0.0f;
#line 29 "@CAKE_FILE@"
    // load x <- X[block.y * 16 : 16, cluster.rank * 1024 + w * 256 : 256]
#line 29 "@CAKE_FILE@"
    {
#line 29 "@CAKE_FILE@"
      auto* const cake_corner = &X[((((long long)blockIdx.y * 16LL) + cake_lane / 4)) * 4096LL + ((((long long)cake_cluster_rank * 1024LL) + (w * 256LL)) + 2 * (cake_lane % 4))];
#line 29 "@CAKE_FILE@"
      #pragma unroll
#line 29 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 64; ++cake_j) CAKE_LD_PAIR_F32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 32) + 8 * ((((2 * cake_j)) % 4) / 2))) * 4096LL + (8 * ((((2 * cake_j)) / 4) % 32) + (((2 * cake_j)) % 2))], x[2 * cake_j], x[2 * cake_j + 1]);
#line 29 "@CAKE_FILE@"
    }
#line 30 "@CAKE_FILE@"
    // reduce.row sum ps <- x
#line 30 "@CAKE_FILE@"
    #pragma unroll
#line 30 "@CAKE_FILE@"
    for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 30 "@CAKE_FILE@"
      float cake_v = 0.0f;
#line 30 "@CAKE_FILE@"
      #pragma unroll
#line 30 "@CAKE_FILE@"
      for (int cake_c = 0; cake_c < 64; ++cake_c) {
#line 30 "@CAKE_FILE@"
        const float cake_w = x[((((cake_j) / 2) * 32 + (cake_c) / 2) * 4 + ((cake_j) % 2) * 2 + (cake_c) % 2)];
#line 30 "@CAKE_FILE@"
        cake_v = cake_v + cake_w;
#line 30 "@CAKE_FILE@"
      }
#line 30 "@CAKE_FILE@"
      for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 30 "@CAKE_FILE@"
        const float cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);
#line 30 "@CAKE_FILE@"
        cake_v = cake_v + cake_w;
#line 30 "@CAKE_FILE@"
      }
#line 30 "@CAKE_FILE@"
      ps[cake_j] = cake_v;
#line 30 "@CAKE_FILE@"
    }
#line 31 "@CAKE_FILE@"
    // store lead[cluster.rank * 4 + w] <- ps
#line 31 "@CAKE_FILE@"
    if (cake_lane % 4 == 0) {
#line 31 "@CAKE_FILE@"
      {
#line 31 "@CAKE_FILE@"
        auto* const cake_corner = &lead[((((long long)cake_cluster_rank * 4LL) + w)) * 16LL + cake_lane / 4];
#line 31 "@CAKE_FILE@"
        #pragma unroll
#line 31 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))] = ps[cake_i];
#line 31 "@CAKE_FILE@"
      }
#line 31 "@CAKE_FILE@"
    }
#line 32 "@CAKE_FILE@"
    // cluster.sync
#line 32 "@CAKE_FILE@"
    CAKE_CLUSTER_SYNC();
#line 33 "@CAKE_FILE@"
    // if cluster.rank == 0 {
#line 33 "@CAKE_FILE@"
    if (((long long)cake_cluster_rank == 0LL)) {
#line 34 "@CAKE_FILE@"
      // for i in 0 .. 16 {
#line 34 "@CAKE_FILE@"
      for (long long i = 0LL; i < 16LL; i += 1LL) {
#line 35 "@CAKE_FILE@"
        // load t <- part[i]
#line 35 "@CAKE_FILE@"
        {
#line 35 "@CAKE_FILE@"
          auto* const cake_corner = &part[(i) * 16LL + cake_lane / 4];
#line 35 "@CAKE_FILE@"
          #pragma unroll
#line 35 "@CAKE_FILE@"
          for (int cake_i = 0; cake_i < 2; ++cake_i) t[cake_i] = cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))];
#line 35 "@CAKE_FILE@"
        }
#line 36 "@CAKE_FILE@"
        // total = total + t
#line 36 "@CAKE_FILE@"
        #pragma unroll
#line 36 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) total[cake_i] = (total[cake_i] + t[cake_i]);
#line 34 "@CAKE_FILE@"
      }
#line 38 "@CAKE_FILE@"
      // if w == 0 {
#line 38 "@CAKE_FILE@"
      if ((w == 0LL)) {
#line 39 "@CAKE_FILE@"
        // store Y[block.y * 16 : 16] <- total
#line 39 "@CAKE_FILE@"
        if (cake_lane % 4 == 0) {
#line 39 "@CAKE_FILE@"
          {
#line 39 "@CAKE_FILE@"
            auto* const cake_corner = &Y[(((long long)blockIdx.y * 16LL) + cake_lane / 4)];
#line 39 "@CAKE_FILE@"
            #pragma unroll
#line 39 "@CAKE_FILE@"
            for (int cake_i = 0; cake_i < 2; ++cake_i) cake_corner[(16 * ((cake_i) / 2) + 8 * ((cake_i) % 2))] = total[cake_i];
#line 39 "@CAKE_FILE@"
          }
#line 39 "@CAKE_FILE@"
        }
#line 38 "@CAKE_FILE@"
      }
#line 33 "@CAKE_FILE@"
    }
#line 22 "@CAKE_FILE@"
  }
#line 17 "@CAKE_FILE@"
  CAKE_CLUSTER_SYNC();
#line 43 "@CAKE_FILE@"
}
