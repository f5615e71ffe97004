// The cost model's entry for callers that hold a kernel's facts
// (cake/kernel_facts.h): the W07xx driver estimates every kernel × target
// from the analysis's FactsCache, so the occupancy reads the very layout and
// register plan that E03xx checked. cake/cost.h's estimate_kernel() builds
// the facts itself.
#pragma once

#include "cake/cost.h"
#include "cake/kernel_facts.h"

namespace cake {

/// estimate_kernel() of cake/cost.h for the kernel of `facts` on `target`.
std::vector<Estimate> estimate_kernel(const KernelFacts& facts, const LineIndex& lines,
                                      const TargetInfo& target, const DeviceInfo& device,
                                      const EstimateOptions& options = {});

}  // namespace cake
