// Element values of the CPU executor (numeric.h): rounding a double into each
// dtype's value set, the seeded random inputs and the dtype-aware comparison.
// Every binary float format below f64 is rounded by one function over a table
// of format parameters (OCP MX and PTX definitions), so a new format is a row.
#include "cake/exec/numeric.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace cake::exec {

ValueKind value_kind(DType dtype) {
  switch (dtype) {
    case DType::F64: case DType::F32: case DType::TF32: case DType::F16: case DType::BF16:
    case DType::F8E4M3: case DType::F8E5M2: case DType::F6E3M2: case DType::F6E2M3:
    case DType::F4E2M1: case DType::Unknown:
      return ValueKind::Float;
    case DType::I64: case DType::I32: case DType::I16: case DType::I8: return ValueKind::Signed;
    case DType::U64: case DType::U32: case DType::U16: case DType::U8: case DType::B32: return ValueKind::Unsigned;
    case DType::Pred: return ValueKind::Pred;
  }
  return ValueKind::Float;
}

namespace {

// Section - Float formats

/// What a format's all-ones exponent field means.
enum class Specials : uint8_t {
  Ieee,     // infinities and NaNs (f32, tf32, f16, bf16, f8e5m2)
  NanOnly,  // only S.1111.111 is NaN, the rest are finite (f8e4m3)
  None,     // every code is finite (f6e3m2, f6e2m3, f4e2m1)
};

struct FloatFormat {
  int exp_bits, man_bits, bias;
  Specials specials;
  bool saturates;  // overflow and infinity become ±max (.satfinite), else ±inf
  double max;      // the largest finite value
};

constexpr double pow2(int e) {
  double p = 1;
  for (; e > 0; --e) p *= 2;
  for (; e < 0; ++e) p /= 2;
  return p;
}

/// The largest finite value that the encoding allows: checks the table's
/// `max` column, which is copied from the format definitions.
constexpr double encoded_max(const FloatFormat& f) {
  int top_exp = (1 << f.exp_bits) - 1 - f.bias;  // unbiased exponent of the all-ones field
  switch (f.specials) {
    case Specials::Ieee: return (2 - pow2(-f.man_bits)) * pow2(top_exp - 1);
    case Specials::NanOnly: return (2 - pow2(1 - f.man_bits)) * pow2(top_exp);
    case Specials::None: return (2 - pow2(-f.man_bits)) * pow2(top_exp);
  }
  return 0;
}

constexpr FloatFormat kF32{8, 23, 127, Specials::Ieee, false, 3.4028234663852886e38};
constexpr FloatFormat kTF32{8, 10, 127, Specials::Ieee, false, 3.4011621342146535e38};
constexpr FloatFormat kF16{5, 10, 15, Specials::Ieee, false, 65504};
constexpr FloatFormat kBF16{8, 7, 127, Specials::Ieee, false, 3.3895313892515355e38};
constexpr FloatFormat kF8E4M3{4, 3, 7, Specials::NanOnly, true, 448};
constexpr FloatFormat kF8E5M2{5, 2, 15, Specials::Ieee, true, 57344};
constexpr FloatFormat kF6E3M2{3, 2, 3, Specials::None, true, 28};
constexpr FloatFormat kF6E2M3{2, 3, 1, Specials::None, true, 7.5};
constexpr FloatFormat kF4E2M1{2, 1, 1, Specials::None, true, 6};

// Every row's max agrees with its encoding.
constexpr std::array kFormats = {kF32, kTF32, kF16, kBF16, kF8E4M3, kF8E5M2, kF6E3M2, kF6E2M3, kF4E2M1};
static_assert([] {
  for (const FloatFormat& f : kFormats)
    if (f.max != encoded_max(f)) return false;
  return true;
}());

/// `x` (exact, |x| < 2^53) rounded to an integer, ties to even; written out
/// rather than std::nearbyint so that no floating-point environment matters.
double round_half_even(double x) {
  double down = std::floor(x), frac = x - down;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(down, 2) != 0)) return down + 1;
  return down;
}

double round_float(const FloatFormat& f, double v) {
  if (std::isnan(v)) {
    // Formats without NaN take +max, as cuda_fp6.h / cuda_fp4.h convert NaN.
    return f.specials == Specials::None ? f.max : v;
  }
  if (std::isinf(v)) return f.saturates ? std::copysign(f.max, v) : v;
  if (v == 0) return v;  // keeps the sign of zero
  int e;
  std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
  // The quantum of |v|'s binade; below the normal range it stays the
  // subnormal quantum, which makes subnormals exact.
  int quantum = std::max(e - 1, 1 - f.bias) - f.man_bits;
  double r = std::ldexp(round_half_even(std::ldexp(std::fabs(v), -quantum)), quantum);
  if (r > f.max) r = f.saturates ? f.max : std::numeric_limits<double>::infinity();
  return std::copysign(r, v);
}

