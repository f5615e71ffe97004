// lower(): the kernel's frame (signature, launch bounds), the prelude, the
// shared-memory carve-up from KernelFacts' layout (the verifier's offsets:
// one formula), the warp and lane of each thread, then the statements
// (statements.cpp). See cake/codegen/lower.h and docs/lowering.md.
#include "emitter.h"

#include "cake/fragment_order.h"

#include "cake/registry.h"

#include <algorithm>

namespace cake::codegen {
namespace {

// The prelude every translation unit carries (no #include: nothing is read
// at compile time). Helpers that emit instructions are macros, so the
// instructions map to the `.cake` line of their use (docs/lowering.md).
constexpr const char* kPrelude = R"(// ---- cake prelude ----
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
// tf32 is an f32 whose low 13 mantissa bits are zero. A value stored to one
// is rounded to nearest even by the same bit arithmetic (cvt.rna.tf32.f32
// rounds ties away from zero, and cvt.rn.tf32.f32 needs sm_90).
#define CAKE_TF32_RN(u) \
  ((((u) & 0x7fffffffu) > 0x7f800000u) ? 0x7fc00000u : ((u) + 0xfffu + (((u) >> 13) & 1u)) & 0xffffe000u)
#define CAKE_ROUND_TF32(x) __uint_as_float(CAKE_TF32_RN(__float_as_uint(x)))
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
// d = two f32 values rounded to 16-bit floats and packed, `lo` in the
// lower half, by one cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32 (sm_80+), which
// takes its upper half first. A packed fragment written whole is written a
// register at a time with these.
#ifndef CAKE_PACK_BF16X2
#define CAKE_PACK_BF16X2(d, lo, hi) asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo))
#define CAKE_PACK_F16X2(d, lo, hi) asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo))
#endif
// 8-bit floats are kept as their bits. To f32 exactly: e5m2 is the top
// byte of an f16; e4m3's magnitude bits under an f32 exponent field are the
// value times 2^-120 (subnormals too), and S.1111.111 is its only NaN. From
// f32 by cvt.rn.satfinite (sm_89+): nearest even, beyond the largest finite
// value that value, NaN a NaN; cvt's .e4m3x2/.e5m2x2 forms take the upper
// byte first. A packed register of four is written by two conversions.
#define CAKE_E4M3_F32(b)                                                                              \
  ((((unsigned)(b) & 0x7fu) == 0x7fu)                                                                 \
       ? CAKE_NAN                                                                                     \
       : __uint_as_float(__float_as_uint(__uint_as_float(((unsigned)(b) & 0x7fu) << 20) * 0x1p120f) | \
                         (((unsigned)(b) & 0x80u) << 24)))
#ifndef CAKE_E5M2_F32
#define CAKE_E5M2_F32(b) CAKE_F16_F32((unsigned short)(((unsigned)(b) & 0xffu) << 8))
#endif
static __device__ __forceinline__ unsigned char cake_f32_e4m3(float f) {
  unsigned short h;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(0.0f), "f"(f));
  return (unsigned char)h;
}
static __device__ __forceinline__ unsigned char cake_f32_e5m2(float f) {
  unsigned short h;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(0.0f), "f"(f));
  return (unsigned char)h;
}
#ifndef CAKE_F32_E4M3
#define CAKE_F32_E4M3(x) cake_f32_e4m3(x)
#define CAKE_F32_E5M2(x) cake_f32_e5m2(x)
#endif
#ifndef CAKE_PACK_E4M3X4
#define CAKE_PACK_F8X4(t, d, v0, v1, v2, v3)                                                       \
  do {                                                                                             \
    unsigned short cake_lo, cake_hi;                                                               \
    asm("cvt.rn.satfinite." t "x2.f32 %0, %1, %2;" : "=h"(cake_lo) : "f"(v1), "f"(v0));            \
    asm("cvt.rn.satfinite." t "x2.f32 %0, %1, %2;" : "=h"(cake_hi) : "f"(v3), "f"(v2));            \
    (d) = (unsigned)cake_lo | ((unsigned)cake_hi << 16);                                           \
  } while (0)
