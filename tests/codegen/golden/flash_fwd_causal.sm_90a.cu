#ifdef CAKE_TMA_HOST
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) do { const long long cake_c[] = {(long long)(c0), (long long)(c1)}; CAKE_TMA_HOST_LOAD(2, (dst), (map), cake_c, (bar), 0u); } while (0)
#else
// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar`.
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) \
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"((unsigned long long)(map)), "r"((int)(c0)), "r"((int)(c1)), "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#endif
#ifdef CAKE_WGMMA_HOST
#define CAKE_WGMMA_M64N64K16_BF16(d, a, db, scale_d) CAKE_WGMMA_HOST(64, "bf16", (d), (a), (db), (scale_d), 0, 0)
#else
// d (32 f32) = A (descriptor a) @ B (descriptor db), plus d when scale_d is not 0.
#define CAKE_WGMMA_M64N64K16_BF16(d, a, db, scale_d) \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %34, 0; " \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, cake_p, 1, 1, 0, 0; }" \
      : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]) \
      , "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]) \
      , "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]) \
      , "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]) \
      : "l"(a), "l"(db), "r"((unsigned)(scale_d)))
#endif
#ifdef CAKE_WGMMA_HOST_RS
#define CAKE_WGMMA_M64N64K16_BF16_RS_TB(d, a, db, scale_d) CAKE_WGMMA_HOST_RS(64, "bf16", (d), (a), (db), (scale_d), 1)
#else
// d (32 f32) = A (four .b32 registers at a) @ B (descriptor db), plus d when scale_d is not 0.
#define CAKE_WGMMA_M64N64K16_BF16_RS_TB(d, a, db, scale_d) \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %37, 0; " \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, cake_p, 1, 1, 1; }" \
      : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]) \
      , "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]) \
      , "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]) \
      , "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]) \
      : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(db), "r"((unsigned)(scale_d)))
#endif
#line 11 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(384, 1)
#line 11 "@CAKE_FILE@"
flash_fwd_causal(unsigned short* __restrict__ Q, unsigned short* __restrict__ K, unsigned short* __restrict__ V, float* __restrict__ O, const __grid_constant__ CakeTensorMap tQ, const __grid_constant__ CakeTensorMap tK, const __grid_constant__ CakeTensorMap tV, long long S) {
#line 11 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 11 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 11 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 20 "@CAKE_FILE@"
  unsigned short* const sQ = (unsigned short*)(cake_smem + 0);  // 16384 bytes
#line 21 "@CAKE_FILE@"
  unsigned short* const sK = (unsigned short*)(cake_smem + 16384);  // 16384 bytes
#line 22 "@CAKE_FILE@"
  unsigned short* const sV = (unsigned short*)(cake_smem + 32768);  // 16384 bytes
#line 23 "@CAKE_FILE@"
  unsigned char* const qfull = cake_smem + 49152;  // 1 mbarrier(s), 8 bytes apart
#line 24 "@CAKE_FILE@"
  unsigned char* const full = cake_smem + 49160;  // 2 mbarrier(s), 8 bytes apart
#line 25 "@CAKE_FILE@"
  unsigned char* const empty = cake_smem + 49176;  // 2 mbarrier(s), 8 bytes apart
#line 23 "@CAKE_FILE@"
  if (threadIdx.x == 0) {
#line 23 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 1; ++cake_i) CAKE_MBAR_INIT(qfull + cake_i * 8, 1);
#line 24 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) CAKE_MBAR_INIT(full + cake_i * 8, 1);
#line 25 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) CAKE_MBAR_INIT(empty + cake_i * 8, 2);
#line 11 "@CAKE_FILE@"
    CAKE_FENCE_MBAR_INIT();
#line 11 "@CAKE_FILE@"
  }
#line 11 "@CAKE_FILE@"
  __syncthreads();
#line 30 "@CAKE_FILE@"
  // role producer warpgroup(0) maxnreg(40) {
#line 30 "@CAKE_FILE@"
  if (cake_warp < 4) {
#line 30 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 4;
#line 30 "@CAKE_FILE@"
    (void)cake_rank;
#line 30 "@CAKE_FILE@"
    CAKE_SETMAXNREG_DEC(40);  // from the launch's 168 registers per thread
#line 31 "@CAKE_FILE@"
    // elect {
#line 31 "@CAKE_FILE@"
    if (cake_warp == 0) {
#line 31 "@CAKE_FILE@"
      unsigned cake_elected;
#line 31 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 31 "@CAKE_FILE@"
      if (cake_elected) {
#line 32 "@CAKE_FILE@"
        // arrive.expect_tx qfull, bytes(sQ)
#line 32 "@CAKE_FILE@"
        CAKE_MBAR_ARRIVE_EXPECT_TX(qfull, 16384LL);
#line 33 "@CAKE_FILE@"
        // tma.load sQ <- tQ[block.x * 128, 0], qfull
#line 33 "@CAKE_FILE@"
        CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sQ + (0) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tQ, 0LL, ((long long)blockIdx.x * 128LL), qfull);
#line 34 "@CAKE_FILE@"
        // pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 {   // the key tiles up to the diagonal
#line 34 "@CAKE_FILE@"
        #pragma unroll 1
#line 34 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (((long long)blockIdx.x + 1LL) * 2LL); kt += 1LL) {
#line 34 "@CAKE_FILE@"
          const long long st = kt % 2;
#line 34 "@CAKE_FILE@"
          const long long cake_phase_st = kt / 2 % 2;
#line 34 "@CAKE_FILE@"
          (void)st; (void)cake_phase_st;
#line 35 "@CAKE_FILE@"
          // wait empty[st] parity(st.phase ^ 1)
#line 35 "@CAKE_FILE@"
          CAKE_MBAR_WAIT((empty + (st) * 8), (cake_phase_st ^ 1LL));
#line 36 "@CAKE_FILE@"
          // arrive.expect_tx full[st], bytes(sK[st]) + bytes(sV[st])
#line 36 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE_EXPECT_TX((full + (st) * 8), 16384LL);
#line 37 "@CAKE_FILE@"
          // tma.load sK[st] <- tK[kt * 64, 0], full[st]
#line 37 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sK + (st) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tK, 0LL, (kt * 64LL), (full + (st) * 8));
#line 38 "@CAKE_FILE@"
          // tma.load sV[st] <- tV[kt * 64, 0], full[st]
#line 38 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sV + (st) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tV, 0LL, (kt * 64LL), (full + (st) * 8));
#line 34 "@CAKE_FILE@"
        }
#line 31 "@CAKE_FILE@"
      }
#line 31 "@CAKE_FILE@"
    }
