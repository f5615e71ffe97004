// A CPU stand-in for the CUDA built-ins that lowered code uses, so that a
// lowered translation unit compiles with the host C++ compiler and runs a
// grid of blocks on one core (tests/codegen/host_run_test.cpp). The blocks
// of a cluster run together, the threads of each as fibers (ucontext)
// switched cooperatively: at __syncthreads, the cluster barrier and at every
// warp shuffle a thread waits for the others, as on the GPU, so a thread
// never sees another's write it would not see there. The lowered code names
// one shared-memory array; the block whose thread runs holds it, the others'
// are kept aside (swapped at a switch between blocks), and a multicast
// writes into each destination block's. Only what
// docs/lowering.md lowers today is here; inline PTX (`asm`) is not run:
// the prelude's instruction macros (cp.async, ldmatrix, mma, mbarriers,
// named barriers, elect, TMA, wgmma, tcgen05) are defined here instead,
// computing what the PTX ISA says each does.
//
// This header is what a kernel's translation unit sees: the value
// conversions, the warp collectives' templates and declarations of the
// rest. The runtime's state and everything that reads it are compiled once
// (cuda_host_run.cpp: the scheduler, barriers, mbarriers, clusters;
// cuda_host_copy.cpp: TMA and bulk copies; cuda_host_mma.cpp: mma.sync,
// wgmma, tensor memory and tcgen05.mma; cuda_host_state.h between them),
// so that no kernel compile instantiates the containers that state is kept
// in: that was most of a small kernel's compile time.
//
// This checks the lowering's own arithmetic (where each register sits,
// addresses, reductions, rounding) against the CPU executor without a GPU.
// It is not a GPU: instruction semantics come from the host's libm.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ucontext.h>

#include "tensor_map.h"

extern unsigned char cake_smem[];

namespace cake_host {

/// The block's shared memory, 1024-byte aligned (cuda_host_run.cpp).
inline unsigned char* cake_smem_base() { return cake_smem; }

struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};

struct Thread {
  ucontext_t context;
  Dim3 idx;
  bool done = false;
  // Waiting: for the block's barrier generation, or its warp's, to pass.
  enum class Wait { None, Block, Warp, Named, Mbarrier } wait = Wait::None;
  uint64_t until = 0;
};

struct Block;  // cuda_host_state.h

/// The running thread (threadIdx) and its block's index (blockIdx).
extern Thread* current;
extern Dim3 block_index;

// Section - Threads, warps, blocks and clusters meeting (cuda_host_run.cpp).

void syncthreads();
/// A warp collective: every lane of `mask` (which must hold the calling
/// lane) puts `bytes` of `mine` in; when all have, each gets every lane's
/// (`all`, 32 × bytes, lane order; zeros for lanes outside the mask).
void gather(const void* mine, size_t bytes, void* all, unsigned mask = 0xffffffffu);
void warp_rendezvous(unsigned mask = 0xffffffffu);
/// __ballot_sync: the lanes of `mask` whose predicate holds.
unsigned ballot(unsigned mask, bool predicate);
uint32_t exchange(uint32_t bits, unsigned from);
void cluster_sync();
unsigned cluster_rank();
void mbar_init(const void* bar, unsigned count);
void mbar_arrive(const void* bar, int64_t tx, Block* in = nullptr);
void mbar_complete_tx(const void* bar, int64_t bytes, Block* in = nullptr);
void mbar_wait(const void* bar, unsigned parity);
void arrive_multicast(const void* bar, unsigned mask);
void commit_multicast(const void* bar, unsigned mask);
void* mapa(const void* p, unsigned rank);
void named_sync(unsigned id, unsigned threads);
void named_arrive(unsigned id, unsigned threads);
unsigned elect_sync(unsigned mask);

// Section - TMA and bulk copies, at issue (cuda_host_copy.cpp).

void tma_load(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar, unsigned mask,
              Block* signal = nullptr);
void tma_load_pair(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar);
void tma_store(int rank, const void* map_bytes, const long long* c, const void* src);
void bulk_load(void* dst, const void* src, unsigned bytes, const void* bar);

// Section - The tensor cores, at issue (cuda_host_mma.cpp).

