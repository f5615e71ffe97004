// The bounds prover: decides whether an index or slice of a buffer can
// reach outside its dim, by evaluating it at the corner points of the loop
// variables and builtins around it (the first and last trip of each loop,
// every stage of a ring, the largest and smallest block, warp and lane), for
// each shape sample the kernel's facts allow (KernelFacts::samples(), cake/kernel_facts.h). Guards on
// the way (an `if` condition, holding in its `then` branch and failing in
// its `else`) exclude the points they do not admit; where one reads `lane`,
// `warp.id` or `role.rank`, every value of it is tried, not only the first
// and last. A finding
// always comes with the concrete point that shows it. The E0104 rule
// (out_of_bounds.cpp) turns findings into messages.
#pragma once

#include "cake/model.h"
#include "cake/eval.h"
#include "cake/typing.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>
#include <vector>

namespace cake {

/// A loop around the statement: its variable, its ring's stage variable.
struct LoopBounds {
  SymbolId variable = kNone, stage = kNone;
  ExprId start = kNone, end = kNone, step = kNone, stages = kNone;
};

/// An `if` on the way: its condition holds (the `then` branch) or not (`else`).
struct Guard {
  ExprId condition = kNone;
  bool holds = true;
};

/// The warps the enclosing role runs on, when known.
struct WarpSpan {
  int64_t first_warp = 0, warps = 0, units = 1;
  bool known = false;
};

/// Where an index sits: its kernel, the shapes to try, its role, loops and guards.
struct BoundsScope {
  uint32_t kernel = kNone;
  const std::vector<Env>* samples = nullptr;
  WarpSpan role;
  const std::vector<LoopBounds>* loops = nullptr;
  const std::vector<Guard>* guards = nullptr;
};

/// One index or slice that can leave its dim.
struct OutOfBounds {
  enum class Kind : uint8_t {
    ExtentNotPositive,  // `value` is the slice's extent
    Index,              // `value` is the index
    SliceStart,         // `value` is the (negative) start
    SliceEnd,           // `value` is the end, past `dim`
  };
  Kind kind = Kind::Index;
  int64_t value = 0;
  size_t dim_index = 0;
  int64_t dim = 0;
  std::string example;  // "N = 64, kt = 3, warp.id = 7": the point; may be empty
};

class BoundsProver {
 public:
  BoundsProver(const Module& m, const Evaluator& eval) : m_(m), eval_(eval) {}

  /// Whether `item`, indexing dim `dim_index` of `base`, can leave the dim.
  std::optional<OutOfBounds> find(const BoundsScope& scope, const Typed& base, size_t dim_index,
                                  const IndexItem& item);

 private:
  struct Reach {
    int64_t start, end, dim;  // the index's or slice's [start, end), and the dim's size
  };

  std::optional<Reach> reach(ExprId dim, const IndexItem& item, const Env* point) const;
  bool enumerate(Env& env, const std::vector<SymbolId>& free, size_t level, llvm::function_ref<bool(const Env&)> visit);
  bool enumerate_loops(Env& env, const std::vector<SymbolId>& free, size_t loop,
                       llvm::function_ref<bool(const Env&)> visit);
  bool loop_needed_by_conditions(const LoopBounds& l) const;
  /// Whether the scope's guards admit `point`.
  bool admitted(const Env& point) const;

  const Module& m_;
  const Evaluator& eval_;
  const BoundsScope* scope_ = nullptr;
  Env scratch_env_;  // find()'s environment, kept for its capacity
  std::vector<SymbolId> condition_symbols_;  // what the scope's guards read, for find()
};

}  // namespace cake
