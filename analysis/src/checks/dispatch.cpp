// The dispatch checks (E0120-E0123), decided exactly in the shape logic of
// cake/shape_logic.h:
//   - E0123: every case kernel takes the dispatch's parameters: the same
//     count and names and, position by position, the same kinds, dtypes,
//     ranks and constant dims; and a shape symbol's name means one dim in
//     every case kernel (a guard's name resolves to one of them).
//   - E0121: a case no shape reaches: its guard never holds, or the earlier
//     cases take every shape it admits. Fix: remove the case.
//   - E0120: a case whose kernel rejects a shape it admits: its guard, with
//     every earlier guard false, does not imply each requirement of the
//     kernel, that is its `where` facts and what its parameter shapes fix (a
//     constant dim where another case kernel has a symbol, a symbol repeated
//     at two dims). The report gives a concrete shape.
//   - E0122: without `else`, a shape that no case takes.
// A shape is the dims of the dispatch's arguments: one variable per
// (parameter, dim) position at which some case kernel has a shape symbol;
// every shape symbol, in a guard or a fact, stands for its first position in
// its kernel. Where a guard or fact falls outside the logic, or the search
// gives up, the check says nothing rather than guess.
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/eval.h"
#include "cake/shape_logic.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace cake {
namespace {

using logic::Formula;
using logic::Rel;
using logic::Verdict;

std::string quoted(std::string_view s) { return "`" + std::string(s) + "`"; }

/// A dim of a tensor parameter: a shape symbol, a constant, or neither.
struct Dim {
  enum class Kind : uint8_t { Symbol, Constant, Other } kind = Kind::Other;
  SymbolId symbol = kNone;
  int64_t value = 0;
  ByteRange range;
};

/// One thing a case kernel needs of the shapes it is given.
struct Requirement {
  std::optional<Formula> formula;  // nullopt: outside the logic
  ByteRange range;                 // the fact, or the dim
  std::string what;                // "`K <= 256`", "dim 2 of `X` = 64"
  std::string note;                // the related span's message
  ExprId fact = kNone;             // a `where` fact (a fix can add it to the guard)
};

class DispatchCheck {
 public:
  DispatchCheck(const Module& m, const Dispatch& d, std::vector<Diagnostic>& diags)
      : m_(m), d_(d), diags_(diags), eval_(m) {}

  void run() {
    cases_ok_.assign(d_.cases.size(), false);
    check_signatures();
    build_variables();
    check_cases();
  }

 private:
  // Section - Parameters (E0123)

  uint32_t kernel_of(const DispatchCase& c) const {
    if (c.kernel_symbol == kNone) return kNone;
    uint32_t k = m_.symbols[c.kernel_symbol].kernel;
    return k < m_.kernels.size() ? k : kNone;
  }

  std::string dispatch_name() const { return d_.symbol == kNone ? "this dispatch" : quoted(m_.symbols[d_.symbol].name); }

  Dim dim(ExprId e) const {
    Dim out;
    if (e == kNone) return out;
    const Expr& x = m_.exprs[e];
    out.range = x.range;
    if (x.kind == Expr::Kind::Name && x.symbol != kNone && m_.symbols[x.symbol].kind == SymbolKind::ShapeSymbol) {
      out.kind = Dim::Kind::Symbol;
      out.symbol = x.symbol;
    } else if (auto v = eval_.fold(e)) {
      out.kind = Dim::Kind::Constant;
      out.value = *v;
    }
    return out;
  }

  template <typename Rule, typename... Args>
  void signature_error(const DispatchCase& c, std::vector<RelatedSpan> related, Rule rule, Args&&... args) {
    Diagnostic d = make_diagnostic(rule, c.kernel_range, std::forward<Args>(args)...);
    d.related = std::move(related);
    diags_.push_back(std::move(d));
  }