#line 30 "@CAKE_FILE@"
  }
#line 43 "@CAKE_FILE@"
  // role consumer warpgroup(1, 2) maxnreg(232) {
#line 43 "@CAKE_FILE@"
  if (cake_warp >= 4 && cake_warp < 12) {
#line 43 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 4) / 4;
#line 43 "@CAKE_FILE@"
    (void)cake_rank;
#line 43 "@CAKE_FILE@"
    CAKE_SETMAXNREG_INC(232);  // from the launch's 168 registers per thread
#line 44 "@CAKE_FILE@"
    // let wg = role.rank
#line 44 "@CAKE_FILE@"
    const long long wg = cake_rank;
#line 45 "@CAKE_FILE@"
    // let q0 = block.x * 128 + wg * 64
#line 45 "@CAKE_FILE@"
    const long long q0 = (((long long)blockIdx.x * 128LL) + (wg * 64LL));
#line 46 "@CAKE_FILE@"
    // reg s: f32[64, 64] layout(wgmma_acc)
#line 46 "@CAKE_FILE@"
    float s[32];
#line 47 "@CAKE_FILE@"
    // reg p: bf16[64, 64] layout(wgmma_acc)
#line 47 "@CAKE_FILE@"
    unsigned p[16];
#line 48 "@CAKE_FILE@"
    // reg o: f32[64, 64] layout(wgmma_acc) = 0
#line 48 "@CAKE_FILE@"
    float o[32];
#line 48 "@CAKE_FILE@"
    #pragma unroll
#line 48 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 32; ++cake_i) o[cake_i] = 0.0f;
#line 49 "@CAKE_FILE@"
    // reg m: f32[64] layout(wgmma_acc.row) = -inf
#line 49 "@CAKE_FILE@"
    float m[2];
#line 49 "@CAKE_FILE@"
    #pragma unroll
#line 49 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) m[cake_i] = (-CAKE_INF);
#line 50 "@CAKE_FILE@"
    // reg l: f32[64] layout(wgmma_acc.row) = 0
#line 50 "@CAKE_FILE@"
    float l[2];
#line 50 "@CAKE_FILE@"
    #pragma unroll
#line 50 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) l[cake_i] = 0.0f;
#line 51 "@CAKE_FILE@"
    // reg mt: f32[64] layout(wgmma_acc.row)
#line 51 "@CAKE_FILE@"
    float mt[2];
#line 52 "@CAKE_FILE@"
    // reg c: f32[64] layout(wgmma_acc.row)
#line 52 "@CAKE_FILE@"
    float c[2];
#line 53 "@CAKE_FILE@"
    // reg rs: f32[64] layout(wgmma_acc.row)
#line 53 "@CAKE_FILE@"
    float rs[2];
#line 54 "@CAKE_FILE@"
    // wait qfull parity(0)
#line 54 "@CAKE_FILE@"
    CAKE_MBAR_WAIT(qfull, 0LL);
#line 55 "@CAKE_FILE@"
    // pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 {
#line 55 "@CAKE_FILE@"
    #pragma unroll 1
#line 55 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (((long long)blockIdx.x + 1LL) * 2LL); kt += 1LL) {
#line 55 "@CAKE_FILE@"
      const long long st = kt % 2;
#line 55 "@CAKE_FILE@"
      const long long cake_phase_st = kt / 2 % 2;
#line 55 "@CAKE_FILE@"
      (void)st; (void)cake_phase_st;
#line 56 "@CAKE_FILE@"
      // wait full[st] parity(st.phase)
#line 56 "@CAKE_FILE@"
      CAKE_MBAR_WAIT((full + (st) * 8), cake_phase_st);
#line 57 "@CAKE_FILE@"
      // wgmma.fence
#line 57 "@CAKE_FILE@"
      CAKE_WGMMA_FENCE();
#line 58 "@CAKE_FILE@"
      // wgmma s = sQ[wg * 64 : 64, :] @ sK[st].T
#line 58 "@CAKE_FILE@"
      #pragma unroll
#line 58 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 58 "@CAKE_FILE@"
        CAKE_WGMMA_M64N64K16_BF16(s, CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sQ + (0) * 16384 + CAKE_SWIZZLE((((((wg * 64LL) + 0)) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sK + (st) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), cake_k > 0);
#line 59 "@CAKE_FILE@"
      // wgmma.commit
#line 59 "@CAKE_FILE@"
      CAKE_WGMMA_COMMIT();
#line 60 "@CAKE_FILE@"
      // wgmma.wait 0
#line 60 "@CAKE_FILE@"
      CAKE_WGMMA_WAIT(0);
#line 62 "@CAKE_FILE@"
      // s = select(kt * 64 + col(s) > q0 + row(s), -inf, s * 0.18033688011112042)
#line 62 "@CAKE_FILE@"
      #pragma unroll
#line 62 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 32; ++cake_i) s[cake_i] = ((float)(((int)(((int)(kt * 64LL)) + ((int)(2 * (cake_lane % 4) + (8 * ((cake_i) / 4) + ((cake_i) % 2)))))) > ((int)(q0 + ((int)(16 * (int)(cake_warp % 4) + cake_lane / 4 + (8 * (((cake_i) / 2) % 2))))))) != 0.0f ? (-CAKE_INF) : (s[cake_i] * 0.18033688f));
#line 63 "@CAKE_FILE@"
      // reduce.row max mt <- s
#line 63 "@CAKE_FILE@"
      #pragma unroll
#line 63 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 63 "@CAKE_FILE@"
        float cake_v = -CAKE_INF;
#line 63 "@CAKE_FILE@"
        #pragma unroll
#line 63 "@CAKE_FILE@"
        for (int cake_c = 0; cake_c < 16; ++cake_c) {
#line 63 "@CAKE_FILE@"
          const float cake_w = s[(4 * ((cake_c) / 2) + 2 * (cake_j) + (cake_c) % 2)];
#line 63 "@CAKE_FILE@"
          CAKE_MAX_INTO(cake_v, cake_w);
#line 63 "@CAKE_FILE@"
        }
#line 63 "@CAKE_FILE@"
        for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 63 "@CAKE_FILE@"
          const float cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);
#line 63 "@CAKE_FILE@"
          CAKE_MAX_INTO(cake_v, cake_w);
#line 63 "@CAKE_FILE@"
        }
#line 63 "@CAKE_FILE@"
        mt[cake_j] = cake_v;
#line 63 "@CAKE_FILE@"
      }
