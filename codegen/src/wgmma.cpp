// Hopper's warpgroup MMA: `wgmma acc (+)= A @ B.T` with B in shared memory,
// K-major and swizzled, and A there too or in registers (a 16-bit
// wgmma_acc fragment), as wgmma.mma_async m64nNk16 with a matrix descriptor
// per shared-memory operand and k-step, and its fence, commit and wait.
// The descriptor (PTX ISA, "Matrix Descriptor Format" of the asynchronous
// warpgroup-level matrix shared-memory layout) is built by the prelude's
// CAKE_WGMMA_DESC; the instruction, whose operand list depends on N, by a
// macro written once per translation unit. See docs/lowering.md.
#include "emitter.h"

#include "cake/ops.h"
#include "cake/roles.h"

namespace cake::codegen {
namespace {

/// The descriptor's swizzle mode (bits 62-63): 1 for 128B, 2 for 64B, 3
/// for 32B; none is 0 (an unswizzled operand is refused: it needs core
/// matrices, not rows).
int descriptor_mode(Swizzle s) {
  switch (s) {
    case Swizzle::B128: return 1;
    case Swizzle::B64: return 2;
    case Swizzle::B32: return 3;
    case Swizzle::None: return 0;
  }
  return 0;
}

/// The K of one wgmma instruction: 32 bytes of each operand row (k16 for
/// 16-bit types, k32 for 8-bit ones, k8 for tf32).
int64_t wgmma_k(DType dtype) { return mma_k_bits(Op::Wgmma) / std::max(1u, dtype_bits(dtype)); }

}  // namespace

bool Emitter::whole_row_groups(ExprId e, const Symbol& buffer) {
  // The descriptor walks the tile 8 rows (one swizzle pattern) at a time,
  // rows a span apart, from a pattern's start (base offset 0): the tile's
  // rows must be the buffer's whole rows (its last dim not sliced) and
  // its first row a multiple of 8 rows into the buffer's tile (stages are
  // placed a whole pattern apart).
  // Rows and columns are the buffer's in memory order: a `col_major`
  // buffer's rows are its columns (docs/language.md, "Element order").
  // Its rows are neighbours (nothing fixes or narrows a dim between the
  // tile's two) and whole (the contiguous dim whole: `dense` from there).
  auto t = tile_in_buffer(m, eval, e);
  if (!t || t->gap || !t->whole_rows) return false;
  const std::vector<IndexItem>& items = t->operand.items;
  const std::vector<ExprId>& dims = buffer.type.dims;
  size_t stages = buffer.type.stage_dims.size();
  auto kind = [&](size_t d) { return d < items.size() ? items[d].kind : IndexItem::Kind::Full; };
  int64_t below = 1;  // rows of the buffer's tile per step of dim d
  for (size_t i = t->order.size() - 1; i-- > stages;) {
    size_t d = t->order[i];
    if (kind(d) != IndexItem::Kind::Full) {
      if (std::min<int64_t>(multiple_of(items[d].start), 8) * below % 8 != 0) return false;
    }
    auto extent = eval.fold(dims[d - stages]);
    if (!extent) return false;
    below *= *extent;
  }
  return true;
}

std::optional<Emitter::MmaSmemOperand> Emitter::mma_smem_operand(ExprId written, Op op, MmaSide side) {
  // A tile whose rows are one swizzle span, in 8-row groups: K-major
  // ([MN, K]) or MN-major ([K, MN]), which the operand's `.T` tells apart.
  const Expr& w = m.exprs[written];
  bool transposed = w.kind == Expr::Kind::Transpose && side != MmaSide::Copy;
  ExprId e = transposed ? w.lhs : written;
  bool mn_major = side != MmaSide::Copy && mma_operand_mn_major(m, written, side == MmaSide::A);
  const Expr& x = m.exprs[e];
  const std::string name(op_spelling(op));
  SymbolId buffer = root_symbol(m, e);
  if (buffer == kNone || m.symbols[buffer].kind != SymbolKind::Smem) {
    refuse(x.range, "a " + name + " operand outside shared memory");
    return std::nullopt;
  }
  const Symbol& b = m.symbols[buffer];
  auto dims = tile_dims(e);
  if (!dims) return std::nullopt;
  if (dims->size() != 2) {
    refuse(x.range, "a " + name + " operand that is not a 2-D tile");
    return std::nullopt;
  }
  // The tile as memory holds it: [rows, contiguous]. K-major is [MN, K],
  // MN-major [K, MN]; a col_major tile's rows are its columns.
  std::vector<int64_t> held = *dims;
  if (b.type.order == Order::ColMajor) {
    if (b.type.dims.size() != 2) {
      refuse(x.range, "a " + name + " operand from a col_major buffer of rank other than 2");
      return std::nullopt;
    }
    if (side == MmaSide::Copy) {
      refuse(x.range, "a tcgen05.cp from a col_major tile (it copies rows of shared memory into lanes)");
      return std::nullopt;
    }
    std::swap(held[0], held[1]);
  }
  MmaSmemOperand out;
  out.mn_major = mn_major;
  out.rows = held[mn_major ? 1 : 0];
  out.k = held[mn_major ? 0 : 1];
  out.swizzle = b.type.swizzle;
  out.dtype = b.type.dtype;
  const SwizzleRule* rule = target.swizzle(out.swizzle);
  int64_t row_bytes = held[1] * stored_bits(out.dtype) / 8;  // a byte per 6- or 4-bit float
  if (mn_major && is_sub_byte_float(out.dtype)) {
    refuse(x.range, "an MN-major " + name + " operand of " + std::string(dtype_name(out.dtype)) + " (its 16-value chunks run along K)");
    return std::nullopt;
  }
  if (out.swizzle == Swizzle::None || !rule || row_bytes != rule->span.value || held[0] % 8 != 0 ||
      !whole_row_groups(e, b)) {
    refuse(x.range, mn_major ? "a " + name + " operand whose rows are not one swizzle span (MN-major [K, MN], swizzled, 8-row groups)"
                             : "a " + name + " operand whose rows are not one swizzle span (K-major, swizzled, 8-row groups)");
    return std::nullopt;
  }
  // An instruction's k-step takes 32 bytes of each row of A and B: along a
  // K-major row, or that many K rows of an MN-major tile (PTX ISA, the
  // MN-major canonical layouts: K rows a span apart, 8-row groups SBO
  // apart, the same SBO as K-major rows).
  if (mn_major) out.step_bytes = int64_t(mma_k_bits(op) / dtype_bits(out.dtype)) * rule->span.value;
  auto at = address(e, "0", "0", 2);
  if (!at) return std::nullopt;
  out.base = "&" + *at;
  return out;
}

std::optional<std::pair<int64_t, int64_t>> Emitter::register_columns(ExprId e, const FragShape& f, int64_t step) {
  const Expr& x = m.exprs[e];
  auto constant = [&](ExprId v) { return v == kNone ? std::nullopt : eval.fold(v); };
  bool ok = x.kind == Expr::Kind::Index && m.exprs[x.lhs].kind == Expr::Kind::Name && x.items.size() == 2 &&
            f.dims.size() == 2;
  int64_t first = 0, extent = ok ? f.dims[1] : 0;
  if (ok) {
    const IndexItem &rows = x.items[0], &columns = x.items[1];
    auto row_start = constant(rows.start), row_extent = constant(rows.extent);
    ok = rows.kind == IndexItem::Kind::Full ||
         (rows.kind == IndexItem::Kind::Slice && row_start == 0 && row_extent == f.dims[0]);
    if (columns.kind == IndexItem::Kind::Slice) {
      auto start = constant(columns.start), width = constant(columns.extent);
      ok = ok && start && width && *start >= 0 && *width > 0 && *start + *width <= f.dims[1];
      if (ok) first = *start, extent = *width;
    } else {
      ok = ok && columns.kind == IndexItem::Kind::Full;
    }
  }
  if (!ok || first % step != 0 || extent % step != 0) {
    refuse(x.range, "a register operand other than a whole fragment or all its rows and a constant slice of columns "
                    "in whole k-steps (" + std::to_string(step) + " columns)");
    return std::nullopt;
  }
  return std::pair{first, extent};
}

std::string Emitter::wgmma_macro(int64_t n, DType dtype, bool a_in_registers, bool trans_a, bool trans_b) {
  // The PTX type of A and B (f8e4m3 is .e4m3).
  int64_t k = wgmma_k(dtype);
  // Only the 16-bit forms take transpose immediates (PTX ISA,
  // wgmma.mma_async: imm-trans-a/b are for .f16 and .bf16).
  bool transposable = dtype_bits(dtype) == 16;
  // 8-bit integers accumulate in s32 (registers "+r") and take no scale
  // immediates (PTX ISA, wgmma.mma_async: imm-scale-a/b are for floats).
  bool integer = !is_float(dtype);
  std::string type(mma_type(dtype));
  std::string upper = type;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  std::string macro = "CAKE_WGMMA_M64N" + std::to_string(n) + "K" + std::to_string(k) + "_" + upper +
                      (a_in_registers ? "_RS" : "") + (trans_a ? "_TA" : "") + (trans_b ? "_TB" : "");
  if (!define_once(macro)) return macro;
  int64_t regs = n / 2;  // f32 (s32) accumulators per thread
  std::string list, outs, constraint = integer ? "\"+r\"" : "\"+f\"";
  for (int64_t i = 0; i < regs; ++i) {
    list += (i ? ", %" : "%") + std::to_string(i);
    outs += std::string(i ? ", " : "") + constraint + "((d)[" + std::to_string(i) + "])";
    if (i % 8 == 7 && i + 1 < regs) outs += " \\\n      ";
  }
  auto operand = [&](int64_t i) { return "%" + std::to_string(regs + i); };
  // A: its descriptor, or the four .b32 registers of a k16 step (PTX ISA,
  // wgmma.mma_async: the register form has no imm-trans-a).
  std::string a = a_in_registers ? "{" + operand(0) + ", " + operand(1) + ", " + operand(2) + ", " + operand(3) + "}"
                                 : operand(0);
  int64_t after_a = a_in_registers ? 4 : 1;
  std::string b = operand(after_a), scale = operand(after_a + 1);
  std::string host = a_in_registers ? "CAKE_WGMMA_HOST_RS" : "CAKE_WGMMA_HOST";
  std::string& out = definitions_;
  out += "#ifdef " + host + "\n";
  out += "#define " + macro + "(d, a, db, scale_d) " + host + "(" + std::to_string(n) + ", \"" + type +
         "\", (d), (a), (db), (scale_d), " + (a_in_registers ? "" : trans_a ? "1, " : "0, ") + (trans_b ? "1" : "0") + ")\n";
  out += "#else\n";
  out += "// d (" + std::to_string(regs) + (integer ? " s32" : " f32") + ") = A (" +
         (a_in_registers ? "four .b32 registers at a" : "descriptor a") +
         ") @ B (descriptor db), plus d when scale_d is not 0.\n";
  out += "#define " + macro + "(d, a, db, scale_d) \\\n";
  out += "  asm volatile(\"{ .reg .pred cake_p; setp.ne.b32 cake_p, " + scale + ", 0; \" \\\n";
  // The 16-bit forms take the transpose immediates (0: K-major, 1:
  // MN-major); the 8-bit and tf32 forms have none (their operands are
  // K-major only).
  std::string ta = trans_a ? "1" : "0", tb = trans_b ? "1" : "0";
  std::string transpose = !transposable ? "" : a_in_registers ? ", " + tb : ", " + ta + ", " + tb;
  std::string scales = integer ? "" : ", 1, 1";
  out += "      \"wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" + std::to_string(k) + (integer ? ".s32." : ".f32.") +
         type + "." + type + " {" + list + "}, " + a + ", " + b + ", cake_p" + scales + transpose + "; }\" \\\n";
  out += "      : " + outs + " \\\n";
  out += a_in_registers ? "      : \"r\"((a)[0]), \"r\"((a)[1]), \"r\"((a)[2]), \"r\"((a)[3]), \"l\"(db), "
                          "\"r\"((unsigned)(scale_d)))\n"
                        : "      : \"l\"(a), \"l\"(db), \"r\"((unsigned)(scale_d)))\n";
  out += "#endif\n";
  return macro;
}

void Emitter::wgmma(const Stmt& s, const MmaStmt& n) {
  const Expr &acc = m.exprs[n.acc], &a = m.exprs[n.a];
  if (acc.kind != Expr::Kind::Name || acc.symbol == kNone) return refuse(acc.range, "a wgmma accumulator that is not a fragment");
  auto fc = fragment(acc.symbol, acc.range);
  if (!fc) return;
  if (fc->layout != FragLayout::WgmmaAcc || (fc->dtype != DType::F32 && fc->dtype != DType::I32))
    return refuse(acc.range, "a wgmma accumulator other than an f32 or i32 wgmma_acc fragment");
  // B is an [N, K] tile used as `.T` (K-major) or a [K, N] one (N-major,
  // which only the 16-bit forms' imm-trans-b reads); A in shared memory
  // likewise an [M, K] tile or a [K, M] one used as `.T` (imm-trans-a).
  auto b_side = mma_smem_operand(n.b, Op::Wgmma, MmaSide::B);
  if (!b_side) return;
  const MmaSmemOperand& B = *b_side;
  // A from registers: a 16-bit wgmma_acc fragment [64, K], whose registers
  // 4k .. 4k + 3 are the A operand of k16 step k (the mma.sync A layout of
  // each warp's 16 rows: docs/lowering.md), or an 8-bit or tf32 one, whose
  // registers 4k .. 4k + 3 hold what k32 (k8) step k's operand is gathered
  // from.
  // Or a column slice of one (`p[:, 64 : 64]`: FlashAttention's P split
  // along K over two B tiles), whose k-steps start `a_first` registers in.
  SymbolId a_reg = root_symbol(m, n.a);
  bool a_in_registers = a_reg != kNone && m.symbols[a_reg].kind == SymbolKind::Reg;
  std::optional<MmaSmemOperand> a_side;
  DType a_dtype = DType::Unknown;
  int64_t a_rows = 0, a_k = 0, a_first = 0;
  if (a_in_registers) {
    auto fa = fragment(a_reg, a.range);
    if (!fa) return;
    if (fa->layout != FragLayout::WgmmaAcc || (fa->per_register() != 2 && fa->per_register() != 4 && fa->dtype != DType::TF32) ||
        fa->dims.size() != 2)
      return refuse(a.range, "a wgmma A operand in registers other than a 16- or 8-bit or tf32 wgmma_acc fragment");
    a_dtype = fa->dtype;
    a_rows = fa->dims[0];
    a_k = fa->dims[1];
    if (a.kind != Expr::Kind::Name) {
      auto columns = register_columns(n.a, *fa, wgmma_k(a_dtype));
      if (!columns) return;
      a_first = 4 * (columns->first / wgmma_k(a_dtype));  // four registers a k-step
      a_k = columns->second;
    }
  } else {
    a_side = mma_smem_operand(n.a, Op::Wgmma, MmaSide::A);
    if (!a_side) return;
    a_dtype = a_side->dtype;
    a_rows = a_side->rows;
    a_k = a_side->k;
  }
  bool f8 = is_fp8(a_dtype);
  // 8-bit integers (s8, u8) into i32; the float types into f32.
  bool integers = is_int8(a_dtype);
  bool floats = a_dtype == DType::BF16 || a_dtype == DType::F16 || a_dtype == DType::TF32 || f8;
  bool trans_a = a_side && a_side->mn_major, trans_b = B.mn_major;
  if (a_dtype != B.dtype || !(integers || floats) || fc->dtype != (integers ? DType::I32 : DType::F32) || a_k != B.k ||
      a_rows != 64 || B.rows != fc->dims[1] || a_k % wgmma_k(a_dtype) != 0 || B.rows % 8 != 0 || B.rows > 256 ||
      ((trans_a || trans_b) && dtype_bits(a_dtype) != 16))
    return refuse(s.range, "a wgmma other than f32 [64, N] += bf16/f16/tf32/f8e4m3/f8e5m2 [64, K] @ [N, K].T or i32 of "
                           "s8/u8 (one type for A and B; MN-major tiles, [K, N] B or [K, M] A as `.T`, bf16/f16 only)");
  std::string macro = wgmma_macro(B.rows, a_dtype, a_in_registers, trans_a, trans_b);
  std::string c = name(acc.symbol);
  // One instruction per K step (k16, k32 for 8-bit types, k8 for tf32); its
  // descriptors start 32 bytes further along the swizzled row (K-major),
  // or 16 rows of spans further down the tile (MN-major). `=` zeroes at the
  // first step.
  auto desc = [&](const MmaSmemOperand& x) {
    const SwizzleRule* rule = target.swizzle(x.swizzle);
    return "CAKE_WGMMA_DESC((const unsigned char*)" + x.base + " + " + std::to_string(x.step_bytes) + " * cake_k, " +
           std::to_string(8 * rule->span.value) + ", " + std::to_string(descriptor_mode(x.swizzle)) + ")";
  };
  std::string first_register = a_first ? std::to_string(a_first) + " + " : "";
  std::string a_operand = a_in_registers ? "&" + name(a_reg) + "[" + first_register + "4 * cake_k]" : desc(*a_side);
  // 8-bit A in registers (floats or integers: the gathering moves bytes)
  // and tf32 A: the accumulator layout's registers are not the operand's
  // (four values of a row, two rows a register, against four columns of
  // one row; two neighbouring columns against columns t and t + 4), so
  // each step's four operand registers are gathered from the warp's lanes
  // first (CAKE_F8_OPERAND, CAKE_TF32_OPERAND), and a wgmma.fence orders
  // those register writes before the wgmma reads them.
  std::string gather = a_in_registers ? operand_gather(a_dtype) : "";
  bool gathered = !gather.empty();
  if (gathered) {
    std::string steps = std::to_string(a_k / wgmma_k(a_dtype));
    line("{", s.range);
    line("unsigned cake_ga[" + steps + "][4];", s.range);
    line("#pragma unroll", s.range);
    line("for (int cake_k = 0; cake_k < " + steps + "; ++cake_k) " + gather + "(cake_ga[cake_k], &" + name(a_reg) + "[" +
             first_register + "4 * cake_k], cake_lane);",
         s.range);
    line("CAKE_WGMMA_FENCE();", s.range);
    a_operand = "cake_ga[cake_k]";
  }
  // The first step adds to D for `+=` (where `accumulate(P)`'s P holds,
  // as the CPU executor has it), later steps always.
  std::string scale_d = !n.accumulate_into       ? "cake_k > 0"
                        : n.accumulate == kNone ? "1"
                                                : "cake_k > 0 || (" + condition(n.accumulate) + ")";
  line("#pragma unroll", s.range);
  line("for (int cake_k = 0; cake_k < " + std::to_string(a_k / wgmma_k(a_dtype)) + "; ++cake_k)", s.range);
  line("  " + macro + "(" + c + ", " + a_operand + ", " + desc(B) + ", " +
           scale_d + ");",
       s.range);
  if (gathered) line("}", s.range);
}

}  // namespace cake::codegen
