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
// named barriers, elect) are defined here instead, computing what the PTX
// ISA says each does.
//
// This checks the lowering's own arithmetic (where each register sits,
// addresses, reductions, rounding) against the CPU executor without a GPU.
// It is not a GPU: instruction semantics come from the host's libm.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <type_traits>
#include <ucontext.h>

#include "tensor_map.h"
#include <vector>

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

struct Warp {
  uint64_t generation = 0;
  unsigned arrived = 0;
  // Each lane's contribution to the collective in progress, by generation
  // parity (a lane cannot be two collectives ahead of another).
  static constexpr size_t kSlotBytes = 64;
  unsigned char slots[2][32][kSlotBytes] = {};
};

/// An mbarrier (PTX ISA, mbarrier): the arrivals a phase takes, those
/// still pending and the transaction bytes it still expects; `phase`
/// counts completed phases.
struct Mbarrier {
  uint32_t expected = 0, pending = 0;
  int64_t tx = 0;
  uint64_t phase = 0;
};

/// A named barrier (bar.sync id, threads): threads arrived in this round.
struct Named {
  uint64_t generation = 0;
  unsigned arrived = 0;
};

/// Tensor memory (PTX ISA, "Tensor Memory"): 128 lanes x 512 columns of
/// 32-bit cells per CTA, and the columns allocated, by first column.
struct Tmem {
  static constexpr unsigned kLanes = 128, kColumns = 512;
  std::vector<uint32_t> cells = std::vector<uint32_t>(kLanes * kColumns, 0xffffffffu);  // NaN until written
  std::map<unsigned, unsigned> allocated;  // first column -> columns
  bool relinquished = false;
};

struct Cluster;

struct Block {
  std::vector<Thread> threads;
  Tmem tmem;
  Dim3 index;     // blockIdx
  unsigned rank = 0;  // %cluster_ctarank
  Cluster* cluster = nullptr;
  std::vector<unsigned char> smem;  // its shared memory while another block's runs
  std::vector<Warp> warps;
  std::map<const void*, Mbarrier> mbarriers;  // by address in shared memory
  std::map<unsigned, Named> named;
  uint64_t events = 0;  // changes to mbarriers and named barriers: progress
  uint64_t generation = 0;
  unsigned arrived = 0, live = 0;
  ucontext_t scheduler;
  void (*entry)(void**) = nullptr;
  void** args = nullptr;
};

/// The blocks of one cluster, scheduled together, and its barrier
/// (barrier.cluster: every thread of every block arrives).
struct Cluster {
  std::vector<Block> blocks;
  Block* resident = nullptr;  // whose shared memory is in cake_smem
  size_t smem_bytes = 0;
  uint64_t generation = 0;
  unsigned arrived = 0;
  unsigned live() const {
    unsigned n = 0;
    for (const Block& b : blocks) n += b.live;
    return n;
  }
};

inline Dim3 block_index;
inline Block* block = nullptr;
inline Thread* current = nullptr;

/// Makes `b` the running block: its shared memory into cake_smem (the
/// resident block's set aside), its index and rank current.
inline void enter(Block& b) {
  Cluster& c = *b.cluster;
  if (c.resident != &b) {
    if (c.resident) std::memcpy(c.resident->smem.data(), cake_smem, c.smem_bytes);
    std::memcpy(cake_smem, b.smem.data(), c.smem_bytes);
    c.resident = &b;
  }
  block = &b;
  block_index = b.index;
}

/// Where block `b`'s shared memory is now: cake_smem if it runs, else aside.
inline unsigned char* smem_of(Block& b) { return b.cluster->resident == &b ? cake_smem : b.smem.data(); }

inline void yield() { swapcontext(&current->context, &block->scheduler); }

inline void syncthreads() {
  Thread* self = current;
  uint64_t g = block->generation;
  if (++block->arrived == block->live) {
    block->arrived = 0;
    ++block->generation;
    return;
  }
  self->wait = Thread::Wait::Block;
  self->until = g + 1;
  while (block->generation == g) yield();
  self->wait = Thread::Wait::None;
}

/// A warp collective: every lane puts `bytes` of `mine` in; when all 32
/// have, each gets every lane's (`all`, 32 × bytes, lane order).
inline void gather(const void* mine, size_t bytes, void* all) {
  Thread* self = current;
  unsigned lane = self->idx.x % 32;
  Warp& w = block->warps[self->idx.x / 32];
  uint64_t g = w.generation;
  std::memcpy(w.slots[g % 2][lane], mine, bytes);
  if (++w.arrived == 32) {
    w.arrived = 0;
    ++w.generation;
  } else {
    self->wait = Thread::Wait::Warp;
    while (w.generation == g) yield();
    self->wait = Thread::Wait::None;
  }
  for (unsigned l = 0; l < 32; ++l) std::memcpy(static_cast<unsigned char*>(all) + l * bytes, w.slots[g % 2][l], bytes);
}

/// The lanes of the warp meet (a .sync.aligned instruction): none goes on
/// before all have reached it, so what each lane did before is done for
/// all (a tcgen05.ld reads what another lane's tcgen05.st wrote).
inline void warp_rendezvous() {
  unsigned char mine = 0, all[32];
  gather(&mine, 1, all);
}

/// Every lane of the warp puts `bits` in and takes lane `from`'s out.
inline uint32_t exchange(uint32_t bits, unsigned from) {
  uint32_t all[32];
  gather(&bits, 4, all);
  return all[from % 32];
}

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

// Section - Ampere's instructions, as the PTX ISA defines their results.

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

/// An MMA operand's element type, as PTX names it: 16-bit floats, the
/// 8-bit floats of OCP FP8 (e4m3: bias 7, only S.1111.111 is NaN; e5m2:
/// bias 15, IEEE specials), 8-bit integers, or the OCP MX 6- and 4-bit
/// floats (e3m2: bias 3, e2m3 and e2m1: bias 1; no infinities or NaNs),
/// which shared memory holds sixteen to a 16-byte chunk (below).
enum class Elem { F16, BF16, E4M3, E5M2, S8, U8, TF32, E3M2, E2M3, E2M1 };

/// Bits of a 6- or 4-bit float, 0 for the others.
inline unsigned sub_byte_bits(Elem e) { return e == Elem::E2M1 ? 4 : e == Elem::E3M2 || e == Elem::E2M3 ? 6 : 0; }

