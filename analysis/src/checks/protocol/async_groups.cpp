// The asynchronous-group rules, replayed per role over the trace's
// AsyncEvents in program order:
//   E0407  a wgmma with no `wgmma.fence` since its registers were touched;
//   E0408  a register fragment used while a wgmma that writes it is in flight;
//   E0409  smem read while the cp.async that fills it is in flight, or after
//          `cp.async.wait` but before a barrier orders the other threads';
//   E0410  `tcgen05.commit` on other threads than the MMAs it covers;
//   E0412  a tcgen05.ld result used before `tcgen05.wait.ld`;
//   E0416  a `tma.store` never waited for before its role ends, or its smem
//          written again before `tma.store.wait[.read]` says the store read it;
//   E0417  global memory read back while a `tma.store` to it may still be
//          writing (no `tma.store.wait` since, only `.read` waits);
//   E0423  a cp.async or a wgmma never waited for before its role ends.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <algorithm>
#include <deque>
#include <set>

namespace cake {
namespace {

/// One kind of asynchronous operation's groups (wgmma, cp.async, TMA
/// stores): what was issued since the last commit, and the committed groups
/// not yet waited for, oldest first. `wait n` retires all but the newest n.
template <typename Group>
struct AsyncGroups {
  Group open;
  std::deque<Group> committed;

  void commit() {
    committed.push_back(std::move(open));
    open.clear();
  }
  /// Retires the oldest groups until `pending` remain, each through `retire`.
  template <typename Retire>
  void wait(int64_t pending, Retire&& retire) {
    while (static_cast<int64_t>(committed.size()) > pending) {
      retire(committed.front());
      committed.pop_front();
    }
  }
  void wait(int64_t pending) {
    wait(pending, [](const Group&) {});
  }
  /// Whether `holds` is true of the open group or a committed one.
  template <typename Holds>
  bool any(Holds&& holds) const {
    return holds(open) || std::any_of(committed.begin(), committed.end(), holds);
  }
};

/// A group's operations, each its event (the events outlive the replay).
using Events = std::vector<const AsyncEvent*>;

class Replay {
 public:
  Replay(const ProtocolContext& cx) : cx_(cx), m_(cx.module) {}

  void run(const std::vector<AsyncEvent>& events, const RoleView& role, bool finished) {
    role_ = &role;
    for (const AsyncEvent& e : events) event(e);
    if (!finished) return;
    // Stores still in flight when the role ends.
    auto report = [&](const std::vector<const AsyncEvent*>& group) {
      for (const AsyncEvent* s : group)
        if (once(DiagId::TmaStoreUnwaited, s->stmt))
          cx_.diagnostics.push_back(
              make_diagnostic(DiagId::TmaStoreUnwaited, m_.stmts[s->stmt].keyword, slot_text(m_, s->slot)));
    };
    report(tma_.open);
    tma_.wait(0, report);
    // cp.async groups and wgmmas still in flight: the fix waits for them
    // (committing the open group first) as the role's last statements.
    // A role already told to wait before a use (E0408, E0409) is not told
    // again: that wait is the fix for both.
    auto told = [&](DiagId code) {
      return std::any_of(reported_.begin(), reported_.end(), [&](const auto& r) { return r.first == code; });
    };
    auto unwaited = [&](AsyncGroups<Events>& q, DiagId use, std::string_view op, std::string_view does,
                        std::string_view commit, std::string_view wait) {
      if (told(use)) return;
      const bool open = !q.open.empty();
      std::string add = open ? "`" + std::string(commit) + "` and `" + std::string(wait) + "`" : "`" + std::string(wait) + "`";
      auto each = [&](const std::vector<const AsyncEvent*>& group) {
        for (const AsyncEvent* e : group) {
          if (!once(DiagId::AsyncInFlightAtEnd, e->stmt)) continue;
          std::string what = e->kind == AsyncEventKind::Wgmma ? std::string(does) : std::string(does) + " `" + slot_text(m_, e->slot) + "`";
          Diagnostic d = make_diagnostic(DiagId::AsyncInFlightAtEnd, m_.stmts[e->stmt].keyword, op, what, add);
          if (role.body && !role.body->empty()) {
            const Stmt& last = m_.stmts[role.body->back()];
            std::string at = "\n" + indent(last.range.begin);
            std::string text = (open ? at + std::string(commit) : std::string()) + at + std::string(wait);
            d.fixes.push_back({"insert " + add + " at the role's end", {{{last.range.end, last.range.end}, text}}, true});
          }
          cx_.diagnostics.push_back(std::move(d));
        }
      };
      each(q.open);
      q.wait(0, each);
    };
    unwaited(cp_, DiagId::MissingCpAsyncWait, "cp.async", "write", "cp.async.commit", "cp.async.wait 0");
    unwaited(wgmma_, DiagId::MissingWgmmaWait, "wgmma", "read its operands from shared memory", "wgmma.commit",
             "wgmma.wait 0");
  }

