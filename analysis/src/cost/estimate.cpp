// estimate_kernel(): from the per-CTA demand (demand.h) to a kernel's time.
// CTAs per SM from shared memory, registers, threads and blocks; waves of
// SMs × CTAs-per-SM CTAs, the last one partial; per wave the largest of the
// resources' times at the CTAs' shares of them, plus the latency the rings'
// stages cannot cover. docs/cost-model.md gives the equations. What one CTA
// asks of the SM (its roles, shared-memory layout and registers) is the
// kernel's facts (cake/kernel_facts.h), the numbers E03xx checks.
#include "cake/cost.h"

#include "cost/demand.h"
#include "cost/estimate.h"
#include "cake/kernel_facts.h"

#include <algorithm>
#include <cmath>

namespace cake {

std::string_view resource_name(Resource r) {
  switch (r) {
    case Resource::Hbm: return "hbm";
    case Resource::L2: return "l2";
    case Resource::Smem: return "smem";
    case Resource::Tensor: return "tensor";
    case Resource::CudaCore: return "cuda_core";
    case Resource::Sfu: return "sfu";
    case Resource::Issue: return "issue";
  }
  return "";
}

std::string_view resource_unit(Resource r) {
  switch (r) {
    case Resource::Hbm:
    case Resource::L2:
    case Resource::Smem: return "B";
    case Resource::Tensor: return "FLOP";
    case Resource::CudaCore:
    case Resource::Sfu: return "op";
    case Resource::Issue: return "warp-instr";
  }
  return "";
}

std::string_view bound_name(Bound b) {
  switch (b) {
    case Bound::Hbm:
    case Bound::L2:
    case Bound::Smem:
    case Bound::Tensor:
    case Bound::CudaCore:
    case Bound::Sfu:
    case Bound::Issue: return resource_name(static_cast<Resource>(b));  // the same order
    case Bound::Latency: return "latency";
    case Bound::Tail: return "tail";
    case Bound::None: return "none";
  }
  return "none";
}

namespace {

/// A partial last wave is the bound when it costs more than this share of
/// the kernel beyond its proportional time.
constexpr double kTailBoundShare = 0.2;

constexpr Resource kResources[] = {Resource::Hbm,      Resource::L2,  Resource::Smem, Resource::Tensor,
                                   Resource::CudaCore, Resource::Sfu, Resource::Issue};

bool per_sm(Resource r) { return r != Resource::Hbm && r != Resource::L2; }

/// Seconds each resource needs for demand `d` of one CTA when `n` CTAs run
/// at once, `per_sm_ctas` of them on each SM.
std::array<double, kResourceCount> resource_times(const Demand& d, const Machine& mc, double n, double per_sm_ctas) {
  std::array<double, kResourceCount> t{};
  for (Resource r : kResources) {
    size_t i = static_cast<size_t>(r);
    if (r == Resource::Tensor) t[i] = d.tensor_s * per_sm_ctas;
    else if (per_sm(r)) t[i] = mc.achieved[i] > 0 ? d[r] * per_sm_ctas / (mc.achieved[i] / mc.sms) : 0;
    else t[i] = mc.achieved[i] > 0 ? d[r] * n / mc.achieved[i] : 0;
  }
  return t;
}

Resource largest(const std::array<double, kResourceCount>& t) {
  return static_cast<Resource>(std::max_element(t.begin(), t.end()) - t.begin());
}

struct WaveTime {
  double total = 0, resource = 0, exposed = 0;
  Resource bound = Resource::Issue;
  bool chained = false;  // the warps' dependent chains, not a resource's roof, set `resource`
  std::optional<Resource> chain_unit;  // the unit the longest chain queues at most (none: it waits on barriers)
};

class Estimator {
 public:
  Estimator(const KernelFacts& facts, const LineIndex& lines, const TargetInfo* target,
            std::string_view target_name, const DeviceInfo& device, const EstimateOptions& options = {})
      : lines_(lines), facts_(facts), m_(facts.module()), k_(facts.kernel()), info_(target),
        target_(target_name),
        mc_(machine_of(device, facts.roles() && has_tensor_work(facts.module(), *facts.roles()))),
        eval_(facts.evaluator()), options_(options) {}

