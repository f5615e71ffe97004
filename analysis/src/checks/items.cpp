// Item-level checks of the E01xx group: the `target` line (E0110, E0114) and
// `bench` shapes against their kernel (E0115).
#include "cake/arch.h"
#include "checks/checks.h"
#include "diag_builder.h"
#include "facts/samples.h"
#include "cake/eval.h"

#include <algorithm>
#include <string>

namespace cake {
namespace {

void check_targets(const Module& m, std::vector<Diagnostic>& diags) {
  if (m.targets.empty() && m.target_range.end == 0) {
    ByteRange at = m.first_item_range.end > 0 ? ByteRange{m.first_item_range.begin, m.first_item_range.begin}
                                              : ByteRange{0, 0};
    Diagnostic d = make_diagnostic(DiagId::MissingTarget, at);
    d.fixes.push_back({"insert `target sm_90a`", {{at, "target sm_90a\n"}}, false});
    diags.push_back(std::move(d));
    return;
  }
  if (m.items_before_target) {
    Diagnostic d = make_diagnostic(DiagForm::TargetNotFirst, m.target_range);
    d.related.push_back({m.first_item_range, "this item comes before it"});
    diags.push_back(std::move(d));
  }
  // The first item's last name: where a repeated item's new names go.
  uint32_t list_end = m.target_range.end;
  bool first_has_names = false;
  for (const Target& t : m.targets)
    if (m.target_range.begin <= t.range.begin && t.range.end <= m.target_range.end) {
      list_end = t.range.end;
      first_has_names = true;
    }
  for (ByteRange r : m.extra_target_items) {
    Diagnostic d = make_diagnostic(DiagForm::TargetTwice, r);
    d.related.push_back({m.target_range, "the first `target`"});
    // Fix: its targets not listed before move to the first item, and the item goes.
    std::string added, named;
    for (const Target& t : m.targets)
      if (r.begin <= t.range.begin && t.range.end <= r.end) {
        added += ", " + std::string(t.name);
        named += (named.empty() ? "`" : ", `") + std::string(t.name) + "`";
      }
    Fix fix{added.empty() ? "remove the repeated `target`" : "move " + named + " to the first `target`",
            {{m.whole_lines(r), ""}}, true};
    if (!added.empty() && m.target_range.end > 0)
      fix.edits.insert(fix.edits.begin(), {{list_end, list_end}, first_has_names ? added : " " + added.substr(2)});
    d.fixes.push_back(std::move(fix));
    diags.push_back(std::move(d));
  }
  // The known targets are those of the architecture tables (analysis/arch/).
  std::string known;
  for (const TargetInfo& t : all_targets()) known += (known.empty() ? "" : ", ") + std::string(t.name);
  for (const Target& t : m.targets) {
    if (!find_target(t.name)) {
      Diagnostic d = make_diagnostic(DiagId::UnknownTarget, t.range, t.name, known);
      // sm_90a written as sm90a or SM_90A.
      for (const TargetInfo& info : all_targets()) {
        std::string_view k = info.name;
        std::string a, b;
        for (char c : t.name) if (c != '_') a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (char c : k) if (c != '_') b += c;
        if (a == b) d.fixes.push_back({"replace with `" + std::string(k) + "`", {{t.range, std::string(k)}}, true});
      }
      diags.push_back(std::move(d));
    }
  }
  for (const RepeatedTarget& t : m.repeated_targets) {
    std::string_view name = m.written(t.range);
    Diagnostic d = make_diagnostic(DiagId::DuplicateName, t.range, name, std::string(" in the target list"));
    d.related.push_back({t.first, "first listed here"});
    d.fixes.push_back({"remove the duplicate", {{t.separated, ""}}, true});
    diags.push_back(std::move(d));
  }
}

void check_benches(const Module& m, std::vector<Diagnostic>& diags) {
  Evaluator eval(m);
  for (const Bench& b : m.benches) {
    if (b.kernel_symbol == kNone) continue;
    uint32_t k = m.symbols[b.kernel_symbol].kernel;
    if (k == kNone || k >= m.kernels.size()) continue;
    const Kernel& kernel = m.kernels[k];
    Env env;
    bool complete = true;
    for (size_t i = 0; i < b.bindings.size(); ++i) {
      const BenchBinding& bb = b.bindings[i];
      if (bb.symbol == kNone) {
        std::string names;
        for (SymbolId s : kernel.shape_symbols) names += (names.empty() ? "" : ", ") + std::string(m.symbols[s].name);
        diags.push_back(names.empty() ? make_diagnostic(DiagForm::BenchNoShapes, bb.name_range, bb.name, b.kernel)
                                      : make_diagnostic(DiagForm::BenchNotShape, bb.name_range, bb.name, b.kernel, names));
        complete = false;
        continue;
      }
      for (size_t j = 0; j < i; ++j)
        if (b.bindings[j].name == bb.name) {
          Diagnostic d = make_diagnostic(DiagForm::BenchBoundTwice, bb.name_range, bb.name);
          d.related.push_back({b.bindings[j].name_range, "first bound here"});
          diags.push_back(std::move(d));
        }
      auto v = eval.fold(bb.value);
      if (!v) {
        diags.push_back(make_diagnostic(DiagId::NotConstant, m.exprs[bb.value].range, "a bench value"));
        complete = false;
        continue;
      }
      if (*v <= 0) {
        diags.push_back(make_diagnostic(DiagForm::BenchNotPositive, m.exprs[bb.value].range, bb.name, *v));
        complete = false;
        continue;
      }
      env.values[bb.symbol] = *v;
    }
    std::string missing;
    for (SymbolId s : kernel.shape_symbols)
      if (!env.values.count(s) &&
          std::none_of(b.bindings.begin(), b.bindings.end(), [&](const BenchBinding& bb) { return bb.symbol == s; }))
        missing += (missing.empty() ? "" : ", ") + std::string(m.symbols[s].name);
    if (!missing.empty()) {
      diags.push_back(make_diagnostic(DiagForm::BenchUnbound, b.kernel_range, b.kernel, missing));
      continue;
    }
    if (!complete) continue;
    for (ExprId f : kernel.facts) {
      auto v = eval.eval(f, &env);
      if (v && *v == 0) {
        std::vector<SymbolId> syms = kernel.shape_symbols;
        Diagnostic d = make_diagnostic(DiagId::BadBench, b.range, describe(m, env, syms), m.written(m.exprs[f].range),
                                       b.kernel);
        d.related.push_back({m.exprs[f].range, "fact declared here"});
        diags.push_back(std::move(d));
        break;
      }
    }
  }
}

}  // namespace

void check_items(const Module& module, std::vector<Diagnostic>& diagnostics) {
  check_targets(module, diagnostics);
  check_benches(module, diagnostics);
}

}  // namespace cake
