// E0401: the arrivals a barrier phase receives differ from its declared
// count. Read from the trace: an Arrive event whose running total passes the
// count (too many), or an open phase that one arriving statement can never
// fill (too few; reported only where it is not a side effect of a deadlock).
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <algorithm>
#include <set>

namespace cake {
namespace {

bool stmt_in_role(const Module& m, StmtId stmt, const RoleView& r) {
  for (StmtId p = stmt; p != kNone; p = m.stmts[p].parent)
    if (p == r.stmt) return true;
  return r.stmt == kNone;
}

/// The message for `share` arrivals per phase from `stmt`, by the elect (or
/// none) that runs it.
Diagnostic share_message(const Module& m, StmtId stmt, const RoleView* role, const std::string& barrier,
                         int64_t share, int64_t count) {
  ByteRange at = m.stmts[stmt].range;
  if (!role) return make_diagnostic(DiagForm::ArrivalShareBare, at, barrier, share, count);
  for (StmtId p = m.stmts[stmt].parent; p != kNone; p = m.stmts[p].parent) {
    const auto* e = std::get_if<ElectStmt>(&m.stmts[p].node);
    if (!e) continue;
    switch (e->kind) {
      case ElectStmt::Kind::PerWarp:
        return make_diagnostic(DiagForm::ArrivalShareWarp, at, barrier, share, role->warps, count);
      case ElectStmt::Kind::PerWarpgroup:
        return make_diagnostic(DiagForm::ArrivalShareWarpgroup, at, barrier, share, role->warpgroups(), count);
      case ElectStmt::Kind::One:
        return make_diagnostic(DiagForm::ArrivalShareOne, at, barrier, share, count);
    }
  }
  return make_diagnostic(DiagForm::ArrivalShareRole, at, barrier, share, role->threads(), count);
}

/// `elect.warp { arrive b }` where a bare arrive gives exactly the count.
void add_arrive_fix(const ProtocolContext& cx, Diagnostic& d, StmtId stmt, int64_t count, const RoleView* role) {
  const Module& m = cx.module;
  if (!role) return;
  StmtId parent = m.stmts[stmt].parent;
  if (parent == kNone) return;
  const auto* elect = std::get_if<ElectStmt>(&m.stmts[parent].node);
  if (!elect || elect->body.size() != 1) return;
  if (role->threads() != count) return;
  std::string arrive(m.written(m.stmts[stmt].range));
  d.fixes.push_back({"arrive from every thread of the role: `" + arrive + "`", {{m.stmts[parent].range, arrive}}, true});
}

}  // namespace

void check_arrivals(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  auto end_of = [&](BarrierKey key) -> const BarrierEnd* {
    auto it = std::lower_bound(t.barriers.begin(), t.barriers.end(), key,
                               [](const BarrierEnd& b, BarrierKey k) { return b.key < k; });
    return it != t.barriers.end() && it->key == key ? &*it : nullptr;
  };
  std::set<StmtId> reported;
  // Too many: the running total passes the count.
  for (const SyncEvent& e : t.events) {
    if (e.kind != SyncEventKind::Arrive) continue;
    const BarrierEnd* b = end_of(e.barrier);
    if (!b || e.arrivals <= b->count || !reported.insert(e.stmt).second) continue;
    const RoleView& role = t.roles[e.role].role;
    ByteRange at = m.stmts[e.stmt].range;
    std::string name = barrier_text(m, e.barrier);
    Diagnostic d = role.name.empty()
                       ? make_diagnostic(DiagForm::ArrivalCountKernel, at, name, e.arrivals, b->count, e.threads)
                       : make_diagnostic(DiagId::ArrivalCount, at, name, e.arrivals, b->count, e.threads, role.name);
    add_decl_note(m, d, e.barrier.symbol);
    cx.diagnostics.push_back(std::move(d));
  }
  if (t.aborted) return;
  // Too few: one arriving statement whose share can never equal the count.
  for (const BarrierEnd& b : t.barriers) {
    if (b.arrivals <= 0 || b.arrivals >= b.count || b.contributors.empty()) continue;
    std::set<StmtId> arriving;
    for (const SyncEvent& e : t.events)
      if (e.kind == SyncEventKind::Arrive && e.barrier == b.key) arriving.insert(e.stmt);
    bool single = arriving.size() == 1;
    int64_t share = b.contributors.front().second;
    bool waited_on = std::any_of(t.roles.begin(), t.roles.end(), [&](const RoleTrace& r) {
      return !r.finished && r.blocked_at != kNone && r.blocked_on == b.key;
    });
    if (!single || share == b.count || !(!t.deadlocked || waited_on || b.count % share != 0)) continue;
    StmtId stmt = b.contributors.front().first;
    if (!reported.insert(stmt).second) continue;
    const RoleView* role = nullptr;
    for (const RoleTrace& r : t.roles)
      if (stmt_in_role(m, stmt, r.role)) role = &r.role;
    Diagnostic d = share_message(m, stmt, role, barrier_text(m, b.key), share, b.count);
    add_decl_note(m, d, b.key.symbol);
    add_arrive_fix(cx, d, stmt, b.count, role);
    cx.diagnostics.push_back(std::move(d));
  }
}

}  // namespace cake
