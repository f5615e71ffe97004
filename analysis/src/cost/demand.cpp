// kernel_demand(): the per-statement demand walk (demand.h). Each statement
// is costed once per execution, times the trip counts of the loops around it
// and the number of units that execute it (cake-ir.md §4b: a tile op is
// collective over its fragment's owners; tma.load, bulk.load and the MMA
// issue of tcgen05 run once per executing thread).
#include "cost/demand.h"

#include "cake/builtins.h"
#include "cake/ops.h"
#include "cake/banks.h"
#include "facts/walk.h"
#include "cake/fragments.h"
#include "cake/typing.h"

#include <algorithm>
#include <cmath>

namespace cake {

Demand& Demand::operator+=(const Demand& o) {
  for (size_t i = 0; i < kResourceCount; ++i) amount[i] += o.amount[i];
  tensor_peak_s += o.tensor_peak_s;
  tensor_s += o.tensor_s;
  return *this;
}

Demand Demand::scaled(double k) const {
  Demand d = *this;
  for (double& a : d.amount) a *= k;
  d.tensor_peak_s *= k;
  d.tensor_s *= k;
  return d;
}

/// The efficiency of a tensor-core op on operands of `dtype` (8-bit and
/// narrower ones have their own where the table gives it), null for any
/// other op.
static const DeviceParam* tensor_efficiency(const DeviceInfo& d, Op op, DType dtype) {
  bool narrow = dtype_bits(dtype) <= 8;
  auto pick = [&](const DeviceParam& wide, const DeviceParam& f8) { return narrow && f8.known() ? &f8 : &wide; };
  switch (op) {
    case Op::Mma: return &d.eff_mma_sync;
    case Op::Wgmma: return pick(d.eff_wgmma, d.eff_wgmma_f8);
    case Op::Tcgen05Mma: return pick(d.eff_tcgen05, d.eff_tcgen05_f8);
    case Op::Load: case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore: case Op::BulkLoad:
    case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp:
    case Op::CpAsyncCommit: case Op::WgmmaFence: case Op::WgmmaCommit: case Op::TmaStoreCommit:
    case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt: case Op::Syncthreads: case Op::ClusterSync:
    case Op::FenceProxyAsync: case Op::CpAsyncWait: case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive:
    case Op::ArriveExpectTx: case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow: return nullptr;
  }
  return nullptr;
}

double Machine::tensor_rate(Op op, DType dtype, DType acc, bool achieved_rate) const {
  const DeviceInfo& d = *device;
  const DeviceParam* peak = nullptr;
  // An f16 accumulator runs at its own rate where the table has one
  // (GeForce parts: twice the f32-accumulate rate), else as an f32 one.
  auto by_acc = [&](const DeviceParam& f32_acc, const DeviceParam& f16_acc) {
    return acc == DType::F16 && f16_acc.known() ? &f16_acc : &f32_acc;
  };
  switch (dtype) {
    case DType::F16: peak = by_acc(d.tc_tflops_f16, d.tc_tflops_f16_acc_f16); break;
    case DType::BF16: peak = &d.tc_tflops_f16; break;
    case DType::TF32:
    case DType::F32: peak = &d.tc_tflops_tf32; break;
    // The 6- and 4-bit floats go through tcgen05.mma's kind::f8f6f4, the
    // 8-bit floats' rate (CUTLASS, blackwell_functionality.md: "2x Hopper
    // Fp8"); the tables' FP4 peak is the block-scaled kinds' (mxf4nvf4),
    // which the language has no scale factors for.
    case DType::F8E4M3:
    case DType::F8E5M2:
    case DType::F6E3M2:
    case DType::F6E2M3:
    case DType::F4E2M1: peak = by_acc(d.tc_tflops_f8, d.tc_tflops_f8_acc_f16); break;
    case DType::I8:
    case DType::U8: peak = &d.tc_tops_i8; break;
    // No tensor-core rate: the verifier refuses such MMA operands.
    case DType::F64: case DType::I64: case DType::I32: case DType::I16: case DType::U64: case DType::U32:
    case DType::U16: case DType::B32: case DType::Pred: case DType::Unknown:
      return 0;
  }
  const DeviceParam* eff = tensor_efficiency(d, op, dtype);
  if (!eff || !peak->known() || !eff->known()) return 0;
  return peak->value * 1e12 / sms * (achieved_rate ? eff->value : 1.0);
}

Machine machine_of(const DeviceInfo& d, bool tensor_work) {
  Machine m;
  m.device = &d;
  m.hz = (tensor_work && d.clock_tensor_mhz.known() ? d.clock_tensor_mhz.value : d.clock_mhz.value) * 1e6;
  m.sms = d.sms.value;
  auto set = [&](Resource r, double peak, const DeviceParam& eff) {
    m.peak[static_cast<size_t>(r)] = peak;
    m.achieved[static_cast<size_t>(r)] = peak * eff.value;
  };
  set(Resource::Hbm, d.hbm_gbps.value * 1e9, d.eff_hbm);
  set(Resource::L2, d.l2_bytes_per_clk_sm.value * m.sms * m.hz, d.eff_l2);
  set(Resource::Smem, d.smem_bytes_per_clk_sm.value * m.hz * m.sms, d.eff_smem);
  set(Resource::CudaCore, d.fp32_tflops.value * 1e12 / 2, d.eff_fp32);  // one op = one lane-instruction (an FMA is 2 FLOP)
  // The special-function unit has no efficiency of its own: its roof is the
  // table's rate, at the SM clock of the kernel.
  m.peak[static_cast<size_t>(Resource::Sfu)] = m.achieved[static_cast<size_t>(Resource::Sfu)] =
      d.sfu_per_clk_sm.value * m.hz * m.sms;
  set(Resource::Issue, d.issue_per_clk_sm.value * m.hz * m.sms, d.eff_issue);
  return m;
}

bool has_tensor_work(const Module& m, const std::vector<RoleView>& roles) {
  std::vector<StmtId> stack;
  bool found = false;
  for (const RoleView& r : roles)
    if (r.body && !found)
      walk_statements(m, *r.body, stack, [&](StmtId id) { found = found || std::holds_alternative<MmaStmt>(m.stmts[id].node); });
  return found;
}

namespace {

/// Bytes moved by one collective tile instruction of a warp (16 B per lane).
constexpr double kBytesPerWarpInstr = 16 * 32;
/// M x N of one mma.sync instruction (m16n8kK).
constexpr double kMmaSyncMN = 16 * 8;
/// Bits of K one MMA instruction takes (mma.sync, wgmma and tcgen05.mma
/// alike): k16 for 16-bit operands, k32 for 8-bit, k8 for tf32.
constexpr double kMmaK16Bits = 16 * 16;
/// Warp schedulers (sub-partitions) of an SM: one warp runs on one of them.
constexpr double kSchedulersPerSm = 4;

class Walker {
 public:
  Walker(const Module& m, const Env& env, const Machine& machine, bool per_statement, const Kernel& kernel)
      : m_(m), env_(env), mc_(machine), typer_(m, nullptr), eval_(m), per_statement_(per_statement),
        banks_(find_target(machine.device->arch)), pairs_(kernel.cta_group == 2) {
    for (ExprId g : kernel.grid) {
      auto v = eval_.eval(g, &env_);
      if (!v || *v <= 0) {
        grid_.clear();
        break;
      }
      grid_.push_back(*v);
    }
    block_ = m.builtin("block");
  }

