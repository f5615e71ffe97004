#ifdef CAKE_TMA_HOST
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) do { const long long cake_c[] = {(long long)(c0), (long long)(c1)}; CAKE_TMA_HOST_LOAD(2, (dst), (map), cake_c, (bar), 0u); } while (0)
#else
// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar`.
#define CAKE_TMA_LOAD_2D(dst, map, c0, c1, bar) \
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"((unsigned long long)(map)), "r"((int)(c0)), "r"((int)(c1)), "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#endif
#ifdef CAKE_WGMMA_HOST
#define CAKE_WGMMA_M64N256K16_BF16(d, a, db, scale_d) CAKE_WGMMA_HOST(256, "bf16", (d), (a), (db), (scale_d), 0, 0)
#else
// d (128 f32) = A (descriptor a) @ B (descriptor db), plus d when scale_d is not 0.
#define CAKE_WGMMA_M64N256K16_BF16(d, a, db, scale_d) \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %130, 0; " \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, cake_p, 1, 1, 0, 0; }" \
      : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), "+f"((d)[6]), "+f"((d)[7]) \
      , "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]) \
      , "+f"((d)[16]), "+f"((d)[17]), "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]) \
      , "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), "+f"((d)[30]), "+f"((d)[31]) \
      , "+f"((d)[32]), "+f"((d)[33]), "+f"((d)[34]), "+f"((d)[35]), "+f"((d)[36]), "+f"((d)[37]), "+f"((d)[38]), "+f"((d)[39]) \
      , "+f"((d)[40]), "+f"((d)[41]), "+f"((d)[42]), "+f"((d)[43]), "+f"((d)[44]), "+f"((d)[45]), "+f"((d)[46]), "+f"((d)[47]) \
      , "+f"((d)[48]), "+f"((d)[49]), "+f"((d)[50]), "+f"((d)[51]), "+f"((d)[52]), "+f"((d)[53]), "+f"((d)[54]), "+f"((d)[55]) \
      , "+f"((d)[56]), "+f"((d)[57]), "+f"((d)[58]), "+f"((d)[59]), "+f"((d)[60]), "+f"((d)[61]), "+f"((d)[62]), "+f"((d)[63]) \
      , "+f"((d)[64]), "+f"((d)[65]), "+f"((d)[66]), "+f"((d)[67]), "+f"((d)[68]), "+f"((d)[69]), "+f"((d)[70]), "+f"((d)[71]) \
      , "+f"((d)[72]), "+f"((d)[73]), "+f"((d)[74]), "+f"((d)[75]), "+f"((d)[76]), "+f"((d)[77]), "+f"((d)[78]), "+f"((d)[79]) \
      , "+f"((d)[80]), "+f"((d)[81]), "+f"((d)[82]), "+f"((d)[83]), "+f"((d)[84]), "+f"((d)[85]), "+f"((d)[86]), "+f"((d)[87]) \
      , "+f"((d)[88]), "+f"((d)[89]), "+f"((d)[90]), "+f"((d)[91]), "+f"((d)[92]), "+f"((d)[93]), "+f"((d)[94]), "+f"((d)[95]) \
      , "+f"((d)[96]), "+f"((d)[97]), "+f"((d)[98]), "+f"((d)[99]), "+f"((d)[100]), "+f"((d)[101]), "+f"((d)[102]), "+f"((d)[103]) \
      , "+f"((d)[104]), "+f"((d)[105]), "+f"((d)[106]), "+f"((d)[107]), "+f"((d)[108]), "+f"((d)[109]), "+f"((d)[110]), "+f"((d)[111]) \
      , "+f"((d)[112]), "+f"((d)[113]), "+f"((d)[114]), "+f"((d)[115]), "+f"((d)[116]), "+f"((d)[117]), "+f"((d)[118]), "+f"((d)[119]) \
      , "+f"((d)[120]), "+f"((d)[121]), "+f"((d)[122]), "+f"((d)[123]), "+f"((d)[124]), "+f"((d)[125]), "+f"((d)[126]), "+f"((d)[127]) \
      : "l"(a), "l"(db), "r"((unsigned)(scale_d)))
