// fragment_order(): which fragments `ldmatrix ... trans` fills and every
// read or write that disagrees with that order (cake/fragment_order.h).
#include "cake/fragment_order.h"

#include "facts/walk.h"
#include "cake/eval.h"

#include <map>

namespace cake {
namespace {

SymbolId name_of(const Module& m, ExprId e) {
  return e != kNone && m.exprs[e].kind == Expr::Kind::Name ? m.exprs[e].symbol : kNone;
}

bool is_trans_load(const Stmt& s) {
  const auto* mv = std::get_if<MoveStmt>(&s.node);
  return mv && mv->op == Op::Ldmatrix && mv->trans;
}


/// FragmentOrder::operand_order: the candidates less those read elsewhere.
void operand_order(const Module& m, const Kernel& k, const std::vector<StmtId>& statements, FragmentOrder& out) {
  std::set<ExprId> allowed;
  for (StmtId id : statements) {
    const Stmt& s = m.stmts[id];
    if (const auto* mv = std::get_if<MoveStmt>(&s.node); mv && mv->op == Op::Ldmatrix && !mv->trans) {
      SymbolId r = name_of(m, mv->dst);
      if (r != kNone && m.symbols[r].kind == SymbolKind::Reg && ldmatrix_fills_operand_order(m.symbols[r].type.dtype)) {
        out.operand_order.insert(r);
        allowed.insert(mv->dst);
      }
    }
    // stmatrix stores an 8-bit one as ldmatrix left it (its inverse).
    if (const auto* mv = std::get_if<MoveStmt>(&s.node); mv && mv->op == Op::Stmatrix && !mv->trans) {
      SymbolId r = name_of(m, mv->src);
      if (r != kNone && m.symbols[r].kind == SymbolKind::Reg && dtype_bits(m.symbols[r].type.dtype) == 8)
        allowed.insert(mv->src);
    }
    if (const auto* mma = std::get_if<MmaStmt>(&s.node); mma && mma->op == Op::Mma) {
      allowed.insert(mma->a);
      if (mma->b != kNone && m.exprs[mma->b].kind == Expr::Kind::Transpose) allowed.insert(m.exprs[mma->b].lhs);
    }
  }
  if (out.operand_order.empty()) return;
  for (ExprId e = 0; e < m.exprs.size(); ++e) {
    const Expr& x = m.exprs[e];
    if (x.kind != Expr::Kind::Name || !out.operand_order.count(x.symbol) || allowed.count(e)) continue;
    if (x.range.begin < k.range.begin || x.range.end > k.range.end) continue;
    out.operand_order.erase(x.symbol);
  }
}

}  // namespace

bool ldmatrix_fills_operand_order(DType d) { return dtype_bits(d) == 8 || d == DType::TF32; }

bool trans_order_fits(const Module& m, const ValueType& t) {
  if (t.layout != FragLayout::MmaAcc || dtype_bits(t.dtype) != 16 || t.dims.size() != 2) return false;
  Evaluator eval(m);
  auto n = eval.fold(t.dims[1]);
  return !n || *n % 16 == 0;  // an unknown N is E0112's
}

FragmentOrder fragment_order(const Module& m, const Kernel& k) {
  FragmentOrder out;
  std::vector<StmtId> stack, statements;
  walk_statements(m, k.body, stack, [&](StmtId id) { statements.push_back(id); });
  // Writers of each register fragment, in text order; the first trans load.
  std::map<SymbolId, std::vector<StmtId>> writers;
  std::map<SymbolId, StmtId> first_trans;
  auto wrote = [&](ExprId e, StmtId id) {
    SymbolId s = name_of(m, e);
    if (s == kNone || m.symbols[s].kind != SymbolKind::Reg) return;
    writers[s].push_back(id);
    // A `trans` that cannot fit (TransShape) sets no order.
    if (is_trans_load(m.stmts[id]) && trans_order_fits(m, m.symbols[s].type) && !first_trans.count(s)) first_trans[s] = id;
  };
  for (StmtId id : statements) {
    const Stmt& s = m.stmts[id];
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) wrote(mv->dst, id);
    else if (const auto* mma = std::get_if<MmaStmt>(&s.node)) wrote(mma->acc, id);
    else if (const auto* a = std::get_if<AssignStmt>(&s.node)) wrote(a->target, id);
    else if (const auto* r = std::get_if<ReduceStmt>(&s.node)) wrote(r->dst, id);
    else if (const auto* r = std::get_if<ArgReduceStmt>(&s.node)) {
      wrote(r->value, id);
      wrote(r->index, id);
    }
  }
  for (const auto& [s, id] : first_trans) out.transposed.insert(s);
  operand_order(m, k, statements, out);

  // Which names may stand where: a transposed fragment only as an ldmatrix
  // destination, a stmatrix source and an mma's plain B.
  std::set<ExprId> order_aware;
  for (StmtId id : statements) {
    const Stmt& s = m.stmts[id];
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) {
      if ((mv->op == Op::Ldmatrix || mv->op == Op::Stmatrix) && mv->trans) {
        SymbolId r = name_of(m, mv->op == Op::Ldmatrix ? mv->dst : mv->src);
        if (r != kNone && m.symbols[r].kind == SymbolKind::Reg && !trans_order_fits(m, m.symbols[r].type))
          out.misuses.push_back({FragmentOrder::Misuse::Kind::TransShape, s.range, r, kNone, id});
      }
      if (mv->op == Op::Ldmatrix) {
        order_aware.insert(mv->dst);
        SymbolId r = name_of(m, mv->dst);
        if (!mv->trans && out.transposed.count(r))
          out.misuses.push_back({FragmentOrder::Misuse::Kind::Mixed, s.range, r, first_trans[r], id});
      }
      if (mv->op == Op::Stmatrix) {
        order_aware.insert(mv->src);
        SymbolId r = name_of(m, mv->src);
        if (r == kNone) continue;
        if (mv->trans && !out.transposed.count(r) && trans_order_fits(m, m.symbols[r].type))
          out.misuses.push_back({FragmentOrder::Misuse::Kind::StrayTrans, s.range, r, kNone, id});
        if (!mv->trans && out.transposed.count(r))
          out.misuses.push_back({FragmentOrder::Misuse::Kind::Transposed, m.exprs[mv->src].range, r, first_trans[r]});
      }
    }
    const auto* mma = std::get_if<MmaStmt>(&s.node);
    if (!mma || mma->op != Op::Mma) continue;
    SymbolId b = name_of(m, mma->b);
    if (b == kNone) continue;  // `b.T` or not a name: its name is read below
    order_aware.insert(mma->b);
    if (out.transposed.count(b)) continue;
    // A plain `a @ b`: each writer of b fills it in plain order.
    auto w = writers.find(b);
    if (w != writers.end() && !w->second.empty())
      out.misuses.push_back({FragmentOrder::Misuse::Kind::NeedsTrans, m.exprs[mma->b].range, b, w->second.front()});
  }
  if (out.transposed.empty()) return out;
  for (ExprId e = 0; e < m.exprs.size(); ++e) {
    const Expr& x = m.exprs[e];
    if (x.kind != Expr::Kind::Name || !out.transposed.count(x.symbol) || order_aware.count(e)) continue;
    if (x.range.begin < k.range.begin || x.range.end > k.range.end) continue;
    out.misuses.push_back({FragmentOrder::Misuse::Kind::Transposed, x.range, x.symbol, first_trans[x.symbol]});
  }
  return out;
}

}  // namespace cake
