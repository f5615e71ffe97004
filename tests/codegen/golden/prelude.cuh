// ---- cake prelude ----
#define CAKE_INF __int_as_float(0x7f800000)
#define CAKE_NAN __int_as_float(0x7fffffff)
// 16-bit floats are kept as their bits and widened to f32 for arithmetic;
// a value stored to one is rounded to nearest even, as cvt.rn does (PTX ISA,
// cvt). bf16 is the top half of an f32, so both ways are bit
// arithmetic (NaN stays a quiet NaN); f16 goes through cvt in functions.
#define CAKE_BF16_F32(h) __uint_as_float((unsigned)(h) << 16)
#define CAKE_BF16_RN(u) ((((u) & 0x7fffffffu) > 0x7f800000u) ? 0x7fc00000u : (u) + 0x7fffu + (((u) >> 16) & 1u))
#define CAKE_F32_BF16(x) ((unsigned short)(CAKE_BF16_RN(__float_as_uint(x)) >> 16))
#define CAKE_ROUND_BF16(x) CAKE_BF16_F32(CAKE_F32_BF16(x))
static __device__ __forceinline__ float cake_f16_f32(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
static __device__ __forceinline__ unsigned short cake_f32_f16(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
#define CAKE_F16_F32(h) cake_f16_f32(h)
#define CAKE_F32_F16(x) cake_f32_f16(x)
#define CAKE_ROUND_F16(x) cake_f16_f32(cake_f32_f16(x))
// max/min as the CPU executor computes them: NaN in, NaN out.
#define CAKE_MAX(a, b) ((isnan(a) || isnan(b)) ? CAKE_NAN : fmaxf((a), (b)))
#define CAKE_MIN(a, b) ((isnan(a) || isnan(b)) ? CAKE_NAN : fminf((a), (b)))
// ---- end of prelude ----