  KernelDemand run(const std::vector<RoleView>& roles) {
    for (const RoleView& r : roles) {
      role_ = &r;
      role_latency_ = 0;
      async_latency_ = 0;
      role_outside_chain_ = 0;
      role_classes_.clear();
      Ctx c;
      c.threads = r.threads();
      c.warps = r.warps;
      walk(*r.body, c);
      close_segment();
      out_.outside_latency_s = std::max(out_.outside_latency_s, role_latency_ + async_latency_);
      out_.outside_chain_s = std::max(out_.outside_chain_s, role_outside_chain_);
      for (size_t i = 0; i < role_classes_.size(); ++i)
        if (role_classes_[i].chain_s() > 0) out_.rings[i].classes.push_back(role_classes_[i]);
    }
    return std::move(out_);
  }

 private:
  /// A loop around the statement: its variable (and a pipeline's stage
  /// symbol), bounds and step, for the branch fraction of an `if` inside.
  struct Loop {
    SymbolId variable = kNone, stage = kNone;
    ExprId start = kNone, end = kNone, step = kNone, stages = kNone;
  };
  struct Ctx {
    double cta = 1;    // executions per CTA
    double iter = 1;   // executions per ring iteration
    int ring = -1;     // index into out_.rings
    int64_t threads = 0, warps = 0;  // that execute the statement
    std::vector<Loop> loops;  // outermost first
  };

  std::optional<int64_t> value(ExprId e) const { return e == kNone ? std::nullopt : eval_.eval(e, &env_); }

  /// Elements of an operand's remaining dims, or nullopt.
  std::optional<double> elements(const Typed& t) const {
    double n = 1;
    for (ExprId d : t.dims) {
      auto v = value(d);
      if (!v || *v < 0) return std::nullopt;
      n *= static_cast<double>(*v);
    }
    return n;
  }

  /// The grid's CTAs when `block.x`/`y`/`z` can be bound (capped at
  /// 2^40), else 0.
  int64_t grid_ctas() const {
    if (block_ == kNone || grid_.empty() || grid_.size() > 3) return 0;
    int64_t total = 1;
    for (int64_t g : grid_) total = total > (int64_t{1} << 40) / g ? (int64_t{1} << 40) : total * g;
    return total;
  }

  /// Binds `block.x`/`y`/`z` in `env` to those of sample `k` of `samples`
  /// CTAs evenly spread over the grid's `total` (x fastest).
  void bind_sampled_cta(Env& env, int64_t k, int64_t samples, int64_t total) const {
    static constexpr std::string_view kAxes[] = {"x", "y", "z"};
    int64_t cta = samples == total ? k : static_cast<int64_t>(static_cast<double>(k) * total / samples);
    for (size_t d = 0; d < grid_.size(); ++d) {
      env.fields[block_][kAxes[d]] = cta % grid_[d];
      cta /= grid_[d];
    }
  }

