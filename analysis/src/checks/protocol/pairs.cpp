// E0421: the rules of a `cta_group 2` kernel's CTA pairs (ranks 2i and
// 2i + 1) that need the simulation, read from its PairMmaOdd and
// PairBarrierFar events (every CTA's): the pair's MMAs are issued in the
// even CTA, and a copy completes on a barrier of its own CTA or its pair's.
// Reported once per statement. The static forms (a view of a peer's
// barrier outside a pair kernel, or under multicast) are the operand
// checks' (checks/statements/operands.cpp).
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <set>

namespace cake {

void check_pairs(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const Kernel& kernel = m.kernels[cx.trace.kernel];
  std::set<StmtId> reported;
  for (const SyncEvent& e : cx.trace.events) {
    if (e.kind != SyncEventKind::PairMmaOdd && e.kind != SyncEventKind::PairBarrierFar) continue;
    if (!reported.insert(e.stmt).second) continue;
    const Stmt& s = m.stmts[e.stmt];
    Diagnostic d;
    if (e.kind == SyncEventKind::PairMmaOdd) {
      d = make_diagnostic(DiagId::PairMmaOddCta, s.range, e.threads);
    } else {
      const auto* mv = std::get_if<MoveStmt>(&s.node);
      ByteRange at = mv ? m.exprs[mv->barrier].range : s.range;
      d = make_diagnostic(DiagForm::PairCopyBarrierFar, at, barrier_text(m, e.barrier), e.bytes, e.threads,
                          e.threads ^ 1);
    }
    d.related.push_back({kernel.cta_group_range.end > 0 ? kernel.cta_group_range : kernel.cluster_range,
                         "CTA pairs: ranks 2i and 2i + 1"});
    cx.diagnostics.push_back(std::move(d));
  }
}

}  // namespace cake
