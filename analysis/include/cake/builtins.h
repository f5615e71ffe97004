// The builtin functions of CAKE IR (language.md "Builtin functions"): every
// name with its arity and summary, read by the typer (which names exist) and
// completion; the unary element-wise ones also say what each costs the
// special-function unit (the cost model) and the CUDA function each becomes
// (the lowering). `max`, `min`, `select`, `row` and `col` cost one CUDA-core
// op each.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace cake {

struct BuiltinFunction {
  std::string_view name;
  int arity;
  std::string_view signature;  // as completion shows it
  std::string_view summary;
};

inline constexpr BuiltinFunction kBuiltinFunctions[] = {
    {"bytes", 1, "bytes(x)", "size in bytes of a buffer, one stage of a ring, or a slice"},
    {"cdiv", 2, "cdiv(a, b)", "integer division rounded up"},
    {"max", 2, "max(a, b)", "element-wise maximum (NaN propagates)"},
    {"min", 2, "min(a, b)", "element-wise minimum (NaN propagates)"},
    {"exp2", 1, "exp2(x)", "2^x, element-wise"},
    {"log2", 1, "log2(x)", "log2 x, element-wise"},
    {"exp", 1, "exp(x)", "e^x, element-wise"},
    {"log", 1, "log(x)", "natural logarithm, element-wise"},
    {"rsqrt", 1, "rsqrt(x)", "1 / sqrt(x), element-wise"},
    {"sqrt", 1, "sqrt(x)", "square root, element-wise"},
    {"abs", 1, "abs(x)", "absolute value, element-wise"},
    {"row", 1, "row(x)", "each element's row in the owner's tile of fragment x (i32, x's shape)"},
    {"col", 1, "col(x)", "each element's column in the owner's tile of fragment x (i32, x's shape)"},
    {"select", 3, "select(c, a, b)", "a where the predicate c holds, else b, element-wise"},
};

inline const BuiltinFunction* find_builtin_function(std::string_view name) {
  auto it = std::find_if(std::begin(kBuiltinFunctions), std::end(kBuiltinFunctions),
                         [&](const BuiltinFunction& b) { return b.name == name; });
  return it == std::end(kBuiltinFunctions) ? nullptr : it;
}

struct UnaryBuiltin {
  std::string_view name;      // as written: exp2(x)
  std::string_view cuda;      // the CUDA device function it lowers to
  std::string_view cuda_f64;  // the same of an f64 value
  int sfu_ops;                // MUFU results per f32 element (ex2, lg2, rsqrt, rcp)
};

/// exp and log scale by a constant around ex2 / lg2; rsqrt is one MUFU.RSQ;
/// sqrt is a reciprocal square root followed by a reciprocal (CUDA
/// Programming Guide, "Single-Precision Floating-Point Square Root"); abs is
/// an operand modifier.
inline constexpr UnaryBuiltin kUnaryBuiltins[] = {
    {"exp2", "exp2f", "exp2", 1},    {"log2", "log2f", "log2", 1}, {"exp", "expf", "exp", 1},
    {"log", "logf", "log", 1},       {"rsqrt", "rsqrtf", "rsqrt", 1}, {"sqrt", "sqrtf", "sqrt", 2},
    {"abs", "fabsf", "fabs", 0},
};

/// A float division is a MUFU.RCP and Newton FMAs.
inline constexpr int kSfuOpsPerDivision = 1;

inline const UnaryBuiltin* find_unary_builtin(std::string_view name) {
  auto it = std::find_if(std::begin(kUnaryBuiltins), std::end(kUnaryBuiltins),
                         [&](const UnaryBuiltin& b) { return b.name == name; });
  return it == std::end(kUnaryBuiltins) ? nullptr : it;
}

}  // namespace cake
