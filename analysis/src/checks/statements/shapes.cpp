// Shape and dtype rules of the ops (checker.h): movement never converts
// (E0103) and keeps the element count (E0109); matrix multiplies take 2-D
// tiles whose K, M and N agree (E0106) and accumulators of a dtype that can
// take their products (E0103); assignments and row reductions keep shapes
// (E0109) and dtypes (E0103).
#include "checks/statements/checker.h"
#include "cake/arch.h"
#include "cake/broadcast.h"
#include "diag_builder.h"

#include <algorithm>
#include <tuple>

namespace cake {

void StatementChecker::check(const Stmt& s, const AssignStmt& a) {
  Typed target = typer_.type_of(a.target);
  Typed value = typer_.type_of(a.value);
  bounds_in(a.target);
  bounds_in(a.value);
  if (target.kind == Typed::Kind::Unknown || value.kind == Typed::Kind::Unknown) return;
  const Expr& t = m_.exprs[a.target];
  if (!target.is_buffer() || target.space != Space::Reg) {
    std::string_view name = t.kind == Expr::Kind::Name ? t.text : "target";
    if (target.is_buffer())
      diags_.push_back(make_diagnostic(DiagForm::WrongSpaceAssign, t.range, name, space_name(target.space)));
    else
      diags_.push_back(make_diagnostic(DiagId::WrongKind, t.range, name,
                                       target.root != kNone ? symbol_kind_name(m_.symbols[target.root].kind) : "not a fragment",
                                       "a register fragment"));
    return;
  }
  if (value.is_buffer() && !value.literal && value.dtype != target.dtype && value.dtype != DType::Unknown &&
      target.dtype != DType::Unknown) {
    const Expr& v = m_.exprs[a.value];
    Diagnostic d =
        make_diagnostic(DiagForm::AssignDtype, v.range, dtype_name(value.dtype), dtype_name(target.dtype));
    std::string cvt = "cvt<" + std::string(dtype_name(target.dtype)) + ">(";
    d.fixes.push_back({"convert with " + cvt + "...)",
                       {{{v.range.begin, v.range.begin}, cvt}, {{v.range.end, v.range.end}, ")"}}, true});
    diags_.push_back(std::move(d));
    return;
  }
  if (value.is_buffer() && !value.dims.empty() && !same_shape(target.dims, value.dims) &&
      !broadcasts(value, target.dims))
    diags_.push_back(make_diagnostic(DiagForm::AssignShape, m_.exprs[a.value].range, typer_.shape_text(value.dims),
                                     t.kind == Expr::Kind::Name ? t.text : "target", typer_.shape_text(target.dims)));
  (void)s;
}

void StatementChecker::check(const Stmt& s, const MoveStmt& mv) {
  // The operands' spaces are the op's ops.def columns; an empty one is the
  // tensormap box of a TMA copy.
  const OpInfo& info = op_info(mv.op);
  const SpaceSet& dst_spaces = info.operands[0];
  const SpaceSet& src_spaces = info.operands[1];
  Typed dst = typer_.type_of(mv.dst);
  Typed src = typer_.type_of(mv.src);
  bounds_in(mv.dst);
  bounds_in(mv.src);
  std::string op(op_spelling(mv.op));
  bool ok = true;
  if (src_spaces.empty()) ok &= tensormap_operand(src, mv.src, op, "source");
  else ok &= operand(src, mv.src, src_spaces, op, "source");
  if (dst_spaces.empty()) ok &= tensormap_operand(dst, mv.dst, op, "destination");
  else ok &= operand(dst, mv.dst, dst_spaces, op, "destination");
  if (mv.barrier != kNone) {
    barrier_operand(mv.barrier, op, /*copy=*/true, mv.multicast);
    bounds_in(mv.barrier);
  } else if (info.completion == OpCompletion::Mbarrier) {
    diags_.push_back(make_diagnostic(DiagId::MissingToken, s.range, "a barrier",
                                     " after `, `: `" + op + "` completes its bytes on an mbarrier"));
  }
  if (!ok || dst.kind == Typed::Kind::Unknown || src.kind == Typed::Kind::Unknown) return;
  if (dst.dtype != src.dtype && dst.dtype != DType::Unknown && src.dtype != DType::Unknown)
    diags_.push_back(make_diagnostic(DiagForm::MoveDtype, m_.exprs[mv.src].range, op, dtype_name(src.dtype),
                                     dtype_name(dst.dtype)));
  else if (!same_elements(dst.dims, src.dims))
    diags_.push_back(make_diagnostic(DiagForm::MoveShape, m_.exprs[mv.src].range, op, typer_.shape_text(src.dims),
                                     typer_.shape_text(dst.dims)));
  else if (mv.op == Op::StoreAdd && dst.dtype != DType::Unknown && red_add_type(dst.dtype).empty())
    diags_.push_back(make_diagnostic(DiagForm::AddDtype, m_.exprs[mv.dst].range, op, dtype_name(dst.dtype)));
}

void StatementChecker::check(const Stmt&, const MmaStmt& mm) {
  std::string op(op_spelling(mm.op));
  const SpaceSet* spaces = op_info(mm.op).operands;  // acc, A, B (ops.def)
  const SpaceSet &acc_spaces = spaces[0], &a_spaces = spaces[1], &b_spaces = spaces[2];
  Typed acc = typer_.type_of(mm.acc), a = typer_.type_of(mm.a), b = typer_.type_of(mm.b);
  for (ExprId e : {mm.acc, mm.a, mm.b}) bounds_in(e);
  if (mm.accumulate != kNone) typer_.type_of(mm.accumulate);
  bool ok = operand(acc, mm.acc, acc_spaces, op, "accumulator");
  ok &= operand(a, mm.a, a_spaces, op, "A operand");
  ok &= operand(b, mm.b, b_spaces, op, "B operand");
  if (!ok || acc.kind == Typed::Kind::Unknown || a.kind == Typed::Kind::Unknown || b.kind == Typed::Kind::Unknown)
    return;
  const Expr& ea = m_.exprs[mm.a];
  // Two operand types mix only where one instruction kind takes both:
  // e4m3 with e5m2, and tcgen05.mma's kind::f8f6f4 any of its five.
  bool mixed_ok = (is_fp8(a.dtype) && is_fp8(b.dtype)) ||
                  (mm.op == Op::Tcgen05Mma && tcgen05_operand(a.dtype).kind == "f8f6f4" &&
                   tcgen05_operand(b.dtype).kind == "f8f6f4");
  if (a.dtype != b.dtype && a.dtype != DType::Unknown && b.dtype != DType::Unknown && !mixed_ok) {
    diags_.push_back(make_diagnostic(DiagForm::MmaOperandDtypes, ByteRange{ea.range.begin, m_.exprs[mm.b].range.end},
                                     op, dtype_name(a.dtype), dtype_name(b.dtype)));
    return;
  }
  if (!accumulator_dtype_ok(mm.op, a.dtype, acc.dtype)) {
    diags_.push_back(make_diagnostic(DiagForm::AccumulatorDtype, m_.exprs[mm.acc].range, dtype_name(acc.dtype),
                                     dtype_name(a.dtype), accumulator_hint(a.dtype)));
    return;
  }
  auto tile = [](const Typed& t) { return t.dims.size() - t.stage_dims; };
  if (tile(acc) != 2 || tile(a) != 2 || tile(b) != 2) {
    diags_.push_back(make_diagnostic(DiagForm::MmaNot2D, ea.range, op, typer_.shape_text(a.dims),
                                     typer_.shape_text(b.dims), typer_.shape_text(acc.dims)));
    return;
  }
  size_t an = a.dims.size(), bn = b.dims.size(), cn = acc.dims.size();
  bool k_ok = typer_.dims_may_equal(a.dims[an - 1], b.dims[bn - 2]);
  bool m_ok = typer_.dims_may_equal(a.dims[an - 2], acc.dims[cn - 2]);
  bool n_ok = typer_.dims_may_equal(b.dims[bn - 1], acc.dims[cn - 1]);
  if (mm.op == Op::Tcgen05Mma && kernel_ != kNone && m_.kernels[kernel_].cta_group == 2 && k_ok) {
    // A pair's MMA (cta_group::2, M = 256): in each CTA, A is [128, K],
    // B is [K, N / 2] and the accumulator [128, N].
    ByteRange at{ea.range.begin, m_.exprs[mm.b].range.end};
    std::string as = typer_.shape_text(a.dims, a.stage_dims), bs = typer_.shape_text(b.dims, b.stage_dims),
                cs = typer_.shape_text(acc.dims, acc.stage_dims);
    auto rows = eval_.fold(acc.dims[cn - 2]);
    auto bn_cols = eval_.fold(b.dims[bn - 1]), acc_cols = eval_.fold(acc.dims[cn - 1]);
    if (!m_ok || (rows && *rows != 128))
      diags_.push_back(make_diagnostic(DiagForm::PairMmaRows, at, op, as, bs, cs));
    else if (bn_cols && acc_cols && *acc_cols != 2 * *bn_cols)
      diags_.push_back(make_diagnostic(DiagForm::PairMmaColumns, at, op, as, bs, cs,
                                       "N = " + std::to_string(*acc_cols) + ", B has " + std::to_string(*bn_cols)));
    return;
  }
  // K a whole number of instructions (ops.cpp's mma_k_bits(); a 6- or 4-bit
  // float takes a byte, so kind::f8f6f4's K is 32 for each).
  unsigned bits = stored_bits(a.dtype), step = bits > 0 ? mma_k_bits(mm.op) / bits : 0;
  if (k_ok && step > 0)
    if (auto k = eval_.fold(a.dims[an - 1]); k && *k % step != 0) {
      diags_.push_back(make_diagnostic(DiagForm::MmaShapeK, ByteRange{ea.range.begin, m_.exprs[mm.b].range.end}, op,
                                       typer_.shape_text(a.dims, a.stage_dims), typer_.shape_text(b.dims, b.stage_dims),
                                       typer_.shape_text(acc.dims, acc.stage_dims), std::to_string(*k),
                                       std::to_string(step), dtype_name(a.dtype)));
      return;
    }
  if (!k_ok || !m_ok || !n_ok) {
    ByteRange at{ea.range.begin, m_.exprs[mm.b].range.end};
    std::string as = typer_.shape_text(a.dims, a.stage_dims), bs = typer_.shape_text(b.dims, b.stage_dims),
                cs = typer_.shape_text(acc.dims, acc.stage_dims);
    diags_.push_back(!k_ok   ? make_diagnostic(DiagId::MmaShapeMismatch, at, op, as, bs, cs)
                     : !m_ok ? make_diagnostic(DiagForm::MmaShapeRows, at, op, as, bs, cs)
                             : make_diagnostic(DiagForm::MmaShapeColumns, at, op, as, bs, cs));
    return;
  }
  if (mm.op == Op::Tcgen05Mma) tcgen05_shape(mm, acc, a);
  // wgmma reads an MN-major shared-memory tile (B stored [K, N] and used as
  // it is, A stored [K, M] and used as `.T`) only for 16-bit operands: the
  // 8-bit and tf32 forms have no transpose immediates (PTX ISA,
  // wgmma.mma_async). tcgen05.mma's instruction descriptor has transpose
  // bits for every kind.
  if (mm.op == Op::Wgmma && a.dtype != DType::Unknown && dtype_bits(a.dtype) != 16) {
    const Expr& eb = m_.exprs[mm.b];
    bool b_mn = b.space == Space::Smem && mma_operand_mn_major(m_, mm.b, false);
    bool a_mn = a.space == Space::Smem && mma_operand_mn_major(m_, mm.a, true);
    if (b_mn || a_mn) {
      const Expr& x = b_mn ? eb : ea;
      diags_.push_back(make_diagnostic(DiagForm::MmaOperandMajor, x.range, op, dtype_name(a.dtype),
                                       std::string(m_.written(x.range)), b_mn ? "N" : "M",
                                       b_mn ? "`.T`" : "it is"));
    }
  }
}

void StatementChecker::tcgen05_shape(const MmaStmt& mm, const Typed& acc, const Typed& a) {
  size_t cn = acc.dims.size();
  auto rows = eval_.fold(acc.dims[cn - 2]), cols = eval_.fold(acc.dims[cn - 1]);
  if (!rows || !cols || a.dtype == DType::Unknown) return;
  // The cta_group::1 shapes of the operands' kind on the kernel's targets
  // (analysis/arch/*.json); a target without any leaves it to E0202/E0204.
  std::vector<std::string> shapes;
  bool fits = false;
  for (const Target& t : m_.targets) {
    const TargetInfo* info = find_target(t.name);
    if (!info) continue;
    fits = fits || info->tcgen05_shape(a.dtype, 1, *rows, *cols);
    for (const Tcgen05Shape& shape : info->tcgen05_mma) {
      if (shape.cta_group != 1 || std::find(shape.dtypes.begin(), shape.dtypes.end(), a.dtype) == shape.dtypes.end())
        continue;
      std::string text = "M = ";
      for (size_t i = 0; i < shape.m.size(); ++i) text += (i ? " or " : "") + std::to_string(shape.m[i]);
      text += " by N = ";
      for (size_t i = 0; i < shape.n.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape.n[i].first) + " .. " + std::to_string(shape.n[i].last) +
                " step " + std::to_string(shape.n[i].step);
      if (std::find(shapes.begin(), shapes.end(), text) == shapes.end()) shapes.push_back(std::move(text));
    }
  }
  const Expr& at = m_.exprs[mm.acc];
  if (!shapes.empty() && !fits) {
    std::string list;
    for (size_t i = 0; i < shapes.size(); ++i) list += (i ? "; or " : "") + shapes[i];
    diags_.push_back(make_diagnostic(DiagForm::Tcgen05MmaShape, at.range, dtype_name(a.dtype), list,
                                     std::to_string(*rows), std::to_string(*cols)));
    return;
  }
  // M = 64 writes row i to lane 32 (i / 16) + i % 16 of its address
  // (data-path layout F), which is where a 64-lane buffer holds its rows
  // (tmem_lane()) and no tile of another buffer does.
  // An A in tensor memory is read from the same lanes.
  if (*rows != 64) return;
  for (auto [operand, typed, role] : {std::tuple{mm.acc, &acc, "the accumulator"}, std::tuple{mm.a, &a, "A"}}) {
    if (typed->space != Space::Tmem || typed->root == kNone) continue;
    const Symbol& buffer = m_.symbols[typed->root];
    auto lanes = buffer.type.dims.empty() ? std::nullopt : eval_.fold(buffer.type.dims[0]);
    if (!lanes || tmem_rows_per_quarter(*lanes) == 16) continue;
    Diagnostic d = make_diagnostic(DiagForm::Tcgen05M64Buffer, m_.exprs[operand].range, buffer.name,
                                   std::to_string(*lanes), role);
    d.related.push_back({buffer.decl, "`" + std::string(buffer.name) + "` declared here"});
    d.fixes.push_back({"declare `" + std::string(buffer.name) + "` with 64 lanes",
                       {{m_.exprs[buffer.type.dims[0]].range, "64"}}, true});
    diags_.push_back(std::move(d));
  }
}

void StatementChecker::check(const Stmt&, const ReduceStmt& r) {
  Typed dst = typer_.type_of(r.dst), src = typer_.type_of(r.src);
  bounds_in(r.dst);
  bounds_in(r.src);
  bool ok = operand(dst, r.dst, {Space::Reg}, "reduce.row", "destination");
  ok &= operand(src, r.src, {Space::Reg}, "reduce.row", "source");
  if (ok) row_result(dst, src, r.dst, "reduce.row");
}

void StatementChecker::check(const Stmt&, const ArgReduceStmt& r) {
  std::string op(op_spelling(r.op));
  Typed value = typer_.type_of(r.value), index = typer_.type_of(r.index), src = typer_.type_of(r.src);
  if (r.base != kNone) typer_.type_of(r.base);
  bool ok = operand(value, r.value, {Space::Reg}, op, "value");
  ok &= operand(index, r.index, {Space::Reg}, op, "index");
  ok &= operand(src, r.src, {Space::Reg}, op, "source");
  if (!ok) return;
  if (index.kind == Typed::Kind::Buffer && is_float(index.dtype))
    diags_.push_back(make_diagnostic(DiagForm::ArgIndexDtype, m_.exprs[r.index].range, op, m_.exprs[r.index].text,
                                     dtype_name(index.dtype)));
  row_result(value, src, r.value, op);
  row_result(index, src, r.index, op, /*check_dtype=*/false);
}

void StatementChecker::row_result(const Typed& dst, const Typed& src, ExprId dst_expr, const std::string& op, bool check_dtype) {
  // One value per row: [M], or [M, 1] to broadcast back over [M, N].
  bool column = dst.dims.size() == 2 && eval_.fold(dst.dims[1]) == std::optional<int64_t>(1);
  if (src.dims.size() != 2 || (dst.dims.size() != 1 && !column) || !typer_.dims_may_equal(dst.dims[0], src.dims[0])) {
    diags_.push_back(make_diagnostic(DiagForm::RowReduceShape, m_.exprs[dst_expr].range, op,
                                     typer_.shape_text(src.dims), typer_.shape_text(dst.dims)));
    return;
  }
  if (check_dtype && dst.dtype != src.dtype && dst.dtype != DType::Unknown && src.dtype != DType::Unknown)
    diags_.push_back(make_diagnostic(DiagForm::RowReduceDtype, m_.exprs[dst_expr].range, op, dtype_name(src.dtype),
                                     dtype_name(dst.dtype)));
}


/// Accumulator dtypes per input dtype (gpu-arch.md §4: bf16 accumulates in
/// f32 only on mma.sync and wgmma; tcgen05 also takes f16; e4m3 and e5m2
/// may be mixed).
bool StatementChecker::accumulator_dtype_ok(Op op, DType in, DType acc) {
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

std::string StatementChecker::accumulator_hint(DType in) {
  switch (in) {
    case DType::BF16: return "bf16 accumulates into f32 (tcgen05 also f16)";
    case DType::TF32: return "tf32 accumulates into f32";
    case DType::I8: case DType::U8: return "8-bit integers accumulate into i32";
    case DType::F64: return "f64 accumulates into f64";
    default: return "use an f32 or f16 accumulator";
  }
}

bool StatementChecker::same_shape(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!typer_.dims_may_equal(a[i], b[i])) return false;
  return true;
}

bool StatementChecker::broadcasts(const Typed& value, const std::vector<ExprId>& target) const {
  return typer_.spread(value, target) != Spread::None;
}

/// Element counts agree, when both are known (movement may reshape a tile).
bool StatementChecker::same_elements(const std::vector<ExprId>& a, const std::vector<ExprId>& b) const {
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
}  // namespace cake