  Estimate run(int32_t bench) {
    Estimate e;
    e.kernel = k_;
    e.target = target_;
    e.device = mc_.device;
    e.bench = bench;
    e.launch_us = mc_.device->launch_us.value;
    Env env;
    if (bench >= 0)
      for (const BenchBinding& b : m_.benches[bench].bindings) {
        auto v = b.value == kNone ? std::nullopt : eval_.fold(b.value);
        if (!v) continue;
        e.shape.push_back({b.name, *v});
        if (b.symbol != kNone) env.values[b.symbol] = *v;
      }
    const TargetInfo* t = info_;
    if (!t) return fail(e, "unknown target");
    if (!occupancy(*t, e.occupancy)) return fail(e, "the kernel's block, roles or shared memory are not known");
    if (e.occupancy.ctas_per_sm <= 0)
      return fail(e, "one CTA does not fit on an SM (limited by " + std::string(e.occupancy.limiter) + ")");
    KernelDemand kd = kernel_demand(m_, *facts_.roles(), env, mc_, options_.lines, m_.kernels[k_]);
    double full = mc_.sms * static_cast<double>(e.occupancy.ctas_per_sm);
    double occ = static_cast<double>(e.occupancy.ctas_per_sm);
    auto ctas = grid_ctas(env);
    if (!ctas || bench < 0) {
      // No shapes: the rings' per-iteration costs when every SM is full.
      rings(e, kd, full, occ);
      return fail(e, bench < 0 ? "no bench" : "the grid is not known for this bench");
    }
    e.ctas = *ctas;
    // DRAM bytes: each tensor's L2 traffic, at most its size (perfect L2 reuse across CTAs).
    double l2_total = 0, hbm_total = 0;
    for (const auto& [sym, bytes] : kd.l2_bytes) {
      double all = bytes * static_cast<double>(e.ctas);
      l2_total += all;
      auto size = sym == kNone ? std::nullopt : tensor_bytes(m_.symbols[sym], env);
      hbm_total += size ? std::min(all, *size) : all;
    }
    hbm_ratio_ = l2_total > 0 ? hbm_total / l2_total : 1;
    to_dram(kd.cta);
    for (RingDemand& r : kd.rings) to_dram(r.per_iteration);
    for (auto& [id, d] : kd.statements) to_dram(d);

    double n_full = std::min(full, static_cast<double>(e.ctas));
    e.full_waves = static_cast<int64_t>(std::floor(static_cast<double>(e.ctas) / full));
    double rest = static_cast<double>(e.ctas) - static_cast<double>(e.full_waves) * full;
    e.waves = static_cast<double>(e.ctas) / full;
    e.tail_fill = rest > 0 ? rest / full : 1;
    WaveTime wf = wave(kd, n_full), wt;
    double time = static_cast<double>(e.full_waves) * wf.total;
    e.latency_us = static_cast<double>(e.full_waves) * wf.exposed;
    if (rest > 0) {
      wt = wave(kd, rest);
      time += wt.total;
      e.latency_us += wt.exposed;
      e.tail_us = e.full_waves > 0 ? std::max(0.0, wt.total - rest / full * wf.total) : 0;
    }
    if (occ > 1 && n_full > mc_.sms) {  // co-resident CTAs: the latency outside the rings once per kernel
      time += kd.outside_latency_s;
      e.latency_us += kd.outside_latency_s;
    }
    const WaveTime& main = e.full_waves > 0 ? wf : wt;
    e.bound = main.exposed > main.resource ? Bound::Latency
              : main.chained ? (main.chain_unit ? static_cast<Bound>(*main.chain_unit) : Bound::Latency)
                             : static_cast<Bound>(main.bound);
    if (e.tail_us > kTailBoundShare * time) e.bound = Bound::Tail;
    e.time_us = time * 1e6 + e.launch_us;
    e.tail_us *= 1e6;
    e.latency_us *= 1e6;
    // Roofs over the whole kernel.
    for (Resource r : kResources) {
      size_t i = static_cast<size_t>(r);
      ResourceUse& u = e.resources[i];
      u.demand = kd.cta[r] * static_cast<double>(e.ctas);
      if (r == Resource::Tensor) {
        double busy = kd.cta.tensor_s * static_cast<double>(e.ctas) / mc_.sms;  // seconds of every SM
        double peak_busy = kd.cta.tensor_peak_s * static_cast<double>(e.ctas) / mc_.sms;
        u.time_us = busy * 1e6;
        u.peak = peak_busy > 0 ? u.demand / peak_busy : 0;
        u.throughput = busy > 0 ? u.demand / busy : 0;
      } else {
        u.peak = mc_.peak[i];
        u.throughput = mc_.achieved[i];
        u.time_us = u.throughput > 0 ? u.demand / u.throughput * 1e6 : 0;
      }
      u.utilisation = u.peak > 0 && e.time_us > 0 ? u.demand / (u.peak * e.time_us * 1e-6) : 0;
    }
    double per = std::min(occ, std::ceil(n_full / mc_.sms));
    rings(e, kd, n_full, per);
    for (const RingCost& r : e.rings) e.cta_iterations_us += r.iteration_us * static_cast<double>(std::max<int64_t>(r.trips, 0));
    auto outside = resource_times(kd.outside, mc_, n_full, per);
    e.cta_outside_us = (*std::max_element(outside.begin(), outside.end()) + kd.outside_latency_s) * 1e6;
    if (options_.lines) lines(e, kd);
    e.ok = true;
    return e;
  }