#line 64 "@CAKE_FILE@"
      // mt = max(m, mt)
#line 64 "@CAKE_FILE@"
      #pragma unroll
#line 64 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) mt[cake_i] = CAKE_MAX(m[cake_i], mt[cake_i]);
#line 65 "@CAKE_FILE@"
      // c = exp2(m - mt)
#line 65 "@CAKE_FILE@"
      #pragma unroll
#line 65 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) c[cake_i] = exp2f((m[cake_i] - mt[cake_i]));
#line 66 "@CAKE_FILE@"
      // s = exp2(s - mt)
#line 66 "@CAKE_FILE@"
      #pragma unroll
#line 66 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 32; ++cake_i) s[cake_i] = exp2f((s[cake_i] - mt[((cake_i) / 2) % 2]));
#line 67 "@CAKE_FILE@"
      // reduce.row sum rs <- s
#line 67 "@CAKE_FILE@"
      #pragma unroll
#line 67 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 67 "@CAKE_FILE@"
        float cake_v = 0.0f;
#line 67 "@CAKE_FILE@"
        #pragma unroll
#line 67 "@CAKE_FILE@"
        for (int cake_c = 0; cake_c < 16; ++cake_c) {
#line 67 "@CAKE_FILE@"
          const float cake_w = s[(4 * ((cake_c) / 2) + 2 * (cake_j) + (cake_c) % 2)];
#line 67 "@CAKE_FILE@"
          cake_v = cake_v + cake_w;
#line 67 "@CAKE_FILE@"
        }