/// The format's code of `v`, a value of its set (round_float's result).
uint32_t encode_float(const FloatFormat& f, double v) {
  uint32_t sign = std::signbit(v) ? 1u << (f.exp_bits + f.man_bits) : 0;
  uint32_t all_exp = (1u << f.exp_bits) - 1, all_man = (1u << f.man_bits) - 1;
  if (std::isnan(v)) return sign | (all_exp << f.man_bits) | all_man;  // f8e4m3's only NaN; a quiet NaN elsewhere
  if (std::isinf(v)) return sign | (all_exp << f.man_bits);
  double a = std::fabs(v);
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1): the binade 2^(e - 1)
  int field = e - 1 + f.bias;
  if (field < 1)  // subnormal: a multiple of the smallest subnormal
    return sign | static_cast<uint32_t>(std::ldexp(a, f.bias - 1 + f.man_bits));
  uint32_t man = static_cast<uint32_t>(std::ldexp(a, f.man_bits - (e - 1))) & all_man;
  return sign | (static_cast<uint32_t>(field) << f.man_bits) | man;
}

double decode_float(const FloatFormat& f, uint32_t bits) {
  uint32_t all_exp = (1u << f.exp_bits) - 1, all_man = (1u << f.man_bits) - 1;
  uint32_t man = bits & all_man, field = (bits >> f.man_bits) & all_exp;
  double sign = (bits >> (f.exp_bits + f.man_bits)) & 1 ? -1 : 1;
  if (field == all_exp && f.specials == Specials::Ieee)
    return man ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (field == all_exp && man == all_man && f.specials == Specials::NanOnly) return std::numeric_limits<double>::quiet_NaN();
  if (field == 0) return sign * std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  return sign * std::ldexp(static_cast<double>(man | (all_man + 1)), static_cast<int>(field) - f.bias - f.man_bits);
}

/// The table row of a float dtype below f64.
const FloatFormat* format_of(DType dtype) {
  switch (dtype) {
    case DType::F32: return &kF32;
    case DType::TF32: return &kF32;  // held as an f32 whose low 13 mantissa bits are zero
    case DType::F16: return &kF16;
    case DType::BF16: return &kBF16;
    case DType::F8E4M3: return &kF8E4M3;
    case DType::F8E5M2: return &kF8E5M2;
    case DType::F6E3M2: return &kF6E3M2;
    case DType::F6E2M3: return &kF6E2M3;
    case DType::F4E2M1: return &kF4E2M1;
    case DType::F64: case DType::I64: case DType::I32: case DType::I16: case DType::I8: case DType::U64:
    case DType::U32: case DType::U16: case DType::U8: case DType::B32: case DType::Pred: case DType::Unknown:
      return nullptr;
  }
  return nullptr;
}

// Section - Integers

/// `v` truncated toward zero into T: wraps modulo 2^bits while the truncated
/// value fits a 64-bit integer (as integer results and C's conversions do),
/// saturates beyond it; NaN is 0, as cvt.rzi.sat gives.
template <typename T>
double round_integer(double v) {
  if (std::isnan(v)) return 0;
  double t = std::trunc(v);
  constexpr double kTwo63 = 9223372036854775808.0, kTwo64 = 2 * kTwo63;
  if (t >= -kTwo63 && t < kTwo63) return static_cast<double>(static_cast<T>(static_cast<int64_t>(t)));
  if (t >= kTwo63 && t < kTwo64) return static_cast<double>(static_cast<T>(static_cast<uint64_t>(t)));
  return t < 0 ? static_cast<double>(std::numeric_limits<T>::min()) : static_cast<double>(std::numeric_limits<T>::max());
}

// Section - Random values

/// splitmix64 (Steele, Lea and Flood, 2014): a fixed, portable generator
/// whose stream depends only on the seed.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return std::ldexp(static_cast<double>(next() >> 11), -53); }

 private:
  uint64_t state_;
};


/// A float uniform in [-1, 1) rounded into `dtype`; a draw that rounds up to
/// 1 is drawn again, so the rounded values stay in [-1, 1) too.
double random_float(DType dtype, SplitMix64& rng) {
  for (;;) {
    double r = round_to(dtype, 2 * rng.unit() - 1);
    if (r < 1) return r;
  }
}

double random_value(DType dtype, SplitMix64& rng) {
  switch (value_kind(dtype)) {
    case ValueKind::Float: return random_float(dtype, rng);
    case ValueKind::Signed: return static_cast<double>(rng.next() >> 60) - 8;
    case ValueKind::Unsigned: return static_cast<double>(rng.next() >> 60);
    case ValueKind::Pred: return static_cast<double>(rng.next() >> 63);
  }
  return 0;
}