  /// Count and names against the dispatch, kinds, dtypes, ranks and
  /// constant dims against the first case kernel that passes those.
  void check_signatures() {
    uint32_t ref = kNone;
    for (size_t i = 0; i < d_.cases.size(); ++i) {
      const DispatchCase& c = d_.cases[i];
      uint32_t k = kernel_of(c);
      if (k == kNone) continue;
      const Kernel& kernel = m_.kernels[k];
      std::string name = quoted(c.kernel);
      const Symbol& ksym = m_.symbols[kernel.symbol];
      if (kernel.params.size() != d_.params.size()) {
        signature_error(c, {{ksym.def, "kernel declared here"}}, DiagId::DispatchSignature, name,
                        kernel.params.size(), dispatch_name(), d_.params.size());
        continue;
      }
      if (std::find(participating_.begin(), participating_.end(), k) == participating_.end())
        participating_.push_back(k);  // in case order: the first case's kernel names dims first
      bool bad = false;
      for (size_t p = 0; p < d_.params.size() && !bad; ++p) {
        const Symbol& kp = m_.symbols[kernel.params[p]];
        const Symbol& dp = m_.symbols[d_.params[p]];
        if (kp.name == dp.name) continue;
        signature_error(c, {{kp.def, "the kernel's parameter"}, {dp.def, "the dispatch's parameter"}},
                        DiagForm::DispatchParamName, p + 1, name, kp.name, dispatch_name(), dp.name);
        bad = true;
      }
      if (bad) continue;
      if (ref == kNone || ref == k) {
        ref = k;
        cases_ok_[i] = true;
        continue;
      }
      const Kernel& rk = m_.kernels[ref];
      std::string rname = quoted(m_.symbols[rk.symbol].name);
      for (size_t p = 0; p < d_.params.size() && !bad; ++p) {
        const Symbol& a = m_.symbols[rk.params[p]];
        const Symbol& b = m_.symbols[kernel.params[p]];
        std::vector<RelatedSpan> related = {{b.decl, "in " + name}, {a.decl, "in " + rname}};
        auto fail = [&](DiagForm form, auto&&... args) {
          signature_error(c, related, form, args...);
          bad = true;
        };
        if (a.kind != b.kind) {
          auto what = [](const Symbol& s) { return s.kind == SymbolKind::ScalarParam ? "a scalar" : "a tensor"; };
          fail(DiagForm::DispatchParamDiffers, b.name, what(b), name, what(a), rname);
        } else if (a.type.dtype != b.type.dtype && a.type.dtype != DType::Unknown && b.type.dtype != DType::Unknown) {
          fail(DiagForm::DispatchParamDiffers, b.name, dtype_name(b.type.dtype), name, dtype_name(a.type.dtype), rname);
        } else if (a.kind == SymbolKind::TensorParam && a.type.dims.size() != b.type.dims.size()) {
          fail(DiagForm::DispatchParamRank, b.name, b.type.dims.size(), name, a.type.dims.size(), rname);
        } else if (a.kind == SymbolKind::TensorParam) {
          for (size_t j = 0; j < a.type.dims.size() && !bad; ++j) {
            Dim x = dim(a.type.dims[j]), y = dim(b.type.dims[j]);
            if (x.kind == Dim::Kind::Constant && y.kind == Dim::Kind::Constant && x.value != y.value) {
              related = {{y.range, "in " + name}, {x.range, "in " + rname}};
              fail(DiagForm::DispatchDim, j + 1, b.name, y.value, name, x.value, rname);
            }
          }
        }
      }
      cases_ok_[i] = !bad;
    }
  }

  // Section - Variables and requirements

  std::string position_text(uint32_t p, uint32_t j) const {
    return "dim " + std::to_string(j + 1) + " of " + quoted(m_.symbols[d_.params[p]].name);
  }

  /// What kernel `k` has at a position: a symbol, a constant, or neither.
  struct Key {
    Dim::Kind kind = Dim::Kind::Other;
    uint64_t value = 0;  // the symbol, or the constant
    bool operator==(const Key&) const = default;
  };

  Dim dim_at(uint32_t k, std::pair<uint32_t, uint32_t> pos) const {
    const Kernel& kernel = m_.kernels[k];
    if (pos.first >= kernel.params.size()) return {};
    const Symbol& param = m_.symbols[kernel.params[pos.first]];
    if (param.kind != SymbolKind::TensorParam || pos.second >= param.type.dims.size()) return {};
    return dim(param.type.dims[pos.second]);
  }

