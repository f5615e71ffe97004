// check_performance(): the W07xx driver (performance.h). For every kernel
// with a body and every listed target, the estimates of cost.h (from the
// kernel's facts in the analysis's FactsCache, the ones E03xx read) on the
// device AnalyzeOptions::device selects for that target, without the
// per-line attribution (the rules need the totals, the rings and the
// occupancy only: that keeps analyze() within its time budget). A kernel
// the model cannot estimate on a target (its block, roles or shared memory
// are not known, or one CTA does not fit: E03xx says why) gets no W07xx
// there; other errors of the kernel suppress nothing.
#include "checks/arch_support.h"
#include "checks/checks.h"
#include "checks/performance.h"
#include "cost/estimate.h"
#include "diag_builder.h"

#include <cmath>
#include <cstdio>

namespace cake {

std::string micros(double us) {
  char buf[32];
  if (std::fabs(us) >= 100) std::snprintf(buf, sizeof buf, "%.0f µs", us);
  else std::snprintf(buf, sizeof buf, "%.3g µs", us);
  return buf;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", fraction * 100);
  return buf;
}

std::string size_text(double bytes) {
  char buf[32];
  if (bytes >= 1024 && std::fmod(bytes, 1024) == 0) std::snprintf(buf, sizeof buf, "%.0f KB", bytes / 1024);
  else if (bytes >= 1024) std::snprintf(buf, sizeof buf, "%.1f KB", bytes / 1024);
  else std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  return buf;
}

std::string plural(int64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

namespace {

/// A finding and the targets it holds on.
struct Grouped {
  PerfFinding finding;
  TargetSet targets;
  std::string_view device;
};

/// The model can say something about this kernel on this target: the
/// occupancy is known and one CTA fits (the rings are then known too).
bool estimable(const std::vector<Estimate>& estimates) {
  for (const Estimate& e : estimates)
    if (e.occupancy.ctas_per_sm <= 0) return false;
  return !estimates.empty();
}

void replace_all(std::string& s, std::string_view from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

class PerformanceChecker {
 public:
  PerformanceChecker(const Module& m, const FactsCache& facts, const AnalyzeOptions& options,
                     std::vector<Diagnostic>& diags)
      : m_(m), facts_(facts), options_(options), diags_(diags), typer_(m, nullptr) {}

  void run() {
    TargetSet listed = listed_targets(m_);
    if (listed.empty()) return;
    for (uint32_t k = 0; k < m_.kernels.size(); ++k) {
      // Without a body (the document's global unit builds kernels header-only,
      // or an empty kernel) there is nothing to estimate.
      if (m_.kernels[k].body.empty()) continue;
      kernel(k, listed);
    }
  }

 private:
  void kernel(uint32_t k, TargetSet listed) {
    statements_.clear();
    walk_statements(m_, m_.kernels[k].body, stack_, [&](StmtId id) { statements_.push_back(id); });
    std::vector<Grouped> groups;
    listed.for_each([&](size_t i) {
      const TargetInfo& t = target_at(i);
      const DeviceInfo* device = device_for(t.name, options_.device);
      if (!device) return;
      // Without line attribution the estimator reads no line index.
      static const LineIndex kNoLines{std::string_view{}};
      const KernelFacts& facts = facts_.kernel(k);
      std::vector<Estimate> estimates = estimate_kernel(facts, kNoLines, t, *device, {.lines = false});
      if (!estimable(estimates)) return;
      PerfContext c{m_, k, t, *device, estimates, statements_, typer_, facts};
      std::vector<PerfFinding> found;
      check_pipeline_depth(c, found);
      check_tail_wave(c, found);
      check_bank_conflicts(c, found);
      check_wgmma_width(c, found);
      check_single_cta(c, found);
      for (PerfFinding& f : found) add(groups, std::move(f), i, device->id);
    });
    for (Grouped& g : groups) emit(g);
  }

  /// Joins `f` to the group with the same rule, span and message (the same
  /// numbers on the same device), or starts one.
  static void add(std::vector<Grouped>& groups, PerfFinding f, size_t target, std::string_view device) {
    for (Grouped& g : groups)
      if (g.finding.id == f.id && g.finding.range == f.range && g.finding.message == f.message &&
          (g.device == device || f.message.find(kWhere) == std::string::npos)) {
        g.targets.add(target);
        return;
      }
    Grouped g{std::move(f), {}, device};
    g.targets.add(target);
    groups.push_back(std::move(g));
  }

  void emit(Grouped& g) {
    std::string targets = target_list(g.targets);
    replace_all(g.finding.message, kWhere, std::string(g.device) + " (" + targets + ")");
    replace_all(g.finding.message, kTargets, targets);
    Diagnostic d = make_diagnostic(g.finding.id, g.finding.range);
    d.message = std::move(g.finding.message);  // the rule's template, filled (diag_message)
    d.related = std::move(g.finding.related);
    d.fixes = std::move(g.finding.fixes);
    set_targets(d, g.targets);
    diags_.push_back(std::move(d));
  }

  const Module& m_;
  const FactsCache& facts_;
  const AnalyzeOptions& options_;
  std::vector<Diagnostic>& diags_;
  Typer typer_;
  std::vector<StmtId> statements_, stack_;
};

}  // namespace

void check_performance(const Module& module, const FactsCache& facts, const AnalyzeOptions& options,
                       std::vector<Diagnostic>& diagnostics) {
  PerformanceChecker(module, facts, options, diagnostics).run();
}

}  // namespace cake
