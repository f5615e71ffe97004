// Tile values of element-wise expressions: a scalar or a tile with its dims,
// combined with the language's broadcasting (docs/language.md, "Row vectors
// and broadcasting") and rounded into the result's dtype after every
// operation, as the GPU computes in the operands' dtype.
#pragma once

#include "cake/model.h"

#include <llvm/ADT/SmallVector.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake::exec {

struct Tile {
  DType dtype = DType::Unknown;
  bool literal = false;     // a literal, inf or nan: takes the other operand's dtype
  bool scalar = true;
  bool row_vector = false;  // a `.row` fragment: one value per row, spread across columns
  llvm::SmallVector<int64_t, 2> dims;
  llvm::SmallVector<double, 1> values;  // one value when scalar

  static Tile constant(double v, bool literal, DType dtype = DType::Unknown);
};

/// `a op b` element-wise (+ - * / % min max, comparisons and logic as 0/1);
/// nullopt with `error` when the shapes do not broadcast.
std::optional<Tile> combine(std::string_view op, const Tile& a, const Tile& b, std::string& error);
/// `select(c, a, b)`: a where c is non-zero, else b, over the three
/// operands' common shape; nullopt with `error` when they do not broadcast.
std::optional<Tile> choose(const Tile& c, const Tile& a, const Tile& b, std::string& error);
/// A unary operator (- + !) or function (exp2, log2, exp, log, rsqrt, sqrt, abs).
std::optional<Tile> apply(std::string_view fn, const Tile& a, std::string& error);
/// `a` spread over a tile shaped as `onto` (an assignment's value over its
/// target: `y = v` of a `.row` vector v); nullopt with `error` when it does
/// not broadcast.
std::optional<Tile> spread_over(const Tile& a, const Tile& onto, std::string& error);
/// `a` converted to `dtype` (cvt<T>).
Tile convert(const Tile& a, DType dtype);

}  // namespace cake::exec