  /// Positions are grouped when every case kernel has the same symbol (or
  /// the same constant) at both: `X: [N, 64]` and `out: [N]` in every kernel
  /// are one dim of the dispatch, which callers keep equal. Each group with
  /// a symbol somewhere is a variable. A kernel's requirements are its facts,
  /// its constants at variable positions, and its symbols repeated across
  /// groups (equalities the other kernels do not share).
  void build_variables() {
    std::vector<std::pair<uint32_t, uint32_t>> positions;
    for (uint32_t k : participating_) {
      const Kernel& kernel = m_.kernels[k];
      for (uint32_t p = 0; p < kernel.params.size(); ++p) {
        const Symbol& param = m_.symbols[kernel.params[p]];
        if (param.kind != SymbolKind::TensorParam) continue;
        for (uint32_t j = 0; j < param.type.dims.size(); ++j)
          if (std::find(positions.begin(), positions.end(), std::pair{p, j}) == positions.end())
            positions.push_back({p, j});
      }
    }
    std::sort(positions.begin(), positions.end());
    // Group positions by their keys in every kernel; Other never groups.
    std::vector<std::vector<Key>> keys;
    std::vector<int> group_of(positions.size(), -1);
    std::vector<std::vector<size_t>> groups;
    for (size_t i = 0; i < positions.size(); ++i) {
      std::vector<Key> key;
      bool groupable = true, has_symbol = false;
      for (uint32_t k : participating_) {
        Dim x = dim_at(k, positions[i]);
        if (x.kind == Dim::Kind::Other) groupable = false;
        has_symbol = has_symbol || x.kind == Dim::Kind::Symbol;
        key.push_back({x.kind, x.kind == Dim::Kind::Symbol ? uint64_t(x.symbol) : uint64_t(x.value)});
      }
      if (!has_symbol) continue;  // constant in every kernel: not a variable
      for (size_t g = 0; g < groups.size() && groupable; ++g)
        if (keys[g] == key) {
          group_of[i] = int(g);
          groups[g].push_back(i);
          break;
        }
      if (group_of[i] < 0) {
        group_of[i] = int(groups.size());
        groups.push_back({i});
        keys.push_back(groupable ? key : std::vector<Key>{});
      }
    }
    // One variable per group, named by the first kernel (in case order)
    // whose symbol there is written there first; else by any symbol there.
    auto first_written = [&](uint32_t k, SymbolId sym, size_t at) {
      for (size_t i = 0; i < at; ++i) {
        Dim x = dim_at(k, positions[i]);
        if (x.kind == Dim::Kind::Symbol && x.symbol == sym) return false;
      }
      return true;
    };
    for (const std::vector<size_t>& g : groups) {
      std::string name, fallback;
      for (uint32_t k : participating_)
        for (size_t i : g) {
          Dim x = dim_at(k, positions[i]);
          if (x.kind != Dim::Kind::Symbol) continue;
          if (fallback.empty()) fallback = std::string(m_.symbols[x.symbol].name);
          if (name.empty() && first_written(k, x.symbol, i)) name = std::string(m_.symbols[x.symbol].name);
        }
      var_names_.push_back(name.empty() ? fallback : name);
      var_positions_.push_back(positions[g.front()]);
    }
    for (size_t v = 0; v < var_names_.size(); ++v) {
      if (std::count(var_names_.begin(), var_names_.end(), var_names_[v]) > 1)
        var_labels_.push_back(var_names_[v] + " (" + position_text(var_positions_[v].first, var_positions_[v].second) + ")");
      else
        var_labels_.push_back(var_names_[v]);
    }

    std::map<std::string_view, std::pair<uint32_t, uint32_t>> first_var;  // name -> (variable, kernel)
    for (uint32_t k : participating_) {
      const Kernel& kernel = m_.kernels[k];
      std::vector<Requirement>& reqs = requirements_[k];
      std::vector<bool> fixed(groups.size(), false);
      for (size_t i = 0; i < positions.size(); ++i) {
        auto [p, j] = positions[i];
        Dim x = dim_at(k, positions[i]);
        if (x.kind == Dim::Kind::Other) {
          // A missing dim is E0123's; an expression dim is outside the logic.
          opaque_.push_back(k);
          continue;
        }
        if (group_of[i] < 0) continue;
        uint32_t var = uint32_t(group_of[i]);
        if (x.kind == Dim::Kind::Constant) {
          if (fixed[var]) continue;
          fixed[var] = true;
          Requirement r;
          r.formula = logic::bound(var, Rel::Eq, x.value);
          r.range = x.range;
          r.what = position_text(p, j) + " = " + std::to_string(x.value);
          r.note = "the kernel fixes this dim";
          reqs.push_back(std::move(r));
          continue;
        }
        auto known = symbol_var_.find(x.symbol);
        if (known == symbol_var_.end()) {
          symbol_var_[x.symbol] = var;
          name_clash(k, m_.symbols[x.symbol].name, var, first_var);
          continue;
        }
        if (known->second == var) continue;
        Requirement r;
        r.formula = logic::order(var, Rel::Eq, known->second);
        r.range = x.range;
        r.what = position_text(p, j) + " = " + quoted(m_.symbols[x.symbol].name);
        r.note = "the kernel repeats " + quoted(m_.symbols[x.symbol].name) + " here";
        reqs.push_back(std::move(r));
      }
      for (ExprId f : kernel.facts) {
        Requirement r;
        r.formula = logic::to_formula(m_, eval_, f, symbol_var_);
        r.range = m_.exprs[f].range;
        r.what = quoted(m_.written(r.range));
        r.note = "fact declared here";
        r.fact = f;
        reqs.push_back(std::move(r));
      }
    }
  }

