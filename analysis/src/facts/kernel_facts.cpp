// KernelFacts (kernel_facts.h): the role partition, the shared-memory
// layout, the register and tensor-memory plans and the shape samples of one
// kernel, each computed on first use. The formulas are documented in the
// header; the checks that report on them (E0301..E0312) and the cost model
// (docs/cost-model.md, Occupancy) read them from here only.
#include "cake/kernel_facts.h"

#include "cake/ops.h"

#include "facts/samples.h"
#include "facts/walk.h"
#include "cake/checked.h"
#include "cake/fragments.h"

#include <algorithm>
#include <bit>

namespace cake {
namespace {

/// `t`'s index in all_targets(), or past its end for another table.
size_t target_index(const TargetInfo& t) {
  std::span<const TargetInfo> all = all_targets();
  if (&t < all.data() || &t >= all.data() + all.size()) return all.size();
  return static_cast<size_t>(&t - all.data());
}

/// The warp size the partition uses: the first listed target's in table
/// order (every table says 32), 32 when none is known.
int64_t partition_warp_size(const Module& m) {
  std::span<const TargetInfo> all = all_targets();
  size_t first = all.size();
  for (const Target& t : m.targets)
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == t.name) first = std::min(first, i);
  return first < all.size() ? all[first].warp_size.value : 32;
}

/// The product of `dims`, each a non-negative constant, or nullopt.
std::optional<int64_t> product(const Evaluator& eval, const std::vector<ExprId>& dims, std::optional<int64_t> n = 1) {
  for (ExprId e : dims) {
    auto v = eval.fold(e);
    n = v && *v >= 0 && n ? checked_mul(*n, *v) : std::nullopt;
  }
  return n;
}

// Section - shared memory

/// An mbarrier array on `t`: each barrier's bytes rounded up to its
/// alignment; false when the target's tables do not say.
bool place_barriers(SmemSlot& slot, const TargetInfo& t) {
  if (!t.mbarrier_bytes.known()) return false;
  auto each = round_up(t.mbarrier_bytes.value, t.mbarrier_align.value);
  auto total = each ? checked_mul(slot.count, *each) : std::nullopt;
  if (!total) return false;
  slot.stride = *each;
  slot.bytes = *total;
  slot.align = t.mbarrier_align.value;
  return true;
}

SmemLayout smem_layout(const Module& m, const Evaluator& eval, const Kernel& k, const TargetInfo& t) {
  SmemLayout out;
  for (StmtId id : k.body) {
    const auto* d = std::get_if<DeclStmt>(&m.stmts[id].node);
    if (!d || d->symbol == kNone) continue;
    const Symbol& s = m.symbols[d->symbol];
    SmemSlot slot;
    slot.symbol = d->symbol;
    if (s.kind == SymbolKind::Smem) {
      auto tile = eval.stored_bytes_of(s.type, s.type.stage_dims.size());
      auto stages = product(eval, s.type.stage_dims);
      if (!tile || !stages) {
        out.complete = false;
        continue;
      }
      slot.count = *stages;
      slot.stage_bytes = *tile;
      if (s.type.swizzle != Swizzle::None) {
        // A swizzled tile's stages each start at the swizzle's repeat.
        const SwizzleRule* rule = t.swizzle(s.type.swizzle);
        auto stride = rule ? round_up(*tile, rule->align.value) : std::nullopt;
        auto total = stride ? checked_mul(slot.count, *stride) : std::nullopt;
        if (!total) {  // no rule for this swizzle on `t` (E02xx), or an overflow
          out.complete = false;
          continue;
        }
        slot.stride = *stride;
        slot.bytes = *total;
        slot.align = rule->align.value;
      } else {
        auto raw = checked_mul(slot.count, *tile);
        auto total = raw ? round_up(*raw, t.smem_buffer_align.value) : std::nullopt;
        if (!total) {
          out.complete = false;
          continue;
        }
        slot.stride = *tile;
        slot.bytes = *total;
        slot.align = t.smem_buffer_align.value;
      }
    } else if (s.kind == SymbolKind::Mbarrier) {
      auto n = s.value == kNone ? std::optional<int64_t>(1) : eval.fold(s.value);
      if (!n || *n <= 0) continue;  // E0312 (or E0112) reports it
      slot.barrier = true;
      slot.count = *n;
      slot.stage_bytes = t.mbarrier_bytes.value;
      if (!place_barriers(slot, t)) continue;
    } else if (s.kind == SymbolKind::Tmem) {
      // tcgen05.alloc writes the allocation's address to shared memory.
      slot.tmem_address = true;
      slot.stage_bytes = slot.stride = slot.bytes = slot.align = 4;
    } else {
      continue;
    }
    slot.align = std::max<int64_t>(1, slot.align);
    out.slots.push_back(slot);
  }
  // Place by decreasing alignment: every slot's bytes are a multiple of its
  // (power-of-two) alignment, so no padding falls between slots.
  std::vector<size_t> order(out.slots.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return out.slots[a].align > out.slots[b].align; });
  int64_t offset = 0;
  bool overflow = false;
  for (size_t i : order) {
    SmemSlot& slot = out.slots[i];
    auto at = overflow ? std::nullopt : round_up(offset, slot.align);
    auto end = at ? checked_add(*at, slot.bytes) : std::nullopt;
    if (!end) {
      overflow = true;
      slot.offset = INT64_MAX;
      continue;
    }
    slot.offset = *at;
    offset = *end;
  }
  out.total = overflow ? INT64_MAX : offset;
  return out;
}

