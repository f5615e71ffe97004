// E0422: a fragment that a warp or a warpgroup holds together (mma_acc,
// tcgen05_acc, wgmma_acc and their .row vectors), or an op each warp or
// warpgroup issues together (ops.def's Issue: mma, wgmma and its fence,
// commit and wait, tcgen05.ld/st), where only some of those threads run:
// under an `if` or a loop bound that reads `lane` (for a warpgroup's, also
// `warp.id`), or inside `elect`. Each thread holds a share of such a
// fragment, so work on it is the owner's together: the lowering's
// shuffles, ldmatrix, mma.sync and wgmma need every lane (a
// `.sync.aligned` instruction some lanes skip is undefined), and the CPU
// executor, which runs a warp's fragment as one, could not say which
// share a lane condition keeps. `select(...)` masks element-wise.
#include "cake/ops.h"
#include "cake/roles.h"
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/eval.h"
#include "cake/fragments.h"

#include <string>

namespace cake {
namespace {

/// Where only some threads of a warp (and so of a warpgroup), or only some
/// warps of a warpgroup, run: the statement that makes it so and why.
struct Divergence {
  ByteRange at;
  std::string why;          // empty: every thread runs it
  bool split_warp = false;  // within a warp: a lane condition or `elect`
  bool any() const { return !why.empty(); }
};

class DivergenceChecker {
 public:
  DivergenceChecker(const Module& m, std::vector<Diagnostic>& diags) : m_(m), eval_(m), diags_(diags) {}

  void kernel(const Kernel& k) { walk(k.body, {}); }

 private:
  void walk(const std::vector<StmtId>& body, const Divergence& d) {
    for (StmtId id : body) statement(id, d);
  }

  /// The divergence inside a block whose entry `e` decides (an `if`'s
  /// condition, a loop's bounds), or `outer` when `e` is uniform.
  Divergence inside(const Divergence& outer, ExprId e) {
    if (e == kNone || (outer.any() && outer.split_warp)) return outer;
    ByteRange at = m_.exprs[e].range;
    std::string text = "`" + std::string(m_.written(m_.exprs[e].range)) + "`";
    if (depends_on_builtin(m_, eval_, e, "lane")) return {at, text + " depends on the lane", true};
    if (outer.any()) return outer;
    if (depends_on_builtin(m_, eval_, e, "warp")) return {at, text + " depends on the warp", false};
    return outer;
  }

  /// A `for` or `pipeline` loop: its body runs where its bounds say.
  template <class Loop>
  void loop(const Loop& l, const Divergence& d) {
    Divergence in = d;
    for (ExprId e : {l.start, l.end, l.step}) in = inside(in, e);
    walk(l.body, in);
  }

  void statement(StmtId id, const Divergence& d) {
    const Stmt& s = m_.stmts[id];
    if (const auto* e = std::get_if<ElectStmt>(&s.node)) {
      return walk(e->body, Divergence{s.keyword, "`elect` runs it on one thread", true});
    }
    if (const auto* i = std::get_if<IfStmt>(&s.node)) {
      Divergence in = inside(d, i->condition);
      walk(i->then_body, in);
      return walk(i->else_body, in);
    }
    if (const auto* f = std::get_if<ForStmt>(&s.node)) return loop(*f, d);
    if (const auto* p = std::get_if<PipelineStmt>(&s.node)) return loop(*p, d);
    if (const auto* r = std::get_if<RoleStmt>(&s.node)) return walk(r->body, d);
    if (d.any()) check(id, d);
  }

  /// Threads of a warp (32) or warpgroup (128) that hold `s` together; 1 for
  /// a thread's own fragment or anything else.
  int64_t owner(SymbolId s) const {
    const Symbol& sym = m_.symbols[s];
    return sym.kind == SymbolKind::Reg ? fragment_owner_threads(sym.type.layout, 32) : 1;
  }

  static std::string owner_name(int64_t threads) { return threads > 32 ? "warpgroup" : "warp"; }

  /// Whether `threads` (a warp or a warpgroup) is split where `d` holds.
  static bool splits(const Divergence& d, int64_t threads) { return d.split_warp || threads > 32; }

  void check(StmtId id, const Divergence& d) {
    const Stmt& s = m_.stmts[id];
    std::vector<ExprId> exprs = operand_exprs(s);
    const auto* decl = std::get_if<DeclStmt>(&s.node);
    std::vector<SymbolId> used;
    if (decl && decl->symbol != kNone) {
      used.push_back(decl->symbol);
      exprs.push_back(m_.symbols[decl->symbol].value);
    }
    for (ExprId e : exprs)
      if (e != kNone) eval_.free_symbols(e, used);
    for (SymbolId u : used) {
      int64_t threads = owner(u);
      if (threads == 1 || !splits(d, threads)) continue;
      std::string what = decl ? "declaration" : std::holds_alternative<AssignStmt>(s.node) ? "assignment"
                                                                                           : "`" + std::string(m_.written(s.keyword)) + "`";
      const Symbol& sym = m_.symbols[u];
      Diagnostic diag = make_diagnostic(DiagId::DivergentFragment, s.range, what, sym.name, owner_name(threads), d.why);
      diag.related.push_back({d.at, "only some of the " + owner_name(threads) + "'s threads run what this guards"});
      diag.related.push_back({sym.decl, "`" + std::string(sym.name) + "` is declared here"});
      diags_.push_back(std::move(diag));
      return;
    }
    if (auto op = issued_op(s)) {
      OpIssue issue = op_info(*op).issue;
      int64_t threads = issue == OpIssue::Warp ? 32 : issue == OpIssue::Warpgroup ? 128 : 1;
      if (threads == 1 || !splits(d, threads)) return;
      Diagnostic diag = make_diagnostic(DiagForm::DivergentWarpOp, s.keyword, op_spelling(*op), owner_name(threads), d.why);
      diag.related.push_back({d.at, "only some of the " + owner_name(threads) + "'s threads run what this guards"});
      diags_.push_back(std::move(diag));
    }
  }

  /// The op of a statement that names one.
  static std::optional<Op> issued_op(const Stmt& s) {
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) return mv->op;
    if (const auto* mm = std::get_if<MmaStmt>(&s.node)) return mm->op;
    if (const auto* pl = std::get_if<PlainStmt>(&s.node)) return pl->op;
    if (const auto* gw = std::get_if<GroupWaitStmt>(&s.node)) return gw->op;
    return std::nullopt;
  }

  const Module& m_;
  Evaluator eval_;
  std::vector<Diagnostic>& diags_;
};

}  // namespace

void check_divergent_fragments(const Module& m, std::vector<Diagnostic>& diagnostics) {
  DivergenceChecker checker(m, diagnostics);
  for (const Kernel& k : m.kernels) checker.kernel(k);
}

}  // namespace cake
