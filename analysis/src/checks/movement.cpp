// The movement checks (E05xx): the shapes, sizes and alignments each copy
// engine accepts, from the instruction constraints of the architecture
// tables (cake/arch.h). Only what can be checked soundly is reported: a
// size or offset is checked when it is a constant, a tensor's row pitch
// also at the shapes the kernel's facts allow (samples.h), so every report
// is a real counterexample. Checked:
//   - tensor maps (E0501, E0502, E0505): box rank = the tensor's rank (at
//     most the TMA rank limit), every box dim in 1..256, the inner box a
//     multiple of 16 bytes and at most the swizzle span, and the tensor's
//     row pitch (its global stride) a multiple of 16 bytes;
//   - `tma.load`/`tma.store` (E0503, E0504): the smem buffer's swizzle is
//     the tensor map's, and the smem tile has the box's shape;
//   - `cp.async` (E0506): the rows it copies split into 4-, 8- or 16-byte
//     pieces: inner bytes, a constant inner offset and the source's row
//     pitch are multiples of the smallest piece;
//   - `bulk.load` (E0507): size and a constant offset multiples of 16 bytes;
//   - `ldmatrix`/`stmatrix` (E0508): the smem rows they address are 16-byte
//     rows at 16-byte aligned addresses.
// Plain `load`/`store` are not checked: the lowering picks the vector width
// the alignment allows, so no alignment makes them wrong. "Inner" is the
// contiguous dim: the last one, or the first of a `col_major` buffer
// (docs/language.md, "Element order"); a "row" is a run along it. Copies
// between buffers run along the contiguous dim of both, so the two must
// share it (E0504, E0506, E0507), and ldmatrix/stmatrix transpose a
// col_major tile's runs, which they do for 16-bit elements only (E0508).
#include "checks/arch_support.h"
#include "checks/checks.h"
#include "cake/kernel_facts.h"
#include "facts/samples.h"
#include "diag_builder.h"
#include "cake/checked.h"
#include "cake/typing.h"
#include "cake/roles.h"
#include "cake/tile_in_buffer.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace cake {
namespace {

/// What a movement operand addresses along its contiguous dim.
struct View {
  SymbolId root = kNone;
  ExprId extent = kNone;     // elements along the inner dim (kNone: one element)
  ExprId start = kNone;      // first element along it (kNone: 0)
  ByteRange inner;           // the inner index item, or the whole operand
  bool multi_row = false;    // more than one element in an outer tile dim
  /// An index item after the tile's first dim and before its inner one
  /// that fixes or narrows its dim: the tile's rows are not neighbours.
  std::optional<ByteRange> gap;
  bool ok = false;
};

/// The contiguous dim of a buffer of `type` (nullopt for a scalar).
std::optional<size_t> inner_dim(const ValueType& type) {
  if (type.dims.empty()) return std::nullopt;
  return contiguous_dim(type);
}

/// Whether buffers of `a` and `b` (each of rank 2 or more, or ignored)
/// store a tile's elements in different orders.
bool orders_differ(const ValueType& a, const ValueType& b) {
  return a.dims.size() >= 2 && b.dims.size() >= 2 && a.order != b.order;
}

std::string_view order_name(Order o) { return o == Order::ColMajor ? "col_major" : "row_major"; }

/// The fix that declares `buffer` with element order `order`: its order
/// clause rewritten, or one added after its type.
std::optional<Fix> declare_order(const Symbol& buffer, Order order, bool preferred) {
  std::string name(order_name(order));
  TextEdit edit;
  if (buffer.type.order_clause.end > buffer.type.order_clause.begin) {
    edit = {buffer.type.order_clause, name};
  } else {
    if (buffer.type.written.end <= buffer.type.written.begin) return std::nullopt;
    edit = {{buffer.type.written.end, buffer.type.written.end}, " " + name};
  }
  return Fix{"declare `" + std::string(buffer.name) + "` " + name, {std::move(edit)}, preferred};
}

class MovementChecker {
 public:
  MovementChecker(const Module& m, const FactsCache& facts, std::vector<Diagnostic>& diags)
      : m_(m), facts_(facts), diags_(diags), eval_(m), listed_(listed_targets(m)) {}

