#ifdef CAKE_TMA_HOST
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) do { const long long cake_c[] = {(long long)(c0), (long long)(c1)}; CAKE_TMA_HOST_LOAD(2, (dst), (map), cake_c, (bar), 0u); } while (0)
#else
// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar`.
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) \
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"((unsigned long long)(map)), "r"((int)(c0)), "r"((int)(c1)), "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#endif
#ifdef CAKE_WGMMA_HOST
#define CAKE_WGMMA_M64N128K16_BF16(d, a, db, scale_d) CAKE_WGMMA_HOST(128, "bf16", (d), (a), (db), (scale_d), 0, 0)
#else
// d (64 f32) = A (descriptor a) @ B (descriptor db), plus d when scale_d is not 0.
#define CAKE_WGMMA_M64N128K16_BF16(d, a, db, scale_d) \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %66, 0; " \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, cake_p, 1, 1, 0, 0; }" \
      : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]) \
      , "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]) \
      , "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]) \
      , "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]) \
      , "+f"((d)[32]), "+f"((d)[33]), "+f"((d)[34]), "+f"((d)[35]), "+f"((d)[36]), "+f"((d)[37]), "+f"((d)[38]), "+f"((d)[39]) \
      , "+f"((d)[40]), "+f"((d)[41]), "+f"((d)[42]), "+f"((d)[43]), "+f"((d)[44]), "+f"((d)[45]), "+f"((d)[46]), "+f"((d)[47]) \
      , "+f"((d)[48]), "+f"((d)[49]), "+f"((d)[50]), "+f"((d)[51]), "+f"((d)[52]), "+f"((d)[53]), "+f"((d)[54]), "+f"((d)[55]) \
      , "+f"((d)[56]), "+f"((d)[57]), "+f"((d)[58]), "+f"((d)[59]), "+f"((d)[60]), "+f"((d)[61]), "+f"((d)[62]), "+f"((d)[63]) \
      : "l"(a), "l"(db), "r"((unsigned)(scale_d)))
#endif
#line 8 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(384, 1)
#line 8 "@CAKE_FILE@"
kmeans_assign(unsigned short* __restrict__ X, unsigned short* __restrict__ C, float* __restrict__ Cnorm, int* __restrict__ out, const __grid_constant__ CakeTensorMap tX, const __grid_constant__ CakeTensorMap tC, long long N, long long K) {
#line 8 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 8 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 8 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 17 "@CAKE_FILE@"
  unsigned short* const xs = (unsigned short*)(cake_smem + 0);  // 16384 bytes
#line 18 "@CAKE_FILE@"
  unsigned short* const cs = (unsigned short*)(cake_smem + 16384);  // 49152 bytes
#line 19 "@CAKE_FILE@"
  float* const cn = (float*)(cake_smem + 65536);  // 1536 bytes
#line 20 "@CAKE_FILE@"
  unsigned char* const x_full = cake_smem + 67072;  // 1 mbarrier(s), 8 bytes apart
#line 21 "@CAKE_FILE@"
  unsigned char* const full = cake_smem + 67080;  // 3 mbarrier(s), 8 bytes apart
#line 22 "@CAKE_FILE@"
  unsigned char* const empty = cake_smem + 67104;  // 3 mbarrier(s), 8 bytes apart
#line 20 "@CAKE_FILE@"
  if (threadIdx.x == 0) {
#line 20 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 1; ++cake_i) CAKE_MBAR_INIT(x_full + cake_i * 8, 1);
#line 21 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 3; ++cake_i) CAKE_MBAR_INIT(full + cake_i * 8, 1);
#line 22 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 3; ++cake_i) CAKE_MBAR_INIT(empty + cake_i * 8, 256);
#line 8 "@CAKE_FILE@"
    CAKE_FENCE_MBAR_INIT();
#line 8 "@CAKE_FILE@"
  }
#line 8 "@CAKE_FILE@"
  __syncthreads();
#line 27 "@CAKE_FILE@"
  // role producer warpgroup(0) maxnreg(40) {
#line 27 "@CAKE_FILE@"
  if (cake_warp < 4) {
#line 27 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 4;
#line 27 "@CAKE_FILE@"
    (void)cake_rank;
#line 27 "@CAKE_FILE@"
    CAKE_SETMAXNREG_DEC(40);  // from the launch's 168 registers per thread
#line 28 "@CAKE_FILE@"
    // elect {
#line 28 "@CAKE_FILE@"
    if (cake_warp == 0) {
#line 28 "@CAKE_FILE@"
      unsigned cake_elected;
#line 28 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 28 "@CAKE_FILE@"
      if (cake_elected) {
#line 29 "@CAKE_FILE@"
        // arrive.expect_tx x_full, bytes(xs)
#line 29 "@CAKE_FILE@"
        CAKE_MBAR_ARRIVE_EXPECT_TX(x_full, 16384LL);
#line 30 "@CAKE_FILE@"
        // tma.load xs <- tX[block.x * 128, 0], x_full
#line 30 "@CAKE_FILE@"
        CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)xs + (0) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tX, 0LL, ((long long)blockIdx.x * 128LL), x_full);
#line 31 "@CAKE_FILE@"
        // pipeline s in ring(3) for kt in 0 .. K / 128 {
#line 31 "@CAKE_FILE@"
        #pragma unroll 1
#line 31 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (K / 128LL); kt += 1LL) {
#line 31 "@CAKE_FILE@"
          const long long s = kt % 3;
#line 31 "@CAKE_FILE@"
          const long long cake_phase_s = kt / 3 % 2;
#line 31 "@CAKE_FILE@"
          (void)s; (void)cake_phase_s;
#line 32 "@CAKE_FILE@"
          // wait empty[s] parity(s.phase ^ 1)
#line 32 "@CAKE_FILE@"
          CAKE_MBAR_WAIT((empty + (s) * 8), (cake_phase_s ^ 1LL));
#line 33 "@CAKE_FILE@"
          // arrive.expect_tx full[s], bytes(cs[s]) + bytes(cn[s])
#line 33 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE_EXPECT_TX((full + (s) * 8), 16896LL);
#line 34 "@CAKE_FILE@"
          // tma.load cs[s] <- tC[kt * 128, 0], full[s]
#line 34 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)cs + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tC, 0LL, (kt * 128LL), (full + (s) * 8));
#line 35 "@CAKE_FILE@"
          // bulk.load cn[s] <- Cnorm[kt * 128 : 128], full[s]
#line 35 "@CAKE_FILE@"
          CAKE_BULK_LOAD(&cn[(s) * 128LL + 0], &Cnorm[((kt * 128LL) + 0)], 512, (full + (s) * 8));
#line 31 "@CAKE_FILE@"
        }
#line 28 "@CAKE_FILE@"
      }
