// The `reference` of a `bench` (E0118, E0119, and E0115 for the reference's
// facts): `cake run` feeds the reference the benched kernel's inputs and
// compares the outputs, so the reference must take the same parameters, in
// order, with the same names, memory spaces, dtypes, orders and shapes. Dims
// are compared as written: a shape symbol by its name, a constant by its
// value, anything else by its text. A reference that names no kernel is
// reported by the model (E0101, E0108); in a build of some items (a kernel
// unit of a Document) the referenced kernel may not be built, and then
// nothing is checked here: the global unit, which has every kernel's header,
// owns these reports.
#include "checks/checks.h"
#include "diag_builder.h"
#include "facts/samples.h"
#include "cake/eval.h"

#include <string>

namespace cake {
namespace {

std::string quoted(std::string_view s) { return "`" + std::string(s) + "`"; }

/// The index of the kernel `symbol` names, or kNone when it is not built.
uint32_t kernel_of(const Module& m, SymbolId symbol) {
  if (symbol == kNone) return kNone;
  uint32_t k = m.symbols[symbol].kernel;
  return k < m.kernels.size() && m.kernels[k].symbol == symbol ? k : kNone;
}

class ReferenceCheck {
 public:
  ReferenceCheck(const Module& m, std::vector<Diagnostic>& diags) : m_(m), diags_(diags), eval_(m) {}

  void run(const Bench& b) {
    if (b.reference_symbol == kNone || b.kernel_symbol == kNone) return;
    if (b.reference_symbol == b.kernel_symbol) {
      Diagnostic d = make_diagnostic(DiagId::BenchSelfReference, b.reference_range, b.reference);
      d.related.push_back({b.kernel_range, "the benched kernel"});
      diags_.push_back(std::move(d));
      return;
    }
    uint32_t k = kernel_of(m_, b.kernel_symbol), r = kernel_of(m_, b.reference_symbol);
    if (k == kNone || r == kNone) return;
    if (signature(b, m_.kernels[k], m_.kernels[r])) facts(b, m_.kernels[r]);
  }

 private:
  /// A dim as written: a shape symbol's or a name's text, a constant's value, or the text.
  std::string dim_text(ExprId e) const {
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name && x.symbol != kNone && m_.symbols[x.symbol].kind == SymbolKind::ShapeSymbol)
      return std::string(x.text);
    if (std::optional<int64_t> v = eval_.fold(e)) return std::to_string(*v);
    std::string out;
    for (char c : m_.written(x.range))
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
    return out;
  }

  template <typename Rule, typename... Args>
  void report(const Bench& b, std::vector<RelatedSpan> related, Rule rule, Args&&... args) {
    Diagnostic d = make_diagnostic(rule, b.reference_range, std::forward<Args>(args)...);
    d.related = std::move(related);
    diags_.push_back(std::move(d));
  }

  /// Reports each parameter's first difference; true when there is none.
  bool signature(const Bench& b, const Kernel& kernel, const Kernel& ref) {
    std::string kname = quoted(b.kernel), rname = quoted(b.reference);
    if (kernel.params.size() != ref.params.size()) {
      std::vector<RelatedSpan> related;
      const Kernel& longer = kernel.params.size() > ref.params.size() ? kernel : ref;
      size_t first_extra = std::min(kernel.params.size(), ref.params.size());
      related.push_back({m_.symbols[longer.params[first_extra]].decl,
                         "the first parameter " + (&longer == &ref ? rname : kname) + " has beyond the other's"});
      related.push_back({m_.symbols[(&longer == &ref ? kernel : ref).symbol].def,
                         (&longer == &ref ? kname : rname) + " declared here"});
      report(b, std::move(related), DiagId::BenchReferenceSignature, rname, ref.params.size(), kname,
             kernel.params.size());
      return false;
    }
    bool same = true;
    for (size_t p = 0; p < ref.params.size(); ++p) {
      const Symbol& a = m_.symbols[ref.params[p]];
      const Symbol& x = m_.symbols[kernel.params[p]];
      std::vector<RelatedSpan> related = {{a.decl, "in " + rname}, {x.decl, "in " + kname}};
      auto fail = [&](auto rule, auto&&... args) {
        report(b, related, rule, args...);
        same = false;
      };
      auto what = [](const Symbol& s) { return s.kind == SymbolKind::ScalarParam ? "a scalar" : "a tensor"; };
      auto order = [](const Symbol& s) { return s.type.order == Order::RowMajor ? "row_major" : "col_major"; };
      if (a.name != x.name) {
        fail(DiagForm::ReferenceParamName, p + 1, rname, a.name, kname, x.name);
      } else if (a.kind != x.kind) {
        fail(DiagForm::ReferenceParamKind, a.name, what(a), rname, what(x), kname);
      } else if (a.kind == SymbolKind::TensorParam && a.type.space != x.type.space) {
        fail(DiagForm::ReferenceParamSpace, a.name, space_name(a.type.space), rname, space_name(x.type.space), kname);
      } else if (a.type.dtype != x.type.dtype && a.type.dtype != DType::Unknown && x.type.dtype != DType::Unknown) {
        fail(DiagForm::ReferenceParamDtype, a.name, dtype_name(a.type.dtype), rname, dtype_name(x.type.dtype), kname);
      } else if (a.kind == SymbolKind::TensorParam && a.type.dims.size() != x.type.dims.size()) {
        fail(DiagForm::ReferenceParamRank, a.name, a.type.dims.size(), rname, x.type.dims.size(), kname);
      } else if (a.kind == SymbolKind::TensorParam) {
        for (size_t j = 0; j < a.type.dims.size(); ++j) {
          std::string da = dim_text(a.type.dims[j]), dx = dim_text(x.type.dims[j]);
          if (da == dx) continue;
          related = {{m_.exprs[a.type.dims[j]].range, "in " + rname}, {m_.exprs[x.type.dims[j]].range, "in " + kname}};
          fail(DiagForm::ReferenceParamDim, j + 1, a.name, da, rname, dx, kname);
          break;
        }
        if (same && a.type.order != x.type.order) fail(DiagForm::ReferenceParamOrder, a.name, order(a), rname, order(x), kname);
      }
    }
    return same;
  }

  /// The bench shape runs the reference too: it must satisfy the
  /// reference's facts (E0115). The signatures match, so the reference's
  /// shape symbols are the benched kernel's, by name.
  void facts(const Bench& b, const Kernel& ref) {
    Env env;
    for (SymbolId s : ref.shape_symbols) {
      bool bound = false;
      for (const BenchBinding& bb : b.bindings) {
        if (bb.name != m_.symbols[s].name || bb.value == kNone) continue;
        std::optional<int64_t> v = eval_.fold(bb.value);
        if (!v || *v <= 0) return;  // reported against the benched kernel
        env.values[s] = *v;
        bound = true;
        break;
      }
      if (!bound) return;
    }
    for (ExprId f : ref.facts) {
      std::optional<int64_t> v = eval_.eval(f, &env);
      if (v && *v == 0) {
        Diagnostic d = make_diagnostic(DiagId::BadBench, b.reference_range, describe(m_, env, ref.shape_symbols),
                                       m_.written(m_.exprs[f].range), b.reference);
        d.related.push_back({m_.exprs[f].range, "fact declared here"});
        diags_.push_back(std::move(d));
        return;
      }
    }
  }

  const Module& m_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
};

}  // namespace

void check_bench_references(const Module& module, std::vector<Diagnostic>& diagnostics) {
  ReferenceCheck check(module, diagnostics);
  for (const Bench& b : module.benches) check.run(b);
}

}  // namespace cake