  /// A loop's trips. When its bounds read `block.x`/`y`/`z` (a causal
  /// kernel's loop up to its diagonal), the mean over the grid's CTAs
  /// (at most 1,024 of them, evenly spread): the CTA the model prices is
  /// the average one.
  std::optional<double> trips(ExprId start, ExprId end, ExprId step) const {
    if (auto t = eval_.trips(start, end, step, &env_)) return static_cast<double>(*t);
    int64_t total = grid_ctas();
    if (total == 0) return std::nullopt;
    int64_t samples = std::min<int64_t>(total, 1024);
    Env env = env_;
    double sum = 0;
    for (int64_t i = 0; i < samples; ++i) {
      bind_sampled_cta(env, i, samples, total);
      auto t = eval_.trips(start, end, step, &env);
      if (!t) return std::nullopt;
      sum += static_cast<double>(*t);
    }
    return sum / static_cast<double>(samples);
  }

  /// The fraction of an `if`'s executions whose condition holds: counted
  /// over the iterations of the loops around it and the grid's CTAs, with
  /// shape symbols, loop variables (a pipeline's stage and phase too) and
  /// `block.x`/`y`/`z` bound. At most kBranchCtas CTAs are visited, evenly
  /// spread, and each loop contributes at most the d-th root of
  /// kBranchEvaluations / CTAs iterations (d loops deep; at least 2, at most
  /// kBranchIterations), evenly spread with the first and last included: an
  /// `if` costs at most about kBranchEvaluations evaluations however deep it
  /// sits, which keeps hover and code lens fast. nullopt when the condition
  /// reads anything else (a scalar parameter, `role.rank`, `lane`, ...) or no
  /// iteration runs.
  static constexpr int64_t kBranchIterations = 128, kBranchCtas = 16, kBranchEvaluations = 4096;
  std::optional<double> branch_fraction(ExprId condition, const std::vector<Loop>& loops) const {
    int64_t total = grid_ctas();
    bool per_cta = total > 0;
    int64_t ctas = per_cta ? std::min(total, kBranchCtas) : 1;
    int64_t per_loop = kBranchIterations;
    if (!loops.empty()) {
      double root = std::pow(static_cast<double>(kBranchEvaluations / ctas), 1.0 / static_cast<double>(loops.size()));
      per_loop = std::clamp<int64_t>(static_cast<int64_t>(root), 2, kBranchIterations);
    }
    double taken = 0, executed = 0;
    bool known = true;
    Env env = env_;
    // Visits loop `depth` (and the ones inside) under `env`, with `weight`
    // executions standing for each visited iteration.
    auto visit = [&](auto& self, size_t depth, double weight) -> void {
      if (!known) return;
      if (depth == loops.size()) {
        auto v = eval_.eval(condition, &env);
        if (!v) { known = false; return; }
        executed += weight;
        if (*v != 0) taken += weight;
        return;
      }
      const Loop& l = loops[depth];
      auto start = eval_.eval(l.start, &env);
      auto n = eval_.trips(l.start, l.end, l.step, &env);
      auto step = l.step == kNone ? std::optional<int64_t>(1) : eval_.eval(l.step, &env);
      auto stages = l.stages == kNone ? std::optional<int64_t>(1) : eval_.eval(l.stages, &env);
      if (!start || !n || !step || !stages || *stages <= 0) { known = false; return; }
      int64_t samples = std::min(*n, per_loop);
      for (int64_t k = 0; k < samples && known; ++k) {
        int64_t i = samples == *n ? k : (samples == 1 ? 0 : k * (*n - 1) / (samples - 1));
        int64_t value = *start + i * *step;
        env.values[l.variable] = value;
        if (l.stage != kNone) {
          env.values[l.stage] = value % *stages;
          env.fields[l.stage]["phase"] = (value / *stages) % 2;
        }
        self(self, depth + 1, weight * static_cast<double>(*n) / static_cast<double>(samples));
      }
    };
    for (int64_t k = 0; k < ctas && known; ++k) {
      if (per_cta) bind_sampled_cta(env, k, ctas, total);
      visit(visit, 0, 1.0);
    }
    if (!known || executed <= 0) return std::nullopt;
    return taken / executed;
  }

  void walk(const std::vector<StmtId>& body, const Ctx& c) {
    for (StmtId id : body) statement(id, c);
  }

  /// What a statement keeps its warp busy with (warp_hold()).
  enum class Holds : uint8_t {
    Units,       // its demand on the SM's units, at the warp's share
    TensorCore,  // tcgen05.mma: one thread issues for the CTA, the whole tensor core works
    Issue,       // an async copy: the warp issues it, a copy engine (or the TMEM path) moves the bytes
  };

