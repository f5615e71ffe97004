// CAKE-W0701: a pipeline ring too shallow to hide its load latency.
//
// The cost model (docs/cost-model.md, Rings) gives each ring its work per
// iteration t (the largest resource time at the co-resident CTAs' shares)
// and the round trip R a stage takes to come back (the slowest load of an
// iteration plus the barrier round trip). With S stages in flight an
// iteration takes max(t, (R + t) ÷ S): the other S − 1 stages' work covers
// (S − 1)·t of R, and the rest is exposed. The rule fires when the exposed
// part is a sizeable share of the iteration, and offers the smallest stage
// count that hides it and still fits shared memory: deeper rings take more
// smem, which can lower the CTAs per SM and with it each CTA's share of the
// work (t scales with the co-resident CTAs), so each candidate is re-fitted.
//
// The fix edits the `ring(N)` literal of every pipeline of the ring (the
// producer's and the consumers' loops: the ones with the same stage count
// that index the same buffers or barriers) and the literal leading dim of
// every buffer and mbarrier array they index by the stage, so the file
// stays valid. It is offered only when all of these are literals (a const
// may be shared with other kernels) and the kernel has no cp.async, whose
// rings carry their depth in a prologue and in `cp.async.wait` counts too.
#include "checks/arch_support.h"
#include "checks/performance.h"
#include "diag_builder.h"

#include <algorithm>
#include <cmath>

namespace cake {
namespace {

/// Below this share of an iteration, exposed latency is within the error
/// of the model's latencies (calibrated guesses): not worth a deeper ring.
constexpr double kMinExposedShare = 0.1;
/// Stage counts tried beyond the current one; real rings stay far below.
constexpr int64_t kMaxStages = 64;

/// The pipelines of one ring and what they index by their stage.
struct RingGroup {
  std::vector<StmtId> pipelines;
  std::vector<SymbolId> buffers;  // smem buffers and mbarrier arrays
};

class PipelineDepth {
 public:
  PipelineDepth(const PerfContext& c, std::vector<PerfFinding>& out) : c_(c), m_(c.m), out_(out), eval_(c.m) {}

  void run() {
    std::vector<StmtId> seen;
    for (const Estimate& e : c_.estimates)
      for (const RingCost& r : e.rings) {
        if (std::find(seen.begin(), seen.end(), r.stmt) != seen.end()) continue;
        if (ring(e, r)) seen.push_back(r.stmt);  // the first bench that shows it speaks for all
      }
  }

 private:
  const PipelineStmt* pipeline(StmtId id) const {
    return id < m_.stmts.size() ? std::get_if<PipelineStmt>(&m_.stmts[id].node) : nullptr;
  }

  bool ring(const Estimate& e, const RingCost& r) {
    const PipelineStmt* p = pipeline(r.stmt);
    if (!p || p->stages == kNone || p->stage == kNone || r.stages < 1 || r.resource_us <= 0 || r.ctas_per_sm <= 0)
      return false;
    if (r.trips >= 0 && r.trips <= r.stages) return false;  // every load is in flight at once already
    // The latency part of the iteration (not the loop's own bookkeeping,
    // which the model may add and no stage count hides).
    double latency = (r.round_trip_us + r.resource_us) / static_cast<double>(r.stages);
    double exposed = latency - r.resource_us;
    if (exposed < kMinExposedShare * latency) return false;

    RingGroup group = ring_group(r.stmt, r.stages);
    int64_t per_stage = stage_bytes(group);
    int64_t hides = 0, fits = r.stages;
    for (int64_t s = r.stages + 1; s <= kMaxStages; ++s) {
      Occupancy o = fit_ctas(c_.target, e.occupancy.smem_buffers + (s - r.stages) * per_stage,
                             e.occupancy.regs_per_cta, e.occupancy.threads);
      if (o.ctas_per_sm < 1) break;
      fits = s;
      double share = std::min(r.ctas_per_sm, static_cast<double>(o.ctas_per_sm));
      double work = r.resource_us / r.ctas_per_sm * share;
      if ((r.round_trip_us + work) / static_cast<double>(s) <= work) {
        hides = s;
        break;
      }
    }

    std::string var(m_.symbols[p->stage].name);
    double covered = static_cast<double>(r.stages - 1) * r.resource_us;
    PerfFinding f;
    f.id = DiagId::ShallowPipeline;
    ByteRange stages = m_.exprs[p->stages].range;
    f.range = p->ring.end > p->ring.begin ? p->ring : stages;
    std::string exposed_text = micros(exposed), work = micros(r.resource_us), stages_text = plural(r.stages, "stage"),
                covered_text = micros(covered), trip = micros(r.round_trip_us);
    if (hides > 0) {
      f.message = diag_message(DiagId::ShallowPipeline, var, exposed_text, kWhere, work, stages_text, covered_text,
                               trip, hides);
      offer_fix(f, group, hides);
    } else {
      auto needed = static_cast<int64_t>(std::ceil((r.round_trip_us + r.resource_us) / r.resource_us));
      f.message = fits > r.stages ? diag_message(DiagForm::ShallowPipelineFits, var, exposed_text, kWhere, work,
                                                 stages_text, covered_text, trip, needed, fits)
                                  : diag_message(DiagForm::ShallowPipelineFull, var, exposed_text, kWhere, work,
                                                 stages_text, covered_text, trip, needed);
    }
    for (StmtId other : group.pipelines)
      if (other != r.stmt) f.related.push_back({m_.stmts[other].keyword, "the same ring in another role"});
    if (r.slowest_load != kNone)
      f.related.push_back({m_.stmts[r.slowest_load].range,
                           "the slowest load of an iteration (" + micros(r.load_latency_us) + ")"});
    out_.push_back(std::move(f));
    return true;
  }

