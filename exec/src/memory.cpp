// Values and memory of a World: operand expressions to views, element-wise
// expressions to tiles, reads, writes and copies, and the race detector that
// checks every access; see world.h.
//
// Who holds what. A warp is the executor's unit: `lane` is 0. A fragment
// with a warpgroup layout (`wgmma_acc`, `wgmma_acc.row`) is one tile per
// warpgroup, and each of its four warps works on its quarter of the rows, as
// the hardware's fragment layout has it; every other fragment is one tile per
// warp. A statement that touches a warpgroup fragment of M rows therefore
// runs, in warp q of the warpgroup, on rows [q M/4, (q+1) M/4) of that
// fragment and of every operand with M rows (its Window).
#include "world.h"

#include "cake/exec/numeric.h"
#include "cake/fragments.h"
#include "cake/ops.h"

#include <algorithm>
#include <cmath>

namespace cake::exec {

bool World::warpgroup_owned(FragLayout layout) const { return fragment_owner_threads(layout, 32) > 32; }

std::optional<int64_t> World::integer(const Actor& a, ExprId e) { return ctx_.eval.eval(e, &a.env); }

bool World::integral(ExprId e) {
  // Cached: an element-wise expression would otherwise be tried as an
  // integer at every node, each try walking the whole subtree.
  if (ctx_.integral.size() < ctx_.m.exprs.size()) ctx_.integral.resize(ctx_.m.exprs.size(), -1);
  int8_t& known = ctx_.integral[e];
  if (known < 0) {
    std::vector<SymbolId> syms;
    ctx_.eval.free_symbols(e, syms);
    known = std::none_of(syms.begin(), syms.end(), [&](SymbolId s) {
      switch (ctx_.m.symbols[s].kind) {
        case SymbolKind::TensorParam: case SymbolKind::Smem: case SymbolKind::Tmem: case SymbolKind::Reg:
        case SymbolKind::Dsmem:
          return true;
        case SymbolKind::Const: case SymbolKind::ShapeSymbol: case SymbolKind::ScalarParam: case SymbolKind::Mbarrier:
        case SymbolKind::NamedBarrier: case SymbolKind::Tensormap: case SymbolKind::Let: case SymbolKind::LoopVar:
        case SymbolKind::StageVar: case SymbolKind::Role: case SymbolKind::Kernel: case SymbolKind::Dispatch:
        case SymbolKind::DispatchParam: case SymbolKind::Builtin:
          return false;
      }
      return false;
    });
  }
  return known != 0;
}

Storage& World::fragment(Actor& a, SymbolId sym) {
  const Symbol& s = ctx_.m.symbols[sym];
  // A per-thread fragment of a lane-serial kernel is held per lane.
  int64_t owner = warpgroup_owned(s.type.layout)                          ? a.warp / 4
                  : ctx_.lane_mode && s.type.layout == FragLayout::None ? a.warp * 32 + a.lane
                                                                        : a.warp;
  auto [it, fresh] = ctas_[a.cta].fragments.try_emplace(uint64_t(sym) << 32 | static_cast<uint32_t>(owner));
  if (fresh) {
    Storage& st = it->second;
    st.symbol = sym;
    st.name = s.name;
    st.dtype = s.type.dtype;
    st.space = Space::Reg;
    st.layout = s.type.layout;
    st.tracked = ctx_.async_fragments.count(sym) != 0;
    std::vector<int64_t> dims;
    for (ExprId d : s.type.dims) dims.push_back(integer(a, d).value_or(1));
    if (!st.shape(std::move(dims), is_float(st.dtype) ? NAN : 0, ctx_.max_elements)) {
      ctx_.fail(RunProblem::Kind::Unsupported, s.decl,
                "`" + std::string(s.name) + "` is larger than the CPU executor holds (" +
                    std::to_string(ctx_.max_elements) + " elements)");
      st.shape({}, 0, 1);
    }
  }
  return it->second;
}


std::optional<View> World::view(Actor& a, ExprId id, StmtId at) {
  const Module& m = ctx_.m;
  const Expr& e = m.exprs[id];
  switch (e.kind) {
    case Expr::Kind::Name: {
      if (e.symbol == kNone) return std::nullopt;
      const Symbol& s = m.symbols[e.symbol];
      if (s.kind == SymbolKind::TensorParam) {
        auto it = ctx_.globals.find(e.symbol);
        if (it != ctx_.globals.end()) return whole(it->second);
      }
      if (s.kind == SymbolKind::Smem || s.kind == SymbolKind::Tmem) {
        auto it = ctas_[a.cta].buffers.find(e.symbol);
        if (it != ctas_[a.cta].buffers.end()) return whole(it->second);
      }
      if (s.kind == SymbolKind::Dsmem && s.tensor != kNone) {
        // The buffer of the CTA of the cluster the declaration names.
        auto rank = integer(a, s.value);
        if (!rank || *rank < 0 || *rank >= static_cast<int64_t>(ctas_.size())) {
          ctx_.fail(RunProblem::Kind::OutOfBounds, e.range,
                    "`" + std::string(s.name) + "` names CTA " + (rank ? std::to_string(*rank) : std::string("?")) +
                        " of a cluster of " + std::to_string(ctas_.size()));
          return std::nullopt;
        }
        auto& peer = ctas_[static_cast<size_t>(*rank)].buffers;
        auto it = peer.find(s.tensor);
        if (it != peer.end()) return whole(it->second);
      }
      if (s.kind == SymbolKind::Reg) return whole(fragment(a, e.symbol));
      return std::nullopt;
    }
    case Expr::Kind::Transpose: {
      auto v = view(a, e.lhs, at);
      if (!v || v->rank() < 2) return v;
      size_t n = v->rank();
      std::swap(v->axis[n - 1], v->axis[n - 2]);
      std::swap(v->extent[n - 1], v->extent[n - 2]);
      return v;
    }
    case Expr::Kind::Index: {
      const Expr& base = m.exprs[e.lhs];
      if (base.kind == Expr::Kind::Name && base.symbol != kNone &&
          m.symbols[base.symbol].kind == SymbolKind::Tensormap) {
        // A TMA box at the given coordinates of the tensor, which may reach
        // past its end (zero fill on load, dropped on store).
        const Symbol& tm = m.symbols[base.symbol];
        auto tensor = ctx_.globals.find(tm.tensor);
        if (tensor == ctx_.globals.end()) return std::nullopt;
        View v = whole(tensor->second);
        if (tm.box.size() != v.rank() || e.items.size() != v.rank()) return std::nullopt;
        for (size_t d = 0; d < v.rank(); ++d) {
          auto c = integer(a, e.items[d].start);
          auto b = integer(a, tm.box[d]);
          if (!c || !b) return std::nullopt;
          v.origin[d] = *c;
          v.extent[d] = *b;
        }
        v.boxed = true;
        return v;
      }
      auto v = view(a, e.lhs, at);
      if (!v) return v;
      size_t d = 0;
      for (const IndexItem& item : e.items) {
        if (d >= v->rank()) return std::nullopt;
        switch (item.kind) {
          case IndexItem::Kind::Scalar: {
            auto i = integer(a, item.start);
            if (!i) return std::nullopt;
            v->origin[v->axis[d]] += *i;
            v->axis.erase(v->axis.begin() + static_cast<long>(d));
            v->extent.erase(v->extent.begin() + static_cast<long>(d));
            break;
          }
          case IndexItem::Kind::Slice: {
            auto s = integer(a, item.start), n = integer(a, item.extent);
            if (!s || !n) return std::nullopt;
            v->origin[v->axis[d]] += *s;
            v->extent[d] = *n;
            ++d;
            break;
          }
          case IndexItem::Kind::Full:
            ++d;
            break;
        }
      }
      if (!v->inside()) {
        ctx_.fail(RunProblem::Kind::OutOfBounds, e.range,
                  "`" + std::string(m.written(e.range)) + "` reaches past `" + std::string(v->st->name) + "` at run time");
        return std::nullopt;
      }
      return v;
    }
    case Expr::Kind::Int: case Expr::Kind::Float: case Expr::Kind::Bool: case Expr::Kind::Unary:
    case Expr::Kind::Binary: case Expr::Kind::Call: case Expr::Kind::Cast: case Expr::Kind::Field:
    case Expr::Kind::Error:
      return std::nullopt;
  }
  return std::nullopt;
}

World::Window World::window_of(const Actor& a, StmtId id) const {
  auto it = ctx_.window_rows.find(id);
  int64_t rows = 0;
  if (it != ctx_.window_rows.end()) {
    rows = it->second;
  } else {
    std::vector<SymbolId> syms;
    for (ExprId e : operand_exprs(ctx_.m.stmts[id])) ctx_.eval.free_symbols(e, syms);
    if (const auto* d = std::get_if<DeclStmt>(&ctx_.m.stmts[id].node)) syms.push_back(d->symbol);
    for (SymbolId s : syms) {
      const Symbol& sym = ctx_.m.symbols[s];
      if (sym.kind != SymbolKind::Reg || !warpgroup_owned(sym.type.layout) || sym.type.dims.empty()) continue;
      rows = ctx_.eval.eval(sym.type.dims[0], &a.env).value_or(0);
      break;
    }
    ctx_.window_rows[id] = rows;
  }
  Window w;
  if (rows <= 0) return w;
  w.active = true;
  w.full = rows;
  std::tie(w.lo, w.hi) = fragment_warp_rows(FragLayout::WgmmaAcc, rows, a.warp);
  return w;
}

World::Window World::part_window(const View& frag, const Window& w) const {
  if (!w.active || frag.st->space != Space::Reg || !warpgroup_owned(frag.st->layout) || frag.origin.empty()) return w;
  int64_t first = frag.origin[0];
  size_t along = frag.rank();
  for (size_t d = 0; d < frag.rank(); ++d)
    if (frag.axis[d] == 0) along = d;
  Window out = w;
  if (along == frag.rank()) {  // one row: its warp's
    out.none = !(w.lo <= first && first < w.hi);
    out.full = -1;  // no other operand is windowed
    return out;
  }
  int64_t extent = frag.extent[along];
  if (first == 0 && extent == w.full) return w;
  out.full = extent;
  out.lo = std::clamp<int64_t>(w.lo - first, 0, extent);
  out.hi = std::clamp<int64_t>(w.hi - first, 0, extent);
  out.none = out.lo >= out.hi;
  return out;
}

View World::windowed(const View& v, const Window& w) const {
  if (!w.active || v.rank() == 0 || v.extent[0] != w.full) return v;
  bool fragment = v.st->space == Space::Reg && warpgroup_owned(v.st->layout);
  if (fragment || v.rank() >= 2 || v.row_vector) return v.rows(w.lo, w.hi);
  return v;
}

/// How far back access() looks for a record to join: two warps' lanes.
constexpr size_t kJoinWindow = 64;

void World::access(uint32_t entity, const Clock& vc, const View& v, bool write, StmtId at, bool atomic) {
  Storage& st = *v.st;
  if (st.freed) return after_end(st, write, at);
  if (!st.tracked) return;
  Rect rect = v.rect();
  const Module& m = ctx_.m;
  // Shared memory through the async proxy (a TMA copy, an MMA operand):
  // a generic-proxy write ordered before a read needs its writer's
  // `fence.proxy.async` ordered before it too.
  bool generic = false, async_read = false;
  if (st.space == Space::Smem) {
    auto op = op_of(m.stmts[at]);
    bool async = op && async_proxy(op_info(*op).engine);
    generic = write && !async;
    async_read = async && !write;
  }
  for (const AccessRecord& r : st.history) {
    if (r.entity == entity || (!r.write && !write) || (r.atomic && atomic) || !r.rect.overlaps(rect)) continue;
    if (exec::at(vc, r.entity) >= r.epoch) {
      if (async_read && r.generic) unfenced_read(vc, st, r, at);
      continue;
    }
    if (ctx_.races_seen.size() >= 20) break;
    if (!first_report(r.stmt, at)) continue;
    std::string where = "`" + std::string(st.name) + "`";
    if (st.stage_dims == 1 && rect.axes[0].second - rect.axes[0].first == 1)
      where += " stage " + std::to_string(rect.axes[0].first);
    const Stmt& earlier = m.stmts[r.stmt];
    const Stmt& now = m.stmts[at];
    std::string first = std::string(m.written(earlier.keyword)), second = std::string(m.written(now.keyword));
    ctx_.fail(RunProblem::Kind::Race, now.range,
              "race on " + where + ": this `" + second + "` " + (write ? "writes" : "reads") + " elements that `" +
                  first + "` " + (r.write ? "writes" : "reads") + ", and no barrier or wait orders the two",
              {{earlier.range, "the other access (`" + first + "`)"}});
  }
  uint32_t epoch = exec::at(vc, entity);
  // Keep the history short: a write drops what it covers and is ordered
  // after; a read drops this entity's earlier reads it covers.
  std::erase_if(st.history, [&](const AccessRecord& r) {
    if (!rect.covers(r.rect)) return false;
    if (write) return r.entity == entity || exec::at(vc, r.entity) >= r.epoch;
    return !r.write && r.entity == entity;
  });
  // The same access as a recent record's (entity, epoch, statement, kind)
  // next to it joins that record: a warp's lanes running a per-thread loop
  // over a row leave a record a lane, not one an element, and the scans
  // above stay short (they were quadratic in the elements a reference
  // kernel touched).
  size_t recent = 0;
  for (auto r = st.history.rbegin(); r != st.history.rend() && recent < kJoinWindow; ++r, ++recent)
    if (r->write == write && r->atomic == atomic && r->entity == entity && r->epoch == epoch && r->stmt == at &&
        r->fence == 0 && r->rect.join(rect))
      return;
  st.history.push_back({write, atomic, generic, 0, std::move(rect), entity, epoch, at});
}

void World::unfenced_read(const Clock& vc, const Storage& st, const AccessRecord& r, StmtId at) {
  const auto [fencer, fence_epoch] = fences_[r.fence];
  if (r.fence != 0 && exec::at(vc, fencer) >= fence_epoch) return;
  if (!first_report(r.stmt, at)) return;
  const Module& m = ctx_.m;
  const Stmt& earlier = m.stmts[r.stmt];
  const Stmt& now = m.stmts[at];
  std::string first = std::string(m.written(earlier.keyword)), second = std::string(m.written(now.keyword));
  ctx_.fail(RunProblem::Kind::Race, now.range,
            "race between proxies on `" + std::string(st.name) + "`: this `" + second +
                "` reads through the async proxy elements that `" + first +
                "` wrote through the generic proxy, and no `fence.proxy.async` of the writing threads " +
                (r.fence != 0 ? "is ordered before this read" : "follows that write"),
            {{earlier.range, "the generic-proxy write (`" + first + "`)"}});
}

void World::fence_proxy(Actor& a) {
  const int self = static_cast<int>(&a - actors_.data());
  const auto fence = static_cast<uint32_t>(fences_.size());
  fences_.emplace_back(a.entity, exec::at(a.vc, a.entity));
  for (Cta& c : ctas_)
    for (auto& [sym, st] : c.buffers) {
      if (st.space != Space::Smem) continue;
      for (AccessRecord& r : st.history) {
        // This warp's writes, and those of its copies (cp.async) it has
        // waited for.
        if (r.generic && r.fence == 0 && owner_[r.entity] == self && exec::at(a.vc, r.entity) >= r.epoch)
          r.fence = fence;
      }
    }
}

bool World::first_report(StmtId earlier, StmtId at) {
  std::pair<StmtId, StmtId> key{earlier, at};
  if (ctx_.races_seen.size() >= 20 ||
      std::find(ctx_.races_seen.begin(), ctx_.races_seen.end(), key) != ctx_.races_seen.end())
    return false;
  ctx_.races_seen.push_back(key);
  return true;
}

void World::after_end(const Storage& st, bool write, StmtId at) {
  if (!first_report(kNone, at)) return;
  const Stmt& s = ctx_.m.stmts[at];
  std::string what = std::string(st.space == Space::Reg ? "fragment" : "memory") + " of a CTA whose threads may have ended";
  ctx_.fail(RunProblem::Kind::Race, s.range,
            "race with the end of a CTA: this `" + std::string(ctx_.m.written(s.keyword)) + "` " +
                (write ? "writes" : "reads") + " `" + std::string(st.name) + "`, " + what +
                ": nothing its threads waited for orders it before their end");
}

Tile World::read(Actor& a, const View& v, StmtId at, bool record) {
  Tile t;
  t.dtype = v.st->dtype;
  t.scalar = v.rank() == 0;
  t.row_vector = v.row_vector;
  t.dims.assign(v.extent.begin(), v.extent.end());
  t.values.reserve(static_cast<size_t>(v.elements()));
  const std::vector<double>& data = v.st->data;
  v.for_each([&](int64_t flat) { t.values.push_back(flat < 0 ? 0.0 : data[flat]); });
  if (record) access(a.entity, a.vc, v, false, at);
  return t;
}

bool World::write(Actor& a, const View& v, const Tile& t, StmtId at) {
  Storage& st = *v.st;
  size_t n = static_cast<size_t>(v.elements());
  if (!t.scalar && t.values.size() != n) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[at].range,
              "the value has " + std::to_string(t.values.size()) + " elements and `" + std::string(st.name) +
                  "` takes " + std::to_string(n) + " here");
    return false;
  }
  size_t i = 0;
  bool global = !st.writers.empty();
  v.for_each([&](int64_t flat) {
    double x = t.scalar ? t.values[0] : t.values[i];
    ++i;
    if (flat < 0) return;
    st.data[flat] = round_to(st.dtype, x);
    if (global) st.writers[flat] = at;
  });
  access(a.entity, a.vc, v, true, at);
  return true;
}

