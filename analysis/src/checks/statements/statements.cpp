// The statement walk (checker.h): visits every statement of every kernel
// with its role, loops and conditions, checks placement (E0113) and
// constant-ness (E0112), and hands each op to the operand, shape and bounds
// rules.
#include "checks/statements/checker.h"
#include "diag_builder.h"
#include "checks/checks.h"
#include "cake/kernel_facts.h"
#include "cake/checked.h"

#include <algorithm>

namespace cake {

void StatementChecker::run() {
  for (uint32_t k = 0; k < m_.kernels.size(); ++k) kernel(k);
}

void StatementChecker::kernel(uint32_t index) {
  const Kernel& k = m_.kernels[index];
  kernel_ = index;
  samples_ = &facts_.kernel(index).samples();
  bool has_roles = std::any_of(k.body.begin(), k.body.end(), [&](StmtId s) {
    return std::holds_alternative<RoleStmt>(m_.stmts[s].node);
  });
  constant(k.block, "the block size");
  for (ExprId d : k.cluster) constant(d, "a cluster dimension");
  block_threads_ = k.block == kNone ? std::nullopt : eval_.fold(k.block);
  bool seen_role = false;
  for (StmtId id : k.body) {
    const Stmt& s = m_.stmts[id];
    if (const auto* role = std::get_if<RoleStmt>(&s.node)) {
      seen_role = true;
      role_ = role_info(*role);
      statement(id);
      continue;
    }
    if (is_resource(s)) {
      if (seen_role)
        diags_.push_back(make_diagnostic(DiagId::MisplacedItem, s.keyword, keyword(s)));
      statement(id);
      continue;
    }
    if (has_roles && !std::holds_alternative<LetStmt>(s.node)) {
      diags_.push_back(make_diagnostic(DiagForm::StatementOutsideRoles, s.keyword));
      continue;
    }
    role_ = implicit_role();
    statement(id);
  }
  kernel_ = kNone;
}

WarpSpan StatementChecker::implicit_role() const {
  WarpSpan r;
  if (block_threads_ && *block_threads_ > 0) {
    r.known = true;
    r.warps = *block_threads_ / 32;
    r.units = r.warps;
  }
  return r;
}

WarpSpan StatementChecker::role_info(const RoleStmt& role) {
  WarpSpan r;
  if (role.spec.kind == RoleSpec::Kind::All) return implicit_role();
  int64_t per_unit = role.spec.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
  int64_t lo = INT64_MAX, count = 0;
  for (const RoleSpec::Entry& e : role.spec.entries) {
    auto first = eval_.fold(e.first);
    auto end = e.end == kNone ? (first ? checked_add(*first, 1) : std::nullopt) : eval_.fold(e.end);
    // Warp indices past 1024 are errors reported elsewhere; do not sample them.
    if (!first || !end || *first < 0 || *end > 1024) return r;
    lo = std::min(lo, *first);
    count += std::max<int64_t>(0, *end - *first);
  }
  if (count == 0) return r;
  r.known = true;
  r.first_warp = lo * per_unit;
  r.warps = count * per_unit;
  r.units = count;
  return r;
}

bool StatementChecker::is_resource(const Stmt& s) { return false || std::holds_alternative<DeclStmt>(s.node); }

std::string StatementChecker::keyword(const Stmt& s) const {
  return std::string(m_.written(s.keyword));
}

void StatementChecker::constant(ExprId e, std::string_view what) {
  if (e == kNone) return;
  const Expr& x = m_.exprs[e];
  if (x.kind == Expr::Kind::Error) return;
  if (!eval_.fold(e)) diags_.push_back(make_diagnostic(DiagId::NotConstant, x.range, what));
}

void StatementChecker::statements(const std::vector<StmtId>& body) {
  for (StmtId id : body) statement(id);
}

void StatementChecker::statement(StmtId id) {
  const Stmt& s = m_.stmts[id];
  std::visit([&](const auto& node) { check(s, node); }, s.node);
}

void StatementChecker::check(const Stmt& s, const DeclStmt& d) {
  if (d.symbol == kNone) return;
  const Symbol& sym = m_.symbols[d.symbol];
  bool at_kernel_scope = s.parent == kNone;
  if (sym.kind != SymbolKind::Reg && sym.kind != SymbolKind::Dsmem && !at_kernel_scope)
    diags_.push_back(make_diagnostic(DiagForm::DeclarationInBody, s.keyword, keyword(s)));
  for (ExprId dim : sym.type.stage_dims) constant(dim, "a ring size");
  for (ExprId dim : sym.type.dims) constant(dim, "a buffer dimension");
  for (ExprId dim : sym.box) constant(dim, "a box dimension");
  if (sym.kind == SymbolKind::Mbarrier) {
    constant(sym.value, "the mbarrier array size");
    constant(sym.count, "the arrival count");
  }
  if (sym.kind == SymbolKind::NamedBarrier) {
    constant(sym.id, "the barrier id");
    constant(sym.count, "the thread count");
  }
  if (sym.kind == SymbolKind::Reg && sym.value != kNone) {
    Typed init = typer_.type_of(sym.value);
    if (init.kind != Typed::Kind::Unknown && !init.is_scalar())
        diags_.push_back(make_diagnostic(DiagForm::FragmentInitShape, m_.exprs[sym.value].range));
  }
}

void StatementChecker::check(const Stmt& s, const RoleStmt& r) {
  if (s.parent != kNone) diags_.push_back(make_diagnostic(DiagForm::NestedRole, s.keyword));
  for (const RoleSpec::Entry& e : r.spec.entries) {
    constant(e.first, "a role's warp or warpgroup index");
    constant(e.end, "a role's warp range");
  }
  constant(r.maxnreg, "`maxnreg`");
  statements(r.body);
}

void StatementChecker::check(const Stmt&, const LetStmt& l) {
  Typed v = typer_.type_of(l.value);
  if (v.kind != Typed::Kind::Unknown && !v.is_scalar())
    diags_.push_back(make_diagnostic(DiagId::WrongKind, m_.exprs[l.value].range, "value",
                                     "not a scalar", "a scalar (`let` binds integers and scalars; use `reg` for fragments)"));
  bounds_in(l.value);
}

void StatementChecker::check(const Stmt& s, const ElectStmt& e) { statements(e.body); (void)s; }

void StatementChecker::check(const Stmt&, const ForStmt& f) {
  bounds_in(f.start);
  bounds_in(f.end);
  loops_.push_back({f.variable, kNone, f.start, f.end, f.step, kNone});
  statements(f.body);
  loops_.pop_back();
}

void StatementChecker::check(const Stmt&, const PipelineStmt& p) {
  constant(p.stages, "the ring size");
  loops_.push_back({p.variable, p.stage, p.start, p.end, p.step, p.stages});
  statements(p.body);
  loops_.pop_back();
}

void StatementChecker::check(const Stmt&, const IfStmt& i) {
  typer_.type_of(i.condition);
  guards_.push_back({i.condition, true});
  statements(i.then_body);
  guards_.back().holds = false;
  statements(i.else_body);
  guards_.pop_back();
}

void StatementChecker::check(const Stmt&, const PlainStmt&) {}

void StatementChecker::check(const Stmt&, const GroupWaitStmt& g) { constant(g.pending, "the number of pending groups"); }

void StatementChecker::check(const Stmt&, const ArriveStmt& a) {
  // `arrive NAME` on a named barrier is bar.arrive: no bytes, no index, and
  // only this CTA's threads (no multicast).
  if (a.op == Op::Arrive && typer_.type_of(a.barrier).kind == Typed::Kind::NamedBarrier) {
    if (a.multicast != kNone)
      diags_.push_back(make_diagnostic(DiagId::WrongKind, a.multicast_clause, "multicast", "a named barrier's arrive",
                                       "an mbarrier's arrive (a named barrier is this CTA's only)"));
    return;
  }
  barrier_operand(a.barrier, std::string(op_spelling(a.op)));
  bounds_in(a.barrier);
  if (a.bytes != kNone) {
    Typed b = typer_.type_of(a.bytes);
    if (b.kind != Typed::Kind::Unknown && !b.is_scalar())
      diags_.push_back(make_diagnostic(DiagId::WrongKind, m_.exprs[a.bytes].range, "bytes", "a buffer",
                                       "a byte count (use bytes(...))"));
  }
}

void StatementChecker::check(const Stmt&, const WaitStmt& w) {
  barrier_operand(w.barrier, "wait");
  bounds_in(w.barrier);
  typer_.type_of(w.parity);
}

void StatementChecker::check(const Stmt&, const SyncStmt& s) {
  Typed b = typer_.type_of(s.barrier);
  if (b.kind != Typed::Kind::Unknown && b.kind != Typed::Kind::NamedBarrier)
    wrong_kind(s.barrier, b, "a named barrier (`sync` takes a namedbarrier; mbarriers use arrive/wait)");
}

void StatementChecker::check(const Stmt&, const CommitStmt& c) {
  barrier_operand(c.barrier, std::string(op_spelling(c.op)));
  bounds_in(c.barrier);
}
void check_statements(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  StatementChecker(module, facts, diagnostics).run();
}

}  // namespace cake
