// Constant folding of model expressions over consts, and evaluation under an
// environment that binds shape symbols, loop variables and builtins to
// integers. Used by the checks for dims, bounds, facts and bench shapes.
#pragma once

#include "cake/model.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace cake {

/// Values of symbols, and of builtin fields (`block.x`, `s.phase`) keyed by
/// the Field expression's base symbol and field name.
struct Env {
  std::unordered_map<SymbolId, int64_t> values;
  std::unordered_map<SymbolId, std::unordered_map<std::string_view, int64_t>> fields;
};

class Evaluator {
 public:
  explicit Evaluator(const Module& module) : m_(module) {}

  /// The integer value of `e` (booleans are 0/1), or nullopt when it is not
  /// known under `env` (an unbound name, a division by zero, an overflow).
  std::optional<int64_t> eval(ExprId e, const Env* env = nullptr) const;

  /// eval() with no environment: consts and literals only.
  std::optional<int64_t> fold(ExprId e) const { return eval(e, nullptr); }

  /// Bytes of a buffer type's elements (stage dims included); nullopt when a
  /// dim is not constant.
  std::optional<int64_t> bytes_of(const ValueType& type, size_t skip_dims = 0) const;

  /// Every symbol `e` reads (through lets, transitively), without duplicates.
  void free_symbols(ExprId e, std::vector<SymbolId>& out) const;

 private:
  std::optional<int64_t> eval_depth(ExprId e, const Env* env, int depth) const;
  const Module& m_;
};

}  // namespace cake
