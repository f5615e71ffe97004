// The decision procedure behind the dispatch checks (cake/shape_logic.h):
// satisfiable and unsatisfiable conjunctions with their least witnesses,
// disjunctions, implications, symbol-to-symbol order, the honest Unknown at a
// search limit, and reading guards and facts from a model.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/eval.h"
#include "cake/shape_logic.h"

#include <string>
#include <vector>

using namespace cake;
using namespace cake::logic;

namespace {

constexpr uint32_t X = 0, Y = 1, Z = 2;

Formula mod(uint32_t var, int64_t d, Rel rel, int64_t r) { return *modulo(var, d, rel, r); }
Formula all(std::vector<Formula> f) { return Formula::all(std::move(f)); }
Formula any(std::vector<Formula> f) { return Formula::any(std::move(f)); }
Formula no(Formula f) { return Formula::negation(std::move(f)); }

/// `a` implies `b`: a && !b has no model.
Verdict implies(const Formula& a, const Formula& b) { return solve(all({a, no(b)}), 3).verdict; }

struct Case {
  const char* name;
  Formula formula;
  Verdict verdict;
  std::vector<int64_t> witness;  // x, y, z when Sat (only the constrained ones are compared)
};

}  // namespace

TEST_CASE("conjunctions: verdicts and least witnesses") {
  const int64_t big = int64_t(1) << 61;
  const Case cases[] = {
      {"a divisibility above a bound", all({mod(X, 128, Rel::Eq, 0), bound(X, Rel::Gt, 256)}), Verdict::Sat, {384}},
      {"contradicting residues", all({mod(X, 2, Rel::Eq, 0), mod(X, 4, Rel::Eq, 1)}), Verdict::Unsat, {}},
      {"compatible residues (CRT)", all({mod(X, 3, Rel::Eq, 1), mod(X, 5, Rel::Eq, 2)}), Verdict::Sat, {7}},
      {"residues with a common factor", all({mod(X, 4, Rel::Eq, 2), mod(X, 6, Rel::Eq, 4)}), Verdict::Sat, {10}},
      {"excluded residues", all({mod(X, 2, Rel::Ne, 0), mod(X, 3, Rel::Ne, 0), bound(X, Rel::Gt, 5)}), Verdict::Sat, {7}},
      {"excluded residues cover the progression", all({mod(X, 4, Rel::Eq, 0), mod(X, 2, Rel::Ne, 0)}), Verdict::Unsat, {}},
      {"excluded points", all({bound(X, Rel::Ne, 1), bound(X, Rel::Ne, 2), bound(X, Rel::Le, 3)}), Verdict::Sat, {3}},
      {"excluded points fill the range", all({bound(X, Rel::Ne, 1), bound(X, Rel::Ne, 2), bound(X, Rel::Le, 2)}), Verdict::Unsat, {}},
      {"sizes are positive", bound(X, Rel::Lt, 1), Verdict::Unsat, {}},
      {"K % 128 == 0 gives K >= 128", all({mod(X, 128, Rel::Eq, 0), bound(X, Rel::Lt, 128)}), Verdict::Unsat, {}},
      {"an interval", all({bound(X, Rel::Ge, 100), bound(X, Rel::Le, 100)}), Verdict::Sat, {100}},
      {"an empty interval", all({bound(X, Rel::Gt, 100), bound(X, Rel::Lt, 101)}), Verdict::Unsat, {}},
      {"large values", all({bound(X, Rel::Gt, big), mod(X, 3, Rel::Eq, 0)}), Verdict::Sat, {big + 1}},
      {"a chain of symbols", all({order(X, Rel::Lt, Y), order(Y, Rel::Lt, Z), bound(Z, Rel::Le, 3)}), Verdict::Sat, {1, 2, 3}},
      {"a chain too long for its bound", all({order(X, Rel::Lt, Y), order(Y, Rel::Lt, Z), bound(Z, Rel::Le, 2)}), Verdict::Unsat, {}},
      {"a <= cycle merges", all({order(X, Rel::Le, Y), order(Y, Rel::Le, X), mod(X, 2, Rel::Eq, 0), mod(Y, 3, Rel::Eq, 0)}), Verdict::Sat, {6, 6}},
      {"a cycle through <", all({order(X, Rel::Lt, Y), order(Y, Rel::Le, X)}), Verdict::Unsat, {}},
      {"equal symbols share residues", all({order(X, Rel::Eq, Y), mod(X, 4, Rel::Eq, 0), mod(Y, 6, Rel::Eq, 0)}), Verdict::Sat, {12, 12}},
      {"!= between symbols, no room", all({order(X, Rel::Ne, Y), bound(X, Rel::Le, 1), bound(Y, Rel::Le, 1)}), Verdict::Unsat, {}},
      {"!= between symbols, room", all({order(X, Rel::Ne, Y), bound(X, Rel::Ge, 2), bound(Y, Rel::Le, 2)}), Verdict::Sat, {2, 1}},
      {"a predecessor pushes a residue", all({order(X, Rel::Lt, Y), bound(X, Rel::Ge, 130), mod(Y, 128, Rel::Eq, 0)}), Verdict::Sat, {130, 256}},
      {"a disjunction, second branch", all({any({bound(X, Rel::Lt, 5), bound(X, Rel::Gt, 10)}), mod(X, 7, Rel::Eq, 0)}), Verdict::Sat, {14}},
      {"a disjunction, no branch", all({any({bound(X, Rel::Lt, 5), bound(X, Rel::Gt, 10)}), bound(X, Rel::Eq, 7)}), Verdict::Unsat, {}},
      {"a negated conjunction", all({no(all({mod(X, 2, Rel::Eq, 0), bound(X, Rel::Ge, 4)})), bound(X, Rel::Ge, 4)}), Verdict::Sat, {5}},
      {"true", Formula::truth(true), Verdict::Sat, {}},
      {"false", Formula::truth(false), Verdict::Unsat, {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Result r = solve(c.formula, 3);
    REQUIRE(r.verdict == c.verdict);
    if (c.verdict != Verdict::Sat) continue;
    for (size_t v = 0; v < c.witness.size(); ++v) {
      INFO("variable " << v);
      CHECK(r.constrained[v]);
      CHECK(r.values[v] == c.witness[v]);
    }
  }
}

TEST_CASE("atoms fold when trivial") {
  CHECK(modulo(X, 1, Rel::Eq, 0)->kind == Formula::Kind::True);
  CHECK(modulo(X, 128, Rel::Eq, 128)->kind == Formula::Kind::False);  // S % 128 is below 128
  CHECK(modulo(X, 128, Rel::Ne, -1)->kind == Formula::Kind::True);
  CHECK_FALSE(modulo(X, 0, Rel::Eq, 0).has_value());                  // division by zero: outside
  CHECK_FALSE(modulo(X, 4, Rel::Lt, 2).has_value());                  // only == and != on residues
  CHECK(order(X, Rel::Le, X).kind == Formula::Kind::True);
  CHECK(order(X, Rel::Lt, X).kind == Formula::Kind::False);
}

TEST_CASE("implications, as a dispatch asks them") {
  Formula guard = all({mod(X, 256, Rel::Eq, 0), bound(X, Rel::Le, 512)});
  CHECK(implies(guard, mod(X, 128, Rel::Eq, 0)) == Verdict::Unsat);  // implied
  CHECK(implies(guard, bound(X, Rel::Ge, 256)) == Verdict::Unsat);   // positive and divisible
  Result r = solve(all({mod(X, 128, Rel::Eq, 0), no(mod(X, 256, Rel::Eq, 0))}), 1);
  REQUIRE(r.verdict == Verdict::Sat);  // not implied: 128 is a counterexample
  CHECK(r.values[0] == 128);
  // First match wins: the second case's admitted shapes exclude the first's.
  Formula first = all({mod(X, 128, Rel::Eq, 0), bound(X, Rel::Le, 256)});
  Formula second = mod(X, 128, Rel::Eq, 0);
  Result admitted = solve(all({second, no(first)}), 1);
  REQUIRE(admitted.verdict == Verdict::Sat);
  CHECK(admitted.values[0] == 384);
  CHECK(solve(all({mod(X, 128, Rel::Eq, 0), bound(X, Rel::Le, 256), no(first)}), 1).verdict == Verdict::Unsat);
}

TEST_CASE("a search limit gives Unknown, never a guess") {
  // Every residue mod 3 excluded: the period is 3, so with room for 3 steps
  // the answer is Unsat; with 2 steps the procedure cannot know.
  Formula f = all({mod(X, 3, Rel::Ne, 0), mod(X, 3, Rel::Ne, 1), mod(X, 3, Rel::Ne, 2)});
  Limits roomy, tight;
  tight.max_steps = 2;
  CHECK(solve(f, 1, roomy).verdict == Verdict::Unsat);
  CHECK(solve(f, 1, tight).verdict == Verdict::Unknown);
  // A value found within the limit is still an answer.
  Formula g = all({mod(X, 1000003, Rel::Ne, 1), mod(X, 1000033, Rel::Ne, 1)});
  Result r = solve(g, 1, tight);
  REQUIRE(r.verdict == Verdict::Sat);
  CHECK(r.values[0] == 2);
  // Too much branching: x or y takes each of 1..20 (two values cannot).
  std::vector<Formula> clauses;
  for (int i = 1; i <= 20; ++i) clauses.push_back(any({bound(X, Rel::Eq, i), bound(Y, Rel::Eq, i)}));
  Limits few;
  few.max_work = 8;
  CHECK(solve(all(clauses), 2, few).verdict == Verdict::Unknown);
  CHECK(solve(all(clauses), 2).verdict == Verdict::Unsat);
}

TEST_CASE("reading guards and facts from the model") {
  auto a = analyze(
      "target sm_90a\n"
      "const TILE = 128\n"
      "kernel k(A: global f32[M, N]) where M % TILE == 0, N <= 2 * TILE, M != N, !(N < 64), N / 2 > 3,"
      " M * N <= 4096, 1 < 2 grid (1) block 128 { }\n");
  REQUIRE(a->module.kernels.size() == 1);
  const Kernel& k = a->module.kernels[0];
  std::unordered_map<SymbolId, uint32_t> vars;
  for (uint32_t i = 0; i < k.shape_symbols.size(); ++i) vars[k.shape_symbols[i]] = i;
  Evaluator eval(a->module);
  REQUIRE(k.facts.size() == 7);
  std::vector<std::optional<Formula>> f;
  for (ExprId e : k.facts) f.push_back(to_formula(a->module, eval, e, vars));
  CHECK(f[0].has_value());   // M % TILE == 0: the const folds
  CHECK(f[1].has_value());   // N <= 2 * TILE
  CHECK(f[2].has_value());   // M != N
  CHECK(f[3].has_value());   // !(N < 64)
  CHECK_FALSE(f[4]);         // N / 2 > 3: outside the logic
  CHECK_FALSE(f[5]);         // M * N <= 4096: outside the logic
  REQUIRE(f[6].has_value());
  CHECK(f[6]->kind == Formula::Kind::True);
  Result r = solve(all({*f[0], *f[1], *f[2], *f[3]}), 2);
  REQUIRE(r.verdict == Verdict::Sat);
  CHECK(r.values[0] == 128);  // M
  CHECK(r.values[1] == 129);  // N: `M != N` tries M < N first
  // Unknown symbols are outside too: without a variable for N, nothing.
  vars.erase(k.shape_symbols[1]);
  CHECK_FALSE(to_formula(a->module, eval, k.facts[1], vars).has_value());
}
