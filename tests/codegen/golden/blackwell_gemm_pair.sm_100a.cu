#ifdef CAKE_TMA_HOST
#define CAKE_TMA_LOAD_2D_PAIR(dst, map, c0, c1, bar) do { const long long cake_c[] = {(long long)(c0), (long long)(c1)}; CAKE_TMA_HOST_LOAD_PAIR(2, (dst), (map), cake_c, (bar)); } while (0)
#else
// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar` of this CTA
// or its pair's (a generic address).
#define CAKE_TMA_LOAD_2D_PAIR(dst, map, c0, c1, bar) \
  asm volatile("{ .reg .u64 cake_g; .reg .u32 cake_b; cvta.to.shared::cluster.u64 cake_g, %4; cvt.u32.u64 cake_b, cake_g; " \
               "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%0], [%1, {%2, %3}], [cake_b]; }" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"((unsigned long long)(map)), "r"((int)(c0)), "r"((int)(c1)), "l"((unsigned long long)(bar)) : "memory")
#endif
#ifdef CAKE_TCGEN05_HOST
#define CAKE_TCGEN05_LD_32X32B_X32_F32(r, taddr) CAKE_TCGEN05_HOST_LD(32, (r), (taddr))
#else
// Lane l of the warp: columns taddr .. + 31 of TMEM lane (taddr >> 16) + l into r.
#define CAKE_TCGEN05_LD_32X32B_X32_F32(r, taddr) \
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];" \
      : "=f"((r)[0]), "=f"((r)[1]), "=f"((r)[2]), "=f"((r)[3]), "=f"((r)[4]), "=f"((r)[5]), "=f"((r)[6]), "=f"((r)[7]) \
      , "=f"((r)[8]), "=f"((r)[9]), "=f"((r)[10]), "=f"((r)[11]), "=f"((r)[12]), "=f"((r)[13]), "=f"((r)[14]), "=f"((r)[15]) \
      , "=f"((r)[16]), "=f"((r)[17]), "=f"((r)[18]), "=f"((r)[19]), "=f"((r)[20]), "=f"((r)[21]), "=f"((r)[22]), "=f"((r)[23]) \
      , "=f"((r)[24]), "=f"((r)[25]), "=f"((r)[26]), "=f"((r)[27]), "=f"((r)[28]), "=f"((r)[29]), "=f"((r)[30]), "=f"((r)[31]) \
      : "r"(taddr) : "memory")
