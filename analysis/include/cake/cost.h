// The cost model: an analytical estimate of a kernel's time on one device,
// for each of its `bench` shapes (cake-ir.md §6, docs/cost-model.md).
//
// Per statement, its demand on each resource (DRAM and L2 bytes, shared-
// memory bytes, tensor-core FLOPs by dtype and instruction, CUDA-core ops,
// issue slots); per pipeline iteration the steady-state time (the largest
// demand ÷ throughput) plus the latency the ring's stages cannot cover; per
// CTA the sum over the kernel's statements (roles overlap: their demands add
// on shared resources); CTAs per SM from shared memory, registers and
// threads; waves with the tail; per kernel the time, the bound and the
// achieved fraction of each roof. Pure: reads the model and the embedded
// device tables only.
#pragma once

#include "cake/analyze.h"
#include "cake/device.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

enum class Resource : uint8_t { Hbm, L2, Smem, Tensor, CudaCore, Sfu, Issue };
inline constexpr size_t kResourceCount = 7;
/// "hbm", "l2", "smem", "tensor", "cuda_core", "sfu", "issue".
std::string_view resource_name(Resource r);
/// The unit of a resource's demand: "B", "FLOP", "op", "warp-instr".
std::string_view resource_unit(Resource r);

/// What limits a kernel: a resource's roof, the latency the pipeline cannot
/// hide, or the partly filled last wave.
/// The first seven are the resources, in the order of Resource.
enum class Bound : uint8_t { Hbm, L2, Smem, Tensor, CudaCore, Sfu, Issue, Latency, Tail, None };
std::string_view bound_name(Bound b);

/// Demand on each resource. Tensor demand is in FLOPs; `tensor_peak_s` and
/// `tensor_s` are the seconds one SM's tensor cores need for it at peak and
/// at the achieved rate of each instruction and dtype.
struct Demand {
  std::array<double, kResourceCount> amount{};
  double tensor_peak_s = 0, tensor_s = 0;

  double& operator[](Resource r) { return amount[static_cast<size_t>(r)]; }
  double operator[](Resource r) const { return amount[static_cast<size_t>(r)]; }
  Demand& operator+=(const Demand& o);
  Demand scaled(double k) const;
};

/// One resource over the whole kernel.
struct ResourceUse {
  double demand = 0;       // total, in resource_unit()
  double peak = 0;         // per second, whole device, datasheet
  double throughput = 0;   // per second, whole device, achieved (peak × efficiency)
  double time_us = 0;      // demand ÷ throughput: the time this roof alone needs
  double utilisation = 0;  // achieved fraction of the peak: demand ÷ (peak × time)
};

/// One source line's share of the kernel (its statements, all CTAs).
struct LineCost {
  uint32_t line = 0;  // 1-based
  std::string_view op;
  Demand demand;
  Resource resource = Resource::Issue;  // its largest time
  double time_us = 0;                   // that resource's time for this line alone
};

/// One role's warps in a ring, as the closed network of warps sees them
/// (docs/cost-model.md, "Dependent chains"): per iteration, what one warp
/// holds of each unit, its waits on no unit, and its time round the
/// iteration with the queueing for the units.
struct RingRole {
  std::string_view role;  // "" for the implicit role
  double warps = 0;       // per CTA
  std::array<double, kResourceCount> hold_us{};
  double waits_us = 0;
  double round_us = 0;
};

/// A pipeline ring of the CTA (rings with the same stages and trips in
/// different roles are one ring: the producer's and the consumers' loops).
struct RingCost {
  uint32_t line = 0;            // of the first pipeline statement
  StmtId stmt = kNone;          // that statement
  StmtId slowest_load = kNone;  // the load whose latency `load_latency_us` is
  int64_t stages = 0;
  int64_t trips = -1;           // -1: unknown (no bench)
  Demand per_iteration;         // per CTA
  double load_latency_us = 0;   // the slowest load of an iteration
  double round_trip_us = 0;     // that load plus the barrier round trip: what the stages must cover
  double ctas_per_sm = 0;       // the co-resident CTAs whose shares of the resources the times are at
  double roofline_us = 0;       // per iteration: max over resources, at the CTA's share
  double resource_us = 0;       // per iteration: the roofline, or the roles' rounds when longer
  double iteration_us = 0;      // with the latency stages can't cover
  std::vector<RingRole> roles;  // the roles' warps with statements in the ring
  Resource bound = Resource::Issue;
  bool latency_bound() const { return iteration_us > resource_us * 1.0001; }
};

