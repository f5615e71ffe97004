// Ampere's data path into the tensor cores, per warp or per thread:
// cp.async tiles from global to shared memory, ldmatrix from shared memory
// into packed 16-bit mma_acc fragments, and mma.sync m16n8k16 over them.
// The fragment layout is values.cpp's (place(), packed_register()); the
// instructions are the prelude's macros (lower.cpp). See docs/lowering.md.
#include "emitter.h"

#include "cake/roles.h"

namespace cake::codegen {

void Emitter::cp_async(const Stmt& s, const MoveStmt& mv) {
  auto dst = tile_dims(mv.dst), src = tile_dims(mv.src);
  if (!dst || !src) return;
  const Symbol& to = m.symbols[root_symbol(m, mv.dst)];
  const Symbol& from = m.symbols[root_symbol(m, mv.src)];
  if (*dst != *src || dst->empty() || to.type.dtype != from.type.dtype)
    return refuse(s.range, "a cp.async between tiles of different shapes or types");
  int64_t element = dtype_bits(to.type.dtype) / 8;
  if (is_sub_byte_float(to.type.dtype)) return refuse(s.range, "a cp.async of 6- or 4-bit floats (TMA moves them)");
  if (element <= 0 || memory_type(to.type.dtype).empty()) return refuse(s.range, "a cp.async of this element type");
  // The pieces run along the contiguous dim of both buffers.
  auto rows_of = copy_rows(s, mv, *dst, "cp.async");
  if (!rows_of) return;
  int64_t rows = rows_of->rows, columns = rows_of->row;
  // The widest piece (16, 8 or 4 bytes) that divides a row and whose
  // start is aligned in both tiles (tensor bases are taken to be 16-byte
  // aligned: docs/lowering.md).
  int64_t aligned = std::min(alignment(mv.dst), alignment(mv.src)) * element;
  int64_t piece = 0;
  for (int64_t bytes : {16, 8, 4})
    if (bytes % element == 0 && (columns * element) % bytes == 0 && aligned % bytes == 0) {
      piece = bytes;
      break;
    }
  if (piece == 0) return refuse(s.range, "a cp.async whose rows or starts are not provably 4-byte aligned");
  int64_t per_piece = piece / element, pieces_per_row = columns / per_piece, pieces = rows * pieces_per_row;
  // The threads that move this tile together (move_share(), as the CPU
  // executor splits it): the role's, or a unit's, a warp's or one thread's
  // own tile when the operands read role.rank, warp.id or lane.
  int64_t threads = group_threads;
  std::string rank = group_rank;
  if (!elected) switch (move_share(m, eval, mv)) {
      case MoveShare::Thread: threads = 1, rank = "0"; break;
      case MoveShare::Warp: threads = 32, rank = "(int)cake_lane"; break;
      case MoveShare::Unit:
        if (role_kind == RoleSpec::Kind::Warpgroup) threads = 128, rank = "((int)threadIdx.x % 128)";
        else threads = 32, rank = "(int)cake_lane";
        break;
      case MoveShare::Role: break;
    }
  if (threads <= 0) return refuse(s.range, "a cp.async in a group of threads of unknown size");
  int64_t rounds = (pieces + threads - 1) / threads;
  // Piece p is in row p / pieces_per_row of the tile's rows (its outer
  // dims, in memory order), at column (p % pieces_per_row) * per_piece.
  auto coords = row_coordinates(*dst, rows_of->runs, "(cake_p / " + std::to_string(pieces_per_row) + ")",
                                "(cake_p % " + std::to_string(pieces_per_row) + " * " + std::to_string(per_piece) + ")");
  auto d = address(mv.dst, coords);
  auto g = address(mv.src, coords);
  if (!d || !g) return;
  // Piece p of the tile (in memory order) is copied by thread p % threads.
  line("#pragma unroll", s.range);
  line("for (int cake_j = 0; cake_j < " + std::to_string(rounds) + "; ++cake_j) {", s.range);
  line("  const int cake_p = " + rank + " + cake_j * " + std::to_string(threads) + ";", s.range);
  std::string copy = "CAKE_CP_ASYNC_" + std::to_string(piece) + "(&" + *d + ", &" + *g + ");";
  line(pieces % threads == 0 ? "  " + copy : "  if (cake_p < " + std::to_string(pieces) + ") " + copy, s.range);
  line("}", s.range);
}

/// The K of the mma.sync shape lowered for operands that take 32 bits of
/// a row per register: 32 bytes of a row (m16n8k32 of 8-bit values,
/// m16n8k8 of tf32 ones).
static int64_t operand_step(DType dtype) { return 256 / std::max(1u, dtype_bits(dtype)); }

/// The row each lane addresses in an `ldmatrix`/`stmatrix` of packed
/// fragment `f`'s registers from `first` (a C++ expression), as (row,
/// column) of the tile: lane l gives row l % 8 of the 8 x 8 block that
/// register first + l / 8 holds. With `trans` the fragment [K, N] keeps its
/// registers in the order of an [N, K] one: its register's block (n, k) is
/// the tile's block (k, n), whose rows the `.trans` form reads and hands
/// out transposed. In a `col_major` tile (`down`) a block's 16-byte runs
/// are its columns: lane l gives column l % 8, and the instruction's
/// transpose is the other way round (`trans != down`), so the registers
/// get the same values.
static ElementPlace matrix_row(const Emitter& x, FragShape f, bool trans, bool down, const std::string& first) {
  if (trans) std::swap(f.dims[0], f.dims[1]);
  ElementPlace block = x.packed_block(f, "(" + first + " + (int)cake_lane / 8)");
  if (trans) std::swap(block.row, block.col);
  if (down) return {"(8 * " + block.row + ")", "(8 * " + block.col + " + (int)cake_lane % 8)"};
  return {"(8 * " + block.row + " + (int)cake_lane % 8)", "(8 * " + block.col + ")"};
}

/// Whether the smem operand of an ldmatrix/stmatrix is a `col_major` tile.
static bool down_columns(const Module& m, ExprId smem) {
  SymbolId b = root_symbol(m, smem);
  return b != kNone && is_col_major(m.symbols[b].type);
}

std::optional<Emitter::MatrixView> Emitter::matrix_view(const Stmt& s, const MoveStmt& mv, ExprId reg, ExprId smem,
                                                        const std::string& op) {
  const Expr& r = m.exprs[reg];
  const std::string what = op == "ldmatrix" ? "an ldmatrix into" : "a stmatrix from";
  if (r.kind != Expr::Kind::Name || r.symbol == kNone) {
    refuse(r.range, what + " something other than a fragment");
    return std::nullopt;
  }
  auto f = fragment(r.symbol, r.range);
  auto tile = tile_dims(smem);
  if (!f || !tile) return std::nullopt;
  bool wgmma = f->layout == FragLayout::WgmmaAcc;
  // 8-bit fragments: stmatrix only (ldmatrix fills them in operand order).
  bool eight = f->per_register() == 4 && op == "stmatrix";
  if ((f->per_register() != 2 && !eight) || (f->layout != FragLayout::MmaAcc && !wgmma) || f->dims.size() != 2) {
    refuse(r.range, what + " other than a 16-bit (or, stored, 8-bit) mma_acc or wgmma_acc fragment");
    return std::nullopt;
  }
  if (eight && (mv.trans || f->dims[0] % 16 != 0 || f->dims[1] % 32 != 0)) {
    refuse(mv.trans ? s.range : r.range, "a stmatrix of 8-bit values other than from 16-row, 32-column tiles, without `trans`");
    return std::nullopt;
  }
  if (*tile != f->dims) {
    refuse(s.range, "a" + std::string(op == "ldmatrix" ? "n " : " ") + op + " whose tile is not the fragment's shape");
    return std::nullopt;
  }
  // `trans` puts the registers in the order of the fragment's transpose,
  // which must itself be whole 16 x 8 tiles (so its count is a multiple of
  // 4); only mma reads that order, and mma's fragments are mma_acc.
  if (mv.trans && (wgmma || f->dims[1] % 16 != 0)) {
    refuse(s.range, wgmma ? "`" + op + " ... trans` of a wgmma_acc fragment"
                          : "a" + std::string(op == "ldmatrix" ? "n " : " ") + op +
                                " ... trans of a fragment whose columns are not a multiple of 16 (its transpose is not "
                                "whole 16 x 8 tiles)");
    return std::nullopt;
  }
  // A wgmma_acc [64, N] is, in each warp w, the mma_acc [16, N] layout of
  // the warpgroup's rows 16 (w % 4) .. + 15 (values.cpp's split_place()).
  MatrixView view{*f, r.symbol, ""};
  if (wgmma) {
    view.warp.layout = FragLayout::MmaAcc;
    view.warp.dims = {16, f->dims[1]};
    view.row_offset = "16 * (int)(cake_warp % 4) + ";
  }
  return view;
}

void Emitter::ldmatrix(const Stmt& s, const MoveStmt& mv) {
  const Expr& r = m.exprs[mv.dst];
  if (r.kind == Expr::Kind::Name && r.symbol != kNone && operand_order(r.symbol)) {
    auto f = fragment(r.symbol, r.range);
    auto tile = tile_dims(mv.src);
    if (down_columns(m, mv.src)) return refuse(s.range, "an ldmatrix of 8-bit or tf32 values from a col_major tile (no such transpose)");
    if (f && tile) ldmatrix_operand_order(s, mv, *f, *tile);
    return;
  }
  auto view = matrix_view(s, mv, mv.dst, mv.src, "ldmatrix");
  if (!view) return;
  bool down = down_columns(m, mv.src);
  matrix_quads(s, view->warp, [&](const std::string& count, const std::string& first) -> std::optional<std::string> {
    ElementPlace row = matrix_row(*this, view->warp, mv.trans, down, first);
    auto at = address(mv.src, view->tile_row(row.row), row.col, 2);
    if (!at) return std::nullopt;
    return "CAKE_LDMATRIX_X" + count + (mv.trans != down ? "_TRANS" : "") + "(&" + name(view->symbol) + "[" + first + "], &" + *at + ");";
  });
}

void Emitter::matrix_quads(const Stmt& s, const FragShape& f,
                           const std::function<std::optional<std::string>(const std::string&, const std::string&)>& with) {
  // Four registers (.x4) per step q; then a pair (an odd number of 16 x 8
  // tiles) as .x2, whose lanes 16-31 give addresses the instruction does
  // not use, and a last register (a half tile's, an odd multiple of 8
  // rows) as .x1, which reads lanes 0-7's.
  int64_t quads = f.registers() / 4, rest = f.registers() % 4;
  if (quads > 0) {
    auto call = with("4", "4 * cake_q");
    if (!call) return;
    line("#pragma unroll", s.range);
    line("for (int cake_q = 0; cake_q < " + std::to_string(quads) + "; ++cake_q)", s.range);
    line("  " + *call, s.range);
  }
  int64_t next = 4 * quads;
  for (int64_t count : {2, 1})
    if (rest >= count) {
      auto call = with(std::to_string(count), std::to_string(next));
      if (!call) return;
      line(*call, s.range);
      rest -= count;
      next += count;
    }
}

void Emitter::ldmatrix_operand_order(const Stmt& s, const MoveStmt& mv, const FragShape& f, const std::vector<int64_t>& tile) {
  const Expr& r = m.exprs[mv.dst];
  int64_t step = operand_step(f.dtype);
  if (mv.trans || f.layout != FragLayout::MmaAcc || f.dims.size() != 2 || f.dims[0] % 16 != 0 || f.dims[1] % step != 0)
    return refuse(mv.trans ? s.range : r.range,
                  "an ldmatrix of 8-bit or tf32 values other than into an mma_acc fragment of 16-row, 32-byte-wide "
                  "tiles, without `trans`");
  if (tile != f.dims) return refuse(s.range, "an ldmatrix whose tile is not the fragment's shape");
  // Per 16-row tile and k-step q (registers 4q .. 4q + 3): matrix j of the
  // .x4 is rows 8 (j % 2) .., bytes 16 (j / 2) .. of the 16 x 32-byte
  // block, so lane l addresses row 8 ((l / 8) % 2) + l % 8, byte 16 (l / 16);
  // each lane receives row l / 4, bytes 4 (l % 4) .. + 3 of each: the
  // m16n8k32 operand's a0 .. a3 (CAKE_F8_OPERAND's order), or m16n8k8's
  // (tf32: the value in column l % 4, then 4 on; CAKE_TF32_OPERAND's).
  std::string steps = std::to_string(f.dims[1] / step);
  std::string row = "(16 * (cake_q / " + steps + ") + 8 * ((int)cake_lane / 8 % 2) + (int)cake_lane % 8)";
  std::string col = "(" + std::to_string(step) + " * (cake_q % " + steps + ") + " + std::to_string(step / 2) +
                    " * ((int)cake_lane / 16))";
  auto at = address(mv.src, row, col, 2);
  if (!at) return;
  std::string into = "&" + name(r.symbol) + "[4 * cake_q]";
  line("#pragma unroll", s.range);
  line("for (int cake_q = 0; cake_q < " + std::to_string(f.registers() / 4) + "; ++cake_q)" +
           (f.dtype == DType::TF32 ? " {" : ""),
       s.range);
  if (f.dtype != DType::TF32) return line("  CAKE_LDMATRIX_X4(" + into + ", &" + *at + ");", s.range);
  // A tf32 fragment is floats: ldmatrix's .b32 registers are their bits.
  line("  unsigned cake_m[4];", s.range);
  line("  CAKE_LDMATRIX_X4(cake_m, &" + *at + ");", s.range);
  line("  for (int cake_j = 0; cake_j < 4; ++cake_j) " + name(r.symbol) + "[4 * cake_q + cake_j] = __uint_as_float(cake_m[cake_j]);",
       s.range);
  line("}", s.range);
}

void Emitter::stmatrix(const Stmt& s, const MoveStmt& mv) {
  auto view = matrix_view(s, mv, mv.src, mv.dst, "stmatrix");
  if (!view) return;
  bool down = down_columns(m, mv.dst);
  if (view->warp.per_register() == 4) {
    if (down) return refuse(s.range, "a stmatrix of 8-bit values into a col_major tile (no 8-bit transpose)");
    return stmatrix_8bit(s, mv, *view);
  }
  // ldmatrix's inverse, register for register.
  matrix_quads(s, view->warp, [&](const std::string& count, const std::string& first) -> std::optional<std::string> {
    ElementPlace row = matrix_row(*this, view->warp, mv.trans, down, first);
    auto at = address(mv.dst, view->tile_row(row.row), row.col, 2);
    if (!at) return std::nullopt;
    return "CAKE_STMATRIX_X" + count + (mv.trans != down ? "_TRANS" : "") + "(&" + *at + ", &" + name(view->symbol) + "[" + first + "]);";
  });
}

void Emitter::stmatrix_8bit(const Stmt& s, const MoveStmt& mv, const MatrixView& view) {
  // Per 16-row tile t and 32-byte step q, the four registers ldmatrix would
  // have filled (ldmatrix_operand_order()): as they are for a fragment in
  // that order, else gathered from the accumulator layout (CAKE_F8_OPERAND),
  // each lane addressing the row and 16 bytes ldmatrix's would.
  const FragShape& f = view.warp;
  std::string steps = std::to_string(f.dims[1] / 32), per_tile = std::to_string(f.dims[1] / 8);
  std::string row = view.tile_row("(16 * (cake_q / " + steps + ") + 8 * ((int)cake_lane / 8 % 2) + (int)cake_lane % 8)");
  std::string col = "(32 * (cake_q % " + steps + ") + 16 * ((int)cake_lane / 16))";
  auto at = address(mv.dst, row, col, 2);
  if (!at) return;
  std::string frag = name(view.symbol);
  line("#pragma unroll", s.range);
  line("for (int cake_q = 0; cake_q < " + std::to_string(f.registers() / 4) + "; ++cake_q) {", s.range);
  if (operand_order(view.symbol)) {
    line("  CAKE_STMATRIX_X4(&" + *at + ", &" + frag + "[4 * cake_q]);", s.range);
  } else {
    line("  unsigned cake_m[4];", s.range);
    line("  CAKE_F8_OPERAND(cake_m, &" + frag + "[cake_q / " + steps + " * " + per_tile + " + 4 * (cake_q % " + steps +
             ")], cake_lane);",
         s.range);
    line("  CAKE_STMATRIX_X4(&" + *at + ", cake_m);", s.range);
  }
  line("}", s.range);
}

std::string Emitter::operand_gather(DType dtype) {
  if (dtype == DType::TF32) return "CAKE_TF32_OPERAND";
  return dtype_bits(dtype) == 8 ? "CAKE_F8_OPERAND" : "";
}

void Emitter::zero_accumulator(const Stmt& s, const MmaStmt& n, const FragShape& acc, const std::string& c) {
  // `=` starts from zero; `+=` with `accumulate(P)` does where P fails
  // (D = A·B), as the CPU executor has it.
  if (n.accumulate_into && n.accumulate == kNone) return;
  std::string zero = "for (int cake_i = 0; cake_i < " + std::to_string(acc.registers()) + "; ++cake_i) " + c +
                     "[cake_i] = " + (is_float(acc.dtype) ? "0.0f;" : "0;");
  line("#pragma unroll", s.range);
  line(n.accumulate_into ? "if (!(" + condition(n.accumulate) + ")) " + zero : zero, s.range);
}

void Emitter::mma_sync(const Stmt& s, const MmaStmt& n) {
  const Expr &acc = m.exprs[n.acc], &a = m.exprs[n.a], &bt = m.exprs[n.b];
  // B: an [N, K] fragment used as `.T`, or a [K, N] one `ldmatrix ... trans`
  // filled, whose registers are in the [N, K] order already.
  bool b_transposed = bt.kind == Expr::Kind::Name && transposed(bt.symbol);
  if (bt.kind != Expr::Kind::Transpose && !b_transposed)
    return refuse(bt.range, "an mma whose B operand is neither an [N, K] fragment used as `.T` nor a [K, N] one that "
                            "`ldmatrix ... trans` fills");
  const Expr& b = b_transposed ? bt : m.exprs[bt.lhs];
  for (const Expr* e : {&acc, &a, &b})
    if (e->kind != Expr::Kind::Name || e->symbol == kNone) return refuse(e->range, "an mma operand that is not a fragment");
  auto fc = fragment(acc.symbol, acc.range), fa = fragment(a.symbol, a.range), fb = fragment(b.symbol, b.range);
  if (!fc || !fa || !fb) return;
  if (b_transposed && fb->dims.size() == 2) std::swap(fb->dims[0], fb->dims[1]);  // its registers' [N, K] order
  if (fa->per_register() == 4 || fb->per_register() == 4 || fa->dtype == DType::TF32 || fb->dtype == DType::TF32)
    return mma_sync_gathered(s, n, {*fc, *fa, *fb}, {acc.symbol, a.symbol, b.symbol});
  if (fc->layout != FragLayout::MmaAcc || fc->dtype != DType::F32 || fa->per_register() != 2 || fb->per_register() != 2 ||
      fa->layout != FragLayout::MmaAcc || fb->layout != FragLayout::MmaAcc || fa->dtype != fb->dtype)
    return refuse(s.range, "an mma other than f32 mma_acc += 16-bit mma_acc @ (16-bit mma_acc).T");
  int64_t M = fc->dims[0], N = fc->dims[1], K = fa->dims[1];
  if (fa->dims[0] != M || fb->dims[0] != N || fb->dims[1] != K || K % 16 != 0 || N % 8 != 0 || M % 16 != 0)
    return refuse(s.range, "an mma whose fragments' shapes do not match (m16n8k16 tiles)");
  std::string type = "\"" + std::string(mma_type(fa->dtype)) + "\"";
  std::string c = name(acc.symbol), an = name(a.symbol), bn = name(b.symbol);
  zero_accumulator(s, n, *fc, c);
  // m16n8k16 tile (i, j, k): D is acc tile (i, j), four registers; A the
  // blocks (2i .. 2i + 1, 2k .. 2k + 1) of a, in register order; B the
  // blocks (j, 2k) and (j, 2k + 1) of b (an n8 tile is one block row).
  line("#pragma unroll", s.range);
  line("for (int cake_m = 0; cake_m < " + std::to_string(M / 16) + "; ++cake_m)", s.range);
  line("#pragma unroll", s.range);
  line("for (int cake_n = 0; cake_n < " + std::to_string(N / 8) + "; ++cake_n)", s.range);
  line("#pragma unroll", s.range);
  line("for (int cake_k = 0; cake_k < " + std::to_string(K / 16) + "; ++cake_k)", s.range);
  line("  CAKE_MMA_M16N8K16(" + type + ", &" + c + "[4 * (cake_m * " + std::to_string(N / 8) +
           " + cake_n)], &" + an + "[" + packed_register(*fa, "2 * cake_m", "2 * cake_k") + "], " + bn + "[" +
           packed_register(*fb, "cake_n", "2 * cake_k") + "], " + bn + "[" +
           packed_register(*fb, "cake_n", "2 * cake_k + 1") + "]);",
       s.range);
}

void Emitter::mma_sync_gathered(const Stmt& s, const MmaStmt& n, const std::array<FragShape, 3>& f,
                                const std::array<SymbolId, 3>& sym) {
  const FragShape &fc = f[0], &fa = f[1], &fb = f[2];
  // 8-bit floats or tf32 into f32, or 8-bit integers (s8, u8) into s32.
  const bool integers = is_int8(fa.dtype), tf32 = fa.dtype == DType::TF32;
  auto operand = [&](const FragShape& f) {
    return f.layout == FragLayout::MmaAcc && f.dims.size() == 2 &&
           (integers ? is_int8(f.dtype) : tf32 ? f.dtype == DType::TF32 : is_fp8(f.dtype));
  };
  if (fc.layout != FragLayout::MmaAcc || fc.dtype != (integers ? DType::I32 : DType::F32) || !operand(fa) || !operand(fb))
    return refuse(s.range, "an mma other than f32 mma_acc += 8-bit float or tf32 mma_acc @ (the same).T or i32 of s8/u8");
  int64_t M = fc.dims[0], N = fc.dims[1], K = fa.dims[1], step = operand_step(fa.dtype);
  // B's rows: whole 16-row tiles, and a last half tile (N an odd multiple
  // of 8: one n8 tile, rows g only) where B is in the accumulator layout.
  bool half = N % 16 == 8 && !operand_order(sym[2]);
  if (fa.dims[0] != M || fb.dims[0] != N || fb.dims[1] != K || K % step != 0 || (N % 16 != 0 && !half) || M % 16 != 0)
    return refuse(s.range, std::string("an mma whose fragments' shapes do not match (") +
                               (tf32 ? "m16n8k8" : "m16n8k32") + " tiles, B in 16-row tiles or a loaded B with a half tile)");
  std::string c = name(sym[0]), an = name(sym[1]), bn = name(sym[2]);
  // Registers of one 16-row tile of a or b: K values of 16 rows over 32 lanes.
  std::string per_tile = std::to_string(K * dtype_bits(fa.dtype) / 64), steps = std::to_string(K / step);
  std::string m16 = std::to_string(M / 16), n16 = std::to_string(N / 16), b_tiles = std::to_string((N + 8) / 16);
  zero_accumulator(s, n, fc, c);
  // Per k-step: each 16-row tile of a and of b as operand registers
  // (CAKE_F8_OPERAND, CAKE_TF32_OPERAND: from registers t per_tile + 4k ..
  // + 3, the step's four 8-column blocks of 8-bit values, one register
  // each, or its one block of tf32 values in the accumulator layout); an
  // n8 tile of b is rows g (even) or g + 8 (odd) of its 16-row tile:
  // registers 0 and 2, or 1 and 3.
  line("#pragma unroll", s.range);
  line("for (int cake_k = 0; cake_k < " + steps + "; ++cake_k) {", s.range);
  line("  unsigned cake_fa[" + m16 + "][4], cake_fb[" + b_tiles + "][4];", s.range);
  // An operand ldmatrix filled (operand_order()) is read as it is: tile t's
  // step k is its registers 4 (t steps + k) ...
  std::string gather = operand_gather(fa.dtype) + "(";
  auto gathered = [&](const std::string& array, SymbolId sym, const std::string& frag, const std::string& tiles) {
    line("#pragma unroll", s.range);
    std::string held = frag + "[4 * (cake_t * " + steps + " + cake_k) + cake_j]";
    if (operand_order(sym))
      line("  for (int cake_t = 0; cake_t < " + tiles + "; ++cake_t) for (int cake_j = 0; cake_j < 4; ++cake_j) " + array +
               "[cake_t][cake_j] = " + (tf32 ? "__float_as_uint(" + held + ")" : held) + ";",
           s.range);
    else
      line("  for (int cake_t = 0; cake_t < " + tiles + "; ++cake_t) " + gather + array + "[cake_t], &" + frag +
               "[cake_t * " + per_tile + " + 4 * cake_k], cake_lane);",
           s.range);
  };
  gathered("cake_fa", sym[1], an, m16);
  gathered("cake_fb", sym[2], bn, n16);
  // A half tile's k-step (values.cpp's MmaTiles: after the whole tiles'
  // values, two to a block): tf32 its values 2k, 2k + 1, 8-bit its
  // registers 2k, 2k + 1 (two blocks each); one row's gathering into
  // registers 0 and 2, which its (even) n8 tile reads.
  if (half) {
    std::string first = std::to_string(N / 16 * K / 2 / fa.per_register());
    line(std::string("  ") + (tf32 ? "CAKE_TF32_OPERAND_ROW" : "CAKE_F8_OPERAND_HALF") + "(cake_fb[" + n16 +
             "][0], cake_fb[" + n16 + "][2], " + bn + "[" + first + " + 2 * cake_k], " + bn + "[" + first +
             " + 2 * cake_k + 1], cake_lane);",
         s.range);
  }
  std::string instruction =
      tf32       ? std::string("CAKE_MMA_M16N8K8_TF32(")
      : integers ? "CAKE_MMA_M16N8K32_S32(\"" + std::string(mma_type(fa.dtype)) + "\", \"" + std::string(mma_type(fb.dtype)) + "\", "
                 : "CAKE_MMA_M16N8K32(\"" + std::string(mma_type(fa.dtype)) + "\", \"" + std::string(mma_type(fb.dtype)) + "\", ";
  line("#pragma unroll", s.range);
  line("  for (int cake_m = 0; cake_m < " + m16 + "; ++cake_m)", s.range);
  line("#pragma unroll", s.range);
  line("    for (int cake_n = 0; cake_n < " + std::to_string(N / 8) + "; ++cake_n)", s.range);
  line("      " + instruction + "&" + c + "[4 * (cake_m * " + std::to_string(N / 8) +
           " + cake_n)], cake_fa[cake_m], cake_fb[cake_n / 2][cake_n % 2], cake_fb[cake_n / 2][2 + cake_n % 2]);",
       s.range);
  line("}", s.range);
}

}  // namespace cake::codegen