  void add(StmtId id, const Ctx& c, const Demand& d, Holds holds = Holds::Units) {
    Demand cta = d.scaled(c.cta);
    out_.cta += cta;
    if (per_statement_) out_.statements[id] += cta;
    if (c.ring != segment_.ring) close_segment();
    segment_.ring = c.ring;
    auto hold = warp_hold(d, c, holds);
    double times = c.ring >= 0 ? c.iter : c.cta;
    for (size_t i = 0; i < kResourceCount; ++i) segment_.hold[i] += hold[i] * times;
    if (c.ring >= 0) out_.rings[c.ring].per_iteration += d.scaled(c.iter);
    else out_.outside += cta;
  }

  /// Seconds one warp of the executing ones holds each unit of the SM for
  /// one execution of a statement of demand `d` (all executing warps
  /// together): its share of the demand at the share of the SM one warp can
  /// use. A warp runs on one of the SM's four schedulers, so it gets a
  /// quarter of the CUDA cores, the SFU, the issue slots and (mma.sync) the
  /// tensor cores; a warpgroup's wgmma, or tcgen05.mma, uses the whole
  /// tensor core. Shared memory is one port for all. An async copy holds
  /// only its issue slots. Global traffic is left to the roofline and the
  /// rings' latency.
  std::array<double, kResourceCount> warp_hold(const Demand& d, const Ctx& c, Holds holds) const {
    double warps = static_cast<double>(std::max<int64_t>(1, c.warps));
    auto per_sm = [&](Resource r) { return mc_.achieved[static_cast<size_t>(r)] / mc_.sms; };
    std::array<double, kResourceCount> t{};
    auto at = [&](Resource r) -> double& { return t[static_cast<size_t>(r)]; };
    for (Resource r : {Resource::CudaCore, Resource::Sfu, Resource::Issue})
      if (d[r] > 0 && per_sm(r) > 0) at(r) = d[r] / warps / (per_sm(r) / kSchedulersPerSm);
    if (holds == Holds::Issue) return t;
    if (d[Resource::Smem] > 0 && per_sm(Resource::Smem) > 0) at(Resource::Smem) = d[Resource::Smem] / warps / per_sm(Resource::Smem);
    if (d.tensor_s > 0) at(Resource::Tensor) = holds == Holds::TensorCore ? d.tensor_s : d.tensor_s / warps * kSchedulersPerSm;
    return t;
  }

  /// This role's class in ring `ring` (queue.h).
  WarpClass& role_class(int ring) {
    if (static_cast<size_t>(ring) >= role_classes_.size()) role_classes_.resize(ring + 1, WarpClass{static_cast<double>(role_->warps), {}, 0, role_->name});
    return role_classes_[ring];
  }

  /// Ends the open segment: one warp overlaps the statements of a segment
  /// (independent instructions issue back to back), so it holds the unit it
  /// needs most for that unit's time; segments run one after another.
  void close_segment() {
    auto top = std::max_element(segment_.hold.begin(), segment_.hold.end());
    if (*top > 0) {
      if (segment_.ring >= 0) role_class(segment_.ring).hold_s[top - segment_.hold.begin()] += *top;
      else role_outside_chain_ += *top;
    }
    segment_ = Segment{segment_.ring};
  }

  /// Whether statement `s` must wait for the open segment: it is a wait or
  /// barrier, an MMA reading a register computed in the segment (the
  /// softmax's P, or an accumulator it rescaled), or another statement reading an MMA's result of the
  /// segment. Fragment loads are not waited for: they do not depend on
  /// the segment's arithmetic, and compilers issue them ahead of the MMA
  /// that reads them (CUTLASS double-buffers its fragments).
  bool waits_for_segment(const Stmt& s) const {
    if (std::holds_alternative<WaitStmt>(s.node) || std::holds_alternative<SyncStmt>(s.node)) return true;
    if (auto op = op_of(s); op && op_info(*op).completion == OpCompletion::Blocking) return true;
    auto reads_any = [&](ExprId e, const std::vector<SymbolId>& written) {
      std::vector<SymbolId> roots;
      read_roots(e, roots);
      return std::any_of(roots.begin(), roots.end(), [&](SymbolId r) {
        return std::find(written.begin(), written.end(), r) != written.end();
      });
    };
    if (const auto* mma = std::get_if<MmaStmt>(&s.node))
      return reads_any(mma->a, segment_.computed) || reads_any(mma->b, segment_.computed) ||
             (mma->accumulate_into && reads_any(mma->acc, segment_.computed));
    if (segment_.multiplied.empty()) return false;
    if (const auto* a = std::get_if<AssignStmt>(&s.node)) return reads_any(a->value, segment_.multiplied);
    if (const auto* r = std::get_if<ReduceStmt>(&s.node)) return reads_any(r->src, segment_.multiplied);
    if (const auto* r = std::get_if<ArgReduceStmt>(&s.node)) return reads_any(r->src, segment_.multiplied);
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) return reads_any(mv->src, segment_.multiplied);
    return false;
  }
  /// Records what statement `s` writes into the open segment.
  void wrote(const Stmt& s) {
    auto root = [&](ExprId e) { return root_symbol(m_, e); };
    if (const auto* mma = std::get_if<MmaStmt>(&s.node)) segment_.multiplied.push_back(root(mma->acc));
    else if (const auto* a = std::get_if<AssignStmt>(&s.node)) segment_.computed.push_back(root(a->target));
    else if (const auto* r = std::get_if<ReduceStmt>(&s.node)) segment_.computed.push_back(root(r->dst));
    else if (const auto* r = std::get_if<ArgReduceStmt>(&s.node)) {
      segment_.computed.push_back(root(r->value));
      segment_.computed.push_back(root(r->index));
    }
  }
  /// The registers and buffers an expression reads (not its indices).
  void read_roots(ExprId e, std::vector<SymbolId>& out, int depth = 0) const {
    if (e == kNone || depth > 64) return;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name) {
      if (x.symbol != kNone) out.push_back(x.symbol);
      return;
    }
    if (x.kind == Expr::Kind::Field) return;
    read_roots(x.lhs, out, depth + 1);
    if (x.kind == Expr::Kind::Index || x.kind == Expr::Kind::Transpose) return;
    read_roots(x.rhs, out, depth + 1);
    for (ExprId a : x.args) read_roots(a, out, depth + 1);
  }