  void run() {
    if (listed_.empty()) return;
    reported_.assign(m_.symbols.size(), false);
    TargetSet tma = with_feature(listed_, Feature::Tma);
    if (!tma.empty())
      for (SymbolId id = 0; id < m_.symbols.size(); ++id)
        if (m_.symbols[id].kind == SymbolKind::Tensormap) tensormap(m_.symbols[id], tma);
    for (const Stmt& s : m_.stmts)
      if (const auto* mv = std::get_if<MoveStmt>(&s.node)) move(*mv);
  }

 private:
  // Section - helpers

  const TargetInfo& first(TargetSet s) const { return target_at(std::countr_zero(s.bits)); }

  const std::vector<Env>& samples(uint32_t kernel) const { return facts_.kernel(kernel).samples(); }

  void push(Diagnostic d, TargetSet targets) {
    set_targets(d, targets);
    diags_.push_back(std::move(d));
  }

  std::string text(ByteRange r) const { return std::string(m_.written(r)); }

  /// The view of `e` along its buffer's contiguous dim.
  View view(ExprId e) const {
    View v;
    if (e == kNone) return v;
    const Expr& x = m_.exprs[e];
    // `sA[s][0 : 16, :]`: a ring's stage index, then the tile's items.
    IndexedOperand operand = indexed_operand(m_, e);
    SymbolId root = operand.base;
    const std::vector<IndexItem>& all = operand.items;
    if (root == kNone) return v;  // transposes
    const Symbol& s = m_.symbols[root];
    if (s.kind != SymbolKind::TensorParam && s.kind != SymbolKind::Smem) return v;
    auto inner = inner_dim(s.type);
    if (!inner) return v;
    size_t stages = s.type.stage_dims.size(), rank = s.type.dims.size();
    v.root = root;
    v.inner = x.range;
    size_t items = all.size();
    if (items > stages + rank || (items < stages && items > 0)) return v;
    // Tile dims not indexed are whole.
    auto tile_item = [&](size_t d) -> const IndexItem* {
      size_t at = stages + d;
      return at < items ? &all[at] : nullptr;
    };
    if (auto t = tile_in_buffer(m_, eval_, e); t && t->gap && *t->gap < all.size()) v.gap = all[*t->gap].range;
    for (size_t d : memory_order(s.type)) {  // outermost in memory first
      const IndexItem* item = tile_item(d);
      ExprId extent = item ? (item->kind == IndexItem::Kind::Slice ? item->extent
                              : item->kind == IndexItem::Kind::Full ? s.type.dims[d]
                                                                    : kNone)
                           : s.type.dims[d];
      if (d == *inner) {
        v.extent = extent;
        if (item && item->kind != IndexItem::Kind::Full) v.start = item->start;
        if (item) v.inner = item->range;
        continue;
      }
      if (extent == kNone) continue;
      auto n = eval_.fold(extent);
      if (!n || *n > 1) v.multi_row = true;
    }
    v.ok = true;
    return v;
  }

  /// The fact `SYM % n == 0` that makes `dim × bits` a multiple of `bytes`
  /// bytes, as a fix, when `dim` is a shape symbol.
  void offer_fact(Diagnostic& d, uint32_t kernel, ExprId dim, unsigned bits, int64_t bytes) {
    if (dim == kNone || kernel >= m_.kernels.size()) return;
    const Expr& x = m_.exprs[dim];
    if (x.kind != Expr::Kind::Name || x.symbol == kNone || m_.symbols[x.symbol].kind != SymbolKind::ShapeSymbol) return;
    int64_t need = bytes * 8 / std::gcd<int64_t>(bytes * 8, bits);
    const Kernel& k = m_.kernels[kernel];
    std::string fact = std::string(x.text) + " % " + std::to_string(need) + " == 0";
    if (!k.facts.empty()) {
      uint32_t end = m_.exprs[k.facts.back()].range.end;
      d.fixes.push_back({"state `" + fact + "`", {{{end, end}, ", " + fact}}, false});
      return;
    }
    uint32_t at = UINT32_MAX;
    for (ByteRange r : {k.grid_range, k.block_range, k.cluster_range})
      if (r.end > 0) at = std::min(at, r.begin);
    if (at != UINT32_MAX) d.fixes.push_back({"state `" + fact + "`", {{{at, at}, "where " + fact + "\n  "}}, false});
  }

