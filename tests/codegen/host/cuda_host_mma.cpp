// The host runtime's tensor cores (cuda_host.h), done at issue: mma.sync,
// wgmma and tcgen05.mma computing what the PTX ISA says from the operands'
// values, and tensor memory (tcgen05.alloc, ld, st, cp).
#include "cuda_host_state.h"

#include <array>
#include <type_traits>

namespace cake_host {

// Section - Operand values and mma.sync.

namespace {

/// An MMA operand's element type, as PTX names it: 16-bit floats, the
/// 8-bit floats of OCP FP8 (e4m3: bias 7, only S.1111.111 is NaN; e5m2:
/// bias 15, IEEE specials), 8-bit integers, or the OCP MX 6- and 4-bit
/// floats (e3m2: bias 3, e2m3 and e2m1: bias 1; no infinities or NaNs),
/// which shared memory holds sixteen to a 16-byte chunk (below).
enum class Elem { F16, BF16, E4M3, E5M2, S8, U8, TF32, E3M2, E2M3, E2M1 };

/// Bits of a 6- or 4-bit float, 0 for the others.
unsigned sub_byte_bits(Elem e) { return e == Elem::E2M1 ? 4 : e == Elem::E3M2 || e == Elem::E2M3 ? 6 : 0; }

/// The value of a sign-exponent-mantissa code without specials.
float small_float(uint32_t code, int exponent_bits, int mantissa_bits) {
  int bias = (1 << (exponent_bits - 1)) - 1;
  uint32_t exponent = (code >> mantissa_bits) & ((1u << exponent_bits) - 1), fraction = code & ((1u << mantissa_bits) - 1);
  float magnitude = exponent == 0 ? float(fraction) * pow2(1 - bias - mantissa_bits)
                                  : float(fraction | (1u << mantissa_bits)) * pow2(int(exponent) - bias - mantissa_bits);
  return (code >> (exponent_bits + mantissa_bits)) & 1 ? -magnitude : magnitude;
}

/// Value j (< 16) of the 16-byte chunk at `chunk` holding 6- or 4-bit
/// floats: the PTX ISA's packing of kind::f8f6f4 operands in shared memory
/// (and what TMA's 16U6/16U4_ALIGN16B types write): the sixteen values
/// packed from bit 0 of the chunk, value j at bits j x width, then padding.
float sub_byte_value(const unsigned char* chunk, unsigned j, Elem e) {
  unsigned bits = sub_byte_bits(e);
  uint32_t code = bits_at(chunk, j * bits, bits);
  return e == Elem::E2M1 ? small_float(code, 2, 1) : e == Elem::E3M2 ? small_float(code, 3, 2) : small_float(code, 2, 3);
}

Elem elem_of(const char* type) {
  if (std::strcmp(type, "bf16") == 0) return Elem::BF16;
  if (std::strcmp(type, "e4m3") == 0) return Elem::E4M3;
  if (std::strcmp(type, "e5m2") == 0) return Elem::E5M2;
  if (std::strcmp(type, "s8") == 0) return Elem::S8;
  if (std::strcmp(type, "u8") == 0) return Elem::U8;
  if (std::strcmp(type, "tf32") == 0) return Elem::TF32;
  return Elem::F16;
}

/// Bytes an element takes in shared memory (a 6- or 4-bit float: one).
unsigned elem_bytes(Elem e) { return e == Elem::TF32 ? 4 : e == Elem::F16 || e == Elem::BF16 ? 2 : 1; }

/// A tf32 operand as the tensor cores read it: an f32 whose low 13
/// mantissa bits are ignored.
float tf32_bits_to_float(uint32_t bits) {
  bits &= 0xffffe000u;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// The values of the 256 e4m3 codes ([0]) and e5m2 codes ([1]), decoded
/// once: an MMA decodes each operand value it reads.
const std::array<std::array<float, 256>, 2>& fp8_values() {
  static const std::array<std::array<float, 256>, 2> values = [] {
    std::array<std::array<float, 256>, 2> v;
    for (unsigned b = 0; b < 256; ++b)
      for (unsigned e5m2 = 0; e5m2 < 2; ++e5m2) v[e5m2][b] = fp8_bits_to_float(uint8_t(b), e5m2 != 0);
    return v;
  }();
  return values;
}

/// The value of an element of type `e` at `p`.
float elem_value(const unsigned char* p, Elem e) {
  if (e == Elem::S8) return float(int8_t(*p));
  if (e == Elem::U8) return float(*p);
  if (e == Elem::TF32) return tf32_bits_to_float(load_bits<uint32_t>(p));
  if (elem_bytes(e) == 1) return fp8_values()[e == Elem::E5M2][*p];
  return half_bits_to_float(load_bits<uint16_t>(p), e == Elem::BF16);
}

/// `start` plus the sum over k < steps of product(k): in f32, or for an s32
/// accumulator exactly (8-bit integer products are exact in a float) and
/// then wrapped to 32 bits, as the hardware's integer MMAs (no .satfinite).
template <typename Acc, typename Product>
Acc accumulate(Acc start, unsigned steps, Product product) {
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
void mma_m16n8(unsigned per, Acc* d, const unsigned* a, unsigned b0, unsigned b1, Value value) {
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

}  // namespace

/// m16n8k16 over 16-bit operands of `type` (bf16, f16).
void mma_m16n8k16(const char* type, float* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool bf16 = std::strcmp(type, "bf16") == 0;
  mma_m16n8(2, d, a, b0, b1, [&](unsigned word, unsigned j, int) {
    return half_bits_to_float(uint16_t(word >> (16 * j)), bf16);
  });
}

/// m16n8k32 over 8-bit floats, A of type `ta` and B of `tb` (e4m3, e5m2).
void mma_m16n8k32(const char* ta, const char* tb, float* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool e5m2[2] = {elem_of(ta) == Elem::E5M2, elem_of(tb) == Elem::E5M2};
  mma_m16n8(4, d, a, b0, b1, [&](unsigned word, unsigned j, int side) {
    return fp8_bits_to_float(uint8_t(word >> (8 * j)), e5m2[side]);
  });
}

/// m16n8k8 over tf32 operands (one value a register).
void mma_m16n8k8_tf32(float* d, const unsigned* a, unsigned b0, unsigned b1) {
  mma_m16n8(1, d, a, b0, b1, [&](unsigned word, unsigned, int) { return tf32_bits_to_float(word); });
}

/// m16n8k32 over 8-bit integers into s32, A of type `ta` and B of `tb`
/// (s8, u8).
void mma_m16n8k32_s32(const char* ta, const char* tb, int* d, const unsigned* a, unsigned b0, unsigned b1) {
  bool is_signed[2] = {std::strcmp(ta, "s8") == 0, std::strcmp(tb, "s8") == 0};
  mma_m16n8(4, d, a, b0, b1, [&](unsigned word, unsigned j, int side) {
    uint8_t b = uint8_t(word >> (8 * j));
    return is_signed[side] ? float(int8_t(b)) : float(b);
  });
}

// Section - Tensor memory and tcgen05.mma.

namespace {

/// The cell at TMEM address `taddr` plus `lane` lanes and `column` columns,
/// inside an allocation.
uint32_t& tmem_cell(unsigned taddr, unsigned lane, unsigned column, Block* in = nullptr) {
  Tmem& t = (in ? in : block)->tmem;
  unsigned l = (taddr >> 16) + lane, c = (taddr & 0xffff) + column;
  bool inside = false;
  for (const auto& [at, n] : t.allocated) inside = inside || (c >= at && c < at + n);
  if (l >= Tmem::kLanes || !inside) fault("a tensor-memory access outside every allocation");
  return t.cells[l * Tmem::kColumns + c];
}

/// Element (r, k) of a K-major swizzled shared-memory MMA operand: row r at
/// r x span bytes (8-row groups `sbo` apart), then the swizzle of the
/// absolute offset (swizzle_offset()), in the shared memory at `base` (the
/// running block's by default).
float mma_operand(size_t start, size_t sbo, uint32_t span, unsigned r, unsigned k, Elem e,
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
float mma_operand_mn(size_t start, size_t sbo, size_t lbo, uint32_t span, unsigned r, unsigned k, Elem e,
                            const unsigned char* base = nullptr) {
  if (sub_byte_bits(e)) fault("an MN-major operand of 6- or 4-bit floats");
  size_t along = size_t(elem_bytes(e)) * r;
  size_t o = swizzle_offset(start + (k / 8) * sbo + (k % 8) * span + (along / span) * lbo + along % span, span);
  return elem_value((base ? base : cake_smem_base()) + o, e);
}

/// The span a tcgen05 shared-memory descriptor's layout (bits 61-63) names;
/// the descriptor's fixed version (bits 46-48) must be 1.
uint32_t umma_span(unsigned long long desc) {
  if (((desc >> 46) & 7) != 1) fault("a tcgen05 shared-memory descriptor without version 1 in bits 46-48");
  switch (unsigned(desc >> 61)) {
    case 2: return 128;
    case 4: return 64;
    case 6: return 32;
  }
  fault("a tcgen05 shared-memory descriptor with a layout other than 128B, 64B or 32B swizzling");
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

UmmaShape umma_shape(const char* kind, unsigned idesc, unsigned m) {
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
  if (f8 && (atype == 2 || btype == 2)) fault("a kind::f8f6f4 instruction descriptor naming type 2");
  if (row < 0 || dtype != (i8 ? 2u : 1u) || atype < low || atype > high || btype < low || btype > high ||
      (f16 && atype != btype) || ((idesc >> 13) & 3) != 0 || (idesc & 15) != 0 || (((idesc >> 24) & 31) << 4) != m ||
      ((idesc >> 23) & 1) != 0 || (idesc >> 29) != 0)
    fault(m == 256 ? "a pair's tcgen05.mma instruction descriptor other than dense f32 += f16/bf16/tf32/e4m3/e5m2 or s32 += s8/u8, no negation, M = 256"
                        : "a tcgen05.mma instruction descriptor other than dense f32 += f16/bf16/tf32/e4m3/e5m2 or s32 += s8/u8, no negation, M = 64 or 128");
  auto elem = [&](unsigned code) { return tf32 ? Elem::TF32 : table[row][code]; };
  return {((idesc >> 17) & 63) << 3, elem(atype), elem(btype), i8, ((idesc >> 15) & 1) != 0, ((idesc >> 16) & 1) != 0};
}

/// One instruction's k-step of an MMA into 32-bit TMEM cells: cell(i, j)
/// (+)= sum over k < 32 bytes' worth of a(i, k) * b(j, k), for i < m, j < n;
/// in f32, or (`integer`) in s32, wrapping as the hardware's does.
template <typename A, typename B, typename Cell>
void mma_step(unsigned m, unsigned n, unsigned k, bool integer, unsigned add, A a, B b, Cell cell) {
  std::vector<float> av(size_t(m) * k), bv(size_t(n) * k);  // each operand value decoded once
  for (unsigned x = 0; x < k; ++x) {
    for (unsigned i = 0; i < m; ++i) av[size_t(i) * k + x] = a(i, x);
    for (unsigned j = 0; j < n; ++j) bv[size_t(j) * k + x] = b(j, x);
  }
  for (unsigned i = 0; i < m; ++i)
    for (unsigned j = 0; j < n; ++j) {
      uint32_t& c = cell(i, j);
      auto product = [&](unsigned x) { return av[size_t(i) * k + x] * bv[size_t(j) * k + x]; };
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
unsigned umma_k(Elem e) { return 32 / elem_bytes(e); }

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
float tmem_operand(unsigned a, unsigned row, unsigned k, Elem e, Block* in = nullptr) {
  if (sub_byte_bits(e)) fault("a 6- or 4-bit A in tensor memory");
  unsigned per = 4 / elem_bytes(e);
  uint32_t word = tmem_cell(a, row, k / per, in) >> (8 * elem_bytes(e) * (k % per) % 32);
  unsigned char bytes[4] = {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16), uint8_t(word >> 24)};
  return elem_value(bytes, e);
}

/// tcgen05.mma.cta_group::2 by one thread of the even block of a pair:
/// M = 256, A's rows 0-127 and D's (lane i) in this block, 128-255 in its
/// pair's (lane i - 128); B's rows 0 .. N/2 - 1 in this block, the rest in
/// its pair's; each descriptor (and A's TMEM address) at the same offsets
/// in both. `a(r, k, holder, elem)` is A's element (r, k) of the block
/// `holder`'s 128 rows.
template <typename AOperand>
void mma_pair(const char* kind, unsigned d, unsigned long long db, unsigned idesc, unsigned accumulate, AOperand a) {
  UmmaShape u = umma_shape(kind, idesc, 256);
  Block* pair = nullptr;
  for (Block& b : block->cluster->blocks)
    if (b.rank == (block->rank ^ 1u)) pair = &b;
  if (block->rank % 2 != 0 || !pair) fault("a pair's tcgen05.mma outside the even block of a pair");
  Block* self = block;
  auto holder = [&](unsigned r, unsigned half) { return r < half ? self : pair; };
  UmmaOperand b(db, u.b, u.b_mn);
  unsigned n = u.n;
  mma_step(
      256, n, umma_k(u.a), u.integer, accumulate, [&](unsigned i, unsigned k) { return a(i % 128, k, holder(i, 128), u.a); },
      [&](unsigned j, unsigned k) { return b.at(j % (n / 2), k, holder(j, n / 2)); },
      [&](unsigned i, unsigned j) -> uint32_t& { return tmem_cell(d, i % 128, j, holder(i, 128)); });
}

}  // namespace

/// tcgen05.alloc by the whole warp: the lowest free run of `columns` (a
/// power of two, 32 .. 512), its address (lane 0, first column) written
/// to shared `slot` once.
void tmem_alloc(void* slot, unsigned columns) {
  uint32_t all[32], mine = columns;
  gather(&mine, 4, all);  // .sync.aligned: the warp's lanes together
  if (current->idx.x % 32 != 0) return;
  Tmem& t = block->tmem;
  if (t.relinquished) fault("tcgen05.alloc after relinquish_alloc_permit");
  if (columns < 32 || columns > Tmem::kColumns || (columns & (columns - 1)) != 0)
    fault("tcgen05.alloc of a column count that is not a power of two in 32 .. 512");
  for (unsigned first = 0; first + columns <= Tmem::kColumns; first += columns) {
    bool free = true;
    for (const auto& [at, n] : t.allocated) free = free && (first + columns <= at || at + n <= first);
    if (!free) continue;
    t.allocated[first] = columns;
    std::memcpy(slot, &first, 4);
    return;
  }
  fault("tcgen05.alloc found no free columns (it would wait forever)");
}

void tmem_relinquish() {
  uint32_t all[32], mine = 0;
  gather(&mine, 4, all);
  block->tmem.relinquished = true;
}

void tmem_dealloc(unsigned taddr, unsigned columns) {
  uint32_t all[32], mine = columns;
  gather(&mine, 4, all);
  if (current->idx.x % 32 != 0) return;
  auto it = block->tmem.allocated.find(taddr & 0xffff);
  if ((taddr >> 16) != 0 || it == block->tmem.allocated.end() || it->second != columns)
    fault("tcgen05.dealloc of something tcgen05.alloc did not allocate");
  block->tmem.allocated.erase(it);
}

/// tcgen05.mma.cta_group::1 by one thread: D = A @ B^T (+ D when
/// `accumulate`), shapes and types from the instruction descriptor and
/// `kind`, both operands in shared memory. M = 128: D row i in lane i
/// (the PTX ISA's data-path layout D); M = 64: row i in lane 32 (i / 16) +
/// i % 16 (layout F: the first 16 lanes of each quarter).
void tcgen05_mma(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                        unsigned accumulate) {
  unsigned m = ((idesc >> 24) & 31) << 4;
  UmmaShape u = umma_shape(kind, idesc, m == 64 ? 64 : 128);
  if (m == 64 && (d >> 16) != 0) fault("an M = 64 tcgen05.mma whose accumulator address is not lane 0");
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
void tcgen05_cp_128x256b(unsigned taddr, unsigned long long desc) {
  if ((taddr >> 16) != 0) fault("a tcgen05.cp .128x256b whose address is not lane 0");
  size_t start = size_t(desc & 0x3fff) << 4, sbo = size_t((desc >> 32) & 0x3fff) << 4;
  uint32_t span = umma_span(desc);
  for (unsigned r = 0; r < 128; ++r)
    for (unsigned w = 0; w < 8; ++w) {
      size_t o = swizzle_offset(start + (r / 8) * sbo + (r % 8) * span + 4 * w, span);
      std::memcpy(&tmem_cell(taddr, r, w), cake_smem_base() + o, 4);
    }
}

/// A pair's MMA with A in shared memory (descriptor `da`).
void tcgen05_mma_pair(const char* kind, unsigned d, unsigned long long da, unsigned long long db, unsigned idesc,
                             unsigned accumulate) {
  mma_pair(kind, d, db, idesc, accumulate,
           [&](unsigned r, unsigned k, Block* holder, Elem e) { return UmmaOperand(da, e, (idesc >> 15) & 1).at(r, k, holder); });
}

/// tcgen05.mma.cta_group::1 with A in tensor memory: A's row i is TMEM
/// lane i (M = 64: where D's row i is), its element k packed in the
/// columns from `a` (tmem_operand()); B and D as in tcgen05_mma().
void tcgen05_mma_ts(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                           unsigned accumulate) {
  unsigned m = ((idesc >> 24) & 31) << 4;
  UmmaShape u = umma_shape(kind, idesc, m == 64 ? 64 : 128);
  if (u.a_mn) fault("a tcgen05.mma with A in tensor memory and the transpose-A bit set");
  if (m == 64 && ((d >> 16) != 0 || (a >> 16) != 0))
    fault("an M = 64 tcgen05.mma whose accumulator or A address is not lane 0");
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
void tcgen05_mma_ts_pair(const char* kind, unsigned d, unsigned a, unsigned long long db, unsigned idesc,
                                unsigned accumulate) {
  if ((idesc >> 15) & 1) fault("a tcgen05.mma with A in tensor memory and the transpose-A bit set");
  mma_pair(kind, d, db, idesc, accumulate,
           [&](unsigned r, unsigned k, Block* holder, Elem e) { return tmem_operand(a, r, k, e, holder); });
}

/// tcgen05.ld / st .32x32b.x`n`: lane l of the warp moves `n` columns of
/// TMEM lane (taddr >> 16) + l; a warp may touch only its quarter of lanes.
void tmem_move(unsigned n, void* r, unsigned taddr, bool load) {
  warp_rendezvous();
  unsigned lane = current->idx.x % 32, quarter = (current->idx.x / 32) % 4;
  if ((taddr >> 16) != 32 * quarter) fault("tcgen05.ld/st outside the warp's quarter of TMEM lanes");
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
void tmem_move16(unsigned bits, unsigned n, void* r, unsigned taddr, bool load) {
  warp_rendezvous();
  unsigned lane = current->idx.x % 32, quarter = (current->idx.x / 32) % 4;
  if ((taddr >> 16) != 32 * quarter && (taddr >> 16) != 32 * quarter + 16)
    fault("a 16-lane tcgen05.ld/st from other than lane 0 or 16 of the warp's quarter of TMEM lanes");
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

namespace {

/// Element (r, k) of a wgmma operand as its descriptor places it (bits
/// 62-63: 1 = 128B, 2 = 64B, 3 = 32B swizzling).
float wgmma_operand(unsigned long long desc, unsigned r, unsigned k, Elem e, unsigned trans) {
  size_t start = size_t(desc & 0x3fff) << 4, sbo = size_t((desc >> 32) & 0x3fff) << 4,
         lbo = size_t((desc >> 16) & 0x3fff) << 4;
  unsigned mode = unsigned(desc >> 62);
  uint32_t span = mode == 1 ? 128 : mode == 2 ? 64 : 32;
  if (trans && elem_bytes(e) != 2) fault("a wgmma transpose immediate on an operand other than 16-bit");
  return trans ? mma_operand_mn(start, sbo, lbo, span, r, k, e) : mma_operand(start, sbo, span, r, k, e);
}

/// The columns of B a thread's values of D read (value i: column
/// 8 (i / 4) + 2t + i % 2, n / 4 of them), each value decoded once.
struct WgmmaColumns {
  float values[64][32];
  WgmmaColumns(unsigned n, unsigned long long db, Elem e, unsigned trans, unsigned t) {
    if (n > 256) fault("a wgmma with N over 256");
    for (unsigned c = 0; c < n / 4; ++c)
      for (unsigned k = 0; k < 32 / elem_bytes(e); ++k) values[c][k] = wgmma_operand(db, 8 * (c / 2) + 2 * t + c % 2, k, e, trans);
  }
  float at(unsigned i, unsigned k) const { return values[2 * (i / 4) + i % 2][k]; }
};

/// wgmma.mma_async m64nNk16 (f32 += 16-bit) or m64nNk32 (f32 += 8-bit
/// floats, or with an int accumulator s32 += s8/u8, wrapping): 32 bytes of
/// each operand row per instruction; each thread its
/// own values of the warpgroup's D (warp w % 4 holds rows 16 (w % 4) ..
/// + 15; value i at row g + 8 ((i / 2) % 2), column 8 (i / 4) + 2t + i % 2).
template <typename Acc>
void wgmma_at(unsigned n, const char* type, Acc* d, unsigned long long da, unsigned long long db, unsigned scale_d,
              unsigned trans_a, unsigned trans_b) {
  Elem e = elem_of(type);
  unsigned steps = 32 / elem_bytes(e);
  unsigned lane = current->idx.x % 32, w4 = (current->idx.x / 32) % 4, g = lane / 4, t = lane % 4;
  WgmmaColumns b(n, db, e, trans_b, t);
  float a[2][32];  // this thread's rows g and g + 8 of its warp's 16
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned k = 0; k < steps; ++k) a[h][k] = wgmma_operand(da, 16 * w4 + g + 8 * h, k, e, trans_a);
  for (unsigned i = 0; i < n / 2; ++i)
    d[i] = accumulate(scale_d ? d[i] : Acc(0), steps, [&](unsigned k) { return a[(i / 2) % 2][k] * b.at(i, k); });
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
void wgmma_rs_at(unsigned n, const char* type, Acc* d, const unsigned* a, unsigned long long db, unsigned scale_d,
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
  WgmmaColumns b(n, db, e, trans_b, t);
  float rows[2][32];  // this thread's rows g and g + 8
  for (unsigned h = 0; h < 2; ++h)
    for (unsigned k = 0; k < steps; ++k) rows[h][k] = a_at(g + 8 * h, k);
  for (unsigned i = 0; i < n / 2; ++i)
    d[i] = accumulate(scale_d ? d[i] : Acc(0), steps, [&](unsigned k) { return rows[(i / 2) % 2][k] * b.at(i, k); });
}

}  // namespace

void wgmma(unsigned n, const char* type, float* d, unsigned long long da, unsigned long long db, unsigned scale_d,
           unsigned trans_a, unsigned trans_b) {
  wgmma_at(n, type, d, da, db, scale_d, trans_a, trans_b);
}
void wgmma(unsigned n, const char* type, int* d, unsigned long long da, unsigned long long db, unsigned scale_d,
           unsigned trans_a, unsigned trans_b) {
  wgmma_at(n, type, d, da, db, scale_d, trans_a, trans_b);
}
void wgmma_rs(unsigned n, const char* type, float* d, const unsigned* a, unsigned long long db, unsigned scale_d,
              unsigned trans_b) {
  wgmma_rs_at(n, type, d, a, db, scale_d, trans_b);
}
void wgmma_rs(unsigned n, const char* type, int* d, const unsigned* a, unsigned long long db, unsigned scale_d,
              unsigned trans_b) {
  wgmma_rs_at(n, type, d, a, db, scale_d, trans_b);
}

}  // namespace cake_host
