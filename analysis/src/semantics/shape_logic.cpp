// The shape-fact decision procedure; see shape_logic.h for the method.
#include "cake/shape_logic.h"

#include <algorithm>
#include <numeric>
#include <string_view>

namespace cake::logic {
namespace {

using Wide = __int128;

constexpr int kMaxFormulaDepth = 64;
constexpr int kMaxSearchDepth = 512;

Rel negate(Rel r) {
  switch (r) {
    case Rel::Lt: return Rel::Ge;
    case Rel::Le: return Rel::Gt;
    case Rel::Gt: return Rel::Le;
    case Rel::Ge: return Rel::Lt;
    case Rel::Eq: return Rel::Ne;
    case Rel::Ne: return Rel::Eq;
  }
  return r;
}

/// `a rel b` read as `b rel' a`.
Rel mirror(Rel r) {
  switch (r) {
    case Rel::Lt: return Rel::Gt;
    case Rel::Le: return Rel::Ge;
    case Rel::Gt: return Rel::Lt;
    case Rel::Ge: return Rel::Le;
    case Rel::Eq: return Rel::Eq;
    case Rel::Ne: return Rel::Ne;
  }
  return r;
}

bool holds(Rel r, Wide a, Wide b) {
  switch (r) {
    case Rel::Lt: return a < b;
    case Rel::Le: return a <= b;
    case Rel::Gt: return a > b;
    case Rel::Ge: return a >= b;
    case Rel::Eq: return a == b;
    case Rel::Ne: return a != b;
  }
  return false;
}

Wide gcd_wide(Wide a, Wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Wide mod_floor(Wide a, Wide m) {
  Wide r = a % m;
  return r < 0 ? r + m : r;
}

/// The inverse of a modulo m (gcd(a, m) == 1, m >= 1).
Wide inverse(Wide a, Wide m) {
  Wide old_r = mod_floor(a, m), r = m, old_s = 1, s = 0;
  while (r != 0) {
    Wide q = old_r / r;
    Wide t = old_r - q * r;
    old_r = r;
    r = t;
    t = old_s - q * s;
    old_s = s;
    s = t;
  }
  return mod_floor(old_s, m);
}

Formula nnf(const Formula& f, bool negated) {
  switch (f.kind) {
    case Formula::Kind::True: return Formula::truth(!negated);
    case Formula::Kind::False: return Formula::truth(negated);
    case Formula::Kind::Atom: {
      Atom a = f.atom;
      if (negated) a.rel = negate(a.rel);
      return Formula::of(a);
    }
    case Formula::Kind::Not: return f.children.empty() ? Formula::truth(negated) : nnf(f.children[0], !negated);
    case Formula::Kind::And:
    case Formula::Kind::Or: {
      std::vector<Formula> children;
      children.reserve(f.children.size());
      for (const Formula& c : f.children) children.push_back(nnf(c, negated));
      bool conjunction = (f.kind == Formula::Kind::And) != negated;
      return conjunction ? Formula::all(std::move(children)) : Formula::any(std::move(children));
    }
  }
  return Formula::truth(true);
}

// Section - One symbol's values

/// What the atoms of a conjunction say about one (merged) symbol.
struct Unary {
  Wide lo = 1, hi = kMaxValue;
  std::vector<std::pair<int64_t, int64_t>> required;   // value % modulus == residue
  std::vector<std::pair<int64_t, int64_t>> forbidden;  // value % modulus != residue
  std::vector<int64_t> excluded;                       // value != point
  // The required residues combined: value % step == base.
  Wide base = 0, step = 1;

  void merge(const Unary& o) {
    lo = std::max(lo, o.lo);
    hi = std::min(hi, o.hi);
    required.insert(required.end(), o.required.begin(), o.required.end());
    forbidden.insert(forbidden.end(), o.forbidden.begin(), o.forbidden.end());
    excluded.insert(excluded.end(), o.excluded.begin(), o.excluded.end());
  }
};

enum class Found : uint8_t { Value, None, Unknown };

/// Combines the required residues into `base`/`step` (Chinese remainder
/// theorem). None: they contradict each other; Unknown: the combined
/// modulus exceeds the value range's arithmetic.
Found combine(Unary& u) {
  u.base = 0;
  u.step = 1;
  for (auto [m, r] : u.required) {
    Wide g = gcd_wide(u.step, m);
    if (mod_floor(Wide(r) - u.base, g) != 0) return Found::None;
    Wide l = u.step / g * m;
    if (l > Wide(kMaxValue)) return Found::Unknown;
    // base + step * t == r (mod m)  =>  t == (r - base) / g * inv(step / g) (mod m / g)
    Wide mg = m / g;
    Wide t = mg == 1 ? 0 : mod_floor((Wide(r) - u.base) / g % mg * inverse(u.step / g % mg, mg), mg);
    u.base = mod_floor(u.base + u.step * t, l);
    u.step = l;
  }
  return Found::Value;
}

/// The least value >= from that `u` allows (after combine()). `spend` is
/// called once per 1024 values tried; false stops the search.
template <typename Spend>
Found least_value(const Unary& u, Wide from, const Limits& limits, Spend&& spend, Wide& out) {
  Wide x0 = std::max(from, u.lo);
  if (x0 > u.hi) return Found::None;
  Wide first = x0 + mod_floor(u.base - x0, u.step);
  if (first > u.hi) return Found::None;
  // Along first + k * step the forbidden residues repeat with this period.
  Wide period = 1;
  for (auto [m, r] : u.forbidden) {
    Wide p = Wide(m) / gcd_wide(u.step, m);
    period = period / gcd_wide(period, p) * p;
    if (period > Wide(limits.max_steps) + 1) break;
  }
  Wide steps = period * Wide(u.excluded.size() + 1);
  Wide in_range = (u.hi - first) / u.step + 1;
  if (in_range < steps) steps = in_range;
  Wide tried = std::min(steps, Wide(limits.max_steps));
  for (Wide k = 0; k < tried; ++k) {
    if ((k & 1023) == 1023 && !spend()) return Found::Unknown;
    Wide x = first + k * u.step;
    bool ok = std::none_of(u.forbidden.begin(), u.forbidden.end(),
                           [&](const std::pair<int64_t, int64_t>& f) { return mod_floor(x, f.first) == f.second; }) &&
              std::find(u.excluded.begin(), u.excluded.end(), x) == u.excluded.end();
    if (ok) {
      out = x;
      return Found::Value;
    }
  }
  // Either the range is exhausted or (excluded + 1) whole periods held no
  // allowed value: none exists. Short of that, the search gave up.
  return tried == steps ? Found::None : Found::Unknown;
}

// Section - Conjunctions and the search

class Solver {
 public:
  Solver(uint32_t var_count, const Limits& limits) : n_(var_count), limits_(limits) {}

  /// Splits the top-level conjunction into parts over disjoint sets of
  /// symbols and decides each part alone: the whole is satisfiable when
  /// every part is, and branching in one part never multiplies another's.
  Result run(const Formula& f) {
    std::vector<const Formula*> items;
    std::vector<const Formula*> todo{&f};
    while (!todo.empty()) {
      const Formula* x = todo.back();
      todo.pop_back();
      if (x->kind == Formula::Kind::And)
        for (auto it = x->children.rbegin(); it != x->children.rend(); ++it) todo.push_back(&*it);
      else
        items.push_back(x);
    }
    std::vector<uint32_t> parent(n_ + 1);
    std::iota(parent.begin(), parent.end(), 0u);
    const uint32_t none = n_;  // the part of items with no symbol
    std::vector<uint32_t> first_var(items.size(), none);
    for (size_t i = 0; i < items.size(); ++i) {
      std::vector<const Formula*> walk{items[i]};
      while (!walk.empty()) {
        const Formula* x = walk.back();
        walk.pop_back();
        for (const Formula& c : x->children) walk.push_back(&c);
        if (x->kind != Formula::Kind::Atom) continue;
        for (uint32_t v : {x->atom.var, x->atom.kind == Atom::Kind::Order ? x->atom.other : x->atom.var}) {
          if (v >= n_) continue;  // decide() answers Unknown for it
          if (first_var[i] == none) first_var[i] = v;
          else parent[find(parent, v)] = find(parent, first_var[i]);
        }
      }
    }
    std::vector<std::vector<const Formula*>> parts;
    std::vector<uint32_t> part_root;
    for (size_t i = 0; i < items.size(); ++i) {
      uint32_t root = first_var[i] == none ? none : find(parent, first_var[i]);
      auto it = std::find(part_root.begin(), part_root.end(), root);
      if (it == part_root.end()) {
        part_root.push_back(root);
        parts.emplace_back();
        it = part_root.end() - 1;
      }
      parts[size_t(it - part_root.begin())].push_back(items[i]);
    }
    Result r;
    r.values.assign(n_, 1);
    r.constrained.assign(n_, false);
    bool unknown = false;
    for (std::vector<const Formula*>& part : parts) {
      Verdict v = search(std::move(part), {}, {}, 0);
      if (v == Verdict::Unsat) return Result{Verdict::Unsat, {}, {}};
      if (v == Verdict::Unknown) {
        unknown = true;
        continue;
      }
      for (uint32_t x = 0; x < n_ && x < constrained_.size(); ++x)
        if (constrained_[x]) r.values[x] = values_[x], r.constrained[x] = true;
    }
    if (unknown) return Result{Verdict::Unknown, {}, {}};
    r.verdict = Verdict::Sat;
    return r;
  }

 private:
  /// One unit of work (a branch, a decision); false when the limits are spent.
  bool spend() {
    if (++work_ > limits_.max_work) return false;
    if (limits_.budget) {
      if (*limits_.budget <= 0) return false;
      --*limits_.budget;
    }
    return true;
  }

  /// Collects the atoms of `todo`, then branches on the first pending
  /// disjunction; a branch whose atoms already contradict is pruned.
  Verdict search(std::vector<const Formula*> todo, std::vector<const Formula*> ors, std::vector<Atom> atoms,
                 int depth) {
    if (depth > kMaxSearchDepth) return Verdict::Unknown;
    while (!todo.empty()) {
      const Formula* f = todo.back();
      todo.pop_back();
      switch (f->kind) {
        case Formula::Kind::True: break;
        case Formula::Kind::False: return Verdict::Unsat;
        case Formula::Kind::Not: return Verdict::Unknown;  // not produced by nnf()
        case Formula::Kind::Atom: atoms.push_back(f->atom); break;
        case Formula::Kind::And:
          for (auto it = f->children.rbegin(); it != f->children.rend(); ++it) todo.push_back(&*it);
          break;
        case Formula::Kind::Or: ors.push_back(f); break;
      }
    }
    if (ors.empty()) return conjunction(atoms, true);
    // Pruning drops `S != T` (no splits): if even that is unsatisfiable,
    // so is the branch.
    std::vector<Atom> relaxed;
    for (const Atom& a : atoms)
      if (a.kind != Atom::Kind::Order || a.rel != Rel::Ne) relaxed.push_back(a);
    if (decide(relaxed, false) == Verdict::Unsat) return Verdict::Unsat;
    const Formula* f = ors.front();
    ors.erase(ors.begin());
    bool unknown = false;
    for (const Formula& c : f->children) {
      if (!spend()) return Verdict::Unknown;
      Verdict v = search({&c}, ors, atoms, depth + 1);
      if (v == Verdict::Sat) return v;
      if (v == Verdict::Unknown) unknown = true;
    }
    return unknown ? Verdict::Unknown : Verdict::Unsat;
  }

  /// Splits each `S != T` into `S < T` or `S > T`, then decides.
  Verdict conjunction(std::vector<Atom> atoms, bool keep_witness) {
    auto split = std::find_if(atoms.begin(), atoms.end(), [](const Atom& a) {
      return a.kind == Atom::Kind::Order && a.rel == Rel::Ne;
    });
    if (split == atoms.end()) return decide(atoms, keep_witness);
    bool unknown = false;
    for (Rel r : {Rel::Lt, Rel::Gt}) {
      if (!spend()) return Verdict::Unknown;
      split->rel = r;
      Verdict v = conjunction(atoms, keep_witness);
      if (v == Verdict::Sat) return v;
      if (v == Verdict::Unknown) unknown = true;
    }
    return unknown ? Verdict::Unknown : Verdict::Unsat;
  }

  uint32_t find(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }

  /// Decides a conjunction without `S != T` atoms; see the header.
  Verdict decide(const std::vector<Atom>& atoms, bool keep_witness) {
    if (!spend()) return Verdict::Unknown;
    for (const Atom& a : atoms)
      if (a.var >= n_ || (a.kind == Atom::Kind::Order && a.other >= n_)) return Verdict::Unknown;
    std::vector<uint32_t> parent(n_);
    std::iota(parent.begin(), parent.end(), 0u);
    for (const Atom& a : atoms)
      if (a.kind == Atom::Kind::Order && a.rel == Rel::Eq) parent[find(parent, a.var)] = find(parent, a.other);

    // Order edges `from < to` (strict) or `from <= to` between classes.
    struct Edge { uint32_t from, to; bool strict; };
    std::vector<Edge> edges;
    for (const Atom& a : atoms) {
      if (a.kind != Atom::Kind::Order || a.rel == Rel::Eq) continue;
      uint32_t x = a.var, y = a.other;
      bool strict = a.rel == Rel::Lt || a.rel == Rel::Gt;
      if (a.rel == Rel::Gt || a.rel == Rel::Ge) std::swap(x, y);
      edges.push_back({x, y, strict});
    }
    // Cycles of `<=` merge their classes; a cycle through `<` cannot hold.
    if (!edges.empty()) {
      std::vector<uint32_t> nodes;
      for (const Edge& e : edges)
        for (uint32_t v : {find(parent, e.from), find(parent, e.to)})
          if (std::find(nodes.begin(), nodes.end(), v) == nodes.end()) nodes.push_back(v);
      if (nodes.size() > limits_.max_vars) return Verdict::Unknown;
      size_t k = nodes.size();
      auto index = [&](uint32_t v) { return size_t(std::find(nodes.begin(), nodes.end(), find(parent, v)) - nodes.begin()); };
      std::vector<char> reach(k * k, 0);
      for (size_t i = 0; i < k; ++i) reach[i * k + i] = 1;
      for (const Edge& e : edges) reach[index(e.from) * k + index(e.to)] = 1;
      for (size_t via = 0; via < k; ++via)
        for (size_t i = 0; i < k; ++i)
          if (reach[i * k + via])
            for (size_t j = 0; j < k; ++j)
              if (reach[via * k + j]) reach[i * k + j] = 1;
      for (const Edge& e : edges) {
        size_t i = index(e.from), j = index(e.to);
        if (e.strict && reach[j * k + i]) return Verdict::Unsat;
      }
      std::vector<uint32_t> roots(nodes);
      for (size_t i = 0; i < k; ++i)
        for (size_t j = 0; j < i; ++j)
          if (reach[i * k + j] && reach[j * k + i]) parent[find(parent, roots[i])] = find(parent, roots[j]);
    }

    std::vector<Unary> unary(n_);
    for (const Atom& a : atoms) {
      Unary& u = unary[find(parent, a.var)];
      switch (a.kind) {
        case Atom::Kind::Order: break;
        case Atom::Kind::Modulo:
          (a.rel == Rel::Eq ? u.required : u.forbidden).push_back({a.modulus, a.value});
          break;
        case Atom::Kind::Bound: {
          Wide c = a.value;
          switch (a.rel) {
            case Rel::Lt: u.hi = std::min(u.hi, c - 1); break;
            case Rel::Le: u.hi = std::min(u.hi, c); break;
            case Rel::Gt: u.lo = std::max(u.lo, c + 1); break;
            case Rel::Ge: u.lo = std::max(u.lo, c); break;
            case Rel::Eq: u.lo = std::max(u.lo, c), u.hi = std::min(u.hi, c); break;
            case Rel::Ne: u.excluded.push_back(a.value); break;
          }
          break;
        }
      }
    }
    // Fold merged symbols' constraints into their class root.
    for (uint32_t v = 0; v < n_; ++v) {
      uint32_t r = find(parent, v);
      if (r != v) {
        unary[r].merge(unary[v]);
        unary[v] = Unary{};
      }
    }
    bool unknown = false;
    for (uint32_t v = 0; v < n_; ++v) {
      if (find(parent, v) != v) continue;
      Found f = combine(unary[v]);
      if (f == Found::None) return Verdict::Unsat;
      if (f == Found::Unknown) unknown = true;
    }
    if (unknown) return Verdict::Unknown;

    // Least values in topological order of the class DAG.
    std::vector<Edge> dag;
    for (const Edge& e : edges) {
      uint32_t from = find(parent, e.from), to = find(parent, e.to);
      if (from != to) dag.push_back({from, to, e.strict});  // a `<=` inside a merged cycle holds
    }
    std::vector<uint32_t> pending(n_, 0);
    for (const Edge& e : dag) ++pending[e.to];
    std::vector<Wide> need(n_, 1), value(n_, 0);
    std::vector<uint32_t> ready;
    for (uint32_t v = 0; v < n_; ++v)
      if (find(parent, v) == v && pending[v] == 0) ready.push_back(v);
    size_t done = 0;
    while (!ready.empty()) {
      uint32_t v = ready.back();
      ready.pop_back();
      ++done;
      Wide x = 0;
      Found f = least_value(unary[v], need[v], limits_, [this] { return spend(); }, x);
      if (f == Found::None) return Verdict::Unsat;
      if (f == Found::Unknown) return Verdict::Unknown;
      value[v] = x;
      for (const Edge& e : dag) {
        if (e.from != v) continue;
        need[e.to] = std::max(need[e.to], x + (e.strict ? 1 : 0));
        if (--pending[e.to] == 0) ready.push_back(e.to);
      }
    }
    size_t classes = 0;
    for (uint32_t v = 0; v < n_; ++v) classes += find(parent, v) == v;
    if (done != classes) return Verdict::Unknown;  // a cycle left: cannot happen after merging

    if (keep_witness) {
      values_.assign(n_, 1);
      constrained_.assign(n_, false);
      for (uint32_t v = 0; v < n_; ++v) values_[v] = static_cast<int64_t>(value[find(parent, v)]);
      for (const Atom& a : atoms) {
        constrained_[a.var] = true;
        if (a.kind == Atom::Kind::Order) constrained_[a.other] = true;
      }
    }
    return Verdict::Sat;
  }

  uint32_t n_;
  Limits limits_;
  int64_t work_ = 0;
  std::vector<int64_t> values_;
  std::vector<bool> constrained_;
};

// Section - Reading model expressions

std::optional<Rel> relation(std::string_view op) {
  if (op == "<") return Rel::Lt;
  if (op == "<=") return Rel::Le;
  if (op == ">") return Rel::Gt;
  if (op == ">=") return Rel::Ge;
  if (op == "==") return Rel::Eq;
  if (op == "!=") return Rel::Ne;
  return std::nullopt;
}

class Reader {
 public:
  Reader(const Module& m, const Evaluator& eval, const std::unordered_map<SymbolId, uint32_t>& vars)
      : m_(m), eval_(eval), vars_(vars) {}

  std::optional<Formula> read(ExprId id, int depth) {
    if (id == kNone || id >= m_.exprs.size() || depth > kMaxFormulaDepth) return std::nullopt;
    const Expr& e = m_.exprs[id];
    if (e.kind == Expr::Kind::Bool) return Formula::truth(e.int_value != 0);
    if (e.kind == Expr::Kind::Unary && e.text == "!") {
      auto inner = read(e.lhs, depth + 1);
      if (!inner) return std::nullopt;
      return Formula::negation(std::move(*inner));
    }
    if (e.kind == Expr::Kind::Binary && (e.text == "&&" || e.text == "||")) {
      auto l = read(e.lhs, depth + 1);
      if (!l) return std::nullopt;
      auto r = read(e.rhs, depth + 1);
      if (!r) return std::nullopt;
      std::vector<Formula> both;
      both.push_back(std::move(*l));
      both.push_back(std::move(*r));
      return e.text == "&&" ? Formula::all(std::move(both)) : Formula::any(std::move(both));
    }
    if (e.kind == Expr::Kind::Binary)
      if (auto rel = relation(e.text)) return compare(id, e, *rel);
    if (mentions_symbol(id)) return std::nullopt;
    if (auto v = eval_.fold(id)) return Formula::truth(*v != 0);
    return std::nullopt;
  }

 private:
  /// The variable of a Name of a shape symbol; `missing` when it names one
  /// that has no variable.
  std::optional<uint32_t> var_of(ExprId id, bool& missing) const {
    if (id == kNone) return std::nullopt;
    const Expr& e = m_.exprs[id];
    if (e.kind != Expr::Kind::Name || e.symbol == kNone) return std::nullopt;
    if (m_.symbols[e.symbol].kind != SymbolKind::ShapeSymbol) return std::nullopt;
    auto it = vars_.find(e.symbol);
    if (it == vars_.end()) {
      missing = true;
      return std::nullopt;
    }
    return it->second;
  }

  bool mentions_symbol(ExprId id) const {
    std::vector<SymbolId> syms;
    eval_.free_symbols(id, syms);
    return std::any_of(syms.begin(), syms.end(), [&](SymbolId s) {
      SymbolKind k = m_.symbols[s].kind;
      return k != SymbolKind::Const;
    });
  }

  std::optional<int64_t> constant(ExprId id) const {
    if (id == kNone || mentions_symbol(id)) return std::nullopt;
    return eval_.fold(id);
  }

  std::optional<Formula> compare(ExprId id, const Expr& e, Rel rel) {
    bool missing = false;
    auto lv = var_of(e.lhs, missing), rv = var_of(e.rhs, missing);
    if (missing) return std::nullopt;
    if (lv && rv) return order(*lv, rel, *rv);
    if (lv)
      if (auto c = constant(e.rhs)) return bound(*lv, rel, *c);
    if (rv)
      if (auto c = constant(e.lhs)) return bound(*rv, mirror(rel), *c);
    if (lv || rv) return std::nullopt;
    // S % d == r, r == S % d (and !=).
    if (rel == Rel::Eq || rel == Rel::Ne) {
      for (auto [mod_side, other] : {std::pair{e.lhs, e.rhs}, std::pair{e.rhs, e.lhs}}) {
        if (mod_side == kNone) continue;
        const Expr& mod = m_.exprs[mod_side];
        if (mod.kind != Expr::Kind::Binary || mod.text != "%") continue;
        auto v = var_of(mod.lhs, missing);
        if (missing || !v) return std::nullopt;
        auto d = constant(mod.rhs);
        auto r = constant(other);
        if (!d || !r) return std::nullopt;
        return modulo(*v, *d, rel, *r);
      }
    }
    if (auto c = constant(id)) return Formula::truth(*c != 0);
    return std::nullopt;
  }

  const Module& m_;
  const Evaluator& eval_;
  const std::unordered_map<SymbolId, uint32_t>& vars_;
};

}  // namespace

// Section - Formulas

Formula Formula::truth(bool value) {
  Formula f;
  f.kind = value ? Kind::True : Kind::False;
  return f;
}

Formula Formula::of(const Atom& atom) {
  Formula f;
  f.kind = Kind::Atom;
  f.atom = atom;
  return f;
}

Formula Formula::all(std::vector<Formula> children) {
  std::vector<Formula> kept;
  for (Formula& c : children) {
    if (c.kind == Kind::True) continue;
    if (c.kind == Kind::False) return truth(false);
    if (c.kind == Kind::And) {
      for (Formula& g : c.children) kept.push_back(std::move(g));
      continue;
    }
    kept.push_back(std::move(c));
  }
  if (kept.empty()) return truth(true);
  if (kept.size() == 1) return std::move(kept[0]);
  Formula f;
  f.kind = Kind::And;
  f.children = std::move(kept);
  return f;
}

Formula Formula::any(std::vector<Formula> children) {
  std::vector<Formula> kept;
  for (Formula& c : children) {
    if (c.kind == Kind::False) continue;
    if (c.kind == Kind::True) return truth(true);
    if (c.kind == Kind::Or) {
      for (Formula& g : c.children) kept.push_back(std::move(g));
      continue;
    }
    kept.push_back(std::move(c));
  }
  if (kept.empty()) return truth(false);
  if (kept.size() == 1) return std::move(kept[0]);
  Formula f;
  f.kind = Kind::Or;
  f.children = std::move(kept);
  return f;
}

Formula Formula::negation(Formula child) {
  if (child.kind == Kind::True) return truth(false);
  if (child.kind == Kind::False) return truth(true);
  if (child.kind == Kind::Not && !child.children.empty()) return std::move(child.children[0]);
  Formula f;
  f.kind = Kind::Not;
  f.children.push_back(std::move(child));
  return f;
}

Formula bound(uint32_t var, Rel rel, int64_t value) {
  Atom a;
  a.kind = Atom::Kind::Bound;
  a.var = var;
  a.rel = rel;
  a.value = value;
  return Formula::of(a);
}

std::optional<Formula> modulo(uint32_t var, int64_t modulus, Rel rel, int64_t residue) {
  if (modulus <= 0 || (rel != Rel::Eq && rel != Rel::Ne)) return std::nullopt;
  // Values are positive, so `S % d` lies in [0, d).
  if (residue < 0 || residue >= modulus) return Formula::truth(rel == Rel::Ne);
  if (modulus == 1) return Formula::truth(rel == Rel::Eq);
  Atom a;
  a.kind = Atom::Kind::Modulo;
  a.var = var;
  a.rel = rel;
  a.modulus = modulus;
  a.value = residue;
  return Formula::of(a);
}

Formula order(uint32_t var, Rel rel, uint32_t other) {
  if (var == other) return Formula::truth(holds(rel, 0, 0));
  Atom a;
  a.kind = Atom::Kind::Order;
  a.var = var;
  a.other = other;
  a.rel = rel;
  return Formula::of(a);
}

Result solve(const Formula& formula, uint32_t var_count, const Limits& limits) {
  Formula normal = nnf(formula, false);
  return Solver(var_count, limits).run(normal);
}

std::optional<Formula> to_formula(const Module& module, const Evaluator& eval, ExprId expr,
                                  const std::unordered_map<SymbolId, uint32_t>& vars) {
  return Reader(module, eval, vars).read(expr, 0);
}

}  // namespace cake::logic