  void latency(StmtId id, const Ctx& c, double seconds, bool async) {
    if (c.ring >= 0) {
      RingDemand& r = out_.rings[c.ring];
      if (seconds > r.load_latency_s) r.slowest_load = id;
      r.load_latency_s = std::max(r.load_latency_s, seconds);
    } else if (async) {
      async_latency_ = std::max(async_latency_, seconds);
    } else {
      role_latency_ += seconds * c.cta;
    }
  }

  void barrier(const Ctx& c) {
    if (c.ring >= 0) out_.rings[c.ring].barriers = true;
    else role_latency_ += mc_.cycles(mc_.device->lat_barrier_cycles.value) * c.cta;
  }
  /// A CTA-wide barrier (syncthreads, cluster.sync) inside a ring: every
  /// warp waits for the slowest and for the round trip, each iteration.
  void block_barrier(const Ctx& c) {
    if (c.ring < 0) return;  // outside the rings barrier() charges it
    role_class(c.ring).delay_s += mc_.cycles(mc_.device->lat_barrier_cycles.value) * c.iter;
  }

  void statement(StmtId id, const Ctx& c) {
    const Stmt& s = m_.stmts[id];
    if (waits_for_segment(s)) close_segment();
    std::visit([&](const auto& n) { node(id, n, c); }, s.node);
    wrote(s);
  }

  void node(StmtId, const ElectStmt& e, const Ctx& c) {
    Ctx inner = c;
    int64_t n = e.kind == ElectStmt::Kind::One ? 1
                : e.kind == ElectStmt::Kind::PerWarpgroup ? role_->warpgroups()
                                                           : role_->warps;
    inner.threads = std::min(c.threads, n);
    inner.warps = std::min(c.warps, n);
    walk(e.body, inner);
  }

  void node(StmtId, const ForStmt& f, const Ctx& c) {
    auto t = trips(f.start, f.end, f.step);
    if (!t) out_.unknown_trips = true;
    Ctx inner = c;
    inner.cta *= t.value_or(1);
    inner.iter *= t.value_or(1);
    inner.loops.push_back({f.variable, kNone, f.start, f.end, f.step, kNone});
    walk(f.body, inner);
  }

  void node(StmtId id, const PipelineStmt& p, const Ctx& c) {
    auto t = trips(p.start, p.end, p.step);
    auto stages = p.stages == kNone ? std::nullopt : eval_.fold(p.stages);
    int64_t trip = t ? std::llround(*t) : -1, st = std::max<int64_t>(1, stages.value_or(1));
    if (!t) out_.unknown_trips = true;
    int index = -1;
    for (size_t i = 0; i < out_.rings.size(); ++i)
      if (out_.rings[i].stages == st && out_.rings[i].trips == trip) index = static_cast<int>(i);
    if (index < 0) {
      out_.rings.push_back({id, kNone, st, trip, {}, 0, false});
      index = static_cast<int>(out_.rings.size()) - 1;
    }
    Ctx inner = c;
    inner.cta *= t ? std::max(*t, 1.0) : 1.0;
    inner.iter = 1;
    inner.ring = index;
    inner.loops.push_back({p.variable, p.stage, p.start, p.end, p.step, p.stages});
    close_segment();
    walk(p.body, inner);
    close_segment();  // an iteration's last segment does not overlap the next one's first
  }

  /// Each branch for the fraction of executions that take it, when the
  /// model can evaluate the condition; else the `then` branch is assumed
  /// taken every time.
  void node(StmtId, const IfStmt& i, const Ctx& c) {
    auto f = branch_fraction(i.condition, c.loops);
    if (!f) return walk(i.then_body, c);
    auto branch = [&](const std::vector<StmtId>& body, double fraction) {
      if (fraction <= 0) return;
      Ctx inner = c;
      inner.cta *= fraction;
      inner.iter *= fraction;
      walk(body, inner);
    };
    branch(i.then_body, *f);
    branch(i.else_body, 1 - *f);
  }
  void node(StmtId, const RoleStmt&, const Ctx&) {}
  void node(StmtId, const DeclStmt&, const Ctx&) {}
  void node(StmtId, const LetStmt&, const Ctx&) {}