  /// The first shape (of the kernel's samples) for which `dim × bits` is not
  /// a multiple of `bytes` bytes: {value, " for N = 3"} or nullopt.
  std::optional<std::pair<int64_t, std::string>> misaligned_dim(uint32_t kernel, ExprId dim, unsigned bits, int64_t bytes) {
    auto bad = [&](int64_t v) {
      auto b = checked_mul(v, bits);
      return b && *b % (bytes * 8) != 0;
    };
    if (auto v = eval_.fold(dim)) {
      if (bad(*v)) return std::pair<int64_t, std::string>{*v, ""};
      return std::nullopt;
    }
    if (kernel >= m_.kernels.size()) return std::nullopt;
    for (const Env& env : samples(kernel)) {
      auto v = eval_.eval(dim, &env);
      if (v && *v > 0 && bad(*v))
        return std::pair<int64_t, std::string>{*v, " for " + describe(m_, env, m_.kernels[kernel].shape_symbols)};
    }
    return std::nullopt;
  }

  // Section - tensor maps

  void tensormap(const Symbol& map, TargetSet tma) {
    if (map.tensor == kNone || map.box.empty()) return;
    const Symbol& tensor = m_.symbols[map.tensor];
    const ValueType& tt = tensor.type;
    unsigned bits = dtype_bits(tt.dtype);
    if (bits == 0) return;
    const TargetInfo& t = first(tma);
    ByteRange box{m_.exprs[map.box.front()].range.begin, m_.exprs[map.box.back()].range.end};
    size_t rank = tt.dims.size();
    if (map.box.size() != rank) {
      Diagnostic d = make_diagnostic(DiagId::TmaBoxShape, box, text(box), map.box.size(), tensor.name, rank);
      d.related.push_back({tensor.decl, "tensor declared here"});
      push(std::move(d), tma);
      return;
    }
    if (t.tma_max_rank.known() && static_cast<int64_t>(rank) > t.tma_max_rank.value) {
      Diagnostic d = make_diagnostic(DiagForm::TmaRankOverLimit, box, tensor.name, rank, t.tma_max_rank.value,
                                     t.tma_max_rank.src);
      d.related.push_back({tensor.decl, "tensor declared here"});
      push(std::move(d), tma);
      return;
    }
    for (ExprId dim : map.box) {
      auto v = eval_.fold(dim);
      if (!v || !t.tma_max_box_dim.known() || (*v >= 1 && *v <= t.tma_max_box_dim.value)) continue;
      push(make_diagnostic(DiagForm::TmaBoxDimRange, m_.exprs[dim].range, *v, t.tma_max_box_dim.value,
                           t.tma_max_box_dim.src),
           tma);
    }
    auto inner = inner_dim(tt);
    if (!inner) return;
    if (is_sub_byte_float(tt.dtype)) return packed_tensormap(map, tensor, *inner, tma);
    // The inner box: a multiple of 16 bytes, at most the swizzle span, in
    // shared memory (where a 6- or 4-bit float takes a byte).
    ExprId inner_box = map.box[*inner];
    unsigned box_bits = stored_bits(tt.dtype);
    if (auto v = eval_.fold(inner_box); v && *v >= 1) {
      auto ib = checked_mul(*v, box_bits);
      int64_t multiple = t.tma_inner_box_bytes_multiple.value;
      std::string_view dtype = dtype_name(tt.dtype);
      if (ib && multiple > 0 && *ib % (multiple * 8) != 0) {
        push(make_diagnostic(DiagId::TmaInnerBox, m_.exprs[inner_box].range, *v, dtype, BitSize{*ib}, multiple,
                             t.tma_inner_box_bytes_multiple.src),
             tma);
      } else if (const SwizzleRule* rule = t.swizzle(map.type.swizzle); rule && ib && *ib > rule->span.value * 8) {
        int64_t fit = rule->span.value * 8 / box_bits;
        Diagnostic d = make_diagnostic(DiagForm::TmaInnerBoxSwizzle, m_.exprs[inner_box].range, *v, dtype,
                                       BitSize{*ib}, rule->span.value, rule->span.src, fit);
        push(std::move(d), tma);
      }
    }
    // The tensor's row pitch (globalStrides) for rank >= 2.
    if (rank < 2 || reported_[map.tensor]) return;
    reported_[map.tensor] = true;
    int64_t multiple = t.tma_global_stride_multiple.value;
    if (multiple <= 0) return;
    ExprId pitch = tt.dims[*inner];
    auto bad = misaligned_dim(tensor.kernel, pitch, bits, multiple);
    if (!bad) return;
    auto row_bits = checked_mul(bad->first, bits);
    std::string row = row_bits && *row_bits % 8 == 0 ? bytes_text(*row_bits / 8)
                                                     : std::to_string(bad->first) + " " + std::string(dtype_name(tt.dtype));
    std::string pitch_text = text(m_.exprs[pitch].range);
    std::string_view dtype = dtype_name(tt.dtype);
    Diagnostic d = bad->second.empty()
                       ? make_diagnostic(DiagId::TmaGlobalAlignment, m_.exprs[pitch].range, tensor.name, pitch_text,
                                         dtype, row, multiple, t.tma_global_stride_multiple.src)
                       : make_diagnostic(DiagForm::TmaStrideSymbolic, m_.exprs[pitch].range, tensor.name, pitch_text,
                                         dtype, row, bad->second, multiple, t.tma_global_stride_multiple.src);
    d.related.push_back({map.decl, "tensor map `" + std::string(map.name) + "` over it"});
    offer_fact(d, tensor.kernel, pitch, bits, multiple);
    push(std::move(d), tma);
  }

