// Element-wise arithmetic on tiles; see tile.h.
#include "tile.h"

#include "cake/broadcast.h"
#include "cake/exec/numeric.h"
#include "cake/typing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>

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

/// An integer value as a two's-complement 64-bit word (a u64 beyond 2^63 too).
uint64_t word(double v) {
  return v >= 9223372036854775808.0 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(static_cast<int64_t>(v));
}

/// `+`, `-`, `*`, `/` and `%` on the values of integers of `dtype`, wrapped
/// to the dtype: in 64-bit two's complement, so a
/// product a double would round is exact modulo 2^64 (two u32 values near
/// 2^32 multiply to near 2^64, whose low 32 bits are what a GPU keeps); `/`
/// and `%` truncate, as C's do. nullopt: another operator, a dtype that is
/// not an integer's (literals and lets: index arithmetic, exact in double),
/// or a division by zero (the double path then).
std::optional<double> integer_arithmetic(std::string_view op, DType dtype, double x, double y) {
  ValueKind kind = value_kind(dtype);
  bool is_signed = kind == ValueKind::Signed;
  if (!is_signed && kind != ValueKind::Unsigned) return std::nullopt;
  uint64_t a = word(x), b = word(y), r = 0;
  if (op == "+") r = a + b;
  else if (op == "-") r = a - b;
  else if (op == "*") r = a * b;
  else if ((op == "/" || op == "%") && b != 0) {
    if (is_signed) {
      auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
      if (sa == INT64_MIN && sb == -1) return std::nullopt;
      r = static_cast<uint64_t>(op == "/" ? sa / sb : sa % sb);
    } else {
      r = op == "/" ? a / b : a % b;
    }
  } else {
    return std::nullopt;
  }
  // Wrapped to the dtype's width here, where it is exact (a u32 `0 - 1`
  // is 2^64 - 1 as a word, which a double would round up to 2^64).
  if (unsigned bits = dtype_bits(dtype); bits < 64) {
    r &= (uint64_t(1) << bits) - 1;
    if (is_signed && (r >> (bits - 1) & 1)) r |= ~((uint64_t(1) << bits) - 1);
  }
  return is_signed ? static_cast<double>(static_cast<int64_t>(r)) : static_cast<double>(r);
}