void mma_m16n8k16(const char* type, float* d, const unsigned* a, unsigned b0, unsigned b1);
void mma_m16n8k32(const char* ta, const char* tb, float* d, const unsigned* a, unsigned b0, unsigned b1);
void mma_m16n8k8_tf32(float* d, const unsigned* a, unsigned b0, unsigned b1);
void mma_m16n8k32_s32(const char* ta, const char* tb, int* d, const unsigned* a, unsigned b0, unsigned b1);
void wgmma(unsigned n, const char* type, float* d, unsigned long long da, unsigned long long db, unsigned scale_d,
           unsigned trans_a, unsigned trans_b);
void wgmma(unsigned n, const char* type, int* d, unsigned long long da, unsigned long long db, unsigned scale_d,
           unsigned trans_a, unsigned trans_b);
void wgmma_rs(unsigned n, const char* type, float* d, const unsigned* a, unsigned long long db, unsigned scale_d,
              unsigned trans_b);
void wgmma_rs(unsigned n, const char* type, int* d, const unsigned* a, unsigned long long db, unsigned scale_d,
              unsigned trans_b);
void tmem_alloc(void* slot, unsigned columns);
void tmem_relinquish();
void tmem_dealloc(unsigned taddr, unsigned columns);
void tcgen05_mma(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                 unsigned accumulate);
void tcgen05_mma_pair(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                      unsigned accumulate);
void tcgen05_mma_ts(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                    unsigned accumulate);
void tcgen05_mma_ts_pair(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                         unsigned accumulate);
void tcgen05_cp_128x256b(unsigned taddr, unsigned long long desc);
void tmem_move(unsigned n, void* r, unsigned taddr, bool load);
void tmem_move16(unsigned bits, unsigned n, void* r, unsigned taddr, bool load);

/// Runs `entry(args)` over the grid, cluster after cluster (`cluster` CTAs
/// per dim; 1, 1, 1 without one); `smem` bytes of dynamic shared memory per
/// block, filled with 0xff (NaN) at its start.
void run(void (*entry)(void**), void** args, const unsigned grid[3], const unsigned cluster[3], unsigned threads,
         unsigned char* smem, size_t smem_bytes);

/// CUDA's 32- and 64-bit shuffles (the 64-bit ones as two 32-bit halves);
/// a narrower argument would take the int overload, so it is refused here.
template <typename T>
T shfl(T v, unsigned from) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  uint32_t bits[2];
  std::memcpy(bits, &v, sizeof(T));
  for (size_t h = 0; h < sizeof(T) / 4; ++h) bits[h] = exchange(bits[h], from);
  std::memcpy(&v, bits, sizeof(T));
  return v;
}

// Section - ldmatrix and stmatrix, as the PTX ISA defines their results.

/// ldmatrix .xN .b16 (N = 1, 2, 4): lanes 8j .. 8j + 7 address the rows of
/// matrix j (the other lanes' addresses are unused); lane l receives row
/// l / 4, 16-bit elements 2 (l % 4) + {0, 1} of each.
template <unsigned N>
inline void ldmatrix_xn(unsigned* r, const void* addr) {
  const void* rows[32];
  gather(&addr, sizeof addr, rows);
  unsigned lane = current->idx.x % 32;
  for (unsigned j = 0; j < N; ++j)
    std::memcpy(&r[j], static_cast<const unsigned char*>(rows[8 * j + lane / 4]) + 4 * (lane % 4), 4);
}

/// ldmatrix .xN .trans .b16: the same rows, each matrix handed out
/// transposed: lane l receives column l / 4, rows 2 (l % 4) + {0, 1}.
template <unsigned N>
inline void ldmatrix_xn_trans(unsigned* r, const void* addr) {
  const void* rows[32];
  gather(&addr, sizeof addr, rows);
  unsigned lane = current->idx.x % 32;
  for (unsigned j = 0; j < N; ++j) {
    uint16_t h[2];
    for (unsigned i = 0; i < 2; ++i)
      std::memcpy(&h[i], static_cast<const unsigned char*>(rows[8 * j + 2 * (lane % 4) + i]) + 2 * (lane / 4), 2);
    r[j] = unsigned(h[0]) | unsigned(h[1]) << 16;
  }
}

