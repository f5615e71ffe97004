// E0601, E0602, E0603 and E0411: accesses the trace's happens-before
// tracking found unordered (Hazard). A read before the phase that publishes
// its write is E0601 (E0411 for tensor memory, whose writer is an MMA that
// `tcgen05.commit` completes); a write over another role's unreleased reads
// is E0602; two roles' unordered writes are E0603; an async-proxy read of
// smem whose generic-proxy write was not fenced is E0604; a tensor-memory
// read before tcgen05.wait.st completes the store it reads is E0415; a
// global read before another role's (or, in a cluster, another CTA's) TMA
// store to the same elements is ordered complete is E0417; a peer CTA's
// shared memory touched with nothing ordering it before that CTA ends is
// E0420.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <set>
#include <utility>

namespace cake {
void check_races(const ProtocolContext& cx) {
  const Module& m = cx.module;
  const ProtocolTrace& t = cx.trace;
  auto by_role = [&](int role) {
    const RoleView& r = t.roles[role].role;
    return r.name.empty() ? std::string() : " by role `" + std::string(r.name) + "`";
  };
  // `text` on a new line right after statement `s`, at its indentation.
  auto line_after = [&](const Stmt& s, const std::string& text) {
    return TextEdit{{s.range.end, s.range.end}, "\n" + std::string(m.indent_at(s.range.begin)) + text};
  };
  std::set<std::pair<DiagId, StmtId>> reported;
  for (const Hazard& h : t.hazards) {
    ByteRange at = m.exprs[h.operand].range;
    std::string slot = slot_text(m, h.slot);
    switch (h.kind) {
      case HazardKind::UnorderedRead: {
        bool tmem = m.symbols[h.slot.symbol].kind == SymbolKind::Tmem;
        DiagId code = tmem ? DiagId::TmemReadBeforeCommit : DiagId::ReadBeforePublish;
        if (!reported.insert({code, h.stmt}).second) break;
        Diagnostic d = tmem ? make_diagnostic(DiagId::TmemReadBeforeCommit, at, slot)
                       : h.scope == ThreadScope::All && h.other_role != h.role
                           ? make_diagnostic(DiagForm::ReadNeverAcquired, at, slot)
                           : make_diagnostic(DiagId::ReadBeforePublish, at, slot);
        d.related.push_back({m.stmts[h.other_stmt].range, "written here" + by_role(h.other_role)});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::ReadBeforeFill: {
        if (!reported.insert({DiagId::ReadBeforePublish, h.stmt}).second) break;
        Diagnostic d = make_diagnostic(DiagForm::ReadBeforeFill, at, slot);
        d.related.push_back({m.stmts[h.other_stmt].range, "first written here" + by_role(h.other_role)});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::ElectedRead:
      case HazardKind::ElectedOverwrite: {
        bool read = h.kind == HazardKind::ElectedRead;
        if (!reported.insert({read ? DiagId::ReadBeforePublish : DiagId::OverwriteBeforeRelease, h.stmt}).second) break;
        Diagnostic d = make_diagnostic(read ? DiagForm::ReadAfterLanes : DiagForm::OverwriteAfterLanes, at, slot);
        d.related.push_back(
            {m.stmts[h.other_stmt].range, std::string(read ? "written" : "read") + " here by every thread" + by_role(h.other_role)});
        StmtId elect = h.stmt;
        while (elect != kNone && !std::holds_alternative<ElectStmt>(m.stmts[elect].node)) elect = m.stmts[elect].parent;
        if (elect != kNone)
          if (std::optional<Fix> fix = role_barrier_fix(m, t, t.roles[h.role].role, m.stmts[elect], "before the `elect`"))
            d.fixes.push_back(*fix);
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::UnorderedOverwrite: {
        if (!reported.insert({DiagId::OverwriteBeforeRelease, h.stmt}).second) break;
        const RoleView& reader = t.roles[h.other_role].role;
        Diagnostic d = reader.name.empty() ? make_diagnostic(DiagForm::OverwriteBeforeReleaseKernel, at, slot)
                                           : make_diagnostic(DiagId::OverwriteBeforeRelease, at, slot, reader.name);
        d.related.push_back({m.stmts[h.other_stmt].range, "read here" + by_role(h.other_role)});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::UnfencedProxy: {
        if (!reported.insert({DiagId::UnfencedProxy, h.stmt}).second) break;
        const Stmt& reader = m.stmts[h.stmt];
        const Stmt& writer = m.stmts[h.other_stmt];
        std::string reads = "`" + std::string(m.written(reader.keyword)) + "`";
        std::string writes = "`" + std::string(m.written(writer.keyword.begin == writer.keyword.end ? writer.range : writer.keyword)) + "`";
        Diagnostic d = h.late_fence == kNone ? make_diagnostic(DiagId::UnfencedProxy, at, slot, reads, writes)
                                             : make_diagnostic(DiagForm::ProxyFenceUnordered, at, slot, reads, writes);
        d.related.push_back({m.stmts[h.other_stmt].range, "written here" + by_role(h.other_role)});
        if (h.late_fence != kNone)
          d.related.push_back({m.stmts[h.late_fence].range, "fenced here, after the barrier that orders the read"});
        if (h.fence_after == h.other_stmt)
          d.fixes.push_back({"insert `fence.proxy.async` after the write", {line_after(writer, "fence.proxy.async")}, true});
        else if (h.fence_after != kNone)  // a copy's writes are there once its wait has completed them
          d.fixes.push_back({"insert `fence.proxy.async` after the `cp.async.wait` that completes the copy",
                             {line_after(m.stmts[h.fence_after], "fence.proxy.async")}, true});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::TmemStoreUnwaited: {
        if (!reported.insert({DiagId::Tcgen05StWait, h.stmt}).second) break;
        const Stmt& reader = m.stmts[h.stmt];
        Diagnostic d = make_diagnostic(DiagId::Tcgen05StWait, at, slot, "`" + std::string(m.written(reader.keyword)) + "`");
        const Stmt& store = m.stmts[h.other_stmt];
        d.related.push_back({store.range, "stored here" + by_role(h.other_role)});
        d.fixes.push_back({"insert `tcgen05.wait.st` after the store", {line_after(store, "tcgen05.wait.st")}, true});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::StoreInFlightRead: {
        if (!reported.insert({DiagId::TmaStoreReadBack, h.stmt}).second) break;
        const RoleView& writer = t.roles[h.other_role].role;
        Diagnostic d = h.other_cta >= 0
                           ? make_diagnostic(DiagForm::TmaStoreReadByPeer, at, m.symbols[h.slot.symbol].name, h.other_cta)
                           : make_diagnostic(DiagForm::TmaStoreReadByOther, at, m.symbols[h.slot.symbol].name,
                                             writer.name.empty() ? std::string_view("the kernel") : writer.name);
        std::string where = h.other_cta >= 0 ? " in CTA " + std::to_string(h.other_cta) : "";
        d.related.push_back({m.stmts[h.other_stmt].range, "the TMA store that writes it" + where + by_role(h.other_role)});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::PeerExited: {
        if (!reported.insert({DiagId::PeerExited, h.stmt}).second) break;
        Diagnostic d = make_diagnostic(DiagId::PeerExited, at, m.written(at));
        // The fix: a cluster.sync as the last statement of every role (of
        // the kernel, without roles), so every CTA waits for the others.
        Fix end{"end every role with `cluster.sync`", {}, false};
        for (const RoleTrace& r : t.roles)
          if (r.role.body && !r.role.body->empty()) end.edits.push_back(line_after(m.stmts[r.role.body->back()], "cluster.sync"));
        if (!end.edits.empty()) d.fixes.push_back(std::move(end));
        cx.diagnostics.push_back(std::move(d));
        break;
      }
      case HazardKind::UnorderedWrite: {
        if (!reported.insert({DiagId::UnorderedWrites, h.stmt}).second) break;
        Diagnostic d = make_diagnostic(DiagId::UnorderedWrites, at, slot);
        d.related.push_back({m.stmts[h.other_stmt].range, "also written here" + by_role(h.other_role)});
        cx.diagnostics.push_back(std::move(d));
        break;
      }
    }
  }
}

}  // namespace cake