#endif
#line 10 "@CAKE_FILE@"
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256, 1)
#line 10 "@CAKE_FILE@"
blackwell_gemm_pair(unsigned short* __restrict__ A, unsigned short* __restrict__ B, unsigned short* __restrict__ C, const __grid_constant__ CakeTensorMap tA, const __grid_constant__ CakeTensorMap tB, long long M, long long K, long long N) {
#line 10 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 10 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 10 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 17 "@CAKE_FILE@"
  unsigned cake_cluster_rank;
#line 17 "@CAKE_FILE@"
  CAKE_CLUSTER_RANK(cake_cluster_rank);
#line 20 "@CAKE_FILE@"
  unsigned short* const sA = (unsigned short*)(cake_smem + 0);  // 65536 bytes
#line 21 "@CAKE_FILE@"
  unsigned short* const sB = (unsigned short*)(cake_smem + 65536);  // 65536 bytes
#line 22 "@CAKE_FILE@"
  unsigned* const cake_tmem_slot_acc = (unsigned*)(cake_smem + 131144);  // where tcgen05.alloc writes its address
#line 23 "@CAKE_FILE@"
  unsigned char* const full = cake_smem + 131072;  // 4 mbarrier(s), 8 bytes apart
#line 24 "@CAKE_FILE@"
  unsigned char* const empty = cake_smem + 131104;  // 4 mbarrier(s), 8 bytes apart
#line 25 "@CAKE_FILE@"
  unsigned char* const done = cake_smem + 131136;  // 1 mbarrier(s), 8 bytes apart
#line 23 "@CAKE_FILE@"
  if (threadIdx.x == 0) {
#line 23 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(full + cake_i * 8, 1);
#line 24 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(empty + cake_i * 8, 1);
#line 25 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 1; ++cake_i) CAKE_MBAR_INIT(done + cake_i * 8, 1);
#line 10 "@CAKE_FILE@"
    CAKE_FENCE_MBAR_INIT();
#line 10 "@CAKE_FILE@"
  }
#line 10 "@CAKE_FILE@"
  CAKE_CLUSTER_SYNC();
#line 22 "@CAKE_FILE@"
  if (cake_warp == 0) {
#line 22 "@CAKE_FILE@"
    CAKE_TMEM_ALLOC_PAIR(cake_tmem_slot_acc, 256);
#line 22 "@CAKE_FILE@"
    CAKE_TMEM_RELINQUISH_PAIR();
#line 22 "@CAKE_FILE@"
  }
#line 22 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_BEFORE();
#line 22 "@CAKE_FILE@"
  __syncthreads();
#line 22 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_AFTER();
#line 22 "@CAKE_FILE@"
  const unsigned acc = *(volatile unsigned*)cake_tmem_slot_acc;  // lane 0, its first column
#line 26 "@CAKE_FILE@"
  // dsmem lead_full = full cta(cluster.rank - cluster.rank % 2)
#line 26 "@CAKE_FILE@"
  unsigned long long lead_full_at;
#line 26 "@CAKE_FILE@"
  CAKE_MAPA(lead_full_at, full, ((long long)cake_cluster_rank - ((long long)cake_cluster_rank % 2LL)));
#line 26 "@CAKE_FILE@"
  unsigned char* const lead_full = (unsigned char*)lead_full_at;
#line 31 "@CAKE_FILE@"
  // let half = cluster.rank % 2
#line 31 "@CAKE_FILE@"
  const long long half = ((long long)cake_cluster_rank % 2LL);
#line 32 "@CAKE_FILE@"
  // let tile_n = block.x / 2
#line 32 "@CAKE_FILE@"
  const long long tile_n = ((long long)blockIdx.x / 2LL);
#line 34 "@CAKE_FILE@"
  // role producer warp(0 .. 1) {
#line 34 "@CAKE_FILE@"
  if (cake_warp < 1) {
#line 34 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 34 "@CAKE_FILE@"
    (void)cake_rank;
#line 35 "@CAKE_FILE@"
    // elect {
#line 35 "@CAKE_FILE@"
    if (cake_warp == 0) {
#line 35 "@CAKE_FILE@"
      unsigned cake_elected;
#line 35 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 35 "@CAKE_FILE@"
      if (cake_elected) {
#line 36 "@CAKE_FILE@"
        // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 36 "@CAKE_FILE@"
        #pragma unroll 1
#line 36 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 36 "@CAKE_FILE@"
          const long long s = kt % 4;
#line 36 "@CAKE_FILE@"
          const long long cake_phase_s = kt / 4 % 2;
#line 36 "@CAKE_FILE@"
          (void)s; (void)cake_phase_s;
#line 37 "@CAKE_FILE@"
          // wait empty[s] parity(s.phase ^ 1)
#line 37 "@CAKE_FILE@"
          CAKE_MBAR_WAIT_CLUSTER((empty + (s) * 8), (cake_phase_s ^ 1LL));
#line 37 "@CAKE_FILE@"
          CAKE_TCGEN05_FENCE_AFTER();
#line 38 "@CAKE_FILE@"
          // if half == 0 {
#line 38 "@CAKE_FILE@"
          if ((half == 0LL)) {
#line 39 "@CAKE_FILE@"
            // arrive.expect_tx full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))
#line 39 "@CAKE_FILE@"
            CAKE_TCGEN05_FENCE_BEFORE();
#line 39 "@CAKE_FILE@"
            CAKE_MBAR_ARRIVE_EXPECT_TX((full + (s) * 8), 65536LL);
#line 38 "@CAKE_FILE@"
          }
#line 41 "@CAKE_FILE@"
          // tma.load sA[s] <- tA[block.y * 256 + half * 128, kt * 64], lead_full[s]
#line 41 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D_PAIR(&(*(unsigned short*)((unsigned char*)sA + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tA, (kt * 64LL), (((long long)blockIdx.y * 256LL) + (half * 128LL)), (lead_full + (s) * 8));
#line 42 "@CAKE_FILE@"
          // tma.load sB[s] <- tB[tile_n * 256 + half * 128, kt * 64], lead_full[s]
#line 42 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D_PAIR(&(*(unsigned short*)((unsigned char*)sB + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tB, (kt * 64LL), ((tile_n * 256LL) + (half * 128LL)), (lead_full + (s) * 8));
#line 36 "@CAKE_FILE@"
        }
#line 35 "@CAKE_FILE@"
      }
#line 35 "@CAKE_FILE@"
    }
#line 34 "@CAKE_FILE@"
  }