/// stmatrix .xN .trans .b16, ldmatrix .trans's inverse.
template <unsigned N>
inline void stmatrix_xn_trans(void* addr, const unsigned* r) {
  void* rows[32];
  gather(&addr, sizeof addr, rows);
  unsigned lane = current->idx.x % 32;
  for (unsigned j = 0; j < N; ++j)
    for (unsigned i = 0; i < 2; ++i) {
      uint16_t h = static_cast<uint16_t>(i ? r[j] >> 16 : r[j] & 0xffff);
      std::memcpy(static_cast<unsigned char*>(rows[8 * j + 2 * (lane % 4) + i]) + 2 * (lane / 4), &h, 2);
    }
}

/// stmatrix .xN .b16, ldmatrix's inverse: lanes 8j .. 8j + 7 address the
/// rows of matrix j; lane l's r[j] is row l / 4, elements 2 (l % 4) + {0, 1}.
template <unsigned N>
inline void stmatrix_xn(void* addr, const unsigned* r) {
  void* rows[32];
  gather(&addr, sizeof addr, rows);
  unsigned lane = current->idx.x % 32;
  for (unsigned j = 0; j < N; ++j)
    std::memcpy(static_cast<unsigned char*>(rows[8 * j + lane / 4]) + 4 * (lane % 4), &r[j], 4);
}

// Section - Values: bits, 16- and 8-bit floats.

