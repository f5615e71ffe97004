// The W07xx performance checks (cake-ir.md §5): findings of the cost model
// (cake/cost.h) about one kernel on one target, each on the device
// `AnalyzeOptions::device` selects for that target (device_for()). The
// driver, checks/performance.cpp, estimates every kernel × target once and
// hands the estimates to each rule; it then merges the findings that are
// the same on several targets (sm_90 and sm_90a on one H100) into one
// diagnostic that names them all.
#pragma once

#include "cake/cost.h"
#include "cake/kernel_facts.h"
#include "cake/typing.h"

#include <string>
#include <vector>

namespace cake {

/// In a finding's message, replaced when it is emitted: kWhere by the
/// device and its targets ("H100-SXM5-80GB (sm_90, sm_90a)"), kTargets by
/// the targets alone (bank conflicts are the target's, not the device's).
inline constexpr std::string_view kWhere = "{where}", kTargets = "{targets}";

struct PerfFinding {
  DiagId id{};
  ByteRange range;
  std::string message;  // with kWhere or kTargets
  std::vector<RelatedSpan> related;
  std::vector<Fix> fixes;
};

/// One kernel on one target: what every rule reads.
struct PerfContext {
  const Module& m;
  uint32_t kernel = 0;
  const TargetInfo& target;
  const DeviceInfo& device;
  const std::vector<Estimate>& estimates;  // one per bench, or one without (never empty)
  const std::vector<StmtId>& statements;   // the kernel's statements, pre-order
  Typer& typer;
  const KernelFacts& facts;  // the kernel's roles, layouts and plans (facts.on(target))
};

// W0701: pipeline too shallow to hide its load latency (checks/pipeline_depth.cpp).
void check_pipeline_depth(const PerfContext& c, std::vector<PerfFinding>& out);
// W0703: shared-memory reads with bank conflicts (checks/bank_conflicts.cpp).
void check_bank_conflicts(const PerfContext& c, std::vector<PerfFinding>& out);
// W0702 tail wave, W0704 narrow wgmma, W0705 one CTA per SM (checks/occupancy_perf.cpp).
void check_tail_wave(const PerfContext& c, std::vector<PerfFinding>& out);
void check_wgmma_width(const PerfContext& c, std::vector<PerfFinding>& out);
void check_single_cta(const PerfContext& c, std::vector<PerfFinding>& out);

/// "0.41 µs": three significant digits (whole numbers from 100 up).
std::string micros(double us);
/// "75 %".
std::string percent(double fraction);
/// "180 KB" for multiples of 1024 from 1 KB up, else "1234 B".
std::string size_text(double bytes);
/// "1 stage", "3 stages".
std::string plural(int64_t n, std::string_view word);

}  // namespace cake
