// Operand rules of every op (checker.h): an operand must be a buffer of the
// right kind (E0108) in one of the op's memory spaces (E0105), a single stage
// of a ring or element of an mbarrier array (E0107), a tensormap for TMA.
#include "checks/statements/checker.h"
#include "diag_builder.h"

namespace cake {
bool StatementChecker::operand(const Typed& t, ExprId e, SpaceSet spaces, const std::string& op, std::string_view role) {
  if (t.kind == Typed::Kind::Unknown || e == kNone) return false;
  // An element-wise expression of a fragment (`x * 2.0`, `cvt<bf16>(acc)`)
  // is a value, not a buffer an op moves from or into: it is computed into
  // a register first (`y = x * 2.0`, then `store Y <- y`).
  const Expr& x = m_.exprs[e];
  if (x.kind == Expr::Kind::Binary || x.kind == Expr::Kind::Unary || x.kind == Expr::Kind::Call ||
      x.kind == Expr::Kind::Cast) {
    Diagnostic d = make_diagnostic(DiagId::WrongKind, x.range, m_.written(x.range), "an element-wise expression",
                                   std::string("a buffer (the ") + std::string(role) + " of `" + op +
                                       "`); assign it to a register first and " + op + " that");
    if (t.root != kNone && m_.symbols[t.root].decl.end > 0)
      d.related.push_back({m_.symbols[t.root].decl, "`" + std::string(m_.symbols[t.root].name) + "` is declared here"});
    diags_.push_back(std::move(d));
    return false;
  }
  if (!t.is_buffer()) {
    wrong_kind(e, t, std::string("a buffer (the ") + std::string(role) + " of `" + op + "`)");
    return false;
  }
  if (t.stage_dims > 0) {
    const Expr& x = m_.exprs[e];
    diags_.push_back(make_diagnostic(DiagForm::RingNotSelected, x.range, root_name(t), typer_.dim_text(t.dims[0])));
    return false;
  }
  if (!spaces.empty() && !spaces.has(t.space)) {
    Diagnostic d = make_diagnostic(DiagForm::WrongSpaceOperand, m_.exprs[e].range, role, op, spaces_text(spaces),
                                   root_name(t), space_name(t.space));
    if (t.root != kNone) d.related.push_back({m_.symbols[t.root].decl, "declared here"});
    diags_.push_back(std::move(d));
    return false;
  }
  return true;
}

bool StatementChecker::tensormap_operand(const Typed& t, ExprId e, const std::string& op, std::string_view role) {
  if (t.kind == Typed::Kind::Unknown) return false;
  if (t.kind == Typed::Kind::TensormapTile) return true;
  const Expr& x = m_.exprs[e];
  if (t.kind == Typed::Kind::Buffer && t.space == Space::Global && t.root != kNone) {
    // `tma.load xs <- X[...]`: offer the tensormap declared over X.
    Diagnostic d = make_diagnostic(DiagId::WrongKind, x.range, root_name(t), "a tensor parameter",
                                   "a tensormap (the " + std::string(role) + " of `" + op + "` is `TENSORMAP[coords]`)");
    for (const Symbol& s : m_.symbols) {
      if (s.kind != SymbolKind::Tensormap || s.tensor != t.root || s.kernel != kernel_) continue;
      const Expr& base = x.kind == Expr::Kind::Index ? m_.exprs[x.lhs] : x;
      d.fixes.push_back({"use the tensormap `" + std::string(s.name) + "`", {{base.range, std::string(s.name)}}, true});
      d.related.push_back({s.decl, "tensormap over `" + std::string(root_name(t)) + "`"});
      break;
    }
    diags_.push_back(std::move(d));
    return false;
  }
  if (t.kind == Typed::Kind::Tensormap) {
    diags_.push_back(make_diagnostic(DiagId::RankMismatch, x.range, root_name(t), t.dims.size(), 0));
    return false;
  }
  wrong_kind(e, t, "a tensormap indexed with coordinates");
  return false;
}

void StatementChecker::barrier_operand(ExprId e, const std::string& op, bool copy, ExprId multicast) {
  Typed t = typer_.type_of(e);
  if (t.kind == Typed::Kind::Barrier && t.space == Space::Dsmem) {
    std::string_view name = root_name(t, m_.exprs[e]);
    ByteRange at = m_.exprs[e].range;
    bool paired = kernel_ != kNone && m_.kernels[kernel_].cta_group == 2;
    if (copy && multicast == kNone && paired) return;
    Diagnostic d = !copy                ? make_diagnostic(DiagForm::PeerBarrierOp, at, name, op)
                   : multicast != kNone ? make_diagnostic(DiagForm::PeerBarrierMulticast, at, name)
                                        : make_diagnostic(DiagForm::PeerBarrierNoPair, at, name);
    if (t.root != kNone) d.related.push_back({m_.symbols[t.root].decl, "the view, declared here"});
    diags_.push_back(std::move(d));
    return;
  }
  if (t.kind == Typed::Kind::Unknown || t.kind == Typed::Kind::Barrier) return;
  if (t.kind == Typed::Kind::BarrierArray) {
    diags_.push_back(make_diagnostic(DiagForm::BarrierArrayNotSelected, m_.exprs[e].range, root_name(t), op));
    return;
  }
  wrong_kind(e, t, "an mbarrier (`" + op + "` takes an mbarrier)");
}

void StatementChecker::wrong_kind(ExprId e, const Typed& t, std::string expected) {
  const Expr& x = m_.exprs[e];
  std::string_view what = t.root != kNone ? symbol_kind_name(m_.symbols[t.root].kind)
                          : t.is_scalar()  ? "a scalar"
                                           : "another kind of value";
  Diagnostic d = make_diagnostic(DiagId::WrongKind, x.range, root_name(t, x), what, expected);
  if (t.root != kNone && m_.symbols[t.root].decl.end > 0)
    d.related.push_back({m_.symbols[t.root].decl, "declared here"});
  diags_.push_back(std::move(d));
}

std::string_view StatementChecker::root_name(const Typed& t, const Expr* fallback) const {
  if (t.root != kNone) return m_.symbols[t.root].name;
  return fallback && fallback->kind == Expr::Kind::Name ? fallback->text : std::string_view("operand");
}

std::string_view StatementChecker::root_name(const Typed& t, const Expr& fallback) const { return root_name(t, &fallback); }
}  // namespace cake