/// The value of a sign-exponent-mantissa code without specials.
inline float small_float(uint32_t code, int exponent_bits, int mantissa_bits) {
  int bias = (1 << (exponent_bits - 1)) - 1;
  uint32_t exponent = (code >> mantissa_bits) & ((1u << exponent_bits) - 1), fraction = code & ((1u << mantissa_bits) - 1);
  float magnitude = exponent == 0 ? float(fraction) * pow2(1 - bias - mantissa_bits)
                                  : float(fraction | (1u << mantissa_bits)) * pow2(int(exponent) - bias - mantissa_bits);
  return (code >> (exponent_bits + mantissa_bits)) & 1 ? -magnitude : magnitude;
}

/// The `bits` (at most 8) bits at bit `at` of the bytes at `p`, low bits
/// first; the byte after is read only when the field reaches into it.
inline uint32_t bits_at(const unsigned char* p, uint64_t at, unsigned bits) {
  uint32_t word = p[at / 8];
  if (at % 8 + bits > 8) word |= uint32_t(p[at / 8 + 1]) << 8;
  return (word >> (at % 8)) & ((1u << bits) - 1);
}

/// Value j (< 16) of the 16-byte chunk at `chunk` holding 6- or 4-bit
/// floats: the PTX ISA's packing of kind::f8f6f4 operands in shared memory
/// (and what TMA's 16U6/16U4_ALIGN16B types write): the sixteen values
/// packed from bit 0 of the chunk, value j at bits j x width, then padding.
inline float sub_byte_value(const unsigned char* chunk, unsigned j, Elem e) {
  unsigned bits = sub_byte_bits(e);
  uint32_t code = bits_at(chunk, j * bits, bits);
  return e == Elem::E2M1 ? small_float(code, 2, 1) : e == Elem::E3M2 ? small_float(code, 3, 2) : small_float(code, 2, 3);
}

inline Elem elem_of(const char* type) {
  if (std::strcmp(type, "bf16") == 0) return Elem::BF16;
  if (std::strcmp(type, "e4m3") == 0) return Elem::E4M3;
  if (std::strcmp(type, "e5m2") == 0) return Elem::E5M2;
  if (std::strcmp(type, "s8") == 0) return Elem::S8;
  if (std::strcmp(type, "u8") == 0) return Elem::U8;
  if (std::strcmp(type, "tf32") == 0) return Elem::TF32;
  return Elem::F16;
}

/// Bytes an element takes in shared memory (a 6- or 4-bit float: one).
inline unsigned elem_bytes(Elem e) { return e == Elem::TF32 ? 4 : e == Elem::F16 || e == Elem::BF16 ? 2 : 1; }

/// A tf32 operand as the tensor cores read it: an f32 whose low 13
/// mantissa bits are ignored.
inline float tf32_bits_to_float(uint32_t bits) {
  bits &= 0xffffe000u;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
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

/// The value of an element of type `e` at `p`.
inline float elem_value(const unsigned char* p, Elem e) {
  if (e == Elem::S8) return float(int8_t(*p));
  if (e == Elem::U8) return float(*p);
  if (e == Elem::TF32) return tf32_bits_to_float(load_bits<uint32_t>(p));
  if (elem_bytes(e) == 1) return fp8_bits_to_float(*p, e == Elem::E5M2);
  return half_bits_to_float(load_bits<uint16_t>(p), e == Elem::BF16);
}

/// `start` plus the sum over k < steps of product(k): in f32, or for an s32
/// accumulator exactly (8-bit integer products are exact in a float) and
/// then wrapped to 32 bits, as the hardware's integer MMAs (no .satfinite).
template <typename Acc, typename Product>
inline Acc accumulate(Acc start, unsigned steps, Product product) {
  if constexpr (std::is_same_v<Acc, int>) {
    int64_t sum = start;
    for (unsigned k = 0; k < steps; ++k) sum += int64_t(product(k));
    return int(uint32_t(uint64_t(sum)));
  } else {
    float sum = start;
    for (unsigned k = 0; k < steps; ++k) sum += product(k);
    return sum;
  }
}

/// mma.sync m16n8kK .row.col with f32 accumulators, as the PTX ISA lays out
/// its fragments (g = lane / 4, t = lane % 4), for operands of `per` values
/// a register (K = 8 per): a0 holds A[g][per t ..], a1 A[g + 8][..], a2
/// A[g][4 per + per t ..], a3 A[g + 8][..]; b0 holds B[per t ..][g], b1
/// B[4 per + per t ..][g]; d0, d1 D[g][2t, 2t + 1], d2, d3 D[g + 8][..].
/// `value(word, j, side)` decodes the j-th value of a register of A (side
/// 0) or B (side 1), the low bits first.
template <typename Acc, typename Value>
inline void mma_m16n8(unsigned per, Acc* d, const unsigned* a, unsigned b0, unsigned b1, Value value) {
  struct Operands {
    unsigned a[4], b[2];
  } mine = {{a[0], a[1], a[2], a[3]}, {b0, b1}}, all[32];
  gather(&mine, sizeof mine, all);
  unsigned half = 4 * per;  // the k columns of a0 and a1
  auto A = [&](unsigned row, unsigned k) {
    return value(all[4 * (row % 8) + (k % half) / per].a[row / 8 + 2 * (k / half)], k % per, 0);
  };
  auto B = [&](unsigned k, unsigned col) { return value(all[4 * col + (k % half) / per].b[k / half], k % per, 1); };
  unsigned lane = current->idx.x % 32, g = lane / 4, t = lane % 4;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned row = g + 8 * (i / 2), col = 2 * t + i % 2;
    d[i] = accumulate(d[i], 8 * per, [&](unsigned k) { return A(row, k) * B(k, col); });
  }
}

/// m16n8k16 over 16-bit operands of `type` (bf16, f16).
inline void mma_m16n8k16(const char* type, float* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool bf16 = std::strcmp(type, "bf16") == 0;
  mma_m16n8(2, d, a, b0, b1, [&](unsigned word, unsigned j, int) {
    return half_bits_to_float(uint16_t(word >> (16 * j)), bf16);
  });
}

