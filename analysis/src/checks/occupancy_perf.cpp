// The W07xx rules about how a kernel fills the GPU and its tensor cores:
//   - CAKE-W0702: the last wave of a bench's grid is under half full and
//     costs a noticeable share of the kernel (needs a bench);
//   - CAKE-W0704: a wgmma narrower than 64 columns whose shared-memory
//     operand reads outlast its tensor-core time;
//   - CAKE-W0705: one CTA per SM in a kernel with a single role.
// The numbers are the cost model's (cake/cost.h, docs/cost-model.md).
#include "checks/arch_support.h"
#include "checks/performance.h"
#include "diag_builder.h"
#include "cost/demand.h"

#include <algorithm>

namespace cake {
namespace {

/// W0702: a last wave under this fill leaves more than half the GPU idle
/// for a wave's time (cake-ir.md §5).
constexpr double kTailFill = 0.5;
/// W0702: ...and is reported when the time it adds beyond its share is at
/// least this share of the kernel: with many full waves a tail matters
/// little, and below it the tail is within the model's own error (the L2
/// and latency figures of the device tables are partly guesses).
constexpr double kMinTailShare = 0.1;
/// W0704: wgmma's narrowest efficient N (cake-ir.md §5): below it the
/// 64-row A tile is read for too few columns of B.
constexpr int64_t kWgmmaFullN = 64;

std::string shape_text(const Estimate& e) {
  std::string out;
  for (const auto& [name, value] : e.shape) out += (out.empty() ? "" : ", ") + std::string(name) + " = " + std::to_string(value);
  return out;
}

/// The bench binding of a symbol the grid reads, or the bench item.
ByteRange bench_span(const Module& m, const Kernel& k, const Bench& b) {
  Evaluator eval(m);
  std::vector<SymbolId> syms;
  for (ExprId g : k.grid) eval.free_symbols(g, syms);
  for (const BenchBinding& binding : b.bindings)
    if (std::find(syms.begin(), syms.end(), binding.symbol) != syms.end()) return binding.name_range;
  return b.range;
}

/// The kernel's register fragment with the most bytes, or `fallback`.
RelatedSpan largest_fragment(const PerfContext& c, RelatedSpan fallback) {
  const Evaluator& eval = c.typer.evaluator();
  int64_t most = 0;
  for (StmtId id : c.statements) {
    const auto* d = std::get_if<DeclStmt>(&c.m.stmts[id].node);
    if (!d || d->symbol == kNone || c.m.symbols[d->symbol].kind != SymbolKind::Reg) continue;
    const Symbol& s = c.m.symbols[d->symbol];
    auto bytes = eval.bytes_of(s.type);
    if (!bytes || *bytes <= most) continue;
    most = *bytes;
    fallback = {s.decl, "the largest register fragment (" + size_text(static_cast<double>(most)) + ")"};
  }
  return fallback;
}

/// The shared-memory buffer that takes the most bytes of the kernel's
/// layout (as placed, with its padding), or `fallback`.
RelatedSpan largest_buffer(const PerfContext& c, RelatedSpan fallback) {
  int64_t most = 0;
  for (const SmemSlot& slot : c.facts.on(c.target).smem.slots) {
    if (slot.barrier || slot.tmem_address || slot.bytes <= most) continue;
    most = slot.bytes;
    fallback = {c.m.symbols[slot.symbol].decl,
                "the largest shared-memory buffer (" + size_text(static_cast<double>(most)) + ")"};
  }
  return fallback;
}

}  // namespace

void check_tail_wave(const PerfContext& c, std::vector<PerfFinding>& out) {
  const Kernel& k = c.m.kernels[c.kernel];
  for (const Estimate& e : c.estimates) {
    if (!e.ok || e.bench < 0 || e.full_waves < 1 || e.tail_fill >= kTailFill || e.time_us <= 0) continue;
    if (e.tail_us < kMinTailShare * e.time_us) continue;
    double full = c.device.sms.value * static_cast<double>(e.occupancy.ctas_per_sm);
    auto rest = static_cast<int64_t>(static_cast<double>(e.ctas) - static_cast<double>(e.full_waves) * full + 0.5);
    char waves[32];
    std::snprintf(waves, sizeof waves, "%.2f", e.waves);
    PerfFinding f;
    f.id = DiagId::TailWave;
    f.range = k.grid_range;
    f.message = diag_message(DiagId::TailWave, e.ctas, shape_text(e), std::string(waves), static_cast<int64_t>(full),
                             e.occupancy.ctas_per_sm, kWhere, rest, percent(e.tail_fill), micros(e.tail_us),
                             percent(e.tail_us / e.time_us), micros(e.time_us));
    f.related.push_back({bench_span(c.m, k, c.m.benches[static_cast<size_t>(e.bench)]), "the bench shape"});
    out.push_back(std::move(f));
  }
}

void check_wgmma_width(const PerfContext& c, std::vector<PerfFinding>& out) {
  if (!c.target.has(Feature::Wgmma)) return;  // elsewhere E0201 reports it
  Machine mc = machine_of(c.device, true);
  const Evaluator& eval = c.typer.evaluator();
  double smem_rate = mc.achieved[static_cast<size_t>(Resource::Smem)] / mc.sms;  // B/s of one SM
  for (StmtId id : c.statements) {
    const auto* mma = std::get_if<MmaStmt>(&c.m.stmts[id].node);
    if (!mma || mma->op != Op::Wgmma) continue;
    Typed a = c.typer.type_of(mma->a), b = c.typer.type_of(mma->b);
    if (a.dims.size() < 2 || b.dims.size() < 2) continue;
    auto M = eval.fold(a.dims[a.dims.size() - 2]), K = eval.fold(a.dims.back()), N = eval.fold(b.dims.back());
    if (!M || !K || !N || *M <= 0 || *K <= 0 || *N <= 0 || *N >= kWgmmaFullN) continue;
    double flops = 2.0 * static_cast<double>(*M) * static_cast<double>(*N) * static_cast<double>(*K);
    double bytes = 0;
    for (const Typed* t : {&a, &b})
      if (t->space == Space::Smem) {
        double n = stored_bits(t->dtype) / 8.0;
        for (ExprId d : t->dims) n *= static_cast<double>(eval.fold(d).value_or(0));
        bytes += n;
      }
    double rate = mc.tensor_rate(Op::Wgmma, a.dtype, c.typer.type_of(mma->acc).dtype, true);
    if (rate <= 0 || smem_rate <= 0 || bytes <= 0) continue;
    double ratio = (bytes / smem_rate) / (flops / rate);
    if (ratio <= 1) continue;  // the tensor cores still set its pace
    char times[32];
    std::snprintf(times, sizeof times, "%.2f", ratio);
    PerfFinding f;
    f.id = DiagId::NarrowWgmma;
    f.range = c.m.stmts[id].keyword;
    f.message = diag_message(DiagId::NarrowWgmma, *N, kWhere, size_text(bytes), static_cast<int64_t>(flops),
                             std::string(times), percent(1 / ratio), kWgmmaFullN);
    if (b.root != kNone && c.m.symbols[b.root].kind == SymbolKind::Smem)
      f.related.push_back({c.m.symbols[b.root].decl, "B operand: N = " + std::to_string(*N) + " columns"});
    out.push_back(std::move(f));
  }
}

void check_single_cta(const PerfContext& c, std::vector<PerfFinding>& out) {
  const Kernel& k = c.m.kernels[c.kernel];
  const Occupancy& o = c.estimates.front().occupancy;
  if (o.ctas_per_sm != 1 || k.symbol == kNone) return;
  auto roles = std::count_if(k.body.begin(), k.body.end(),
                             [&](StmtId id) { return std::holds_alternative<RoleStmt>(c.m.stmts[id].node); });
  if (roles > 1) return;  // specialised: the roles overlap each other's latency
  // Nothing to wait for without a global read: no latency for a second CTA to hide.
  bool reads_global = std::any_of(c.statements.begin(), c.statements.end(), [&](StmtId id) {
    const auto* mv = std::get_if<MoveStmt>(&c.m.stmts[id].node);
    if (!mv) return false;
    Space from = c.typer.type_of(mv->src).space;
    return from == Space::Global || from == Space::Const;
  });
  if (!reads_global) return;
  RelatedSpan related{k.block_range, "the block size"};
  const TargetInfo& t = c.target;
  std::string_view name = c.m.symbols[k.symbol].name;
  PerfFinding f;
  if (o.limiter == "smem") {
    // The layout's bytes (KernelFacts: the number E0301 checks), then what
    // the SM sets aside for the CTA with its per-block reservation.
    f.message = diag_message(DiagId::SingleCtaPerSm, name, kWhere, o.smem_buffers,
                             size_text(static_cast<double>(o.smem_per_cta)),
                             size_text(static_cast<double>(t.smem_per_sm.value)));
    related = largest_buffer(c, related);
  } else if (o.limiter == "registers") {
    f.message = diag_message(DiagForm::SingleCtaRegisters, name, kWhere, o.regs_per_cta, t.regs_per_sm.value);
    related = largest_fragment(c, related);
  } else {
    f.message = diag_message(DiagForm::SingleCtaThreads, name, kWhere, o.limiter, o.threads,
                             t.max_threads_per_sm.value);
  }
  f.id = DiagId::SingleCtaPerSm;
  f.range = c.m.symbols[k.symbol].def;
  f.related.push_back(std::move(related));
  out.push_back(std::move(f));
}

}  // namespace cake
