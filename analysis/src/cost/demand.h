// The first half of the cost model: one walk over a kernel's roles that
// gives each statement its demand on each resource (per CTA, for one bench
// shape), the pipeline rings with their per-iteration demand and load
// latency, the latency outside the rings, and the L2 bytes per tensor (so
// estimate.cpp can turn L2 traffic into DRAM traffic). See
// docs/cost-model.md for the rules.
#pragma once

#include "cake/cost.h"
#include "cake/roles.h"
#include "cake/eval.h"
#include "cost/queue.h"

#include <map>
#include <vector>

namespace cake {

/// Seconds and rates of one device, from its table.
struct Machine {
  const DeviceInfo* device = nullptr;
  double hz = 0;  // SM clock
  double sms = 0;
  double cycles(double c) const { return c / hz; }
  /// Achieved and peak throughput per second of the whole device (tensor: 0,
  /// it is kept as seconds per SM in Demand).
  std::array<double, kResourceCount> achieved{}, peak{};
  /// Tensor FLOP/s of one SM at peak and achieved, for an instruction, its
  /// operands' dtype and its accumulator's; 0 when the device has no such rate.
  double tensor_rate(Op op, DType dtype, DType acc, bool achieved_rate) const;
};
/// The device's rates at the SM clock of CUDA-core work, or, for a kernel
/// with tensor-core work (`tensor_work`), at the clock the tensor peaks
/// imply (`clock_tensor_mhz`): the clock-driven roofs (L2, shared memory,
/// issue) and the latencies in cycles follow it.
Machine machine_of(const DeviceInfo& device, bool tensor_work = false);
/// Whether any statement of these roles is a matrix multiply (the kernel
/// runs at the tensor clock).
bool has_tensor_work(const Module& m, const std::vector<RoleView>& roles);

struct RingDemand {
  StmtId first = kNone;
  StmtId slowest_load = kNone;
  int64_t stages = 0, trips = -1;
  Demand per_iteration;
  double load_latency_s = 0;
  bool barriers = false;
  /// Per iteration, each role's warps as a class of the SM's closed
  /// network (queue.h): the segments of dependent work one warp runs one
  /// after another, each at the share of the SM one warp can use (a
  /// scheduler's quarter of the CUDA cores, SFU, issue and mma.sync tensor
  /// cores; a warpgroup's wgmma the whole tensor core; the shared-memory
  /// port), and its block barriers' round trips.
  std::vector<WarpClass> classes;
};

struct KernelDemand {
  Demand cta;      // per CTA, everything
  Demand outside;  // per CTA, the statements outside every ring (prologue, epilogue)
  std::vector<RingDemand> rings;
  double outside_latency_s = 0;         // the slowest role's latency outside the rings
  double outside_chain_s = 0;           // the longest chain of segments of one warp outside the rings (prologue, epilogue)
  std::map<SymbolId, double> l2_bytes;  // per CTA, by tensor parameter
  std::map<StmtId, Demand> statements;  // per CTA (only when asked for)
  bool unknown_trips = false;           // a loop's trip count was not known
};

/// Walks a kernel's `roles` (its facts' role partition, KernelFacts::roles())
/// under `env` (the bench's shape symbols; empty: no bench); `per_statement`:
/// fill KernelDemand::statements (per-line attribution); `kernel`: its
/// grid clause, over whose CTAs a loop whose trips read `block.*` is
/// averaged, and its `cta_group` (a pair's tcgen05.mma is M = 256, half of
/// it on each CTA's SM).
KernelDemand kernel_demand(const Module& m, const std::vector<RoleView>& roles, const Env& env, const Machine& machine,
                           bool per_statement, const Kernel& kernel);

}  // namespace cake