/// m16n8k32 over 8-bit floats, A of type `ta` and B of `tb` (e4m3, e5m2).
inline void mma_m16n8k32(const char* ta, const char* tb, float* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool e5m2[2] = {elem_of(ta) == Elem::E5M2, elem_of(tb) == Elem::E5M2};
  mma_m16n8(4, d, a, b0, b1, [&](unsigned word, unsigned j, int side) {
    return fp8_bits_to_float(uint8_t(word >> (8 * j)), e5m2[side]);
  });
}

/// m16n8k8 over tf32 operands (one value a register).
inline void mma_m16n8k8_tf32(float* d, const unsigned* a, unsigned b0, unsigned b1) {
  mma_m16n8(1, d, a, b0, b1, [&](unsigned word, unsigned, int) { return tf32_bits_to_float(word); });
}

/// m16n8k32 over 8-bit integers into s32, A of type `ta` and B of `tb`
/// (s8, u8).
inline void mma_m16n8k32_s32(const char* ta, const char* tb, int* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool is_signed[2] = {std::strcmp(ta, "s8") == 0, std::strcmp(tb, "s8") == 0};
  mma_m16n8(4, d, a, b0, b1, [&](unsigned word, unsigned j, int side) {
    uint8_t b = uint8_t(word >> (8 * j));
    return is_signed[side] ? float(int8_t(b)) : float(b);
  });
}

// Section - mbarriers, named barriers and elect.

inline void mbar_init(const void* bar, unsigned count) {
  block->mbarriers[bar] = Mbarrier{count, count, 0, 0};
  ++block->events;
}

/// The mbarrier at `bar`'s offset in block `in` (the running block's by default).
inline Mbarrier& mbar(const void* bar, Block* in = nullptr) {
  Block& b = in ? *in : *block;
  auto it = b.mbarriers.find(bar);
  if (it == b.mbarriers.end()) {
    std::fprintf(stderr, "cuda_host: an mbarrier used before mbarrier.init\n");
    std::abort();
  }
  return it->second;
}

