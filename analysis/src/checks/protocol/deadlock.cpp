// E0403: a wait that can never complete (and E0405's count form: a
// `syncthreads` or `cluster.sync` one role reaches more often than another). Read from where the trace's roles
// stopped: when no role can move, the wait reported is the first on a
// barrier that no role still running can arrive on (else the first blocked
// role's), with its barrier's open phase (arrivals, bytes), where every other role
// waits, who arrived in the phase and which roles finished. A barrier no
// statement ever arrives on is E0404's (checks/sync_static.cpp). A trace
// from the interleaved schedule (sync/simulate.cpp) is not judged: its
// hazard is the cause of the deadlock the other schedule met; nor is one
// with a CTA pair's rule broken (E0421's). In a cluster, a barrier that no
// arrival of this CTA's ever reaches, whose arrivals all lack a multicast,
// is blamed on the first of them (DeadlockNoMulticast).
#include "checks/protocol/protocol_checks.h"
#include "cake/ops.h"
#include "cake/roles.h"
#include "diag_builder.h"

#include <algorithm>

namespace cake {
namespace {

bool statically_arrived(const Module& m, SymbolId barrier) {
  return std::any_of(m.stmts.begin(), m.stmts.end(), [&](const Stmt& st) {
    ExprId b = arrival_barrier(st);
    return b != kNone && root_symbol(m, b) == barrier;
  });
}

/// " (at kt = 3, s = 1, s.phase = 1)": the loop position a role stopped at.
std::string loop_where(const Module& m, const RoleTrace& r) {
  std::string s;
  for (const LoopPosition& f : r.loops) {
    s += (s.empty() ? " (at " : ", ") + std::string(m.symbols[f.variable].name) + " = " + std::to_string(f.value);
    if (f.stage != kNone && f.stages > 0)
      s += ", " + std::string(m.symbols[f.stage].name) + " = " + std::to_string(f.value % f.stages) + ", " +
           std::string(m.symbols[f.stage].name) + ".phase = " + std::to_string((f.value / f.stages) % 2);
  }
  return s.empty() ? s : s + ")";
}

/// Whether a role still running may yet arrive on `barrier`: it has an
/// arrive, commit or copy on it after the point it stopped at (in text
/// order), or in a loop around that point.
bool may_still_arrive(const Module& m, const ProtocolTrace& t, SymbolId barrier) {
  std::vector<const Stmt*> arrivals, loops;
  for (const Stmt& st : m.stmts) {
    ExprId b = arrival_barrier(st);
    if (b != kNone && root_symbol(m, b) == barrier) arrivals.push_back(&st);
    if (std::holds_alternative<ForStmt>(st.node) || std::holds_alternative<PipelineStmt>(st.node)) loops.push_back(&st);
  }
  for (const RoleTrace& r : t.roles) {
    if (r.finished || r.blocked_at == kNone) continue;
    ByteRange body = r.role.stmt != kNone ? m.stmts[r.role.stmt].range : m.kernels[t.kernel].range;
    uint32_t at = m.stmts[r.blocked_at].range.begin;
    for (const Stmt* a : arrivals) {
      uint32_t where = a->range.begin;
      if (!body.contains(where)) continue;
      if (where > at) return true;
      for (const Stmt* l : loops)
        if (l->range.contains(at) && l->range.contains(where)) return true;
    }
  }
  return false;
}

/// E0403 (DeadlockNoMulticast): in a cluster, the barrier the first blocked
/// role waits on has never had an arrival in the CTA the trace shows,
/// while every statement that arrives on it has no multicast: they run in
/// other CTAs (a pair's even CTA, say) and reach only their own. The
/// primary span is the first such statement.
bool unreached_barrier(const ProtocolContext& cx, const RoleTrace& first, const BarrierEnd& b) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  if (t.cluster <= 1 || b.phase != 0 || b.arrivals != 0 || b.delivered != 0 || !b.contributors.empty()) return false;
  StmtId arrival = kNone;
  for (StmtId id = 0; id < m.stmts.size(); ++id) {
    ExprId e = arrival_barrier(m.stmts[id]);
    if (e == kNone || root_symbol(m, e) != first.blocked_on.symbol) continue;
    if (arrival_multicast(m.stmts[id]) != kNone) return false;
    if (arrival == kNone) arrival = id;
  }
  if (arrival == kNone) return false;
  const Stmt& s = m.stmts[arrival];
  std::string name = barrier_text(m, first.blocked_on);
  std::string what(m.written(s.range));
  if (auto nl = what.find('\n'); nl != std::string::npos) what = what.substr(0, nl);
  Diagnostic d = make_diagnostic(DiagForm::DeadlockNoMulticast, s.range, what, name, t.shown_cta, first.blocked_parity);
  d.related.push_back({m.stmts[first.blocked_at].range, "CTA " + std::to_string(t.shown_cta) + " waits here" +
                                                            loop_where(m, first)});
  // In a CTA pair the even CTA signals both: its own and the next.
  const Kernel& k = m.kernels[t.kernel];
  if (const auto* c = std::get_if<CommitStmt>(&s.node); c && k.cta_group == 2 && c->barrier != kNone) {
    uint32_t end = m.exprs[c->barrier].range.end;
    d.fixes.push_back({"multicast to both CTAs of the pair", {{{end, end}, " multicast(3 << cluster.rank)"}}, false});
  }
  add_decl_note(m, d, first.blocked_on.symbol);
  cx.diagnostics.push_back(std::move(d));
  return true;
}

/// The spelling of the CTA- or cluster-wide rendezvous at `stmt`.
std::string_view rendezvous_op(const Module& m, StmtId stmt) {
  const auto* p = std::get_if<PlainStmt>(&m.stmts[stmt].node);
  return p ? op_spelling(p->op) : "sync";
}

/// E0405 (PartialSyncCount): no role waits on an mbarrier, but one is held
/// at a `syncthreads` or `cluster.sync` that a role which has finished
/// never reached as often. (A role with none at all is sync_static.cpp's.)
void partial_rendezvous(const ProtocolContext& cx, const std::vector<const RoleTrace*>& blocked) {
  const Module& m = cx.module;
  auto held = std::find_if(blocked.begin(), blocked.end(),
                           [](const RoleTrace* r) { return r->blocked_on.symbol == kNone; });
  if (held == blocked.end()) return;
  const RoleTrace& r = **held;
  auto ended = std::find_if(cx.trace.roles.begin(), cx.trace.roles.end(),
                            [&](const RoleTrace& o) { return o.finished && !o.role.name.empty(); });
  if (ended == cx.trace.roles.end() || r.role.name.empty()) return;
  std::string_view op = rendezvous_op(m, r.blocked_at);
  Diagnostic d = make_diagnostic(DiagForm::PartialSyncCount, m.stmts[r.blocked_at].range, op, r.role.name,
                                 ended->role.name);
  d.related.push_back({ended->role.range, "role `" + std::string(ended->role.name) + "` has finished"});
  cx.diagnostics.push_back(std::move(d));
}

}  // namespace

