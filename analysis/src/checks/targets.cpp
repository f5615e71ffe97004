// The target-feature checks (E02xx): every op, resource, clause and builtin
// that needs a hardware feature is checked against every target the file
// lists, reading the gates from the architecture tables (cake/arch.h, data
// in analysis/arch/*.json). One diagnostic per site and missing feature
// names the targets that lack it (Diagnostic::targets), so `target sm_80,
// sm_90a` with a `tma.load` reports once, for sm_80. Checked:
//   - ops (E0201), at the op token: cp.async*, tma.*, bulk.load, stmatrix,
//     tcgen05.*, wgmma*, arrive.expect_tx (mbarrier tx-counts), cluster.sync,
//     fence.proxy.async;
//   - resources (E0202), at the declaration keyword: `tmem`, `tensormap`, `dsmem`;
//   - clauses and builtins (E0203): `cluster (...)`, `maxnreg(...)`,
//     `multicast(...)`, `cluster.rank`;
//   - matrix-multiply dtypes (E0204), at the A operand: the dtypes each
//     target's mma.sync, wgmma and tcgen05.mma shape tables list.
// `elect` is not gated: the lowering uses `elect.sync` where it exists and a
// lane test elsewhere. A target the file does not list, or an unknown one
// (E0110), is never checked. One pass over the statements; no allocation
// unless a diagnostic is made.
#include "cake/ops.h"
#include "checks/arch_support.h"
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/typing.h"

#include <algorithm>

namespace cake {
namespace {

class TargetChecker {
 public:
  TargetChecker(const Module& m, std::vector<Diagnostic>& diags)
      : m_(m), diags_(diags), listed_(listed_targets(m)) {}

  void run() {
    if (listed_.empty()) return;
    for (StmtId id = 0; id < m_.stmts.size(); ++id) statement(m_.stmts[id]);
    for (const Kernel& k : m_.kernels)
    {
      if (k.cluster_range.end > 0) gate(DiagId::ClauseNotOnTarget, Feature::Clusters, k.cluster_range, "`cluster (...)`");
      if (k.cta_group_range.end > 0) gate(DiagId::ClauseNotOnTarget, Feature::Tcgen05, k.cta_group_range, "`cta_group`");
    }
    for (const Symbol& s : m_.symbols)
      if (s.kind == SymbolKind::Builtin && s.name == "cluster")
        for (ExprId ref : s.refs) gate(DiagId::ClauseNotOnTarget, Feature::Clusters, field_range(ref), "`cluster.rank`");
  }

 private:
  void statement(const Stmt& s) {
    if (const auto* d = std::get_if<DeclStmt>(&s.node)) {
      if (d->symbol == kNone) return;
      SymbolKind kind = m_.symbols[d->symbol].kind;
      if (kind == SymbolKind::Tmem) gate(DiagId::ResourceNotOnTarget, Feature::Tcgen05, s.keyword, "`tmem`");
      else if (kind == SymbolKind::Tensormap) gate(DiagId::ResourceNotOnTarget, Feature::Tma, s.keyword, "`tensormap`");
      else if (kind == SymbolKind::Dsmem) gate(DiagId::ResourceNotOnTarget, Feature::Clusters, s.keyword, "`dsmem`");
      return;
    }
    if (const auto* r = std::get_if<RoleStmt>(&s.node)) {
      if (r->maxnreg == kNone) return;
      gate(DiagId::ClauseNotOnTarget, Feature::Setmaxnreg, r->maxnreg_clause, "`maxnreg(...)`");
      return;
    }
    std::optional<Op> op;
    ExprId multicast = kNone;
    ByteRange clause;
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) op = mv->op, multicast = mv->multicast, clause = mv->multicast_clause;
    else if (const auto* mm = std::get_if<MmaStmt>(&s.node)) op = mm->op;
    else if (const auto* p = std::get_if<PlainStmt>(&s.node)) op = p->op;
    else if (const auto* g = std::get_if<GroupWaitStmt>(&s.node)) op = g->op;
    else if (const auto* a = std::get_if<ArriveStmt>(&s.node)) op = a->op, multicast = a->multicast, clause = a->multicast_clause;
    else if (const auto* c = std::get_if<CommitStmt>(&s.node)) op = c->op, multicast = c->multicast, clause = c->multicast_clause;
    if (!op) return;
    std::optional<Feature> f = op_feature(*op);
    TargetSet have = listed_;
    if (f) have = gate(DiagId::OpNotOnTarget, *f, s.keyword, "`" + std::string(op_spelling(*op)) + "`");
    if (multicast != kNone) gate(DiagId::ClauseNotOnTarget, Feature::Multicast, clause, "`multicast(...)`", have);
    if (const auto* mm = std::get_if<MmaStmt>(&s.node)) mma_dtype(*mm, have);
  }

  /// The wording of gate()'s rule `id` when no target has the feature.
  static DiagForm nowhere_form(DiagId id) {
    if (id == DiagId::ResourceNotOnTarget) return DiagForm::ResourceNowhere;
    if (id == DiagId::ClauseNotOnTarget) return DiagForm::ClauseNowhere;
    return DiagForm::OpNowhere;  // DiagId::OpNotOnTarget, the only other rule gate() reports
  }

  /// Reports `what` on the targets of `among` (default: all listed) that
  /// lack `f`; returns those that have it.
  TargetSet gate(DiagId id, Feature f, ByteRange at, const std::string& what) { return gate(id, f, at, what, listed_); }