  /// The CU_TENSOR_MAP_DATA_TYPE_ a tensor map of 6- or 4-bit floats
  /// takes: 16 values unpacked into a 16-byte chunk (cuda.h).
  static std::string_view packed_type(DType dtype) {
    return dtype_bits(dtype) == 4 ? "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B" : "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B";
  }

  /// The targets of `tma` whose tables have the packed tensor-map types'
  /// rules (sm_100a): E0511 is reported on those, whichever target the
  /// file lists first.
  static TargetSet with_packed_types(TargetSet tma) {
    TargetSet out;
    tma.for_each([&](size_t i) {
      if (target_at(i).tma_packed_inner_box.known()) out.add(i);
    });
    return out;
  }

  /// E0511: a tensor map of 6- or 4-bit floats: an inner box of exactly
  /// the packed types' 128 values, swizzle none or their one span, and a
  /// tensor whose rows are a multiple of 128 values (which also makes its
  /// strides multiples of 32 bytes). Targets without the facts: no check.
  void packed_tensormap(const Symbol& map, const Symbol& tensor, size_t inner, TargetSet listed) {
    TargetSet tma = with_packed_types(listed);
    if (tma.empty()) return;
    const TargetInfo& t = first(tma);
    const ValueType& tt = tensor.type;
    int64_t box = t.tma_packed_inner_box.value;
    std::string_view dtype = dtype_name(tt.dtype), type = packed_type(tt.dtype);
    ExprId inner_box = map.box[inner];
    if (auto v = eval_.fold(inner_box); v && *v != box) {
      Diagnostic d = make_diagnostic(DiagId::TmaPackedBox, m_.exprs[inner_box].range, *v, dtype, type, box,
                                     t.tma_packed_inner_box.src);
      d.fixes.push_back({"make the inner box " + std::to_string(box), {{m_.exprs[inner_box].range, std::to_string(box)}}, false});
      push(std::move(d), tma);
    }
    int64_t span = swizzle_bytes(map.type.swizzle);
    if (span != 0 && t.tma_packed_swizzle_span.known() && span != t.tma_packed_swizzle_span.value) {
      ByteRange at = map.type.swizzle_clause.end > 0 ? map.type.swizzle_clause : map.decl;
      Diagnostic d = make_diagnostic(DiagForm::TmaPackedSwizzle, at, map.name, dtype, span, type,
                                     t.tma_packed_swizzle_span.value, t.tma_packed_swizzle_span.src);
      // The buffers it fills carry the same swizzle (E0503): change them too.
      std::string want = "swizzle(" + std::to_string(t.tma_packed_swizzle_span.value) + "B)";
      d.fixes.push_back({"use " + want, {{at, want}}, false});
      push(std::move(d), tma);
    }
    if (reported_[map.tensor]) return;
    reported_[map.tensor] = true;
    unsigned bits = dtype_bits(tt.dtype);
    ExprId pitch = tt.dims[inner];
    auto bad = misaligned_dim(tensor.kernel, pitch, bits, box * bits / 8);
    if (!bad) return;
    std::string values = std::to_string(bad->first);
    Diagnostic d = make_diagnostic(DiagForm::TmaPackedRows, m_.exprs[pitch].range, tensor.name, values, dtype,
                                   bad->second, type, box, t.tma_packed_inner_box.src);
    d.related.push_back({map.decl, "tensor map `" + std::string(map.name) + "` over it"});
    offer_fact(d, tensor.kernel, pitch, bits, box * bits / 8);
    push(std::move(d), tma);
  }