void check_deadlock(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  if (t.aborted || !t.deadlocked || t.interleaved) return;
  // A pair's MMA in its odd CTA, or a copy signalling outside its pair,
  // hangs the pair: E0421 says why.
  if (std::any_of(t.events.begin(), t.events.end(), [](const SyncEvent& e) {
        return e.kind == SyncEventKind::PairMmaOdd || e.kind == SyncEventKind::PairBarrierFar;
      }))
    return;
  std::vector<const RoleTrace*> blocked;
  for (const RoleTrace& r : t.roles)
    if (!r.finished && r.blocked_at != kNone) blocked.push_back(&r);
  // The first role blocked on an mbarrier (a role held at a named barrier
  // waits for one of those; a named barrier that never fills is E0406's).
  // (cluster.sync, with no symbol, is held alike.)
  auto on_mbarrier = [&](const RoleTrace* r) {
    return r->blocked_on.symbol != kNone && m.symbols[r->blocked_on.symbol].kind == SymbolKind::Mbarrier;
  };
  std::stable_partition(blocked.begin(), blocked.end(), on_mbarrier);
  if (blocked.empty()) return;
  if (!on_mbarrier(blocked.front())) return partial_rendezvous(cx, blocked);
  // The wait to report: one whose barrier nothing still running can
  // arrive on (its phase can never complete); the others wait on it.
  auto never = std::find_if(blocked.begin(), blocked.end(), [&](const RoleTrace* r) {
    return on_mbarrier(r) && !may_still_arrive(m, t, r->blocked_on.symbol);
  });
  if (never != blocked.end()) std::rotate(blocked.begin(), never, never + 1);
  const RoleTrace& first = *blocked.front();
  if (!statically_arrived(m, first.blocked_on.symbol)) return;
  auto it = std::find_if(t.barriers.begin(), t.barriers.end(),
                         [&](const BarrierEnd& b) { return b.key == first.blocked_on; });
  if (it == t.barriers.end()) return;
  const BarrierEnd& b = *it;
  if (unreached_barrier(cx, first, b)) return;
  ByteRange at = m.stmts[first.blocked_at].range;
  std::string name = barrier_text(m, first.blocked_on);
  Diagnostic d = b.expected || b.delivered
                     ? make_diagnostic(DiagForm::DeadlockTx, at, first.blocked_parity, name, b.phase, b.arrivals,
                                       b.count, b.delivered, b.expected, loop_where(m, first))
                     : make_diagnostic(DiagId::Deadlock, at, first.blocked_parity, name, b.phase, b.arrivals, b.count,
                                       loop_where(m, first));
  for (const RoleTrace* r : blocked) {
    if (r == &first) continue;
    std::string who = r->role.name.empty() ? std::string("the kernel") : "role `" + std::string(r->role.name) + "`";
    if (r->blocked_on.symbol == kNone) {
      d.related.push_back({m.stmts[r->blocked_at].range,
                           who + " waits here at `" + std::string(rendezvous_op(m, r->blocked_at)) + "`" + loop_where(m, *r)});
      continue;
    }
    if (!on_mbarrier(r)) {
      d.related.push_back({m.stmts[r->blocked_at].range, who + " waits here at named barrier `" +
                                                             std::string(m.symbols[r->blocked_on.symbol].name) + "`" +
                                                             loop_where(m, *r)});
      continue;
    }
    d.related.push_back({m.stmts[r->blocked_at].range, who + " waits here for `" + barrier_text(m, r->blocked_on) +
                                                           "` parity " + std::to_string(r->blocked_parity) +
                                                           loop_where(m, *r)});
  }
  for (const auto& [stmt, n] : b.contributors)
    d.related.push_back({m.stmts[stmt].range, "arrives with " + std::to_string(n) + " thread(s) in this phase"});
  add_decl_note(m, d, first.blocked_on.symbol);
  for (const RoleTrace& r : t.roles)
    if (r.finished && !r.role.name.empty())
      d.related.push_back({r.role.range, "role `" + std::string(r.role.name) + "` has finished"});
  cx.diagnostics.push_back(std::move(d));
}

}  // namespace cake
