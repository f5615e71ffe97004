// The statement checks of the E01xx group. One walk over every kernel's
// statements, with the context a statement needs (its role, the loops and
// conditions around it), checks:
//   - placement of declarations and roles (E0113) and constant-ness of the
//     values that size things (E0112);
//   - each op's operands: kinds (E0108), memory spaces (E0105), dtypes
//     (E0103), matrix-multiply shapes (E0106), element-wise shapes (E0109)
//     and ranks (E0107, through the Typer);
//   - static bounds of every index and slice (E0104), by evaluating them at
//     the corners of the loop and builtin ranges, for shape values the facts
//     allow (samples.h); a report always comes with a concrete example.
// It leaves target features, resources and protocol to the verifier's later
// groups (E02xx..E06xx).
#include "checks/checks.h"
#include "checks/samples.h"
#include "diag_builder.h"
#include "semantics/checked.h"
#include "semantics/typing.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <algorithm>
#include <string>

namespace cake {
namespace {

/// A set of memory spaces, by value (safe to store, unlike initializer_list).
struct SpaceSet {
  uint32_t bits = 0;
  SpaceSet() = default;
  SpaceSet(std::initializer_list<Space> spaces) {
    for (Space s : spaces) bits |= 1u << static_cast<unsigned>(s);
  }
  bool has(Space s) const { return bits & (1u << static_cast<unsigned>(s)); }
  bool empty() const { return bits == 0; }
};

bool in(Space s, SpaceSet set) { return set.has(s); }

std::string spaces_text(SpaceSet set) {
  std::vector<std::string_view> names;
  for (unsigned i = 0; i <= static_cast<unsigned>(Space::None); ++i)
    if (set.has(static_cast<Space>(i))) names.push_back(space_name(static_cast<Space>(i)));
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) s += i + 1 == names.size() ? " or " : ", ";
    s += names[i];
  }
  return s;
}

struct Loop {
  SymbolId variable = kNone, stage = kNone;
  ExprId start = kNone, end = kNone, step = kNone, stages = kNone;
};

struct RoleInfo {
  int64_t first_warp = 0, warps = 0, units = 1;
  bool known = false;
};

class StatementChecker {
 public:
  StatementChecker(const Module& m, std::vector<Diagnostic>& diags)
      : m_(m), diags_(diags), typer_(m, &diags), eval_(m) {}

  void run() {
    for (uint32_t k = 0; k < m_.kernels.size(); ++k) kernel(k);
  }

 private:
  // Section - kernel level

  void kernel(uint32_t index) {
    const Kernel& k = m_.kernels[index];
    kernel_ = index;
    samples_ = shape_samples(m_, eval_, index);
    bool has_roles = std::any_of(k.body.begin(), k.body.end(), [&](StmtId s) {
      return std::holds_alternative<RoleStmt>(m_.stmts[s].node);
    });
    constant(k.block, "the block size");
    for (ExprId d : k.cluster) constant(d, "a cluster dimension");
    block_threads_ = k.block == kNone ? std::nullopt : eval_.fold(k.block);
    bool seen_role = false;
    for (StmtId id : k.body) {
      const Stmt& s = m_.stmts[id];
      if (const auto* role = std::get_if<RoleStmt>(&s.node)) {
        seen_role = true;
        role_ = role_info(*role);
        statement(id);
        continue;
      }
      if (is_resource(s)) {
        if (seen_role)
          misplaced(s, "declare resources before the roles: `" + keyword(s) + "` follows a role");
        statement(id);
        continue;
      }
      if (has_roles && !std::holds_alternative<LetStmt>(s.node)) {
        misplaced(s, "a kernel with roles runs statements only inside its roles; move this into a role");
        continue;
      }
      role_ = implicit_role();
      statement(id);
    }
    kernel_ = kNone;
  }

  RoleInfo implicit_role() const {
    RoleInfo r;
    if (block_threads_ && *block_threads_ > 0) {
      r.known = true;
      r.warps = *block_threads_ / 32;
      r.units = r.warps;
    }
    return r;
  }

  RoleInfo role_info(const RoleStmt& role) {
    RoleInfo r;
    if (role.spec.kind == RoleSpec::Kind::All) return implicit_role();
    int64_t per_unit = role.spec.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    int64_t lo = INT64_MAX, count = 0;
    for (const RoleSpec::Entry& e : role.spec.entries) {
      auto first = eval_.fold(e.first);
      auto end = e.end == kNone ? (first ? checked_add(*first, 1) : std::nullopt) : eval_.fold(e.end);
      // Warp indices past 1024 are errors reported elsewhere; do not sample them.
      if (!first || !end || *first < 0 || *end > 1024) return r;
      lo = std::min(lo, *first);
      count += std::max<int64_t>(0, *end - *first);
    }
    if (count == 0) return r;
    r.known = true;
    r.first_warp = lo * per_unit;
    r.warps = count * per_unit;
    r.units = count;
    return r;
  }