  TargetSet gate(DiagId id, Feature f, ByteRange at, const std::string& what, TargetSet among) {
    TargetSet have = with_feature(among, f);
    TargetSet lack = among.minus(have);
    if (lack.empty()) return have;
    TargetSet anywhere = targets_with(f);
    Diagnostic d = anywhere.empty() ? make_diagnostic(nowhere_form(id), at, what, target_list(lack), feature_name(f))
                                    : make_diagnostic(id, at, what, target_list(lack), feature_name(f),
                                                      target_list(anywhere));
    set_targets(d, lack);
    relate_target_items(d, lack, f);
    offer_target_removal(d, m_, lack);
    offer_variant(d, lack, f);
    diags_.push_back(std::move(d));
    return have;
  }

  /// `sm_90` with a feature only `sm_90a` has: offer the `a` variant.
  void offer_variant(Diagnostic& d, TargetSet lack, Feature f) {
    if (m_.targets.size() != 1) return;
    const Target& t = m_.targets[0];
    for (const TargetInfo& other : all_targets()) {
      if (!other.has(f) || other.name.size() != t.name.size() + 1 || !other.name.starts_with(t.name)) continue;
      d.fixes.push_back({"target " + std::string(other.name) + " (" + std::string(t.name) + " with its arch-specific features)",
                         {{t.range, std::string(other.name)}}, false});
    }
    (void)lack;
  }

  void relate_target_items(Diagnostic& d, TargetSet lack, Feature f) {
    for (const Target& t : m_.targets) {
      bool in = false;
      lack.for_each([&](size_t i) { in = in || target_at(i).name == t.name; });
      if (!in) continue;
      const TargetInfo* info = find_target(t.name);
      std::string src = info ? " (" + std::string(info->gate(f).src) + ")" : "";
      d.related.push_back({t.range, std::string(t.name) + " lacks " + std::string(feature_name(f)) + src});
    }
  }

  /// `cluster` as written, widened to `cluster.rank` when it is a field's base.
  ByteRange field_range(ExprId ref) const {
    const Expr& name = m_.exprs[ref];
    if (name.parent != kNone && m_.exprs[name.parent].kind == Expr::Kind::Field && m_.exprs[name.parent].lhs == ref)
      return m_.exprs[name.parent].range;
    return name.range;
  }

  void mma_dtype(const MmaStmt& mm, TargetSet have) {
    if (have.empty() || mm.a == kNone) return;
    Typed a = Typer(m_, nullptr).type_of(mm.a);
    DType dt = a.dtype;
    if (dt == DType::Unknown) return;
    // The shape tables of the MMA ops (the Mma family: mma, wgmma, tcgen05.mma).
    auto supports = [&](const TargetInfo& t) {
      switch (mm.op) {
        case Op::Mma:
          return std::any_of(t.mma_sync.begin(), t.mma_sync.end(), [&](const MmaSyncShape& s) { return s.dtype == dt; });
        case Op::Wgmma:
          return std::any_of(t.wgmma.begin(), t.wgmma.end(), [&](const WgmmaShape& s) { return s.dtype == dt; });
        case Op::Tcgen05Mma:
          return std::any_of(t.tcgen05_mma.begin(), t.tcgen05_mma.end(), [&](const Tcgen05Shape& s) {
            return std::find(s.dtypes.begin(), s.dtypes.end(), dt) != s.dtypes.end();
          });
      case Op::Load: case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore: case Op::BulkLoad:
      case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp:
      case Op::CpAsyncCommit: case Op::WgmmaFence: case Op::WgmmaCommit: case Op::TmaStoreCommit:
      case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt: case Op::Syncthreads: case Op::ClusterSync:
      case Op::FenceProxyAsync: case Op::CpAsyncWait: case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive:
      case Op::ArriveExpectTx: case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow: return false;
      }
      return false;
    };
    TargetSet lack, anywhere;
    have.for_each([&](size_t i) {
      if (!supports(target_at(i))) lack.add(i);
    });
    if (lack.empty()) return;
    std::span<const TargetInfo> all = all_targets();
    for (size_t i = 0; i < all.size(); ++i)
      if ((!op_feature(mm.op) || all[i].has(*op_feature(mm.op))) && supports(all[i]))
        anywhere.add(i);
    std::string op(op_spelling(mm.op));
    std::string dtype(dtype_name(dt));
    ByteRange at = m_.exprs[mm.a].range;
    Diagnostic d = anywhere.empty()
                       ? make_diagnostic(DiagForm::MmaDtypeNowhere, at, op, dtype, target_list(lack))
                       : make_diagnostic(DiagId::MmaDtypeNotOnTarget, at, op, dtype, target_list(lack),
                                         target_list(anywhere));
    set_targets(d, lack);
    if (a.root != kNone && m_.symbols[a.root].decl.end > 0)
      d.related.push_back({m_.symbols[a.root].decl, "declared " + dtype + " here"});
    offer_target_removal(d, m_, lack);
    diags_.push_back(std::move(d));
  }

  const Module& m_;
  std::vector<Diagnostic>& diags_;
  TargetSet listed_;
};

}  // namespace

void check_target_features(const Module& module, std::vector<Diagnostic>& diagnostics) {
  TargetChecker(module, diagnostics).run();
}

}  // namespace cake