 private:
  static Estimate fail(Estimate& e, std::string why) {
    e.ok = false;
    e.problem = std::move(why);
    return std::move(e);
  }

  void to_dram(Demand& d) const { d[Resource::Hbm] *= hbm_ratio_; }

  std::optional<int64_t> grid_ctas(const Env& env) const {
    const Kernel& k = m_.kernels[k_];
    if (k.grid.empty()) return std::nullopt;
    int64_t n = 1;
    for (ExprId g : k.grid) {
      auto v = eval_.eval(g, &env);
      if (!v || *v <= 0 || *v > (int64_t{1} << 40) / n) return std::nullopt;
      n *= *v;
    }
    return n;
  }

  std::optional<double> tensor_bytes(const Symbol& s, const Env& env) const {
    if (s.kind != SymbolKind::TensorParam) return std::nullopt;
    double n = dtype_bits(s.type.dtype) / 8.0;
    for (ExprId d : s.type.dims) {
      auto v = eval_.eval(d, &env);
      if (!v || *v <= 0) return std::nullopt;
      n *= static_cast<double>(*v);
    }
    return n;
  }

  /// One wave of `n` CTAs: the resources' roofline or, when longer, the
  /// warps' dependent chains: outside the rings the longest one, in each
  /// ring the iteration of the SM's closed network of warps (queue.h: the
  /// co-resident CTAs' warps queueing for the units), plus the latency the
  /// rings cannot hide. A CTA alone on its SM has no other CTA's main loop
  /// to hide its prologue and epilogue behind: they follow its rings, each
  /// part the longer of its roofline and its chains.
  WaveTime wave(const KernelDemand& kd, double n) const {
    double per = std::min(std::ceil(n / mc_.sms), std::max(1.0, n));
    auto t = resource_times(kd.cta, mc_, n, per);
    WaveTime w;
    w.bound = largest(t);
    w.resource = t[static_cast<size_t>(w.bound)];
    double chain_rings = 0, longest_ring = 0;
    std::optional<Resource> ring_unit;  // the longest ring's
    for (const RingDemand& r : kd.rings) {
      NetworkTime q = closed_network(r.classes, per);
      double trips = static_cast<double>(std::max<int64_t>(r.trips, 0)), ring = q.iteration_s * trips;
      chain_rings += ring;
      if (ring > longest_ring) longest_ring = ring, ring_unit = q.unit;
      auto [res, it] = ring_iteration(r, n, per, q.iteration_s);
      w.exposed += (it - res) * trips;
    }
    if (per > 1) {
      double chain = chain_rings + kd.outside_chain_s;
      w.chained = chain > w.resource;
      w.resource = std::max(w.resource, chain);
      if (longest_ring > kd.outside_chain_s) w.chain_unit = ring_unit;  // else the chain outside the rings: latency
    } else {
      // The rings, then the prologue and epilogue: each part the longer of
      // its roof and its chains; the longer part names the bound.
      Demand rings = kd.cta;
      rings += kd.outside.scaled(-1);
      auto tr = resource_times(rings, mc_, n, per), to = resource_times(kd.outside, mc_, n, per);
      double roof_rings = *std::max_element(tr.begin(), tr.end()), roof_outside = *std::max_element(to.begin(), to.end());
      double part_rings = std::max(roof_rings, chain_rings), part_outside = std::max(roof_outside, kd.outside_chain_s);
      bool rings_longer = part_rings >= part_outside;
      w.bound = largest(rings_longer ? tr : to);
      w.chained = rings_longer ? chain_rings > roof_rings : kd.outside_chain_s > roof_outside;
      if (rings_longer) w.chain_unit = ring_unit;  // else the chain outside the rings: latency
      w.resource = part_rings + part_outside;
    }
    // A CTA alone on its SM waits out its prologue's and epilogue's latency
    // every wave; co-resident CTAs start staggered, so after the first wave
    // another CTA's work covers it: run() charges it once per kernel.
    if (per <= 1) w.exposed += kd.outside_latency_s;
    w.total = w.resource + w.exposed;
    return w;
  }