struct Occupancy {
  int64_t ctas_per_sm = 0;
  std::string_view limiter;  // "smem", "registers", "threads", "blocks"
  int64_t smem_per_cta = 0, regs_per_cta = 0, threads = 0;
  int64_t smem_buffers = 0;  // the kernel's smem layout alone, before the reservation and rounding (the bytes E0301 checks)
};

/// CTAs per SM of a CTA that needs `smem_buffers` bytes of buffers and
/// mbarriers, `regs` registers and `threads` threads on target `t` (the
/// equations of docs/cost-model.md); ctas_per_sm 0 when it does not fit.
Occupancy fit_ctas(const TargetInfo& t, int64_t smem_buffers, int64_t regs, int64_t threads);

struct Estimate {
  uint32_t kernel = 0;
  std::string_view target;
  const DeviceInfo* device = nullptr;
  int32_t bench = -1;  // index into Module::benches; -1: no bench (per-iteration costs only)
  std::vector<std::pair<std::string_view, int64_t>> shape;
  bool ok = false;       // false: `problem` says why nothing was estimated
  std::string problem;   // also "no bench"
  double time_us = 0;
  Bound bound = Bound::None;
  std::array<ResourceUse, kResourceCount> resources{};
  Occupancy occupancy;
  int64_t ctas = 0;
  double waves = 0;       // CTAs ÷ (SMs × CTAs per SM)
  int64_t full_waves = 0;
  double tail_fill = 0;   // CTAs of the last wave ÷ a full wave (1 when none is partial)
  double tail_us = 0;     // time the partial wave adds beyond its share
  double latency_us = 0;  // exposed latency, whole kernel
  double launch_us = 0;
  /// One CTA of a full wave: its rings' iterations (with exposed latency)
  /// and the statements outside them (prologue and epilogue, with their
  /// latency), each at the wave's shares of the resources.
  double cta_iterations_us = 0, cta_outside_us = 0;
  std::vector<RingCost> rings;
  std::vector<LineCost> lines;  // by line
};

struct EstimateOptions {
  /// Attribute the demand to source lines (Estimate::lines). The W07xx
  /// checks run on every analysis and need only the totals, the rings and
  /// the occupancy: they turn this off, which saves most of the time.
  /// Off, RingCost::line is 0 too and `lines` is never read, so a caller
  /// may pass an empty LineIndex (indexing a whole file per kernel unit
  /// made opening a big file quadratic).
  bool lines = true;
};

/// The estimates of kernel `kernel` of `analysis` for `target` on `device`:
/// one per bench of the kernel, or one without shapes (bench -1, ok false,
/// problem "no bench") that still has the rings' per-iteration costs.
std::vector<Estimate> estimate_kernel(const Analysis& analysis, uint32_t kernel, std::string_view target,
                                      const DeviceInfo& device, const EstimateOptions& options = {});
/// The same over a model (say, Document::model() in the server); `lines`
/// indexes the text the model was built from.
std::vector<Estimate> estimate_kernel(const Module& module, const LineIndex& lines,
                                      uint32_t kernel, std::string_view target, const DeviceInfo& device,
                                      const EstimateOptions& options = {});
/// One estimate: kernel `kernel` at bench `bench` (an index into
/// Module::benches); ok false when that bench is not one of the kernel's.
Estimate estimate_bench(const Analysis& analysis, uint32_t kernel, int32_t bench, std::string_view target,
                        const DeviceInfo& device);

}  // namespace cake