  Demand issue_only(const Ctx& c) const {
    Demand d;
    d[Resource::Issue] = static_cast<double>(c.warps);
    return d;
  }

  void node(StmtId id, const PlainStmt& p, const Ctx& c) {
    add(id, c, issue_only(c));
    OpIssue issue = op_info(p.op).issue;
    if (issue == OpIssue::Block || issue == OpIssue::Cluster) {
      barrier(c);
      block_barrier(c);
    }
  }
  void node(StmtId id, const GroupWaitStmt&, const Ctx& c) { add(id, c, issue_only(c)); }
  void node(StmtId id, const ArriveStmt&, const Ctx& c) { add(id, c, issue_only(c)); }
  void node(StmtId id, const CommitStmt&, const Ctx& c) { add(id, c, issue_only(c)); }
  void node(StmtId id, const WaitStmt&, const Ctx& c) {
    add(id, c, issue_only(c));
    barrier(c);
  }
  void node(StmtId id, const SyncStmt&, const Ctx& c) {
    add(id, c, issue_only(c));
    barrier(c);
  }

  /// Units that execute an op on a fragment of this layout: one per owner.
  static double owners(FragLayout layout, const Ctx& c) {
    int64_t o = fragment_owner_threads(layout, 32);
    return static_cast<double>(std::max<int64_t>(1, (c.threads + o - 1) / o));
  }

  static bool global(const Typed& t) { return t.space == Space::Global || t.space == Space::Const; }
  static bool shared(const Typed& t) { return t.space == Space::Smem || t.space == Space::Dsmem; }

  SymbolId tensor_of(const Typed& t) const {
    if (t.root == kNone) return kNone;
    const Symbol& s = m_.symbols[t.root];
    return s.kind == SymbolKind::Tensormap ? s.tensor : t.root;
  }

  void node(StmtId id, const MoveStmt& mv, const Ctx& c) {
    Typed dst = typer_.type_of(mv.dst), src = typer_.type_of(mv.src);
    const Typed& side = global(dst) ? src : dst;  // the tile's shape: the non-global side
    auto n = elements(side);
    if (!n) return;
    double units = 1;
    bool per_thread = op_info(mv.op).issue == OpIssue::PerThread;
    if (per_thread) units = static_cast<double>(c.threads);
    else if (dst.space == Space::Reg) units = owners(dst.layout, c);
    else if (src.space == Space::Reg) units = owners(src.layout, c);
    double bytes = *n * dtype_bits(side.dtype) / 8.0 * units;
    Demand d;
    if (global(dst) || global(src)) {
      d[Resource::L2] = bytes;
      d[Resource::Hbm] = bytes;  // turned into DRAM bytes by estimate.cpp (L2 reuse)
      out_.l2_bytes[tensor_of(global(dst) ? dst : src)] += bytes * c.cta;
    }
    if (shared(dst) || shared(src)) d[Resource::Smem] = bytes * read_degree(mv, src, dst);
    d[Resource::Issue] = per_thread ? static_cast<double>(c.warps)
                                    : std::max(static_cast<double>(c.warps), bytes / kBytesPerWarpInstr);
    // cp.async, TMA and bulk copies, and the tensor-memory path's copies
    // and loads, complete on their own after the warp issues them.
    OpEngine engine = op_info(mv.op).engine;
    bool async = engine == OpEngine::AsyncCopy || engine == OpEngine::CopyEngine || engine == OpEngine::TmemPath;
    add(id, c, d, async ? Holds::Issue : Holds::Units);
    const DeviceInfo& dev = *mc_.device;
    double lat_global = mc_.cycles(dev.lat_global_cycles.value);
    switch (mv.op) {
      case Op::Load:
        if (global(src)) latency(id, c, lat_global, false);
        break;
      case Op::CpAsync:
        latency(id, c, dev.lat_cp_async_cycles.known() ? mc_.cycles(dev.lat_cp_async_cycles.value) : lat_global, true);
        break;
      case Op::TmaLoad:
      case Op::BulkLoad:
        latency(id, c, dev.lat_tma_cycles.known() ? mc_.cycles(dev.lat_tma_cycles.value) : lat_global, true);
        break;
      // Writes and on-chip moves: nothing waits on them in the model.
      case Op::Store: case Op::StoreAdd: case Op::TmaStore: case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld:
      case Op::Tcgen05St: case Op::Tcgen05Cp: break;
      // Not moves.
      case Op::Mma: case Op::Wgmma: case Op::Tcgen05Mma: case Op::CpAsyncCommit: case Op::WgmmaFence:
      case Op::WgmmaCommit: case Op::TmaStoreCommit: case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt:
      case Op::Syncthreads: case Op::ClusterSync: case Op::FenceProxyAsync: case Op::CpAsyncWait: case Op::WgmmaWait:
      case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx: case Op::Tcgen05Commit: case Op::ArgminRow:
      case Op::ArgmaxRow: break;
    }
  }

