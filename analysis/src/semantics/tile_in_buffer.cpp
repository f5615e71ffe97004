// tile_in_buffer(): see cake/tile_in_buffer.h.
#include "cake/tile_in_buffer.h"

namespace cake {

IndexedOperand indexed_operand(const Module& m, ExprId id) {
  // `sA[s][0 : 64, :]`: the stage's items, then the tile's.
  IndexedOperand out;
  if (id == kNone) return out;
  const Expr* e = &m.exprs[id];
  while (e->kind == Expr::Kind::Index && e->lhs != kNone) {
    out.items.insert(out.items.begin(), e->items.begin(), e->items.end());
    e = &m.exprs[e->lhs];
  }
  if (e->kind == Expr::Kind::Name) out.base = e->symbol;
  else out.items.clear();
  return out;
}

std::optional<TileInBuffer> tile_in_buffer(const Module& m, const Evaluator& eval, ExprId e) {
  TileInBuffer t;
  t.operand = indexed_operand(m, e);
  SymbolId base = t.operand.base;
  if (base == kNone) return std::nullopt;
  t.buffer = m.symbols[base].kind == SymbolKind::Dsmem ? m.symbols[base].tensor : base;
  if (t.buffer == kNone) return std::nullopt;
  const Symbol& s = m.symbols[t.buffer];
  if (s.kind != SymbolKind::TensorParam && s.kind != SymbolKind::Smem) return std::nullopt;
  const std::vector<IndexItem>& items = t.operand.items;
  size_t stages = s.type.stage_dims.size(), all = stages + s.type.dims.size();
  if (items.size() > all || all == 0) return std::nullopt;
  t.order = item_order(s.type);
  auto kind = [&](size_t d) { return d < items.size() ? items[d].kind : IndexItem::Kind::Full; };
  auto extent = [&](size_t d) { return d < stages ? s.type.stage_dims[d] : s.type.dims[d - stages]; };
  auto whole = [&](size_t d) {
    if (kind(d) == IndexItem::Kind::Full) return true;
    if (kind(d) != IndexItem::Kind::Slice) return false;
    auto n = eval.fold(extent(d));
    return n && eval.fold(items[d].start) == int64_t(0) && eval.fold(items[d].extent) == n;
  };
  // Each kept dim's position among the tile's dims.
  std::vector<std::optional<size_t>> position(all);
  size_t n = 0;
  for (size_t d = 0; d < all; ++d)
    if (kind(d) != IndexItem::Kind::Scalar) position[d] = n++;
  size_t contiguous = t.order.back();
  bool in_tile = false;
  t.dense = true;
  for (size_t d : t.order) {
    if (in_tile) {
      if (!whole(d)) t.dense = false;
      if (d != contiguous && !whole(d) && !t.gap) t.gap = d;
    }
    if (position[d]) {
      t.kept.push_back(*position[d]);
      in_tile = true;
    }
  }
  t.runs = position[contiguous].has_value();
  t.whole_rows = whole(contiguous);
  return t;
}

}  // namespace cake
