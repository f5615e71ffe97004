// Cost in the editor (cake/query_cost.h): code lens titles, inlay hints on
// costly lines and hover text, all from estimate_kernel() on kernel-unit
// models. docs/cost-model.md says what the numbers mean.
#include "cake/query_cost.h"

#include "cost/estimate.h"
#include "facts/kernel_facts.h"
#include "semantics/eval.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cake {

std::string fixed_number(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string shape_text(const Estimate& e, std::string_view separator) {
  std::string shape;
  for (const auto& [name, value] : e.shape)
    shape += (shape.empty() ? "" : std::string(separator)) + std::string(name) + "=" + std::to_string(value);
  return shape;
}

CostTarget cost_target(const std::vector<std::string>& targets, std::string_view requested_device) {
  for (const std::string& t : targets)
    if (const DeviceInfo* d = device_for(t, requested_device)) return {t, d};
  return {};
}

namespace {

/// "1.5 MB", "3.2 GFLOP": an amount with an SI prefix.
std::string amount_text(double v, std::string_view unit) {
  static constexpr std::pair<double, const char*> kPrefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto& [scale, prefix] : kPrefixes)
    if (v >= scale) return fixed_number(v / scale, 1) + " " + prefix + std::string(unit);
  return fixed_number(v, v == std::floor(v) ? 0 : 1) + " " + std::string(unit);
}

std::string bound_text(const Estimate& e) {
  std::string bound = std::string(bound_name(e.bound)) + "-bound";
  if (e.bound < Bound::Latency) bound += " " + fixed_number(100 * e.resources[static_cast<size_t>(e.bound)].utilisation, 0) + " %";
  return bound;
}

std::string ring_bound(const RingCost& r) {
  return r.latency_bound() ? std::string("latency") : std::string(resource_name(r.bound));
}

std::string lens_title(const Estimate& e) {
  std::string device(e.device->id);
  if (!e.ok) {
    if (e.rings.empty()) return "cost: " + e.problem + " · " + device;
    return "≈ " + fixed_number(e.rings.front().iteration_us, 3) + " µs per iteration (" + e.problem + ") · " + device;
  }
  std::string shape = shape_text(e);
  return "≈ " + fixed_number(e.time_us, 1) + " µs · " + bound_text(e) + " · " + device + (shape.empty() ? "" : " · " + shape);
}

/// The kernel of a unit model: the one whose name lies in `piece` (a unit
/// model holds one kernel; the whole-file model holds them all).
std::optional<uint32_t> kernel_in(const Module& m, ByteRange piece) {
  for (uint32_t k = 0; k < m.kernels.size(); ++k)
    if (piece.begin <= m.kernels[k].range.begin && m.kernels[k].range.begin < piece.end) return k;
  return std::nullopt;
}

/// The end of 1-based line `line`.
uint32_t line_end(const LineIndex& lines, uint32_t line) {
  return lines.line_start(line - 1) + static_cast<uint32_t>(lines.line_text(line - 1).size());
}

const Estimate* first_with_shapes(const std::vector<Estimate>& estimates) {
  for (const Estimate& e : estimates)
    if (e.ok) return &e;
  return nullptr;
}

}  // namespace