#line 47 "@CAKE_FILE@"
  // role mma warp(1 .. 2) {
#line 47 "@CAKE_FILE@"
  if (cake_warp >= 1 && cake_warp < 2) {
#line 47 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 1) / 1;
#line 47 "@CAKE_FILE@"
    (void)cake_rank;
#line 48 "@CAKE_FILE@"
    // if half == 0 {                              // the even CTA issues the pair's MMAs
#line 48 "@CAKE_FILE@"
    if ((half == 0LL)) {
#line 49 "@CAKE_FILE@"
      // elect {
#line 49 "@CAKE_FILE@"
      if (cake_warp == 1) {
#line 49 "@CAKE_FILE@"
        unsigned cake_elected;
#line 49 "@CAKE_FILE@"
        CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 49 "@CAKE_FILE@"
        if (cake_elected) {
#line 50 "@CAKE_FILE@"
          // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 50 "@CAKE_FILE@"
          #pragma unroll 1
#line 50 "@CAKE_FILE@"
          for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 50 "@CAKE_FILE@"
            const long long s = kt % 4;
#line 50 "@CAKE_FILE@"
            const long long cake_phase_s = kt / 4 % 2;
#line 50 "@CAKE_FILE@"
            (void)s; (void)cake_phase_s;
#line 51 "@CAKE_FILE@"
            // wait full[s] parity(s.phase)
#line 51 "@CAKE_FILE@"
            CAKE_MBAR_WAIT_CLUSTER((full + (s) * 8), cake_phase_s);
#line 51 "@CAKE_FILE@"
            CAKE_TCGEN05_FENCE_AFTER();
#line 52 "@CAKE_FILE@"
            // tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
#line 52 "@CAKE_FILE@"
            #pragma unroll
#line 52 "@CAKE_FILE@"
            for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 52 "@CAKE_FILE@"
              CAKE_TCGEN05_MMA_PAIR("f16", acc, CAKE_UMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sA + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 2), CAKE_UMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sB + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 2), 0x10400490u, cake_k > 0 || ((kt > 0LL)));
#line 53 "@CAKE_FILE@"
            // tcgen05.commit empty[s] multicast(3 << cluster.rank)
#line 53 "@CAKE_FILE@"
            CAKE_TCGEN05_COMMIT_PAIR_MC((empty + (s) * 8), (3LL << (long long)cake_cluster_rank));
#line 50 "@CAKE_FILE@"
          }
#line 55 "@CAKE_FILE@"
          // tcgen05.commit done multicast(3 << cluster.rank)
#line 55 "@CAKE_FILE@"
          CAKE_TCGEN05_COMMIT_PAIR_MC(done, (3LL << (long long)cake_cluster_rank));
#line 49 "@CAKE_FILE@"
        }
#line 49 "@CAKE_FILE@"
      }
#line 48 "@CAKE_FILE@"
    }
#line 47 "@CAKE_FILE@"
  }
#line 60 "@CAKE_FILE@"
  // role idle warp(2 .. 4) { }