/// One ulp of a format at 1.0, as a relative tolerance, and its smallest
/// subnormal, as the absolute tolerance of values that cancel to near zero.
Tolerance ulp_tolerance(const FloatFormat& f) {
  return {pow2(1 - f.bias - f.man_bits), pow2(-f.man_bits)};
}

/// Whether `got` passes against `want`; adds their difference to `c`'s maxima.
bool within(const Tolerance& tol, double got, double want, Comparison& c) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (got == want) return true;  // equal infinities too, whose difference is NaN
  double abs = std::fabs(got - want);
  c.max_abs = std::max(c.max_abs, abs);
  c.max_rel = std::max(c.max_rel, abs / std::max(std::fabs(want), std::numeric_limits<double>::min()));
  return std::isfinite(want) && abs <= tol.atol + tol.rtol * std::fabs(want);  // an infinity matches only itself
}

}  // namespace

double round_to(DType dtype, double v) {
  switch (dtype) {
    case DType::F64: case DType::Unknown: return v;
    case DType::F32: return static_cast<float>(v);  // the host's IEEE conversion rounds to nearest even
    case DType::TF32: return round_float(kTF32, v);
    case DType::F16: return round_float(kF16, v);
    case DType::BF16: {
      // Most writes copy a value that is already bf16 (a load of a bf16
      // tensor): an f32 whose low 16 bits are zero needs no rounding.
      float f = static_cast<float>(v);
      uint32_t bits = std::bit_cast<uint32_t>(f);
      if (static_cast<double>(f) == v && (bits & 0xFFFFu) == 0) return v;
      return round_float(kBF16, v);
    }
    case DType::F8E4M3: return round_float(kF8E4M3, v);
    case DType::F8E5M2: return round_float(kF8E5M2, v);
    case DType::F6E3M2: return round_float(kF6E3M2, v);
    case DType::F6E2M3: return round_float(kF6E2M3, v);
    case DType::F4E2M1: return round_float(kF4E2M1, v);
    case DType::I64: return round_integer<int64_t>(v);
    case DType::I32: return round_integer<int32_t>(v);
    case DType::I16: return round_integer<int16_t>(v);
    case DType::I8: return round_integer<int8_t>(v);
    case DType::U64: return round_integer<uint64_t>(v);
    case DType::U32: case DType::B32: return round_integer<uint32_t>(v);
    case DType::U16: return round_integer<uint16_t>(v);
    case DType::U8: return round_integer<uint8_t>(v);
    case DType::Pred: return v != 0 ? 1 : 0;
  }
  return v;
}

std::optional<uint32_t> float_bits(DType dtype, double v) {
  const FloatFormat* f = format_of(dtype);
  if (!f) return std::nullopt;
  return encode_float(*f, round_to(dtype, v));
}

std::optional<double> from_float_bits(DType dtype, uint32_t bits) {
  const FloatFormat* f = format_of(dtype);
  if (!f) return std::nullopt;
  return decode_float(*f, bits);
}

void fill_random(DType dtype, std::span<double> out, uint64_t seed) {
  SplitMix64 rng(seed);
  for (double& x : out) x = random_value(dtype, rng);
}

Tolerance tolerance_for(DType dtype) {
  switch (dtype) {
    // Sums of the same products in another order: a few ulps of the
    // accumulator, and an absolute floor where they cancel.
    case DType::F64: case DType::Unknown: return {1e-12, 1e-12};
    case DType::F32: return {1e-5, 1e-4};
    // Stored in 10 (tf32, f16) or 7 (bf16) mantissa bits after an f32
    // accumulation: one ulp of the stored format.
    case DType::TF32: return {1e-5, pow2(-10)};
    case DType::F16: return {1e-5, pow2(-10)};
    case DType::BF16: return {1e-5, pow2(-7)};
    case DType::F8E4M3: return ulp_tolerance(kF8E4M3);
    case DType::F8E5M2: return ulp_tolerance(kF8E5M2);
    case DType::F6E3M2: return ulp_tolerance(kF6E3M2);
    case DType::F6E2M3: return ulp_tolerance(kF6E2M3);
    case DType::F4E2M1: return ulp_tolerance(kF4E2M1);
    case DType::I64: case DType::I32: case DType::I16: case DType::I8: case DType::U64:
    case DType::U32: case DType::U16: case DType::U8: case DType::B32: case DType::Pred:
      return {};
  }
  return {};
}

Comparison compare(DType dtype, std::span<const double> got, std::span<const double> want) {
  return compare(tolerance_for(dtype), got, want);
}

Comparison compare(const Tolerance& tol, std::span<const double> got, std::span<const double> want) {
  Comparison c;
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    bool both = i < got.size() && i < want.size();
    if (both && within(tol, got[i], want[i], c)) continue;
    ++c.mismatches;
    if (!c.first) c.first = i;
  }
  return c;
}

}  // namespace cake::exec