void World::copy(uint32_t entity, const Clock& vc, const View& dst, const View& src, StmtId at, bool add,
                 const Effect* split) {
  llvm::SmallVector<double, 8> values;
  values.reserve(static_cast<size_t>(src.elements()));
  const std::vector<double>& from = src.st->data;
  src.for_each([&](int64_t flat) { values.push_back(flat < 0 ? 0.0 : from[flat]); });
  Storage& st = *dst.st;
  bool global = !st.writers.empty();
  size_t i = 0;
  dst.for_each([&](int64_t flat) {
    double x = i < values.size() ? values[i] : 0.0;
    ++i;
    if (flat < 0) return;
    st.data[flat] = round_to(st.dtype, add ? st.data[flat] + x : x);
    if (global) st.writers[flat] = at;
  });
  access(entity, vc, src, false, at);
  if (split)
    access(split->write_entity, split->written, dst, true, at, add);
  else
    access(entity, vc, dst, true, at, add);
}

Mbarrier* World::barrier(Actor& a, ExprId id, int64_t* index, int cta) {
  const Module& m = ctx_.m;
  const Expr& e = m.exprs[id];
  SymbolId sym = root_symbol(m, id);
  // A `dsmem` view of a peer's mbarrier (a CTA pair's copies): that CTA's.
  if (sym != kNone && m.symbols[sym].kind == SymbolKind::Dsmem && m.symbols[sym].tensor != kNone) {
    auto rank = integer(a, m.symbols[sym].value);
    if (!rank || *rank < 0 || *rank >= static_cast<int64_t>(ctas_.size())) return nullptr;
    cta = static_cast<int>(*rank);
    sym = m.symbols[sym].tensor;
  }
  int64_t i = 0;
  if (e.kind == Expr::Kind::Index && !e.items.empty()) {
    auto v = integer(a, e.items[0].start);
    if (!v) return nullptr;
    i = *v;
  }
  auto& arrays = ctas_[cta < 0 ? a.cta : cta].mbarriers;
  auto it = arrays.find(sym);
  if (it == arrays.end() || i < 0 || i >= static_cast<int64_t>(it->second.size())) return nullptr;
  if (index) *index = i;
  return &it->second[static_cast<size_t>(i)];
}

