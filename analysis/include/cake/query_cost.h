// The cost model in the editor: what a code lens, an inlay hint and a hover
// show of a kernel's estimates (cake/cost.h). Estimates are made on kernel
// units (Document::kernel_model), so a question about one kernel never
// builds the whole file, and DocumentCosts keeps each kernel's summary under
// its unit's key: after an edit only the edited kernel is estimated again.
// Everything here is numbers and names; the server renders them (lens
// titles, hint labels, hover markdown: server/render/) and converts offsets.
#pragma once

#include "cake/cost.h"
#include "cake/document.h"
#include "cake/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace cake {

/// A bench shape, owned: each shape symbol with its value, in bench order.
using BenchShape = std::vector<std::pair<std::string, int64_t>>;
BenchShape bench_shape(const Estimate& e);

/// The target and device the editor's estimates are for: the file's first
/// target that has a device (device_for(target, requested)); none when no
/// target has one.
struct CostTarget {
  std::string target;
  const DeviceInfo* device = nullptr;
};
CostTarget cost_target(const std::vector<std::string>& targets, std::string_view requested_device);

/// What the editor shows of one kernel's estimates. Strings are owned and
/// offsets are relative to the start of the kernel's unit piece
/// (KernelUnit::piece), so a summary stays true while only other kernels
/// change.
struct KernelCosts {
  /// One per bench (a code lens): time, what bounds it and how much of that
  /// roof it achieves, the device and the shape; or why there is no time.
  struct Lens {
    bool ok = false;
    double time_us = 0;
    Bound bound = Bound::None;
    double utilisation = 0;  // of the bound's resource (a resource bound only)
    std::string device;      // DeviceInfo::id
    BenchShape shape;
    std::string problem;                 // !ok: why
    std::optional<double> iteration_us;  // !ok: the first ring's time per iteration, if any
    bool operator==(const Lens&) const = default;
  };
  std::vector<Lens> lens;
  /// A costly line (an inlay hint at its end): the time its largest
  /// resource needs for it alone and the kernel's time; or, without shapes,
  /// a pipeline ring's time per iteration and what bounds it.
  struct Hint {
    uint32_t offset = 0;  // the end of the line, relative
    bool per_iteration = false;
    double time_us = 0;
    double kernel_us = 0;  // !per_iteration
    Resource resource = Resource::Issue;
    bool latency_bound = false;  // per_iteration: the ring waits on latency, not on `resource`
    bool operator==(const Hint&) const = default;
  };
  /// The costly lines of the first estimate with shapes, in text order.
  std::vector<Hint> hints;
  bool operator==(const KernelCosts&) const = default;
};

/// A line is costly when it alone needs at least this share of the
/// kernel's time (its largest resource, on the whole device).
inline constexpr double kCostlyLineShare = 0.05;

/// The summary of the kernel whose unit piece is `piece` in model `m` (a
/// kernel unit's model).
KernelCosts kernel_costs(const Module& m, std::string_view text, const LineIndex& lines, ByteRange piece,
                         const CostTarget& at);

/// The problem of the one lens of a kernel that has errors of its own: it
/// keeps its place above the kernel (the text does not move as the error
/// comes and goes) and says why there is no estimate.
inline constexpr std::string_view kNotEstimatedWithErrors = "not estimated while the kernel has errors";

/// Each kernel's summary for one document, cached by unit key, target and
/// device. Owned by whoever owns the Document (one per open file).
class DocumentCosts {
 public:
  struct Entry {
    const KernelUnit* unit = nullptr;
    const KernelCosts* costs = nullptr;
  };
  /// Every kernel of `doc` whose unit piece overlaps `range`, estimated
  /// for `at`. `diagnostics` are doc.diagnostics() of the current text: a
  /// kernel with an error of its own (Document::kernel_has_errors) is not
  /// estimated, whatever the rest of the file holds; its summary is one
  /// lens whose problem is kNotEstimatedWithErrors, and no hints. Summaries
  /// not asked for in this call are dropped.
  std::vector<Entry> kernels(Document& doc, const CostTarget& at, const std::vector<Diagnostic>& diagnostics,
                             ByteRange range = {0, UINT32_MAX});

 private:
  std::unordered_map<uint64_t, KernelCosts> cache_;
};

/// The roofline position of an estimate: FLOPs per DRAM byte against the
/// ridge (peak compute ÷ peak DRAM bandwidth), the achieved fraction of
/// every roof with demand, and how full the last wave is.
struct Roofline {
  std::string_view target;
  BenchShape shape;
  bool has_ratio = false;  // DRAM traffic and arithmetic both present
  double intensity = 0, ridge = 0;
  std::vector<std::pair<Resource, double>> achieved;  // utilisation per resource with demand
  double tail_fill = 1;
};

/// The cost hover on a kernel's name: every target's estimates per bench
/// and the roofline position of the first with shapes.
struct KernelCostHover {
  std::string_view table_version;  // of the last device
  std::vector<Estimate> estimates;
  std::optional<Roofline> roofline;
};
/// The cost hover on a `pipeline`: its ring per CTA and iteration.
struct PipelineCostHover {
  Estimate estimate;  // the one it is from
  RingCost ring;
};
/// The cost hover on a statement's op: its line over all CTAs.
struct LineCostHover {
  Estimate estimate;  // the one it is from (ok)
  LineCost line;
  std::string_view op;  // as written
};
struct CostHover {
  ByteRange range;  // the kernel's name or the statement's keyword
  std::variant<KernelCostHover, PipelineCostHover, LineCostHover> what;
};

/// The cost of what is at `offset` of kernel-unit model `m`: on the
/// kernel's name, the estimate of each target the file lists (time, bound,
/// roofline position, occupancy, waves); on a `pipeline`, its per-iteration
/// breakdown; on a statement's op, its demand and time. For
/// `requested_device` as in cost_target(). nullopt when there is nothing
/// to say. Views into `m` and `text`.
std::optional<CostHover> cost_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t offset,
                                    std::string_view requested_device);

}  // namespace cake
