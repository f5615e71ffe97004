// shape_samples(): reads simple bounds and divisibilities off the facts
// (`S % d == 0`, `S >= c`, `c <= S`, `S < c`, `S == c`, ...), builds a few
// candidate assignments and keeps those under which every fact holds.
#include "facts/samples.h"

#include "cake/checked.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace cake {
namespace {

constexpr int64_t kDefaultMax = int64_t(1) << 20;

struct Bounds {
  int64_t lo = 1, hi = kDefaultMax, div = 1;
};

/// Applies one comparison fact `lhs op rhs` to the bounds of the symbol it names.
void apply_fact(const Module& m, const Evaluator& eval, ExprId fact, std::vector<SymbolId>& syms,
                std::vector<Bounds>& bounds) {
  const Expr& e = m.exprs[fact];
  if (e.kind != Expr::Kind::Binary) return;
  if (e.text == "&&") {
    apply_fact(m, eval, e.lhs, syms, bounds);
    apply_fact(m, eval, e.rhs, syms, bounds);
    return;
  }
  auto symbol_index = [&](ExprId x) -> int {
    if (x == kNone) return -1;
    const Expr& n = m.exprs[x];
    if (n.kind != Expr::Kind::Name) return -1;
    auto it = std::find(syms.begin(), syms.end(), n.symbol);
    return it == syms.end() ? -1 : int(it - syms.begin());
  };
  // S % d == 0
  if (e.text == "==" && e.lhs != kNone && m.exprs[e.lhs].kind == Expr::Kind::Binary && m.exprs[e.lhs].text == "%") {
    const Expr& mod = m.exprs[e.lhs];
    int i = symbol_index(mod.lhs);
    auto d = eval.fold(mod.rhs);
    auto zero = eval.fold(e.rhs);
    if (i >= 0 && d && *d > 0 && *d <= (int64_t(1) << 20) && zero && *zero == 0) {
      int64_t l = std::lcm(bounds[i].div, *d);
      if (l <= (int64_t(1) << 30)) bounds[i].div = l;
    }
    return;
  }
  int li = symbol_index(e.lhs), ri = symbol_index(e.rhs);
  std::string_view op = e.text;
  std::optional<int64_t> c;
  int i = -1;
  if (li >= 0 && ri < 0) i = li, c = eval.fold(e.rhs);
  else if (ri >= 0 && li < 0) {
    i = ri, c = eval.fold(e.lhs);
    // Mirror `c op S` into `S op' c`.
    if (op == "<") op = ">";
    else if (op == "<=") op = ">=";
    else if (op == ">") op = "<";
    else if (op == ">=") op = "<=";
  }
  if (i < 0 || !c) return;
  Bounds& b = bounds[i];
  // Sizes are sampled in [1, 2^40]: beyond that nothing fits a GPU, and the
  // arithmetic of the checks stays far from overflow.
  constexpr int64_t kMax = int64_t(1) << 40;
  int64_t v = std::clamp<int64_t>(*c, -kMax, kMax);
  if (op == ">=") b.lo = std::max(b.lo, v);
  else if (op == ">") b.lo = std::max(b.lo, v + 1);
  else if (op == "<=") b.hi = std::min(b.hi, v);
  else if (op == "<") b.hi = std::min(b.hi, v - 1);
  else if (op == "==") b.lo = b.hi = v;
}

}  // namespace

bool facts_hold(const Module& m, const Evaluator& eval, const Kernel& k, const Env& env) {
  for (ExprId f : k.facts) {
    auto v = eval.eval(f, &env);
    if (v && *v == 0) return false;
  }
  return true;
}

std::vector<Env> shape_samples(const Module& m, const Evaluator& eval, uint32_t kernel) {
  const Kernel& k = m.kernels[kernel];
  std::vector<SymbolId> syms = k.shape_symbols;
  std::vector<Env> out;
  // Bench shapes first: they are what the user runs.
  for (const Bench& b : m.benches) {
    if (b.kernel_symbol == kNone || m.symbols[b.kernel_symbol].kernel != kernel) continue;
    Env env;
    for (const BenchBinding& bb : b.bindings)
      if (bb.symbol != kNone)
        if (auto v = eval.fold(bb.value)) env.values[bb.symbol] = *v;
    if (env.values.size() == syms.size() && facts_hold(m, eval, k, env)) out.push_back(std::move(env));
  }
  if (syms.empty()) {
    if (out.empty()) out.emplace_back();
    return out;
  }
  for (int pick = 0; pick < 3; ++pick)
    if (auto env = bounded_shape(m, eval, kernel, pick)) out.push_back(std::move(*env));
  // Symbols apart: each in turn at its second-smallest value, the others at
  // their smallest, so an index that takes one symbol's range for another's
  // (M indexed by the N-grid) is out of bounds somewhere even when every
  // bench has M = N (facts that tie them, `M == N`, drop these).
  if (syms.size() > 1) {
    std::optional<Env> low = bounded_shape(m, eval, kernel, 0), next = bounded_shape(m, eval, kernel, 1);
    if (low && next)
      for (SymbolId s : syms) {
        if (next->values[s] == low->values[s]) continue;
        Env env = *low;
        env.values[s] = next->values[s];
        if (facts_hold(m, eval, k, env)) out.push_back(std::move(env));
      }
  }
  return out;
}

std::optional<Env> bounded_shape(const Module& m, const Evaluator& eval, uint32_t kernel, int pick) {
  const Kernel& k = m.kernels[kernel];
  std::vector<SymbolId> syms = k.shape_symbols;
  std::vector<Bounds> bounds(syms.size());
  for (ExprId f : k.facts) apply_fact(m, eval, f, syms, bounds);
  Env env;
  for (size_t i = 0; i < syms.size(); ++i) {
    const Bounds& b = bounds[i];
    int64_t first = (b.lo + b.div - 1) / b.div * b.div;
    if (first < b.div) first = b.div;
    int64_t last = b.hi / b.div * b.div;
    if (first > last) return std::nullopt;
    env.values[syms[i]] = pick == 0 ? first : pick == 1 ? std::min(first + b.div, last) : last;
  }
  if (!facts_hold(m, eval, k, env)) return std::nullopt;
  return env;
}

std::string describe(const Module& m, const Env& env, const std::vector<SymbolId>& symbols) {
  std::string s;
  for (SymbolId id : symbols) {
    auto it = env.values.find(id);
    if (it == env.values.end()) continue;
    if (!s.empty()) s += ", ";
    s += std::string(m.symbols[id].name) + " = " + std::to_string(it->second);
  }
  return s;
}

}  // namespace cake
