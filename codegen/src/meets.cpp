// Where the lanes of a warp meet (`__syncwarp()`) in code that every lane
// runs. The language orders a warp's memory accesses by program order
// across its lanes (docs/run.md); CUDA does not, so two accesses of one
// buffer by different lanes, at least one a write, need a meet between
// them, or a barrier that orders the whole block. Rather than meeting
// around every write, the plan walks the code in program order with the
// accesses made since the last meet or barrier, and meets before a
// statement only where it touches a buffer one of those touched and one of
// the two writes (docs/lowering.md, "The statements"). Code some lanes
// skip (`elect`, an `if` or loop bound that reads `lane`) is one access
// here, of everything in it, and keeps its own meets (statements.cpp,
// sync.cpp).
#include "emitter.h"

#include "cake/ops.h"
#include "cake/roles.h"

#include <map>
#include <set>
#include <variant>

namespace cake::codegen {

namespace {

/// Statements the plan visits at most (a loop body is walked until the
/// state at its head stops growing, each nested loop as often per walk of
/// the outer one); past it the lowering meets around every thread's write
/// instead, as before plans.
constexpr int64_t kMaxVisits = 200000;

/// One buffer a statement touches, and how.
struct Touch {
  SymbolId buffer = kNone;
  bool write = false;
  /// Written by a copy that lands later: cp.async (`copying`: visible
  /// after its group's wait), TMA and bulk copies (through an mbarrier).
  /// Such a write is ordered with earlier accesses (a meet before it), not
  /// by a meet after it.
  bool lands_later = false;
  bool copying = false;
};

/// The accesses since the last meet: a buffer's bits, 1 read, 2 write;
/// and the buffers a cp.async of this thread may still be writing.
struct State {
  std::map<SymbolId, uint8_t> since_meet;
  std::set<SymbolId> copying;
  void merge(const State& o) {
    for (const auto& [b, bits] : o.since_meet) since_meet[b] |= bits;
    copying.insert(o.copying.begin(), o.copying.end());
  }
  bool operator==(const State& o) const { return since_meet == o.since_meet && copying == o.copying; }
};

class MeetPlan {
 public:
  MeetPlan(const Emitter& x, std::set<StmtId>& before) : x_(x), m_(x.m), before_(before) {}

  /// False once the plan gave up (kMaxVisits).
  bool body(const std::vector<StmtId>& stmts, State& st) {
    for (StmtId id : stmts) {
      if (++visits_ > kMaxVisits) return false;
      statement(id, st);
    }
    return visits_ <= kMaxVisits;
  }

