#ifdef CAKE_TMA_HOST
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) do { const long long cake_c[] = {(long long)(c0), (long long)(c1)}; CAKE_TMA_HOST_LOAD(2, (dst), (map), cake_c, (bar), 0u); } while (0)
#else
// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar`.
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) \
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"((unsigned long long)(map)), "r"((int)(c0)), "r"((int)(c1)), "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#endif
#ifdef CAKE_TCGEN05_HOST
#define CAKE_TCGEN05_LD_16X256B_X4_F32(r, taddr) CAKE_TCGEN05_HOST_LD16(256, 4, (r), (taddr))
#else
// TMEM lanes (taddr >> 16) .. + 15, 4 x 256b from column taddr, in the .16x256b fragment into r.
#define CAKE_TCGEN05_LD_16X256B_X4_F32(r, taddr) \
  asm volatile("tcgen05.ld.sync.aligned.16x256b.x4.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, [%16];" \
      : "=f"((r)[0]), "=f"((r)[1]), "=f"((r)[2]), "=f"((r)[3]), "=f"((r)[4]), "=f"((r)[5]), "=f"((r)[6]), "=f"((r)[7]) \
      , "=f"((r)[8]), "=f"((r)[9]), "=f"((r)[10]), "=f"((r)[11]), "=f"((r)[12]), "=f"((r)[13]), "=f"((r)[14]), "=f"((r)[15]) \
      : "r"(taddr) : "memory")
#endif
#line 10 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(256, 1)
#line 10 "@CAKE_FILE@"
blackwell_gemm_m64(unsigned short* __restrict__ A, unsigned short* __restrict__ B, unsigned short* __restrict__ C, const __grid_constant__ CakeTensorMap tA, const __grid_constant__ CakeTensorMap tB, long long M, long long K, long long N) {
#line 10 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 10 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 10 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 18 "@CAKE_FILE@"
  unsigned short* const sA = (unsigned short*)(cake_smem + 0);  // 32768 bytes
#line 19 "@CAKE_FILE@"
  unsigned short* const sB = (unsigned short*)(cake_smem + 32768);  // 131072 bytes
#line 20 "@CAKE_FILE@"
  unsigned* const cake_tmem_slot_acc = (unsigned*)(cake_smem + 163912);  // where tcgen05.alloc writes its address
#line 21 "@CAKE_FILE@"
  unsigned char* const full = cake_smem + 163840;  // 4 mbarrier(s), 8 bytes apart
#line 22 "@CAKE_FILE@"
  unsigned char* const empty = cake_smem + 163872;  // 4 mbarrier(s), 8 bytes apart
#line 23 "@CAKE_FILE@"
  unsigned char* const done = cake_smem + 163904;  // 1 mbarrier(s), 8 bytes apart
#line 21 "@CAKE_FILE@"
  if (threadIdx.x == 0) {
#line 21 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(full + cake_i * 8, 1);
#line 22 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(empty + cake_i * 8, 1);
#line 23 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 1; ++cake_i) CAKE_MBAR_INIT(done + cake_i * 8, 1);
#line 10 "@CAKE_FILE@"
    CAKE_FENCE_MBAR_INIT();
#line 10 "@CAKE_FILE@"
  }
#line 10 "@CAKE_FILE@"
  __syncthreads();
#line 20 "@CAKE_FILE@"
  if (cake_warp == 0) {
#line 20 "@CAKE_FILE@"
    CAKE_TMEM_ALLOC(cake_tmem_slot_acc, 256);
#line 20 "@CAKE_FILE@"
    CAKE_TMEM_RELINQUISH();
#line 20 "@CAKE_FILE@"
  }
#line 20 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_BEFORE();
#line 20 "@CAKE_FILE@"
  __syncthreads();
#line 20 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_AFTER();
#line 20 "@CAKE_FILE@"
  const unsigned acc = *(volatile unsigned*)cake_tmem_slot_acc;  // lane 0, its first column
#line 28 "@CAKE_FILE@"
  // role producer warp(0 .. 1) {
#line 28 "@CAKE_FILE@"
  if (cake_warp < 1) {
#line 28 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 1;
#line 28 "@CAKE_FILE@"
    (void)cake_rank;
#line 29 "@CAKE_FILE@"
    // elect {
#line 29 "@CAKE_FILE@"
    if (cake_warp == 0) {
#line 29 "@CAKE_FILE@"
      unsigned cake_elected;
#line 29 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 29 "@CAKE_FILE@"
      if (cake_elected) {
#line 30 "@CAKE_FILE@"
        // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 30 "@CAKE_FILE@"
        #pragma unroll 1
#line 30 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 30 "@CAKE_FILE@"
          const long long s = kt % 4;
#line 30 "@CAKE_FILE@"
          const long long cake_phase_s = kt / 4 % 2;
#line 30 "@CAKE_FILE@"
          (void)s; (void)cake_phase_s;
#line 31 "@CAKE_FILE@"
          // wait empty[s] parity(s.phase ^ 1)
#line 31 "@CAKE_FILE@"
          CAKE_MBAR_WAIT((empty + (s) * 8), (cake_phase_s ^ 1LL));
#line 31 "@CAKE_FILE@"
          CAKE_TCGEN05_FENCE_AFTER();
#line 32 "@CAKE_FILE@"
          // arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
#line 32 "@CAKE_FILE@"
          CAKE_TCGEN05_FENCE_BEFORE();
#line 32 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE_EXPECT_TX((full + (s) * 8), 40960LL);
#line 33 "@CAKE_FILE@"
          // tma.load sA[s] <- tA[block.y * 64, kt * 64], full[s]
#line 33 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tA, (kt * 64LL), ((long long)blockIdx.y * 64LL), (full + (s) * 8));
#line 34 "@CAKE_FILE@"
          // tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
#line 34 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sB + (s) * 32768 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tB, (kt * 64LL), ((long long)blockIdx.x * 256LL), (full + (s) * 8));
#line 30 "@CAKE_FILE@"
        }
#line 29 "@CAKE_FILE@"
      }
#line 29 "@CAKE_FILE@"
    }
#line 28 "@CAKE_FILE@"
  }