#define CAKE_PACK_E4M3X4(d, v0, v1, v2, v3) CAKE_PACK_F8X4("e4m3", d, v0, v1, v2, v3)
#define CAKE_PACK_E5M2X4(d, v0, v1, v2, v3) CAKE_PACK_F8X4("e5m2", d, v0, v1, v2, v3)
#endif
// 6- and 4-bit floats (OCP MX: e3m2 bias 3, e2m3 and e2m1 bias 1; no
// infinities or NaNs) are kept as their code in a byte, by arithmetic on
// every target. To f32 exactly; from f32 to nearest even, beyond the
// largest finite value that value, NaN the largest positive one, as
// cuda_fp6.h and cuda_fp4.h convert and the CPU executor rounds. A tensor
// holds them packed: value i at bits i x width of its bytes.
static __device__ __forceinline__ float cake_mini_f32(unsigned code, int e_bits, int m_bits) {
  int bias = (1 << (e_bits - 1)) - 1;
  unsigned field = (code >> m_bits) & ((1u << e_bits) - 1), man = code & ((1u << m_bits) - 1);
  float magnitude = field == 0 ? ldexpf((float)man, 1 - bias - m_bits)
                               : ldexpf((float)(man | (1u << m_bits)), (int)field - bias - m_bits);
  return ((code >> (e_bits + m_bits)) & 1u) ? -magnitude : magnitude;
}
static __device__ __forceinline__ unsigned char cake_f32_mini(float x, int e_bits, int m_bits) {
  int bias = (1 << (e_bits - 1)) - 1;
  unsigned top = (1u << (e_bits + m_bits)) - 1;  // the largest finite value's code
  float largest = cake_mini_f32(top, e_bits, m_bits);
  if (isnan(x)) return (unsigned char)top;
  unsigned sign = (__float_as_uint(x) >> 31) ? 1u << (e_bits + m_bits) : 0u;
  float a = fminf(fabsf(x), largest);
  if (a == 0.0f) return (unsigned char)sign;
  int e;
  frexpf(a, &e);  // a = f x 2^e, f in [0.5, 1)
  int quantum = (e - 1 > 1 - bias ? e - 1 : 1 - bias) - m_bits;
  float r = fminf(ldexpf(rintf(ldexpf(a, -quantum)), quantum), largest);  // rintf: ties to even
  if (r == 0.0f) return (unsigned char)sign;
  frexpf(r, &e);
  int field = e - 1 + bias;
  if (field < 1) return (unsigned char)(sign | (unsigned)ldexpf(r, bias - 1 + m_bits));
  unsigned man = (unsigned)ldexpf(r, m_bits - (e - 1)) & ((1u << m_bits) - 1);
  return (unsigned char)(sign | ((unsigned)field << m_bits) | man);
}
// The code of value i of a packed tensor of `bits`-bit values at `p`.
static __device__ __forceinline__ unsigned cake_packed_ld(const unsigned char* p, long long i, int bits) {
  long long at = i * bits;
  unsigned word = p[at / 8];
  if (at % 8 + bits > 8) word |= (unsigned)p[at / 8 + 1] << 8;
  return (word >> (at % 8)) & ((1u << bits) - 1);
}
#define CAKE_E3M2_F32(b) cake_mini_f32((b), 3, 2)
#define CAKE_E2M3_F32(b) cake_mini_f32((b), 2, 3)
#define CAKE_E2M1_F32(b) cake_mini_f32((b), 2, 1)
#define CAKE_F32_E3M2(x) cake_f32_mini((x), 3, 2)
#define CAKE_F32_E2M3(x) cake_f32_mini((x), 2, 3)
#define CAKE_F32_E2M1(x) cake_f32_mini((x), 2, 1)
// `n` codes (n x bits a whole number of bytes) into a packed tensor from
// its value `first`, which starts a byte: written a byte at a time.
static __device__ __forceinline__ void cake_packed_st_run(unsigned char* p, long long first, const unsigned char* codes,
                                                          int n, int bits) {
  unsigned char* out = p + first * bits / 8;
  unsigned held = 0;
  int have = 0;
#pragma unroll
  for (int k = 0; k < n; ++k) {
    held |= (unsigned)codes[k] << have;
    for (have += bits; have >= 8; have -= 8, held >>= 8) *out++ = (unsigned char)held;
  }
}
#define CAKE_PACKED_LD(p, i, bits) cake_packed_ld((const unsigned char*)(p), (i), (bits))
#define CAKE_PACKED_ST_RUN(p, first, codes, n, bits) cake_packed_st_run((unsigned char*)(p), (first), (codes), (n), (bits))
#ifndef CAKE_F16_F32
#define CAKE_F16_F32(h) cake_f16_f32(h)
#define CAKE_F32_F16(x) cake_f32_f16(x)
#endif
#define CAKE_ROUND_F16(x) CAKE_F16_F32(CAKE_F32_F16(x))
// max/min as the CPU executor computes them: NaN in, NaN out.
#define CAKE_MAX(a, b) ((isnan(a) || isnan(b)) ? CAKE_NAN : fmaxf((a), (b)))
#define CAKE_MIN(a, b) ((isnan(a) || isnan(b)) ? CAKE_NAN : fminf((a), (b)))
#define CAKE_MAX_F64(a, b) ((isnan(a) || isnan(b)) ? (double)CAKE_NAN : fmax((double)(a), (double)(b)))
#define CAKE_MIN_F64(a, b) ((isnan(a) || isnan(b)) ? (double)CAKE_NAN : fmin((double)(a), (double)(b)))
// Two neighbouring values of a row at `p` in one access: a packed 16-bit
// register (32 bits), two f32 values (float2) or two 8-bit ones (16 bits).
// The lowering uses them only where the pair's address is a multiple of the
// access's size.
#ifndef CAKE_LD_B32
#define CAKE_LD_B32(p) (*(const unsigned*)(p))
#define CAKE_ST_B32(p, v) (*(unsigned*)(p) = (v))
#define CAKE_LD_B16(p) (*(const unsigned short*)(p))
#define CAKE_ST_B16(p, v) (*(unsigned short*)(p) = (unsigned short)(v))
#define CAKE_LD_PAIR_F32(p, a, b) \
  do { const float2 cake_v2 = *(const float2*)(p); (a) = cake_v2.x; (b) = cake_v2.y; } while (0)
#define CAKE_ST_PAIR_F32(p, a, b) (*(float2*)(p) = make_float2((a), (b)))
// 8 or 16 bytes at `p` in one access, as 32-bit words w[0..1] or w[0..3]
// (a per-thread run of 8- and 16-bit values, packed in order).
#define CAKE_LD_B64(p, ws) do { const uint2 cake_q = *(const uint2*)(p); (ws)[0] = cake_q.x; (ws)[1] = cake_q.y; } while (0)
#define CAKE_ST_B64(p, ws) (*(uint2*)(p) = make_uint2((ws)[0], (ws)[1]))
#define CAKE_LD_B128(p, ws) \
  do { const uint4 cake_q = *(const uint4*)(p); (ws)[0] = cake_q.x; (ws)[1] = cake_q.y; (ws)[2] = cake_q.z; (ws)[3] = cake_q.w; } while (0)
#define CAKE_ST_B128(p, ws) (*(uint4*)(p) = make_uint4((ws)[0], (ws)[1], (ws)[2], (ws)[3]))
#endif
// store.add: *p += v as one red.global.add of PTX type `t` (f32, f64, s32,
// u32, u64), the value passed with asm constraint `c` (PTX ISA, red; relaxed
// at gpu scope). Adds from any CTAs to one element all land, in any order.
#ifndef CAKE_RED_ADD
#define CAKE_RED_ADD(t, c, p, v) \
  asm volatile("red.global.add." t " [%0], %1;" :: "l"(__cvta_generic_to_global(p)), c(v) : "memory")
#endif
// v = CAKE_MAX(v, w) and CAKE_MIN(v, w) as one max.NaN.f32 / min.NaN.f32
// (sm_80+), for the row reductions' long chains: the NaN tests of the
// expression forms made up a third of row_softmax's compile time.
#ifndef CAKE_MAX_INTO
#define CAKE_MAX_INTO(v, w) asm("max.NaN.f32 %0, %0, %1;" : "+f"(v) : "f"(w))
#define CAKE_MIN_INTO(v, w) asm("min.NaN.f32 %0, %0, %1;" : "+f"(v) : "f"(w))
#endif
// A swizzled tile's byte offset `o` (from a base aligned to the pattern):
// bits from `chunk` (the 16-byte chunk) XOR `mask` of the bits from `row`.
#define CAKE_SWIZZLE(o, row, mask, chunk) ((o) ^ ((((o) >> (row)) & (mask)) << (chunk)))
// Ampere's asynchronous copies, matrix loads and warp MMAs (PTX ISA:
// cp.async, cp.async.commit_group, cp.async.wait_group, ldmatrix, mma).
// Addresses are generic pointers, converted to their state space here. A
// build that runs the code elsewhere (the host test runtime) may define
// these names first.
#ifndef CAKE_CP_ASYNC_16
// 16, 8 or 4 bytes from global `src` to shared `dst`; 16 bypasses L1 (.cg).
#define CAKE_CP_ASYNC_OPERANDS(dst, src) \
  "r"((unsigned)__cvta_generic_to_shared(dst)), "l"(__cvta_generic_to_global(src))
