// How an element-wise operand spreads over the result's shape (language.md
// "Row vectors and broadcasting"): the one rule that the typer, the
// statement checks, the CPU executor and the lowering all read.
//
// Dims align from the last one, as in NumPy. Each operand dim either equals
// the result's dim there or is 1 (it stretches); missing leading dims
// stretch. A `.row` vector is the exception: its one dim runs along the
// result's rows.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cake {

/// How element (i, j) of an [M, N] result (or element j of an [N] one) reads
/// the operand: its own element (Same), the one value (Scalar), its column j
/// (Columns), its row i (Rows), or not at all (None: E0109).
enum class Spread : uint8_t { Same, Scalar, Columns, Rows, None };

/// `equal(i, j)`: operand dim i equals (or may equal) result dim j;
/// `unit(i)`: operand dim i is 1. Results of rank 3 or more broadcast only a
/// scalar or an equal shape.
template <class Equal, class Unit>
Spread spread_of(size_t rank, bool row_vector, size_t result_rank, Equal equal, Unit unit) {
  if (rank == 0) return Spread::Scalar;
  if (row_vector) {
    // Checked before any dim is read: a scalar result has no dim 0.
    if (rank != 1 || (result_rank != 1 && result_rank != 2) || !equal(0, 0)) return Spread::None;
    return result_rank == 1 ? Spread::Same : Spread::Rows;
  }
  if (rank > result_rank) return Spread::None;
  // varies[j]: the operand has its own values along result dim j.
  bool varies[2] = {false, false};
  size_t varying = 0;
  for (size_t k = 0; k < rank; ++k) {
    size_t i = rank - 1 - k, j = result_rank - 1 - k;
    if (equal(i, j)) {
      if (j < 2) varies[j] = true;
      ++varying;
    } else if (!unit(i)) {
      return Spread::None;
    }
  }
  if (varying == 0) return Spread::Scalar;
  if (varying == result_rank) return Spread::Same;
  if (result_rank != 2) return Spread::None;
  return varies[1] ? Spread::Columns : Spread::Rows;
}

/// The same over known extents.
template <class Dims>
Spread spread_of_extents(const Dims& operand, bool row_vector, const Dims& result) {
  return spread_of(
      operand.size(), row_vector, result.size(),
      [&](size_t i, size_t j) { return static_cast<int64_t>(operand[i]) == static_cast<int64_t>(result[j]); },
      [&](size_t i) { return static_cast<int64_t>(operand[i]) == 1; });
}

}  // namespace cake
