// Statements other than ops: control flow, `elect`, declarations,
// assignments, reductions, waits and named barriers; see world.h. Ops are in
// ops.cpp.
#include "world.h"

#include "cake/exec/numeric.h"
#include "cake/ops.h"

#include <algorithm>
#include <cmath>

namespace cake::exec {

void World::set_lane(Actor& a, int64_t lane) {
  a.lane = lane;
  if (ctx_.lane != kNone) a.env.values[ctx_.lane] = lane;
  // The lane's own trip of each loop whose range differs between lanes.
  for (const Frame& f : a.frames)
    if (f.lanes_vary) bind_loop(a, f, f.lane_value[static_cast<size_t>(lane & 31)]);
}

void World::bind_loop(Actor& a, const Frame& f, int64_t value) {
  if (f.variable != kNone) a.env.values[f.variable] = value;
  if (f.stage != kNone && f.stages > 0) {
    a.env.values[f.stage] = value % f.stages;
    a.env.fields[f.stage]["phase"] = (value / f.stages) % 2;
  }
}

bool World::per_lane_symbol(SymbolId s) const {
  const Symbol& sym = ctx_.m.symbols[s];
  return s == ctx_.lane || (sym.kind == SymbolKind::Reg && sym.type.layout == FragLayout::None) || ctx_.lane_vars.count(s);
}

bool World::runs_per_lane_expr(ExprId e) {
  std::vector<SymbolId> syms;
  ctx_.eval.free_symbols(e, syms);
  return std::any_of(syms.begin(), syms.end(), [&](SymbolId s) { return per_lane_symbol(s); });
}

std::optional<bool> World::condition(Actor& a, ExprId e, StmtId at) {
  if (auto v = integer(a, e)) return *v != 0;
  // A condition on register values: an element-wise comparison of scalars.
  auto t = tile(a, e, {}, at);
  if (!t) return std::nullopt;
  if (!t->scalar) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.exprs[e].range, "a condition must be one value, not a tile");
    return std::nullopt;
  }
  return t->values[0] != 0;
}

bool World::runs_per_lane(StmtId id) {
  auto it = ctx_.per_lane.find(id);
  if (it != ctx_.per_lane.end()) return it->second;
  std::vector<SymbolId> syms;
  for (ExprId e : operand_exprs(ctx_.m.stmts[id])) ctx_.eval.free_symbols(e, syms);
  if (const auto* d = std::get_if<DeclStmt>(&ctx_.m.stmts[id].node)) syms.push_back(d->symbol);
  bool per_lane = std::any_of(syms.begin(), syms.end(), [&](SymbolId s) { return per_lane_symbol(s); });
  ctx_.per_lane[id] = per_lane;
  return per_lane;
}

bool World::broadcasts(StmtId id) {
  auto [it, fresh] = ctx_.broadcast.try_emplace(id, false);
  if (fresh) {
    const auto* mv = std::get_if<MoveStmt>(&ctx_.m.stmts[id].node);
    it->second = mv && op_info(mv->op).completion == OpCompletion::Immediate &&
                 op_info(mv->op).issue == OpIssue::Collective && root_symbol(ctx_.m, mv->dst) != kNone &&
                 ctx_.m.symbols[root_symbol(ctx_.m, mv->dst)].kind == SymbolKind::Reg && !runs_per_lane_expr(mv->src);
  }
  return it->second;
}

World::Result World::broadcast_load(Actor& a, StmtId id, uint32_t mask) {
  // Every lane reads the same source: read it once, write each lane's
  // fragment (what the lanes would do one by one, without 31 re-reads).
  const auto& mv = std::get<MoveStmt>(ctx_.m.stmts[id].node);
  auto src = view(a, mv.src, id);
  if (!src) {
    if (!ctx_.stop) ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, "the executor cannot resolve this move's operands");
    return Result::Stop;
  }
  Tile t = read(a, *src, id);
  Result r = Result::Next;
  for (int64_t l = 0; l < 32 && r == Result::Next; ++l) {
    if (!(mask >> l & 1)) continue;
    set_lane(a, l);
    auto dst = view(a, mv.dst, id);
    r = dst && write(a, *dst, t, id) ? Result::Next : Result::Stop;
  }
  set_lane(a, std::countr_zero(mask));
  return r;
}

