// The element-wise builtin functions of CAKE IR (language.md "Expressions"):
// one row each, read by the typer (which names exist), the cost model (what
// each costs the special-function unit) and the lowering (the CUDA function
// each becomes). `max` and `min` are binary and cost one CUDA-core op.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace cake {

struct UnaryBuiltin {
  std::string_view name;  // as written: exp2(x)
  std::string_view cuda;  // the CUDA device function it lowers to
  int sfu_ops;            // MUFU results per element (ex2, lg2, rsqrt, rcp)
};

/// exp and log scale by a constant around ex2 / lg2; rsqrt is one MUFU.RSQ;
/// sqrt is a reciprocal square root followed by a reciprocal (CUDA
/// Programming Guide, "Single-Precision Floating-Point Square Root"); abs is
/// an operand modifier.
inline constexpr UnaryBuiltin kUnaryBuiltins[] = {
    {"exp2", "exp2f", 1}, {"log2", "log2f", 1}, {"exp", "expf", 1},   {"log", "logf", 1},
    {"rsqrt", "rsqrtf", 1}, {"sqrt", "sqrtf", 2}, {"abs", "fabsf", 0},
};

/// A float division is a MUFU.RCP and Newton FMAs.
inline constexpr int kSfuOpsPerDivision = 1;

inline const UnaryBuiltin* find_unary_builtin(std::string_view name) {
  auto it = std::find_if(std::begin(kUnaryBuiltins), std::end(kUnaryBuiltins),
                         [&](const UnaryBuiltin& b) { return b.name == name; });
  return it == std::end(kUnaryBuiltins) ? nullptr : it;
}

}  // namespace cake