  // Section - ops

  void move(const MoveStmt& mv) {
    switch (mv.op) {
      case Op::TmaLoad: tma_op(mv.dst, mv.src, "destination"); break;
      case Op::TmaStore: tma_op(mv.src, mv.dst, "source"); break;
      case Op::CpAsync: cp_async(mv); break;
      case Op::BulkLoad: bulk(mv); break;
      case Op::Ldmatrix: matrix_rows(mv.src, "ldmatrix", with_feature(listed_, Feature::Ldmatrix)); break;
      case Op::Stmatrix: matrix_rows(mv.dst, "stmatrix", with_feature(listed_, Feature::Stmatrix)); break;
      // load/store choose their vector width; tcgen05.ld/st/cp move whole TMEM cells.
      case Op::Load: case Op::Store: case Op::StoreAdd: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp: break;
      // Not moves: the builder gives a MoveStmt only the ops above.
      case Op::Mma: case Op::Wgmma: case Op::Tcgen05Mma: case Op::CpAsyncCommit: case Op::WgmmaFence:
      case Op::WgmmaCommit: case Op::TmaStoreCommit: case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt:
      case Op::Syncthreads: case Op::ClusterSync: case Op::FenceProxyAsync: case Op::CpAsyncWait: case Op::WgmmaWait:
      case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx: case Op::Tcgen05Commit: case Op::ArgminRow:
      case Op::ArgmaxRow: break;
    }
  }