World::Result World::data_statement(Actor& a, StmtId id) {
  auto once = [&]() -> Result {
    return std::visit(
        [&](const auto& n) -> Result {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, MoveStmt> || std::is_same_v<T, MmaStmt> || std::is_same_v<T, ArgReduceStmt>)
            return op(a, id, n.op);
          else if constexpr (std::is_same_v<T, ReduceStmt>)
            return reduce(a, n, id);
          else if constexpr (std::is_same_v<T, AssignStmt>)
            return assign(a, n, id);
          else if constexpr (std::is_same_v<T, DeclStmt>)
            return decl(a, n, id);
          else
            return Result::Next;
        },
        ctx_.m.stmts[id].node);
  };
  if (!ctx_.lane_mode || !runs_per_lane(id)) return once();
  // Lane-serial: once per active lane, each a single thread.
  uint32_t mask = a.frames.back().mask;
  Result r = Result::Next;
  if (broadcasts(id)) return broadcast_load(a, id, mask);
  lane_serial_ = true;
  for (int64_t l = 0; l < 32 && r == Result::Next; ++l)
    if (mask >> l & 1) {
      set_lane(a, l);
      r = once();
    }
  lane_serial_ = false;
  set_lane(a, std::countr_zero(mask));
  return r;
}

World::Result World::statement(Actor& a, StmtId id) {
  const Module& m = ctx_.m;
  const Stmt& s = m.stmts[id];
  Frame& top = a.frames.back();
  const uint32_t mask = top.mask;
  const bool elected = top.elected;
  return std::visit(
      [&](const auto& n) -> Result {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, MoveStmt> || std::is_same_v<T, MmaStmt> || std::is_same_v<T, ArgReduceStmt> ||
                      std::is_same_v<T, ReduceStmt> || std::is_same_v<T, AssignStmt> || std::is_same_v<T, DeclStmt>) {
          return data_statement(a, id);
        } else if constexpr (std::is_same_v<T, PlainStmt> || std::is_same_v<T, GroupWaitStmt> ||
                             std::is_same_v<T, ArriveStmt> || std::is_same_v<T, CommitStmt>) {
          return op(a, id, n.op);
        } else if constexpr (std::is_same_v<T, WaitStmt>) {
          int64_t index = 0;
          Mbarrier* b = barrier(a, n.barrier, &index);
          auto parity = integer(a, n.parity);
          if (!b || !parity) {
            ctx_.fail(RunProblem::Kind::Unsupported, s.range, "the executor cannot evaluate this wait");
            return Result::Stop;
          }
          if (b->completed % 2 != (*parity & 1)) {
            if (b->completed > 0) {
              const Clock& phase = b->phase[*parity & 1];
              join(a.vc, phase);
              // Every lane acquires what every lane released into it (an
              // arrive of all lanes): those accesses are ordered for each
              // lane, as after a barrier.
              if (!a.narrow) a.synced = std::max(a.synced, exec::at(phase, a.warp_entity));
            }
            return Result::Next;
          }
          a.blocked_on = "`" + std::string(m.written(m.exprs[n.barrier].range)) + "` (element " +
                         std::to_string(index) + ") has completed " + std::to_string(b->completed) +
                         " phases and needs one more for parity " + std::to_string(*parity & 1) + "; its current phase has " +
                         std::to_string(b->arrivals) + " of " + std::to_string(b->count) + " arrivals" +
                         (b->tx != 0 ? " and " + std::to_string(b->tx) + " transaction bytes outstanding" : "");
          return Result::Blocked;
        } else if constexpr (std::is_same_v<T, SyncStmt>) {
          NamedBarrier* b = named_of(a, n.barrier);
          if (!b) {
            ctx_.fail(RunProblem::Kind::Unsupported, s.range, "no named barrier with this id");
            return Result::Stop;
          }
          return named_barrier(a, *b, "`" + std::string(m.written(m.exprs[n.barrier].range)) + "`");
        } else if constexpr (std::is_same_v<T, LetStmt>) {
          return Result::Next;  // lets are evaluated where they are read
        } else if constexpr (std::is_same_v<T, ElectStmt>) {
          const RoleView& r = *a.role;
          bool me = false;
          switch (n.kind) {
            case ElectStmt::Kind::One: me = a.warp == r.first_warp; break;
            case ElectStmt::Kind::PerWarpgroup: me = a.warp == std::max(r.first_warp, a.warp / 4 * 4); break;
            case ElectStmt::Kind::PerWarp: me = true; break;
          }
          if (!me) return Result::Next;
          // The elected thread: the lowest active lane (a nested elect keeps it).
          Frame f;
          f.body = &n.body;
          f.mask = elected ? mask : mask & (~mask + 1);
          f.elected = true;
          a.frames.push_back(f);
          set_lane(a, std::countr_zero(f.mask));
          return Result::Next;
        } else if constexpr (std::is_same_v<T, ForStmt>) {
          return push_loop(a, n.variable, kNone, n.start, n.end, n.step, kNone, n.body, id);
        } else if constexpr (std::is_same_v<T, PipelineStmt>) {
          return push_loop(a, n.variable, n.stage, n.start, n.end, n.step, n.stages, n.body, id);
        } else if constexpr (std::is_same_v<T, IfStmt>) {
          // A condition that differs between lanes (it reads `lane` or a
          // per-thread fragment of a lane-serial kernel) splits the warp:
          // the `then` lanes run their branch, then the `else` lanes theirs.
          bool split = ctx_.lane_mode && runs_per_lane_expr(n.condition);
          uint32_t then_mask = 0;
          for (int64_t l = 0; l < 32; ++l) {
            if (!(mask >> l & 1)) continue;
            if (split) set_lane(a, l);
            auto c = condition(a, n.condition, id);
            if (!c) {
              if (split) set_lane(a, std::countr_zero(mask));
              return Result::Stop;
            }
            if (*c) then_mask |= uint32_t(1) << l;
            if (!split) {
              then_mask = *c ? mask : 0;
              break;
            }
          }
          if (split) set_lane(a, std::countr_zero(mask));
          uint32_t else_mask = mask & ~then_mask;
          for (auto [body, lanes] : {std::pair{&n.else_body, else_mask}, std::pair{&n.then_body, then_mask}}) {
            if (lanes == 0 || body->empty()) continue;
            Frame f;
            f.body = body;
            f.mask = lanes;
            f.elected = elected;
            a.frames.push_back(f);
          }
          if (!a.frames.empty() && a.frames.back().mask != mask) set_lane(a, std::countr_zero(a.frames.back().mask));
          return Result::Next;
        } else if constexpr (std::is_same_v<T, RoleStmt>) {
          return Result::Next;  // each actor starts inside its role
        }
      },
      s.node);
}

