// The cost model in the editor: what a code lens, an inlay hint and a hover
// show of a kernel's estimates (cake/cost.h). Estimates are made on kernel
// units (Document::kernel_model), so a question about one kernel never
// builds the whole file, and DocumentCosts keeps each kernel's summary under
// its unit's key: after an edit only the edited kernel is estimated again.
// No positions and no LSP here; the server converts offsets.
#pragma once

#include "cake/cost.h"
#include "cake/document.h"
#include "cake/query_hover.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cake {

/// `v` with `digits` decimals ("41.2").
std::string fixed_number(double v, int digits);
/// An estimate's bench shape, "N=4096, K=1024" (or with another separator).
std::string shape_text(const Estimate& e, std::string_view separator = ", ");

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
  /// One line per bench, e.g. "≈ 41.2 µs · hbm-bound 78 % · H100-SXM5-80GB · N=4096".
  std::vector<std::string> lens;
  struct Hint {
    uint32_t offset = 0;  // the end of the costly line, relative
    std::string label;    // "≈ 12.5 µs tensor · 31 %"
  };
  /// The costly lines of the first estimate with shapes, in text order.
  std::vector<Hint> hints;
};

/// A line is costly when it alone needs at least this share of the
/// kernel's time (its largest resource, on the whole device).
inline constexpr double kCostlyLineShare = 0.05;

/// The summary of the kernel whose unit piece is `piece` in model `m` (a
/// kernel unit's model).
KernelCosts kernel_costs(const Module& m, std::string_view text, const LineIndex& lines, ByteRange piece,
                         const CostTarget& at);

/// Each kernel's summary for one document, cached by unit key, target and
/// device. Owned by whoever owns the Document (one per open file).
class DocumentCosts {
 public:
  struct Entry {
    const KernelUnit* unit = nullptr;
    const KernelCosts* costs = nullptr;
  };
  /// Every kernel of `doc` whose unit piece overlaps `range`, estimated
  /// for `at`. Summaries not asked for in this call are dropped.
  std::vector<Entry> kernels(Document& doc, const CostTarget& at, ByteRange range = {0, UINT32_MAX});

 private:
  std::unordered_map<uint64_t, KernelCosts> cache_;
};

/// Markdown on the cost of what is at `offset` of kernel-unit model `m`: on
/// the kernel's name, the estimate of each target the file lists (time,
/// bound, roofline position, occupancy, waves); on a `pipeline`, its
/// per-iteration breakdown; on a statement's op, its demand and time. For
/// `requested_device` as in cost_target(). nullopt when there is nothing
/// to say. `range` is the name or the statement's keyword; `rules` is empty.
std::optional<HoverInfo> cost_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t offset,
                                      std::string_view requested_device);

}  // namespace cake