  void node(StmtId id, const MmaStmt& mma, const Ctx& c) {
    Typed a = typer_.type_of(mma.a), b = typer_.type_of(mma.b);
    if (a.dims.size() < 2 || b.dims.size() < 2) return;
    auto M = value(a.dims[a.dims.size() - 2]), K = value(a.dims.back()), N = value(b.dims.back());
    // A CTA pair's MMA (M = 256) runs half on each CTA's SM: this CTA's
    // 128 rows of A against the pair's whole N, the accumulator's columns
    // (B holds N / 2). The even CTA issues it for both.
    if (pairs_ && mma.op == Op::Tcgen05Mma)
      if (Typed acc = typer_.type_of(mma.acc); acc.dims.size() >= 2) N = value(acc.dims.back());
    if (!M || !K || !N) return;
    double units = instances(op_info(mma.op).issue, c);
    double flops = 2.0 * static_cast<double>(*M) * static_cast<double>(*N) * static_cast<double>(*K) * units;
    Demand d;
    d[Resource::Tensor] = flops;
    DType acc = typer_.type_of(mma.acc).dtype;
    double peak = mc_.tensor_rate(mma.op, a.dtype, acc, false), achieved = mc_.tensor_rate(mma.op, a.dtype, acc, true);
    // One CTA's M = 64 tcgen05.mma keeps its rows in half of each quarter's
    // TMEM lanes (tmem_rows_per_quarter(): the PTX ISA's data-path layout
    // F), so it is taken to use half the data path an M = 128 one does, at
    // half the rate (docs/cost-model.md).
    if (mma.op == Op::Tcgen05Mma && !pairs_) {
      double share = static_cast<double>(tmem_rows_per_quarter(*M)) / static_cast<double>(kTmemQuarterLanes);
      peak *= share;
      achieved *= share;
    }
    if (peak > 0 && achieved > 0) {
      d.tensor_peak_s = flops / peak;
      d.tensor_s = flops / achieved;
    }
    for (auto [t, e] : {std::pair{&a, mma.a}, std::pair{&b, mma.b}})
      if (shared(*t))
        if (auto n = elements(*t)) d[Resource::Smem] += *n * stored_bits(t->dtype) / 8.0 * units * degree(e, *t, smem_read_pattern(mma.op, FragLayout::None));
    double instr_k = kMmaK16Bits / std::max(1u, stored_bits(a.dtype));
    double k_steps = std::max(1.0, static_cast<double>(*K) / instr_k);
    d[Resource::Issue] = mma_issue_slots(mma.op, flops, k_steps, units, instr_k);
    add(id, c, d, mma.op == Op::Tcgen05Mma ? Holds::TensorCore : Holds::Units);
  }

  /// Instances of an op one CTA's executing threads issue (ops.def's Issue).
  static double instances(OpIssue issue, const Ctx& c) {
    switch (issue) {
      case OpIssue::PerThread: return static_cast<double>(c.threads);
      case OpIssue::Warp: return static_cast<double>(c.warps);
      case OpIssue::Warpgroup: return std::ceil(static_cast<double>(c.warps) / kWarpsPerWarpgroup);
      case OpIssue::Collective:
      case OpIssue::Block:
      case OpIssue::Cluster: return 1;
    }
    return 1;
  }

  /// Warp issue slots of a matrix multiply: mma.sync one per m16n8 tile
  /// and k-step (`instr_k` values of K an instruction), wgmma a slot per
  /// k-step per warp of each warpgroup, tcgen05 one per k-step.
  static double mma_issue_slots(Op op, double flops, double k_steps, double units, double instr_k) {
    switch (op) {
      case Op::Mma: return flops / (2.0 * kMmaSyncMN * instr_k);
      case Op::Wgmma: return k_steps * units * kWarpsPerWarpgroup;
      case Op::Tcgen05Mma: return k_steps * units;
      case Op::Load: case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore: case Op::BulkLoad:
      case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp:
      case Op::CpAsyncCommit: case Op::WgmmaFence: case Op::WgmmaCommit: case Op::TmaStoreCommit:
      case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt: case Op::Syncthreads: case Op::ClusterSync:
      case Op::FenceProxyAsync: case Op::CpAsyncWait: case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive:
      case Op::ArriveExpectTx: case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow: return 0;
    }
    return 0;
  }

