// Constant folding of model expressions over consts, and evaluation under an
// environment that binds shape symbols, loop variables and builtins to
// integers. Used by the checks for dims, bounds, facts and bench shapes.
#pragma once

#include "cake/model.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace cake {

/// A map over a small vector: environments hold a handful of names and are
/// copied often (one per sample point), where hash maps cost more than a scan.
template <typename K, typename V>
class FlatMap {
 public:
  using value_type = std::pair<K, V>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  V& operator[](const K& key) {
    auto it = find(key);
    if (it != items_.end()) return it->second;
    items_.emplace_back(key, V{});
    return items_.back().second;
  }
  iterator find(const K& key) {
    return std::find_if(items_.begin(), items_.end(), [&](const value_type& kv) { return kv.first == key; });
  }
  const_iterator find(const K& key) const {
    return std::find_if(items_.begin(), items_.end(), [&](const value_type& kv) { return kv.first == key; });
  }
  size_t count(const K& key) const { return find(key) != items_.end(); }
  void erase(const K& key) {
    auto it = find(key);
    if (it != items_.end()) items_.erase(it);
  }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

 private:
  std::vector<value_type> items_;
};

/// Values of symbols, and of builtin fields (`block.x`, `s.phase`) keyed by
/// the Field expression's base symbol and field name.
struct Env {
  FlatMap<SymbolId, int64_t> values;
  FlatMap<SymbolId, FlatMap<std::string_view, int64_t>> fields;
};

class Evaluator {
 public:
  explicit Evaluator(const Module& module) : m_(module) {}

  /// The integer value of `e` (booleans are 0/1), or nullopt when it is not
  /// known under `env` (an unbound name, a division by zero, an overflow).
  std::optional<int64_t> eval(ExprId e, const Env* env = nullptr) const;

  /// eval() with no environment: consts and literals only.
  std::optional<int64_t> fold(ExprId e) const { return eval(e, nullptr); }

  /// Trips of a loop `for start..end step step` (`step` kNone: 1) under
  /// `env`: 0 when end <= start; nullopt when a bound is unknown, the step is
  /// not positive or the count overflows. The one home of loop trip counts.
  std::optional<int64_t> trips(ExprId start, ExprId end, ExprId step, const Env* env) const;

  /// Bytes of a buffer type's elements (stage dims included), bits x
  /// elements / 8 as `bytes()` counts them; nullopt when a dim is not
  /// constant.
  std::optional<int64_t> bytes_of(const ValueType& type, size_t skip_dims = 0) const;
  /// The bytes the buffer takes where it lives: in shared or tensor memory
  /// each element stored_bits() wide (a byte for 6- and 4-bit floats),
  /// elsewhere as bytes_of().
  std::optional<int64_t> stored_bytes_of(const ValueType& type, size_t skip_dims = 0) const;

  /// Every symbol `e` reads (through lets, transitively), without duplicates.
  void free_symbols(ExprId e, std::vector<SymbolId>& out) const;

 private:
  std::optional<int64_t> eval_depth(ExprId e, const Env* env, int depth) const;
  std::optional<int64_t> bits_times_elements(const ValueType& type, size_t skip_dims, unsigned bits) const;
  const Module& m_;
};

}  // namespace cake