#define CAKE_CP_ASYNC_16(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: CAKE_CP_ASYNC_OPERANDS(dst, src) : "memory")
#define CAKE_CP_ASYNC_8(dst, src) \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: CAKE_CP_ASYNC_OPERANDS(dst, src) : "memory")
#define CAKE_CP_ASYNC_4(dst, src) \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: CAKE_CP_ASYNC_OPERANDS(dst, src) : "memory")
#define CAKE_CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define CAKE_CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;" :: "n"(n) : "memory")
// Four 8x8 b16 matrices: lanes 8j .. 8j + 7 give the row addresses of matrix
// j, and each lane receives row lane / 4, elements 2 (lane % 4) + {0, 1} of
// matrix j in r[j]; with `q` ".trans", column lane / 4, rows 2 (lane % 4) +
// {0, 1} (matrix j transposed).
#define CAKE_LDMATRIX_X4_Q(q, r, addr)                                                \
  asm volatile("ldmatrix.sync.aligned.m8n8.x4" q ".shared.b16 {%0, %1, %2, %3}, [%4];"  \
               : "=r"((r)[0]), "=r"((r)[1]), "=r"((r)[2]), "=r"((r)[3])                 \
               : "r"((unsigned)__cvta_generic_to_shared(addr)))
// ldmatrix's inverse (sm_90+): lane l gives the address of row l % 8 of
// matrix l / 8, and r[j] holds what ldmatrix (with the same `q`) would give.
#define CAKE_STMATRIX_X4_Q(q, addr, r)                                                \
  asm volatile("stmatrix.sync.aligned.m8n8.x4" q ".shared.b16 [%0], {%1, %2, %3, %4};" \
               :: "r"((unsigned)__cvta_generic_to_shared(addr)),                        \
                  "r"((r)[0]), "r"((r)[1]), "r"((r)[2]), "r"((r)[3]) : "memory")
#define CAKE_LDMATRIX_X4(r, addr) CAKE_LDMATRIX_X4_Q("", r, addr)
#define CAKE_LDMATRIX_X4_TRANS(r, addr) CAKE_LDMATRIX_X4_Q(".trans", r, addr)
#define CAKE_STMATRIX_X4(addr, r) CAKE_STMATRIX_X4_Q("", addr, r)
#define CAKE_STMATRIX_X4_TRANS(addr, r) CAKE_STMATRIX_X4_Q(".trans", addr, r)
// Two matrices (.x2: lanes 0-15 give the addresses, the others' are unused),
// for a fragment's last two registers when its count is 4n + 2.
#define CAKE_LDMATRIX_X2_Q(q, r, addr)                                        \
  asm volatile("ldmatrix.sync.aligned.m8n8.x2" q ".shared.b16 {%0, %1}, [%2];"  \
               : "=r"((r)[0]), "=r"((r)[1]) : "r"((unsigned)__cvta_generic_to_shared(addr)))
#define CAKE_STMATRIX_X2_Q(q, addr, r)                                        \
  asm volatile("stmatrix.sync.aligned.m8n8.x2" q ".shared.b16 [%0], {%1, %2};"  \
               :: "r"((unsigned)__cvta_generic_to_shared(addr)), "r"((r)[0]), "r"((r)[1]) : "memory")
#define CAKE_LDMATRIX_X2(r, addr) CAKE_LDMATRIX_X2_Q("", r, addr)
#define CAKE_LDMATRIX_X2_TRANS(r, addr) CAKE_LDMATRIX_X2_Q(".trans", r, addr)
#define CAKE_STMATRIX_X2(addr, r) CAKE_STMATRIX_X2_Q("", addr, r)
#define CAKE_STMATRIX_X2_TRANS(addr, r) CAKE_STMATRIX_X2_Q(".trans", addr, r)
// One matrix (.x1: lanes 0-7 give the addresses), for the one register of
// a fragment's last half tile (an odd multiple of 8 rows).
#define CAKE_LDMATRIX_X1_Q(q, r, addr)                                  \
  asm volatile("ldmatrix.sync.aligned.m8n8.x1" q ".shared.b16 {%0}, [%1];" \
               : "=r"((r)[0]) : "r"((unsigned)__cvta_generic_to_shared(addr)))
#define CAKE_STMATRIX_X1_Q(q, addr, r)                                  \
  asm volatile("stmatrix.sync.aligned.m8n8.x1" q ".shared.b16 [%0], {%1};" \
               :: "r"((unsigned)__cvta_generic_to_shared(addr)), "r"((r)[0]) : "memory")
#define CAKE_LDMATRIX_X1(r, addr) CAKE_LDMATRIX_X1_Q("", r, addr)
#define CAKE_LDMATRIX_X1_TRANS(r, addr) CAKE_LDMATRIX_X1_Q(".trans", r, addr)
#define CAKE_STMATRIX_X1(addr, r) CAKE_STMATRIX_X1_Q("", addr, r)
#define CAKE_STMATRIX_X1_TRANS(addr, r) CAKE_STMATRIX_X1_Q(".trans", addr, r)
// d += a @ b for one m16n8k16 tile: d f32 (4 registers), a (4) and b (2)
// packed 16-bit pairs of type `t` (bf16 or f16).
#define CAKE_MMA_M16N8K16(t, d, a, b0, b1)                                           \
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." t "." t ".f32 "             \
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
               : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3])               \
               : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"(b0), "r"(b1))
// d += a @ b for one m16n8k32 tile of 8-bit floats (sm_89+): a (4) and b
// (2) registers of four values each, of types `ta` and `tb` (e4m3, e5m2).
#define CAKE_MMA_M16N8K32(ta, tb, d, a, b0, b1)                                      \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." ta "." tb ".f32 "           \
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
               : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3])               \
               : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"(b0), "r"(b1))
// 8-bit integers (`ta`, `tb`: s8, u8) into s32, wrapping (no .satfinite).
#define CAKE_MMA_M16N8K32_S32(ta, tb, d, a, b0, b1)                                  \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32." ta "." tb ".s32 "           \
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
               : "+r"((d)[0]), "+r"((d)[1]), "+r"((d)[2]), "+r"((d)[3])               \
               : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"(b0), "r"(b1))
// d += a @ b for one m16n8k8 tile of tf32 values: a (4) and b (2) registers
// of one value each, as their f32 bits.
#define CAKE_MMA_M16N8K8_TF32(d, a, b0, b1)                                          \
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                \
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
               : "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3])               \
               : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"(b0), "r"(b1))
