// Blackwell's tensor memory and its MMA (sm_100a): each `tmem` buffer
// allocated by warp 0 in the prologue (its address written to the 4 bytes
// of shared memory KernelFacts' layout gives it) and freed after a final
// barrier; `tcgen05.mma` as one instruction per 32 bytes of K (k16 of
// 16-bit operands, k32 of 8-bit ones) with a shared-memory descriptor per
// operand and an instruction descriptor;
// `tcgen05.commit` arriving on an mbarrier; `tcgen05.ld`/`st` over a
// warp's 32 lanes (.32x32b) or, for an `mma_acc` fragment, 16 at a time
// (.16x256b, .16x128b); their waits. The encodings are the PTX ISA's
// ("Tensor Memory", "Shared Memory Descriptor", "Instruction descriptor");
// the instructions are the prelude's macros (lower.cpp) or, when their
// operand list depends on a width, macros written once per unit. A
// `cta_group 2` kernel (CTA pairs) uses the _PAIR macros: .cta_group::2 on
// alloc, dealloc, MMA and commit, and the pair's M = 256 MMA. See
// docs/lowering.md.
#include "emitter.h"

#include "cake/ops.h"
#include "cake/roles.h"

#include <algorithm>
#include <bit>
#include <cctype>

namespace cake::codegen {
namespace {

/// The shared-memory descriptor's layout field (bits 61-63) for a
/// swizzle: 2 for 128B, 4 for 64B, 6 for 32B; 0 is no swizzle (refused
/// before: an unswizzled operand needs core matrices, not rows).
int descriptor_layout(Swizzle s) {
  switch (s) {
    case Swizzle::B128: return 2;
    case Swizzle::B64: return 4;
    case Swizzle::B32: return 6;
    case Swizzle::None: return 0;
  }
  return 0;
}

}  // namespace

bool Emitter::uses_tmem() const {
  for (const SmemSlot& slot : facts.on(target).smem.slots)
    if (slot.tmem_address) return true;
  return false;
}

void Emitter::tmem_prologue() {
  // Each buffer of the tmem plan has its address slot in the smem layout
  // (both are the kernel's top-level `tmem` declarations).
  std::vector<const TmemBuffer*> buffers;
  for (const TmemBuffer& b : facts.on(target).tmem.buffers) {
    if (b.valid && b.allocated) buffers.push_back(&b);
    else refuse(m.symbols[b.symbol].decl, "a tmem buffer whose columns are not a valid allocation");
  }
  if (buffers.empty()) return;
  ByteRange first = m.symbols[buffers.front()->symbol].decl;
  // One warp, whole and converged, allocates (tcgen05.alloc is .sync.aligned)
  // and gives up the right to allocate more, so that another CTA on the SM
  // is not kept waiting.
  std::string pair = kernel.cta_group == 2 ? "_PAIR" : "";
  line("if (cake_warp == 0) {", first);
  for (const TmemBuffer* b : buffers)
    line("  CAKE_TMEM_ALLOC" + pair + "(cake_tmem_slot_" + name(b->symbol) + ", " + std::to_string(*b->allocated) + ");",
         m.symbols[b->symbol].decl);
  line("  CAKE_TMEM_RELINQUISH" + pair + "();", first);
  line("}", first);
  // The address is read after the allocation, across a thread barrier.
  line("CAKE_TCGEN05_FENCE_BEFORE();", first);
  line("__syncthreads();", first);
  line("CAKE_TCGEN05_FENCE_AFTER();", first);
  for (const TmemBuffer* b : buffers)
    line("const unsigned " + name(b->symbol) + " = *(volatile unsigned*)cake_tmem_slot_" + name(b->symbol) +
             ";  // lane 0, its first column",
         m.symbols[b->symbol].decl);
}

void Emitter::tmem_epilogue() {
  const TmemPlan& plan = facts.on(target).tmem;
  bool any = false;
  for (const TmemBuffer& b : plan.buffers) {
    if (!b.valid || !b.allocated) continue;
    ByteRange decl = m.symbols[b.symbol].decl;
    if (!any) {
      // Every thread's tcgen05 work is ordered before the barrier, the
      // deallocation after it: every role reaches the kernel's end.
      line("CAKE_TCGEN05_FENCE_BEFORE();", decl);
      line("__syncthreads();", decl);
      line("if (cake_warp == 0) {", decl);
      line("  CAKE_TCGEN05_FENCE_AFTER();", decl);
    }
    any = true;
    line(std::string("  CAKE_TMEM_DEALLOC") + (kernel.cta_group == 2 ? "_PAIR" : "") + "(" + name(b.symbol) + ", " + std::to_string(*b.allocated) + ");", decl);
  }
  if (any) line("}", m.symbols[plan.buffers.front().symbol].decl);
}

void Emitter::tcgen05_mma(const Stmt& s, const MmaStmt& n) {
  SymbolId acc = root_symbol(m, n.acc);
  if (acc == kNone || m.symbols[acc].kind != SymbolKind::Tmem)
    return refuse(m.exprs[n.acc].range, "a tcgen05.mma accumulator outside tensor memory");
  SymbolId a_root = root_symbol(m, n.a);
  const bool a_tmem = a_root != kNone && m.symbols[a_root].kind == SymbolKind::Tmem;
  const bool pair = kernel.cta_group == 2;
  auto d = tmem_address(n.acc);
  auto tile = tile_dims(n.acc);
  // B: an [N, K] tile used as `.T` (K-major) or a [K, N] one (N-major:
  // the instruction descriptor's transpose-B bit); A in shared memory an
  // [M, K] tile or a [K, M] one used as `.T` (transpose-A).
  auto b_side = mma_smem_operand(n.b, Op::Tcgen05Mma, MmaSide::B);
  // Each k-step's descriptor starts 32 bytes further along a K-major row,
  // or that many K rows further down an MN-major tile.
  auto desc = [&](const MmaSmemOperand& x) {
    const SwizzleRule* rule = target.swizzle(x.swizzle);
    return "CAKE_UMMA_DESC((const unsigned char*)" + x.base + " + " + std::to_string(x.step_bytes) + " * cake_k, " +
           std::to_string(8 * rule->span.value) + ", " + std::to_string(descriptor_layout(x.swizzle)) + ")";
  };
  // A: a shared-memory descriptor (desc()); or, in tensor memory (the `[d], [a], bdesc` form), its row i in TMEM lane i,
  // its elements packed along the 32-bit columns, the lower k in the lower
  // bits (four 8-bit, two 16-bit or one tf32 a column: CUTLASS's
  // non-interleaved A fragments of the TS forms), so 8 columns (32 bytes)
  // further each step.
  int64_t a_rows = 0, k = 0;
  bool a_mn = false;
  DType a_dtype = DType::Unknown;
  std::string a_operand;
  if (a_tmem) {
    auto a = tmem_address(n.a);
    auto a_tile = tile_dims(n.a);
    if (!a || !a_tile || !d || !tile || !b_side) return;
    a_rows = a_tile->size() == 2 ? (*a_tile)[0] : 0;
    k = a_tile->size() == 2 ? (*a_tile)[1] : 0;
    a_dtype = m.symbols[a_root].type.dtype;
    a_operand = *a + " + 8 * cake_k";
  } else {
    auto a_side = mma_smem_operand(n.a, Op::Tcgen05Mma, MmaSide::A);
    if (!a_side || !d || !tile || !b_side) return;
    a_mn = a_side->mn_major;
    a_rows = a_side->rows;
    k = a_side->k;
    a_dtype = a_side->dtype;
    a_operand = desc(*a_side);
  }
  const MmaSmemOperand& B = *b_side;
  // cta_group::1 into f32 or s32 with M = 128: D row i is TMEM lane i,
  // column j its column j (PTX ISA, "Data path layout organization",
  // layout D); with M = 64, lane 32 (i / 16) + i % 16 (layout F). A CTA pair's (cta_group::2) M = 256: each CTA
  // holds 128 rows of A and of D (lane i, as for M = 128) and N / 2 rows
  // of B; the descriptors name this CTA's operands, the hardware reads the
  // peer's at the same offsets (layout A of M = 256). With A in tensor
  // memory, its rows 128 .. 255 are the peer's TMEM at the same address.
  int64_t rows = tile->size() == 2 ? (*tile)[0] : 0, columns = tile->size() == 2 ? (*tile)[1] : 0;
  int64_t n_cols = pair ? 2 * B.rows : B.rows, m_rows = pair ? 2 * a_rows : a_rows;
  // The kinds lowered: f16 (bf16 or f16 alike), tf32 and f8f6f4 (e4m3,
  // e5m2, e3m2, e2m3, e2m1, mixed) into f32, i8 (s8, u8) into s32, each
  // with A in shared or tensor memory (6- and 4-bit floats only from
  // shared memory, a byte each there: stored_bits()).
  Tcgen05Operand ka = tcgen05_operand(a_dtype), kb = tcgen05_operand(B.dtype);
  DType acc_dtype = m.symbols[acc].type.dtype;
  if (a_tmem && is_sub_byte_float(a_dtype))
    return refuse(m.exprs[n.a].range, "a tcgen05.mma with a 6- or 4-bit A in tensor memory");
  bool eight = stored_bits(a_dtype) == 8 && stored_bits(B.dtype) == 8;
  bool kind_ok = !ka.kind.empty() && ka.kind == kb.kind &&
                 (((ka.kind == "f16" || ka.kind == "tf32") && a_dtype == B.dtype) || (ka.kind == "f8f6f4" && eight) ||
                  ka.kind == "i8") &&
                 acc_dtype == (ka.kind == "i8" ? DType::I32 : DType::F32);
  int64_t step = kind_ok ? mma_k_bits(Op::Tcgen05Mma) / stored_bits(a_dtype) : 0;  // K of one instruction
  // M and N a shape of the target's table (one CTA: M = 64 with N a
  // multiple of 8, M = 128 with N a multiple of 16; a pair's M = 256).
  // M = 64 (one CTA): D row i in lane 32 (i / 16) + i % 16 (layout F),
  // which is how a 64-lane buffer holds its rows (tmem_lane()); an A in
  // tensor memory alike (CUTLASS's TS atoms place M = 64 A fragments as
  // they place D).
  auto quarter_rows = [&](SymbolId buffer) -> int64_t {
    const TmemBuffer* b = buffer == kNone ? nullptr : facts.on(target).tmem.find(buffer);
    return b && b->lanes ? tmem_rows_per_quarter(*b->lanes) : 0;
  };
  bool m64 = rows == 64 && !pair && quarter_rows(acc) == 16 && (!a_tmem || quarter_rows(a_root) == 16);
  bool shape_ok = kind_ok && target.tcgen05_shape(a_dtype, pair ? 2 : 1, m_rows, n_cols) != nullptr;
  if (!shape_ok || k != B.k || k % step != 0 || a_rows != rows || (rows != 128 && !m64) || n_cols != columns)
    return refuse(s.range, a_tmem ? (pair ? "a pair's tcgen05.mma with A in tensor memory other than f32 [128, N] (+)= bf16/f16/tf32/f8 tmem [128, K] @ smem [N / 2, K].T (or [K, N / 2]) or s32 of s8/u8 per CTA"
                                          : "a tcgen05.mma with A in tensor memory other than f32 [128, N] (+)= bf16/f16/tf32/f8 tmem [128, K] @ smem [N, K].T (or [K, N]) or s32 of s8/u8, or M = 64 with both in 64-lane buffers")
                           : pair ? "a pair's tcgen05.mma other than f32 [128, N] (+)= bf16/f16/tf32/f8 [128, K] @ [N / 2, K].T (or [K, N / 2]) or s32 of s8/u8 per CTA, N a multiple of 16 up to 256"
                                  : "a tcgen05.mma other than f32 [128, N] (+)= bf16/f16/tf32/f8 [128, K] @ [N, K].T (or [K, N]) or s32 of s8/u8, N a multiple of 16 up to 256, or M = 64 into a 64-lane buffer with N a multiple of 8 up to 256");
  // Instruction descriptor: D f32 (bits 4-5 = 1) or s32 (2), A and B
  // formats (7-9, 10-12), transpose A and B (15, 16: 1 for an MN-major
  // operand), N >> 3 (17-22), M >> 4 (24-28).
  uint32_t d_format = acc_dtype == DType::I32 ? 2 : 1;
  uint32_t idesc = (d_format << 4) | (ka.format << 7) | (kb.format << 10) | (uint32_t(a_mn) << 15) |
                   (uint32_t(B.mn_major) << 16) | (uint32_t(n_cols >> 3) << 17) | (uint32_t(m_rows >> 4) << 24);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08xu", idesc);
  // The first k-step adds to D only when the statement does (`+=`, and P
  // of `accumulate(P)` holds); later k-steps add their part.
  std::string first = !n.accumulate_into ? "0" : n.accumulate == kNone ? "1" : "(" + condition(n.accumulate) + ")";
  std::string macro = std::string(a_tmem ? "CAKE_TCGEN05_MMA_TS" : "CAKE_TCGEN05_MMA") + (pair ? "_PAIR" : "");
  line("#pragma unroll", s.range);
  line("for (int cake_k = 0; cake_k < " + std::to_string(k / step) + "; ++cake_k)", s.range);
  line("  " + macro + "(\"" + std::string(ka.kind) + "\", " + *d + ", " + a_operand + ", " + desc(B) + ", " + hex +
           ", cake_k > 0 || " + first + ");",
       s.range);
}

void Emitter::tcgen05_cp(const Stmt& s, const MoveStmt& mv) {
  if (kernel.cta_group == 2) return refuse(s.keyword, "`tcgen05.cp` in a `cta_group 2` kernel");
  SymbolId t = root_symbol(m, mv.dst);
  if (t == kNone || m.symbols[t].kind != SymbolKind::Tmem)
    return refuse(m.exprs[mv.dst].range, "a tcgen05.cp destination outside tensor memory");
  auto taddr = tmem_address(mv.dst);
  auto tile = tile_dims(mv.dst);
  auto src = mma_smem_operand(mv.src, Op::Tcgen05Cp, MmaSide::Copy);
  if (!taddr || !tile || !src) return;
  // .128x256b: TMEM lanes 0-127 (the taddr's lane 0), 8 32-bit columns
  // from each of 128 rows of the descriptor's matrix, which are laid out
  // as a K-major MMA operand's (PTX ISA, "tcgen05.cp", "Shared Memory
  // Descriptor"): a copy per 32 bytes of the row, the descriptor's start
  // 32 bytes further each time, as the MMA's k-steps go. It moves bits: a
  // 16- or 8-bit tile lands two or four to a column, the lower k in the
  // lower bits, as a tensor-memory tile of that type holds them (an MMA's
  // A in tensor memory).
  DType dtype = m.symbols[t].type.dtype;
  if (is_sub_byte_float(dtype)) return refuse(s.range, "a tcgen05.cp of 6- or 4-bit floats");
  int64_t row_bytes = src->k * dtype_bits(src->dtype) / 8;
  if (tile->size() != 2 || (*tile)[0] != 128 || dtype != src->dtype ||
      src->rows != 128 || src->k != (*tile)[1] || row_bytes % 32 != 0)
    return refuse(s.range, "a tcgen05.cp other than a [128, C] shared-memory tile (rows one swizzle span) into a [128, C] tensor-memory tile of its type");
  const SwizzleRule* rule = target.swizzle(src->swizzle);
  line("#pragma unroll", s.range);
  line("for (int cake_c = 0; cake_c < " + std::to_string(row_bytes / 32) + "; ++cake_c)", s.range);
  line("  CAKE_TCGEN05_CP_128X256B(" + *taddr + " + 8 * cake_c, CAKE_UMMA_DESC((const unsigned char*)" + src->base +
           " + 32 * cake_c, " + std::to_string(8 * rule->span.value) + ", " +
           std::to_string(descriptor_layout(src->swizzle)) + "));",
       s.range);
}

void Emitter::tcgen05_commit(const Stmt& s, const CommitStmt& c) {
  auto bar = barrier_address(c.barrier);
  if (!bar) return;
  std::string macro = kernel.cta_group == 2 ? "CAKE_TCGEN05_COMMIT_PAIR" : "CAKE_TCGEN05_COMMIT";
  if (c.multicast == kNone) return line(macro + "(" + *bar + ");", s.range);
  line(macro + "_MC(" + *bar + ", " + index(c.multicast) + ");", s.range);
}

std::string Emitter::tcgen05_move_macro(std::string_view shape, int64_t n, int64_t regs, bool load, bool f32) {
  std::string upper(shape);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string suffix = "_" + upper + "_X" + std::to_string(n) + (f32 ? "_F32" : "_B32");
  std::string macro = std::string(load ? "CAKE_TCGEN05_LD" : "CAKE_TCGEN05_ST") + suffix;
  if (!define_once(macro)) return macro;
  std::string list, operands, constraint = std::string(load ? "\"=" : "\"") + (f32 ? "f" : "r") + "\"";
  int64_t first = load ? 0 : 1;  // a store's address comes first
  for (int64_t i = 0; i < regs; ++i) {
    list += (i ? ", %" : "%") + std::to_string(i + first);
    operands += std::string(i ? ", " : "") + constraint + "((r)[" + std::to_string(i) + "])";
    if (i % 8 == 7 && i + 1 < regs) operands += " \\\n      ";
  }
  std::string address = "%" + std::to_string(load ? regs : 0);
  bool wide = shape == "32x32b";
  std::string& out = definitions_;
  out += "#ifdef CAKE_TCGEN05_HOST\n";
  if (wide)
    out += "#define " + macro + "(r, taddr) " + (load ? "CAKE_TCGEN05_HOST_LD(" : "CAKE_TCGEN05_HOST_ST(") +
           std::to_string(n) + ", (r), (taddr))\n";
  else
    out += "#define " + macro + "(r, taddr) " + (load ? "CAKE_TCGEN05_HOST_LD16(" : "CAKE_TCGEN05_HOST_ST16(") +
           std::string(shape.substr(3, 3)) + ", " + std::to_string(n) + ", (r), (taddr))\n";
  out += "#else\n";
  std::string what = wide ? "columns taddr .. + " + std::to_string(n - 1) + " of TMEM lane (taddr >> 16) + l"
                          : "TMEM lanes (taddr >> 16) .. + 15, " + std::to_string(n) + " x " +
                                std::string(shape.substr(3)) + " from column taddr, in the ." + std::string(shape) +
                                " fragment";
  if (load) {
    out += "// " + (wide ? "Lane l of the warp: " + what + " into r." : what + " into r.") + "\n";
    out += "#define " + macro + "(r, taddr) \\\n";
    out += "  asm volatile(\"tcgen05.ld.sync.aligned." + std::string(shape) + ".x" + std::to_string(n) + ".b32 {" +
           list + "}, [" + address + "];\" \\\n";
    out += "      : " + operands + " \\\n";
    out += "      : \"r\"(taddr) : \"memory\")\n";
  } else {
    out += "// r into " + what + (wide ? ", for lane l." : ".") + "\n";
    out += "#define " + macro + "(r, taddr) \\\n";
    out += "  asm volatile(\"tcgen05.st.sync.aligned." + std::string(shape) + ".x" + std::to_string(n) + ".b32 [" +
           address + "], {" + list + "};\" \\\n";
    out += "      :: \"r\"(taddr), " + operands + " : \"memory\")\n";
  }
  out += "#endif\n";
  return macro;
}

void Emitter::tcgen05_move(const Stmt& s, const MoveStmt& mv, bool load) {
  ExprId reg = load ? mv.dst : mv.src, mem = load ? mv.src : mv.dst;
  const Expr& r = m.exprs[reg];
  if (r.kind != Expr::Kind::Name || r.symbol == kNone) return refuse(r.range, "a register operand that is not a name");
  if (m.symbols[r.symbol].type.layout == FragLayout::MmaAcc) return tcgen05_move_16(s, mv, load);
  auto f = fragment(r.symbol, r.range);
  auto tile = tile_dims(mem);
  auto taddr = tmem_address(mem);
  if (!f || !tile || !taddr) return;
  // .32x32b: lane l of the warp moves TMEM lane (taddr >> 16) + l, one
  // 32-bit column per register; .xN moves N columns (N a power of two up
  // to 128). A 16- or 8-bit fragment moves its packed registers: two or
  // four elements per 32-bit column, as a tmem buffer of that type holds
  // them (the lower k in the lower bits).
  int64_t per = f->per_register();
  int64_t n = f->dims.size() == 2 && f->dims[1] % per == 0 ? f->dims[1] / per : 0;
  if (f->layout != FragLayout::Tcgen05Acc || (dtype_bits(f->dtype) != 32 && !f->packed()) || *tile != f->dims || n < 1)
    return refuse(s.range, "a tcgen05.ld/st other than a 32-bit or packed tcgen05_acc [32, N] fragment (or an mma_acc [16 R, 8 C] one) and a tile of its shape");
  // Columns in pieces of the widest .xN that fit, each from its column on
  // (96 columns: .x64 then .x32).
  std::string regs = name(r.symbol);
  for (int64_t done = 0; done < n;) {
    int64_t piece = std::min<int64_t>(128, std::bit_floor(static_cast<uint64_t>(n - done)));
    std::string macro = tcgen05_move_macro("32x32b", piece, piece, load, ctype(f->dtype) == "float");
    std::string at = done == 0 ? *taddr : "(" + *taddr + ") + " + std::to_string(done) + "u";
    line(macro + "(" + (done == 0 ? regs : "(" + regs + " + " + std::to_string(done) + ")") + ", " + at + ");", s.range);
    done += piece;
  }
}

void Emitter::tcgen05_move_16(const Stmt& s, const MoveStmt& mv, bool load) {
  ExprId reg = load ? mv.dst : mv.src, mem = load ? mv.src : mv.dst;
  const Expr& r = m.exprs[reg];
  auto f = fragment(r.symbol, r.range);
  auto tile = tile_dims(mem);
  auto taddr = tmem_address(mem);
  SymbolId buffer = root_symbol(m, mem);
  const TmemBuffer* plan = buffer == kNone ? nullptr : facts.on(target).tmem.find(buffer);
  if (!f || !tile || !taddr || !plan || !plan->lanes) return;
  // An mma_acc fragment [R, C], 16-row tiles of 16 x 8 blocks (values 4T ..
  // 4T + 3 of block T: rows g and g + 8, columns 2t, 2t + 1). The PTX
  // ISA's .16x256b fragment is that order for 32-bit values (register 4k +
  // j: row g + 8 (j / 2), 32-bit column 8k + 2t + j % 2), and .16x128b
  // the packed 16-bit one (register 2k + h: row g + 8h, 32-bit column 4k +
  // t, i.e. elements 8k + 2t, + 1), each over 16 TMEM lanes from its
  // address. So each 16-row tile is one instruction (.xN: N blocks of 8
  // columns), its lanes where the buffer holds those rows (tmem_lane()).
  bool wide = dtype_bits(f->dtype) == 32;
  int64_t rows = f->dims.size() == 2 ? f->dims[0] : 0, cols = f->dims.size() == 2 ? f->dims[1] : 0;
  if ((!wide && !(f->packed() && f->per_register() == 2)) || *tile != f->dims || rows % 16 != 0 || rows < 16 ||
      cols % 8 != 0 || cols < 8)
    return refuse(s.range, "a tcgen05.ld/st of an mma_acc fragment other than a 32-bit or packed 16-bit [16 R, 8 C] one and a tile of its shape");
  std::string_view shape = wide ? "16x256b" : "16x128b";
  int64_t regs_per_x = wide ? 4 : 2, cols_per_x = wide ? 8 : 4;  // registers and 32-bit columns of one x
  int64_t blocks = cols / 8, tile_regs = blocks * regs_per_x;
  std::string regs = name(r.symbol);
  for (int64_t rb = 0; rb < rows / 16; ++rb) {
    int64_t lane = tmem_lane(*plan->lanes, 16 * rb);  // from the tile's first row, 16 of them a quarter's half
    for (int64_t done = 0; done < blocks;) {
      // .x up to 128 registers a thread.
      int64_t piece = std::min<int64_t>(128 / regs_per_x, std::bit_floor(static_cast<uint64_t>(blocks - done)));
      std::string macro = tcgen05_move_macro(shape, piece, piece * regs_per_x, load, ctype(f->dtype) == "float");
      int64_t first = rb * tile_regs + done * regs_per_x;
      std::string offset;
      if (lane) offset += " + (" + std::to_string(lane) + "u << 16)";
      if (done) offset += " + " + std::to_string(done * cols_per_x) + "u";
      std::string at = offset.empty() ? *taddr : "(" + *taddr + ")" + offset;
      line(macro + "(" + (first == 0 ? regs : "(" + regs + " + " + std::to_string(first) + ")") + ", " + at + ");",
           s.range);
      done += piece;
    }
  }
}

}  // namespace cake::codegen