  /// Per iteration: the resource time and the time with latency: a stage
  /// comes back every L + B + t, and S stages are in flight; the loop's own
  /// bookkeeping (stage index, phase, branch) is serial in the CTA, so it
  /// adds to every iteration whatever the stages hide. `network_s`: the
  /// ring's iteration in the SM's closed network of warps (closed_network()).
  std::pair<double, double> ring_iteration(const RingDemand& r, double n, double per, double network_s) const {
    auto t = resource_times(r.per_iteration, mc_, n, per);
    double res = std::max(*std::max_element(t.begin(), t.end()), network_s);
    double with_latency = (round_trip_s(r) + res) / static_cast<double>(std::max<int64_t>(1, r.stages));
    double overhead = mc_.cycles(mc_.device->iter_overhead_cycles.value);  // unknown: 0
    return {res, std::max(res, with_latency) + overhead};
  }
  /// A ring's load round trip: its slowest load and, when it waits on a
  /// barrier, the barrier's round trip (what its stages must cover).
  double round_trip_s(const RingDemand& r) const {
    return r.load_latency_s + (r.barriers ? mc_.cycles(mc_.device->lat_barrier_cycles.value) : 0);
  }

  void rings(Estimate& e, const KernelDemand& kd, double n, double per) const {
    for (const RingDemand& r : kd.rings) {
      RingCost c;
      if (options_.lines) c.line = lines_.position(m_.stmts[r.first].range.begin).line + 1;
      c.stmt = r.first;
      c.slowest_load = r.slowest_load;
      c.stages = r.stages;
      c.trips = r.trips;
      c.per_iteration = r.per_iteration;
      c.load_latency_us = r.load_latency_s * 1e6;
      c.round_trip_us = round_trip_s(r) * 1e6;
      c.ctas_per_sm = per;
      NetworkTime q = closed_network(r.classes, per);
      auto [res, it] = ring_iteration(r, n, per, q.iteration_s);
      c.resource_us = res * 1e6;
      c.iteration_us = it * 1e6;
      auto roofs = resource_times(r.per_iteration, mc_, n, per);
      c.bound = largest(roofs);
      c.roofline_us = roofs[static_cast<size_t>(c.bound)] * 1e6;
      for (size_t i = 0; i < r.classes.size(); ++i) {
        const WarpClass& w = r.classes[i];
        RingRole role{w.role, w.warps, {}, w.delay_s * 1e6, q.rounds_s[i] * 1e6};
        for (size_t k = 0; k < kResourceCount; ++k) role.hold_us[k] = w.hold_s[k] * 1e6;
        c.roles.push_back(role);
      }
      e.rings.push_back(c);
    }
  }

  void lines(Estimate& e, const KernelDemand& kd) const {
    for (const auto& [id, d] : kd.statements) {
      uint32_t line = lines_.position(m_.stmts[id].range.begin).line + 1;
      auto it = std::find_if(e.lines.begin(), e.lines.end(), [&](const LineCost& l) { return l.line == line; });
      if (it == e.lines.end()) {
        e.lines.push_back({line, op_text(m_.stmts[id]), {}, Resource::Issue, 0});
        it = e.lines.end() - 1;
      }
      it->demand += d.scaled(static_cast<double>(e.ctas));
    }
    for (LineCost& l : e.lines) {
      // The line alone on the whole device.
      auto t = resource_times(l.demand, mc_, 1, 1.0 / mc_.sms);
      l.resource = largest(t);
      l.time_us = t[static_cast<size_t>(l.resource)] * 1e6;
    }
    std::sort(e.lines.begin(), e.lines.end(), [](const LineCost& a, const LineCost& b) { return a.line < b.line; });
  }

  std::string_view op_text(const Stmt& s) const {
    std::string_view text = m_.written(s.keyword);
    return text.empty() ? std::string_view("statement") : text;
  }