#endif
// A tf32 operand of mma.sync m16n8k8 or wgmma k8 from an accumulator layout
// (PTX ISA, the m16n8k8 .tf32 and m64nNk8 A fragments): `r` points at the
// four values of one 16 x 8 block (row g, columns 2t, 2t + 1, then row
// g + 8); `out` gets the bits of row g, column t (out[0]), row g + 8
// (out[1]), and both 4 columns on (out[2], out[3]), g = lane / 4,
// t = lane % 4. Column t is in lane 4g + t / 2, t + 4 in lane 4g + 2 + t / 2,
// both in its value t % 2 of the row: each lane sends one of its pair to
// the lanes that read it first (lanes 4g + 2 (t % 2) + t / 2) and the other
// to the rest, two shuffles a row.
#define CAKE_TF32_OPERAND_ROW(o0, o2, v0, v1, lane)                                            \
  do {                                                                                          \
    const unsigned cake_odd = (lane) & 1u, cake_pair = ((lane) & ~3u) | (((lane) & 3u) >> 1);  \
    const float cake_r1 = __shfl_sync(0xffffffffu, ((lane) & 2u) ? (v1) : (v0), cake_pair | (cake_odd << 1));        \
    const float cake_r2 = __shfl_sync(0xffffffffu, ((lane) & 2u) ? (v0) : (v1), cake_pair | ((cake_odd ^ 1u) << 1)); \
    (o0) = __float_as_uint(cake_odd ? cake_r2 : cake_r1);                                       \
    (o2) = __float_as_uint(cake_odd ? cake_r1 : cake_r2);                                       \
  } while (0)
#define CAKE_TF32_OPERAND(out, r, lane)                                                      \
  do {                                                                                       \
    CAKE_TF32_OPERAND_ROW((out)[0], (out)[2], (r)[0], (r)[1], lane);                         \
    CAKE_TF32_OPERAND_ROW((out)[1], (out)[3], (r)[2], (r)[3], lane);                         \
  } while (0)
// An 8-bit operand of mma.sync m16n8k32 or wgmma k32 from an accumulator
// layout (PTX ISA, the m16n8k32 and m64nNk32 A fragments): `r` points at
// the four registers of a 16-row fragment tile that hold one k-step's four
// 8-column blocks (each: row g, columns 2t, 2t + 1, then row g + 8); `out`
// gets row g, columns 4t .. 4t + 3 (out[0]), row g + 8 (out[1]), and both
// again 16 columns on (out[2], out[3]), g = lane / 4, t = lane % 4. Lane
// 4g + t takes its four columns from lanes 4g + 2 (t % 2) and + 1, block
// t / 2 (then 2 + t / 2): four shuffles and two byte permutes a pair.
#define CAKE_F8_OPERAND_PAIR(o0, o1, even, odd, lane)                                        \
  do {                                                                                      \
    const unsigned cake_from = ((lane) & ~3u) | (((lane) & 1u) << 1);                       \
    const unsigned cake_e0 = __shfl_sync(0xffffffffu, (even), cake_from);                   \
    const unsigned cake_e1 = __shfl_sync(0xffffffffu, (odd), cake_from);                    \
    const unsigned cake_o0 = __shfl_sync(0xffffffffu, (even), cake_from + 1);               \
    const unsigned cake_o1 = __shfl_sync(0xffffffffu, (odd), cake_from + 1);                \
    const unsigned cake_lo = ((lane) & 2u) ? cake_e1 : cake_e0;                             \
    const unsigned cake_hi = ((lane) & 2u) ? cake_o1 : cake_o0;                             \
    (o0) = __byte_perm(cake_lo, cake_hi, 0x5410);                                           \
    (o1) = __byte_perm(cake_lo, cake_hi, 0x7632);                                           \
  } while (0)
#define CAKE_F8_OPERAND(out, r, lane)                                                       \
  do {                                                                                      \
    CAKE_F8_OPERAND_PAIR((out)[0], (out)[1], (r)[0], (r)[1], lane);                         \
    CAKE_F8_OPERAND_PAIR((out)[2], (out)[3], (r)[2], (r)[3], lane);                         \
  } while (0)
// The same for a half tile's row g (an odd multiple of 8 rows: the n8 B
// operand's rows): `r0` holds one k-step's blocks 0 and 1 (row g, columns
// 2t, 2t + 1 of each, a 16-bit half apiece), `r1` blocks 2 and 3; `o0`
// gets columns 4t .. 4t + 3 (from block t / 2 of lanes 4g + 2 (t % 2)
// and + 1), `o1` the same 16 columns on.
#define CAKE_F8_OPERAND_HALF(o0, o1, r0, r1, lane)                                          \
  do {                                                                                      \
    const unsigned cake_from = ((lane) & ~3u) | (((lane) & 1u) << 1);                       \
    const unsigned cake_sel = ((lane) & 2u) ? 0x7632u : 0x5410u;                            \
    const unsigned cake_a0 = __shfl_sync(0xffffffffu, (r0), cake_from);                     \
    const unsigned cake_b0 = __shfl_sync(0xffffffffu, (r0), cake_from + 1);                 \
    const unsigned cake_a1 = __shfl_sync(0xffffffffu, (r1), cake_from);                     \
    const unsigned cake_b1 = __shfl_sync(0xffffffffu, (r1), cake_from + 1);                 \
    (o0) = __byte_perm(cake_a0, cake_b0, cake_sel);                                         \
    (o1) = __byte_perm(cake_a1, cake_b1, cake_sel);                                         \
  } while (0)
// mbarriers, named barriers, elect, proxy fences and register budgets (PTX
// ISA: mbarrier.init, mbarrier.arrive, mbarrier.expect_tx, mbarrier.test_wait
// and try_wait (.parity), fence.mbarrier_init, bar.sync, elect.sync,
// fence.proxy.async, setmaxnreg). `bar` is a generic pointer to the 8-byte
// barrier in shared memory.
#ifndef CAKE_MBAR_INIT
#define CAKE_SMEM_ADDR(p) ((unsigned)__cvta_generic_to_shared(p))
#define CAKE_MBAR_INIT(bar, count) \
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(CAKE_SMEM_ADDR(bar)), "r"((unsigned)(count)) : "memory")
#define CAKE_FENCE_MBAR_INIT() asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory")
#define CAKE_MBAR_ARRIVE(bar) \
  asm volatile("{ .reg .b64 cake_state; mbarrier.arrive.shared::cta.b64 cake_state, [%0]; }" \
               :: "r"(CAKE_SMEM_ADDR(bar)) : "memory")