#line 67 "@CAKE_FILE@"
        for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 67 "@CAKE_FILE@"
          const float cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);
#line 67 "@CAKE_FILE@"
          cake_v = cake_v + cake_w;
#line 67 "@CAKE_FILE@"
        }
#line 67 "@CAKE_FILE@"
        rs[cake_j] = cake_v;
#line 67 "@CAKE_FILE@"
      }
#line 68 "@CAKE_FILE@"
      // l = l * c + rs
#line 68 "@CAKE_FILE@"
      #pragma unroll
#line 68 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) l[cake_i] = ((l[cake_i] * c[cake_i]) + rs[cake_i]);
#line 69 "@CAKE_FILE@"
      // o = o * c
#line 69 "@CAKE_FILE@"
      #pragma unroll
#line 69 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 32; ++cake_i) o[cake_i] = (o[cake_i] * c[((cake_i) / 2) % 2]);
#line 70 "@CAKE_FILE@"
      // m = mt
#line 70 "@CAKE_FILE@"
      #pragma unroll
#line 70 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 2; ++cake_i) m[cake_i] = mt[cake_i];
#line 71 "@CAKE_FILE@"
      // p = cvt<bf16>(s)
#line 71 "@CAKE_FILE@"
      #pragma unroll
#line 71 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 16; ++cake_j) CAKE_PACK_BF16X2(p[cake_j], s[(2 * cake_j)], s[(2 * cake_j + 1)]);
#line 72 "@CAKE_FILE@"
      // wgmma.fence
#line 72 "@CAKE_FILE@"
      CAKE_WGMMA_FENCE();
#line 73 "@CAKE_FILE@"
      // wgmma o += p @ sV[st]
#line 73 "@CAKE_FILE@"
      #pragma unroll
#line 73 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 73 "@CAKE_FILE@"
        CAKE_WGMMA_M64N64K16_BF16_RS_TB(o, &p[4 * cake_k], CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sV + (st) * 8192 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 2048 * cake_k, 1024, 1), 1);
#line 74 "@CAKE_FILE@"
      // wgmma.commit
#line 74 "@CAKE_FILE@"
      CAKE_WGMMA_COMMIT();
#line 75 "@CAKE_FILE@"
      // wgmma.wait 0
#line 75 "@CAKE_FILE@"
      CAKE_WGMMA_WAIT(0);
#line 76 "@CAKE_FILE@"
      // elect.warpgroup { arrive empty[st] }
#line 76 "@CAKE_FILE@"
      if (cake_warp == 4 || cake_warp % 4 == 0) {
#line 76 "@CAKE_FILE@"
        unsigned cake_elected;
#line 76 "@CAKE_FILE@"
        CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 76 "@CAKE_FILE@"
        if (cake_elected) {
#line 76 "@CAKE_FILE@"
          // arrive empty[st]
#line 76 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE((empty + (st) * 8));
#line 76 "@CAKE_FILE@"
        }
#line 76 "@CAKE_FILE@"
      }
#line 55 "@CAKE_FILE@"
    }
#line 78 "@CAKE_FILE@"
    // o = o / l
#line 78 "@CAKE_FILE@"
    #pragma unroll
#line 78 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 32; ++cake_i) o[cake_i] = (o[cake_i] / l[((cake_i) / 2) % 2]);
#line 79 "@CAKE_FILE@"
    // store O[q0 : 64, :] <- o
#line 79 "@CAKE_FILE@"
    {
#line 79 "@CAKE_FILE@"
      auto* const cake_corner = &O[((q0 + 16 * (int)(cake_warp % 4) + cake_lane / 4)) * 64LL + 2 * (cake_lane % 4)];
#line 79 "@CAKE_FILE@"
      #pragma unroll
#line 79 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 16; ++cake_j) CAKE_ST_PAIR_F32(&cake_corner[((8 * ((((2 * cake_j)) / 2) % 2))) * 64LL + (8 * (((2 * cake_j)) / 4) + (((2 * cake_j)) % 2))], o[2 * cake_j], o[2 * cake_j + 1]);
#line 79 "@CAKE_FILE@"
    }
#line 43 "@CAKE_FILE@"
  }
#line 81 "@CAKE_FILE@"
}
