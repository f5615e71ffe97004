// The roles of a kernel as the protocol checks see them: which warps each
// role owns, how many threads run each `elect` variant, and the statements it
// runs. A kernel without roles has one implicit `all` role.
#pragma once

#include "cake/model.h"
#include "cake/eval.h"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace cake {

struct RoleView {
  StmtId stmt = kNone;          // the role statement; kNone for the implicit role
  std::string_view name;        // "" for the implicit role
  ByteRange range;              // the role's header, for related spans
  RoleSpec::Kind kind = RoleSpec::Kind::All;
  int64_t first_warp = 0, warps = 0;
  const std::vector<StmtId>* body = nullptr;

  int64_t threads() const { return warps * 32; }
  /// Warpgroups the role's warps touch.
  int64_t warpgroups() const {
    if (warps <= 0) return 0;
    return (first_warp + warps - 1) / 4 - first_warp / 4 + 1;
  }
  /// Units `role.rank` counts: warpgroups of a warpgroup role, else warps.
  int64_t units() const { return kind == RoleSpec::Kind::Warpgroup ? warpgroups() : warps; }
};

/// The roles of kernel `k`, or nullopt when a role's warps are not known
/// constants (E03xx reports that) or the block size is unknown.
std::optional<std::vector<RoleView>> kernel_roles(const Module& m, const Evaluator& eval, uint32_t k);

/// The symbol an operand names through any indexing: `full` for `full[s]`.
SymbolId root_symbol(const Module& m, ExprId e);

/// The barrier operand a statement arrives on or completes bytes on
/// (`arrive`, `arrive.expect_tx`, `tcgen05.commit`, a copy's `, b`), or kNone.
ExprId arrival_barrier(const Stmt& s);
/// The `multicast(mask)` of such a statement; kNone without one.
ExprId arrival_multicast(const Stmt& s);

/// Whether a statement of `body`, or of a block inside it (`elect`, `for`,
/// `pipeline`, `if`; not a role's), satisfies `pred`.
bool reaches(const Module& m, const std::vector<StmtId>& body, const std::function<bool(const Stmt&)>& pred);
/// Whether `body`, or a block inside it, has a plain statement of `op`
/// (`syncthreads`, `cluster.sync`).
bool reaches_op(const Module& m, const std::vector<StmtId>& body, Op op);

/// True when `e` reads a per-thread builtin (`lane`, `warp.id`, `role.rank`),
/// directly or through a `let`.
bool depends_on_thread(const Module& m, const Evaluator& eval, ExprId e);
/// True when `e` reads builtin `name` (`lane`, `warp`, `role`), directly or
/// through a `let`.
bool depends_on_builtin(const Module& m, const Evaluator& eval, ExprId e, std::string_view name);

/// Which threads share one collective move that no fragment and no `elect`
/// decides (a `cp.async` into shared memory): when its operands read `lane`
/// each thread moves its own tile; `warp` (`warp.id`), each warp its own;
/// `role` (`role.rank`), each unit of the role (a warpgroup of a warpgroup
/// role, else a warp) its own; none of them, the role's threads split the
/// one tile between them (docs/language.md, "Collective movement"). The CPU
/// executor and the lowering both split moves by it.
enum class MoveShare { Thread, Warp, Unit, Role };
MoveShare move_share(const Module& m, const Evaluator& eval, const MoveStmt& mv);

/// The operands a statement names, in its form's order: a move's dst and
/// src, an MMA's acc, a and b, an assignment's target and value, a
/// reduction's dst and src, an arg-reduction's value, index and src; none
/// for the others.
std::vector<ExprId> operand_exprs(const Stmt& s);

}  // namespace cake