  /// A shape symbol name must mean the same dim in every case kernel, since
  /// a guard's use of the name resolves to one of them.
  void name_clash(uint32_t k, std::string_view name, uint32_t var,
                  std::map<std::string_view, std::pair<uint32_t, uint32_t>>& first) {
    auto [it, inserted] = first.try_emplace(name, var, k);
    if (inserted || it->second.first == var) return;
    const Kernel& a = m_.kernels[it->second.second];
    std::string aname = quoted(m_.symbols[a.symbol].name), kname = quoted(m_.symbols[m_.kernels[k].symbol].name);
    auto where = [&](uint32_t v) { return position_text(var_positions_[v].first, var_positions_[v].second); };
    for (size_t i = 0; i < d_.cases.size(); ++i) {
      if (kernel_of(d_.cases[i]) != k) continue;
      if (cases_ok_[i])
        signature_error(d_.cases[i], {{m_.symbols[a.symbol].def, "kernel declared here"}},
                        DiagForm::DispatchGuardDim, name, where(var), kname, where(it->second.first), aname);
      cases_ok_[i] = false;
    }
  }

  // Section - Cases (E0120, E0121, E0122)

  /// Decides `f`, from the dispatch's work budget: a pathological dispatch
  /// makes the checks fall silent (Unknown), never slow.
  logic::Result solve(const Formula& f) {
    logic::Limits limits;
    limits.budget = &budget_;
    return logic::solve(f, static_cast<uint32_t>(var_names_.size()), limits);
  }

  std::string describe(const logic::Result& r) const {
    std::string s;
    for (size_t v = 0; v < var_labels_.size(); ++v) {
      if (v >= r.constrained.size() || !r.constrained[v]) continue;
      if (!s.empty()) s += ", ";
      s += var_labels_[v] + " = " + std::to_string(r.values[v]);
    }
    return s;
  }

  ByteRange case_span(const DispatchCase& c) const {
    if (c.guard != kNone) return m_.exprs[c.guard].range;
    return {c.range.begin, std::min<uint32_t>(c.range.begin + 4, c.range.end)};  // `else`
  }

  void check_cases() {
    std::vector<std::optional<Formula>> guards;
    for (const DispatchCase& c : d_.cases)
      guards.push_back(c.guard == kNone ? std::optional<Formula>(Formula::truth(true))
                                        : logic::to_formula(m_, eval_, c.guard, symbol_var_));
    std::vector<Formula> earlier;  // every earlier guard, negated
    bool has_else = false;
    for (size_t i = 0; i < d_.cases.size(); ++i) {
      const DispatchCase& c = d_.cases[i];
      has_else = has_else || c.guard == kNone;
      if (!guards[i]) return;  // outside the logic: nothing after it is known
      std::vector<Formula> parts = earlier;
      parts.push_back(*guards[i]);
      Formula admitted = Formula::all(std::move(parts));
      logic::Result r = solve(admitted);
      if (r.verdict == Verdict::Unsat) unreachable(i, guards);
      else if (r.verdict == Verdict::Sat && cases_ok_[i]) check_requirements(i, admitted);
      earlier.push_back(Formula::negation(*guards[i]));
    }
    if (has_else) return;
    logic::Result gap = solve(Formula::all(earlier));
    if (gap.verdict != Verdict::Sat) return;
    ByteRange at = d_.symbol != kNone ? m_.symbols[d_.symbol].def
                                      : ByteRange{d_.range.begin, std::min<uint32_t>(d_.range.begin + 8, d_.range.end)};
    std::string shape = describe(gap);
    diags_.push_back(d_.cases.empty() ? make_diagnostic(DiagForm::DispatchEmpty, at, dispatch_name())
                                      : make_diagnostic(DiagId::DispatchGap, at,
                                                        shape.empty() ? std::string("some shapes") : shape));
  }