/// A bitwise operator on the values of integers of `dtype` (the verifier
/// refuses them on floats, E0103), before the result is wrapped to the
/// dtype. A shift by an amount outside 0 .. 63 shifts by 63 or gives 0, as
/// PTX's `shl`/`shr` clamp theirs: every bit out, or the sign in.
double bitwise(std::string_view op, DType dtype, double x, double y) {
  // Literals, lets and builtins carry no dtype: the language's 64-bit
  // signed index arithmetic (`(2 - 5) << 1` is -6).
  bool is_signed = value_kind(dtype) == ValueKind::Signed || dtype == DType::Unknown;
  uint64_t a = word(x), b = word(y);
  uint64_t r = 0;
  if (op == "&") r = a & b;
  if (op == "|") r = a | b;
  if (op == "^") r = a ^ b;
  int64_t amount = y < 0 || y > 63 ? 64 : static_cast<int64_t>(y);
  if (op == "<<") r = amount > 63 ? 0 : a << amount;
  if (op == ">>") {
    int64_t n = std::min<int64_t>(amount, 63);
    r = is_signed ? static_cast<uint64_t>(static_cast<int64_t>(a) >> n) : amount > 63 ? 0 : a >> n;
  }
  return is_signed ? static_cast<double>(static_cast<int64_t>(r)) : static_cast<double>(r);
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

/// The operand every other one spreads over (a tile before a `.row`
/// vector or a scalar), whose shape the result takes; null when none is.
const Tile* result_shape(std::initializer_list<const Tile*> operands) {
  for (bool tiles_only : {true, false})
    for (const Tile* t : operands) {
      if (tiles_only && (t->scalar || t->row_vector)) continue;
      if (std::all_of(operands.begin(), operands.end(),
                      [&](const Tile* o) { return spread(*o, t->dims) != Spread::None; }))
        return t;
    }
  return nullptr;
}

/// The result of an element-wise op shaped as `big`, its values to fill.
Tile shaped_as(const Tile& big, DType dtype, bool literal) {
  Tile out;
  out.dtype = dtype;
  out.literal = literal;
  out.scalar = big.scalar;
  out.row_vector = big.row_vector;
  out.dims = big.dims;
  size_t n = 1;
  for (int64_t d : out.dims) n *= static_cast<size_t>(d);
  out.values.resize(n);
  return out;
}

/// The type each operation's result is rounded to: f32 for the floats
/// narrower than it (tf32 too), whose arithmetic is f32 rounded once when
/// stored (docs/lowering.md, "Semantics the language leaves open"); a
/// `cvt` rounds to its type itself.
DType arithmetic_dtype(DType dtype) {
  switch (dtype) {
    case DType::TF32: case DType::F16: case DType::BF16: case DType::F8E4M3: case DType::F8E5M2:
    case DType::F6E3M2: case DType::F6E2M3: case DType::F4E2M1:
      return DType::F32;
    case DType::F64: case DType::F32: case DType::I64: case DType::I32: case DType::I16: case DType::I8:
    case DType::U64: case DType::U32: case DType::U16: case DType::U8: case DType::B32: case DType::Pred:
    case DType::Unknown:
      return dtype;
  }
  return dtype;
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
  const Tile* big = result_shape({&a, &b});
  if (!big) {
    error = "the operands of `" + std::string(op) + "` do not broadcast";
    return std::nullopt;
  }
  Tile out = shaped_as(*big, result_dtype(a, b), a.literal && b.literal);
  Spread sa = spread(a, out.dims), sb = spread(b, out.dims);
  int64_t columns = out.dims.size() == 2 ? out.dims[1] : 1;
  for (size_t i = 0; i < out.values.size(); ++i) {
    double x = element(a, sa, i, columns), y = element(b, sb, i, columns);
    std::optional<double> v;
    if (is_bitwise_operator(op)) v = bitwise(op, out.dtype, x, y);
    else if (!(v = integer_arithmetic(op, out.dtype, x, y))) v = binary(op, x, y);
    if (!v) {
      error = "the executor has no operator `" + std::string(op) + "`";
      return std::nullopt;
    }
    out.values[i] = round_to(arithmetic_dtype(out.dtype), *v);
  }
  return out;
}

std::optional<Tile> choose(const Tile& c, const Tile& a, const Tile& b, std::string& error) {
  const Tile* big = result_shape({&a, &b, &c});
  if (!big) {
    error = "the operands of `select` do not broadcast";
    return std::nullopt;
  }
  Tile out = shaped_as(*big, result_dtype(a, b), a.literal && b.literal);
  Spread sc = spread(c, out.dims), sa = spread(a, out.dims), sb = spread(b, out.dims);
  int64_t columns = out.dims.size() == 2 ? out.dims[1] : 1;
  for (size_t i = 0; i < out.values.size(); ++i)
    out.values[i] = round_to(arithmetic_dtype(out.dtype), element(c, sc, i, columns) != 0 ? element(a, sa, i, columns)
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
    v = round_to(arithmetic_dtype(out.dtype), *r);
  }
  return out;
}

std::optional<Tile> spread_over(const Tile& a, const Tile& onto, std::string& error) {
  Spread s = spread(a, onto.dims);
  if (s == Spread::None) {
    error = "the value does not broadcast over the target";
    return std::nullopt;
  }
  Tile out = shaped_as(onto, a.dtype, a.literal);
  int64_t columns = out.dims.size() == 2 ? out.dims[1] : 1;
  for (size_t i = 0; i < out.values.size(); ++i) out.values[i] = element(a, s, i, columns);
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