// Section - roles

RolePartition role_partition(const Module& m, const Evaluator& eval, uint32_t index, std::optional<int64_t> threads) {
  const Kernel& k = m.kernels[index];
  RolePartition out;
  int64_t warp = partition_warp_size(m);
  if (warp <= 0) warp = 32;
  out.block_ok = threads && *threads > 0 && *threads % warp == 0 && *threads / warp <= 64;
  if (out.block_ok) out.warps = *threads / warp;
  uint64_t all = warp_range_mask(0, out.warps);
  uint64_t covered = 0;              // warps of the roles so far
  std::array<uint32_t, 64> owner{};  // the first role of each covered warp
  std::vector<RolePlan>& roles = out.roles;
  for (StmtId id : k.body) {
    const auto* r = std::get_if<RoleStmt>(&m.stmts[id].node);
    if (!r) continue;
    out.has_roles = true;
    size_t self = roles.size();
    RolePlan res;
    res.stmt = id;
    res.name = r->symbol != kNone ? m.symbols[r->symbol].name : std::string_view("role");
    res.header = r->symbol != kNone ? m.symbols[r->symbol].def : m.stmts[id].keyword;
    if (!r->spec.entries.empty())
      res.spec = {r->spec.entries.front().range.begin, r->spec.entries.back().range.end};
    else
      res.spec = res.header;
    if (r->maxnreg != kNone) {
      res.maxnreg = eval.fold(r->maxnreg);
      res.maxnreg_value = m.exprs[r->maxnreg].range;
    }
    res.known = out.block_ok;
    if (r->spec.kind == RoleSpec::Kind::All) res.mask = all;
    int64_t per = r->spec.kind == RoleSpec::Kind::Warpgroup ? kWarpsPerWarpgroup : 1;
    for (const RoleSpec::Entry& e : r->spec.entries) {
      auto first = eval.fold(e.first);
      auto end = e.end == kNone ? (first ? checked_add(*first, 1) : std::nullopt) : eval.fold(e.end);
      if (!first || !end) {
        res.known = false;
        continue;
      }
      if (*end <= *first || *first < 0) {
        PartitionProblem p{PartitionProblem::Kind::NoWarps, e.range};
        p.role = self;
        p.warpgroups = per != 1;
        out.problems.push_back(p);
        res.known = false;
        continue;
      }
      auto lo = checked_mul(*first, per), hi = checked_mul(*end, per);
      if (!lo || !hi) {
        res.known = false;
        continue;
      }
      if (out.block_ok && *hi > out.warps) {
        res.beyond = true;
        PartitionProblem p{PartitionProblem::Kind::Beyond, e.range};
        p.role = self;
        p.lo = *lo;
        p.hi = *hi;
        out.problems.push_back(p);
      }
      uint64_t mask = warp_range_mask(*lo, std::min<int64_t>(*hi, out.warps)) & all;
      if (out.block_ok && (mask & res.mask)) {
        PartitionProblem p{PartitionProblem::Kind::Twice, e.range};
        p.role = self;
        p.mask = mask & res.mask;
        out.problems.push_back(p);
      }
      if (out.block_ok && (covered & mask)) {
        PartitionProblem p{PartitionProblem::Kind::Overlap, e.range};
        p.role = self;
        p.other = owner[std::countr_zero(covered & mask)];
        p.mask = roles[p.other].mask & mask;
        out.problems.push_back(p);
      }
      res.mask |= mask;
    }
    if (r->spec.kind == RoleSpec::Kind::All && out.block_ok && covered) {
      PartitionProblem p{PartitionProblem::Kind::AllAfterOthers, m.stmts[id].keyword};
      p.role = self;
      p.other = owner[std::countr_zero(covered)];
      p.mask = roles[p.other].mask;
      out.problems.push_back(p);
    }
    // Record the first owner of each warp, for the overlap reports.
    for (uint64_t fresh = res.mask & ~covered; fresh; fresh &= fresh - 1)
      owner[std::countr_zero(fresh)] = static_cast<uint32_t>(self);
    covered |= res.mask;
    roles.push_back(std::move(res));
  }
  if (!out.has_roles) {
    RolePlan res;
    res.name = k.symbol != kNone ? m.symbols[k.symbol].name : std::string_view("kernel");
    res.header = k.symbol != kNone ? m.symbols[k.symbol].def : k.range;
    res.spec = k.block_range.end > 0 ? k.block_range : res.header;
    res.mask = all;
    res.known = out.block_ok;
    roles.push_back(std::move(res));
  } else if (out.block_ok && std::all_of(roles.begin(), roles.end(), [](const RolePlan& r) { return r.known; })) {
    if (uint64_t gap = all & ~covered) {
      PartitionProblem p{PartitionProblem::Kind::Unowned, k.block_range.end > 0 ? k.block_range : k.range};
      p.mask = gap;
      out.problems.push_back(p);
    }
  }
  // Fragments, warpgroup-wide ops and expect_tx inside each role.
  std::vector<StmtId> stack;
  for (RolePlan& r : roles) {
    const std::vector<StmtId>& body = r.stmt == kNone ? k.body : std::get<RoleStmt>(m.stmts[r.stmt].node).body;
    walk_statements(m, body, stack, [&](StmtId id) {
      const Stmt& s = m.stmts[id];
      if (const auto* d = std::get_if<DeclStmt>(&s.node)) {
        if (d->symbol == kNone) return;
        const Symbol& sym = m.symbols[d->symbol];
        if (sym.kind != SymbolKind::Reg) return;
        auto n = product(eval, sym.type.dims, product(eval, sym.type.stage_dims));
        if (n) r.fragments.push_back({d->symbol, *n, dtype_bits(sym.type.dtype), sym.type.layout});
      } else if (std::optional<Op> op = op_of(s); op && op_info(*op).issue == OpIssue::Warpgroup) {
        if (r.first_wgmma == kNone) r.first_wgmma = id;
      } else if (const auto* a = std::get_if<ArriveStmt>(&s.node)) {
        if (a->op == Op::ArriveExpectTx) r.arrivals.push_back(id);
      }
    });
  }
  return out;
}

