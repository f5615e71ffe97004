// E0418 and E0419: each completed phase of a barrier is consumed once.
// Read from the trace's Wait and PhaseComplete events. A wait that passes
// when the barrier has completed c phases observes phase c - 1 (-1: it
// passed on a fresh barrier).
//   - E0418: a phase completes that no wait observes, on a barrier whose
//     waiters wait for data (none of them passed on a fresh barrier: that
//     is how a producer waits for a free stage, and the last releases of a
//     stage are rightly never waited for). What the phase carries, a TMA
//     box, an MMA's result, another role's tile, is never consumed: a loop
//     that stops a trip early, a tile nobody reads. On a barrier nobody
//     waits on at all, only a phase a copy (tma.load, bulk.load) completes:
//     its bytes are never read and may land after the CTA exits.
//   - E0419: a wait passes on the same phase as its own previous run, while
//     the barrier goes on to complete later phases: the parity it waits for
//     restarted (a ring index that restarts per tile), so what follows
//     reads the previous round's data. A barrier that completes one phase
//     only may be waited on any number of times.
// Only a trace that ran to the end without a deadlock is judged.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"
#include "cake/ops.h"

#include <map>
#include <set>

namespace cake {

void check_phases(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  if (t.aborted || t.deadlocked || t.interleaved) return;
  std::map<BarrierKey, int64_t> completed;
  for (const BarrierEnd& b : t.barriers) completed[b.key] = b.phase;

  // Per barrier element, the phases its waits observed; per barrier (all
  // elements of an array), whether some wait passed on a fresh element and
  // which statements wait on it.
  std::map<BarrierKey, std::set<int64_t>> observed;
  struct Waiters {
    bool fresh = false;
    std::vector<StmtId> statements;  // in order of first pass
  };
  std::map<SymbolId, Waiters> waiters;
  // (role, statement, barrier) -> the phase its last pass observed.
  std::map<std::tuple<int, StmtId, BarrierKey>, int64_t> last;
  std::set<StmtId> stale_reported;
  std::set<BarrierKey> stale;  // its unobserved phases are the stale wait's doing
  for (const SyncEvent& e : t.events) {
    if (e.kind != SyncEventKind::Wait) continue;
    int64_t seen = e.phase - 1;
    observed[e.barrier].insert(seen);
    Waiters& w = waiters[e.barrier.symbol];
    w.fresh = w.fresh || seen < 0;
    if (std::find(w.statements.begin(), w.statements.end(), e.stmt) == w.statements.end()) w.statements.push_back(e.stmt);
    auto [it, first] = last.try_emplace({e.role, e.stmt, e.barrier}, seen);
    if (first) continue;
    int64_t before = it->second;
    it->second = seen;
    if (seen != before || seen < 0 || completed[e.barrier] <= seen + 1) continue;
    stale.insert(e.barrier);
    if (!stale_reported.insert(e.stmt).second) continue;
    Diagnostic d = make_diagnostic(DiagId::StaleWait, m.stmts[e.stmt].range, seen, barrier_text(m, e.barrier), seen + 1);
    add_decl_note(m, d, e.barrier.symbol);
    cx.diagnostics.push_back(std::move(d));
  }

  std::set<StmtId> unconsumed_reported;
  for (const SyncEvent& e : t.events) {
    if (e.kind != SyncEventKind::PhaseComplete) continue;
    auto w = waiters.find(e.barrier.symbol);
    // Nobody waits on this barrier at all: a phase a copy completes
    // delivers bytes nobody reads, which may land after the CTA exits (the
    // CPU executor's race with the CTA's end); other arrivals are left
    // alone.
    if (w == waiters.end()) {
      const auto* mv = e.stmt == kNone ? nullptr : std::get_if<MoveStmt>(&m.stmts[e.stmt].node);
      if (mv && op_info(mv->op).completion == OpCompletion::Mbarrier && unconsumed_reported.insert(e.stmt).second) {
        Diagnostic d = make_diagnostic(DiagForm::UnconsumedCopy, m.stmts[e.stmt].range, e.phase, barrier_text(m, e.barrier));
        add_decl_note(m, d, e.barrier.symbol);
        cx.diagnostics.push_back(std::move(d));
      }
      continue;
    }
    // A free-stage barrier, or E0419 says why a phase went unseen.
    if (w->second.fresh || stale.count(e.barrier)) continue;
    const std::set<int64_t>& phases = observed[e.barrier];
    if (phases.count(e.phase)) continue;
    if (e.stmt == kNone || !unconsumed_reported.insert(e.stmt).second) continue;
    std::string seen;
    int64_t shown = 0;
    for (int64_t p : phases) {
      if (shown++ == 6) {
        seen += ", ...";
        break;
      }
      seen += (seen.empty() ? "" : ", ") + std::to_string(p);
    }
    if (seen.empty()) seen = "none";
    Diagnostic d = make_diagnostic(DiagId::UnconsumedPhase, m.stmts[e.stmt].range, e.phase,
                                   barrier_text(m, e.barrier), seen, completed[e.barrier]);
    for (StmtId s : w->second.statements)
      d.related.push_back({m.stmts[s].range, "a wait on `" + std::string(m.symbols[e.barrier.symbol].name) + "`"});
    add_decl_note(m, d, e.barrier.symbol);
    cx.diagnostics.push_back(std::move(d));
  }
}

}  // namespace cake