#line 39 "@CAKE_FILE@"
  // role mma warp(1 .. 2) {
#line 39 "@CAKE_FILE@"
  if (cake_warp >= 1 && cake_warp < 2) {
#line 39 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 1) / 1;
#line 39 "@CAKE_FILE@"
    (void)cake_rank;
#line 40 "@CAKE_FILE@"
    // elect {                                       // one thread issues every MMA and commit
#line 40 "@CAKE_FILE@"
    if (cake_warp == 1) {
#line 40 "@CAKE_FILE@"
      unsigned cake_elected;
#line 40 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 40 "@CAKE_FILE@"
      if (cake_elected) {
#line 41 "@CAKE_FILE@"
        // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 41 "@CAKE_FILE@"
        #pragma unroll 1
#line 41 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 41 "@CAKE_FILE@"
          const long long s = kt % 4;
#line 41 "@CAKE_FILE@"
          const long long cake_phase_s = kt / 4 % 2;
#line 41 "@CAKE_FILE@"
          (void)s; (void)cake_phase_s;
#line 42 "@CAKE_FILE@"
          // wait full[s] parity(s.phase)
#line 42 "@CAKE_FILE@"
          CAKE_MBAR_WAIT((full + (s) * 8), cake_phase_s);
#line 42 "@CAKE_FILE@"
          CAKE_TCGEN05_FENCE_AFTER();
#line 43 "@CAKE_FILE@"
          // tcgen05.mma acc += sA[s] @ sB[s].T, accumulate(kt > 0)
#line 43 "@CAKE_FILE@"
          #pragma unroll
#line 43 "@CAKE_FILE@"
          for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 43 "@CAKE_FILE@"
            CAKE_TCGEN05_MMA("f16", acc, CAKE_UMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sA + (s) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 2), CAKE_UMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sB + (s) * 32768 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 2), 0x04400490u, cake_k > 0 || ((kt > 0LL)));
#line 44 "@CAKE_FILE@"
          // tcgen05.commit empty[s]
#line 44 "@CAKE_FILE@"
          CAKE_TCGEN05_COMMIT((empty + (s) * 8));
#line 41 "@CAKE_FILE@"
        }
#line 46 "@CAKE_FILE@"
        // tcgen05.commit done
#line 46 "@CAKE_FILE@"
        CAKE_TCGEN05_COMMIT(done);
#line 40 "@CAKE_FILE@"
      }
#line 40 "@CAKE_FILE@"
    }
#line 39 "@CAKE_FILE@"
  }