  void tma_op(ExprId smem, ExprId map_expr, std::string_view role) {
    TargetSet tma = with_feature(listed_, Feature::Tma);
    if (tma.empty() || smem == kNone || map_expr == kNone) return;
    Typer typer(m_, nullptr);
    Typed tile = typer.type_of(smem);
    Typed map = typer.type_of(map_expr);
    if (tile.kind != Typed::Kind::Buffer || tile.space != Space::Smem || tile.root == kNone) return;
    if (map.kind != Typed::Kind::TensormapTile || map.root == kNone) return;
    const Symbol& buf = m_.symbols[tile.root];
    const Symbol& tm = m_.symbols[map.root];
    const Expr& at = m_.exprs[smem];
    // 16U4_ALIGN16B is load-only (cuda.h, cuTensorMapEncodeTiled's swizzle
    // modes); 16U6_ALIGN16B also stores.
    if (TargetSet packed = with_packed_types(tma); role == "source" && tm.tensor != kNone && !packed.empty() &&
        is_sub_byte_float(m_.symbols[tm.tensor].type.dtype) && dtype_bits(m_.symbols[tm.tensor].type.dtype) == 4) {
      Diagnostic d = make_diagnostic(DiagForm::TmaPackedStore, m_.exprs[map_expr].range, tm.name,
                                     "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", first(packed).tma_packed_inner_box.src);
      d.related.push_back({tm.decl, "`" + std::string(tm.name) + "` declared here"});
      push(std::move(d), packed);
      return;
    }
    if (buf.type.swizzle != tm.type.swizzle) {
      auto name = [](Swizzle s) {
        return s == Swizzle::None ? std::string("no swizzle") : "swizzle(" + std::to_string(swizzle_bytes(s)) + "B)";
      };
      Diagnostic d = make_diagnostic(DiagId::SwizzleMismatch, at.range, role, buf.name, name(buf.type.swizzle), tm.name,
                                     name(tm.type.swizzle));
      d.related.push_back({buf.decl, "`" + std::string(buf.name) + "` declared here"});
      d.related.push_back({tm.decl, "`" + std::string(tm.name) + "` declared here"});
      push(std::move(d), tma);
    }
    if (tm.tensor != kNone && orders_differ(buf.type, m_.symbols[tm.tensor].type)) {
      const Symbol& tensor = m_.symbols[tm.tensor];
      Diagnostic d = make_diagnostic(DiagForm::TmaOrderMismatch, at.range, role, text(at.range),
                                     order_name(buf.type.order), tensor.name, tm.name, order_name(tensor.type.order),
                                     buf.name);
      d.related.push_back({buf.decl, "`" + std::string(buf.name) + "` declared here"});
      d.related.push_back({tensor.decl, "`" + std::string(tensor.name) + "` declared here"});
      if (auto f = declare_order(buf, tensor.type.order, true)) d.fixes.push_back(std::move(*f));
      push(std::move(d), tma);
      return;
    }
    contiguous(smem, role, tma);
    // Same element count (E0109 reports others) but another shape.
    if (tile.stage_dims != 0 || tile.dims.size() != map.dims.size()) return;
    bool differ = false;
    for (size_t i = 0; i < tile.dims.size(); ++i) {
      auto a = eval_.fold(tile.dims[i]), b = eval_.fold(map.dims[i]);
      if (!a || !b) return;
      differ |= *a != *b;
    }
    if (!differ) return;
    Diagnostic d = make_diagnostic(DiagId::BoxTileMismatch, at.range, role, typer.shape_text(tile.dims), tm.name,
                                   typer.shape_text(map.dims));
    d.related.push_back({tm.decl, "box declared here"});
    push(std::move(d), tma);
  }

  /// E0510: a TMA's smem tile of several rows must take whole rows of its
  /// buffer: the copy engine packs the box row after row, at the box's width.
  void contiguous(ExprId smem, std::string_view role, TargetSet tma) {
    View v = view(smem);
    if (!v.ok || !v.multi_row || v.extent == kNone) return;
    const Symbol& root = m_.symbols[v.root];
    if (v.gap) {
      Diagnostic d = make_diagnostic(DiagForm::TmaTileRowsApart, *v.gap, role, text(m_.exprs[smem].range),
                                     text(*v.gap), root.name);
      d.related.push_back({m_.exprs[smem].range, "the tile"});
      d.related.push_back({root.decl, "`" + std::string(root.name) + "` declared here"});
      push(std::move(d), tma);
      return;
    }
    auto inner = inner_dim(root.type);
    if (!inner) return;
    auto width = eval_.fold(v.extent), row = eval_.fold(root.type.dims[*inner]);
    if (!width || !row || *width >= *row) return;
    Diagnostic d = make_diagnostic(DiagId::TmaTileNotContiguous, m_.exprs[smem].range, role, text(m_.exprs[smem].range),
                                   *width, *row, root.name);
    d.related.push_back({root.decl, "`" + std::string(root.name) + "` declared here"});
    push(std::move(d), tma);
  }

