// kernel_roles(), reaches_op() and depends_on_thread(); see roles.h.
#include "cake/roles.h"

#include <algorithm>

namespace cake {

std::optional<std::vector<RoleView>> kernel_roles(const Module& m, const Evaluator& eval, uint32_t k) {
  const Kernel& kernel = m.kernels[k];
  auto block = kernel.block == kNone ? std::nullopt : eval.fold(kernel.block);
  if (!block || *block <= 0 || *block > 1024 || *block % 32 != 0) return std::nullopt;
  std::vector<RoleView> roles;
  for (StmtId id : kernel.body) {
    const auto* role = std::get_if<RoleStmt>(&m.stmts[id].node);
    if (!role) continue;
    RoleView v;
    v.stmt = id;
    v.name = role->symbol != kNone ? m.symbols[role->symbol].name : "";
    v.range = m.stmts[id].keyword;
    if (role->symbol != kNone) v.range = m.symbols[role->symbol].def;
    v.kind = role->spec.kind;
    v.body = &role->body;
    if (v.kind == RoleSpec::Kind::All) {
      v.first_warp = 0;
      v.warps = *block / 32;
    } else {
      int64_t per = v.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      int64_t count = 0;
      for (const RoleSpec::Entry& e : role->spec.entries) {
        auto first = eval.fold(e.first);
        if (!first || *first < 0 || *first > 1024) return std::nullopt;
        auto end = e.end == kNone ? std::optional<int64_t>(*first + 1) : eval.fold(e.end);
        if (!end || *end > 1024 || *end <= *first) return std::nullopt;
        lo = std::min(lo, *first);
        hi = std::max(hi, *end);
        count += *end - *first;
      }
      if (count == 0 || hi - lo != count) return std::nullopt;  // gaps: E03xx
      v.first_warp = lo * per;
      v.warps = count * per;
    }
    roles.push_back(v);
  }
  if (roles.empty()) {
    RoleView v;
    v.first_warp = 0;
    v.warps = *block / 32;
    v.body = &kernel.body;
    v.range = m.symbols[kernel.symbol == kNone ? 0 : kernel.symbol].def;
    roles.push_back(v);
  }
  return roles;
}

SymbolId root_symbol(const Module& m, ExprId e) {
  while (e != kNone) {
    const Expr& x = m.exprs[e];
    if (x.kind == Expr::Kind::Name) return x.symbol;
    if (x.kind != Expr::Kind::Index) return kNone;
    e = x.lhs;
  }
  return kNone;
}

ExprId arrival_barrier(const Stmt& s) {
  if (const auto* a = std::get_if<ArriveStmt>(&s.node)) return a->barrier;
  if (const auto* c = std::get_if<CommitStmt>(&s.node)) return c->barrier;
  if (const auto* mv = std::get_if<MoveStmt>(&s.node)) return mv->barrier;
  return kNone;
}

ExprId arrival_multicast(const Stmt& s) {
  if (const auto* a = std::get_if<ArriveStmt>(&s.node)) return a->multicast;
  if (const auto* c = std::get_if<CommitStmt>(&s.node)) return c->multicast;
  if (const auto* mv = std::get_if<MoveStmt>(&s.node)) return mv->multicast;
  return kNone;
}

bool reaches(const Module& m, const std::vector<StmtId>& body, const std::function<bool(const Stmt&)>& pred) {
  for (StmtId id : body) {
    const Stmt& s = m.stmts[id];
    if (pred(s)) return true;
    if (const auto* e = std::get_if<ElectStmt>(&s.node); e && reaches(m, e->body, pred)) return true;
    if (const auto* f = std::get_if<ForStmt>(&s.node); f && reaches(m, f->body, pred)) return true;
    if (const auto* p = std::get_if<PipelineStmt>(&s.node); p && reaches(m, p->body, pred)) return true;
    if (const auto* i = std::get_if<IfStmt>(&s.node); i && (reaches(m, i->then_body, pred) || reaches(m, i->else_body, pred)))
      return true;
  }
  return false;
}

bool reaches_op(const Module& m, const std::vector<StmtId>& body, Op op) {
  return reaches(m, body, [op](const Stmt& s) {
    const auto* pl = std::get_if<PlainStmt>(&s.node);
    return pl && pl->op == op;
  });
}

bool depends_on_thread(const Module& m, const Evaluator& eval, ExprId e) {
  return depends_on_builtin(m, eval, e, "lane") || depends_on_builtin(m, eval, e, "warp") ||
         depends_on_builtin(m, eval, e, "role");
}

bool depends_on_builtin(const Module& m, const Evaluator& eval, ExprId e, std::string_view name) {
  std::vector<SymbolId> free;
  eval.free_symbols(e, free);
  for (SymbolId s : free)
    if (m.symbols[s].kind == SymbolKind::Builtin && m.symbols[s].name == name) return true;
  return false;
}

MoveShare move_share(const Module& m, const Evaluator& eval, const MoveStmt& mv) {
  auto reads = [&](std::string_view name) {
    return depends_on_builtin(m, eval, mv.dst, name) || depends_on_builtin(m, eval, mv.src, name);
  };
  if (reads("lane")) return MoveShare::Thread;
  if (reads("warp")) return MoveShare::Warp;
  if (reads("role")) return MoveShare::Unit;
  return MoveShare::Role;
}

std::vector<ExprId> operand_exprs(const Stmt& s) {
  std::vector<ExprId> out;
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, MoveStmt>) out = {n.dst, n.src};
        else if constexpr (std::is_same_v<T, MmaStmt>) out = {n.acc, n.a, n.b};
        else if constexpr (std::is_same_v<T, AssignStmt>) out = {n.target, n.value};
        else if constexpr (std::is_same_v<T, ReduceStmt>) out = {n.dst, n.src};
        else if constexpr (std::is_same_v<T, ArgReduceStmt>) out = {n.value, n.index, n.src};
      },
      s.node);
  return out;
}

}  // namespace cake
