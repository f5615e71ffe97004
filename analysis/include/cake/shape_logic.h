// An exact decision procedure for the logic of shape facts and dispatch
// guards. Shape symbols are integers in [1, kMaxValue]; formulas join atoms
// with and, or and not, where an atom is one of
//   S op c            (op in < <= > >= == !=, c a constant)
//   S % d == r / !=   (d > 0 a constant; `S % d == 0` is a divisibility)
//   S op T            (two symbols)
// solve() answers Sat with a witness (the least values, symbol by symbol, of
// the first satisfiable branch), Unsat, or Unknown when a search limit is hit
// (a huge period of residues, too much branching); it never guesses.
// to_formula() reads a model expression into this logic, or gives nullopt
// for anything outside it (`N / 2 > 3`, `(M * N) % 8 == 0`), so that callers
// say nothing where they cannot be exact.
//
// Method. The formula is put in negation normal form and explored branch by
// branch (a disjunctive normal form built lazily: every atom of a branch is
// collected before it splits on its next disjunction, and a branch is pruned
// as soon as its atoms are unsatisfiable). A conjunction of atoms is decided thus:
// each `S != T` is split into `S < T` or `S > T`; `S == T` merges symbols;
// cycles of `<=` merge symbols (a cycle with a `<` is unsatisfiable); the
// order constraints then form a DAG, and each symbol, in topological order,
// takes the least value that its bounds, residues and excluded points allow
// above its predecessors. That least assignment exists whenever any does
// (every constraint only ever asks for larger values), so the procedure is
// complete. The least value of one symbol is found exactly: the required
// residues combine (Chinese remainder theorem) into one progression; the
// excluded residues repeat with a period P along it, and each excluded point
// removes one value, so (excluded points + 1) periods of the progression
// hold a valid value or none exists at all.
#pragma once

#include "cake/model.h"
#include "cake/eval.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace cake::logic {

/// Shape symbols range over [1, kMaxValue].
inline constexpr int64_t kMaxValue = int64_t(1) << 62;

enum class Rel : uint8_t { Lt, Le, Gt, Ge, Eq, Ne };

struct Atom {
  enum class Kind : uint8_t {
    Bound,   // var rel value
    Modulo,  // var % modulus rel value, rel Eq or Ne
    Order,   // var rel other
  };
  Kind kind = Kind::Bound;
  Rel rel = Rel::Eq;
  uint32_t var = 0;
  uint32_t other = 0;
  int64_t value = 0;
  int64_t modulus = 1;
};

struct Formula {
  enum class Kind : uint8_t { True, False, Atom, And, Or, Not };
  Kind kind = Kind::True;
  Atom atom;
  std::vector<Formula> children;

  static Formula truth(bool value);
  static Formula of(const Atom& atom);
  static Formula all(std::vector<Formula> children);
  static Formula any(std::vector<Formula> children);
  static Formula negation(Formula child);
};

/// Atom constructors. Trivial atoms fold to True or False; a modulus that is
/// not positive gives nullopt (outside the fragment).
Formula bound(uint32_t var, Rel rel, int64_t value);
std::optional<Formula> modulo(uint32_t var, int64_t modulus, Rel rel, int64_t residue);
Formula order(uint32_t var, Rel rel, uint32_t other);

enum class Verdict : uint8_t { Sat, Unsat, Unknown };

struct Result {
  Verdict verdict = Verdict::Unknown;
  /// Sat only: one value per variable, and whether the satisfied branch
  /// constrains it (an unconstrained variable may take any value; it is 1).
  std::vector<int64_t> values;
  std::vector<bool> constrained;
};

struct Limits {
  /// Values tried along one symbol's progression before giving up.
  int64_t max_steps = int64_t(1) << 16;
  /// Work (branches, `S != T` splits, decided conjunctions, 1024 values
  /// tried) before giving up.
  int64_t max_work = int64_t(1) << 14;
  /// Optional work budget shared by several solve() calls: each unit of work
  /// takes one; when none is left, the answer is Unknown.
  int64_t* budget = nullptr;
  /// Variables a conjunction may relate by order atoms.
  uint32_t max_vars = 256;
};

/// Decides `formula` over `var_count` variables, each in [1, kMaxValue].
Result solve(const Formula& formula, uint32_t var_count, const Limits& limits = {});

/// Reads a boolean model expression (a guard, a fact) into the logic. A Name
/// of a shape symbol is the variable `vars[symbol]`; constants are folded by
/// `eval`. nullopt: some part is outside the fragment, or names a symbol
/// missing from `vars`.
std::optional<Formula> to_formula(const Module& module, const Evaluator& eval, ExprId expr,
                                  const std::unordered_map<SymbolId, uint32_t>& vars);

}  // namespace cake::logic