std::optional<Tile> World::tile(Actor& a, ExprId id, const Window& w, StmtId at) {
  const Module& m = ctx_.m;
  const Expr& e = m.exprs[id];
  std::string error;
  auto unsupported = [&](std::string message) -> std::optional<Tile> {
    ctx_.fail(RunProblem::Kind::Unsupported, e.range, std::move(message));
    return std::nullopt;
  };
  auto as_integer = [&]() -> std::optional<Tile> {
    auto v = integer(a, id);
    if (!v) return unsupported("the executor cannot evaluate `" + std::string(m.written(e.range)) + "` here");
    return Tile::constant(static_cast<double>(*v), true);
  };
  switch (e.kind) {
    case Expr::Kind::Int:
    case Expr::Kind::Bool:
      return Tile::constant(static_cast<double>(e.int_value), true);
    case Expr::Kind::Float:
      return Tile::constant(e.float_value, true);
    case Expr::Kind::Name: {
      if (e.symbol == kNone) return unsupported("`" + std::string(e.text) + "` names nothing");
      const Symbol& s = m.symbols[e.symbol];
      switch (s.kind) {
        case SymbolKind::Builtin:
          if (s.name == "inf") return Tile::constant(INFINITY, true);
          if (s.name == "nan") return Tile::constant(NAN, true);
          return as_integer();
        case SymbolKind::Let:
        case SymbolKind::Const:
          if (auto v = integer(a, id)) return Tile::constant(static_cast<double>(*v), true);
          return tile(a, s.value, w, at);
        case SymbolKind::ScalarParam: {
          auto it = ctx_.scalars.find(e.symbol);
          if (it == ctx_.scalars.end()) return as_integer();
          Tile t = Tile::constant(it->second, false, s.type.dtype);
          return t;
        }
        case SymbolKind::TensorParam:
        case SymbolKind::Smem:
        case SymbolKind::Tmem:
        case SymbolKind::Reg:
        case SymbolKind::Dsmem: {
          auto v = view(a, id, at);
          if (!v) return std::nullopt;
          return read(a, windowed(*v, w), at);
        }
        case SymbolKind::ShapeSymbol: case SymbolKind::LoopVar: case SymbolKind::StageVar:
          return as_integer();
        case SymbolKind::Mbarrier: case SymbolKind::NamedBarrier: case SymbolKind::Tensormap:
        case SymbolKind::Role: case SymbolKind::Kernel: case SymbolKind::Dispatch: case SymbolKind::DispatchParam:
          return unsupported("`" + std::string(s.name) + "` is not a value");
      }
      return std::nullopt;
    }
    case Expr::Kind::Index:
    case Expr::Kind::Transpose: {
      auto v = view(a, id, at);
      if (!v) return ctx_.stop ? std::nullopt : as_integer();
      return read(a, windowed(*v, w), at);
    }
    case Expr::Kind::Field:
      return as_integer();
    case Expr::Kind::Unary: {
      auto x = tile(a, e.lhs, w, at);
      if (!x) return x;
      auto r = apply(e.text, *x, error);
      if (!r) return unsupported(error);
      return r;
    }
    case Expr::Kind::Binary: {
      if (integral(id))
        if (auto v = integer(a, id)) return Tile::constant(static_cast<double>(*v), true);
      auto x = tile(a, e.lhs, w, at);
      if (!x) return x;
      auto y = tile(a, e.rhs, w, at);
      if (!y) return y;
      auto r = combine(e.text, *x, *y, error);
      if (!r) return unsupported(error);
      return r;
    }
    case Expr::Kind::Call: {
      if (e.text == "bytes" || e.text == "cdiv") return as_integer();
      if ((e.text == "max" || e.text == "min") && e.args.size() == 2) {
        auto x = tile(a, e.args[0], w, at);
        if (!x) return x;
        auto y = tile(a, e.args[1], w, at);
        if (!y) return y;
        auto r = combine(e.text, *x, *y, error);
        if (!r) return unsupported(error);
        return r;
      }
      if ((e.text == "row" || e.text == "col") && e.args.size() == 1) {
        // Each element's place in the owner's tile: the window's rows of a
        // warpgroup's fragment start at its first row.
        auto v = view(a, e.args[0], at);
        if (!v) return std::nullopt;
        View wv = windowed(*v, w);
        if (wv.rank() != 2) return unsupported("`" + std::string(e.text) + "` of a fragment that is not 2-D");
        Tile t;
        t.dtype = DType::I32;
        t.scalar = false;
        t.dims.assign(wv.extent.begin(), wv.extent.end());
        t.values.reserve(static_cast<size_t>(wv.elements()));
        for (int64_t r = 0; r < wv.extent[0]; ++r)
          for (int64_t c = 0; c < wv.extent[1]; ++c)
            t.values.push_back(static_cast<double>(e.text == "row" ? wv.origin[0] + r : wv.origin[1] + c));
        return t;
      }
      if (e.text == "select" && e.args.size() == 3) {
        std::optional<Tile> x[3];
        for (int k = 0; k < 3; ++k)
          if (!(x[k] = tile(a, e.args[k], w, at))) return std::nullopt;
        auto r = choose(*x[0], *x[1], *x[2], error);
        if (!r) return unsupported(error);
        return r;
      }
      if (e.args.size() != 1) return unsupported("the executor has no function `" + std::string(e.text) + "`");
      auto x = tile(a, e.args[0], w, at);
      if (!x) return x;
      auto r = apply(e.text, *x, error);
      if (!r) return unsupported(error);
      return r;
    }
    case Expr::Kind::Cast: {
      auto x = tile(a, e.lhs, w, at);
      if (!x) return x;
      return convert(*x, e.cast_type);
    }
    case Expr::Kind::Error:
      return unsupported("a syntax error");
  }
  return std::nullopt;
}

}  // namespace cake::exec