// Section - registers

RegisterPlan register_plan(const RolePartition& p, std::optional<int64_t> threads, const TargetInfo& info) {
  RegisterPlan out;
  out.known = p.block_ok;
  if (!out.known || !threads) return out;
  int64_t t = *threads;
  int64_t warp = info.warp_size.value;
  out.unit = info.reg_alloc_unit_per_warp.value / std::max<int64_t>(1, warp);
  if (out.unit > 0) out.pool = info.max_regs_per_block.value / (out.unit * t) * out.unit * t;
  bool setmax = info.has(Feature::Setmaxnreg);
  int64_t with_maxnreg = 0, widest = 0;
  int64_t unit = std::max<int64_t>(1, out.unit);
  for (const RolePlan& r : p.roles) {
    RoleRegisters rr;
    rr.threads = r.threads(warp);
    rr.from_maxnreg = r.maxnreg && setmax;
    rr.budget = rr.from_maxnreg
                    ? *r.maxnreg
                    : std::min(info.max_regs_per_thread.value, info.max_regs_per_block.value / (unit * t) * unit);
    rr.need = kRegisterOverhead;
    for (const RolePlan::Fragment& f : r.fragments) {
      int64_t regs = fragment_registers(f.layout, f.elements, f.bits, warp);
      rr.fragments.push_back(regs);
      rr.need = std::min<int64_t>(rr.need + regs, INT64_MAX / 4);
    }
    if (rr.from_maxnreg) {
      with_maxnreg = checked_add(with_maxnreg, checked_mul(*r.maxnreg, rr.threads).value_or(INT64_MAX / 4))
                         .value_or(INT64_MAX / 4);
    } else {
      auto rounded = round_up(rr.need, unit).value_or(rr.need);
      widest = std::max(widest, std::min<int64_t>(rounded, info.max_regs_per_thread.value));
    }
    out.roles.push_back(std::move(rr));
  }
  out.per_cta = std::max(with_maxnreg, checked_mul(widest, t).value_or(INT64_MAX / 4));
  return out;
}