#line 28 "@CAKE_FILE@"
    }
#line 27 "@CAKE_FILE@"
  }
#line 40 "@CAKE_FILE@"
  // role consumer warpgroup(1, 2) maxnreg(232) {
#line 40 "@CAKE_FILE@"
  if (cake_warp >= 4 && cake_warp < 12) {
#line 40 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 4) / 4;
#line 40 "@CAKE_FILE@"
    (void)cake_rank;
#line 40 "@CAKE_FILE@"
    CAKE_SETMAXNREG_INC(232);  // from the launch's 168 registers per thread
#line 41 "@CAKE_FILE@"
    // let wg = role.rank
#line 41 "@CAKE_FILE@"
    const long long wg = cake_rank;
#line 42 "@CAKE_FILE@"
    // reg acc:  f32[64, 128] layout(wgmma_acc)
#line 42 "@CAKE_FILE@"
    float acc[64];
#line 43 "@CAKE_FILE@"
    // reg best: f32[64] layout(wgmma_acc.row) = +inf
#line 43 "@CAKE_FILE@"
    float best[2];
#line 43 "@CAKE_FILE@"
    #pragma unroll
#line 43 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) best[cake_i] = (+CAKE_INF);
#line 44 "@CAKE_FILE@"
    // reg arg:  i32[64] layout(wgmma_acc.row) = 0
#line 44 "@CAKE_FILE@"
    int arg[2];
#line 44 "@CAKE_FILE@"
    #pragma unroll
#line 44 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 2; ++cake_i) arg[cake_i] = (int)(0LL);
#line 45 "@CAKE_FILE@"
    // wait x_full parity(0)
#line 45 "@CAKE_FILE@"
    CAKE_MBAR_WAIT(x_full, 0LL);
#line 46 "@CAKE_FILE@"
    // pipeline s in ring(3) for kt in 0 .. K / 128 {
#line 46 "@CAKE_FILE@"
    #pragma unroll 1
#line 46 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (K / 128LL); kt += 1LL) {
#line 46 "@CAKE_FILE@"
      const long long s = kt % 3;
#line 46 "@CAKE_FILE@"
      const long long cake_phase_s = kt / 3 % 2;
#line 46 "@CAKE_FILE@"
      (void)s; (void)cake_phase_s;
#line 47 "@CAKE_FILE@"
      // wait full[s] parity(s.phase)
#line 47 "@CAKE_FILE@"
      CAKE_MBAR_WAIT((full + (s) * 8), cake_phase_s);
#line 48 "@CAKE_FILE@"
      // wgmma.fence
#line 48 "@CAKE_FILE@"
      CAKE_WGMMA_FENCE();
#line 49 "@CAKE_FILE@"
      // wgmma acc = xs[wg * 64 : 64, :] @ cs[s].T
#line 49 "@CAKE_FILE@"
      #pragma unroll
#line 49 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 49 "@CAKE_FILE@"
        CAKE_WGMMA_M64N128K16_BF16(acc, CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)xs + (0) * 16384 + CAKE_SWIZZLE((((((wg * 64LL) + 0)) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)cs + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), cake_k > 0);
#line 50 "@CAKE_FILE@"
      // wgmma.commit
#line 50 "@CAKE_FILE@"
      CAKE_WGMMA_COMMIT();
#line 51 "@CAKE_FILE@"
      // wgmma.wait 0
#line 51 "@CAKE_FILE@"
      CAKE_WGMMA_WAIT(0);
#line 52 "@CAKE_FILE@"
      // acc = cn[s] - 2.0 * acc
#line 52 "@CAKE_FILE@"
      #pragma unroll
#line 52 "@CAKE_FILE@"
      for (int cake_i = 0; cake_i < 64; ++cake_i) acc[cake_i] = ((float)cn[(s) * 128LL + (2 * (cake_lane % 4) + (8 * ((cake_i) / 4) + ((cake_i) % 2)))] - (2.0f * acc[cake_i]));
#line 53 "@CAKE_FILE@"
      // argmin.row best, arg <- acc, base(kt * 128)
#line 53 "@CAKE_FILE@"
      #pragma unroll
#line 53 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 2; ++cake_j) {
#line 53 "@CAKE_FILE@"
        float cake_w = CAKE_INF;
#line 53 "@CAKE_FILE@"
        int cake_col = -1;
#line 53 "@CAKE_FILE@"
        #pragma unroll
#line 53 "@CAKE_FILE@"
        for (int cake_c = 0; cake_c < 32; ++cake_c) {
#line 53 "@CAKE_FILE@"
          const float cake_u = acc[(4 * ((cake_c) / 2) + 2 * (cake_j) + (cake_c) % 2)];
#line 53 "@CAKE_FILE@"
          if (cake_u < cake_w) { cake_w = cake_u; cake_col = (8 * ((cake_c) / 2) + 2 * (int)(cake_lane % 4) + (cake_c) % 2); }
#line 53 "@CAKE_FILE@"
        }
#line 53 "@CAKE_FILE@"
        for (int cake_o = 1; cake_o < 4; cake_o *= 2) {
#line 53 "@CAKE_FILE@"
          const float cake_u = __shfl_xor_sync(0xffffffffu, cake_w, cake_o);
#line 53 "@CAKE_FILE@"
          const int cake_k = __shfl_xor_sync(0xffffffffu, cake_col, cake_o);
#line 53 "@CAKE_FILE@"
          if (cake_u < cake_w || (cake_u == cake_w && (unsigned)cake_k < (unsigned)cake_col)) { cake_w = cake_u; cake_col = cake_k; }
#line 53 "@CAKE_FILE@"
        }
#line 53 "@CAKE_FILE@"
        if (cake_w < best[cake_j]) { best[cake_j] = cake_w; arg[cake_j] = (int)(cake_col + (kt * 128LL)); }
#line 53 "@CAKE_FILE@"
      }
#line 54 "@CAKE_FILE@"
      // arrive empty[s]
#line 54 "@CAKE_FILE@"
      CAKE_MBAR_ARRIVE((empty + (s) * 8));
#line 46 "@CAKE_FILE@"
    }
#line 56 "@CAKE_FILE@"
    // store out[block.x * 128 + wg * 64 : 64] <- arg
#line 56 "@CAKE_FILE@"
    if (cake_lane % 4 == 0) {
#line 56 "@CAKE_FILE@"
      {
#line 56 "@CAKE_FILE@"
        auto* const cake_corner = &out[((((long long)blockIdx.x * 128LL) + (wg * 64LL)) + 16 * (int)(cake_warp % 4) + cake_lane / 4)];
#line 56 "@CAKE_FILE@"
        #pragma unroll
#line 56 "@CAKE_FILE@"
        for (int cake_i = 0; cake_i < 2; ++cake_i) cake_corner[(8 * (cake_i))] = arg[cake_i];
#line 56 "@CAKE_FILE@"
      }
#line 56 "@CAKE_FILE@"
    }
#line 40 "@CAKE_FILE@"
  }
#line 58 "@CAKE_FILE@"
}
