// The bounds prover (bounds.h): corner-point evaluation of indices and
// slices over shape samples, loops and builtins.
#include "checks/statements/bounds.h"

#include "facts/samples.h"
#include "cake/checked.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <functional>

namespace cake {

namespace {

/// Points of the guarded builtins tried for one index at most (every lane
/// of 32 warps is 1,024).
constexpr int64_t kMaxGuardedPoints = 1024;

}  // namespace

std::optional<OutOfBounds> BoundsProver::find(const BoundsScope& scope, const Typed& base, size_t dim_index,
                                              const IndexItem& item) {
  scope_ = &scope;
  ExprId dim = base.dims[dim_index];
  bool slice = item.kind == IndexItem::Kind::Slice;
  if (slice) {
    if (auto ext = eval_.fold(item.extent); ext && *ext <= 0) {
      return OutOfBounds{OutOfBounds::Kind::ExtentNotPositive, *ext, dim_index, 0, ""};
    }
  }
  condition_symbols_.clear();
  for (const Guard& g : *scope.guards) eval_.free_symbols(g.condition, condition_symbols_);
  std::vector<SymbolId> free;
  eval_.free_symbols(item.start, free);
  if (slice) eval_.free_symbols(item.extent, free);
  eval_.free_symbols(dim, free);
  // A builtin only a guard reads is tried too (`if lane < 16` around an
  // index of `warp.id`), else the guard could not say which points it admits.
  for (SymbolId s : condition_symbols_)
    if (m_.symbols[s].kind == SymbolKind::Builtin && std::find(free.begin(), free.end(), s) == free.end()) free.push_back(s);
  if (free.empty()) {
    // Nothing here reads a shape symbol, loop variable or builtin, so every
    // sample gives the same values: one evaluation finds the in-bounds case.
    auto r = reach(dim, item, nullptr);
    if (!r || (r->start >= 0 && r->end <= r->dim)) return std::nullopt;
  }
  static const std::vector<Env> no_samples{Env{}};
  const std::vector<Env>& samples = scope.samples->empty() ? no_samples : *scope.samples;
  for (const Env& sample : samples) {
    Env& env = scratch_env_;  // reuses its capacity across samples
    env = sample;
    std::optional<OutOfBounds> found;
    enumerate(env, free, 0, [&](const Env& point) {
      auto r = reach(dim, item, &point);
      if (!r || (r->start >= 0 && r->end <= r->dim)) return false;
      int64_t start = r->start, end = r->end, d = r->dim;
      if (!admitted(point)) return false;
      OutOfBounds o;
      o.kind = start < 0 ? (slice ? OutOfBounds::Kind::SliceStart : OutOfBounds::Kind::Index)
                         : (slice ? OutOfBounds::Kind::SliceEnd : OutOfBounds::Kind::Index);
      o.value = start < 0 || !slice ? start : end;
      o.dim_index = dim_index;
      o.dim = d;
      std::vector<SymbolId> shown = m_.kernels[scope_->kernel].shape_symbols;
      for (SymbolId f : free)
        if (std::find(shown.begin(), shown.end(), f) == shown.end() && point.values.count(f)) shown.push_back(f);
      std::string example = describe(m_, point, shown);
      for (auto& [sym, fields] : point.fields)
        for (auto& [name, value] : fields)
          example += (example.empty() ? "" : ", ") + std::string(m_.symbols[sym].name) + "." + std::string(name) +
                     " = " + std::to_string(value);
      o.example = std::move(example);
      found = std::move(o);
      return true;
    });
    if (found) return found;
  }
  return std::nullopt;
}

/// Where an index item reaches in `dim` at `point`, when every part is known.
std::optional<BoundsProver::Reach> BoundsProver::reach(ExprId dim, const IndexItem& item, const Env* point) const {
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

/// Calls `visit` at the corner points of every free loop variable and
/// builtin; stops when it returns true.
bool BoundsProver::enumerate(Env& env, const std::vector<SymbolId>& free, size_t level, llvm::function_ref<bool(const Env&)> visit) {
  // Builtins first (block.x, role.rank, warp.id, lane), then loops outer to inner.
  if (level == 0) {
    for (SymbolId s : free) {
      const Symbol& sym = m_.symbols[s];
      if (sym.kind != SymbolKind::Builtin) continue;
      if (sym.name == "lane") env.values[s] = 31;
      else if (sym.name == "block") {
        const Kernel& k = m_.kernels[scope_->kernel];
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
      } else if (sym.name == "role" && scope_->role.known) env.fields[s]["rank"] = scope_->role.units - 1;
      else if (sym.name == "warp" && scope_->role.known) env.fields[s]["id"] = scope_->role.first_warp + scope_->role.warps - 1;
      else if (sym.name == "cluster") {
        std::optional<int64_t> n = 1;
        for (ExprId d : m_.kernels[scope_->kernel].cluster)
          if (auto v = eval_.fold(d); v && n) n = checked_mul(*n, *v);
        if (n && *n > 0) env.fields[s]["rank"] = *n - 1;
      }
    }
    // Evaluate at the largest builtin values, then at the smallest: zero,
    // but inside a role `warp.id` starts at the role's first warp. A
    // builtin a guard reads, of a small range (`lane`, `warp.id`,
    // `role.rank`), is tried at every value: the values a guard admits need
    // not include a corner (`if lane < 16` and its `else`, `if warp.id ==
    // 1`). Not `cluster.rank`, which `block.x` decides: tried apart from it,
    // CTA 0's rank would meet the last CTA's rows.
    struct Axis {
      SymbolId symbol;
      const char* field;  // nullptr: the value itself (`lane`)
      int64_t first, last;
    };
    std::vector<Axis> axes;
    int64_t points = 1;
    auto guarded = [&](SymbolId s) {
      return std::find(condition_symbols_.begin(), condition_symbols_.end(), s) != condition_symbols_.end();
    };
    for (SymbolId s : free) {
      const Symbol& sym = m_.symbols[s];
      if (sym.kind != SymbolKind::Builtin || !guarded(s)) continue;
      Axis a{s, nullptr, 0, -1};
      if (sym.name == "lane") a.last = 31;
      else if (sym.name == "warp" && scope_->role.known)
        a = {s, "id", scope_->role.first_warp, scope_->role.first_warp + scope_->role.warps - 1};
      else if (sym.name == "role" && scope_->role.known) a = {s, "rank", 0, scope_->role.units - 1};
      int64_t n = a.last - a.first + 1;
      if (n <= 1 || points * n > kMaxGuardedPoints) continue;
      points *= n;
      axes.push_back(a);
    }
    auto set = [&](const Axis& a, int64_t v) {
      if (a.field) env.fields[a.symbol][a.field] = v;
      else env.values[a.symbol] = v;
    };
    std::function<bool(size_t)> sweep = [&](size_t i) {
      if (i == axes.size()) return enumerate_loops(env, free, 0, visit);
      for (int64_t v = axes[i].first; v <= axes[i].last; ++v) {
        set(axes[i], v);
        if (sweep(i + 1)) return true;
      }
      return false;
    };
    auto swept = [&](SymbolId s) {
      return std::any_of(axes.begin(), axes.end(), [&](const Axis& a) { return a.symbol == s; });
    };
    if (sweep(0)) return true;
    bool any = false;
    for (auto& [sym, fields] : env.fields)
      for (auto& [name, value] : fields) {
        int64_t low = m_.symbols[sym].name == "warp" && name == "id" && scope_->role.known ? scope_->role.first_warp : 0;
        any |= value != low && !swept(sym);
        value = low;
      }
    for (SymbolId s : free)
      if (m_.symbols[s].kind == SymbolKind::Builtin && m_.symbols[s].name == "lane") {
        any |= !swept(s);
        env.values[s] = 0;
      }
    return any && sweep(0);
  }
  return enumerate_loops(env, free, 0, visit);
}

bool BoundsProver::enumerate_loops(Env& env, const std::vector<SymbolId>& free, size_t loop, llvm::function_ref<bool(const Env&)> visit) {
  if (loop == scope_->loops->size()) return visit(env);
  const LoopBounds& l = (*scope_->loops)[loop];
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
  llvm::SmallVector<int64_t, 8> values{*start, last};
  auto stages = l.stages != kNone ? eval_.fold(l.stages) : std::nullopt;
  if (stage_free && stages && *stages > 0)
    for (int64_t k = 1; k < std::min<int64_t>(*stages, 16); ++k) {
      auto offset = checked_mul(k, step);
      auto v = offset ? checked_add(*start, *offset) : std::nullopt;
      if (v && *v <= last) values.push_back(*v);
    }
  // Where a guard on this loop's variable turns (`if kt + 3 <= kts`): the
  // last trip it admits is a corner too, and the first, since the extremes
  // may be just the trips it excludes.
  if (var_free && l.variable != kNone && last > *start)
    for (const Guard& g : *scope_->guards) {
      auto holds = [&](int64_t i) -> std::optional<bool> {
        env.values[l.variable] = *start + i * step;
        auto v = eval_.eval(g.condition, &env);
        if (!v) return std::nullopt;
        return (*v != 0) == g.holds;
      };
      int64_t lo = 0, hi = (last - *start) / step;
      auto at_lo = holds(lo), at_hi = holds(hi);
      if (!at_lo || !at_hi || *at_lo == *at_hi) continue;
      // Bisect the turn, taking the guard to turn once (it is monotone in
      // the variable for the sums and products guards are made of).
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        auto m = holds(mid);
        if (!m) break;
        (*m == *at_lo ? lo : hi) = mid;
      }
      values.push_back(*start + lo * step);
      values.push_back(*start + hi * step);
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

bool BoundsProver::admitted(const Env& point) const {
  for (const Guard& g : *scope_->guards) {
    auto v = eval_.eval(g.condition, &point);
    if (!v || (*v != 0) != g.holds) return false;  // a guard may exclude this point
  }
  return true;
}

bool BoundsProver::loop_needed_by_conditions(const LoopBounds& l) const {
  return std::find(condition_symbols_.begin(), condition_symbols_.end(), l.variable) != condition_symbols_.end();
}

}  // namespace cake