 private:
  void event(const AsyncEvent& e) {
    switch (e.kind) {
      case AsyncEventKind::WgmmaFence:
        fenced_ = true;
        touched_since_fence_.clear();
        break;
      case AsyncEventKind::WgmmaCommit: wgmma_.commit(); break;
      case AsyncEventKind::WgmmaWait: wgmma_.wait(e.count); break;
      case AsyncEventKind::Wgmma: wgmma(e); break;
      case AsyncEventKind::FragmentUse: fragment_use(e); break;
      case AsyncEventKind::CpAsyncCopy: cp_.open.push_back(&e); break;
      case AsyncEventKind::CpAsyncCommit: cp_.commit(); break;
      case AsyncEventKind::CpAsyncWait:
        cp_.wait(e.count, [&](const Events& g) {
          for (const AsyncEvent* c : g) cp_unsynced_.insert(c->slot);
        });
        break;
      case AsyncEventKind::RoleSync:
        cp_unsynced_.clear();
        elected_waits_.clear();
        break;
      case AsyncEventKind::SmemRead: smem_read(e); break;
      case AsyncEventKind::Tcgen05Mma:
        mma_scope_ = e.scope;
        mma_stmt_ = e.stmt;
        break;
      case AsyncEventKind::Tcgen05Commit: commit(e); break;
      case AsyncEventKind::Tcgen05Ld: ld_pending_.insert(e.fragment); break;
      case AsyncEventKind::Tcgen05WaitLd: ld_pending_.clear(); break;
      case AsyncEventKind::TmemLanes: break;  // tmem_lanes.cpp
      case AsyncEventKind::TmaStore:
        tma_.open.push_back(&e);
        tma_writes_.open.push_back(&e);
        break;
      case AsyncEventKind::TmaStoreCommit:
        tma_.commit();
        tma_writes_.commit();
        break;
      case AsyncEventKind::TmaStoreWait:
        tma_.wait(e.count);
        // Waited for by the elected thread alone: the other lanes have the
        // writes after a barrier of the role.
        tma_writes_.wait(e.count, [&](const Events& g) {
          if (e.scope != ThreadScope::All) elected_waits_.insert(elected_waits_.end(), g.begin(), g.end());
        });
        break;
      case AsyncEventKind::TmaStoreWaitRead: tma_.wait(e.count); break;
      case AsyncEventKind::GlobalRead: global_read(e); break;
      case AsyncEventKind::SmemWrite: smem_write(e); break;
    }
  }

  void smem_write(const AsyncEvent& e) {
    auto reads = [&](const AsyncEvent* s) { return s->slot.symbol == e.slot.symbol && (s->slot.stage == e.slot.stage || s->slot.stage < 0 || e.slot.stage < 0); };
    bool in_flight = tma_.any([&](const auto& g) { return std::any_of(g.begin(), g.end(), reads); });
    if (in_flight && once(DiagId::TmaStoreUnwaited, e.stmt))
      cx_.diagnostics.push_back(
          make_diagnostic(DiagForm::TmaStoreStagingReuse, m_.exprs[e.operand].range, slot_text(m_, e.slot)));
  }

  void global_read(const AsyncEvent& e) {
    const AsyncEvent* writer = nullptr;
    bool committed = true;
    for (const AsyncEvent* s : tma_writes_.open)
      if (s->other == e.other) writer = s, committed = false;
    for (const auto& g : tma_writes_.committed)
      for (const AsyncEvent* s : g)
        if (s->other == e.other && !writer) writer = s;
    if (!writer && e.scope == ThreadScope::All) {
      for (const AsyncEvent* s : elected_waits_)
        if (s->other == e.other && !writer) writer = s;
      if (!writer || !once(DiagId::TmaStoreReadBack, e.stmt)) return;
      Diagnostic d = make_diagnostic(DiagForm::TmaStoreReadAfterElectedWait, m_.exprs[e.operand].range,
                                     m_.symbols[e.other].name);
      d.related.push_back({m_.stmts[writer->stmt].range, "the TMA store that writes it"});
      if (auto fix = role_barrier_fix(m_, cx_.trace, *role_, m_.stmts[e.stmt], "before this read")) d.fixes.push_back(*fix);
      cx_.diagnostics.push_back(std::move(d));
      return;
    }
    if (!writer || !once(DiagId::TmaStoreReadBack, e.stmt)) return;
    const Stmt& at = m_.stmts[e.stmt];
    Diagnostic d = make_diagnostic(DiagId::TmaStoreReadBack, m_.exprs[e.operand].range, m_.symbols[e.other].name,
                                   committed ? "only its reads of shared memory were waited for"
                                             : "its group is not even committed");
    d.related.push_back({m_.stmts[writer->stmt].range, "the TMA store that writes it"});
    std::string wait = committed ? "tma.store.wait 0\n" : "tma.store.commit\n" + indent(at.range.begin) + "tma.store.wait 0\n";
    d.fixes.push_back({committed ? "insert `tma.store.wait 0`" : "insert `tma.store.commit` and `tma.store.wait 0`",
                       {{ByteRange{at.range.begin, at.range.begin}, wait + indent(at.range.begin)}},
                       true});
    cx_.diagnostics.push_back(std::move(d));
  }

