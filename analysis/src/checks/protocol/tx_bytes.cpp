// E0402: an `arrive.expect_tx` whose bytes differ from what its copies
// deliver. Read from the trace:
//   - too many: the copies that follow an ExpectTx on the same barrier (until
//     the next ExpectTx there, or a wait of the arming role) are its copies.
//     When the phase it armed completes before the last of them lands (a copy
//     overshoots, or copies arrive after the completion), the readers race
//     the late bytes: the message gives all its copies' bytes and the late
//     ones.
//   - too few: a phase left open with all its arrivals but fewer bytes than
//     expected never completes (a hang).
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <map>
#include <set>

namespace cake {
namespace {

/// An expect_tx and the copies that follow it.
struct Batch {
  StmtId stmt = kNone;
  int role = -1;
  int64_t phase = 0;  // the phase it armed
  int64_t expected = 0, delivered = 0;
  bool completed = false;  // the phase completed
  bool late = false;       // ... before the last copy landed
};

}  // namespace

void check_tx_bytes(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  std::set<StmtId> reported;
  std::map<BarrierKey, Batch> open;
  auto close = [&](BarrierKey key, const Batch& b) {
    if (!b.late || !reported.insert(b.stmt).second) return;
    Diagnostic d = make_diagnostic(DiagForm::ExpectTxLate, m.stmts[b.stmt].range, barrier_text(m, key), b.expected,
                                   b.delivered, b.delivered - b.expected);
    add_decl_note(m, d, key.symbol);
    cx.diagnostics.push_back(std::move(d));
  };
  for (const SyncEvent& e : t.events) {
    switch (e.kind) {
      case SyncEventKind::ExpectTx: {
        auto it = open.find(e.barrier);
        if (it != open.end()) close(e.barrier, it->second);
        open[e.barrier] = Batch{e.stmt, e.role, e.phase, e.bytes, 0, false, false};
        break;
      }
      case SyncEventKind::CompleteTx: {
        // A cluster peer's copy is not program-ordered after this CTA's
        // expect_tx: once the batch's phase completed, it belongs to a
        // later phase (tx counts may run ahead of their expect_tx).
        auto it = open.find(e.barrier);
        if (it == open.end() || (e.remote && (it->second.completed || e.phase != it->second.phase))) break;
        it->second.delivered += e.bytes;
        if (it->second.completed) it->second.late = true;
        break;
      }
      case SyncEventKind::PhaseComplete: {
        auto it = open.find(e.barrier);
        if (it == open.end() || it->second.phase != e.phase) break;
        it->second.completed = true;
        if (e.delivered > e.expected) it->second.late = true;
        break;
      }
      case SyncEventKind::Wait:
        // The arming role has observed a phase: later copies are not
        // program-ordered after its expect_tx any more.
        for (auto it = open.begin(); it != open.end();) {
          if (it->second.role != e.role) { ++it; continue; }
          close(it->first, it->second);
          it = open.erase(it);
        }
        break;
      case SyncEventKind::Arrive:
      case SyncEventKind::MulticastOutside:
      case SyncEventKind::PairMmaOdd:
      case SyncEventKind::PairBarrierFar:
        break;
    }
  }
  for (const auto& [key, b] : open) close(key, b);
  if (t.aborted) return;
  for (const BarrierEnd& b : t.barriers) {
    if (b.arrivals < b.count || b.delivered >= b.expected || b.expect_stmt == kNone) continue;
    if (!reported.insert(b.expect_stmt).second) continue;
    Diagnostic d = make_diagnostic(DiagId::ExpectTxBytes, m.stmts[b.expect_stmt].range, barrier_text(m, b.key),
                                   b.expected, b.delivered);
    add_decl_note(m, d, b.key.symbol);
    cx.diagnostics.push_back(std::move(d));
  }
}

}  // namespace cake