// `arrive b multicast(mask)`: one arrival on `bar` of each CTA of the
// cluster that `mask` names: mapa gives the peer's address of the same
// barrier, and the arrive releases at cluster scope.
#define CAKE_MBAR_ARRIVE_MC(bar, mask)                                                                  \
  do {                                                                                                  \
    for (unsigned cake_cta = 0; cake_cta < 16; ++cake_cta)                                              \
      if (((unsigned)(mask) >> cake_cta) & 1u) {                                                        \
        unsigned cake_remote;                                                                           \
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"                                             \
                     : "=r"(cake_remote) : "r"(CAKE_SMEM_ADDR(bar)), "r"(cake_cta));                    \
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(cake_remote) \
                     : "memory");                                                                       \
      }                                                                                                 \
  } while (0)
#define CAKE_MBAR_ARRIVE_EXPECT_TX(bar, bytes)                                                          \
  asm volatile("{ .reg .b64 cake_state; mbarrier.arrive.expect_tx.shared::cta.b64 cake_state, [%0], %1; }" \
               :: "r"(CAKE_SMEM_ADDR(bar)), "r"((unsigned)(bytes)) : "memory")
// Spin until the phase of parity `parity` has completed: try_wait (which
// may suspend the thread) where the target has it, test_wait before sm_90.
#define CAKE_MBAR_WAIT(bar, parity)                                                          \
  asm volatile("{ .reg .pred cake_done; cake_wait: "                                         \
               "mbarrier.try_wait.parity.shared::cta.b64 cake_done, [%0], %1; "              \
               "@!cake_done bra cake_wait; }" :: "r"(CAKE_SMEM_ADDR(bar)), "r"((unsigned)(parity)) : "memory")
// In a cluster, peers arrive (release.cluster) and write into this CTA's
// shared memory: the wait acquires at cluster scope to see their writes.
#define CAKE_MBAR_WAIT_CLUSTER(bar, parity)                                                  \
  asm volatile("{ .reg .pred cake_done; cake_wait: "                                         \
               "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 cake_done, [%0], %1; " \
               "@!cake_done bra cake_wait; }" :: "r"(CAKE_SMEM_ADDR(bar)), "r"((unsigned)(parity)) : "memory")
#define CAKE_MBAR_TEST_WAIT(bar, parity)                                                     \
  asm volatile("{ .reg .pred cake_done; cake_wait: "                                         \
               "mbarrier.test_wait.parity.shared::cta.b64 cake_done, [%0], %1; "             \
               "@!cake_done bra cake_wait; }" :: "r"(CAKE_SMEM_ADDR(bar)), "r"((unsigned)(parity)) : "memory")
#define CAKE_NAMED_SYNC(id, threads) asm volatile("bar.sync %0, %1;" :: "r"((unsigned)(id)), "r"((unsigned)(threads)) : "memory")
#define CAKE_NAMED_ARRIVE(id, threads) asm volatile("bar.arrive %0, %1;" :: "r"((unsigned)(id)), "r"((unsigned)(threads)) : "memory")
// `out` = 1 in the one lane elect.sync chooses among the lanes of `mask`
// (each of which runs it).
#define CAKE_ELECT_SYNC(out, mask)                                                                    \
  asm volatile("{ .reg .pred cake_p; elect.sync _|cake_p, %1; selp.u32 %0, 1, 0, cake_p; }" : "=r"(out) \
               : "r"((unsigned)(mask)))
#define CAKE_FENCE_PROXY_ASYNC() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")
#define CAKE_SETMAXNREG_INC(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(n))
#define CAKE_SETMAXNREG_DEC(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(n))
#define CAKE_WGMMA_FENCE() asm volatile("wgmma.fence.sync.aligned;" ::: "memory")
#define CAKE_WGMMA_COMMIT() asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory")
#define CAKE_WGMMA_WAIT(n) asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(n) : "memory")
#endif
// Clusters (PTX ISA: barrier.cluster, %cluster_ctarank): every thread of
// every CTA of the cluster arrives, then waits (release, acquire).
#ifndef CAKE_CLUSTER_SYNC
#define CAKE_CLUSTER_SYNC() asm volatile("barrier.cluster.arrive.release; barrier.cluster.wait.acquire;" ::: "memory")
#define CAKE_CLUSTER_RANK(out) asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(out))
// A `dsmem` view: the generic address of the same shared-memory object in
// CTA `rank` of the cluster (PTX ISA: mapa), which plain loads and stores
// reach as shared::cluster.
#define CAKE_MAPA(out, ptr, rank) \
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"((unsigned long long)(ptr)), "r"((unsigned)(rank)))
#endif
// A tensor map as the driver encodes it (cuTensorMapEncodeTiled: 128
// bytes, 128-byte aligned, like CUDA's CUtensorMap).
struct __align__(128) CakeTensorMap {
  unsigned long long opaque[16];
};
// TMA and bulk copies (PTX ISA: cp.async.bulk, cp.async.bulk.tensor,
// cp.async.bulk.commit_group, cp.async.bulk.wait_group): `bytes` from global
// `src` into shared `dst`, completing them on mbarrier `bar`; the TMA
// store group's commit, its wait for whole stores (writes done and visible
// to the waiting thread) and its `.read` wait (reads of shared memory done).
#ifndef CAKE_BULK_LOAD
#define CAKE_BULK_LOAD(dst, src, bytes, bar)                                                        \
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" \
               :: "r"(CAKE_SMEM_ADDR(dst)), "l"(__cvta_generic_to_global(src)), "r"((unsigned)(bytes)),  \
                  "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#define CAKE_TMA_STORE_COMMIT() asm volatile("cp.async.bulk.commit_group;" ::: "memory")
#define CAKE_TMA_STORE_WAIT(n) asm volatile("cp.async.bulk.wait_group %0;" :: "n"(n) : "memory")
#define CAKE_TMA_STORE_WAIT_READ(n) asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(n) : "memory")
#endif
// A wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor
// Format"): start address >> 4 (bits 0-13), leading byte offset 16 (unused
// by swizzled K-major operands), stride byte offset `sbo` >> 4 (bits
// 32-45: 8 rows of a swizzle span), base offset 0, swizzle mode (62-63).
#ifndef CAKE_WGMMA_DESC
#define CAKE_WGMMA_DESC(p, sbo, mode)                                                                 \
  ((unsigned long long)((CAKE_SMEM_ADDR(p) >> 4) & 0x3fff) | (1ull << 16) |                           \
   ((unsigned long long)(((sbo) >> 4) & 0x3fff) << 32) | ((unsigned long long)(mode) << 62))
#endif
// Blackwell's tensor memory and MMA (PTX ISA: tcgen05.alloc, .dealloc,
// .relinquish_alloc_permit, tcgen05.fence, tcgen05.mma, tcgen05.commit,
// tcgen05.wait). `slot` is the 4 bytes of shared memory the allocation
// writes its address to; `taddr` a TMEM address (lane << 16 | column). The
// MMA adds to D when `accumulate` is not 0. Each op is written once with
// its CTA group `g` (a literal 1 or 2): the plain names are cta_group::1,
// the _PAIR names a CTA pair's (`cta_group 2`: one warp of each CTA of the
// pair allocates and frees; the even CTA's thread issues the pair's MMA,
// A's and D's rows and B's N split between the CTAs, and its commits).
#ifndef CAKE_TMEM_ALLOC
#define CAKE_TMEM_ALLOC_G(g, slot, columns) \
  asm volatile("tcgen05.alloc.cta_group::" #g ".sync.aligned.shared::cta.b32 [%0], %1;" \
               :: "r"(CAKE_SMEM_ADDR(slot)), "r"((unsigned)(columns)) : "memory")
#define CAKE_TMEM_RELINQUISH_G(g) asm volatile("tcgen05.relinquish_alloc_permit.cta_group::" #g ".sync.aligned;" ::: "memory")
#define CAKE_TMEM_DEALLOC_G(g, taddr, columns) \
  asm volatile("tcgen05.dealloc.cta_group::" #g ".sync.aligned.b32 %0, %1;" :: "r"(taddr), "r"((unsigned)(columns)) : "memory")
// `kind` is the instruction's .kind (f16, f8f6f4, i8), a string literal;
// the instruction descriptor `idesc` names the operand and accumulator types.
#define CAKE_TCGEN05_MMA_G(g, kind, taddr, da, db, idesc, accumulate)                                 \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %4, 0; "                                    \
               "tcgen05.mma.cta_group::" #g ".kind::" kind " [%0], %1, %2, %3, cake_p; }"             \
               :: "r"(taddr), "l"(da), "l"(db), "r"((unsigned)(idesc)), "r"((unsigned)(accumulate)) : "memory")
// One arrival on `bar` once every tcgen05 op this thread issued before has
// completed; _MC: on `bar` of each CTA of the cluster that `mask` names.
#define CAKE_TCGEN05_COMMIT_G(g, bar)                                                             \
  asm volatile("tcgen05.commit.cta_group::" #g ".mbarrier::arrive::one.shared::cluster.b64 [%0];" \
               :: "r"(CAKE_SMEM_ADDR(bar)) : "memory")
#define CAKE_TCGEN05_COMMIT_MC_G(g, bar, mask)                                                                         \
  asm volatile("tcgen05.commit.cta_group::" #g ".mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%0], %1;" \
               :: "r"(CAKE_SMEM_ADDR(bar)), "h"((unsigned short)(mask)) : "memory")
// A in tensor memory: `a` its TMEM address (lane 0, the k-step's column);
// a pair's A rows are split between the CTAs' tensor memories as D's are.
#define CAKE_TCGEN05_MMA_TS_G(g, kind, taddr, a, db, idesc, accumulate)                              \
  asm volatile("{ .reg .pred cake_p; setp.ne.b32 cake_p, %4, 0; "                                    \
               "tcgen05.mma.cta_group::" #g ".kind::" kind " [%0], [%1], %2, %3, cake_p; }"            \
               :: "r"(taddr), "r"(a), "l"(db), "r"((unsigned)(idesc)), "r"((unsigned)(accumulate)) : "memory")
#define CAKE_TCGEN05_MMA_TS(kind, taddr, a, db, idesc, accumulate) CAKE_TCGEN05_MMA_TS_G(1, kind, taddr, a, db, idesc, accumulate)
#define CAKE_TCGEN05_MMA_TS_PAIR(kind, taddr, a, db, idesc, accumulate) \
  CAKE_TCGEN05_MMA_TS_G(2, kind, taddr, a, db, idesc, accumulate)
#define CAKE_TMEM_ALLOC(slot, columns) CAKE_TMEM_ALLOC_G(1, slot, columns)
#define CAKE_TMEM_RELINQUISH() CAKE_TMEM_RELINQUISH_G(1)
#define CAKE_TMEM_DEALLOC(taddr, columns) CAKE_TMEM_DEALLOC_G(1, taddr, columns)
#define CAKE_TCGEN05_MMA(kind, taddr, da, db, idesc, accumulate) CAKE_TCGEN05_MMA_G(1, kind, taddr, da, db, idesc, accumulate)
#define CAKE_TCGEN05_COMMIT(bar) CAKE_TCGEN05_COMMIT_G(1, bar)
#define CAKE_TCGEN05_COMMIT_MC(bar, mask) CAKE_TCGEN05_COMMIT_MC_G(1, bar, mask)
#define CAKE_TMEM_ALLOC_PAIR(slot, columns) CAKE_TMEM_ALLOC_G(2, slot, columns)
#define CAKE_TMEM_RELINQUISH_PAIR() CAKE_TMEM_RELINQUISH_G(2)
#define CAKE_TMEM_DEALLOC_PAIR(taddr, columns) CAKE_TMEM_DEALLOC_G(2, taddr, columns)
#define CAKE_TCGEN05_MMA_PAIR(kind, taddr, da, db, idesc, accumulate) CAKE_TCGEN05_MMA_G(2, kind, taddr, da, db, idesc, accumulate)
#define CAKE_TCGEN05_COMMIT_PAIR(bar) CAKE_TCGEN05_COMMIT_G(2, bar)
#define CAKE_TCGEN05_COMMIT_PAIR_MC(bar, mask) CAKE_TCGEN05_COMMIT_MC_G(2, bar, mask)
#define CAKE_TCGEN05_FENCE_BEFORE() asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory")
#define CAKE_TCGEN05_FENCE_AFTER() asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory")
// Shared memory into tensor memory: 128 lanes x 256 bits (8 columns) from
// the matrix descriptor `desc` names; it completes with the thread's
// next tcgen05.commit.
#define CAKE_TCGEN05_CP_128X256B(taddr, desc) \
  asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" :: "r"(taddr), "l"((unsigned long long)(desc)) : "memory")
#define CAKE_TCGEN05_WAIT_LD() asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory")
#define CAKE_TCGEN05_WAIT_ST() asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory")
#endif
// A tcgen05 shared-memory descriptor (PTX ISA, "Shared Memory Descriptor"):
// start >> 4 (bits 0-13), leading byte offset 16 (unused by swizzled
// K-major operands), stride byte offset `sbo` >> 4 (32-45), the fixed
// version 1 (46-48), base offset 0, layout (61-63: 2 = 128B, 4 = 64B, 6 = 32B).
#ifndef CAKE_UMMA_DESC
#define CAKE_UMMA_DESC(p, sbo, layout)                                                               \
  ((unsigned long long)((CAKE_SMEM_ADDR(p) >> 4) & 0x3fff) | (1ull << 16) |                          \
   ((unsigned long long)(((sbo) >> 4) & 0x3fff) << 32) | (1ull << 46) | ((unsigned long long)(layout) << 61))
#endif
// ---- end of prelude ----
)";

std::string quoted_path(const std::string& file) {
  std::string out = "\"";
  for (char c : file) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Emitter::Emitter(const Analysis& analysis, uint32_t k, const TargetInfo& t, const std::string& f)
    : m(analysis.module), lines(analysis.lines), kernel(analysis.module.kernels[k]), target(t), facts(analysis.module, k),
      eval(facts.evaluator()), file(f), order(fragment_order(m, kernel)) {}

void Emitter::line(const std::string& text, ByteRange at) {
  if (at.begin == at.end && at.begin == 0) at = current_;
  if (at.begin != at.end || at.begin != 0) {
    uint32_t n = lines.position(at.begin).line + 1;
    out.cuda += "#line " + std::to_string(n) + " " + quoted_path(file) + "\n";
    out.cake_line.push_back(0);
    out.cake_line.push_back(n);
  } else {
    out.cake_line.push_back(0);
  }
  out.cuda += std::string(static_cast<size_t>(indent) * 2 + 2, ' ') + text + "\n";
}

void Emitter::comment(ByteRange at, bool head_only) {
  std::string_view text = m.written(at);
  uint32_t offset = at.begin;
  for (size_t pos = 0; pos <= text.size();) {
    size_t nl = text.find('\n', pos);
    std::string_view one = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    while (!one.empty() && (one.back() == '\r' || one.back() == ' ')) one.remove_suffix(1);
    while (!one.empty() && one.front() == ' ') one.remove_prefix(1);
    if (!one.empty()) line("// " + std::string(one), {offset + static_cast<uint32_t>(pos), offset + static_cast<uint32_t>(pos) + 1});
    if (nl == std::string_view::npos || head_only) break;
    pos = nl + 1;
  }
}

bool Emitter::define_once(const std::string& name) { return defined_.insert(name).second; }

void Emitter::refuse(ByteRange at, const std::string& what) {
  Diagnostic d;
  d.id = DiagId::NotLowered;
  d.severity = Severity::Error;
  d.range = at;
  d.message = what + " cannot be lowered to CUDA yet";
  d.targets = {std::string(target.name)};
  // A construct met more than once (a fragment at each use) is said once.
  for (const Diagnostic& e : out.diagnostics)
    if (e.range == d.range && e.message == d.message) return;
  out.diagnostics.push_back(std::move(d));
}

std::optional<Diagnostic> file_error(const Analysis& analysis) {
  for (const Diagnostic& d : analysis.diagnostics) {
    if (d.severity != Severity::Error) continue;
    Diagnostic r;
    r.id = DiagId::NotLowered;
    r.range = d.range;
    r.message = "a file with errors cannot be lowered to CUDA yet: " + d.message;
    return r;
  }
  return std::nullopt;
}

std::vector<int64_t> launch_grid(const Module& m, uint32_t k, const std::vector<std::pair<SymbolId, int64_t>>& shape) {
  Evaluator eval(m);
  Env env;
  for (const auto& [s, v] : shape) env.values[s] = v;
  std::vector<int64_t> grid;
  for (ExprId g : m.kernels[k].grid) grid.push_back(eval.eval(g, &env).value_or(0));
  while (grid.size() < 3) grid.push_back(1);
  return grid;
}

Lowered lower(const Analysis& analysis, uint32_t k, const std::string& target_name, const std::string& file,
              const LowerOptions& options) {
  const TargetInfo* target = find_target(target_name);
  Lowered refused;
  if (!target || k >= analysis.module.kernels.size()) {
    Diagnostic d;
    d.id = DiagId::NotLowered;
    d.range = k < analysis.module.kernels.size() ? analysis.module.kernels[k].range : ByteRange{};
    d.message = !target ? "target `" + target_name + "` cannot be lowered to CUDA yet" : "no such kernel";
    refused.diagnostics.push_back(std::move(d));
    return refused;
  }
  if (auto e = file_error(analysis)) {
    refused.diagnostics.push_back(std::move(*e));
    return refused;
  }
  Emitter x(analysis, k, *target, file);
  x.options = options;
  const Module& m = analysis.module;
  const Kernel& kernel = m.kernels[k];
  const Symbol& ksym = m.symbols[kernel.symbol];
  ByteRange head{kernel.range.begin, kernel.range.begin + 1};
  LaunchPlan& plan = x.out.plan;
  plan.kernel = std::string(ksym.name);
  plan.target = target_name;

  // Section - the signature: parameters in declaration order, then the
  // shape symbols in Kernel::shape_symbols order.
  for (SymbolId p : kernel.params) {
    const Symbol& s = m.symbols[p];
    std::string type = s.kind == SymbolKind::TensorParam ? x.buffer_type(s.type.dtype) : x.ctype(s.type.dtype);
    if (type.empty()) {
      x.refuse(s.decl, dtype_with_article(s.type.dtype) + " parameter");
      continue;
    }
    if (s.kind == SymbolKind::TensorParam) plan.params.push_back({x.name(p), LaunchParam::Kind::Tensor, type + "* __restrict__", {}});
    else plan.params.push_back({x.name(p), LaunchParam::Kind::Scalar, type, {}});
  }
  // Then the tensor maps, in declaration order: each a 128-byte map the
  // launcher encodes, passed by value (__grid_constant__: TMA reads it in
  // parameter space).
  for (SymbolId s = 0; s < m.symbols.size(); ++s) {
    const Symbol& t = m.symbols[s];
    if (t.kind != SymbolKind::Tensormap || t.kernel != k) continue;
    LaunchParam p{x.name(s), LaunchParam::Kind::TensorMap, "const __grid_constant__ CakeTensorMap", {}};
    if (t.tensor == kNone) {
      x.refuse(t.decl, "a tensor map without its tensor");
      continue;
    }
    const Symbol& tensor = m.symbols[t.tensor];
    p.map.tensor = x.name(t.tensor);
    p.map.dtype = std::string(dtype_name(tensor.type.dtype));
    p.map.element_bytes = stored_bits(tensor.type.dtype) / 8;
    p.map.element_bits = dtype_bits(tensor.type.dtype);
    p.map.swizzle = swizzle_bytes(t.type.swizzle);
    if (t.box.size() != tensor.type.dims.size() || t.box.empty() || t.box.size() > 5 || p.map.element_bytes <= 0) {
      x.refuse(t.decl, "this tensor map (a tensor of rank 1 to 5, a box of the tensor's rank)");
      continue;
    }
    // 6- and 4-bit floats: the 16U6/16U4_ALIGN16B types, which unpack 16
    // values of a packed tensor into a 16-byte chunk of shared memory. The
    // verifier holds such a map to the target's packed-type rules (E0511),
    // so a file that lowers keeps them; a target without them has none.
    if (is_sub_byte_float(tensor.type.dtype) && (!x.target.tma_packed_inner_box.known() || is_col_major(tensor.type))) {
      x.refuse(t.decl, "a tensor map of " + p.map.dtype + " other than a row-major tensor's on a target with packed tensor-map types (sm_100a)");
      continue;
    }
    for (size_t d : Emitter::tma_dims(tensor.type)) {
      p.map.dims.push_back(x.index(tensor.type.dims[d]));
      auto v = x.eval.fold(t.box[d]);
      if (!v) x.refuse(t.decl, "a tensor map whose box is not constant");
      p.map.box.push_back(v.value_or(0));
    }
    plan.params.push_back(std::move(p));
  }
  for (SymbolId s : kernel.shape_symbols) plan.params.push_back({x.name(s), LaunchParam::Kind::ShapeSymbol, "long long", {}});
  auto block = kernel.block == kNone ? std::nullopt : x.eval.fold(kernel.block);
  if (!block || *block <= 0 || *block % 32 != 0) x.refuse(kernel.block_range, "a block size that is not a constant multiple of 32");
  plan.block = block.value_or(0);
  if (!kernel.cluster.empty()) {
    for (ExprId d : kernel.cluster) {
      auto v = x.eval.fold(d);
      if (!v || *v <= 0) x.refuse(kernel.cluster_range, "a `cluster` clause whose dims are not positive constants");
      plan.cluster.push_back(v.value_or(1));
    }
    while (plan.cluster.size() < 3) plan.cluster.push_back(1);
  }
  for (ExprId g : kernel.grid) plan.grid.push_back(x.index(g));

  // Section - shared memory: the verifier's layout (KernelFacts).
  const SmemLayout& smem = x.facts.on(*target).smem;
  if (!smem.complete) x.refuse(head, "shared memory whose size is not a constant");
  plan.dynamic_smem = smem.total;

  x.out.cuda += kPrelude;
  x.out.cake_line.resize(static_cast<size_t>(std::count(x.out.cuda.begin(), x.out.cuda.end(), '\n')), 0);
  std::string signature;
  for (const LaunchParam& p : plan.params) signature += (signature.empty() ? "" : ", ") + p.ctype + " " + p.name;
  x.indent = -1;
  std::string cluster_dims;
  if (!plan.cluster.empty())
    cluster_dims = "__cluster_dims__(" + std::to_string(plan.cluster[0]) + ", " + std::to_string(plan.cluster[1]) + ", " +
                   std::to_string(plan.cluster[2]) + ") ";
  x.line("extern \"C\" __global__ void " + cluster_dims + "__launch_bounds__(" + std::to_string(plan.block) + ", 1)", head);
  x.line(plan.kernel + "(" + signature + ") {", head);
  x.indent = 0;
  if (smem.total > 0) x.line("extern __shared__ __align__(1024) unsigned char cake_smem[];", head);
  x.line("const unsigned cake_warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);  // warp-uniform", head);
  x.line("const unsigned cake_lane = threadIdx.x % 32;", head);
  if (x.clustered()) {
    x.line("unsigned cake_cluster_rank;", kernel.cluster_range);
    x.line("CAKE_CLUSTER_RANK(cake_cluster_rank);", kernel.cluster_range);
  }
  for (const SmemSlot& slot : smem.slots) {
    const Symbol& s = m.symbols[slot.symbol];
    if (slot.barrier) {
      x.line("unsigned char* const " + x.name(slot.symbol) + " = cake_smem + " + std::to_string(slot.offset) + ";  // " +
                 std::to_string(slot.count) + " mbarrier(s), " + std::to_string(slot.stride) + " bytes apart",
             s.decl);
      continue;
    }
    if (slot.tmem_address) {
      x.line("unsigned* const cake_tmem_slot_" + x.name(slot.symbol) + " = (unsigned*)(cake_smem + " +
                 std::to_string(slot.offset) + ");  // where tcgen05.alloc writes its address",
             s.decl);
      continue;
    }
    std::string type = x.buffer_type(s.type.dtype);
    if (type.empty()) {
      x.refuse(s.decl, "a shared-memory buffer of " + std::string(dtype_name(s.type.dtype)));
      continue;
    }
    x.line(type + "* const " + x.name(slot.symbol) + " = (" + type + "*)(cake_smem + " + std::to_string(slot.offset) +
               ");  // " + std::to_string(slot.bytes) + " bytes",
           s.decl);
  }
  x.mbarrier_prologue();
  x.tmem_prologue();
  x.group_threads = plan.block;
  const auto& roles = x.facts.roles();
  bool has_roles = roles && std::any_of(roles->begin(), roles->end(), [](const RoleView& r) { return r.stmt != kNone; });
  if (!has_roles) {
    x.line("const long long cake_rank = cake_warp;  // the implicit role's rank: the warp", head);
    x.line("(void)cake_rank;", head);
  }
  x.plan_warp_meets();
  x.statements(kernel.body);
  x.tmem_epilogue();
  // No CTA leaves while a peer may still copy into its shared memory or
  // arrive on its barriers.
  if (x.clustered()) x.cluster_sync(kernel.cluster_range);
  x.indent = -1;
  x.line("}", {kernel.range.end - 1, kernel.range.end});
  // The instruction macros the statements asked for, after the prelude.
  if (!x.definitions_.empty()) {
    size_t at = std::string_view(kPrelude).size();
    size_t prelude_lines = static_cast<size_t>(std::count(kPrelude, kPrelude + at, '\n'));
    x.out.cuda.insert(at, x.definitions_);
    auto lines = std::count(x.definitions_.begin(), x.definitions_.end(), '\n');
    x.out.cake_line.insert(x.out.cake_line.begin() + static_cast<ptrdiff_t>(prelude_lines), static_cast<size_t>(lines), 0);
  }

  // Section - the plan's benches: the grid at each bench's shape.
  for (const Bench& b : m.benches) {
    if (b.kernel_symbol != kernel.symbol) continue;
    BenchLaunch launch;
    std::vector<std::pair<SymbolId, int64_t>> shape;
    for (const BenchBinding& bind : b.bindings) {
      auto v = x.eval.fold(bind.value);
      if (!v) continue;
      launch.shape.push_back({std::string(bind.name), *v});
      if (bind.symbol != kNone) shape.push_back({bind.symbol, *v});
    }
    launch.grid = launch_grid(m, k, shape);
    plan.benches.push_back(std::move(launch));
  }
  if (!x.out.diagnostics.empty()) {
    Lowered failed;
    failed.diagnostics = std::move(x.out.diagnostics);
    return failed;
  }
  return std::move(x.out);
}

}  // namespace cake::codegen
