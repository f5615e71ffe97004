// Cost in the editor (cake/query_cost.h): what code lenses, inlay hints on
// costly lines and hovers show, as numbers, all from estimate_kernel() on
// kernel-unit models (server/render/ makes the text). docs/cost-model.md
// says what the numbers mean.
#include "cake/query_cost.h"

#include "cost/estimate.h"
#include "cake/kernel_facts.h"
#include "cake/eval.h"

#include <algorithm>

namespace cake {

BenchShape bench_shape(const Estimate& e) {
  BenchShape shape;
  for (const auto& [name, value] : e.shape) shape.emplace_back(std::string(name), value);
  return shape;
}

CostTarget cost_target(const std::vector<std::string>& targets, std::string_view requested_device) {
  for (const std::string& t : targets)
    if (const DeviceInfo* d = device_for(t, requested_device)) return {t, d};
  return {};
}

namespace {

KernelCosts::Lens lens_of(const Estimate& e) {
  KernelCosts::Lens l;
  l.ok = e.ok;
  l.device = std::string(e.device->id);
  l.shape = bench_shape(e);
  if (!e.ok) {
    l.problem = e.problem;
    if (!e.rings.empty()) l.iteration_us = e.rings.front().iteration_us;
    return l;
  }
  l.time_us = e.time_us;
  l.bound = e.bound;
  if (e.bound < Bound::Latency) l.utilisation = e.resources[static_cast<size_t>(e.bound)].utilisation;
  return l;
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
  std::vector<Estimate> estimates = estimate_kernel(m, lines, *k, at.target, *at.device);
  for (const Estimate& e : estimates) out.lens.push_back(lens_of(e));
  auto add_hint = [&](uint32_t line, KernelCosts::Hint hint) {
    uint32_t end = line_end(lines, line);
    if (end < piece.begin || end > piece.end) return;
    hint.offset = end - piece.begin;
    out.hints.push_back(hint);
  };
  if (const Estimate* e = first_with_shapes(estimates)) {
    for (const LineCost& l : e->lines)
      if (e->time_us > 0 && l.time_us >= kCostlyLineShare * e->time_us)
        add_hint(l.line, {.time_us = l.time_us, .kernel_us = e->time_us, .resource = l.resource});
  } else if (!estimates.empty()) {
    // No shapes: each ring's time per iteration, at its pipeline.
    for (const RingCost& r : estimates.front().rings)
      add_hint(r.line, {.per_iteration = true, .time_us = r.iteration_us, .resource = r.bound,
                        .latency_bound = r.latency_bound()});
  }
  std::sort(out.hints.begin(), out.hints.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return out;
}

std::vector<DocumentCosts::Entry> DocumentCosts::kernels(Document& doc, const CostTarget& at,
                                                         const std::vector<Diagnostic>& diagnostics, ByteRange range) {
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
    bool errors = wanted && doc.kernel_has_errors(i, diagnostics);
    key = errors ? ~key : key;  // a kernel with errors has its own summary
    auto found = cache_.find(key);
    auto kept = next.find(key);  // a twin kernel (same text and start line) cannot exist; be safe anyway
    // Node handles keep the summary where it is: unchanged kernels keep their addresses.
    if (kept == next.end() && found != cache_.end()) kept = next.insert(cache_.extract(found)).position;
    if (!wanted) continue;
    if (kept == next.end() && errors) {
      KernelCosts none;
      KernelCosts::Lens lens;
      lens.device = std::string(at.device->id);
      lens.problem = std::string(kNotEstimatedWithErrors);
      none.lens.push_back(std::move(lens));
      kept = next.emplace(key, std::move(none)).first;
    }
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
std::optional<KernelCostHover> kernel_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t k,
                                            std::string_view requested_device) {
  KernelCostHover out;
  KernelFacts facts(m, k);  // one for every target's estimates
  for (const Target& t : m.targets) {
    const DeviceInfo* device = device_for(t.name, requested_device);
    const TargetInfo* info = find_target(t.name);
    if (!device || !info) continue;
    out.table_version = device->version;
    for (Estimate& e : estimate_kernel(facts, lines, *info, *device)) {
      if (e.ok && !out.roofline) {
        // The roofline position of the first estimate: FLOPs per DRAM byte
        // against the ridge (peak compute ÷ peak DRAM bandwidth).
        Roofline r;
        r.target = t.name;
        r.shape = bench_shape(e);
        const ResourceUse& hbm = e.resources[static_cast<size_t>(Resource::Hbm)];
        const ResourceUse& tc = e.resources[static_cast<size_t>(Resource::Tensor)];
        const ResourceUse& cc = e.resources[static_cast<size_t>(Resource::CudaCore)];
        const ResourceUse& compute = tc.demand > 0 ? tc : cc;
        if (hbm.demand > 0 && hbm.peak > 0 && compute.peak > 0) {
          r.has_ratio = true;
          r.intensity = compute.demand / hbm.demand;
          r.ridge = compute.peak / hbm.peak;
        }
        for (size_t i = 0; i < kResourceCount; ++i)
          if (e.resources[i].demand > 0) r.achieved.push_back({static_cast<Resource>(i), e.resources[i].utilisation});
        r.tail_fill = e.tail_fill;
        out.roofline = std::move(r);
      }
      out.estimates.push_back(std::move(e));
    }
  }
  if (out.estimates.empty()) return std::nullopt;
  return out;
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
  std::vector<Estimate> estimates = estimate_kernel(m, lines, k, target, *at.device);
  if (const Estimate* e = first_with_shapes(estimates)) return *e;
  if (estimates.empty()) return std::nullopt;
  return std::move(estimates.front());
}

std::optional<PipelineCostHover> pipeline_hover(Estimate e, const Module& m, const PipelineStmt& p, uint32_t line) {
  auto stages = p.stages == kNone ? std::nullopt : Evaluator(m).fold(p.stages);
  const RingCost* ring = nullptr;
  for (const RingCost& r : e.rings)
    if (r.line == line) ring = &r;
  for (const RingCost& r : e.rings)
    if (!ring && (!stages || r.stages == *stages)) ring = &r;
  if (!ring) return std::nullopt;
  RingCost found = *ring;
  return PipelineCostHover{std::move(e), std::move(found)};
}

std::optional<LineCostHover> statement_hover(Estimate e, uint32_t line, std::string_view op) {
  auto it = std::find_if(e.lines.begin(), e.lines.end(), [&](const LineCost& l) { return l.line == line; });
  if (it == e.lines.end() || !e.ok) return std::nullopt;
  LineCost found = *it;
  return LineCostHover{std::move(e), std::move(found), op};
}

}  // namespace

std::optional<CostHover> cost_hover(const Module& m, std::string_view text, const LineIndex& lines, uint32_t offset,
                                    std::string_view requested_device) {
  for (uint32_t k = 0; k < m.kernels.size(); ++k) {
    const Kernel& kernel = m.kernels[k];
    if (kernel.symbol == kNone || offset < kernel.range.begin || offset > kernel.range.end) continue;
    ByteRange name = m.symbols[kernel.symbol].def;
    if (name.begin <= offset && offset <= name.end) {
      std::optional<KernelCostHover> h = kernel_hover(m, text, lines, k, requested_device);
      if (!h) return std::nullopt;
      return CostHover{name, std::move(*h)};
    }
    // A statement of this kernel whose keyword is under the cursor.
    for (const Stmt& st : m.stmts) {
      if (st.keyword.begin > offset || offset > st.keyword.end || st.keyword.end == st.keyword.begin) continue;
      if (st.range.begin < kernel.range.begin || st.range.end > kernel.range.end) continue;
      auto e = primary_estimate(m, text, lines, k, requested_device);
      if (!e) return std::nullopt;
      uint32_t line = lines.position(st.range.begin).line + 1;
      if (const auto* p = std::get_if<PipelineStmt>(&st.node)) {
        std::optional<PipelineCostHover> h = pipeline_hover(std::move(*e), m, *p, line);
        if (!h) return std::nullopt;
        return CostHover{st.keyword, std::move(*h)};
      }
      std::optional<LineCostHover> h =
          statement_hover(std::move(*e), line, text.substr(st.keyword.begin, st.keyword.end - st.keyword.begin));
      if (!h) return std::nullopt;
      return CostHover{st.keyword, std::move(*h)};
    }
  }
  return std::nullopt;
}

}  // namespace cake
