// E0414: a `multicast(mask)` must name a non-empty set of CTAs of the
// kernel's cluster, and a `dsmem` view one CTA of it. Read from the MulticastOutside events of the trace (the
// simulator evaluates each mask where the copy or commit runs, cluster.rank
// bound per CTA); reported once per statement, on its multicast clause.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <set>

namespace cake {

void check_multicast(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const Kernel& kernel = m.kernels[cx.trace.kernel];
  std::set<StmtId> reported;
  for (const SyncEvent& e : cx.trace.events) {
    if (e.kind != SyncEventKind::MulticastOutside || !reported.insert(e.stmt).second) continue;
    const Stmt& s = m.stmts[e.stmt];
    ByteRange clause = s.range;
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) clause = mv->multicast_clause;
    if (const auto* c = std::get_if<CommitStmt>(&s.node)) clause = c->multicast_clause;
    if (const auto* a = std::get_if<ArriveStmt>(&s.node)) clause = a->multicast_clause;
    std::string mask = std::to_string(e.bytes);
    Diagnostic d;
    if (const auto* decl = std::get_if<DeclStmt>(&s.node)) {
      // A `dsmem` view whose CTA is not one of the cluster.
      const Symbol& v = m.symbols[decl->symbol];
      d = make_diagnostic(DiagForm::DsmemOutside, m.exprs[v.value].range, v.name, e.bytes, e.threads, e.threads - 1,
                          kernel.cluster.empty() ? "; the kernel has no `cluster` clause" : "");
    } else if (kernel.cluster.empty()) {
      d = make_diagnostic(DiagForm::MulticastNoCluster, clause, mask);
    } else if (e.bytes <= 0) {
      d = make_diagnostic(DiagForm::MulticastEmpty, clause, mask);
    } else {
      int64_t ctas = e.threads;
      d = make_diagnostic(DiagId::MulticastOutside, clause, mask, ctas, ctas - 1, (int64_t(1) << ctas) - 1);
    }
    if (!kernel.cluster.empty()) d.related.push_back({kernel.cluster_range, "the cluster"});
    cx.diagnostics.push_back(std::move(d));
  }
}

}  // namespace cake
