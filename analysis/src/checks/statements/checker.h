// The statement checks of the E01xx group (checks/statements/). One walk
// over every kernel's statements, with the context a statement needs (its
// role, the loops and conditions around it). The rules, by file:
//   statements.cpp     the walk; placement of declarations and roles (E0113)
//                      and constant-ness of the values that size things (E0112);
//   operands.cpp       each operand's kind (E0108), memory space (E0105) and
//                      ring/array selection (E0107);
//   shapes.cpp         dtypes (E0103), matrix-multiply shapes (E0106) and
//                      element-wise shapes (E0109) of each op;
//   out_of_bounds.cpp  static bounds of every index and slice (E0104), from
//                      the bounds prover (bounds.h).
// It leaves target features, resources and protocol to the later groups
// (E02xx..E06xx).
#pragma once

#include "cake/ops.h"
#include "cake/diagnostic.h"
#include "cake/model.h"
#include "checks/statements/bounds.h"
#include "cake/typing.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

class FactsCache;

class StatementChecker {
 public:
  StatementChecker(const Module& m, const FactsCache& facts, std::vector<Diagnostic>& diags)
      : m_(m), facts_(facts), diags_(diags), typer_(m, &diags), eval_(m), prover_(m, eval_) {}

  void run();

 private:
  // Section - the walk, placement and constants (statements.cpp)

  void kernel(uint32_t index);
  WarpSpan implicit_role() const;
  WarpSpan role_info(const RoleStmt& role);
  static bool is_resource(const Stmt& s);
  std::string keyword(const Stmt& s) const;
  void constant(ExprId e, std::string_view what);
  void statements(const std::vector<StmtId>& body);
  void statement(StmtId id);
  void check(const Stmt& s, const DeclStmt& d);
  void check(const Stmt& s, const RoleStmt& r);
  void check(const Stmt&, const LetStmt& l);
  void check(const Stmt& s, const ElectStmt& e);
  void check(const Stmt&, const ForStmt& f);
  void check(const Stmt&, const PipelineStmt& p);
  void check(const Stmt&, const IfStmt& i);
  void check(const Stmt&, const PlainStmt&);
  void check(const Stmt&, const GroupWaitStmt& g);
  void check(const Stmt&, const ArriveStmt& a);
  void check(const Stmt&, const WaitStmt& w);
  void check(const Stmt&, const SyncStmt& s);
  void check(const Stmt&, const CommitStmt& c);

  // Section - operands (operands.cpp)

  bool operand(const Typed& t, ExprId e, SpaceSet spaces, const std::string& op, std::string_view role);
  bool tensormap_operand(const Typed& t, ExprId e, const std::string& op, std::string_view role);
  /// `multicast`: the copy's mask, for a copy (kNone otherwise); a view
  /// of a peer's mbarrier is a copy's barrier only (E0105, E0421).
  void barrier_operand(ExprId e, const std::string& op, bool copy = false, ExprId multicast = kNone);
  void wrong_kind(ExprId e, const Typed& t, std::string expected);
  std::string_view root_name(const Typed& t, const Expr* fallback = nullptr) const;
  std::string_view root_name(const Typed& t, const Expr& fallback) const;

  // Section - shapes and dtypes (shapes.cpp)

  void check(const Stmt& s, const AssignStmt& a);
  void check(const Stmt& s, const MoveStmt& mv);
  void check(const Stmt&, const MmaStmt& mm);
  void check(const Stmt&, const ReduceStmt& r);
  void check(const Stmt&, const ArgReduceStmt& r);
  void row_result(const Typed& dst, const Typed& src, ExprId dst_expr, const std::string& op, bool check_dtype = true);
  /// One CTA's `tcgen05.mma`: M and N among the kernel's targets' shapes for
  /// its operands, an M = 64 accumulator a whole 64-lane tmem buffer.
  void tcgen05_shape(const MmaStmt& mm, const Typed& acc, const Typed& a);
  /// Accumulator dtypes per input dtype (gpu-arch.md §4: bf16 accumulates in
  /// f32 only on mma.sync and wgmma; tcgen05 also takes f16; e4m3 and e5m2
  /// may be mixed).
  static bool accumulator_dtype_ok(Op op, DType in, DType acc);
  static std::string accumulator_hint(DType in);
  bool same_shape(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const;
  bool broadcasts(const Typed& value, const std::vector<ExprId>& target) const;
  /// Element counts agree, when both are known (movement may reshape a tile).
  bool same_elements(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const;

  // Section - bounds (out_of_bounds.cpp)

  /// Checks every index and slice inside `e` against its buffer's dims.
  void bounds_in(ExprId e);
  void index_bounds(const Expr& x);
  void report_bounds(const Expr& x, const IndexItem& item, const Typed& base, const OutOfBounds& found);

  const Module& m_;
  const FactsCache& facts_;
  std::vector<Diagnostic>& diags_;
  Typer typer_;
  Evaluator eval_;
  BoundsProver prover_;
  uint32_t kernel_ = kNone;
  const std::vector<Env>* samples_ = nullptr;  // the kernel's shape samples (KernelFacts::samples())
  std::optional<int64_t> block_threads_;
  WarpSpan role_;
  std::vector<LoopBounds> loops_;
  std::vector<Guard> guards_;
};

}  // namespace cake
