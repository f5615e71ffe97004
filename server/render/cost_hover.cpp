// The cost hover's markdown (render.h): a kernel's estimate table and
// roofline position, a pipeline's per-iteration breakdown, a line's demand.
#include "render.h"
#include "units.h"

#include <variant>

namespace cake::render {
namespace {

std::string demand_list(const Demand& d) {
  std::string s;
  for (size_t r = 0; r < kResourceCount; ++r)
    if (d.amount[r] > 0)
      s += "\n- " + std::string(resource_name(static_cast<Resource>(r))) + ": " +
           amount(d.amount[r], resource_unit(static_cast<Resource>(r)));
  return s;
}

/// "- consumer0 (4 warps): tensor 0.651 µs, issue 0.357 µs; round 1.573 µs".
std::string roles_list(const std::vector<RingRole>& roles) {
  std::string s;
  for (const RingRole& r : roles) {
    s += "\n- " + (r.role.empty() ? std::string("the kernel's warps") : "`" + std::string(r.role) + "`") + " (" +
         fixed_number(r.warps, 0) + " warps): ";
    std::string_view separator;
    for (size_t k = 0; k < kResourceCount; ++k)
      if (r.hold_us[k] > 0) {
        s += std::string(separator) + std::string(resource_name(static_cast<Resource>(k))) + " " + micros(r.hold_us[k], 3);
        separator = ", ";
      }
    if (r.waits_us > 0) s += std::string(separator) + "barriers " + micros(r.waits_us, 3);
    s += "; round " + micros(r.round_us, 3);
  }
  return s;
}

/// "sm_90a on H100-SXM5-80GB, M=4096, N=4096".
std::string estimate_label(const Estimate& e) {
  std::string shape = shape_text(bench_shape(e));
  return std::string(e.target) + " on " + std::string(e.device->id) + (shape.empty() ? "" : ", " + shape);
}

std::string kernel_markdown(const KernelCostHover& k) {
  std::string rows;
  for (const Estimate& e : k.estimates) {
    std::string shape = shape_text(bench_shape(e));
    rows += "| " + std::string(e.target) + " | " + std::string(e.device->id) + " | " + (shape.empty() ? "—" : shape) + " | ";
    if (!e.ok) {
      rows += "— | " + e.problem + " | — | — |\n";
      continue;
    }
    double util = e.bound < Bound::Latency ? e.resources[static_cast<size_t>(e.bound)].utilisation : 0;
    rows += micros(e.time_us, 1) + " | " + bound_text(e.bound, util) + " | " + std::to_string(e.occupancy.ctas_per_sm) +
            " CTA/SM (" + std::string(e.occupancy.limiter) + ") | " + fixed_number(e.waves, 2) + " |\n";
  }
  std::string roofline;
  if (const std::optional<Roofline>& r = k.roofline) {
    std::string shape = shape_text(r->shape);
    roofline = "Roofline (" + std::string(r->target) + (shape.empty() ? "" : ", " + shape) + "): ";
    if (r->has_ratio)
      roofline += fixed_number(r->intensity, 1) + " FLOP per DRAM byte against a ridge of " + fixed_number(r->ridge, 1) +
                  " (" + (r->intensity < r->ridge ? "memory" : "compute") + " side).";
    else
      roofline += "no DRAM traffic or no arithmetic.";
    roofline += " Achieved:";
    std::string_view separator = " ";
    for (const auto& [resource, utilisation] : r->achieved) {
      roofline += std::string(separator) + std::string(resource_name(resource)) + " " + percent(100 * utilisation);
      separator = ", ";
    }
    if (r->tail_fill < 1) roofline += ". Last wave " + percent(100 * r->tail_fill) + " full";
    roofline += ".";
  }
  return "**Estimated cost** (table " + std::string(k.table_version) +
         ")\n\n| target | device | bench | time | bound | occupancy | waves |\n"
         "|---|---|---|---|---|---|---|\n" +
         rows + (roofline.empty() ? "" : "\n" + roofline);
}

std::string pipeline_markdown(const PipelineCostHover& p) {
  const RingCost& ring = p.ring;
  std::string s = "**Per iteration** (" + estimate_label(p.estimate) + ", per CTA): ≈ " + micros(ring.iteration_us, 3) +
                  ", " + std::string(ring_bound(ring.latency_bound(), ring.bound)) + "-bound";
  s += "\n\n- " + std::to_string(ring.stages) + " stages" +
       (ring.trips >= 0 ? ", " + std::to_string(ring.trips) + " iterations" : std::string());
  s += "\n- roofline: " + micros(ring.roofline_us, 3) + " (" + std::string(resource_name(ring.bound)) + ")";
  if (ring.resource_us > ring.roofline_us * 1.0001)
    s += "; the warps' dependent work, queueing for the units: " + micros(ring.resource_us, 3);
  s += "\n- slowest load: " + micros(ring.load_latency_us, 3);
  if (ring.latency_bound()) s += ", " + micros(ring.iteration_us - ring.resource_us, 3) + " of it exposed per iteration";
  s += "\n\nDemand per iteration:" + demand_list(ring.per_iteration);
  if (!ring.roles.empty()) s += "\n\nEach role's warps per iteration (what one warp holds, and its round with the queueing):" + roles_list(ring.roles);
  return s;
}

std::string line_markdown(const LineCostHover& l) {
  const Estimate& e = l.estimate;
  std::string s = "**Cost of line " + std::to_string(l.line.line) + "** (`" + std::string(l.op) + "`, " +
                  estimate_label(e) + ", all CTAs): ≈ " + micros(l.line.time_us, 2) + " of " +
                  std::string(resource_name(l.line.resource));
  if (e.time_us > 0)
    s += " alone, " + percent(100 * l.line.time_us / e.time_us) + " of the kernel's " + micros(e.time_us, 1);
  s += "\n\nDemand:" + demand_list(l.line.demand);
  return s;
}

}  // namespace

std::string cost_hover_markdown(const CostHover& hover) {
  struct Visitor {
    std::string operator()(const KernelCostHover& k) const { return kernel_markdown(k); }
    std::string operator()(const PipelineCostHover& p) const { return pipeline_markdown(p); }
    std::string operator()(const LineCostHover& l) const { return line_markdown(l); }
  };
  return std::visit(Visitor{}, hover.what);
}

}  // namespace cake::render