#line 60 "@CAKE_FILE@"
  if (cake_warp >= 2 && cake_warp < 4) {
#line 60 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 2) / 1;
#line 60 "@CAKE_FILE@"
    (void)cake_rank;
#line 60 "@CAKE_FILE@"
  }
#line 62 "@CAKE_FILE@"
  // role epilogue warpgroup(1) {                    // warps 4..7
#line 62 "@CAKE_FILE@"
  if (cake_warp >= 4 && cake_warp < 8) {
#line 62 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 4) / 4;
#line 62 "@CAKE_FILE@"
    (void)cake_rank;
#line 63 "@CAKE_FILE@"
    // let q = warp.id % 4
#line 63 "@CAKE_FILE@"
    const long long q = ((long long)cake_warp % 4LL);
#line 64 "@CAKE_FILE@"
    // reg r: f32[32, 32] layout(tcgen05_acc)
#line 64 "@CAKE_FILE@"
    float r[32];
#line 65 "@CAKE_FILE@"
    // reg o: bf16[32, 32] layout(tcgen05_acc)
#line 65 "@CAKE_FILE@"
    unsigned o[16];
#line 66 "@CAKE_FILE@"
    // wait done parity(0)
#line 66 "@CAKE_FILE@"
    CAKE_MBAR_WAIT_CLUSTER(done, 0LL);
#line 66 "@CAKE_FILE@"
    CAKE_TCGEN05_FENCE_AFTER();
#line 67 "@CAKE_FILE@"
    // for c in 0 .. 256 step 32 {
#line 67 "@CAKE_FILE@"
    for (long long c = 0LL; c < 256LL; c += 32LL) {
#line 68 "@CAKE_FILE@"
      // tcgen05.ld r <- acc[q * 32 : 32, c : 32]
#line 68 "@CAKE_FILE@"
      CAKE_TCGEN05_LD_32X32B_X32_F32(r, acc + ((unsigned)((q * 32LL)) << 16) + (unsigned)(c));
#line 69 "@CAKE_FILE@"
      // tcgen05.wait.ld
#line 69 "@CAKE_FILE@"
      CAKE_TCGEN05_WAIT_LD();
#line 70 "@CAKE_FILE@"
      // o = cvt<bf16>(r)
#line 70 "@CAKE_FILE@"
      #pragma unroll
#line 70 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 16; ++cake_j) CAKE_PACK_BF16X2(o[cake_j], r[(2 * cake_j)], r[(2 * cake_j + 1)]);
#line 71 "@CAKE_FILE@"
      // store C[block.y * 256 + half * 128 + q * 32 : 32, tile_n * 256 + c : 32] <- o
#line 71 "@CAKE_FILE@"
      __syncwarp();
#line 71 "@CAKE_FILE@"
      {
#line 71 "@CAKE_FILE@"
        auto* const cake_corner = &C[((((((long long)blockIdx.y * 256LL) + (half * 128LL)) + (q * 32LL)) + (int)cake_lane)) * N + (((tile_n * 256LL) + c) + 0)];
#line 71 "@CAKE_FILE@"
        #pragma unroll
#line 71 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 16; ++cake_j) CAKE_ST_B32(&cake_corner[(0) * N + ((2 * cake_j))], o[cake_j]);
#line 71 "@CAKE_FILE@"
      }
#line 67 "@CAKE_FILE@"
    }
#line 62 "@CAKE_FILE@"
  }
#line 22 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_BEFORE();
#line 22 "@CAKE_FILE@"
  __syncthreads();
#line 22 "@CAKE_FILE@"
  if (cake_warp == 0) {
#line 22 "@CAKE_FILE@"
    CAKE_TCGEN05_FENCE_AFTER();
#line 22 "@CAKE_FILE@"
    CAKE_TMEM_DEALLOC_PAIR(acc, 256);
#line 22 "@CAKE_FILE@"
  }
#line 17 "@CAKE_FILE@"
  CAKE_CLUSTER_SYNC();
#line 74 "@CAKE_FILE@"
}