  static bool is_resource(const Stmt& s) { return false || std::holds_alternative<DeclStmt>(s.node); }

  std::string keyword(const Stmt& s) const {
    return std::string(m_.written(s.keyword));
  }

  void misplaced(const Stmt& s, std::string message) {
    diags_.push_back(make_diagnostic(DiagId::MisplacedItem, s.keyword, std::move(message)));
  }

  void constant(ExprId e, std::string_view what) {
    if (e == kNone) return;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Error) return;
    if (!eval_.fold(e)) diags_.push_back(make_diagnostic(DiagId::NotConstant, x.range, what));
  }

  // Section - statements

  void statements(const std::vector<StmtId>& body) {
    for (StmtId id : body) statement(id);
  }

  void statement(StmtId id) {
    const Stmt& s = m_.stmts[id];
    std::visit([&](const auto& node) { check(s, node); }, s.node);
  }

  void check(const Stmt& s, const DeclStmt& d) {
    if (d.symbol == kNone) return;
    const Symbol& sym = m_.symbols[d.symbol];
    bool at_kernel_scope = s.parent == kNone;
    if (sym.kind != SymbolKind::Reg && !at_kernel_scope)
      misplaced(s, "`" + keyword(s) + "` declarations belong at kernel scope, before the roles");
    for (ExprId dim : sym.type.stage_dims) constant(dim, "a ring size");
    for (ExprId dim : sym.type.dims) constant(dim, "a buffer dimension");
    for (ExprId dim : sym.box) constant(dim, "a box dimension");
    if (sym.kind == SymbolKind::Mbarrier) {
      constant(sym.value, "the mbarrier array size");
      constant(sym.count, "the arrival count");
    }
    if (sym.kind == SymbolKind::NamedBarrier) {
      constant(sym.id, "the barrier id");
      constant(sym.count, "the thread count");
    }
    if (sym.kind == SymbolKind::Reg && sym.value != kNone) {
      Typed init = typer_.type_of(sym.value);
      if (init.kind != Typed::Kind::Unknown && !init.is_scalar())
        diags_.push_back(make_diagnostic(DiagId::ShapeMismatch, m_.exprs[sym.value].range,
                                         std::string("a fragment is initialised with a scalar")));
    }
  }

  void check(const Stmt& s, const RoleStmt& r) {
    if (s.parent != kNone) misplaced(s, "roles cannot nest: declare every role at kernel scope");
    for (const RoleSpec::Entry& e : r.spec.entries) {
      constant(e.first, "a role's warp or warpgroup index");
      constant(e.end, "a role's warp range");
    }
    constant(r.maxnreg, "`maxnreg`");
    statements(r.body);
  }

  void check(const Stmt&, const LetStmt& l) {
    Typed v = typer_.type_of(l.value);
    if (v.kind != Typed::Kind::Unknown && !v.is_scalar())
      diags_.push_back(make_diagnostic(DiagId::WrongKind, m_.exprs[l.value].range, "value",
                                       "not a scalar", "a scalar (`let` binds integers and scalars; use `reg` for fragments)"));
    bounds_in(l.value);
  }

  void check(const Stmt& s, const AssignStmt& a) {
    Typed target = typer_.type_of(a.target);
    Typed value = typer_.type_of(a.value);
    bounds_in(a.target);
    bounds_in(a.value);
    if (target.kind == Typed::Kind::Unknown || value.kind == Typed::Kind::Unknown) return;
    const Expr& t = m_.exprs[a.target];
    if (!target.is_buffer() || target.space != Space::Reg) {
      std::string_view name = t.kind == Expr::Kind::Name ? t.text : "target";
      if (target.is_buffer())
        diags_.push_back(make_diagnostic(DiagId::WrongSpace, t.range,
                                         "assignment writes register fragments; `" + std::string(name) + "` is in " +
                                             std::string(space_name(target.space)) + " memory (use `store`)"));
      else
        diags_.push_back(make_diagnostic(DiagId::WrongKind, t.range, name,
                                         target.root != kNone ? symbol_kind_name(m_.symbols[target.root].kind) : "not a fragment",
                                         "a register fragment"));
      return;
    }
    if (value.is_buffer() && !value.literal && value.dtype != target.dtype && value.dtype != DType::Unknown &&
        target.dtype != DType::Unknown) {
      const Expr& v = m_.exprs[a.value];
      Diagnostic d = make_diagnostic(DiagId::DtypeMismatch, v.range,
                                     "assigning " + std::string(dtype_name(value.dtype)) + " to " +
                                         std::string(dtype_name(target.dtype)) + " fragment without a conversion");
      std::string cvt = "cvt<" + std::string(dtype_name(target.dtype)) + ">(";
      d.fixes.push_back({"convert with " + cvt + "...)",
                         {{{v.range.begin, v.range.begin}, cvt}, {{v.range.end, v.range.end}, ")"}}, true});
      diags_.push_back(std::move(d));
      return;
    }
    if (value.is_buffer() && !value.dims.empty() && !same_shape(target.dims, value.dims) &&
        !broadcasts(value, target.dims))
      diags_.push_back(make_diagnostic(DiagId::ShapeMismatch, m_.exprs[a.value].range,
                                       "value of shape " + typer_.shape_text(value.dims) + " assigned to `" +
                                           std::string(t.kind == Expr::Kind::Name ? t.text : "target") + "` of shape " +
                                           typer_.shape_text(target.dims)));
    (void)s;
  }

  void check(const Stmt& s, const ElectStmt& e) { statements(e.body); (void)s; }

  void check(const Stmt&, const ForStmt& f) {
    bounds_in(f.start);
    bounds_in(f.end);
    loops_.push_back({f.variable, kNone, f.start, f.end, f.step, kNone});
    statements(f.body);
    loops_.pop_back();
  }

  void check(const Stmt&, const PipelineStmt& p) {
    constant(p.stages, "the ring size");
    loops_.push_back({p.variable, p.stage, p.start, p.end, p.step, p.stages});
    statements(p.body);
    loops_.pop_back();
  }

  void check(const Stmt&, const IfStmt& i) {
    typer_.type_of(i.condition);
    conditions_.push_back(i.condition);
    statements(i.then_body);
    conditions_.pop_back();
    // The else branch runs when the condition is false: no fact to add.
    statements(i.else_body);
  }

  void check(const Stmt& s, const MoveStmt& mv) {
    struct Rule {
      SpaceSet dst, src;
    };
    Rule rule = [&]() -> Rule {
      switch (mv.op) {
        case Op::Load: return {{Space::Reg}, {Space::Smem, Space::Global, Space::Const}};
        case Op::Store: return {{Space::Smem, Space::Global}, {Space::Reg}};
        case Op::CpAsync: return {{Space::Smem}, {Space::Global, Space::Const}};
        case Op::TmaLoad: return {{Space::Smem}, {}};
        case Op::TmaStore: return {{}, {Space::Smem}};
        case Op::BulkLoad: return {{Space::Smem}, {Space::Global, Space::Const}};
        case Op::Ldmatrix: return {{Space::Reg}, {Space::Smem}};
        case Op::Stmatrix: return {{Space::Smem}, {Space::Reg}};
        case Op::Tcgen05Ld: return {{Space::Reg}, {Space::Tmem}};
        case Op::Tcgen05St: return {{Space::Tmem}, {Space::Reg}};
        case Op::Tcgen05Cp: return {{Space::Tmem}, {Space::Smem}};
        default: return {{}, {}};
      }
    }();
    Typed dst = typer_.type_of(mv.dst);
    Typed src = typer_.type_of(mv.src);
    bounds_in(mv.dst);
    bounds_in(mv.src);
    std::string op(op_spelling(mv.op));
    bool ok = true;
    if (mv.op == Op::TmaLoad) ok &= tensormap_operand(src, mv.src, op, "source");
    else ok &= operand(src, mv.src, rule.src, op, "source");
    if (mv.op == Op::TmaStore) ok &= tensormap_operand(dst, mv.dst, op, "destination");
    else ok &= operand(dst, mv.dst, rule.dst, op, "destination");
    if (mv.barrier != kNone) {
      barrier_operand(mv.barrier, op);
      bounds_in(mv.barrier);
    } else if (mv.op == Op::TmaLoad || mv.op == Op::BulkLoad) {
      diags_.push_back(make_diagnostic(DiagId::MissingToken, s.range, "a barrier",
                                       " after `, `: `" + op + "` completes its bytes on an mbarrier"));
    }
    if (!ok || dst.kind == Typed::Kind::Unknown || src.kind == Typed::Kind::Unknown) return;
    if (dst.dtype != src.dtype && dst.dtype != DType::Unknown && src.dtype != DType::Unknown)
      diags_.push_back(make_diagnostic(DiagId::DtypeMismatch, m_.exprs[mv.src].range,
                                       "`" + op + "` moves " + std::string(dtype_name(src.dtype)) + " into a " +
                                           std::string(dtype_name(dst.dtype)) + " destination (movement never converts)"));
    else if (!same_elements(dst.dims, src.dims))
      diags_.push_back(make_diagnostic(DiagId::ShapeMismatch, m_.exprs[mv.src].range,
                                       "`" + op + "` moves a " + typer_.shape_text(src.dims) + " tile into a " +
                                           typer_.shape_text(dst.dims) + " destination"));
  }

  void check(const Stmt&, const MmaStmt& mm) {
    std::string op(op_spelling(mm.op));
    SpaceSet acc_spaces = mm.op == Op::Tcgen05Mma ? SpaceSet{Space::Tmem} : SpaceSet{Space::Reg};
    SpaceSet a_spaces = mm.op == Op::Mma         ? SpaceSet{Space::Reg}
                        : mm.op == Op::Wgmma     ? SpaceSet{Space::Smem, Space::Reg}
                                                 : SpaceSet{Space::Smem, Space::Tmem};
    SpaceSet b_spaces = mm.op == Op::Mma ? SpaceSet{Space::Reg} : SpaceSet{Space::Smem};
    Typed acc = typer_.type_of(mm.acc), a = typer_.type_of(mm.a), b = typer_.type_of(mm.b);
    for (ExprId e : {mm.acc, mm.a, mm.b}) bounds_in(e);
    if (mm.accumulate != kNone) typer_.type_of(mm.accumulate);
    bool ok = operand(acc, mm.acc, acc_spaces, op, "accumulator");
    ok &= operand(a, mm.a, a_spaces, op, "A operand");
    ok &= operand(b, mm.b, b_spaces, op, "B operand");
    if (!ok || acc.kind == Typed::Kind::Unknown || a.kind == Typed::Kind::Unknown || b.kind == Typed::Kind::Unknown)
      return;
    const Expr& ea = m_.exprs[mm.a];
    if (a.dtype != b.dtype && a.dtype != DType::Unknown && b.dtype != DType::Unknown && !(is_fp8(a.dtype) && is_fp8(b.dtype))) {
      diags_.push_back(make_diagnostic(DiagId::DtypeMismatch, ByteRange{ea.range.begin, m_.exprs[mm.b].range.end},
                                       "`" + op + "` operands differ in dtype: A is " + std::string(dtype_name(a.dtype)) +
                                           ", B is " + std::string(dtype_name(b.dtype))));
      return;
    }
    if (!accumulator_dtype_ok(mm.op, a.dtype, acc.dtype)) {
      diags_.push_back(make_diagnostic(DiagId::DtypeMismatch, m_.exprs[mm.acc].range,
                                       "a " + std::string(dtype_name(acc.dtype)) + " accumulator cannot take " +
                                           std::string(dtype_name(a.dtype)) + " products (" +
                                           accumulator_hint(a.dtype) + ")"));
      return;
    }
    auto tile = [](const Typed& t) { return t.dims.size() - t.stage_dims; };
    if (tile(acc) != 2 || tile(a) != 2 || tile(b) != 2) {
      diags_.push_back(make_diagnostic(DiagId::MmaShapeMismatch, m_.stmts.empty() ? ea.range : ea.range,
                                       "`" + op + "` multiplies 2-D tiles: A is " + typer_.shape_text(a.dims) + ", B is " +
                                           typer_.shape_text(b.dims) + ", the accumulator " +
                                           typer_.shape_text(acc.dims)));
      return;
    }
    size_t an = a.dims.size(), bn = b.dims.size(), cn = acc.dims.size();
    bool k_ok = typer_.dims_may_equal(a.dims[an - 1], b.dims[bn - 2]);
    bool m_ok = typer_.dims_may_equal(a.dims[an - 2], acc.dims[cn - 2]);
    bool n_ok = typer_.dims_may_equal(b.dims[bn - 1], acc.dims[cn - 1]);
    if (!k_ok || !m_ok || !n_ok) {
      std::string why = !k_ok ? "A's K does not match B's K" : !m_ok ? "A's M does not match the accumulator's rows"
                                                                      : "B's N does not match the accumulator's columns";
      diags_.push_back(make_diagnostic(DiagId::MmaShapeMismatch, ByteRange{ea.range.begin, m_.exprs[mm.b].range.end},
                                       "`" + op + "`: " + typer_.shape_text(a.dims, a.stage_dims) + " @ " +
                                           typer_.shape_text(b.dims, b.stage_dims) + " into " +
                                           typer_.shape_text(acc.dims, acc.stage_dims) + ": " + why));
    }
  }

  void check(const Stmt&, const PlainStmt&) {}

  void check(const Stmt&, const GroupWaitStmt& g) { constant(g.pending, "the number of pending groups"); }

  void check(const Stmt&, const ArriveStmt& a) {
    barrier_operand(a.barrier, std::string(op_spelling(a.op)));
    bounds_in(a.barrier);
    if (a.bytes != kNone) {
      Typed b = typer_.type_of(a.bytes);
      if (b.kind != Typed::Kind::Unknown && !b.is_scalar())
        diags_.push_back(make_diagnostic(DiagId::WrongKind, m_.exprs[a.bytes].range, "bytes", "a buffer",
                                         "a byte count (use bytes(...))"));
    }
  }

  void check(const Stmt&, const WaitStmt& w) {
    barrier_operand(w.barrier, "wait");
    bounds_in(w.barrier);
    typer_.type_of(w.parity);
  }

  void check(const Stmt&, const SyncStmt& s) {
    Typed b = typer_.type_of(s.barrier);
    if (b.kind != Typed::Kind::Unknown && b.kind != Typed::Kind::NamedBarrier)
      wrong_kind(s.barrier, b, "a named barrier (`sync` takes a namedbarrier; mbarriers use arrive/wait)");
  }

  void check(const Stmt&, const CommitStmt& c) {
    barrier_operand(c.barrier, std::string(op_spelling(c.op)));
    bounds_in(c.barrier);
  }

  void check(const Stmt&, const ReduceStmt& r) {
    Typed dst = typer_.type_of(r.dst), src = typer_.type_of(r.src);
    bounds_in(r.dst);
    bounds_in(r.src);
    bool ok = operand(dst, r.dst, {Space::Reg}, "reduce.row", "destination");
    ok &= operand(src, r.src, {Space::Reg}, "reduce.row", "source");
    if (ok) row_result(dst, src, r.dst, "reduce.row");
  }

  void check(const Stmt&, const ArgReduceStmt& r) {
    std::string op(op_spelling(r.op));
    Typed value = typer_.type_of(r.value), index = typer_.type_of(r.index), src = typer_.type_of(r.src);
    if (r.base != kNone) typer_.type_of(r.base);
    bool ok = operand(value, r.value, {Space::Reg}, op, "value");
    ok &= operand(index, r.index, {Space::Reg}, op, "index");
    ok &= operand(src, r.src, {Space::Reg}, op, "source");
    if (!ok) return;
    if (index.kind == Typed::Kind::Buffer && is_float(index.dtype))
      diags_.push_back(make_diagnostic(DiagId::DtypeMismatch, m_.exprs[r.index].range,
                                       "`" + op + "` writes integer indices; `" +
                                           std::string(m_.exprs[r.index].text) + "` is " +
                                           std::string(dtype_name(index.dtype))));
    row_result(value, src, r.value, op);
    row_result(index, src, r.index, op, /*check_dtype=*/false);
  }

  // Section - operand helpers

  bool operand(const Typed& t, ExprId e, SpaceSet spaces, const std::string& op, std::string_view role) {
    if (t.kind == Typed::Kind::Unknown || e == kNone) return false;
    if (!t.is_buffer()) {
      wrong_kind(e, t, std::string("a buffer (the ") + std::string(role) + " of `" + op + "`)");
      return false;
    }
    if (t.stage_dims > 0) {
      const Expr& x = m_.exprs[e];
      Diagnostic d = make_diagnostic(DiagId::RankMismatch, x.range, root_name(t), t.dims.size(), 0);
      d.message = "`" + std::string(root_name(t)) + "` is a ring of " + typer_.dim_text(t.dims[0]) +
                  " stages: select one with `" + std::string(root_name(t)) + "[s]`";
      diags_.push_back(std::move(d));
      return false;
    }
    if (!spaces.empty() && !in(t.space, spaces)) {
      Diagnostic d = make_diagnostic(DiagId::WrongSpace, m_.exprs[e].range,
                                     "the " + std::string(role) + " of `" + op + "` must be in " + spaces_text(spaces) +
                                         " memory; `" + std::string(root_name(t)) + "` is in " +
                                         std::string(space_name(t.space)));
      if (t.root != kNone) d.related.push_back({m_.symbols[t.root].decl, "declared here"});
      diags_.push_back(std::move(d));
      return false;
    }
    return true;
  }

  bool tensormap_operand(const Typed& t, ExprId e, const std::string& op, std::string_view role) {
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

  void barrier_operand(ExprId e, const std::string& op) {
    Typed t = typer_.type_of(e);
    if (t.kind == Typed::Kind::Unknown || t.kind == Typed::Kind::Barrier) return;
    if (t.kind == Typed::Kind::BarrierArray) {
      Diagnostic d = make_diagnostic(DiagId::RankMismatch, m_.exprs[e].range, root_name(t), 1, 0);
      d.message = "`" + std::string(root_name(t)) + "` is an array of mbarriers: `" + op + "` needs one, e.g. `" +
                  std::string(root_name(t)) + "[s]`";
      diags_.push_back(std::move(d));
      return;
    }
    wrong_kind(e, t, "an mbarrier (`" + op + "` takes an mbarrier)");
  }

  void wrong_kind(ExprId e, const Typed& t, std::string expected) {
    const Expr& x = m_.exprs[e];
    std::string_view what = t.root != kNone ? symbol_kind_name(m_.symbols[t.root].kind)
                            : t.is_scalar()  ? "a scalar"
                                             : "another kind of value";
    Diagnostic d = make_diagnostic(DiagId::WrongKind, x.range, root_name(t, x), what, expected);
    if (t.root != kNone && m_.symbols[t.root].decl.end > 0)
      d.related.push_back({m_.symbols[t.root].decl, "declared here"});
    diags_.push_back(std::move(d));
  }

  std::string_view root_name(const Typed& t, const Expr* fallback = nullptr) const {
    if (t.root != kNone) return m_.symbols[t.root].name;
    return fallback && fallback->kind == Expr::Kind::Name ? fallback->text : std::string_view("operand");
  }
  std::string_view root_name(const Typed& t, const Expr& fallback) const { return root_name(t, &fallback); }

  void row_result(const Typed& dst, const Typed& src, ExprId dst_expr, const std::string& op, bool check_dtype = true) {
    if (src.dims.size() != 2 || dst.dims.size() != 1 || !typer_.dims_may_equal(dst.dims[0], src.dims[0])) {
      diags_.push_back(make_diagnostic(DiagId::ShapeMismatch, m_.exprs[dst_expr].range,
                                       "`" + op + "` reduces each row of a 2-D fragment into a 1-D one of its rows: " +
                                           typer_.shape_text(src.dims) + " into " + typer_.shape_text(dst.dims)));
      return;
    }
    if (check_dtype && dst.dtype != src.dtype && dst.dtype != DType::Unknown && src.dtype != DType::Unknown)
      diags_.push_back(make_diagnostic(DiagId::DtypeMismatch, m_.exprs[dst_expr].range,
                                       "`" + op + "` of " + std::string(dtype_name(src.dtype)) + " values into a " +
                                           std::string(dtype_name(dst.dtype)) + " fragment"));
  }

  static bool is_fp8(DType d) { return d == DType::F8E4M3 || d == DType::F8E5M2; }

  /// Accumulator dtypes per input dtype (gpu-arch.md §4: bf16 accumulates in
  /// f32 only on mma.sync and wgmma; tcgen05 also takes f16; e4m3 and e5m2
  /// may be mixed).
  static bool accumulator_dtype_ok(Op op, DType in, DType acc) {
    switch (in) {
      case DType::F16: return acc == DType::F32 || acc == DType::F16;
      case DType::BF16: return acc == DType::F32 || (op == Op::Tcgen05Mma && acc == DType::F16);
      case DType::TF32: return acc == DType::F32;
      case DType::F8E4M3: case DType::F8E5M2: case DType::F6E3M2: case DType::F6E2M3: case DType::F4E2M1:
        return acc == DType::F32 || acc == DType::F16;
      case DType::I8: case DType::U8: return acc == DType::I32;
      case DType::F64: return acc == DType::F64;
      default: return true;
    }
  }

  static std::string accumulator_hint(DType in) {
    switch (in) {
      case DType::BF16: return "bf16 accumulates into f32 (tcgen05 also f16)";
      case DType::TF32: return "tf32 accumulates into f32";
      case DType::I8: case DType::U8: return "8-bit integers accumulate into i32";
      case DType::F64: return "f64 accumulates into f64";
      default: return "use an f32 or f16 accumulator";
    }
  }

  bool same_shape(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!typer_.dims_may_equal(a[i], b[i])) return false;
    return true;
  }

  bool broadcasts(const Typed& value, const std::vector<ExprId>& target) const {
    if (value.dims.size() != 1 || target.size() != 2) return false;
    bool row = value.layout == FragLayout::MmaAccRow || value.layout == FragLayout::WgmmaAccRow;
    return typer_.dims_may_equal(value.dims[0], target[1]) || (row && typer_.dims_may_equal(value.dims[0], target[0]));
  }

  /// Element counts agree, when both are known (movement may reshape a tile).
  bool same_elements(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const {
    auto count = [&](const std::vector<ExprId>& dims) -> std::optional<int64_t> {
      int64_t n = 1;
      for (ExprId d : dims) {
        auto v = eval_.fold(d);
        if (!v || __builtin_mul_overflow(n, *v, &n)) return std::nullopt;
      }
      return n;
    };
    auto ca = count(a), cb = count(b);
    return !ca || !cb || *ca == *cb;
  }

  // Section - bounds (E0104)

  /// Checks every index and slice inside `e` against its buffer's dims.
  void bounds_in(ExprId e) {
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

  void index_bounds(const Expr& x) {
    Typed base = Typer(m_, nullptr).type_of(x.lhs);
    if (!base.is_buffer()) return;
    for (size_t i = 0; i < x.items.size() && i < base.dims.size(); ++i) {
      const IndexItem& item = x.items[i];
      if (item.kind == IndexItem::Kind::Full) continue;
      if (check_item(x, base, i, item)) return;  // one report per index expression
    }
  }

  /// Returns true when it reported a problem.
  bool check_item(const Expr& x, const Typed& base, size_t dim_index, const IndexItem& item) {
    ExprId dim = base.dims[dim_index];
    bool slice = item.kind == IndexItem::Kind::Slice;
    if (slice) {
      if (auto ext = eval_.fold(item.extent); ext && *ext <= 0) {
        report_bounds(x, item, "slice extent " + std::to_string(*ext) + " is not positive", "");
        return true;
      }
    }
    std::vector<SymbolId> free;
    eval_.free_symbols(item.start, free);
    if (slice) eval_.free_symbols(item.extent, free);
    eval_.free_symbols(dim, free);
    if (free.empty()) {
      // Nothing here reads a shape symbol, loop variable or builtin, so every
      // sample gives the same values: one evaluation finds the in-bounds case.
      auto r = reach(dim, item, nullptr);
      if (!r || (r->start >= 0 && r->end <= r->dim)) return false;
    }
    for (const Env& sample : samples_.empty() ? std::vector<Env>{Env{}} : samples_) {
      Env& env = scratch_env_;  // reuses its capacity across samples
      env = sample;
      std::string found;
      bool violated = false;
      enumerate(env, free, 0, [&](const Env& point) {
        auto r = reach(dim, item, &point);
        if (!r || (r->start >= 0 && r->end <= r->dim)) return false;
        int64_t start = r->start, end = r->end, d = r->dim;
        for (ExprId c : conditions_) {
          auto v = eval_.eval(c, &point);
          if (!v || *v == 0) return false;  // a guard may exclude this point
        }
        std::string what = slice ? "slice ends at " + std::to_string(end) : "index is " + std::to_string(start);
        if (start < 0) what = (slice ? "slice starts at " : "index is ") + std::to_string(start);
        found = what + " but dim " + std::to_string(dim_index) + " of `" + std::string(root_name(base)) + "` is " +
                std::to_string(d);
        std::vector<SymbolId> shown = m_.kernels[kernel_].shape_symbols;
        for (SymbolId f : free)
          if (std::find(shown.begin(), shown.end(), f) == shown.end() && point.values.count(f)) shown.push_back(f);
        std::string example = describe(m_, point, shown);
        for (auto& [sym, fields] : point.fields)
          for (auto& [name, value] : fields)
            example += (example.empty() ? "" : ", ") + std::string(m_.symbols[sym].name) + "." + std::string(name) +
                       " = " + std::to_string(value);
        if (!example.empty()) found += " (for " + example + ")";
        violated = true;
        return true;
      });
      if (violated) {
        report_bounds(x, item, found, "");
        return true;
      }
    }
    return false;
  }

  struct Reach {
    int64_t start, end, dim;  // the index's or slice's [start, end), and the dim's size
  };

  /// Where an index item reaches in `dim` at `point`, when every part is known.
  std::optional<Reach> reach(ExprId dim, const IndexItem& item, const Env* point) const {
    auto d = eval_.eval(dim, point);
    auto start = eval_.eval(item.start, point);
    if (!d || !start) return std::nullopt;
    auto end = checked_add(*start, 1);
    if (item.kind == IndexItem::Kind::Slice) {
      auto ext = eval_.eval(item.extent, point);
      if (!ext) return std::nullopt;
      end = checked_add(*start, *ext);
    }
    if (!end) return std::nullopt;
    return Reach{*start, *end, *d};
  }

  void report_bounds(const Expr& x, const IndexItem& item, const std::string& what, const std::string&) {
    std::string item_text(m_.written(item.range));
    Diagnostic d = make_diagnostic(DiagId::SliceOutOfBounds, item.range,
                                   "`" + item_text + "` is out of bounds: " + what);
    Typed base = Typer(m_, nullptr).type_of(x.lhs);
    if (base.root != kNone) d.related.push_back({m_.symbols[base.root].decl, "declared here"});
    diags_.push_back(std::move(d));
  }

  /// Calls `visit` at the corner points of every free loop variable and
  /// builtin; stops when it returns true.
  bool enumerate(Env& env, const std::vector<SymbolId>& free, size_t level, llvm::function_ref<bool(const Env&)> visit) {
    // Builtins first (block.x, role.rank, warp.id, lane), then loops outer to inner.
    if (level == 0) {
      for (SymbolId s : free) {
        const Symbol& sym = m_.symbols[s];
        if (sym.kind != SymbolKind::Builtin) continue;
        if (sym.name == "lane") env.values[s] = 31;
        else if (sym.name == "block") {
          const Kernel& k = m_.kernels[kernel_];
          const char* names[] = {"x", "y", "z"};
          for (size_t i = 0; i < 3; ++i) {
            int64_t n = 1;
            if (i < k.grid.size()) {
              auto v = eval_.eval(k.grid[i], &env);
              if (!v) continue;
              n = *v;
            }
            env.fields[s][names[i]] = n > 0 ? n - 1 : 0;
          }
        } else if (sym.name == "role" && role_.known) env.fields[s]["rank"] = role_.units - 1;
        else if (sym.name == "warp" && role_.known) env.fields[s]["id"] = role_.first_warp + role_.warps - 1;
        else if (sym.name == "cluster") {
          std::optional<int64_t> n = 1;
          for (ExprId d : m_.kernels[kernel_].cluster)
            if (auto v = eval_.fold(d); v && n) n = checked_mul(*n, *v);
          if (n && *n > 0) env.fields[s]["rank"] = *n - 1;
        }
      }
      // Evaluate at the largest builtin values, then at zero.
      if (enumerate_loops(env, free, 0, visit)) return true;
      bool any = false;
      for (auto& [sym, fields] : env.fields)
        for (auto& [name, value] : fields) any |= value != 0, value = 0;
      for (SymbolId s : free)
        if (m_.symbols[s].kind == SymbolKind::Builtin && m_.symbols[s].name == "lane") env.values[s] = 0, any = true;
      return any && enumerate_loops(env, free, 0, visit);
    }
    return enumerate_loops(env, free, 0, visit);
  }

  bool enumerate_loops(Env& env, const std::vector<SymbolId>& free, size_t loop, llvm::function_ref<bool(const Env&)> visit) {
    if (loop == loops_.size()) return visit(env);
    const Loop& l = loops_[loop];
    bool var_free = std::find(free.begin(), free.end(), l.variable) != free.end();
    bool stage_free = l.stage != kNone && std::find(free.begin(), free.end(), l.stage) != free.end();
    bool needed = var_free || stage_free || loop_needed_by_conditions(l);
    if (!needed) return enumerate_loops(env, free, loop + 1, visit);
    auto start = eval_.eval(l.start, &env);
    auto end = eval_.eval(l.end, &env);
    int64_t step = 1;
    if (l.step != kNone) {
      auto s = eval_.eval(l.step, &env);
      if (!s || *s <= 0) return false;
      step = *s;
    }
    if (!start || !end || *end <= *start) return false;
    auto span = checked_sub(*end - 1, *start);  // *end > *start, so *end - 1 is safe
    if (!span) return false;
    int64_t last = *start + *span / step * step;  // within [start, end)
    std::vector<int64_t> values{*start, last};
    auto stages = l.stages != kNone ? eval_.fold(l.stages) : std::nullopt;
    if (stage_free && stages && *stages > 0)
      for (int64_t k = 1; k < std::min<int64_t>(*stages, 16); ++k) {
        auto offset = checked_mul(k, step);
        auto v = offset ? checked_add(*start, *offset) : std::nullopt;
        if (v && *v <= last) values.push_back(*v);
      }
    for (int64_t v : values) {
      if (l.variable != kNone) env.values[l.variable] = v;
      if (l.stage != kNone && stages && *stages > 0) {
        env.values[l.stage] = v % *stages;
        env.fields[l.stage]["phase"] = (v / *stages) % 2;
      }
      if (enumerate_loops(env, free, loop + 1, visit)) return true;
    }
    if (l.variable != kNone) env.values.erase(l.variable);
    if (l.stage != kNone) env.values.erase(l.stage), env.fields.erase(l.stage);
    return false;
  }

  bool loop_needed_by_conditions(const Loop& l) const {
    for (ExprId c : conditions_) {
      std::vector<SymbolId> f;
      eval_.free_symbols(c, f);
      if (std::find(f.begin(), f.end(), l.variable) != f.end()) return true;
    }
    return false;
  }

  const Module& m_;
  std::vector<Diagnostic>& diags_;
  Typer typer_;
  Evaluator eval_;
  uint32_t kernel_ = kNone;
  std::vector<Env> samples_;
  Env scratch_env_;  // check_item()'s environment, kept for its capacity
  std::optional<int64_t> block_threads_;
  RoleInfo role_;
  std::vector<Loop> loops_;
  std::vector<ExprId> conditions_;
};

}  // namespace

void check_statements(const Module& module, std::vector<Diagnostic>& diagnostics) {
  StatementChecker(module, diagnostics).run();
}

}  // namespace cake
