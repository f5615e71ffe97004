// Element-wise arithmetic on tiles; see tile.h.
#include "tile.h"

#include "cake/broadcast.h"
#include "cake/exec/numeric.h"

#include <cmath>

namespace cake::exec {
namespace {

std::optional<double> binary(std::string_view op, double x, double y) {
  if (op == "+") return x + y;
  if (op == "-") return x - y;
  if (op == "*") return x * y;
  if (op == "/") return x / y;
  if (op == "%") return std::fmod(x, y);
  if (op == "max") return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y);
  if (op == "min") return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y);
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  if (op == "&&") return x != 0 && y != 0;
  if (op == "||") return x != 0 || y != 0;
  return std::nullopt;
}

std::optional<double> unary(std::string_view fn, double x) {
  if (fn == "-") return -x;
  if (fn == "+") return x;
  if (fn == "!") return x == 0;
  if (fn == "exp2") return std::exp2(x);
  if (fn == "log2") return std::log2(x);
  if (fn == "exp") return std::exp(x);
  if (fn == "log") return std::log(x);
  if (fn == "rsqrt") return 1 / std::sqrt(x);
  if (fn == "sqrt") return std::sqrt(x);
  if (fn == "abs") return std::fabs(x);
  return std::nullopt;
}

Spread spread(const Tile& t, const llvm::SmallVector<int64_t, 2>& dims) {
  if (t.scalar) return Spread::Scalar;
  return spread_of_extents(t.dims, t.row_vector, dims);
}

double element(const Tile& t, Spread s, size_t flat, int64_t columns) {
  switch (s) {
    case Spread::Same: return t.values[flat];
    case Spread::Scalar: return t.values[0];
    case Spread::Columns: return t.values[flat % static_cast<size_t>(columns)];
    case Spread::Rows: return t.values[flat / static_cast<size_t>(columns)];
    case Spread::None: break;
  }
  return NAN;
}

DType result_dtype(const Tile& a, const Tile& b) {
  if (a.literal && !b.literal) return b.dtype;
  return a.dtype;
}

}  // namespace

Tile Tile::constant(double v, bool literal, DType dtype) {
  Tile t;
  t.literal = literal;
  t.dtype = dtype;
  t.values = {v};
  return t;
}

std::optional<Tile> combine(std::string_view op, const Tile& a, const Tile& b, std::string& error) {
  // The result has the shape of the operand the other spreads over (a row
  // vector spreads over a tile, a tile never shrinks to a vector).
  const Tile& big = a.scalar ? b : b.scalar ? a : spread(b, a.dims) != Spread::None && !a.row_vector ? a : b;
  Tile out;
  out.dtype = result_dtype(a, b);
  out.literal = a.literal && b.literal;
  out.scalar = big.scalar;
  out.row_vector = big.row_vector;
  out.dims = big.dims;
  Spread sa = spread(a, out.dims), sb = spread(b, out.dims);
  if (sa == Spread::None || sb == Spread::None) {
    error = "the operands of `" + std::string(op) + "` do not broadcast";
    return std::nullopt;
  }
  size_t n = 1;
  for (int64_t d : out.dims) n *= static_cast<size_t>(d);
  int64_t columns = out.dims.size() == 2 ? out.dims[1] : 1;
  out.values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    auto v = binary(op, element(a, sa, i, columns), element(b, sb, i, columns));
    if (!v) {
      error = "the executor has no operator `" + std::string(op) + "`";
      return std::nullopt;
    }
    out.values[i] = round_to(out.dtype, *v);
  }
  return out;
}

std::optional<Tile> choose(const Tile& c, const Tile& a, const Tile& b, std::string& error) {
  // The result has the shape of the operand every other one spreads over.
  const Tile* big = nullptr;
  for (const Tile* t : {&a, &b, &c})
    if (!big && !t->scalar && !t->row_vector && spread(a, t->dims) != Spread::None &&
        spread(b, t->dims) != Spread::None && spread(c, t->dims) != Spread::None)
      big = t;
  if (!big) {
    for (const Tile* t : {&a, &b, &c})
      if (!big && spread(a, t->dims) != Spread::None && spread(b, t->dims) != Spread::None &&
          spread(c, t->dims) != Spread::None)
        big = t;
  }
  if (!big) {
    error = "the operands of `select` do not broadcast";
    return std::nullopt;
  }
  Tile out;
  out.dtype = result_dtype(a, b);
  out.literal = a.literal && b.literal;
  out.scalar = big->scalar;
  out.row_vector = big->row_vector;
  out.dims = big->dims;
  Spread sc = spread(c, out.dims), sa = spread(a, out.dims), sb = spread(b, out.dims);
  size_t n = 1;
  for (int64_t d : out.dims) n *= static_cast<size_t>(d);
  int64_t columns = out.dims.size() == 2 ? out.dims[1] : 1;
  out.values.resize(n);
  for (size_t i = 0; i < n; ++i)
    out.values[i] = round_to(out.dtype, element(c, sc, i, columns) != 0 ? element(a, sa, i, columns)
                                                                        : element(b, sb, i, columns));
  return out;
}

std::optional<Tile> apply(std::string_view fn, const Tile& a, std::string& error) {
  Tile out = a;
  for (double& v : out.values) {
    auto r = unary(fn, v);
    if (!r) {
      error = "the executor has no function `" + std::string(fn) + "`";
      return std::nullopt;
    }
    v = round_to(out.dtype, *r);
  }
  return out;
}

Tile convert(const Tile& a, DType dtype) {
  Tile out = a;
  out.dtype = dtype;
  out.literal = false;
  for (double& v : out.values) v = round_to(dtype, v);
  return out;
}

}  // namespace cake::exec