// Section - tensor memory

TmemPlan tmem_plan(const Module& m, const Evaluator& eval, const Kernel& k, const TargetInfo& t) {
  TmemPlan out;
  out.cell_bits = t.tmem_cell_bits.value;
  for (StmtId id : k.body) {
    const auto* d = std::get_if<DeclStmt>(&m.stmts[id].node);
    if (!d || d->symbol == kNone || m.symbols[d->symbol].kind != SymbolKind::Tmem) continue;
    const Symbol& s = m.symbols[d->symbol];
    TmemBuffer b;
    b.symbol = d->symbol;
    b.two_dims = s.type.dims.size() == 2;
    if (b.two_dims) {
      b.lanes = eval.fold(s.type.dims[0]);
      b.columns = eval.fold(s.type.dims[1]);
      std::optional<int64_t> stages = 1;
      for (ExprId e : s.type.stage_dims) {
        auto v = eval.fold(e);
        stages = v && stages ? checked_mul(*stages, *v) : std::nullopt;
      }
      b.stages = stages;
      unsigned bits = stored_bits(s.type.dtype);
      if (b.columns && stages && bits != 0 && *b.columns > 0 && out.cell_bits > 0) {
        auto cells = checked_mul(*b.columns, bits);
        auto rounded = cells ? round_up(*cells, out.cell_bits) : std::nullopt;
        b.allocated = rounded ? checked_mul(*rounded / out.cell_bits, *stages) : std::nullopt;
      }
      if (b.allocated && t.tmem_columns.known()) {
        int64_t a = *b.allocated;
        if (a >= t.tmem_alloc_min_columns.value && a <= t.tmem_columns.value &&
            std::has_single_bit(static_cast<uint64_t>(a)))
          b.valid = true;
      }
      if (b.valid) out.columns = checked_add(out.columns, *b.allocated).value_or(INT64_MAX);
    }
    b.end = out.columns;
    out.buffers.push_back(b);
  }
  return out;
}

}  // namespace

const TmemBuffer* TmemPlan::find(SymbolId symbol) const {
  for (const TmemBuffer& b : buffers)
    if (b.symbol == symbol) return &b;
  return nullptr;
}

const SmemSlot* SmemLayout::find(SymbolId symbol) const {
  for (const SmemSlot& s : slots)
    if (s.symbol == symbol) return &s;
  return nullptr;
}

KernelFacts::KernelFacts(const Module& module, uint32_t kernel) : m_(module), k_(kernel), eval_(module) {
  const Kernel& k = m_.kernels[k_];
  if (k.block != kNone) threads_ = eval_.fold(k.block);
}

const std::optional<std::vector<RoleView>>& KernelFacts::roles() const {
  if (!roles_) roles_ = kernel_roles(m_, eval_, k_);
  return *roles_;
}

const RolePartition& KernelFacts::partition() const {
  if (!partition_) partition_ = role_partition(m_, eval_, k_, threads_);
  return *partition_;
}

const std::vector<Env>& KernelFacts::samples() const {
  if (!samples_) samples_ = shape_samples(m_, eval_, k_);
  return *samples_;
}

const TargetFacts& KernelFacts::on(const TargetInfo& target) const {
  size_t i = target_index(target);
  std::unique_ptr<TargetFacts>* slot = nullptr;
  if (i < all_targets().size() && i < targets_.size()) {
    slot = &targets_[i];
  } else {
    // Not one of all_targets() (a caller's own table).
    for (std::unique_ptr<TargetFacts>& o : others_)
      if (o->target == &target) return *o;
    slot = &others_.emplace_back();
  }
  if (*slot) return **slot;
  auto f = std::make_unique<TargetFacts>();
  const Kernel& k = m_.kernels[k_];
  f->target = &target;
  f->smem = smem_layout(m_, eval_, k, target);
  f->registers = register_plan(partition(), threads_, target);
  f->tmem = tmem_plan(m_, eval_, k, target);
  *slot = std::move(f);
  return **slot;
}

const KernelFacts& FactsCache::kernel(uint32_t k) const {
  if (!kernels_[k]) kernels_[k] = std::make_unique<KernelFacts>(m_, k);
  return *kernels_[k];
}

}  // namespace cake