World::Result World::push_loop(Actor& a, SymbolId var, SymbolId stage, ExprId start, ExprId end, ExprId step,
                               ExprId stages, const std::vector<StmtId>& body, StmtId id) {
  auto trips = ctx_.eval.trips(start, end, step, &a.env);
  auto ring = stages == kNone ? std::optional<int64_t>(0) : ctx_.eval.fold(stages);
  auto first = integer(a, start);
  if (!trips || !ring || *ring < 0 || !first) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, "the executor cannot evaluate this loop's range");
    return Result::Stop;
  }
  Frame f;
  f.body = &body;
  f.mask = a.frames.back().mask;
  f.elected = a.frames.back().elected;
  f.loop = true;
  f.variable = var;
  f.stage = stage;
  f.stages = *ring;
  if (ctx_.lane_mode && (runs_per_lane_expr(start) || runs_per_lane_expr(end) || (step != kNone && runs_per_lane_expr(step)))) {
    // The range may differ between the lanes: each lane's own. Where it
    // does, the lanes run the loop together while any still iterates,
    // iteration k of every lane before iteration k + 1 of any (as the
    // lowering's loop of ballots does), each lane its own trips.
    uint32_t mask = f.mask, running = 0;
    int64_t lane = a.lane;
    for (int64_t l = 0; l < 32; ++l)
      if (mask >> l & 1) {
        set_lane(a, l);
        auto t = ctx_.eval.trips(start, end, step, &a.env);
        auto s = integer(a, start);
        auto by = step == kNone ? std::optional<int64_t>(1) : integer(a, step);
        if (!t || !s || !by) {
          set_lane(a, lane);
          ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, "the executor cannot evaluate this loop's range");
          return Result::Stop;
        }
        f.lane_value[l] = *s;
        f.lane_step[l] = *by;
        f.lane_left[l] = *t - 1;
        if (*t > 0) running |= uint32_t(1) << l;
      }
    set_lane(a, lane);
    bool same = true;
    for (int64_t l = 0; l < 32; ++l)
      if (mask >> l & 1)
        same = same && f.lane_value[l] == *first && f.lane_left[l] == *trips - 1 &&
               f.lane_step[l] == f.lane_step[std::countr_zero(mask)];
    if (!same) {
      if (running == 0) return Result::Next;
      f.lanes_vary = true;
      f.mask = running;
      a.frames.push_back(f);
      set_lane(a, std::countr_zero(running));
      return Result::Next;
    }
  }
  if (*trips == 0) return Result::Next;
  f.value = *first;
  f.step = step == kNone ? 1 : integer(a, step).value_or(1);
  f.trips_left = *trips - 1;
  bind_loop(a, f, f.value);
  a.frames.push_back(f);
  return Result::Next;
}

World::Result World::named_barrier(Actor& a, NamedBarrier& b, std::string what) {
  if (a.waiting == &b) {
    if (b.generation <= a.waiting_generation) {
      a.blocked_on = what + " has " + std::to_string(b.arrived) + " of its " + std::to_string(b.expected) + " threads";
      return Result::Blocked;
    }
    auto it = b.released.find(a.waiting_generation + 1);
    if (it != b.released.end()) join(a.vc, it->second);
    a.waiting = nullptr;
    return Result::Next;
  }
  a.waiting = &b;
  a.waiting_generation = b.generation;
  named_arrive(a, b);
  return named_barrier(a, b, std::move(what));
}