/// One arrival, after adding `tx` expected bytes: the phase completes when
/// no arrival and no byte is pending.
inline void mbar_arrive(const void* bar, int64_t tx, Block* in = nullptr) {
  Mbarrier& b = mbar(bar, in);
  b.tx += tx;
  if (b.pending == 0) {
    std::fprintf(stderr, "cuda_host: more arrivals on an mbarrier than its count\n");
    std::abort();
  }
  if (--b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
  ++block->events;
}

/// `bytes` of the phase's expected transactions have arrived (a copy's
/// complete_tx): the phase completes when nothing is pending.
inline void mbar_complete_tx(const void* bar, int64_t bytes, Block* in = nullptr) {
  Mbarrier& b = mbar(bar, in);
  b.tx -= bytes;
  if (b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
  ++block->events;
}

/// Returns once the phase of parity `parity` has completed: the current
/// phase's parity differs from it.
inline void mbar_wait(const void* bar, unsigned parity) {
  Thread* self = current;
  while (mbar(bar).phase % 2 == parity % 2) {
    self->wait = Thread::Wait::Mbarrier;
    yield();
  }
  self->wait = Thread::Wait::None;
}

inline void named_sync(unsigned id, unsigned threads) {
  Thread* self = current;
  Named& n = block->named[id];
  uint64_t g = n.generation;
  ++block->events;
  if (++n.arrived == threads) {
    n.arrived = 0;
    ++n.generation;
    return;
  }
  self->wait = Thread::Wait::Named;
  while (block->named[id].generation == g) yield();
  self->wait = Thread::Wait::None;
}

/// bar.arrive: counts toward the barrier's round without waiting for it.
inline void named_arrive(unsigned id, unsigned threads) {
  Named& n = block->named[id];
  ++block->events;
  if (++n.arrived == threads) {
    n.arrived = 0;
    ++n.generation;
  }
}

/// elect.sync over the whole warp: every lane takes part; the lowest lane is
/// the leader.
inline unsigned elect_sync() {
  uint32_t all[32];
  uint32_t mine = 1;
  gather(&mine, 4, all);
  return current->idx.x % 32 == 0;
}

// Section - TMA and bulk copies, at issue.

[[noreturn]] inline void tmem_fault(const char* what);

/// Byte offset `o` from the block's shared memory, swizzled with a span of
/// `swizzle` bytes (16-byte chunk bits XOR the bits from 7).
inline size_t swizzle_offset(size_t o, uint32_t swizzle) {
  size_t mask = swizzle == 128 ? 7 : swizzle == 64 ? 3 : swizzle == 32 ? 1 : 0;
  return o ^ (((o >> 7) & mask) << 4);
}

/// Element `e` of a box at `c` (innermost first, row-major from the
/// innermost dim): its byte offset in the tensor, and whether it is inside.
inline bool box_element(const TensorMap& map, int rank, const long long* c, uint64_t e, size_t& offset) {
  uint64_t rest = e;
  bool inside = true;
  offset = 0;
  for (int i = 0; i < rank; ++i) {
    long long at = c[i] + static_cast<long long>(rest % map.box[i]);
    rest /= map.box[i];
    inside = inside && at >= 0 && static_cast<uint64_t>(at) < map.dims[i];
    offset += static_cast<size_t>(at) * map.strides[i];
  }
  return inside;
}

inline uint64_t box_elements(const TensorMap& map, int rank) {
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) count *= map.box[i];
  return count;
}

/// The box at `c` into shared `dst`, each element swizzled by its absolute
/// offset; outside the tensor, zeros. Then the box's bytes complete on `bar`.
/// The blocks of the running cluster that multicast `mask` names (bit r:
/// the block of rank r); a bit past the cluster aborts.
inline std::vector<Block*> multicast_blocks(unsigned mask) {
  std::vector<Block*> out;
  Cluster& c = *block->cluster;
  if (mask == 0 || (c.blocks.size() < 16 && (mask >> c.blocks.size()) != 0)) {
    std::fprintf(stderr, "cuda_host: a multicast mask 0x%x outside a cluster of %zu\n", mask, c.blocks.size());
    std::abort();
  }
  for (Block& b : c.blocks)
    if ((mask >> b.rank) & 1) out.push_back(&b);
  return out;
}

/// The box at `c` into shared `dst` of each block `mask` names (0: this
/// block's alone, without a multicast), each element swizzled by its
/// offset, completing its bytes on `bar` of each.
/// A packed type's box (16U4/16U6_ALIGN16B: 4- or 6-bit values, the inner
/// box 128 of them) into shared memory at `to` (offset `start`): each 16
/// values of a row packed into the first bytes of a 16-byte chunk, value j
/// at bits j x width, the rest of the chunk zeros; outside the tensor, a
/// zero value. Returns the bytes it counts (the tensor's: packed).
inline int64_t tma_load_packed(const TensorMap& map, int rank, const long long* c, unsigned char* to, size_t start) {
  unsigned bits = map.element_bits;
  if (map.box[0] != 128 || (bits != 4 && bits != 6)) tmem_fault("a packed tensor map whose inner box is not 128 values");
  uint64_t count = box_elements(map, rank);
  size_t row = 0;
  for (uint64_t e = 0; e < count; e += 16) {
    unsigned char* chunk = to + swizzle_offset(start + e, map.swizzle);
    std::memset(chunk, 0, 16);
    for (unsigned j = 0; j < 16; ++j) {
      if (!box_element(map, rank, c, e + j, row)) continue;  // strides[0] is 0: `row` is the row's first byte
      uint64_t x = uint64_t(c[0]) + (e + j) % map.box[0];
      uint32_t code = bits_at(map.base + row, x * bits, bits);
      unsigned put = j * bits;
      chunk[put / 8] |= uint8_t(code << (put % 8));
      if (put % 8 + bits > 8) chunk[put / 8 + 1] |= uint8_t(code >> (8 - put % 8));
    }
  }
  return int64_t(count * bits / 8);
}

inline void tma_load(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar, unsigned mask,
                     Block* signal = nullptr) {
  TensorMap map;
  std::memcpy(&map, map_bytes, sizeof map);
  uint64_t count = box_elements(map, rank);
  size_t start = static_cast<size_t>(static_cast<unsigned char*>(dst) - cake_smem_base()), from = 0;
  std::vector<Block*> to_blocks = mask == 0 ? std::vector<Block*>{block} : multicast_blocks(mask);
  for (Block* b : to_blocks) {
    unsigned char* base = smem_of(*b);
    if (map.element_bits != 0 && map.element_bits < 8) {
      mbar_complete_tx(bar, tma_load_packed(map, rank, c, base, start), signal ? signal : b);
      continue;
    }
    for (uint64_t e = 0; e < count; ++e) {
      unsigned char* to = base + swizzle_offset(start + e * map.element_bytes, map.swizzle);
      if (box_element(map, rank, c, e, from)) std::memcpy(to, map.base + from, map.element_bytes);
      else std::memset(to, 0, map.element_bytes);
    }
    mbar_complete_tx(bar, static_cast<int64_t>(count * map.element_bytes), signal ? signal : b);
  }
}

/// `arrive b multicast(mask)` (mapa + mbarrier.arrive.shared::cluster), and
/// tcgen05.commit .multicast::cluster: one arrival on `bar` of each block
/// `mask` names.
inline void arrive_multicast(const void* bar, unsigned mask) {
  for (Block* b : multicast_blocks(mask)) mbar_arrive(bar, 0, b);
}
inline void commit_multicast(const void* bar, unsigned mask) { arrive_multicast(bar, mask); }

/// mapa: the same shared-memory object in the block of rank `rank`. Only
/// the running block's memory is in cake_smem, so a peer's is where it is
/// set aside, which stays true while this block runs; its own is `p`.
inline void* mapa(const void* p, unsigned rank) {
  Cluster& c = *block->cluster;
  if (rank >= c.blocks.size()) {
    std::fprintf(stderr, "cuda_host: mapa to rank %u outside a cluster of %zu\n", rank, c.blocks.size());
    std::abort();
  }
  size_t offset = static_cast<size_t>(static_cast<const unsigned char*>(p) - cake_smem_base());
  for (Block& b : c.blocks)
    if (b.rank == rank) return smem_of(b) + offset;
  return const_cast<void*>(p);
}

/// The block whose shared memory the generic address `p` (from mapa) is
/// in, and the same object's address in cake_smem (where its mbarriers are
/// keyed); aborts for an address in no block's shared memory.
inline Block& shared_owner(const void* p, const void** key) {
  Cluster& c = *block->cluster;
  const unsigned char* q = static_cast<const unsigned char*>(p);
  for (Block& b : c.blocks) {
    const unsigned char* base = smem_of(b);
    if (q >= base && q < base + c.smem_bytes) {
      *key = cake_smem_base() + (q - base);
      return b;
    }
  }
  std::fprintf(stderr, "cuda_host: an address in no block's shared memory\n");
  std::abort();
}

/// A CTA pair's copy (.cta_group::2): the box into this block's `dst`, its
/// bytes completing on the barrier at generic address `bar`, this block's
/// or its pair's; another block's aborts, as PTX leaves it undefined.
inline void tma_load_pair(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar) {
  const void* key = nullptr;
  Block& owner = shared_owner(bar, &key);
  if (owner.rank != block->rank && owner.rank != (block->rank ^ 1u)) {
    std::fprintf(stderr, "cuda_host: a pair's copy completing on a barrier outside its pair\n");
    std::abort();
  }
  tma_load(rank, dst, map_bytes, c, key, 0, &owner);
}

/// barrier.cluster.arrive + wait: every live thread of every block.
inline void cluster_sync() {
  Thread* self = current;
  Cluster& c = *block->cluster;
  uint64_t g = c.generation;
  ++block->events;
  if (++c.arrived == c.live()) {
    c.arrived = 0;
    ++c.generation;
    return;
  }
  self->wait = Thread::Wait::Block;
  while (c.generation == g) yield();  // the scheduler enters this block before resuming
  self->wait = Thread::Wait::None;
}

/// Shared `src` (the box, swizzled) to the tensor at `c`; elements outside
/// the tensor are not written.
inline void tma_store(int rank, const void* map_bytes, const long long* c, const void* src) {
  TensorMap map;
  std::memcpy(&map, map_bytes, sizeof map);
  if (map.element_bits != 0 && map.element_bits < 8) tmem_fault("a TMA store through a packed tensor map");
  size_t start = static_cast<size_t>(static_cast<const unsigned char*>(src) - cake_smem_base()), to = 0;
  for (uint64_t e = 0; e < box_elements(map, rank); ++e)
    if (box_element(map, rank, c, e, to))
      std::memcpy(const_cast<unsigned char*>(map.base) + to,
                  cake_smem_base() + swizzle_offset(start + e * map.element_bytes, map.swizzle), map.element_bytes);
}

inline void bulk_load(void* dst, const void* src, unsigned bytes, const void* bar) {
  std::memcpy(dst, src, bytes);
  mbar_complete_tx(bar, bytes);
}

// Section - Blackwell's tensor memory and tcgen05.mma, at issue.

[[noreturn]] inline void tmem_fault(const char* what) {
  std::fprintf(stderr, "cuda_host: %s\n", what);
  std::abort();
}

/// tcgen05.alloc by the whole warp: the lowest free run of `columns` (a
/// power of two, 32 .. 512), its address (lane 0, first column) written
/// to shared `slot` once.
inline void tmem_alloc(void* slot, unsigned columns) {
  uint32_t all[32], mine = columns;
  gather(&mine, 4, all);  // .sync.aligned: the warp's lanes together
  if (current->idx.x % 32 != 0) return;
  Tmem& t = block->tmem;
  if (t.relinquished) tmem_fault("tcgen05.alloc after relinquish_alloc_permit");
  if (columns < 32 || columns > Tmem::kColumns || (columns & (columns - 1)) != 0)
    tmem_fault("tcgen05.alloc of a column count that is not a power of two in 32 .. 512");
  for (unsigned first = 0; first + columns <= Tmem::kColumns; first += columns) {
    bool free = true;
    for (const auto& [at, n] : t.allocated) free = free && (first + columns <= at || at + n <= first);
    if (!free) continue;
    t.allocated[first] = columns;
    std::memcpy(slot, &first, 4);
    return;
  }
  tmem_fault("tcgen05.alloc found no free columns (it would wait forever)");
}

inline void tmem_relinquish() {
  uint32_t all[32], mine = 0;
  gather(&mine, 4, all);
  block->tmem.relinquished = true;
}

inline void tmem_dealloc(unsigned taddr, unsigned columns) {
  uint32_t all[32], mine = columns;
  gather(&mine, 4, all);
  if (current->idx.x % 32 != 0) return;
  auto it = block->tmem.allocated.find(taddr & 0xffff);
  if ((taddr >> 16) != 0 || it == block->tmem.allocated.end() || it->second != columns)
    tmem_fault("tcgen05.dealloc of something tcgen05.alloc did not allocate");
  block->tmem.allocated.erase(it);
}

/// The cell at TMEM address `taddr` plus `lane` lanes and `column` columns,
/// inside an allocation.
inline uint32_t& tmem_cell(unsigned taddr, unsigned lane, unsigned column, Block* in = nullptr) {
  Tmem& t = (in ? in : block)->tmem;
  unsigned l = (taddr >> 16) + lane, c = (taddr & 0xffff) + column;
  bool inside = false;
  for (const auto& [at, n] : t.allocated) inside = inside || (c >= at && c < at + n);
  if (l >= Tmem::kLanes || !inside) tmem_fault("a tensor-memory access outside every allocation");
  return t.cells[l * Tmem::kColumns + c];
}

/// Element (r, k) of a K-major swizzled shared-memory MMA operand: row r at
/// r x span bytes (8-row groups `sbo` apart), then the swizzle of the
/// absolute offset (swizzle_offset()), in the shared memory at `base` (the
/// running block's by default).
inline float mma_operand(size_t start, size_t sbo, uint32_t span, unsigned r, unsigned k, Elem e,
                         const unsigned char* base = nullptr) {
  size_t row = start + (r / 8) * sbo + (r % 8) * span;
  if (sub_byte_bits(e)) {  // value k % 16 of the row's 16-byte chunk k / 16
    size_t o = swizzle_offset(row + 16 * (k / 16), span);
    return sub_byte_value((base ? base : cake_smem_base()) + o, k % 16, e);
  }
  size_t o = swizzle_offset(row + elem_bytes(e) * k, span);
  return elem_value((base ? base : cake_smem_base()) + o, e);
}

/// Element (r, k) of an MN-major swizzled operand (PTX ISA, the canonical
/// MN-major layouts): K row k at k x span bytes (8-row groups `sbo` apart),
/// along it `span` bytes of M or N, then the next span of M or N `lbo`
/// further; swizzled as mma_operand()'s.
inline float mma_operand_mn(size_t start, size_t sbo, size_t lbo, uint32_t span, unsigned r, unsigned k, Elem e,
                            const unsigned char* base = nullptr) {
  if (sub_byte_bits(e)) tmem_fault("an MN-major operand of 6- or 4-bit floats");
  size_t along = size_t(elem_bytes(e)) * r;
  size_t o = swizzle_offset(start + (k / 8) * sbo + (k % 8) * span + (along / span) * lbo + along % span, span);
  return elem_value((base ? base : cake_smem_base()) + o, e);
}

/// The span a tcgen05 shared-memory descriptor's layout (bits 61-63) names;
/// the descriptor's fixed version (bits 46-48) must be 1.
inline uint32_t umma_span(unsigned long long desc) {
  if (((desc >> 46) & 7) != 1) tmem_fault("a tcgen05 shared-memory descriptor without version 1 in bits 46-48");
  switch (unsigned(desc >> 61)) {
    case 2: return 128;
    case 4: return 64;
    case 6: return 32;
  }
  tmem_fault("a tcgen05 shared-memory descriptor with a layout other than 128B, 64B or 32B swizzling");
}

/// What a tcgen05.mma instruction descriptor names for `.kind::kind`
/// (f16, tf32, f8f6f4 or i8): dense, A and B K-major, M = `m` (faults
/// otherwise); N, the operands' element types (kind::f16: f16 0, bf16 1,
/// both alike; tf32: 2; f8f6f4: e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5;
/// i8: u8 0, s8 1) and
/// whether D is s32 (i8) rather than f32 (D format 2, else 1).
struct UmmaShape {
  unsigned n;
  Elem a, b;
  bool integer;
  bool a_mn, b_mn;  // transpose A / B (bits 15, 16): MN-major in shared memory
};
inline UmmaShape umma_shape(const char* kind, unsigned idesc, unsigned m) {
  bool f16 = std::strcmp(kind, "f16") == 0, f8 = std::strcmp(kind, "f8f6f4") == 0, i8 = std::strcmp(kind, "i8") == 0,
       tf32 = std::strcmp(kind, "tf32") == 0;
  unsigned dtype = (idesc >> 4) & 3, atype = (idesc >> 7) & 7, btype = (idesc >> 10) & 7;
  const Elem table[3][6] = {{Elem::F16, Elem::BF16},
                            {Elem::E4M3, Elem::E5M2, Elem::E4M3, Elem::E2M3, Elem::E3M2, Elem::E2M1},
                            {Elem::U8, Elem::S8}};
  int row = f16 ? 0 : f8 ? 1 : i8 ? 2 : tf32 ? 3 : -1;
  // kind::tf32 names its operands 2 (tf32), kind::f8f6f4 0 to 5 (2 is
  // none of its types), the others 0 or 1.
  unsigned low = tf32 ? 2 : 0, high = tf32 ? 2 : f8 ? 5 : 1;
  if (f8 && (atype == 2 || btype == 2)) tmem_fault("a kind::f8f6f4 instruction descriptor naming type 2");
  if (row < 0 || dtype != (i8 ? 2u : 1u) || atype < low || atype > high || btype < low || btype > high ||
      (f16 && atype != btype) || ((idesc >> 13) & 3) != 0 || (idesc & 15) != 0 || (((idesc >> 24) & 31) << 4) != m ||
      ((idesc >> 23) & 1) != 0 || (idesc >> 29) != 0)
    tmem_fault(m == 256 ? "a pair's tcgen05.mma instruction descriptor other than dense f32 += f16/bf16/tf32/e4m3/e5m2 or s32 += s8/u8, no negation, M = 256"
                        : "a tcgen05.mma instruction descriptor other than dense f32 += f16/bf16/tf32/e4m3/e5m2 or s32 += s8/u8, no negation, M = 64 or 128");
  auto elem = [&](unsigned code) { return tf32 ? Elem::TF32 : table[row][code]; };
  return {((idesc >> 17) & 63) << 3, elem(atype), elem(btype), i8, ((idesc >> 15) & 1) != 0, ((idesc >> 16) & 1) != 0};
}

/// One instruction's k-step of an MMA into 32-bit TMEM cells: cell(i, j)
/// (+)= sum over k < 32 bytes' worth of a(i, k) * b(j, k), for i < m, j < n;
/// in f32, or (`integer`) in s32, wrapping as the hardware's does.
template <typename A, typename B, typename Cell>
void mma_step(unsigned m, unsigned n, unsigned k, bool integer, unsigned add, A a, B b, Cell cell) {
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      uint32_t& c = cell(i, j);
      auto product = [&](unsigned x) { return a(i, x) * b(j, x); };
      if (integer) {
        c = uint32_t(accumulate(add ? int(c) : 0, k, product));
      } else {
        float start = 0.0f;
        if (add) std::memcpy(&start, &c, 4);
        float sum = accumulate(start, k, product);
        std::memcpy(&c, &sum, 4);
      }
    }
}