  /// CTAs per SM: shared memory, registers, threads and blocks, from the
  /// kernel's facts on this target.
  bool occupancy(const TargetInfo& t, Occupancy& o) const {
    if (!facts_.roles() || !facts_.threads()) return false;
    const TargetFacts& f = facts_.on(t);
    if (!f.smem.complete || !f.registers.known) return false;
    o = fit_ctas(t, f.smem.total, f.registers.per_cta, *facts_.threads());
    return true;
  }

  const LineIndex& lines_;
  const KernelFacts& facts_;
  const Module& m_;
  uint32_t k_;
  const TargetInfo* info_;
  std::string_view target_;
  Machine mc_;
  const Evaluator& eval_;
  EstimateOptions options_;
  double hbm_ratio_ = 1;
};

/// One estimate per bench of the kernel, or one without a bench.
std::vector<Estimate> estimate_benches(const KernelFacts& facts, const LineIndex& lines,
                                       const TargetInfo* target, std::string_view target_name,
                                       const DeviceInfo& device, const EstimateOptions& options) {
  std::vector<Estimate> out;
  const Module& module = facts.module();
  SymbolId sym = module.kernels[facts.kernel()].symbol;
  for (size_t b = 0; b < module.benches.size(); ++b)
    if (module.benches[b].kernel_symbol == sym && sym != kNone)
      out.push_back(Estimator(facts, lines, target, target_name, device, options).run(static_cast<int32_t>(b)));
  if (out.empty()) out.push_back(Estimator(facts, lines, target, target_name, device, options).run(-1));
  return out;
}

}  // namespace

Occupancy fit_ctas(const TargetInfo& t, int64_t smem_buffers, int64_t regs, int64_t threads) {
  Occupancy o;
  int64_t gran = std::max<int64_t>(1, t.smem_alloc_granularity.value);
  int64_t smem_cta = (smem_buffers + t.smem_reserved_per_block.value + gran - 1) / gran * gran;
  o.threads = threads;
  o.smem_per_cta = smem_cta;
  o.smem_buffers = smem_buffers;
  o.regs_per_cta = regs;
  auto fit = [](int64_t pool, int64_t per) { return per > 0 ? pool / per : INT64_MAX; };
  std::pair<int64_t, std::string_view> limits[] = {
      {t.max_blocks_per_sm.value, "blocks"},
      {fit(t.smem_per_sm.value, smem_cta), "smem"},
      {fit(t.regs_per_sm.value, regs), "registers"},
      {fit(t.max_threads_per_sm.value, threads), "threads"}};
  auto* best = std::min_element(std::begin(limits), std::end(limits),
                                [](const auto& x, const auto& y) { return x.first < y.first; });
  o.ctas_per_sm = best->first;
  o.limiter = best->second;
  if (smem_cta - t.smem_reserved_per_block.value > t.smem_per_block_optin.value) o.ctas_per_sm = 0, o.limiter = "smem";
  return o;
}

std::vector<Estimate> estimate_kernel(const KernelFacts& facts, const LineIndex& lines,
                                      const TargetInfo& target, const DeviceInfo& device,
                                      const EstimateOptions& options) {
  return estimate_benches(facts, lines, &target, target.name, device, options);
}

std::vector<Estimate> estimate_kernel(const Module& module, const LineIndex& lines,
                                      uint32_t kernel, std::string_view target, const DeviceInfo& device,
                                      const EstimateOptions& options) {
  if (kernel >= module.kernels.size()) return {};
  KernelFacts facts(module, kernel);
  return estimate_benches(facts, lines, find_target(target), target, device, options);
}

Estimate estimate_bench(const Analysis& analysis, uint32_t kernel, int32_t bench, std::string_view target,
                        const DeviceInfo& device) {
  const Module& m = analysis.module;
  bool mine = kernel < m.kernels.size() && bench >= 0 && static_cast<size_t>(bench) < m.benches.size() &&
              m.kernels[kernel].symbol != kNone && m.benches[bench].kernel_symbol == m.kernels[kernel].symbol;
  if (!mine) {
    Estimate e;
    e.kernel = kernel;
    e.target = target;
    e.device = &device;
    e.bench = bench;
    e.problem = "no such bench of this kernel";
    return e;
  }
  KernelFacts facts(m, kernel);
  return Estimator(facts, analysis.lines, find_target(target), target, device, EstimateOptions{})
      .run(bench);
}

std::vector<Estimate> estimate_kernel(const Analysis& analysis, uint32_t kernel, std::string_view target,
                                      const DeviceInfo& device, const EstimateOptions& options) {
  return estimate_kernel(analysis.module, analysis.lines, kernel, target, device, options);
}

}  // namespace cake