  /// The pipelines with `stages` stages that share buffers or barriers
  /// (by their stage index) with `first`, and those buffers.
  RingGroup ring_group(StmtId first, int64_t stages) const {
    std::vector<std::pair<StmtId, std::vector<SymbolId>>> all;
    for (StmtId id : c_.statements)
      if (const PipelineStmt* p = pipeline(id); p && p->stages != kNone && eval_.fold(p->stages) == stages)
        all.push_back({id, indexed_by_stage(id)});
    RingGroup g;
    g.pipelines.push_back(first);
    for (const auto& [id, syms] : all)
      if (id == first) g.buffers = syms;
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [id, syms] : all) {
        if (std::find(g.pipelines.begin(), g.pipelines.end(), id) != g.pipelines.end()) continue;
        bool shares = std::any_of(syms.begin(), syms.end(), [&](SymbolId s) {
          return std::find(g.buffers.begin(), g.buffers.end(), s) != g.buffers.end();
        });
        if (!shares) continue;
        g.pipelines.push_back(id);
        for (SymbolId s : syms)
          if (std::find(g.buffers.begin(), g.buffers.end(), s) == g.buffers.end()) g.buffers.push_back(s);
        grew = true;
      }
    }
    return g;
  }

  /// The smem buffers and mbarrier arrays that pipeline `id` indexes with
  /// its stage variable (`cs[s]`, `full[s, i]`): the Index expressions
  /// whose first index is a reference to the stage, in declaration order.
  std::vector<SymbolId> indexed_by_stage(StmtId id) const {
    std::vector<SymbolId> out;
    SymbolId var = std::get<PipelineStmt>(m_.stmts[id].node).stage;
    if (var == kNone) return out;
    for (ExprId ref : m_.symbols[var].refs) {
      ExprId at = m_.exprs[ref].parent;
      if (at == kNone) continue;
      const Expr& index = m_.exprs[at];
      if (index.kind != Expr::Kind::Index || index.items.empty() || index.items[0].kind != IndexItem::Kind::Scalar ||
          index.items[0].start != ref || index.lhs == kNone)
        continue;
      const Expr& base = m_.exprs[index.lhs];
      if (base.kind != Expr::Kind::Name || base.symbol == kNone) continue;
      SymbolKind kind = m_.symbols[base.symbol].kind;
      if (kind != SymbolKind::Smem && kind != SymbolKind::Mbarrier) continue;
      if (std::find(out.begin(), out.end(), base.symbol) == out.end()) out.push_back(base.symbol);
    }
    std::sort(out.begin(), out.end());  // symbols are numbered in declaration order
    return out;
  }

  /// Shared memory one more stage of the ring takes: a stage of each buffer
  /// and an mbarrier of each array, as the kernel's layout places them
  /// (KernelFacts, the layout E0301 checks and the occupancy fits).
  int64_t stage_bytes(const RingGroup& g) const {
    const SmemLayout& layout = c_.facts.on(c_.target).smem;
    int64_t n = 0;
    for (SymbolId id : g.buffers)
      if (const SmemSlot* slot = layout.find(id)) n += slot->stride;
    return n;
  }

  /// The literal that sizes `id` by the stage count, or kNone.
  ExprId stage_literal(SymbolId id) const {
    const Symbol& s = m_.symbols[id];
    ExprId e = s.kind == SymbolKind::Mbarrier ? s.value : s.type.stage_dims.size() == 1 ? s.type.stage_dims[0] : kNone;
    return e != kNone && m_.exprs[e].kind == Expr::Kind::Int ? e : kNone;
  }

  bool has_cp_async() const {
    return std::any_of(c_.statements.begin(), c_.statements.end(), [&](StmtId id) {
      const auto* mv = std::get_if<MoveStmt>(&m_.stmts[id].node);
      return mv && mv->op == Op::CpAsync;
    });
  }

  void offer_fix(PerfFinding& f, const RingGroup& g, int64_t stages) const {
    if (has_cp_async()) return;
    std::string n = std::to_string(stages);
    Fix fix{"use a " + n + "-stage ring", {}, true};
    for (StmtId id : g.pipelines) {
      ExprId e = pipeline(id)->stages;
      if (e == kNone || m_.exprs[e].kind != Expr::Kind::Int) return;
      fix.edits.push_back({m_.exprs[e].range, n});
    }
    for (SymbolId id : g.buffers) {
      ExprId e = stage_literal(id);
      if (e == kNone) return;
      fix.edits.push_back({m_.exprs[e].range, n});
    }
    f.fixes.push_back(std::move(fix));
  }

  const PerfContext& c_;
  const Module& m_;
  std::vector<PerfFinding>& out_;
  Evaluator eval_;
};

}  // namespace

void check_pipeline_depth(const PerfContext& c, std::vector<PerfFinding>& out) { PipelineDepth(c, out).run(); }

}  // namespace cake