/// 2^e for -126 <= e <= 127, exact, built from its bits: the decoders
/// below scale an integer by it (exact for every code they decode), and
/// std::ldexp's libm call was most of the tensor-core instructions' time,
/// which decode each operand value they read.
inline float pow2(int e) {
  uint32_t bits = uint32_t(e + 127) << 23;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline float half_bits_to_float(uint16_t h, bool bf16) {
  if (bf16) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  // IEEE binary16: sign, 5-bit exponent (bias 15), 10-bit fraction.
  int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  float magnitude = exponent == 0    ? float(fraction) * pow2(-24)
                    : exponent == 31 ? (fraction ? NAN : INFINITY)
                                     : float(fraction | 0x400) * pow2(exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

/// A T's bytes at `p`, and `v`'s bytes to `p` (any pointer type).
template <typename T>
inline T load_bits(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
inline void store_bits(void* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
/// N 32-bit words at `p` as one 4N-byte access (CAKE_LD_B64/B128): the
/// GPU faults on a misaligned vector access, so the host aborts on one.
template <int N>
inline void check_words_aligned(const void* p) {
  if (reinterpret_cast<uintptr_t>(p) % (4 * N) != 0) {
    std::fprintf(stderr, "cuda_host: a %d-byte access at a misaligned address\n", 4 * N);
    std::abort();
  }
}
template <int N>
inline void load_words(const void* p, unsigned* w) {
  check_words_aligned<N>(p);
  std::memcpy(w, p, 4 * N);
}
template <int N>
inline void store_words(void* p, const unsigned* w) {
  check_words_aligned<N>(p);
  std::memcpy(p, w, 4 * N);
}

/// IEEE binary16 of `f`, rounded to nearest even (cvt.rn.f16.f32):
/// overflow to infinity, subnormals kept, NaN a quiet NaN.
inline uint16_t float_to_half_bits(float f) {
  uint32_t x = load_bits<uint32_t>(&f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return uint16_t(sign | 0x7e00);  // NaN
  if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00);  // rounds to >= 65520: infinity
  if (a < 0x38800000u) {                                 // below 2^-14: a subnormal (or zero)
    float magnitude = load_bits<float>(&a);
    return uint16_t(sign | uint16_t(std::nearbyint(magnitude * 16777216.0f)));  // in units of 2^-24
  }
  uint32_t mantissa = a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u;  // rebias, round to nearest even
  return uint16_t(sign | uint16_t(mantissa >> 13));
}

/// f32 to OCP FP8 bits as cvt.rn.satfinite.e4m3x2/.e5m2x2.f32 gives: nearest
/// even, beyond the largest finite value (448, 57344; infinity too) that
/// value, NaN the format's all-ones NaN.
inline uint8_t float_to_fp8_bits(float f, bool e5m2) {
  int man_bits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  double max = e5m2 ? 57344.0 : 448.0;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  if (std::isnan(f)) return uint8_t(sign | 0x7f);
  double a = std::min<double>(std::fabs(f), max);
  if (a == 0) return sign;
  int e = std::max(std::ilogb(a), 1 - bias);         // the exponent of a's binade, or the subnormals'
  double quantum = std::ldexp(1.0, e - man_bits);
  double r = std::min(std::nearbyint(a / quantum) * quantum, max);  // nearest even (the default rounding)
  if (r == 0) return sign;
  int re = std::ilogb(r);
  if (re < 1 - bias) return uint8_t(sign | int(r / std::ldexp(1.0, 1 - bias - man_bits)));  // subnormal
  int mantissa = int(r / std::ldexp(1.0, re - man_bits)) - (1 << man_bits);
  return uint8_t(sign | ((re + bias) << man_bits) | mantissa);
}

inline float fp8_bits_to_float(uint8_t b, bool e5m2) {
  int man_bits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7, top = e5m2 ? 31 : 15;
  int exponent = (b >> man_bits) & top, fraction = b & ((1 << man_bits) - 1);
  float magnitude = e5m2 && exponent == top               ? (fraction ? NAN : INFINITY)
                    : !e5m2 && exponent == top && fraction == 7 ? NAN
                    : exponent == 0 ? float(fraction) * pow2(1 - bias - man_bits)
                                    : float(fraction | (1 << man_bits)) * pow2(exponent - bias - man_bits);
  return (b & 0x80) ? -magnitude : magnitude;
}

}  // namespace cake_host


#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(threads, blocks)
#define __cluster_dims__(x, y, z)
#define __shared__
#define __align__(n)
#define threadIdx (cake_host::current->idx)
#define blockIdx (cake_host::block_index)
#define asm(...) ((void)0)

inline void __syncthreads() { cake_host::syncthreads(); }
inline void __syncwarp(unsigned mask = 0xffffffffu) { cake_host::warp_rendezvous(mask); }
inline unsigned __ballot_sync(unsigned mask, int predicate) { return cake_host::ballot(mask, predicate != 0); }
/// CUDA's __ffs: the 1-based position of the lowest set bit, 0 for none.
inline int __ffs(unsigned x) { return x == 0 ? 0 : std::countr_zero(x) + 1; }
// A pair of neighbouring values in one access (aliasing-safe here).
#define CAKE_LD_B32(p) cake_host::load_bits<unsigned>(p)
#define CAKE_ST_B32(p, v) cake_host::store_bits<unsigned>((p), (v))
#define CAKE_LD_B16(p) cake_host::load_bits<unsigned short>(p)
#define CAKE_ST_B16(p, v) cake_host::store_bits<unsigned short>((p), (unsigned short)(v))
#define CAKE_LD_PAIR_F32(p, a, b) ((a) = cake_host::load_bits<float>(p), (b) = cake_host::load_bits<float>((const float*)(p) + 1))
#define CAKE_ST_PAIR_F32(p, a, b) (cake_host::store_bits<float>((p), (a)), cake_host::store_bits<float>((float*)(p) + 1, (b)))
#define CAKE_LD_B64(p, w) cake_host::load_words<2>((p), (w))
#define CAKE_ST_B64(p, w) cake_host::store_words<2>((p), (w))
#define CAKE_LD_B128(p, w) cake_host::load_words<4>((p), (w))
#define CAKE_ST_B128(p, w) cake_host::store_words<4>((p), (w))
// red.global.add: the fibers of a block never run at once.
#define CAKE_RED_ADD(t, c, p, v) (*(p) += (v))
#define CAKE_MAX_INTO(v, w) ((v) = CAKE_MAX((v), (w)))
#define CAKE_MIN_INTO(v, w) ((v) = CAKE_MIN((v), (w)))
// cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32: each value rounded to nearest even,
// `lo` in the lower half.
#define CAKE_PACK_BF16X2(d, lo, hi) ((d) = (unsigned)CAKE_F32_BF16(lo) | ((unsigned)CAKE_F32_BF16(hi) << 16))
#define CAKE_F16_F32(h) cake_host::half_bits_to_float(uint16_t(h), false)
#define CAKE_F32_F16(x) cake_host::float_to_half_bits(x)
// 8-bit floats: cvt.rn.satfinite to them, exact from them; four in a register,
// v0 in the lowest byte.
#define CAKE_E5M2_F32(b) cake_host::fp8_bits_to_float(uint8_t(b), true)
#define CAKE_F32_E4M3(x) cake_host::float_to_fp8_bits((x), false)
#define CAKE_F32_E5M2(x) cake_host::float_to_fp8_bits((x), true)
#define CAKE_PACK_F8X4_HOST(e5m2, d, v0, v1, v2, v3)                                                         \
  ((d) = (unsigned)cake_host::float_to_fp8_bits((v0), e5m2) | (unsigned)cake_host::float_to_fp8_bits((v1), e5m2) << 8 | \
         (unsigned)cake_host::float_to_fp8_bits((v2), e5m2) << 16 | (unsigned)cake_host::float_to_fp8_bits((v3), e5m2) << 24)
#define CAKE_PACK_E4M3X4(d, v0, v1, v2, v3) CAKE_PACK_F8X4_HOST(false, d, v0, v1, v2, v3)
#define CAKE_PACK_E5M2X4(d, v0, v1, v2, v3) CAKE_PACK_F8X4_HOST(true, d, v0, v1, v2, v3)
#define CAKE_PACK_F16X2(d, lo, hi) \
  ((d) = (unsigned)cake_host::float_to_half_bits(lo) | ((unsigned)cake_host::float_to_half_bits(hi) << 16))
// cp.async copies at once here: its completion is what the waits order.
#define CAKE_CP_ASYNC_16(dst, src) std::memcpy((dst), (src), 16)
#define CAKE_CP_ASYNC_8(dst, src) std::memcpy((dst), (src), 8)
#define CAKE_CP_ASYNC_4(dst, src) std::memcpy((dst), (src), 4)
#define CAKE_CP_ASYNC_COMMIT() ((void)0)
#define CAKE_CP_ASYNC_WAIT(n) ((void)0)
#define CAKE_LDMATRIX_X4(r, addr) cake_host::ldmatrix_xn<4>((r), (addr))
#define CAKE_STMATRIX_X4(addr, r) cake_host::stmatrix_xn<4>((addr), (r))
#define CAKE_LDMATRIX_X4_TRANS(r, addr) cake_host::ldmatrix_xn_trans<4>((r), (addr))
#define CAKE_STMATRIX_X4_TRANS(addr, r) cake_host::stmatrix_xn_trans<4>((addr), (r))
#define CAKE_LDMATRIX_X2(r, addr) cake_host::ldmatrix_xn<2>((r), (addr))
#define CAKE_STMATRIX_X2(addr, r) cake_host::stmatrix_xn<2>((addr), (r))
#define CAKE_LDMATRIX_X2_TRANS(r, addr) cake_host::ldmatrix_xn_trans<2>((r), (addr))
#define CAKE_STMATRIX_X2_TRANS(addr, r) cake_host::stmatrix_xn_trans<2>((addr), (r))
#define CAKE_LDMATRIX_X1(r, addr) cake_host::ldmatrix_xn<1>((r), (addr))
#define CAKE_STMATRIX_X1(addr, r) cake_host::stmatrix_xn<1>((addr), (r))
#define CAKE_LDMATRIX_X1_TRANS(r, addr) cake_host::ldmatrix_xn_trans<1>((r), (addr))
#define CAKE_STMATRIX_X1_TRANS(addr, r) cake_host::stmatrix_xn_trans<1>((addr), (r))
#define CAKE_MMA_M16N8K16(t, d, a, b0, b1) cake_host::mma_m16n8k16((t), (d), (a), (b0), (b1))
#define CAKE_MMA_M16N8K32(ta, tb, d, a, b0, b1) cake_host::mma_m16n8k32((ta), (tb), (d), (a), (b0), (b1))
#define CAKE_MMA_M16N8K32_S32(ta, tb, d, a, b0, b1) cake_host::mma_m16n8k32_s32((ta), (tb), (d), (a), (b0), (b1))
#define CAKE_MMA_M16N8K8_TF32(d, a, b0, b1) cake_host::mma_m16n8k8_tf32((d), (a), (b0), (b1))
#define CAKE_MBAR_INIT(bar, count) cake_host::mbar_init((bar), (count))
#define CAKE_MBAR_ARRIVE(bar) cake_host::mbar_arrive((bar), 0)
#define CAKE_MBAR_ARRIVE_MC(bar, mask) cake_host::arrive_multicast((bar), (unsigned)(mask))
#define CAKE_MAPA(out, ptr, rank) ((out) = (unsigned long long)cake_host::mapa((ptr), (unsigned)(rank)))
#define CAKE_MBAR_ARRIVE_EXPECT_TX(bar, bytes) cake_host::mbar_arrive((bar), (bytes))
#define CAKE_MBAR_WAIT(bar, parity) cake_host::mbar_wait((bar), (parity))
#define CAKE_MBAR_WAIT_CLUSTER(bar, parity) cake_host::mbar_wait((bar), (parity))
#define CAKE_MBAR_TEST_WAIT(bar, parity) cake_host::mbar_wait((bar), (parity))
#define CAKE_NAMED_SYNC(id, threads) cake_host::named_sync((id), (threads))
#define CAKE_NAMED_ARRIVE(id, threads) cake_host::named_arrive((id), (threads))
#define CAKE_ELECT_SYNC(out, mask) ((out) = cake_host::elect_sync(mask))
// Copies run at issue: a store group's commit and wait order nothing.
#define CAKE_TMA_HOST
#define CAKE_TMA_HOST_LOAD(rank, dst, map, c, bar, mask) cake_host::tma_load((rank), (dst), (map), (c), (bar), (mask))
#define CAKE_TMA_HOST_LOAD_PAIR(rank, dst, map, c, bar) cake_host::tma_load_pair((rank), (dst), (map), (c), (bar))
#define CAKE_TMA_HOST_STORE(rank, map, c, src) cake_host::tma_store((rank), (map), (c), (src))
#define CAKE_BULK_LOAD(dst, src, bytes, bar) cake_host::bulk_load((dst), (src), (bytes), (bar))
#define CAKE_TMA_STORE_COMMIT() ((void)0)
#define CAKE_TMA_STORE_WAIT(n) ((void)0)
#define CAKE_TMA_STORE_WAIT_READ(n) ((void)0)
#define __grid_constant__
// wgmma runs at issue on one core: its fence, commit and wait order nothing.
#define CAKE_WGMMA_DESC(p, sbo, mode)                                                                      \
  ((unsigned long long)((((const unsigned char*)(p) - cake_host::cake_smem_base()) >> 4) & 0x3fff) |       \
   (1ull << 16) | ((unsigned long long)(((sbo) >> 4) & 0x3fff) << 32) | ((unsigned long long)(mode) << 62))
#define CAKE_WGMMA_HOST(n, t, d, da, db, scale_d, ta, tb) cake_host::wgmma((n), (t), (d), (da), (db), (scale_d), (ta), (tb))
#define CAKE_WGMMA_HOST_RS(n, t, d, a, db, scale_d, tb) cake_host::wgmma_rs((n), (t), (d), (a), (db), (scale_d), (tb))
#define CAKE_WGMMA_FENCE() ((void)0)
#define CAKE_WGMMA_COMMIT() ((void)0)
#define CAKE_WGMMA_WAIT(n) ((void)0)
// tcgen05 runs at issue: its commit arrives at once, its waits and fences order nothing.
#define CAKE_TMEM_ALLOC(slot, columns) cake_host::tmem_alloc((slot), (columns))
#define CAKE_TMEM_RELINQUISH() cake_host::tmem_relinquish()
#define CAKE_TMEM_DEALLOC(taddr, columns) cake_host::tmem_dealloc((taddr), (columns))
#define CAKE_TCGEN05_FENCE_BEFORE() ((void)0)
#define CAKE_TCGEN05_FENCE_AFTER() ((void)0)
#define CAKE_TCGEN05_MMA(kind, taddr, da, db, idesc, accumulate) \
  cake_host::tcgen05_mma((kind), (taddr), (da), (db), (idesc), (accumulate))
#define CAKE_TCGEN05_COMMIT(bar) cake_host::mbar_arrive((bar), 0)
#define CAKE_TCGEN05_COMMIT_MC(bar, mask) cake_host::commit_multicast((bar), (mask))
// A CTA pair's: allocation per block as for one, the pair's MMA by the even block.
#define CAKE_TMEM_ALLOC_PAIR(slot, columns) cake_host::tmem_alloc((slot), (columns))
#define CAKE_TMEM_RELINQUISH_PAIR() cake_host::tmem_relinquish()
#define CAKE_TMEM_DEALLOC_PAIR(taddr, columns) cake_host::tmem_dealloc((taddr), (columns))
#define CAKE_TCGEN05_MMA_PAIR(kind, taddr, da, db, idesc, accumulate) \
  cake_host::tcgen05_mma_pair((kind), (taddr), (da), (db), (idesc), (accumulate))
#define CAKE_TCGEN05_COMMIT_PAIR(bar) cake_host::mbar_arrive((bar), 0)
#define CAKE_TCGEN05_COMMIT_PAIR_MC(bar, mask) cake_host::commit_multicast((bar), (mask))
#define CAKE_CLUSTER_SYNC() cake_host::cluster_sync()
#define CAKE_CLUSTER_RANK(out) ((out) = cake_host::cluster_rank())
#define CAKE_TCGEN05_CP_128X256B(taddr, desc) cake_host::tcgen05_cp_128x256b((taddr), (desc))
#define CAKE_TCGEN05_MMA_TS(kind, taddr, a, db, idesc, accumulate) \
  cake_host::tcgen05_mma_ts((kind), (taddr), (a), (db), (idesc), (accumulate))
#define CAKE_TCGEN05_MMA_TS_PAIR(kind, taddr, a, db, idesc, accumulate) \
  cake_host::tcgen05_mma_ts_pair((kind), (taddr), (a), (db), (idesc), (accumulate))
#define CAKE_TCGEN05_WAIT_LD() ((void)0)
#define CAKE_TCGEN05_WAIT_ST() ((void)0)
#define CAKE_TCGEN05_HOST
#define CAKE_TCGEN05_HOST_LD(n, r, taddr) cake_host::tmem_move((n), (r), (taddr), true)
#define CAKE_TCGEN05_HOST_ST(n, r, taddr) cake_host::tmem_move((n), (r), (taddr), false)
#define CAKE_TCGEN05_HOST_LD16(bits, n, r, taddr) cake_host::tmem_move16((bits), (n), (r), (taddr), true)
#define CAKE_TCGEN05_HOST_ST16(bits, n, r, taddr) cake_host::tmem_move16((bits), (n), (r), (taddr), false)
#define CAKE_UMMA_DESC(p, sbo, layout)                                                                   \
  ((unsigned long long)((((const unsigned char*)(p) - cake_host::cake_smem_base()) >> 4) & 0x3fff) |     \
   (1ull << 16) | ((unsigned long long)(((sbo) >> 4) & 0x3fff) << 32) | (1ull << 46) |                   \
   ((unsigned long long)(layout) << 61))
// Ordering and register budgets: nothing to do on one core.
#define CAKE_FENCE_MBAR_INIT() ((void)0)
#define CAKE_FENCE_PROXY_ASYNC() ((void)0)
#define CAKE_SETMAXNREG_INC(n) ((void)0)
#define CAKE_SETMAXNREG_DEC(n) ((void)0)
template <typename T>
T __shfl_sync(unsigned, T v, int from) {
  return cake_host::shfl(v, static_cast<unsigned>(from));
}
template <typename T>
T __shfl_xor_sync(unsigned, T v, int mask) {
  return cake_host::shfl(v, (cake_host::current->idx.x % 32) ^ static_cast<unsigned>(mask));
}
/// CUDA's __byte_perm (PTX prmt, default mode): byte n of the result is
/// byte (s >> 4n) & 7 of the eight bytes of x (0 .. 3) and y (4 .. 7).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  uint64_t both = uint64_t(x) | (uint64_t(y) << 32);
  unsigned out = 0;
  for (unsigned n = 0; n < 4; ++n) out |= unsigned((both >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return out;
}
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
using std::isnan;
