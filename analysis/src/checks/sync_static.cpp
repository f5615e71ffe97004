// Static synchronisation checks that need no simulation:
//   E0404  a `wait` on an mbarrier that no statement ever arrives on, commits
//          to or completes bytes on;
//   E0405  `syncthreads` (or `cluster.sync`) reached by only some warps:
//          inside one role of several that another role never reaches,
//          inside `elect`, or under a condition that differs between the
//          threads of the role (how often each role reaches it is the
//          protocol simulation's: checks/protocol/deadlock.cpp);
//   E0406  `sync NAME` whose `threads(t)` differs from the threads of the
//          roles that reach it.
#include "cake/ops.h"
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/kernel_facts.h"

#include <map>
#include <set>
#include <string>

namespace cake {
namespace {

class SyncChecker {
 public:
  SyncChecker(const Module& m, const FactsCache& facts, std::vector<Diagnostic>& diags)
      : m_(m), facts_(facts), diags_(diags), eval_(m) {}

  void run() {
    for (uint32_t k = 0; k < m_.kernels.size(); ++k) kernel(k);
  }

 private:
  struct Context {
    const RoleView* role = nullptr;
    bool in_elect = false;
    ExprId nonuniform = kNone;  // an enclosing per-thread condition
  };

  void kernel(uint32_t k) {
    const auto& roles = facts_.kernel(k).roles();
    arrived_.clear();
    waits_.clear();
    named_.clear();
    if (!roles) return;
    roles_ = &*roles;
    for (const RoleView& r : *roles) walk(*r.body, Context{&r});
    for (const auto& [stmt, barrier] : waits_)
      if (!arrived_.count(barrier)) {
        Diagnostic d = make_diagnostic(DiagId::NoArrivals, m_.stmts[stmt].range, m_.symbols[barrier].name);
        d.related.push_back({m_.symbols[barrier].decl, "declared here"});
        diags_.push_back(std::move(d));
      }
    for (const auto& [barrier, uses] : named_) {
      const Symbol& s = m_.symbols[barrier];
      auto t = eval_.fold(s.count);
      if (!t) continue;
      int64_t reach = 0;
      std::set<const RoleView*> seen;
      for (const auto& [stmt, role] : uses)
        if (seen.insert(role).second) reach += role->threads();
      if (reach != *t) {
        const auto& [stmt, role] = uses.front();
        Diagnostic d = reach < *t ? make_diagnostic(DiagId::NamedBarrierThreads, m_.stmts[stmt].range, s.name, *t, reach)
                                  : make_diagnostic(DiagForm::NamedBarrierEarly, m_.stmts[stmt].range, s.name, *t, reach);
        d.related.push_back({s.decl, "declared here"});
        if (role->stmt != kNone) d.related.push_back({role->range, "the role that reaches it"});
        diags_.push_back(std::move(d));
      }
    }
  }

  void walk(const std::vector<StmtId>& body, Context ctx) {
    for (StmtId id : body) statement(id, ctx);
  }

  void statement(StmtId id, Context ctx) {
    const Stmt& s = m_.stmts[id];
    if (const auto* e = std::get_if<ElectStmt>(&s.node)) {
      Context inner = ctx;
      inner.in_elect = true;
      walk(e->body, inner);
    } else if (const auto* f = std::get_if<ForStmt>(&s.node)) {
      walk(f->body, ctx);
    } else if (const auto* p = std::get_if<PipelineStmt>(&s.node)) {
      walk(p->body, ctx);
    } else if (const auto* i = std::get_if<IfStmt>(&s.node)) {
      Context inner = ctx;
      if (depends_on_thread(m_, eval_, i->condition)) inner.nonuniform = i->condition;
      walk(i->then_body, inner);
      walk(i->else_body, inner);
    } else if (ExprId b = arrival_barrier(s); b != kNone) {
      SymbolId root = root_symbol(m_, b);
      if (root != kNone && m_.symbols[root].kind == SymbolKind::NamedBarrier) {
        // `arrive NAME` (bar.arrive): these threads count toward the barrier.
        named_[root].push_back({id, ctx.role});
        partial(id, ctx, "arrive");
      }
      arrived_.insert(root);
    } else if (const auto* w = std::get_if<WaitStmt>(&s.node)) {
      SymbolId b = root_symbol(m_, w->barrier);
      if (b != kNone && m_.symbols[b].kind == SymbolKind::Mbarrier) waits_.push_back({id, b});
    } else if (const auto* sy = std::get_if<SyncStmt>(&s.node)) {
      SymbolId b = root_symbol(m_, sy->barrier);
      if (b != kNone && m_.symbols[b].kind == SymbolKind::NamedBarrier) named_[b].push_back({id, ctx.role});
      partial(id, ctx, "sync");
    } else if (const auto* pl = std::get_if<PlainStmt>(&s.node)) {
      if (OpIssue issue = op_info(pl->op).issue; issue == OpIssue::Block || issue == OpIssue::Cluster) {
        std::string_view op = op_spelling(pl->op);
        // In one role of several, every other role must reach the same op:
        // a role that has none hangs it here; the protocol simulation
        // checks that they reach it equally often (PartialSyncCount).
        const RoleView* absent = nullptr;
        if (roles_->size() > 1 && ctx.role->stmt != kNone)
          for (const RoleView& r : *roles_)
            if (&r != ctx.role && !absent && !reaches_op(m_, *r.body, pl->op)) absent = &r;
        if (absent) {
          Diagnostic d = make_diagnostic(DiagId::PartialSync, s.range, op, ctx.role->name, absent->name);
          d.related.push_back({ctx.role->range, "the role"});
          d.related.push_back({absent->range, "role `" + std::string(absent->name) + "` has no `" + std::string(op) + "`"});
          diags_.push_back(std::move(d));
        } else {
          partial(id, ctx, op);
        }
      }
    }
  }

  /// `op` (a spelling: "sync", "syncthreads") reached by only some threads.
  void partial(StmtId id, const Context& ctx, std::string_view op) {
    const Stmt& s = m_.stmts[id];
    if (ctx.in_elect) {
      diags_.push_back(make_diagnostic(DiagForm::PartialSyncElect, s.range, op));
    } else if (ctx.nonuniform != kNone) {
      Diagnostic d = make_diagnostic(DiagForm::PartialSyncCondition, s.range, op);
      d.related.push_back({m_.exprs[ctx.nonuniform].range, "this condition depends on the thread"});
      diags_.push_back(std::move(d));
    }
  }

  const Module& m_;
  const FactsCache& facts_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  const std::vector<RoleView>* roles_ = nullptr;
  std::set<SymbolId> arrived_;
  std::vector<std::pair<StmtId, SymbolId>> waits_;
  std::map<SymbolId, std::vector<std::pair<StmtId, const RoleView*>>> named_;
};

}  // namespace

void check_sync_static(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  SyncChecker(module, facts, diagnostics).run();
}

}  // namespace cake