  bool once(DiagId code, StmtId stmt) { return reported_.insert({code, stmt}).second; }

  std::string indent(uint32_t at) const { return std::string(cx_.module.indent_at(at)); }

  void wgmma(const AsyncEvent& e) {
    SymbolId acc = e.fragment, areg = e.other;
    bool stale = !fenced_ || (acc != kNone && touched_since_fence_.count(acc)) ||
                 (areg != kNone && touched_since_fence_.count(areg));
    if (stale && once(DiagId::MissingWgmmaFence, e.stmt)) {
      const Stmt& s = m_.stmts[e.stmt];
      Diagnostic d = fenced_ ? make_diagnostic(DiagForm::WgmmaFenceStale, s.keyword)
                             : make_diagnostic(DiagId::MissingWgmmaFence, s.keyword);
      d.fixes.push_back({"insert `wgmma.fence`",
                         {{ByteRange{s.range.begin, s.range.begin}, "wgmma.fence\n" + indent(s.range.begin)}},
                         true});
      cx_.diagnostics.push_back(std::move(d));
    }
    wgmma_.open.push_back(&e);
  }

  void fragment_use(const AsyncEvent& e) {
    SymbolId f = e.fragment;
    ByteRange at = m_.exprs[e.operand].range;
    std::string_view name = m_.symbols[f].name;
    auto writes = [&](const Events& g) {
      return std::any_of(g.begin(), g.end(), [&](const AsyncEvent* w) { return w->fragment == f; });
    };
    bool uncommitted = writes(wgmma_.open);
    bool in_flight = wgmma_.any(writes);
    if (in_flight && once(DiagId::MissingWgmmaWait, e.stmt))
      cx_.diagnostics.push_back(uncommitted ? make_diagnostic(DiagForm::WgmmaUncommitted, at, name)
                                            : make_diagnostic(DiagId::MissingWgmmaWait, at, name));
    if (ld_pending_.count(f) && once(DiagId::Tcgen05LdWait, e.stmt))
      cx_.diagnostics.push_back(make_diagnostic(DiagId::Tcgen05LdWait, at, name));
    touched_since_fence_.insert(f);
  }

  void smem_read(const AsyncEvent& e) {
    ByteRange at = m_.exprs[e.operand].range;
    bool in_flight = cp_.any([&](const Events& g) {
      return std::any_of(g.begin(), g.end(), [&](const AsyncEvent* c) { return c->slot == e.slot; });
    });
    if (in_flight) {
      if (once(DiagId::MissingCpAsyncWait, e.stmt))
        cx_.diagnostics.push_back(make_diagnostic(DiagId::MissingCpAsyncWait, at, slot_text(m_, e.slot)));
    } else if (cp_unsynced_.count(e.slot) && e.scope != ThreadScope::One) {
      if (once(DiagId::MissingCpAsyncWait, e.stmt))
        cx_.diagnostics.push_back(make_diagnostic(DiagForm::CpAsyncUnsynced, at, slot_text(m_, e.slot)));
    }
  }

  void commit(const AsyncEvent& e) {
    if (mma_stmt_ == kNone || e.scope == mma_scope_ || !once(DiagId::Tcgen05CommitThread, e.stmt)) return;
    Diagnostic d = make_diagnostic(DiagId::Tcgen05CommitThread, m_.stmts[e.stmt].keyword, e.threads);
    d.related.push_back({m_.stmts[mma_stmt_].range, "the MMAs are issued here"});
    cx_.diagnostics.push_back(std::move(d));
  }

  const ProtocolContext& cx_;
  const Module& m_;
  std::set<std::pair<DiagId, StmtId>> reported_;
  // wgmma
  bool fenced_ = false;
  std::set<SymbolId> touched_since_fence_;
  AsyncGroups<Events> wgmma_;  // each wgmma (its accumulator: `fragment`)
  // cp.async
  AsyncGroups<Events> cp_;  // each copy (its destination: `slot`)
  std::set<SlotKey> cp_unsynced_;
  // tcgen05
  ThreadScope mma_scope_ = ThreadScope::One;
  StmtId mma_stmt_ = kNone;
  std::set<SymbolId> ld_pending_;
  // TMA stores: each is its event (the events outlive the replay); `tma_`
  // until their reads of shared memory are waited for (either wait),
  // `tma_writes_` until their writes are (`tma.store.wait` only).
  AsyncGroups<Events> tma_;
  AsyncGroups<Events> tma_writes_;
  // Stores whose writes only an elected thread's wait retired, until a
  // barrier of the role gives them to every lane.
  Events elected_waits_;
  const RoleView* role_ = nullptr;
};

}  // namespace

void check_async_groups(const ProtocolContext& cx) {
  static const RoleView none;
  for (size_t r = 0; r < cx.trace.async.size(); ++r) {
    const bool known = r < cx.trace.roles.size();
    Replay(cx).run(cx.trace.async[r], known ? cx.trace.roles[r].role : none,
                   known && !cx.trace.aborted && cx.trace.roles[r].finished);
  }
}

}  // namespace cake