  void cp_async(const MoveStmt& mv) {
    TargetSet cp = with_feature(listed_, Feature::CpAsync);
    if (cp.empty()) return;
    View v = view(mv.src);
    if (!v.ok) return;
    const Symbol& root = m_.symbols[v.root];
    if (order_mismatch(mv, DiagForm::CpAsyncOrder, cp)) return;
    unsigned bits = dtype_bits(root.type.dtype);
    const TargetInfo& t = first(cp);
    if (t.cp_async_sizes.empty() || bits == 0) return;
    int64_t piece = *std::min_element(t.cp_async_sizes.begin(), t.cp_async_sizes.end());
    std::string sizes;
    for (size_t i = 0; i < t.cp_async_sizes.size(); ++i)
      sizes += (i ? (i + 1 == t.cp_async_sizes.size() ? " or " : ", ") : "") + std::to_string(t.cp_async_sizes[i]);
    std::string dtype(dtype_name(root.type.dtype));
    auto extent = v.extent == kNone ? std::optional<int64_t>(1) : eval_.fold(v.extent);
    if (extent && *extent > 0) {
      auto b = checked_mul(*extent, bits);
      if (b && *b % (piece * 8) != 0) {
        push(make_diagnostic(DiagId::CpAsyncGranularity, v.inner, *extent, dtype, BitSize{*b}, sizes, t.cp_async_src,
                             ByteSize{piece}),
             cp);
        return;
      }
    }
    if (v.start != kNone)
      if (auto start = eval_.fold(v.start)) {
        auto b = checked_mul(*start, bits);
        if (b && *b % (piece * 8) != 0) {
          push(make_diagnostic(DiagForm::CpAsyncStart, v.inner, *start, dtype, root.name, ByteSize{piece}), cp);
          return;
        }
      }
    if (!v.multi_row || root.kind != SymbolKind::TensorParam) return;
    auto inner = inner_dim(root.type);
    if (!inner) return;
    ExprId pitch = root.type.dims[*inner];
    if (reported_[v.root]) return;
    auto bad = misaligned_dim(root.kernel, pitch, bits, piece);
    if (!bad) return;
    reported_[v.root] = true;
    Diagnostic d = make_diagnostic(DiagForm::CpAsyncPitch, m_.exprs[mv.src].range, root.name,
                                   text(m_.exprs[pitch].range), dtype, bad->first, bad->second, ByteSize{piece});
    d.related.push_back({m_.exprs[pitch].range, "row length of `" + std::string(root.name) + "`"});
    offer_fact(d, root.kernel, pitch, bits, piece);
    push(std::move(d), cp);
  }

  void bulk(const MoveStmt& mv) {
    TargetSet bulk = with_feature(listed_, Feature::BulkCopy);
    if (bulk.empty() || mv.src == kNone) return;
    const TargetInfo& t = first(bulk);
    int64_t multiple = t.bulk_copy_size_multiple.value;
    if (multiple <= 0) return;
    Typed src = Typer(m_, nullptr).type_of(mv.src);
    if (src.kind != Typed::Kind::Buffer || src.root == kNone) return;
    unsigned bits = dtype_bits(src.dtype);
    std::optional<int64_t> bits_total = bits;
    for (ExprId d : src.dims) {
      auto v = eval_.fold(d);
      bits_total = v && bits_total ? checked_mul(*bits_total, *v) : std::nullopt;
    }
    std::string name(m_.symbols[src.root].name);
    if (order_mismatch(mv, DiagForm::BulkCopyOrder, bulk)) return;
    if (bits_total && *bits_total % (multiple * 8) != 0) {
      push(make_diagnostic(DiagId::BulkCopySize, m_.exprs[mv.src].range, BitSize{*bits_total}, multiple,
                           t.bulk_copy_size_multiple.src),
           bulk);
      return;
    }
    View v = view(mv.src);
    int64_t align = t.bulk_copy_align.value;
    if (!v.ok || v.start == kNone || align <= 0) return;
    if (auto start = eval_.fold(v.start)) {
      auto b = checked_mul(*start, bits);
      if (b && *b % (align * 8) != 0)
        push(make_diagnostic(DiagForm::BulkCopyStart, v.inner, *start, dtype_name(src.dtype), name, align,
                             t.bulk_copy_align.src),
             bulk);
    }
  }