/// Elements a k-step covers: 32 bytes of a row (32 6- or 4-bit floats).
inline unsigned umma_k(Elem e) { return 32 / elem_bytes(e); }

/// A shared-memory operand a tcgen05 descriptor names, K-major or (`mn`,
/// the instruction descriptor's transpose bit) MN-major, read at block
/// `in`'s shared memory (the running block's by default).
struct UmmaOperand {
  size_t start, sbo, lbo;
  uint32_t span;
  Elem elem;
  bool mn;
  explicit UmmaOperand(unsigned long long desc, Elem e, bool mn_major = false)
      : start(size_t(desc & 0x3fff) << 4), sbo(size_t((desc >> 32) & 0x3fff) << 4),
        lbo(size_t((desc >> 16) & 0x3fff) << 4), span(umma_span(desc)), elem(e), mn(mn_major) {}
  float at(unsigned r, unsigned k, Block* in = nullptr) const {
    const unsigned char* base = in ? smem_of(*in) : nullptr;
    return mn ? mma_operand_mn(start, sbo, lbo, span, r, k, elem, base) : mma_operand(start, sbo, span, r, k, elem, base);
  }
};

/// Element k of a row of A in tensor memory (TMEM lane = row, from
/// column `a`): packed low bits first, 4 / bytes elements a column.
inline float tmem_operand(unsigned a, unsigned row, unsigned k, Elem e, Block* in = nullptr) {
  if (sub_byte_bits(e)) tmem_fault("a 6- or 4-bit A in tensor memory");
  unsigned per = 4 / elem_bytes(e);
  uint32_t word = tmem_cell(a, row, k / per, in) >> (8 * elem_bytes(e) * (k % per) % 32);
  unsigned char bytes[4] = {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16), uint8_t(word >> 24)};
  return elem_value(bytes, e);
}