KernelCosts kernel_costs(const Module& m, std::string_view text, const LineIndex& lines, ByteRange piece,
                         const CostTarget& at) {
  KernelCosts out;
  auto k = at.device ? kernel_in(m, piece) : std::nullopt;
  if (!k) return out;
  std::vector<Estimate> estimates = estimate_kernel(m, text, lines, *k, at.target, *at.device);
  for (const Estimate& e : estimates) out.lens.push_back(lens_title(e));
  auto add_hint = [&](uint32_t line, std::string label) {
    uint32_t end = line_end(lines, line);
    if (end >= piece.begin && end <= piece.end) out.hints.push_back({end - piece.begin, std::move(label)});
  };
  if (const Estimate* e = first_with_shapes(estimates)) {
    for (const LineCost& l : e->lines)
      if (e->time_us > 0 && l.time_us >= kCostlyLineShare * e->time_us)
        add_hint(l.line, "≈ " + fixed_number(l.time_us, 1) + " µs " + std::string(resource_name(l.resource)) + " · " +
                             fixed_number(100 * l.time_us / e->time_us, 0) + " %");
  } else if (!estimates.empty()) {
    // No shapes: each ring's time per iteration, at its pipeline.
    for (const RingCost& r : estimates.front().rings)
      add_hint(r.line, "≈ " + fixed_number(r.iteration_us, 3) + " µs/iteration · " + ring_bound(r));
  }
  std::sort(out.hints.begin(), out.hints.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return out;
}

std::vector<DocumentCosts::Entry> DocumentCosts::kernels(Document& doc, const CostTarget& at, ByteRange range) {
  std::vector<Entry> out;
  if (!at.device) return out;
  std::unordered_map<uint64_t, KernelCosts> next;
  const std::vector<KernelUnit>& units = doc.kernel_units();
  uint64_t salt = std::hash<std::string_view>{}(at.target) * 31 + std::hash<std::string_view>{}(at.device->id);
  for (size_t i = 0; i < units.size(); ++i) {
    const KernelUnit& u = units[i];
    // The start line is in the key too: hints and titles name lines.
    uint64_t key = u.key ^ (salt + 0x9e3779b97f4a7c15ull + (u.key << 6) + (u.key >> 2));
    key ^= static_cast<uint64_t>(doc.lines().position(u.piece.begin).line) * 0x100000001b3ull;
    bool wanted = u.piece.end >= range.begin && u.piece.begin <= range.end;
    auto found = cache_.find(key);
    auto kept = next.find(key);  // a twin kernel (same text and start line) cannot exist; be safe anyway
    // Node handles keep the summary where it is: unchanged kernels keep their addresses.
    if (kept == next.end() && found != cache_.end()) kept = next.insert(cache_.extract(found)).position;
    if (!wanted) continue;
    if (kept == next.end())
      kept = next.emplace(key, kernel_costs(doc.kernel_model(i), doc.text(), doc.lines(), u.piece, at)).first;
    out.push_back({&u, &kept->second});
  }
  // Only the current kernels' summaries stay. Moving the map keeps its
  // nodes, so the pointers in `out` stay valid.
  cache_ = std::move(next);
  return out;
}

namespace {

/// The hover on a kernel's name: every target's estimates.
std::string kernel_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t k,
                         std::string_view requested_device) {
  std::string rows, roofline, version;
  KernelFacts facts(m, k);  // one for every target's estimates
  for (const Target& t : m.targets) {
    const DeviceInfo* device = device_for(t.name, requested_device);
    const TargetInfo* info = find_target(t.name);
    if (!device || !info) continue;
    version = device->version;
    for (const Estimate& e : estimate_kernel(facts, text, lines, *info, *device)) {
      std::string shape = shape_text(e);
      rows += "| " + std::string(t.name) + " | " + std::string(device->id) + " | " + (shape.empty() ? "—" : shape) + " | ";
      if (!e.ok) {
        rows += "— | " + e.problem + " | — | — |\n";
        continue;
      }
      rows += fixed_number(e.time_us, 1) + " µs | " + bound_text(e) + " | " + std::to_string(e.occupancy.ctas_per_sm) +
              " CTA/SM (" + std::string(e.occupancy.limiter) + ") | " + fixed_number(e.waves, 2) + " |\n";
      if (!roofline.empty()) continue;
      // The roofline position of the first estimate: FLOPs per DRAM byte
      // against the ridge (peak compute ÷ peak DRAM bandwidth).
      const ResourceUse& hbm = e.resources[static_cast<size_t>(Resource::Hbm)];
      const ResourceUse& tc = e.resources[static_cast<size_t>(Resource::Tensor)];
      const ResourceUse& cc = e.resources[static_cast<size_t>(Resource::CudaCore)];
      const ResourceUse& compute = tc.demand > 0 ? tc : cc;
      roofline = "Roofline (" + std::string(t.name) + (shape.empty() ? "" : ", " + shape) + "): ";
      if (hbm.demand > 0 && hbm.peak > 0 && compute.peak > 0) {
        double intensity = compute.demand / hbm.demand, ridge = compute.peak / hbm.peak;
        roofline += fixed_number(intensity, 1) + " FLOP per DRAM byte against a ridge of " + fixed_number(ridge, 1) +
                    " (" + (intensity < ridge ? "memory" : "compute") + " side).";
      } else {
        roofline += "no DRAM traffic or no arithmetic.";
      }
      roofline += " Achieved:";
      std::string_view separator = " ";
      for (size_t r = 0; r < kResourceCount; ++r)
        if (e.resources[r].demand > 0) {
          roofline += std::string(separator) + std::string(resource_name(static_cast<Resource>(r))) + " " +
                      fixed_number(100 * e.resources[r].utilisation, 0) + " %";
          separator = ", ";
        }
      if (e.tail_fill < 1) roofline += ". Last wave " + fixed_number(100 * e.tail_fill, 0) + " % full";
      roofline += ".";
    }
  }
  if (rows.empty()) return {};
  return "**Estimated cost** (table " + version + ")\n\n| target | device | bench | time | bound | occupancy | waves |\n"
         "|---|---|---|---|---|---|---|\n" + rows + (roofline.empty() ? "" : "\n" + roofline);
}

std::string demand_text(const Demand& d) {
  std::string s;
  for (size_t r = 0; r < kResourceCount; ++r)
    if (d.amount[r] > 0)
      s += "\n- " + std::string(resource_name(static_cast<Resource>(r))) + ": " +
           amount_text(d.amount[r], resource_unit(static_cast<Resource>(r)));
  return s;
}

/// The estimate the statement hovers use: the first target's, with shapes when a bench gives them.
std::optional<Estimate> primary_estimate(const Module& m, std::string_view text, const LineIndex& lines, uint32_t k,
                                         std::string_view requested_device) {
  std::vector<std::string> targets;
  for (const Target& t : m.targets) targets.emplace_back(t.name);
  CostTarget at = cost_target(targets, requested_device);
  if (!at.device) return std::nullopt;
  // Estimate::target views its argument: give it the model's copy of the
  // name (in `text`), which outlives the estimate, not `at`'s.
  std::string_view target = at.target;
  for (const Target& t : m.targets)
    if (t.name == at.target) target = t.name;
  std::vector<Estimate> estimates = estimate_kernel(m, text, lines, k, target, *at.device);
  if (const Estimate* e = first_with_shapes(estimates)) return *e;
  if (estimates.empty()) return std::nullopt;
  return std::move(estimates.front());
}

std::string estimate_label(const Estimate& e) {
  std::string shape = shape_text(e);
  return std::string(e.target) + " on " + std::string(e.device->id) + (shape.empty() ? "" : ", " + shape);
}

std::string pipeline_hover(const Estimate& e, const Module& m, const PipelineStmt& p, uint32_t line) {
  auto stages = p.stages == kNone ? std::nullopt : Evaluator(m).fold(p.stages);
  const RingCost* ring = nullptr;
  for (const RingCost& r : e.rings)
    if (r.line == line) ring = &r;
  for (const RingCost& r : e.rings)
    if (!ring && (!stages || r.stages == *stages)) ring = &r;
  if (!ring) return {};
  std::string s = "**Per iteration** (" + estimate_label(e) + ", per CTA): ≈ " + fixed_number(ring->iteration_us, 3) +
                  " µs, " + ring_bound(*ring) + "-bound";
  s += "\n\n- " + std::to_string(ring->stages) + " stages" +
       (ring->trips >= 0 ? ", " + std::to_string(ring->trips) + " iterations" : std::string());
  s += "\n- resources alone: " + fixed_number(ring->resource_us, 3) + " µs (" + std::string(resource_name(ring->bound)) + ")";
  s += "\n- slowest load: " + fixed_number(ring->load_latency_us, 3) + " µs";
  if (ring->latency_bound())
    s += ", " + fixed_number(ring->iteration_us - ring->resource_us, 3) + " µs of it exposed per iteration";
  s += "\n\nDemand per iteration:" + demand_text(ring->per_iteration);
  return s;
}

std::string statement_hover(const Estimate& e, uint32_t line, std::string_view op) {
  auto it = std::find_if(e.lines.begin(), e.lines.end(), [&](const LineCost& l) { return l.line == line; });
  if (it == e.lines.end() || !e.ok) return {};
  std::string s = "**Cost of line " + std::to_string(line) + "** (`" + std::string(op) + "`, " + estimate_label(e) +
                  ", all CTAs): ≈ " + fixed_number(it->time_us, 2) + " µs of " + std::string(resource_name(it->resource));
  if (e.time_us > 0) s += " alone, " + fixed_number(100 * it->time_us / e.time_us, 0) + " % of the kernel's " + fixed_number(e.time_us, 1) + " µs";
  s += "\n\nDemand:" + demand_text(it->demand);
  return s;
}

}  // namespace

