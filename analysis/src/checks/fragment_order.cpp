// E0509: a fragment read in another register order than it was filled
// (cake/fragment_order.h): `a @ b` with a b no `ldmatrix ... trans` fills, a
// transposed fragment read element by element or as `.T` or an mma's A,
// mixed orders in one fragment, a stray `stmatrix ... trans`. The CPU
// executor cannot see these (the values are the same either way); the GPU
// computes with the registers in the wrong places.
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/fragment_order.h"
#include "cake/typing.h"

namespace cake {
namespace {

/// The `trans` to add after a move's source operand.
Fix add_trans(const Module& m, const MoveStmt& mv) {
  uint32_t end = m.exprs[mv.src].range.end;
  return {"add `trans`", {{{end, end}, " trans"}}, true};
}

}  // namespace

void check_fragment_order(const Module& m, std::vector<Diagnostic>& diagnostics) {
  using Kind = FragmentOrder::Misuse::Kind;
  for (const Kernel& k : m.kernels) {
    FragmentOrder order = fragment_order(m, k);
    for (const FragmentOrder::Misuse& u : order.misuses) {
      std::string_view name = m.symbols[u.symbol].name;
      const Stmt* writer = u.writer == kNone ? nullptr : &m.stmts[u.writer];
      const MoveStmt* writer_move = writer ? std::get_if<MoveStmt>(&writer->node) : nullptr;
      Diagnostic d;
      switch (u.kind) {
        case Kind::NeedsTrans:
          d = make_diagnostic(DiagId::RegisterOrder, u.at, name, "`" + std::string(m.written(writer->keyword)) + "`");
          d.related.push_back({writer->range, "fills `" + std::string(name) + "` in plain order"});
          if (writer_move && writer_move->op == Op::Ldmatrix) d.fixes.push_back(add_trans(m, *writer_move));
          break;
        case Kind::Transposed:
          d = make_diagnostic(DiagForm::RegisterOrderTransposed, u.at, name);
          d.related.push_back({writer->range, "fills `" + std::string(name) + "` in the order of its transpose"});
          break;
        case Kind::Mixed: {
          d = make_diagnostic(DiagForm::RegisterOrderMixed, u.at, name);
          d.related.push_back({writer->range, "fills `" + std::string(name) + "` with `trans`"});
          if (const auto* mv = std::get_if<MoveStmt>(&m.stmts[u.stmt].node)) d.fixes.push_back(add_trans(m, *mv));
          break;
        }
        case Kind::StrayTrans:
          d = make_diagnostic(DiagForm::RegisterOrderStrayTrans, u.at, name);
          break;
        case Kind::TransShape: {
          const ValueType& t = m.symbols[u.symbol].type;
          std::string what = std::string(dtype_name(t.dtype)) + " " + Typer(m, nullptr).shape_text(t.dims) +
                             (t.layout == FragLayout::None ? "" : " " + std::string(frag_layout_name(t.layout)));
          d = make_diagnostic(DiagForm::RegisterOrderTransShape, u.at, name, what);
          d.related.push_back({m.symbols[u.symbol].decl, "`" + std::string(name) + "` declared here"});
          break;
        }
      }
      diagnostics.push_back(std::move(d));
    }
  }
}

}  // namespace cake