/// tcgen05.mma.cta_group::1 by one thread: D = A @ B^T (+ D when
/// `accumulate`), shapes and types from the instruction descriptor and
/// `kind`, both operands in shared memory. M = 128: D row i in lane i
/// (the PTX ISA's data-path layout D); M = 64: row i in lane 32 (i / 16) +
/// i % 16 (layout F: the first 16 lanes of each quarter).
inline void tcgen05_mma(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                        unsigned accumulate) {
  unsigned m = ((idesc >> 24) & 31) << 4;
  UmmaShape u = umma_shape(kind, idesc, m == 64 ? 64 : 128);
  if (m == 64 && (d >> 16) != 0) tmem_fault("an M = 64 tcgen05.mma whose accumulator address is not lane 0");
  UmmaOperand a(da, u.a, u.a_mn), b(db, u.b, u.b_mn);
  auto lane = [&](unsigned i) { return m == 64 ? 32 * (i / 16) + i % 16 : i; };
  mma_step(
      m, u.n, umma_k(u.a), u.integer, accumulate, [&](unsigned i, unsigned k) { return a.at(i, k); },
      [&](unsigned j, unsigned k) { return b.at(j, k); },
      [&](unsigned i, unsigned j) -> uint32_t& { return tmem_cell(d, lane(i), j); });
}

