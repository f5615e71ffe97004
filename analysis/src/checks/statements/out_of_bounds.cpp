// E0104: an index or slice that can reach outside its buffer's dim, as the
// bounds prover (bounds.h) finds it, reported with the point that shows it.
#include "checks/statements/checker.h"
#include "diag_builder.h"

namespace cake {

/// Checks every index and slice inside `e` against its buffer's dims.
void StatementChecker::bounds_in(ExprId e) {
  if (e == kNone) return;
  std::vector<ExprId> work{e};
  while (!work.empty()) {
    ExprId id = work.back();
    work.pop_back();
    if (id == kNone) continue;
    const Expr& x = m_.exprs[id];
    if (x.kind == Expr::Kind::Index) index_bounds(x);
    work.push_back(x.lhs);
    work.push_back(x.rhs);
    for (ExprId a : x.args) work.push_back(a);
  }
}

void StatementChecker::index_bounds(const Expr& x) {
  Typed base = Typer(m_, nullptr).type_of(x.lhs);
  if (base.kind == Typed::Kind::Tensormap && base.root != kNone) {
    // `tA[c0, c1]`: each coordinate, the box's first element along its
    // tensor dim, must lie inside that dim. A box that starts inside and
    // runs past the end is how TMA does tails (zero-filled); one that
    // starts outside moves nothing of the tensor.
    SymbolId tensor = m_.symbols[base.root].tensor;
    if (tensor == kNone) return;
    base.kind = Typed::Kind::Buffer;
    base.root = tensor;
    base.dims = m_.symbols[tensor].type.dims;
    base.stage_dims = 0;
  }
  if (!base.is_buffer()) return;
  for (size_t i = 0; i < x.items.size() && i < base.dims.size(); ++i) {
    const IndexItem& item = x.items[i];
    if (item.kind == IndexItem::Kind::Full) continue;
    BoundsScope scope{kernel_, samples_, role_, &loops_, &guards_};
    if (auto found = prover_.find(scope, base, i, item)) {
      report_bounds(x, item, base, *found);
      return;  // one report per index expression
    }
  }
}

void StatementChecker::report_bounds(const Expr& x, const IndexItem& item, const Typed& base, const OutOfBounds& o) {
  std::string item_text(m_.written(item.range));
  std::string_view name = root_name(base);
  std::string example = o.example.empty() ? "" : " (for " + o.example + ")";
  Diagnostic d;
  switch (o.kind) {
    case OutOfBounds::Kind::ExtentNotPositive:
      d = make_diagnostic(DiagForm::SliceExtentNotPositive, item.range, item_text, o.value);
      break;
    case OutOfBounds::Kind::Index:
      d = make_diagnostic(DiagId::SliceOutOfBounds, item.range, item_text, o.value, o.dim_index, name, o.dim, example);
      break;
    case OutOfBounds::Kind::SliceStart:
      d = make_diagnostic(DiagForm::SliceStartOutOfBounds, item.range, item_text, o.value, o.dim_index, name, o.dim,
                          example);
      break;
    case OutOfBounds::Kind::SliceEnd:
      d = make_diagnostic(DiagForm::SliceEndOutOfBounds, item.range, item_text, o.value, o.dim_index, name, o.dim,
                          example);
      break;
  }
  Typed typed = Typer(m_, nullptr).type_of(x.lhs);
  if (typed.root != kNone) d.related.push_back({m_.symbols[typed.root].decl, "declared here"});
  diags_.push_back(std::move(d));
}

}  // namespace cake
