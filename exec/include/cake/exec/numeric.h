// Element values of the CPU executor: every element is held as a double and
// rounded into its dtype's value set on every write, so a tile product in
// double rounded into an f32 accumulator is what the tensor core produces up
// to the order of its additions. Also the seeded random inputs per dtype and
// the dtype-aware comparison of two runs (docs/run.md, "Tolerances").
#pragma once

#include "cake/model.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace cake::exec {

/// `v` rounded to nearest, ties to even, into `dtype`'s value set: f32, tf32
/// (10 mantissa bits), f16, bf16, f8e4m3 / f8e5m2 / f6e3m2 / f6e2m3 / f4e2m1
/// (saturating to the largest finite value, as cvt's .satfinite; NaN stays
/// NaN where the format has one and is +max where it has none), integers
/// truncate toward zero and wrap modulo 2^bits as C's integer conversions do
/// while the value fits a 64-bit integer (beyond, and for infinities, they
/// saturate as cvt.rzi.sat; NaN is 0), b32 is u32, pred is 0/1. f64 and
/// unknown are v. Exact: one rounding from the double, never two.
double round_to(DType dtype, double v);

/// What a dtype's values are: floats (unknown, a literal's, is one), signed
/// or unsigned integers (b32 is u32), or predicates.
enum class ValueKind : uint8_t { Float, Signed, Unsigned, Pred };
ValueKind value_kind(DType dtype);

/// The bits of `v` in `dtype`'s binary float format (f32, tf32 as its f32
/// bits, f16, bf16, and the 8-, 6- and 4-bit floats, low bits of the
/// result), `v` first rounded as round_to() does; and the value of such
/// bits. What a tensor of that dtype holds in memory (the 6- and 4-bit
/// formats one code per byte, unpacked). Other dtypes: nullopt.
std::optional<uint32_t> float_bits(DType dtype, double v);
std::optional<double> from_float_bits(DType dtype, uint32_t bits);

/// `out` filled with seeded pseudo-random values of `dtype` (already
/// rounded): floats uniform in [-1, 1) (a draw that rounds to 1 is drawn
/// again), signed integers in [-8, 8), unsigned in [0, 16), pred 0/1. The
/// generator is splitmix64, so the same (dtype, seed, size) always gives the
/// same values on every machine (no std::uniform_*_distribution).
void fill_random(DType dtype, std::span<double> out, uint64_t seed);

/// |got - want| <= atol + rtol * |want| passes; NaN matches only NaN.
struct Tolerance {
  double atol = 0, rtol = 0;
};
Tolerance tolerance_for(DType dtype);

struct Comparison {
  size_t mismatches = 0;
  double max_abs = 0, max_rel = 0;   // over every element (rel: |got - want| / max(|want|, tiny))
  std::optional<size_t> first;       // the first mismatching flat index, row-major
  bool matches() const { return mismatches == 0; }
};
/// Element by element under tolerance_for(dtype); where the lengths differ,
/// each element that only one side has is a mismatch.
Comparison compare(DType dtype, std::span<const double> got, std::span<const double> want);
/// The same under `tolerance`.
Comparison compare(const Tolerance& tolerance, std::span<const double> got, std::span<const double> want);

}  // namespace cake::exec