/// tcgen05.cp.cta_group::1.128x256b: 8 32-bit words of each of 128 rows of
/// the descriptor's matrix (rows as a K-major MMA operand's) into columns
/// taddr .. + 7 of TMEM lanes 0-127.
inline void tcgen05_cp_128x256b(unsigned taddr, unsigned long long desc) {
  if ((taddr >> 16) != 0) tmem_fault("a tcgen05.cp .128x256b whose address is not lane 0");
  size_t start = size_t(desc & 0x3fff) << 4, sbo = size_t((desc >> 32) & 0x3fff) << 4;
  uint32_t span = umma_span(desc);
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned w = 0; w < 8; ++w) {
      size_t o = swizzle_offset(start + (r / 8) * sbo + (r % 8) * span + 4 * w, span);
      std::memcpy(&tmem_cell(taddr, r, w), cake_smem_base() + o, 4);
    }
}

/// tcgen05.mma.cta_group::2 by one thread of the even block of a pair:
/// M = 256, A's rows 0-127 and D's (lane i) in this block, 128-255 in its
/// pair's (lane i - 128); B's rows 0 .. N/2 - 1 in this block, the rest in
/// its pair's; each descriptor (and A's TMEM address) at the same offsets
/// in both. `a(r, k, holder, elem)` is A's element (r, k) of the block
/// `holder`'s 128 rows.
template <typename AOperand>
inline void mma_pair(const char* kind, unsigned d, unsigned long long db, unsigned idesc, unsigned accumulate, AOperand a) {
  UmmaShape u = umma_shape(kind, idesc, 256);
  Block* pair = nullptr;
  for (Block& b : block->cluster->blocks)
    if (b.rank == (block->rank ^ 1u)) pair = &b;
  if (block->rank % 2 != 0 || !pair) tmem_fault("a pair's tcgen05.mma outside the even block of a pair");
  Block* self = block;
  auto holder = [&](unsigned r, unsigned half) { return r < half ? self : pair; };
  UmmaOperand b(db, u.b, u.b_mn);
  unsigned n = u.n;
  mma_step(
      256, n, umma_k(u.a), u.integer, accumulate, [&](unsigned i, unsigned k) { return a(i % 128, k, holder(i, 128), u.a); },
      [&](unsigned j, unsigned k) { return b.at(j % (n / 2), k, holder(j, n / 2)); },
      [&](unsigned i, unsigned j) -> uint32_t& { return tmem_cell(d, i % 128, j, holder(i, 128)); });
}

/// A pair's MMA with A in shared memory (descriptor `da`).
inline void tcgen05_mma_pair(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                             unsigned accumulate) {
  mma_pair(kind, d, db, idesc, accumulate,
           [&](unsigned r, unsigned k, Block* holder, Elem e) { return UmmaOperand(da, e, (idesc >> 15) & 1).at(r, k, holder); });
}

/// tcgen05.mma.cta_group::1 with A in tensor memory: A's row i is TMEM
/// lane i (M = 64: where D's row i is), its element k packed in the
/// columns from `a` (tmem_operand()); B and D as in tcgen05_mma().
inline void tcgen05_mma_ts(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                           unsigned accumulate) {
  unsigned m = ((idesc >> 24) & 31) << 4;
  UmmaShape u = umma_shape(kind, idesc, m == 64 ? 64 : 128);
  if (u.a_mn) tmem_fault("a tcgen05.mma with A in tensor memory and the transpose-A bit set");
  if (m == 64 && ((d >> 16) != 0 || (a >> 16) != 0))
    tmem_fault("an M = 64 tcgen05.mma whose accumulator or A address is not lane 0");
  UmmaOperand b(db, u.b, u.b_mn);
  // M = 64: A's row i and D's in lane 32 (i / 16) + i % 16 (layout F).
  auto lane = [&](unsigned i) { return m == 64 ? 32 * (i / 16) + i % 16 : i; };
  mma_step(
      m, u.n, umma_k(u.a), u.integer, accumulate, [&](unsigned i, unsigned k) { return tmem_operand(a, lane(i), k, u.a); },
      [&](unsigned j, unsigned k) { return b.at(j, k); },
      [&](unsigned i, unsigned j) -> uint32_t& { return tmem_cell(d, lane(i), j); });
}

/// A pair's MMA with A in tensor memory: A's rows 0-127 in this block's
/// TMEM at `a`, 128-255 in its pair's at the same address, laid out as in
/// tcgen05_mma_ts().
inline void tcgen05_mma_ts_pair(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                                unsigned accumulate) {
  if ((idesc >> 15) & 1) tmem_fault("a tcgen05.mma with A in tensor memory and the transpose-A bit set");
  mma_pair(kind, d, db, idesc, accumulate,
           [&](unsigned r, unsigned k, Block* holder, Elem e) { return tmem_operand(a, r, k, e, holder); });
}

/// tcgen05.ld / st .32x32b.x`n`: lane l of the warp moves `n` columns of
/// TMEM lane (taddr >> 16) + l; a warp may touch only its quarter of lanes.
inline void tmem_move(unsigned n, void* r, unsigned taddr, bool load) {
  warp_rendezvous();
  unsigned lane = current->idx.x % 32, quarter = (current->idx.x / 32) % 4;
  if ((taddr >> 16) != 32 * quarter) tmem_fault("tcgen05.ld/st outside the warp's quarter of TMEM lanes");
  for (unsigned c = 0; c < n; ++c) {
    uint32_t& cell = tmem_cell(taddr, lane, c);
    if (load) std::memcpy(static_cast<unsigned char*>(r) + 4 * c, &cell, 4);
    else std::memcpy(&cell, static_cast<const unsigned char*>(r) + 4 * c, 4);
  }
}