#endif
#line 8 "@CAKE_FILE@"
extern "C" __global__ void __launch_bounds__(384, 1)
#line 8 "@CAKE_FILE@"
hopper_gemm(unsigned short* __restrict__ A, unsigned short* __restrict__ B, unsigned short* __restrict__ C, const __grid_constant__ CakeTensorMap tA, const __grid_constant__ CakeTensorMap tB, long long M, long long K, long long N) {
#line 8 "@CAKE_FILE@"
  extern __shared__ __align__(1024) unsigned char cake_smem[];
#line 8 "@CAKE_FILE@"
  const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform
#line 8 "@CAKE_FILE@"
  const unsigned cake_lane = threadIdx.x % 32;
#line 16 "@CAKE_FILE@"
  unsigned short* const sA = (unsigned short*)(cake_smem + 0);  // 65536 bytes
#line 17 "@CAKE_FILE@"
  unsigned short* const sB = (unsigned short*)(cake_smem + 65536);  // 131072 bytes
#line 18 "@CAKE_FILE@"
  unsigned char* const full = cake_smem + 196608;  // 4 mbarrier(s), 8 bytes apart
#line 19 "@CAKE_FILE@"
  unsigned char* const empty = cake_smem + 196640;  // 4 mbarrier(s), 8 bytes apart
#line 18 "@CAKE_FILE@"
  if (threadIdx.x == 0) {
#line 18 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(full + cake_i * 8, 1);
#line 19 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 4; ++cake_i) CAKE_MBAR_INIT(empty + cake_i * 8, 2);
#line 8 "@CAKE_FILE@"
    CAKE_FENCE_MBAR_INIT();
#line 8 "@CAKE_FILE@"
  }
#line 8 "@CAKE_FILE@"
  __syncthreads();
#line 24 "@CAKE_FILE@"
  // role producer warpgroup(0) maxnreg(40) {
#line 24 "@CAKE_FILE@"
  if (cake_warp < 4) {
#line 24 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 0) / 4;
#line 24 "@CAKE_FILE@"
    (void)cake_rank;
#line 24 "@CAKE_FILE@"
    CAKE_SETMAXNREG_DEC(40);  // from the launch's 168 registers per thread
#line 25 "@CAKE_FILE@"
    // elect {
#line 25 "@CAKE_FILE@"
    if (cake_warp == 0) {
#line 25 "@CAKE_FILE@"
      unsigned cake_elected;
#line 25 "@CAKE_FILE@"
      CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 25 "@CAKE_FILE@"
      if (cake_elected) {
#line 26 "@CAKE_FILE@"
        // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 26 "@CAKE_FILE@"
        #pragma unroll 1
#line 26 "@CAKE_FILE@"
        for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 26 "@CAKE_FILE@"
          const long long s = kt % 4;
#line 26 "@CAKE_FILE@"
          const long long cake_phase_s = kt / 4 % 2;
#line 26 "@CAKE_FILE@"
          (void)s; (void)cake_phase_s;
#line 27 "@CAKE_FILE@"
          // wait empty[s] parity(s.phase ^ 1)
#line 27 "@CAKE_FILE@"
          CAKE_MBAR_WAIT((empty + (s) * 8), (cake_phase_s ^ 1LL));
#line 28 "@CAKE_FILE@"
          // arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])
#line 28 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE_EXPECT_TX((full + (s) * 8), 49152LL);
#line 29 "@CAKE_FILE@"
          // tma.load sA[s] <- tA[block.y * 128, kt * 64], full[s]
#line 29 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sA + (s) * 16384 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tA, (kt * 64LL), ((long long)blockIdx.y * 128LL), (full + (s) * 8));
#line 30 "@CAKE_FILE@"
          // tma.load sB[s] <- tB[block.x * 256, kt * 64], full[s]
#line 30 "@CAKE_FILE@"
          CAKE_TMA_LOAD_2D(&(*(unsigned short*)((unsigned char*)sB + (s) * 32768 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))), &tB, (kt * 64LL), ((long long)blockIdx.x * 256LL), (full + (s) * 8));
#line 26 "@CAKE_FILE@"
        }
#line 25 "@CAKE_FILE@"
      }
#line 25 "@CAKE_FILE@"
    }
#line 24 "@CAKE_FILE@"
  }
#line 35 "@CAKE_FILE@"
  // role consumer warpgroup(1, 2) maxnreg(232) {   // 40 x 128 + 232 x 256 = 64512 = the pool