std::optional<HoverInfo> cost_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t offset,
                                      std::string_view requested_device) {
  for (uint32_t k = 0; k < m.kernels.size(); ++k) {
    const Kernel& kernel = m.kernels[k];
    if (kernel.symbol == kNone || offset < kernel.range.begin || offset > kernel.range.end) continue;
    ByteRange name = m.symbols[kernel.symbol].def;
    if (name.begin <= offset && offset <= name.end) {
      std::string s = kernel_hover(m, text, lines, k, requested_device);
      if (s.empty()) return std::nullopt;
      return HoverInfo{name, std::move(s), {}};
    }
    // A statement of this kernel whose keyword is under the cursor.
    for (const Stmt& st : m.stmts) {
      if (st.keyword.begin > offset || offset > st.keyword.end || st.keyword.end == st.keyword.begin) continue;
      if (st.range.begin < kernel.range.begin || st.range.end > kernel.range.end) continue;
      auto e = primary_estimate(m, text, lines, k, requested_device);
      if (!e) return std::nullopt;
      uint32_t line = lines.position(st.range.begin).line + 1;
      std::string s;
      if (const auto* p = std::get_if<PipelineStmt>(&st.node)) s = pipeline_hover(*e, m, *p, line);
      else s = statement_hover(*e, line, text.substr(st.keyword.begin, st.keyword.end - st.keyword.begin));
      if (s.empty()) return std::nullopt;
      return HoverInfo{st.keyword, std::move(s), {}};
    }
  }
  return std::nullopt;
}

}  // namespace cake
