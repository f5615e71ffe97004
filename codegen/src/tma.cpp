// The copy engine: TMA tensor loads and stores through a `tensormap` (a
// kernel parameter the launcher encodes: LaunchParam::map) and bulk copies,
// each completing its bytes on an mbarrier or in a bulk group. Coordinates
// go innermost first, as cp.async.bulk.tensor takes them; the instruction
// macro of each rank is written once per translation unit after the
// prelude. See docs/lowering.md.
#include "emitter.h"

#include "cake/roles.h"

namespace cake::codegen {

std::string Emitter::tma_macro(int64_t rank, bool load, bool multicast, bool pair) {
  std::string r = std::to_string(rank);
  std::string macro = std::string(load ? "CAKE_TMA_LOAD_" : "CAKE_TMA_STORE_") + r + "D" + (multicast ? "_MC" : "") +
                      (pair ? "_PAIR" : "");
  // The host runtime's hook takes the mask, 0 for this CTA alone (a real
  // multicast mask of 0 is E0414's: such a file is not lowered).
  std::string mc_param = multicast ? ", mask" : "", mc_host = multicast ? "(mask)" : "0u";
  if (!define_once(macro)) return macro;
  std::string params, list, operands, init;
  for (int64_t i = 0; i < rank; ++i) {
    std::string c = "c" + std::to_string(i);
    params += ", " + c;
    init += std::string(i ? ", " : "") + "(long long)(" + c + ")";
    list += std::string(i ? ", " : "") + "%" + std::to_string(i + (load ? 2 : 1));
    operands += ", \"r\"((int)(" + c + "))";
  }
  std::string& out = definitions_;
  if (pair) {
    // A CTA pair's copy (.cta_group::2): into this CTA's `dst`, its bytes
    // completing on `bar`, the generic address (mapa) of a barrier in this
    // CTA or its pair's, as a shared::cluster address.
    out += "#ifdef CAKE_TMA_HOST\n";
    out += "#define " + macro + "(dst, map" + params + ", bar) do { const long long cake_c[] = {" + init +
           "}; CAKE_TMA_HOST_LOAD_PAIR(" + r + ", (dst), (map), cake_c, (bar)); } while (0)\n";
    out += "#else\n";
    out += "// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar` of this CTA\n"
           "// or its pair's (a generic address).\n";
    out += "#define " + macro + "(dst, map" + params + ", bar) \\\n";
    out += "  asm volatile(\"{ .reg .u64 cake_g; .reg .u32 cake_b; cvta.to.shared::cluster.u64 cake_g, %" +
           std::to_string(rank + 2) + "; cvt.u32.u64 cake_b, cake_g; \" \\\n";
    out += "               \"cp.async.bulk.tensor." + r +
           "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%0], [%1, {" + list +
           "}], [cake_b]; }\" \\\n";
    out += "               :: \"r\"(CAKE_SMEM_ADDR(dst)), \"l\"((unsigned long long)(map))" + operands +
           ", \"l\"((unsigned long long)(bar)) : \"memory\")\n";
    out += "#endif\n";
    return macro;
  }
  out += "#ifdef CAKE_TMA_HOST\n";
  if (load)
    out += "#define " + macro + "(dst, map" + params + ", bar" + mc_param + ") do { const long long cake_c[] = {" +
           init + "}; CAKE_TMA_HOST_LOAD(" + r + ", (dst), (map), cake_c, (bar), " + mc_host + "); } while (0)\n";
  else
    out += "#define " + macro + "(map" + params + ", src) do { const long long cake_c[] = {" + init +
           "}; CAKE_TMA_HOST_STORE(" + r + ", (map), cake_c, (src)); } while (0)\n";
  out += "#else\n";
  if (load) {
    out += multicast ? "// The box at coordinates c0 (innermost) .. into shared `dst` of each CTA of the cluster that `mask`\n"
                       "// names, its bytes completing on `bar` of each.\n"
                     : "// The box at coordinates c0 (innermost) .. into shared `dst`, its bytes completing on `bar`.\n";
    out += "#define " + macro + "(dst, map" + params + ", bar" + mc_param + ") \\\n";
    out += "  asm volatile(\"cp.async.bulk.tensor." + r + "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" +
           (multicast ? ".multicast::cluster" : "") + " [%0], [%1, {" + list + "}], [%" + std::to_string(rank + 2) + "]" +
           (multicast ? ", %" + std::to_string(rank + 3) : "") + ";\" \\\n";
    out += "               :: \"r\"(CAKE_SMEM_ADDR(dst)), \"l\"((unsigned long long)(map))" + operands +
           ", \"r\"(CAKE_SMEM_ADDR(bar))" + (multicast ? ", \"h\"((unsigned short)(mask))" : "") + " : \"memory\")\n";
  } else {
    out += "// Shared `src` to the box at coordinates c0 (innermost) .., in this thread's bulk group.\n";
    out += "#define " + macro + "(map" + params + ", src) \\\n";
    out += "  asm volatile(\"cp.async.bulk.tensor." + r + "d.global.shared::cta.tile.bulk_group [%0, {" + list +
           "}], [%" + std::to_string(rank + 1) + "];\" \\\n";
    out += "               :: \"l\"((unsigned long long)(map))" + operands + ", \"r\"(CAKE_SMEM_ADDR(src)) : \"memory\")\n";
  }
  out += "#endif\n";
  return macro;
}

namespace {

/// The tensormap an operand `t[c0, c1, ...]` names and its coordinates.
struct MapOperand {
  SymbolId map = kNone;
  std::vector<ExprId> coordinates;  // innermost first, as TMA takes them (tma_dims())
};

std::optional<MapOperand> map_operand(const Module& m, ExprId e) {
  const Expr& x = m.exprs[e];
  if (x.kind != Expr::Kind::Index || m.exprs[x.lhs].kind != Expr::Kind::Name) return std::nullopt;
  MapOperand out;
  out.map = m.exprs[x.lhs].symbol;
  if (out.map == kNone || m.symbols[out.map].kind != SymbolKind::Tensormap) return std::nullopt;
  for (const IndexItem& item : x.items) {
    if (item.kind != IndexItem::Kind::Scalar) return std::nullopt;
    out.coordinates.push_back(item.start);
  }
  // One coordinate per dim of the tensor, innermost first.
  SymbolId tensor = m.symbols[out.map].tensor;
  if (tensor == kNone || m.symbols[tensor].type.dims.size() != out.coordinates.size()) return std::nullopt;
  std::vector<ExprId> written = std::move(out.coordinates);
  for (size_t d : Emitter::tma_dims(m.symbols[tensor].type)) out.coordinates.push_back(written[d]);
  return out;
}

}  // namespace

void Emitter::tma_load(const Stmt& s, const MoveStmt& mv) {
  auto map = map_operand(m, mv.src);
  if (!map || map->coordinates.empty() || map->coordinates.size() > 5)
    return refuse(m.exprs[mv.src].range, "this tensor-map operand (1 to 5 scalar coordinates, one per dim of its tensor)");
  auto tile = tile_dims(mv.dst);
  auto bar = barrier_address(mv.barrier);
  if (!tile || !bar) return;
  // The box lands at the tile's first element, row after row of its
  // innermost dim in the tile's order, whatever the tile's rank.
  auto dst = address(mv.dst, std::vector<std::string>(tile->size(), "0"));
  if (!dst) return;
  bool multicast = mv.multicast != kNone;
  // A barrier through a view (a CTA pair's copy) is another macro.
  SymbolId b = root_symbol(m, mv.barrier);
  bool pair = b != kNone && m.symbols[b].kind == SymbolKind::Dsmem;
  std::string call = tma_macro(static_cast<int64_t>(map->coordinates.size()), true, multicast, pair) + "(&" + *dst +
                     ", &" + name(map->map);
  for (ExprId c : map->coordinates) call += ", " + index(c);
  line(call + ", " + *bar + (multicast ? ", " + index(mv.multicast) : std::string()) + ");", s.range);
}

void Emitter::tma_store(const Stmt& s, const MoveStmt& mv) {
  auto map = map_operand(m, mv.dst);
  if (!map || map->coordinates.empty() || map->coordinates.size() > 5)
    return refuse(m.exprs[mv.dst].range, "this tensor-map operand (1 to 5 scalar coordinates, one per dim of its tensor)");
  // 16U6_ALIGN16B also stores (packing each 16-byte chunk back), which the
  // lowering does not follow yet; 16U4_ALIGN16B only loads (E0511).
  if (SymbolId t = m.symbols[map->map].tensor; t != kNone && is_sub_byte_float(m.symbols[t].type.dtype))
    return refuse(s.range, "a tma.store of 6- or 4-bit floats");
  auto tile = tile_dims(mv.src);
  if (!tile) return;
  auto src = address(mv.src, std::vector<std::string>(tile->size(), "0"));
  if (!src) return;
  std::string call = tma_macro(static_cast<int64_t>(map->coordinates.size()), false) + "(&" + name(map->map);
  for (ExprId c : map->coordinates) call += ", " + index(c);
  line(call + ", &" + *src + ");", s.range);
}

void Emitter::bulk_load(const Stmt& s, const MoveStmt& mv) {
  auto dst = tile_dims(mv.dst), src = tile_dims(mv.src);
  if (SymbolId b = root_symbol(m, mv.barrier); b != kNone && m.symbols[b].kind == SymbolKind::Dsmem)
    return refuse(m.exprs[mv.barrier].range, "a bulk copy completing on a peer's barrier (a CTA pair's `tma.load` lowers)");
  auto bar = barrier_address(mv.barrier);
  if (!dst || !src || !bar) return;
  const Symbol& to = m.symbols[root_symbol(m, mv.dst)];
  // Packed in memory, sixteen to 16 bytes in shared memory: only TMA's
  // packed types move them.
  if (is_sub_byte_float(to.type.dtype)) return refuse(s.range, "a bulk copy of 6- or 4-bit floats (TMA moves them)");
  int64_t element = dtype_bits(to.type.dtype) / 8;
  if (*dst != *src || dst->empty() || element <= 0)
    return refuse(s.range, "a bulk copy other than between tiles of one shape");
  if (to.type.swizzle != Swizzle::None)
    return refuse(m.exprs[mv.dst].range, "a bulk copy into swizzled shared memory (it writes bytes in order)");
  // A tile is copied a row (a run along its buffers' contiguous dim) at a
  // time, unless at both ends its rows follow one another in memory: every
  // dim after its first in memory order is a whole dim of its buffer. Then
  // it is one run of bytes.
  auto rows_of = copy_rows(s, mv, *dst, "bulk copy");
  if (!rows_of) return;
  int64_t rows = rows_of->rows, row_bytes = rows_of->row * element;
  auto contiguous = [&](ExprId e) {
    auto t = tile_in_buffer(m, eval, e);
    return t && t->dense;
  };
  bool one_run = rows == 1 || (contiguous(mv.dst) && contiguous(mv.src));
  int64_t bytes = one_run ? rows * row_bytes : row_bytes;
  // Both ends 16-byte aligned and a multiple of 16 bytes (PTX ISA,
  // cp.async.bulk), as the slice starts and the rows' pitches prove.
  if (bytes % 16 != 0 || (alignment(mv.src) * element) % 16 != 0 || (alignment(mv.dst) * element) % 16 != 0)
    return refuse(s.range, "a bulk copy whose bytes or starts are not provably 16-byte aligned");
  // Row r of the tile (or, in one run, its first).
  auto coords = one_run ? std::vector<std::string>(dst->size(), "0") : row_coordinates(*dst, rows_of->runs, "cake_r", "0");
  auto d = address(mv.dst, coords), g = address(mv.src, coords);
  if (!d || !g) return;
  std::string copy = "CAKE_BULK_LOAD(&" + *d + ", &" + *g + ", " + std::to_string(bytes) + ", " + *bar + ");";
  if (one_run) return line(copy, s.range);
  line("#pragma unroll 1", s.range);
  line("for (int cake_r = 0; cake_r < " + std::to_string(rows) + "; ++cake_r) " + copy, s.range);
}

}  // namespace cake::codegen