NamedBarrier* World::named_of(const Actor& a, ExprId barrier) {
  const Module& m = ctx_.m;
  SymbolId sym = root_symbol(m, barrier);
  int64_t id = sym == kNone ? -1 : ctx_.eval.fold(m.symbols[sym].id).value_or(-1);
  auto it = ctas_[a.cta].named.find(id);
  return it == ctas_[a.cta].named.end() ? nullptr : &it->second;
}

void World::named_arrive(Actor& a, NamedBarrier& b) {
  // Every thread of the warp takes part, elected or not (bar.sync and
  // bar.arrive count whole warps).
  b.arrived += 32;
  join(b.joined, released(a));
  if (!a.narrow) a.synced = a.vc[a.warp_entity];
  release(a);
  if (b.arrived >= b.expected) {
    b.arrived = 0;
    ++b.generation;
    b.released[b.generation] = std::move(b.joined);
    b.joined.clear();
    while (b.released.size() > 4) b.released.erase(b.released.begin());
    changed();
  }
}

World::Result World::decl(Actor& a, const DeclStmt& d, StmtId id) {
  if (d.symbol == kNone) return Result::Next;
  const Symbol& s = ctx_.m.symbols[d.symbol];
  if (s.kind != SymbolKind::Reg || s.value == kNone) return Result::Next;
  Window w = window_of(a, id);
  View v = windowed(whole(fragment(a, d.symbol)), w);
  auto init = tile(a, s.value, w, id);
  if (!init) return Result::Stop;
  return write(a, v, *init, id) ? Result::Next : Result::Stop;
}

World::Result World::assign(Actor& a, const AssignStmt& s, StmtId id) {
  Window w = window_of(a, id);
  auto target = view(a, s.target, id);
  if (!target) {
    if (!ctx_.stop)
      ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, "the executor cannot assign to this target");
    return Result::Stop;
  }
  // Part of a warpgroup's fragment: its warp's rows of the part (every
  // operand is the same part or spreads over it), or nothing.
  w = part_window(*target, w);
  if (w.none) return Result::Next;
  View v = windowed(*target, w);
  auto value = tile(a, s.value, w, id);
  if (!value) return Result::Stop;
  if (s.op != "=") {
    Tile old = read(a, v, id);
    std::string error;
    auto r = combine(s.op.substr(0, 1), old, *value, error);
    if (!r) {
      ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, error);
      return Result::Stop;
    }
    value = std::move(r);
  } else if (!value->scalar && value->values.size() != static_cast<size_t>(v.elements())) {
    // A value of fewer dims (a `.row` vector, an [M, 1] or [N] operand)
    // spreads over the target as it would over an operand of its shape.
    Tile onto;
    onto.scalar = false;
    onto.row_vector = v.row_vector;
    onto.dims.assign(v.extent.begin(), v.extent.end());
    std::string error;
    auto r = spread_over(*value, onto, error);
    if (!r) {
      ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, error);
      return Result::Stop;
    }
    value = std::move(r);
  }
  return write(a, v, *value, id) ? Result::Next : Result::Stop;
}

World::Result World::reduce(Actor& a, const ReduceStmt& s, StmtId id) {
  Window w = window_of(a, id);
  auto dst = view(a, s.dst, id);
  auto src = view(a, s.src, id);
  if (!dst || !src) return Result::Stop;
  View d = windowed(*dst, w), x = windowed(*src, w);
  Tile t = read(a, x, id);
  if (t.dims.size() != 2 || d.elements() != t.dims[0]) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range, "a row reduction needs an [M, N] source and M values");
    return Result::Stop;
  }
  Tile out;
  out.dtype = d.st->dtype;
  out.scalar = false;
  out.dims = {t.dims[0]};
  for (int64_t r = 0; r < t.dims[0]; ++r) {
    double acc = s.kind == ReduceStmt::Kind::Sum ? 0.0 : t.values[static_cast<size_t>(r * t.dims[1])];
    for (int64_t c = 0; c < t.dims[1]; ++c) {
      double v = t.values[static_cast<size_t>(r * t.dims[1] + c)];
      switch (s.kind) {
        case ReduceStmt::Kind::Max: acc = std::isnan(v) || std::isnan(acc) ? NAN : std::max(acc, v); break;
        case ReduceStmt::Kind::Min: acc = std::isnan(v) || std::isnan(acc) ? NAN : std::min(acc, v); break;
        case ReduceStmt::Kind::Sum: acc += v; break;
      }
    }
    out.values.push_back(acc);
  }
  return write(a, d, out, id) ? Result::Next : Result::Stop;
}

}  // namespace cake::exec