  /// Per element of an expression: its operators (one CUDA-core op each)
  /// and the special-function results its builtins and divisions need
  /// (cake/builtins.h).
  struct ElementOps {
    int core = 0, sfu = 0;
    ElementOps& operator+=(const ElementOps& o) {
      core += o.core, sfu += o.sfu;
      return *this;
    }
  };
  ElementOps ops(ExprId e, int depth = 0) const {
    ElementOps n;
    if (e == kNone || depth > 64) return n;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Binary || x.kind == Expr::Kind::Unary || x.kind == Expr::Kind::Call ||
        x.kind == Expr::Kind::Cast)
      n.core = 1;
    if (x.kind == Expr::Kind::Call)
      if (const UnaryBuiltin* b = find_unary_builtin(x.text)) n.sfu = b->sfu_ops;
    if (x.kind == Expr::Kind::Binary && x.text == "/") n.sfu = kSfuOpsPerDivision;
    if (x.kind == Expr::Kind::Index) return n;
    n += ops(x.lhs, depth + 1);
    n += ops(x.rhs, depth + 1);
    for (ExprId a : x.args) n += ops(a, depth + 1);
    return n;
  }

  /// Bytes of the shared-memory operands an element-wise expression reads
  /// (each times its bank-conflict degree: the bandwidth it takes).
  double smem_operands(ExprId e, std::optional<SmemPattern> pattern, int depth = 0) {
    if (e == kNone || depth > 64) return 0;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name || x.kind == Expr::Kind::Index) {
      Typed t = typer_.type_of(e);
      if (t.is_buffer() && shared(t))
        if (auto n = elements(t)) return *n * stored_bits(t.dtype) / 8.0 * degree(e, t, pattern);
      return 0;
    }
    double b = smem_operands(x.lhs, pattern, depth + 1) + smem_operands(x.rhs, pattern, depth + 1);
    for (ExprId a : x.args) b += smem_operands(a, pattern, depth + 1);
    return b;
  }
  /// Element-wise operands are read by the owners of `target`.
  double smem_operands_for(ExprId target, ExprId value) {
    return smem_operands(value, reader_pattern(typer_.type_of(target).layout));
  }

  /// The bank-conflict degree of a read of `operand` (typed `t`) in this
  /// pattern (banks.h); 1 when conflict-free or not known.
  double degree(ExprId operand, const Typed& t, std::optional<SmemPattern> pattern) const {
    if (!banks_ || !pattern) return 1;
    auto r = smem_read(m_, eval_, *banks_, operand, t, *pattern);
    return r ? static_cast<double>(r->degree) : 1;
  }
  /// A move's read of shared memory: ldmatrix's rows, or a load into an accumulator layout.
  double read_degree(const MoveStmt& mv, const Typed& src, const Typed& dst) const {
    if (!shared(src)) return 1;
    std::optional<SmemPattern> pattern = smem_read_pattern(mv.op, dst.layout);
    return pattern ? degree(mv.src, src, pattern) : 1;
  }

  void elementwise(StmtId id, ExprId target, ElementOps per_element, double smem_bytes, const Ctx& c) {
    Typed t = typer_.type_of(target);
    auto n = elements(t);
    if (!n) return;
    double units = t.space == Space::Reg ? owners(t.layout, c) : 1;
    Demand d;
    d[Resource::CudaCore] = *n * units * per_element.core;
    d[Resource::Sfu] = *n * units * per_element.sfu;
    d[Resource::Issue] = std::max(static_cast<double>(c.warps), (d[Resource::CudaCore] + d[Resource::Sfu]) / 32);
    d[Resource::Smem] = smem_bytes * units;
    add(id, c, d);
  }

  void node(StmtId id, const AssignStmt& a, const Ctx& c) {
    ElementOps n = ops(a.value);
    n.core = std::max(1, n.core + (a.op == "=" ? 0 : 1));
    elementwise(id, a.target, n, smem_operands_for(a.target, a.value), c);
  }
  void node(StmtId id, const ReduceStmt& r, const Ctx& c) {
    elementwise(id, r.src, {1, 0}, smem_operands_for(r.src, r.src), c);
  }
  void node(StmtId id, const ArgReduceStmt& r, const Ctx& c) {
    elementwise(id, r.src, {2, 0}, smem_operands_for(r.src, r.src), c);
  }

  const Module& m_;
  const Env& env_;
  std::vector<int64_t> grid_;  // the grid's extents under env_ (empty: not known)
  bool pairs_ = false;          // `cta_group 2`: tcgen05.mma is a CTA pair's
  SymbolId block_ = kNone;     // the builtin `block`
  const Machine& mc_;
  Typer typer_;
  Evaluator eval_;
  bool per_statement_ = true;
  const TargetInfo* banks_ = nullptr;  // the device's own target: its shared-memory banks
  const RoleView* role_ = nullptr;
  double role_latency_ = 0, async_latency_ = 0;
  double role_outside_chain_ = 0;         // this role's chain of segments outside the rings
  std::vector<WarpClass> role_classes_;   // this role's warps in each ring
  /// The open segment of the role's chain: the statements since the last
  /// one that had to wait (waits_for_segment()), as seconds one warp holds
  /// each unit for them (warp_hold()), in ring `ring` (-1: outside).
  struct Segment {
    int ring = -1;
    std::array<double, kResourceCount> hold{};
    std::vector<SymbolId> computed;    // registers written by element-wise statements
    std::vector<SymbolId> multiplied;  // accumulators written by MMAs
  } segment_;
  KernelDemand out_;
};

}  // namespace

KernelDemand kernel_demand(const Module& m, const std::vector<RoleView>& roles, const Env& env, const Machine& machine,
                           bool per_statement, const Kernel& kernel) {
  return Walker(m, env, machine, per_statement, kernel).run(roles);
}

}  // namespace cake