  void unreachable(size_t i, const std::vector<std::optional<Formula>>& guards) {
    const DispatchCase& c = d_.cases[i];
    std::optional<Diagnostic> found;
    std::vector<RelatedSpan> related;
    if (solve(*guards[i]).verdict == Verdict::Unsat) {
      found = make_diagnostic(DiagId::UnreachableCase, case_span(c), quoted(c.kernel));
    } else {
      for (size_t j = 0; j < i && !found; ++j)
        if (solve(Formula::negation(*guards[j])).verdict == Verdict::Unsat) {
          found = make_diagnostic(DiagForm::UnreachableEarlierCase, case_span(c));
          related.push_back({d_.cases[j].range, "this case takes every shape"});
        }
      if (!found) {
        found = c.guard == kNone ? make_diagnostic(DiagForm::UnreachableElse, case_span(c))
                                 : make_diagnostic(DiagForm::UnreachableGuard, case_span(c));
        for (size_t j = 0; j < i; ++j)
          if (solve(Formula::all({*guards[i], *guards[j]})).verdict == Verdict::Sat)
            related.push_back({d_.cases[j].range, "takes some of its shapes first"});
      }
    }
    Diagnostic d = std::move(*found);
    d.related = std::move(related);
    d.fixes.push_back({"remove the unreachable case", {{m_.whole_lines(c.range), ""}}, true});
    diags_.push_back(std::move(d));
  }

  void check_requirements(size_t i, const Formula& admitted) {
    const DispatchCase& c = d_.cases[i];
    uint32_t k = kernel_of(c);
    if (k == kNone || std::find(opaque_.begin(), opaque_.end(), k) != opaque_.end()) return;
    auto it = requirements_.find(k);
    if (it == requirements_.end()) return;
    const Requirement* first = nullptr;
    logic::Result witness;
    std::vector<const Requirement*> broken;
    for (const Requirement& req : it->second) {
      if (!req.formula) continue;
      logic::Result r = solve(Formula::all({admitted, Formula::negation(*req.formula)}));
      if (r.verdict != Verdict::Sat) continue;
      if (!first) first = &req, witness = std::move(r);
      broken.push_back(&req);
    }
    if (!first) return;
    std::string shape = describe(witness);
    std::string who = shape.empty() ? std::string("a shape") : shape;
    Diagnostic d = c.guard == kNone
                       ? make_diagnostic(DiagForm::CaseElseRejects, case_span(c), who, first->what, quoted(c.kernel))
                       : make_diagnostic(DiagId::DispatchCaseRejects, case_span(c), who, first->what, quoted(c.kernel));
    for (const Requirement* req : broken)
      d.related.push_back({req->range, req == first ? req->note : req->what + " is not implied either"});
    // Adding the broken facts to the guard makes the case sound.
    bool all_facts = std::all_of(broken.begin(), broken.end(), [](const Requirement* r) { return r->fact != kNone; });
    if (c.guard != kNone && all_facts) {
      const Expr& g = m_.exprs[c.guard];
      bool wrap = g.kind == Expr::Kind::Binary && g.text == "||";
      std::string added, title;
      for (const Requirement* req : broken) {
        const Expr& f = m_.exprs[req->fact];
        std::string t(m_.written(f.range));
        if (f.kind == Expr::Kind::Binary && f.text == "||") t = "(" + t + ")";
        added += " && " + t;
        title += (title.empty() ? "" : ", ") + quoted(m_.written(f.range));
      }
      Fix fix{"add " + title + " to the guard", {}, false};
      if (wrap) fix.edits.push_back({{g.range.begin, g.range.begin}, "("});
      fix.edits.push_back({{g.range.end, g.range.end}, (wrap ? ")" : "") + added});
      d.fixes.push_back(std::move(fix));
    }
    diags_.push_back(std::move(d));
  }

  const Module& m_;
  const Dispatch& d_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  std::vector<bool> cases_ok_;             // E0120 is checked for these cases
  std::vector<uint32_t> participating_;    // kernels whose parameters line up, in case order
  std::vector<uint32_t> opaque_;           // kernels with a dim outside the logic
  std::vector<std::string> var_names_, var_labels_;
  std::vector<std::pair<uint32_t, uint32_t>> var_positions_;
  std::unordered_map<SymbolId, uint32_t> symbol_var_;
  std::unordered_map<uint32_t, std::vector<Requirement>> requirements_;
  // Units of solver work for the whole dispatch: a 13-case GEMM dispatch
  // takes about 250, a pathological one stops here after about 0.5 s.
  int64_t budget_ = int64_t(1) << 14;
};

}  // namespace

void check_dispatches(const Module& module, std::vector<Diagnostic>& diagnostics) {
  for (const Dispatch& d : module.dispatches) DispatchCheck(module, d, diagnostics).run();
}

}  // namespace cake
