// Overflow-checked integer arithmetic for values that come from user text:
// every result is nullopt instead of undefined behaviour.
#pragma once

#include <cstdint>
#include <optional>

namespace cake {

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// `v` rounded up to a multiple of `unit` (unit > 0), or nullopt on overflow.
inline std::optional<int64_t> round_up(int64_t v, int64_t unit) {
  if (unit <= 0) return v;
  int64_t r = v % unit;
  if (r == 0) return v;
  int64_t out;
  if (__builtin_add_overflow(v, unit - r, &out)) return std::nullopt;
  return out;
}

}  // namespace cake