#line 50 "@CAKE_FILE@"
  // role idle warp(2 .. 4) { }
#line 50 "@CAKE_FILE@"
  if (cake_warp >= 2 && cake_warp < 4) {
#line 50 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 2) / 1;
#line 50 "@CAKE_FILE@"
    (void)cake_rank;
#line 50 "@CAKE_FILE@"
  }
#line 52 "@CAKE_FILE@"
  // role epilogue warpgroup(1) {                    // warps 4..7
#line 52 "@CAKE_FILE@"
  if (cake_warp >= 4 && cake_warp < 8) {
#line 52 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 4) / 4;
#line 52 "@CAKE_FILE@"
    (void)cake_rank;
#line 53 "@CAKE_FILE@"
    // let q = warp.id % 4
#line 53 "@CAKE_FILE@"
    const long long q = ((long long)cake_warp % 4LL);
#line 54 "@CAKE_FILE@"
    // reg r: f32[16, 32] layout(mma_acc)
#line 54 "@CAKE_FILE@"
    float r[16];
#line 55 "@CAKE_FILE@"
    // reg o: bf16[16, 32] layout(mma_acc)
#line 55 "@CAKE_FILE@"
    unsigned o[8];
#line 56 "@CAKE_FILE@"
    // wait done parity(0)
#line 56 "@CAKE_FILE@"
    CAKE_MBAR_WAIT(done, 0LL);
#line 56 "@CAKE_FILE@"
    CAKE_TCGEN05_FENCE_AFTER();
#line 57 "@CAKE_FILE@"
    // for c in 0 .. 256 step 32 {
#line 57 "@CAKE_FILE@"
    for (long long c = 0LL; c < 256LL; c += 32LL) {
#line 58 "@CAKE_FILE@"
      // tcgen05.ld r <- acc[q * 16 : 16, c : 32]
#line 58 "@CAKE_FILE@"
      CAKE_TCGEN05_LD_16X256B_X4_F32(r, acc + ((unsigned)(32 * (((q * 16LL)) / 16) + ((q * 16LL)) % 16) << 16) + (unsigned)(c));
#line 59 "@CAKE_FILE@"
      // tcgen05.wait.ld
#line 59 "@CAKE_FILE@"
      CAKE_TCGEN05_WAIT_LD();
#line 60 "@CAKE_FILE@"
      // o = cvt<bf16>(r)
#line 60 "@CAKE_FILE@"
      #pragma unroll
#line 60 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 8; ++cake_j) CAKE_PACK_BF16X2(o[cake_j], r[(2 * cake_j)], r[(2 * cake_j + 1)]);
#line 61 "@CAKE_FILE@"
      // store C[block.y * 64 + q * 16 : 16, block.x * 256 + c : 32] <- o
#line 61 "@CAKE_FILE@"
      __syncwarp();
#line 61 "@CAKE_FILE@"
      {
#line 61 "@CAKE_FILE@"
        auto* const cake_corner = &C[(((((long long)blockIdx.y * 64LL) + (q * 16LL)) + cake_lane / 4)) * N + ((((long long)blockIdx.x * 256LL) + c) + 2 * (cake_lane % 4))];
#line 61 "@CAKE_FILE@"
        #pragma unroll
#line 61 "@CAKE_FILE@"
        for (int cake_j = 0; cake_j < 8; ++cake_j) CAKE_ST_B32(&cake_corner[((16 * ((((2 * cake_j)) / 4) / 4) + 8 * ((((2 * cake_j)) % 4) / 2))) * N + (8 * ((((2 * cake_j)) / 4) % 4) + (((2 * cake_j)) % 2))], o[cake_j]);
#line 61 "@CAKE_FILE@"
      }
#line 57 "@CAKE_FILE@"
    }
#line 52 "@CAKE_FILE@"
  }
#line 20 "@CAKE_FILE@"
  CAKE_TCGEN05_FENCE_BEFORE();
#line 20 "@CAKE_FILE@"
  __syncthreads();
#line 20 "@CAKE_FILE@"
  if (cake_warp == 0) {
#line 20 "@CAKE_FILE@"
    CAKE_TCGEN05_FENCE_AFTER();
#line 20 "@CAKE_FILE@"
    CAKE_TMEM_DEALLOC(acc, 256);
#line 20 "@CAKE_FILE@"
  }
#line 64 "@CAKE_FILE@"
}
