// Synchronisation: mbarriers (initialised in the prologue, arrivals, parity
// waits), named barriers, `elect`, the async-proxy fence and a role's
// register budget (`maxnreg` as setmaxnreg). The instructions are the
// prelude's macros (lower.cpp); which one a target gets is read from its
// features. See docs/lowering.md.
#include "emitter.h"

#include "cake/ops.h"
#include "cake/roles.h"

#include <algorithm>
#include <functional>

namespace cake::codegen {

namespace {

/// An op whose executing threads write shared or global memory themselves
/// (store, store.add, stmatrix, cp.async: ops.def's load/store unit or
/// cp.async engine, into those spaces), or wait for their own such writes
/// (a group wait each thread issues): what another lane may read or write
/// next. TMA, bulk copies and the tensor cores are ordered by mbarriers and
/// their fences instead; tensor memory a warp reads and writes by its own
/// lanes' quarters.
bool thread_memory_op(Op op) {
  const OpInfo& info = op_info(op);
  if (info.family == OpFamily::GroupWait) return info.issue == OpIssue::PerThread;
  SpaceSet dst = info.operands[0];
  return info.family == OpFamily::Move && (info.engine == OpEngine::Lsu || info.engine == OpEngine::AsyncCopy) &&
         (dst.has(Space::Smem) || dst.has(Space::Dsmem) || dst.has(Space::Global));
}

/// An op whose executing threads read or write shared or global memory
/// themselves (a thread_memory_op, or a plain load).
bool thread_memory_access(Op op) {
  const OpInfo& info = op_info(op);
  if (thread_memory_op(op)) return true;
  SpaceSet src = info.operands[1];
  return info.family == OpFamily::Move && info.engine == OpEngine::Lsu &&
         (src.has(Space::Smem) || src.has(Space::Dsmem) || src.has(Space::Global));
}

}  // namespace

bool Emitter::lane_split(const Stmt& s) const {
  auto reads = [&](std::initializer_list<ExprId> es) {
    return std::any_of(es.begin(), es.end(), [&](ExprId e) { return e != kNone && depends_on_builtin(m, eval, e, "lane"); });
  };
  if (const auto* i = std::get_if<IfStmt>(&s.node)) return reads({i->condition});
  if (const auto* f = std::get_if<ForStmt>(&s.node)) return reads({f->start, f->end, f->step});
  if (const auto* p = std::get_if<PipelineStmt>(&s.node)) return reads({p->start, p->end, p->step});
  return false;
}

// The language orders a warp's accesses by program order across its lanes
// (docs/run.md, "The race report"); CUDA does not between two instructions
// of different lanes (independent thread scheduling, and the compiler may
// move a thread's access past another to an address it proves differs),
// so where lanes may exchange data through memory the lanes that run the
// code meet. This names the statements that may need it: each with a
// thread memory op, and a statement whose body some lanes skip (`elect`, a
// condition or loop bound that reads `lane`) where it holds one. Where
// every lane runs the code, the plan of meets.cpp decides instead which
// need one before them; inside code some lanes skip, they meet around each
// such statement. Inside `elect` one lane runs;
// inside a block of a lane condition or bound, the lanes that run it
// (lane_mask, a ballot: statements.cpp), or none where the block's
// accesses need no order among them.
bool Emitter::warp_ordered(StmtId id) const {
  if (elected || lane_mask.empty()) return false;
  const Stmt& s = m.stmts[id];
  if (auto op = op_of(s)) return thread_memory_op(*op);
  bool splits = std::holds_alternative<ElectStmt>(s.node) || lane_split(s);
  return splits && reaches(m, {id}, [](const Stmt& c) {
           auto op = op_of(c);
           return op && thread_memory_op(*op);
         });
}

bool Emitter::lanes_meet_inside(const std::vector<StmtId>& body, bool loop) const {
  // Accesses counted twice in a loop body, which runs more than once.
  int accesses = 0;
  bool writes = false;
  std::function<void(const std::vector<StmtId>&, int)> tally = [&](const std::vector<StmtId>& in, int times) {
    for (StmtId id : in) {
      const Stmt& c = m.stmts[id];
      if (auto op = op_of(c); op && thread_memory_access(*op)) {
        accesses += times;
        writes = writes || thread_memory_op(*op);
      }
      if (const auto* e = std::get_if<ElectStmt>(&c.node)) tally(e->body, times);
      if (const auto* f = std::get_if<ForStmt>(&c.node)) tally(f->body, 2);
      if (const auto* p = std::get_if<PipelineStmt>(&c.node)) tally(p->body, 2);
      if (const auto* i = std::get_if<IfStmt>(&c.node)) {
        tally(i->then_body, times);
        tally(i->else_body, times);
      }
    }
  };
  tally(body, loop ? 2 : 1);
  return writes && accesses >= 2;
}

void Emitter::warp_meet(ByteRange at) {
  line(lane_mask == kAllLanes ? "__syncwarp();" : "__syncwarp(" + lane_mask + ");", at);
}

void Emitter::mbarrier_prologue() {
  const SmemLayout& smem = facts.on(target).smem;
  bool any = false;
  for (const SmemSlot& slot : smem.slots) {
    if (!slot.barrier) continue;
    const Symbol& s = m.symbols[slot.symbol];
    auto count = s.count == kNone ? std::optional<int64_t>(1) : eval.fold(s.count);
    if (!count || *count <= 0) {
      refuse(s.decl, "an mbarrier whose count is not a positive constant");
      continue;
    }
    if (!any) line("if (threadIdx.x == 0) {", s.decl);
    any = true;
    // One thread initialises every barrier of the array, with the arrivals
    // a phase takes (the declaration's count).
    line("  for (int cake_i = 0; cake_i < " + std::to_string(slot.count) + "; ++cake_i) CAKE_MBAR_INIT(" +
             name(slot.symbol) + " + cake_i * " + std::to_string(slot.stride) + ", " + std::to_string(*count) + ");",
         s.decl);
  }
  if (!any) return;
  ByteRange head{kernel.range.begin, kernel.range.begin + 1};
  // The inits are visible to the async proxy (TMA's complete_tx) after
  // fence.mbarrier_init, to the other threads after the barrier.
  if (target.has(Feature::MbarrierTx)) line("  CAKE_FENCE_MBAR_INIT();", head);
  line("}", head);
  // In a cluster, every CTA's barriers are initialised before any CTA's
  // multicast copy or commit can reach them.
  if (clustered()) cluster_sync(head);
  else line("__syncthreads();", head);
}

bool Emitter::clustered() const { return !out.plan.cluster.empty(); }

void Emitter::cluster_sync(ByteRange at) { line("CAKE_CLUSTER_SYNC();", at); }

std::optional<std::string> Emitter::barrier_address(ExprId e) {
  const Expr& x = m.exprs[e];
  SymbolId b = root_symbol(m, e);
  // Through a `dsmem` view of a peer's mbarrier: the viewed one's layout,
  // at the address the view's mapa gives (a generic address).
  SymbolId at = b;
  if (b != kNone && m.symbols[b].kind == SymbolKind::Dsmem) b = m.symbols[b].tensor;
  const SmemSlot* slot = nullptr;
  for (const SmemSlot& s : facts.on(target).smem.slots)
    if (s.barrier && s.symbol == b) slot = &s;
  if (!slot) {
    refuse(x.range, "this barrier operand");
    return std::nullopt;
  }
  if (x.kind == Expr::Kind::Name) return name(at);
  if (x.kind == Expr::Kind::Index && x.items.size() == 1 && x.items[0].kind == IndexItem::Kind::Scalar &&
      m.exprs[x.lhs].kind == Expr::Kind::Name)
    return "(" + name(at) + " + (" + index(x.items[0].start) + ") * " + std::to_string(slot->stride) + ")";
  refuse(x.range, "this barrier operand");
  return std::nullopt;
}

std::optional<std::string> Emitter::named_barrier_args(SymbolId b) {
  const Symbol& sym = m.symbols[b];
  auto id = eval.fold(sym.id);
  auto threads = eval.fold(sym.count);
  if (!id || !threads) {
    refuse(sym.decl, "a named barrier whose id or threads are not constants");
    return std::nullopt;
  }
  return std::to_string(*id) + ", " + std::to_string(*threads);
}

void Emitter::thread_sync(ByteRange at, bool waits, const std::function<void()>& sync) {
  // tcgen05 ops are asynchronous to the thread: before_thread_sync orders
  // this thread's earlier ones (a tcgen05.ld, waited for, that reads the
  // accumulator) before the synchronisation, and after_thread_sync orders
  // the others' (what their arrive or commit vouched for) before this
  // thread's later ones (PTX ISA, "tcgen05.fence"). CAKE has no fence of
  // its own: the lowering places both wherever threads synchronise.
  bool tmem = uses_tmem();
  if (tmem) line("CAKE_TCGEN05_FENCE_BEFORE();", at);
  sync();
  if (tmem && waits) line("CAKE_TCGEN05_FENCE_AFTER();", at);
}

void Emitter::arrive(const Stmt& s, const ArriveStmt& a) {
  if (SymbolId b = root_symbol(m, a.barrier); b != kNone && m.symbols[b].kind == SymbolKind::NamedBarrier) {
    if (auto args = named_barrier_args(b))
      thread_sync(s.range, false, [&] { line("CAKE_NAMED_ARRIVE(" + *args + ");", s.range); });
    return;
  }
  auto bar = barrier_address(a.barrier);
  if (!bar) return;
  if (a.op != Op::Arrive && a.op != Op::ArriveExpectTx) return refuse(s.keyword, "`" + std::string(op_spelling(a.op)) + "`");
  std::string call = a.op == Op::ArriveExpectTx ? "CAKE_MBAR_ARRIVE_EXPECT_TX(" + *bar + ", " + index(a.bytes) + ");"
                     : a.multicast != kNone    ? "CAKE_MBAR_ARRIVE_MC(" + *bar + ", " + index(a.multicast) + ");"
                                               : "CAKE_MBAR_ARRIVE(" + *bar + ");";
  thread_sync(s.range, false, [&] { line(call, s.range); });
}

void Emitter::wait(const Stmt& s, const WaitStmt& w) {
  auto bar = barrier_address(w.barrier);
  if (!bar) return;
  // try_wait came with transaction counts (PTX ISA 7.8, sm_90); before, test_wait.
  std::string macro = !target.has(Feature::MbarrierTx) ? "CAKE_MBAR_TEST_WAIT("
                      : clustered()                      ? "CAKE_MBAR_WAIT_CLUSTER("
                                                         : "CAKE_MBAR_WAIT(";
  line(macro + *bar + ", " + index(w.parity) + ");", s.range);
  // What the phase's tcgen05 ops wrote (their commit arrived on it) is
  // ordered before this thread's tcgen05 ops after the wait.
  if (uses_tmem()) line("CAKE_TCGEN05_FENCE_AFTER();", s.range);
}

void Emitter::named_sync(const Stmt& s, const SyncStmt& n) {
  SymbolId b = root_symbol(m, n.barrier);
  if (b == kNone || m.symbols[b].kind != SymbolKind::NamedBarrier) return refuse(m.exprs[n.barrier].range, "this barrier operand");
  if (auto args = named_barrier_args(b))
    thread_sync(s.range, true, [&] { line("CAKE_NAMED_SYNC(" + *args + ");", s.range); });
}

void Emitter::elect(const Stmt& s, const ElectStmt& e) {
  int64_t outer_threads = group_threads;
  std::string outer_rank = group_rank;
  bool outer_elected = elected;
  // Collective moves inside see the elected thread: each moves its tile
  // alone (one thread for `elect`, one of each warp or warpgroup otherwise).
  group_threads = 1;
  group_rank = "0";
  elected = true;
  if (outer_elected) {
    // A nested elect keeps the thread already elected (docs/language.md).
    line("{", s.range);
    ++indent;
    statements(e.body);
    --indent;
    line("}", s.range);
  } else {
    // The warp test first, then elect.sync with the whole warp converged
    // (lane 0 where the target has no elect.sync).
    std::string first = std::to_string(role_first_warp);
    std::string warps = e.kind == ElectStmt::Kind::One           ? "cake_warp == " + first
                        : e.kind == ElectStmt::Kind::PerWarpgroup ? "cake_warp == " + first + " || cake_warp % 4 == 0"
                                                                  : "true";
    line("if (" + warps + ") {", s.range);
    ++indent;
    // Among the lanes that run it: the whole warp, or in code some lanes
    // skip, those of its ballot (the lowest, where there is no elect.sync).
    std::string lanes = lane_mask.empty() ? std::string(kAllLanes) : lane_mask;
    if (target.has(Feature::ElectSync)) {
      line("unsigned cake_elected;", s.range);
      line("CAKE_ELECT_SYNC(cake_elected, " + lanes + ");", s.range);
    } else {
      line(lanes == kAllLanes ? "const bool cake_elected = cake_lane == 0;"
                              : "const bool cake_elected = cake_lane == (unsigned)(__ffs(" + lanes + ") - 1);",
           s.range);
    }
    line("if (cake_elected) {", s.range);
    ++indent;
    statements(e.body);
    --indent;
    line("}", s.range);
    --indent;
    line("}", s.range);
  }
  elected = outer_elected;
  group_threads = outer_threads;
  group_rank = outer_rank;
}

void Emitter::fence_proxy_async(const Stmt& s) { line("CAKE_FENCE_PROXY_ASYNC();", s.range); }

void Emitter::set_max_registers(StmtId id, const RoleStmt& r) {
  auto budget = eval.fold(r.maxnreg);
  if (!budget) return refuse(r.maxnreg_clause, "a `maxnreg` that is not a constant");
  if (!target.has(Feature::Setmaxnreg)) return refuse(r.maxnreg_clause, "`maxnreg` on a target without setmaxnreg");
  // The launch gives every thread the pool's share (__launch_bounds__ caps
  // ptxas there: KernelFacts' register plan); a role moves from it.
  const RegisterPlan& plan = facts.on(target).registers;
  if (!plan.known || !facts.threads() || *facts.threads() <= 0)
    return refuse(r.maxnreg_clause, "a `maxnreg` in a block whose register pool is unknown");
  int64_t launch = std::min<int64_t>(plan.pool / *facts.threads(), target.max_regs_per_thread.value);
  if (*budget == launch || id == options.keep_launch_registers) return;
  line(std::string(*budget > launch ? "CAKE_SETMAXNREG_INC(" : "CAKE_SETMAXNREG_DEC(") + std::to_string(*budget) +
           ");  // from the launch's " + std::to_string(launch) + " registers per thread",
       r.maxnreg_clause);
}

}  // namespace cake::codegen