 private:
  void statement(StmtId id, State& st) {
    const Stmt& s = m_.stmts[id];
    if (std::holds_alternative<ElectStmt>(s.node) || x_.lane_split(s)) return split(id, st);
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, RoleStmt>) {
            State in = st;  // the role's warps, from here
            body(n.body, in);
            st.merge(in);
          } else if constexpr (std::is_same_v<T, IfStmt>) {
            State other = st;
            body(n.then_body, st);
            body(n.else_body, other);
            st.merge(other);
          } else if constexpr (std::is_same_v<T, ForStmt> || std::is_same_v<T, PipelineStmt>) {
            loop(n.body, st);
          } else if constexpr (std::is_same_v<T, SyncStmt>) {
            st.since_meet.clear();  // a named barrier's threads are whole warps
          } else if constexpr (std::is_same_v<T, PlainStmt>) {
            OpIssue issue = op_info(n.op).issue;
            if (issue == OpIssue::Block || issue == OpIssue::Cluster) st.since_meet.clear();
          } else if constexpr (std::is_same_v<T, GroupWaitStmt>) {
            // What this thread's cp.asyncs wrote is visible to it now; to
            // the other lanes after a meet.
            if (n.op == Op::CpAsyncWait)
              for (SymbolId b : st.copying) st.since_meet[b] |= 2;
          } else if constexpr (std::is_same_v<T, MoveStmt> || std::is_same_v<T, MmaStmt> ||
                               std::is_same_v<T, AssignStmt> || std::is_same_v<T, ReduceStmt> ||
                               std::is_same_v<T, ArgReduceStmt>) {
            std::vector<Touch> touches;
            touched(s, touches);
            access(id, touches, st);
          } else if constexpr (std::is_same_v<T, ArriveStmt> || std::is_same_v<T, WaitStmt> ||
                               std::is_same_v<T, CommitStmt> || std::is_same_v<T, LetStmt> ||
                               std::is_same_v<T, DeclStmt>) {
            // No memory of a buffer: mbarriers order what they carry themselves.
          } else if constexpr (std::is_same_v<T, ElectStmt>) {
            // split() above
          } else {
            static_assert(sizeof(T) == 0, "a statement kind the meet plan does not handle");
          }
        },
        s.node);
  }

  /// A loop body runs after itself: walked until the state at its head
  /// stops growing (it only grows, and a buffer has three bits); a meet
  /// any walk asks for is kept. The loop may run no iteration: the head's
  /// state is also the exit's.
  void loop(const std::vector<StmtId>& stmts, State& st) {
    State head = st;
    for (;;) {
      State end = head;
      if (!body(stmts, end)) return;
      State next = head;
      next.merge(end);
      if (next == head) break;
      head = std::move(next);
    }
    st = std::move(head);
  }

  /// `elect`, or an `if` or loop some lanes skip: one access of everything
  /// in it. Where it holds a thread's own write the lanes meet around it
  /// (Emitter::warp_ordered, the code inside meeting by its own mask).
  void split(StmtId id, State& st) {
    std::vector<Touch> touches;
    bool waits = false;
    reaches(m_, {id}, [&](const Stmt& c) {
      touched(c, touches);
      if (const auto* w = std::get_if<GroupWaitStmt>(&c.node)) waits = waits || w->op == Op::CpAsyncWait;
      return false;
    });
    if (x_.warp_ordered(id)) {
      before_.insert(id);
      st.since_meet.clear();
      for (const Touch& t : touches)
        if (t.copying) st.copying.insert(t.buffer);
      return;  // and a meet after it
    }
    access(id, touches, st);
    if (waits)
      for (SymbolId b : st.copying) st.since_meet[b] |= 2;
  }

  /// Meets before statement `id` where it touches a buffer an access since
  /// the last meet touched, and one of the two writes.
  void access(StmtId id, const std::vector<Touch>& touches, State& st) {
    bool meet = false;
    for (const Touch& t : touches) {
      auto it = st.since_meet.find(t.buffer);
      if (it != st.since_meet.end() && ((it->second & 2) || t.write)) meet = true;
    }
    if (meet) {
      before_.insert(id);
      st.since_meet.clear();
    }
    for (const Touch& t : touches) {
      if (t.copying) st.copying.insert(t.buffer);
      else if (!t.lands_later) st.since_meet[t.buffer] |= t.write ? 2 : 1;
    }
  }

  /// The buffers (shared memory, global tensors; every view of another
  /// CTA's shared memory as one) statement `s` reads or writes.
  void touched(const Stmt& s, std::vector<Touch>& out) {
    std::vector<ExprId> operands = operand_exprs(s);
    if (operands.empty()) return;
    std::optional<Op> op = op_of(s);
    size_t written = std::holds_alternative<ArgReduceStmt>(s.node) ? 2 : 1;
    bool later = op && (*op == Op::CpAsync || *op == Op::TmaLoad || *op == Op::BulkLoad);
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i < written) {
        SymbolId b = buffer(root_symbol(m_, operands[i]));
        if (b == kNone) continue;
        out.push_back({b, true, later, op == Op::CpAsync});
      } else {
        reads(operands[i], out);
      }
    }
  }

  /// The buffers an expression reads (an element-wise value names them).
  void reads(ExprId e, std::vector<Touch>& out, int depth = 0) {
    if (e == kNone || depth > 64) return;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name) {
      if (SymbolId b = buffer(x.symbol); b != kNone) out.push_back({b, false, false, false});
      return;
    }
    reads(x.lhs, out, depth + 1);
    reads(x.rhs, out, depth + 1);
    for (ExprId a : x.args) reads(a, out, depth + 1);
  }

  SymbolId buffer(SymbolId sym) const {
    if (sym == kNone) return kNone;
    switch (m_.symbols[sym].kind) {
      case SymbolKind::Smem: case SymbolKind::TensorParam: return sym;
      case SymbolKind::Dsmem: return kAnyDsmem;
      case SymbolKind::Const: case SymbolKind::ShapeSymbol: case SymbolKind::ScalarParam: case SymbolKind::Tmem:
      case SymbolKind::Reg: case SymbolKind::Mbarrier: case SymbolKind::NamedBarrier: case SymbolKind::Tensormap:
      case SymbolKind::Let: case SymbolKind::LoopVar: case SymbolKind::StageVar: case SymbolKind::Role:
      case SymbolKind::Kernel: case SymbolKind::Dispatch: case SymbolKind::DispatchParam: case SymbolKind::Builtin:
        return kNone;
    }
    return kNone;
  }

  /// Every view of another CTA's shared memory, as one buffer.
  static constexpr SymbolId kAnyDsmem = kNone - 1;

  const Emitter& x_;
  const Module& m_;
  std::set<StmtId>& before_;
  int64_t visits_ = 0;
};

}  // namespace

void Emitter::plan_warp_meets() {
  meet_before.clear();
  State st;
  meets_planned = MeetPlan(*this, meet_before).body(kernel.body, st);
}

}  // namespace cake::codegen