/// tcgen05.ld / st .16x256b.x`n` (`bits` 256) or .16x128b.x`n` (128): the
/// warp moves TMEM lanes (taddr >> 16) .. + 15, lane 0 or 16 of its
/// quarter. Thread l (g = l / 4, t = l % 4) holds, of each block k of
/// `bits` bits a lane, 16x256b: registers 4k + j at row g + 8 (j / 2),
/// column 8k + 2t + j % 2; 16x128b: registers 2k + j at row g + 8j,
/// column 4k + t (PTX ISA, "Matrix fragments for shape .16x256b",
/// ".16x128b").
inline void tmem_move16(unsigned bits, unsigned n, void* r, unsigned taddr, bool load) {
  warp_rendezvous();
  unsigned lane = current->idx.x % 32, quarter = (current->idx.x / 32) % 4;
  if ((taddr >> 16) != 32 * quarter && (taddr >> 16) != 32 * quarter + 16)
    tmem_fault("a 16-lane tcgen05.ld/st from other than lane 0 or 16 of the warp's quarter of TMEM lanes");
  unsigned g = lane / 4, t = lane % 4, per = bits == 256 ? 4 : 2;
  for (unsigned k = 0; k < n; ++k)
    for (unsigned j = 0; j < per; ++j) {
      unsigned row = bits == 256 ? g + 8 * (j / 2) : g + 8 * j;
      unsigned column = bits == 256 ? 8 * k + 2 * t + j % 2 : 4 * k + t;
      uint32_t& cell = tmem_cell(taddr, row, column);
      unsigned char* reg = static_cast<unsigned char*>(r) + 4 * (per * k + j);
      if (load) std::memcpy(reg, &cell, 4);
      else std::memcpy(&cell, reg, 4);
    }
}

// Section - Hopper's warpgroup MMA.

/// Element (r, k) of a wgmma operand as its descriptor places it (bits
/// 62-63: 1 = 128B, 2 = 64B, 3 = 32B swizzling).
inline float wgmma_operand(unsigned long long desc, unsigned r, unsigned k, Elem e, unsigned trans) {
  size_t start = size_t(desc & 0x3fff) << 4, sbo = size_t((desc >> 32) & 0x3fff) << 4,
         lbo = size_t((desc >> 16) & 0x3fff) << 4;
  unsigned mode = unsigned(desc >> 62);
  uint32_t span = mode == 1 ? 128 : mode == 2 ? 64 : 32;
  if (trans && elem_bytes(e) != 2) tmem_fault("a wgmma transpose immediate on an operand other than 16-bit");
  return trans ? mma_operand_mn(start, sbo, lbo, span, r, k, e) : mma_operand(start, sbo, span, r, k, e);
}

/// wgmma.mma_async m64nNk16 (f32 += 16-bit) or m64nNk32 (f32 += 8-bit
/// floats, or with an int accumulator s32 += s8/u8, wrapping): 32 bytes of
/// each operand row per instruction; each thread its
/// own values of the warpgroup's D (warp w % 4 holds rows 16 (w % 4) ..
/// + 15; value i at row g + 8 ((i / 2) % 2), column 8 (i / 4) + 2t + i % 2).
template <typename Acc>
inline void wgmma(unsigned n, const char* type, Acc* d, unsigned long long da, unsigned long long db, unsigned scale_d,
                  unsigned trans_a, unsigned trans_b) {
  Elem e = elem_of(type);
  unsigned steps = 32 / elem_bytes(e);
  unsigned lane = current->idx.x % 32, w4 = (current->idx.x / 32) % 4, g = lane / 4, t = lane % 4;
  for (unsigned i = 0; i < n / 2; ++i) {
    unsigned row = 16 * w4 + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * t + i % 2;
    d[i] = accumulate(scale_d ? d[i] : Acc(0), steps,
                      [&](unsigned k) { return wgmma_operand(da, row, k, e, trans_a) * wgmma_operand(db, col, k, e, trans_b); });
  }
}

/// The same with A in registers (the register form): the four .b32
/// registers `a` of each thread are the mma.sync A layout of its warp's 16
/// rows (PTX ISA, wgmma "Register Fragments": for 16-bit types a0a1 row g,
/// columns 2t; a2a3 row g + 8; a4a5 row g, columns 2t + 8; a6a7 row g + 8,
/// columns 2t + 8; for 8-bit types (k32) a0..a3 row g, columns 4t ..
/// 4t + 3; a4..a7 row g + 8; a8..a11 row g, columns 16 + 4t ..; a12..a15
/// row g + 8, columns 16 + 4t ..), four values to a register, low bits
/// first.
template <typename Acc>
inline void wgmma_rs(unsigned n, const char* type, Acc* d, const unsigned* a, unsigned long long db, unsigned scale_d,
                     unsigned trans_b) {
  Elem e = elem_of(type);
  unsigned steps = 32 / elem_bytes(e);
  unsigned held[4];
  std::memcpy(held, a, sizeof held);
  unsigned all[32][4];
  gather(held, sizeof held, all);
  unsigned lane = current->idx.x % 32, g = lane / 4, t = lane % 4;
  auto a_at = [&](unsigned row, unsigned k) {  // row of the warp's 16
    unsigned per = 4 / elem_bytes(e), span = 4 * per;  // values a register, columns a register column covers
    unsigned bits = all[4 * (row % 8) + (k % span) / per][(row / 8) + 2 * (k / span)] >> (8 * elem_bytes(e) * (k % per) % 32);
    unsigned char bytes[4] = {uint8_t(bits), uint8_t(bits >> 8), uint8_t(bits >> 16), uint8_t(bits >> 24)};
    return elem_value(bytes, e);
  };
  for (unsigned i = 0; i < n / 2; ++i) {
    unsigned local = g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * t + i % 2;
    d[i] = accumulate(scale_d ? d[i] : Acc(0), steps, [&](unsigned k) { return a_at(local, k) * wgmma_operand(db, col, k, e, trans_b); });
  }
}

inline void trampoline() {
  block->entry(block->args);
  current->done = true;
  --block->live;
  // A barrier the others wait at may now be complete without this thread.
  if (block->live > 0 && block->arrived == block->live) {
    block->arrived = 0;
    ++block->generation;
  }
  Cluster& c = *block->cluster;
  if (c.arrived > 0 && c.arrived == c.live()) {
    c.arrived = 0;
    ++c.generation;
  }
}

/// Runs `entry(args)` over the grid, cluster after cluster (`cluster` CTAs
/// per dim; 1, 1, 1 without one); `smem` bytes of dynamic shared memory per
/// block, filled with 0xff (NaN) at its start.
void run(void (*entry)(void**), void** args, const unsigned grid[3], const unsigned cluster[3], unsigned threads,
         unsigned char* smem, size_t smem_bytes);

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
inline void __syncwarp(unsigned = 0xffffffffu) { cake_host::warp_rendezvous(); }
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
#define CAKE_ELECT_SYNC(out) ((out) = cake_host::elect_sync())
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
#define CAKE_CLUSTER_RANK(out) ((out) = cake_host::block->rank)
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