#line 35 "@CAKE_FILE@"
  if (cake_warp >= 4 && cake_warp < 12) {
#line 35 "@CAKE_FILE@"
    const long long cake_rank = ((long long)cake_warp - 4) / 4;
#line 35 "@CAKE_FILE@"
    (void)cake_rank;
#line 35 "@CAKE_FILE@"
    CAKE_SETMAXNREG_INC(232);  // from the launch's 168 registers per thread
#line 36 "@CAKE_FILE@"
    // let wg = role.rank
#line 36 "@CAKE_FILE@"
    const long long wg = cake_rank;
#line 37 "@CAKE_FILE@"
    // reg acc: f32[64, 256] layout(wgmma_acc) = 0
#line 37 "@CAKE_FILE@"
    float acc[128];
#line 37 "@CAKE_FILE@"
    #pragma unroll
#line 37 "@CAKE_FILE@"
    for (int cake_i = 0; cake_i < 128; ++cake_i) acc[cake_i] = 0.0f;
#line 38 "@CAKE_FILE@"
    // reg o: bf16[64, 256] layout(wgmma_acc)
#line 38 "@CAKE_FILE@"
    unsigned o[64];
#line 39 "@CAKE_FILE@"
    // pipeline s in ring(4) for kt in 0 .. K / 64 {
#line 39 "@CAKE_FILE@"
    #pragma unroll 1
#line 39 "@CAKE_FILE@"
    for (long long kt = 0LL; kt < (K / 64LL); kt += 1LL) {
#line 39 "@CAKE_FILE@"
      const long long s = kt % 4;
#line 39 "@CAKE_FILE@"
      const long long cake_phase_s = kt / 4 % 2;
#line 39 "@CAKE_FILE@"
      (void)s; (void)cake_phase_s;
#line 40 "@CAKE_FILE@"
      // wait full[s] parity(s.phase)
#line 40 "@CAKE_FILE@"
      CAKE_MBAR_WAIT((full + (s) * 8), cake_phase_s);
#line 41 "@CAKE_FILE@"
      // wgmma.fence
#line 41 "@CAKE_FILE@"
      CAKE_WGMMA_FENCE();
#line 42 "@CAKE_FILE@"
      // wgmma acc += sA[s][wg * 64 : 64, :] @ sB[s].T
#line 42 "@CAKE_FILE@"
      #pragma unroll
#line 42 "@CAKE_FILE@"
      for (int cake_k = 0; cake_k < 4; ++cake_k)
#line 42 "@CAKE_FILE@"
        CAKE_WGMMA_M64N256K16_BF16(acc, CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sA + (s) * 16384 + CAKE_SWIZZLE((((((wg * 64LL) + 0)) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), CAKE_WGMMA_DESC((const unsigned char*)&(*(unsigned short*)((unsigned char*)sB + (s) * 32768 + CAKE_SWIZZLE((((0) * 64LL + 0) * 2), 7, 7, 4))) + 32 * cake_k, 1024, 1), 1);
#line 43 "@CAKE_FILE@"
      // wgmma.commit
#line 43 "@CAKE_FILE@"
      CAKE_WGMMA_COMMIT();
#line 44 "@CAKE_FILE@"
      // wgmma.wait 0
#line 44 "@CAKE_FILE@"
      CAKE_WGMMA_WAIT(0);
#line 45 "@CAKE_FILE@"
      // elect.warpgroup { arrive empty[s] }
#line 45 "@CAKE_FILE@"
      if (cake_warp == 4 || cake_warp % 4 == 0) {
#line 45 "@CAKE_FILE@"
        unsigned cake_elected;
#line 45 "@CAKE_FILE@"
        CAKE_ELECT_SYNC(cake_elected, 0xffffffffu);
#line 45 "@CAKE_FILE@"
        if (cake_elected) {
#line 45 "@CAKE_FILE@"
          // arrive empty[s]
#line 45 "@CAKE_FILE@"
          CAKE_MBAR_ARRIVE((empty + (s) * 8));
#line 45 "@CAKE_FILE@"
        }
#line 45 "@CAKE_FILE@"
      }
#line 39 "@CAKE_FILE@"
    }
#line 47 "@CAKE_FILE@"
    // o = cvt<bf16>(acc)
#line 47 "@CAKE_FILE@"
    #pragma unroll
#line 47 "@CAKE_FILE@"
    for (int cake_j = 0; cake_j < 64; ++cake_j) CAKE_PACK_BF16X2(o[cake_j], acc[(2 * cake_j)], acc[(2 * cake_j + 1)]);
#line 48 "@CAKE_FILE@"
    // store C[block.y * 128 + wg * 64 : 64, block.x * 256 : 256] <- o
#line 48 "@CAKE_FILE@"
    {
#line 48 "@CAKE_FILE@"
      auto* const cake_corner = &C[(((((long long)blockIdx.y * 128LL) + (wg * 64LL)) + 16 * (int)(cake_warp % 4) + cake_lane / 4)) * N + (((long long)blockIdx.x * 256LL) + 2 * (cake_lane % 4))];
#line 48 "@CAKE_FILE@"
      #pragma unroll
#line 48 "@CAKE_FILE@"
      for (int cake_j = 0; cake_j < 64; ++cake_j) CAKE_ST_B32(&cake_corner[((8 * ((((2 * cake_j)) / 2) % 2))) * N + (8 * (((2 * cake_j)) / 4) + (((2 * cake_j)) % 2))], o[cake_j]);
#line 48 "@CAKE_FILE@"
    }
#line 35 "@CAKE_FILE@"
  }
#line 50 "@CAKE_FILE@"
}