  /// A copy between buffers that store different dims contiguously: the
  /// form `form` on the source, true when reported.
  bool order_mismatch(const MoveStmt& mv, DiagForm form, TargetSet targets) {
    SymbolId src = root_symbol(m_, mv.src), dst = root_symbol(m_, mv.dst);
    if (src == kNone || dst == kNone) return false;
    const Symbol& a = m_.symbols[src];
    const Symbol& b = m_.symbols[dst];
    if (!orders_differ(a.type, b.type)) return false;
    Diagnostic d = make_diagnostic(form, m_.exprs[mv.src].range, order_name(a.type.order), a.name,
                                   order_name(b.type.order), b.name);
    d.related.push_back({a.decl, "`" + std::string(a.name) + "` declared here"});
    d.related.push_back({b.decl, "`" + std::string(b.name) + "` declared here"});
    // The destination (shared memory) takes the source's order.
    if (b.kind == SymbolKind::Smem)
      if (auto f = declare_order(b, a.type.order, false)) d.fixes.push_back(std::move(*f));
    push(std::move(d), targets);
    return true;
  }

  void matrix_rows(ExprId smem, std::string_view op, TargetSet targets) {
    if (targets.empty()) return;
    View v = view(smem);
    if (!v.ok || m_.symbols[v.root].kind != SymbolKind::Smem) return;
    const Symbol& root = m_.symbols[v.root];
    if (is_col_major(root.type) && dtype_bits(root.type.dtype) != 16) {
      Diagnostic d = make_diagnostic(DiagForm::MatrixColMajorWidth, m_.exprs[smem].range, op, root.name,
                                     dtype_name(root.type.dtype));
      d.related.push_back({root.decl, "`" + std::string(root.name) + "` declared here"});
      if (auto f = declare_order(root, Order::RowMajor, false)) d.fixes.push_back(std::move(*f));
      push(std::move(d), targets);
      return;
    }
    const TargetInfo& t = first(targets);
    int64_t row = t.ldmatrix_row_bytes.value;
    unsigned bits = dtype_bits(root.type.dtype);
    if (row <= 0 || bits == 0) return;
    std::string dtype(dtype_name(root.type.dtype));
    std::string_view src = t.ldmatrix_row_bytes.src;
    auto extent = v.extent == kNone ? std::optional<int64_t>(1) : eval_.fold(v.extent);
    if (extent && *extent > 0) {
      auto b = checked_mul(*extent, bits);
      if (b && *b % (row * 8) != 0) {
        push(make_diagnostic(DiagId::MatrixRowAlignment, v.inner, op, *extent, dtype, BitSize{*b}, row, src), targets);
        return;
      }
    }
    if (v.start != kNone)
      if (auto start = eval_.fold(v.start)) {
        auto b = checked_mul(*start, bits);
        if (b && *b % (row * 8) != 0) {
          push(make_diagnostic(DiagForm::MatrixRowStart, v.inner, op, *start, dtype, root.name, row, src), targets);
          return;
        }
      }
    if (!v.multi_row) return;
    auto inner = inner_dim(root.type);
    if (!inner) return;
    auto pitch = eval_.fold(root.type.dims[*inner]);
    if (!pitch) return;
    auto b = checked_mul(*pitch, bits);
    if (!b || *b % (row * 8) == 0) return;
    Diagnostic d = make_diagnostic(DiagForm::MatrixRowPitch, m_.exprs[smem].range, root.name, *pitch, dtype,
                                   BitSize{*b}, op, row, src);
    d.related.push_back({root.decl, "`" + std::string(root.name) + "` declared here"});
    push(std::move(d), targets);
  }

  const Module& m_;
  const FactsCache& facts_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  TargetSet listed_;
  std::vector<bool> reported_;  // tensors whose row pitch was reported
};

}  // namespace

void check_movement(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  MovementChecker(module, facts, diagnostics).run();
}

}  // namespace cake
