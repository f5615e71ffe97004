// A cluster of CTAs: set-up, the scheduler, barriers and async effects; see
// world.h.
//
// The scheduler. Schedule 0 is canonical: warps take turns, one statement
// each, and an async effect lands only when no warp can move (as late as the
// language allows). A seeded schedule picks the next warp at random and lands
// a random ready effect about one step in three (early or late within its
// window). Either way a run ends when every warp is done; when none can move
// and nothing is in flight, it is a deadlock.
#include "world.h"

#include "cake/exec/numeric.h"

#include <algorithm>

namespace cake::exec {

void RunContext::fail(RunProblem::Kind kind, ByteRange at, std::string message,
                      std::vector<RunProblem::Related> related) {
  RunProblem p;
  p.kind = kind;
  p.at = at;
  p.message = std::move(message);
  p.related = std::move(related);
  problems.push_back(std::move(p));
  if (kind != RunProblem::Kind::Race) stop = true;
}

World::World(RunContext& ctx, std::vector<std::array<int64_t, 3>> blocks, uint64_t seed)
    : ctx_(ctx), rng_(seed) {
  const Module& m = ctx.m;
  const Kernel& k = m.kernels[ctx.kernel];
  int64_t warps = 0;
  for (const RoleView& r : ctx.roles) warps = std::max(warps, r.first_warp + r.warps);
  for (size_t c = 0; c < blocks.size(); ++c) {
    Cta cta;
    for (int d = 0; d < 3; ++d) cta.block[d] = blocks[c][d];
    cta.rank = static_cast<int64_t>(c);
    for (StmtId id : k.body) {
      const auto* d = std::get_if<DeclStmt>(&m.stmts[id].node);
      if (!d || d->symbol == kNone) continue;
      const Symbol& s = m.symbols[d->symbol];
      switch (s.kind) {
        case SymbolKind::Smem:
        case SymbolKind::Tmem: {
          Storage st;
          st.symbol = d->symbol;
          st.name = s.name;
          st.dtype = s.type.dtype;
          st.space = s.type.space;
          st.order = s.type.order;
          std::vector<int64_t> dims;
          for (ExprId e : s.type.stage_dims) dims.push_back(ctx.eval.eval(e, &ctx.shape).value_or(1));
          st.stage_dims = dims.size();
          for (ExprId e : s.type.dims) dims.push_back(ctx.eval.eval(e, &ctx.shape).value_or(1));
          // Fresh shared and tensor memory holds garbage: NaN makes a read
          // before any write visible in the output.
          if (!st.shape(std::move(dims), is_float(st.dtype) ? NAN : 0, ctx.max_elements)) {
            ctx.fail(RunProblem::Kind::Unsupported, s.decl,
                     "`" + std::string(s.name) + "` is larger than the CPU executor holds (" +
                         std::to_string(ctx.max_elements) + " elements)");
            break;
          }
          cta.buffers.emplace(d->symbol, std::move(st));
          break;
        }
        case SymbolKind::Mbarrier: {
          int64_t n = s.value == kNone ? 1 : ctx.eval.fold(s.value).value_or(1);
          Mbarrier b;
          b.count = s.count == kNone ? 1 : ctx.eval.fold(s.count).value_or(1);
          cta.mbarriers[d->symbol].assign(static_cast<size_t>(std::max<int64_t>(n, 1)), b);
          break;
        }
        case SymbolKind::NamedBarrier: {
          int64_t id = ctx.eval.fold(s.id).value_or(-1);
          cta.named[id].expected = ctx.eval.fold(s.count).value_or(0);
          break;
        }
        case SymbolKind::Const: case SymbolKind::ShapeSymbol: case SymbolKind::TensorParam:
        case SymbolKind::ScalarParam: case SymbolKind::Reg: case SymbolKind::Tensormap: case SymbolKind::Dsmem:
        case SymbolKind::Let: case SymbolKind::LoopVar: case SymbolKind::StageVar:
        case SymbolKind::Role: case SymbolKind::Kernel: case SymbolKind::Dispatch:
        case SymbolKind::DispatchParam: case SymbolKind::Builtin:
          break;
      }
    }
    cta.named[0].expected = warps * 32;
    ctas_.push_back(std::move(cta));
  }
  cluster_barrier_.expected = warps * 32 * static_cast<int64_t>(blocks.size());

  // One actor per warp, its builtins bound.
  SymbolId warp = kNone, role = kNone, block = kNone, cluster = kNone;
  for (SymbolId id = 0; id < m.symbols.size() && m.symbols[id].kind == SymbolKind::Builtin; ++id) {
    std::string_view n = m.symbols[id].name;
    if (n == "warp") warp = id;
    if (n == "role") role = id;
    if (n == "block") block = id;
    if (n == "cluster") cluster = id;
  }
  for (size_t c = 0; c < ctas_.size(); ++c)
    for (const RoleView& r : ctx.roles)
      for (int64_t w = r.first_warp; w < r.first_warp + r.warps; ++w) {
        Actor a;
        a.entity = a.warp_entity = new_entity(static_cast<int>(actors_.size()));
        a.lone = new_entity(static_cast<int>(actors_.size()));
        a.cta = static_cast<int>(c);
        a.warp = w;
        a.role = &r;
        a.rank = r.kind == RoleSpec::Kind::Warpgroup ? w / 4 - r.first_warp / 4 : w - r.first_warp;
        a.env = ctx.shape;
        if (ctx.lane != kNone) a.env.values[ctx.lane] = 0;
        if (warp != kNone) a.env.fields[warp]["id"] = w;
        if (role != kNone) a.env.fields[role]["rank"] = a.rank;
        if (block != kNone) {
          a.env.fields[block]["x"] = ctas_[c].block[0];
          a.env.fields[block]["y"] = ctas_[c].block[1];
          a.env.fields[block]["z"] = ctas_[c].block[2];
        }
        if (cluster != kNone) a.env.fields[cluster]["rank"] = ctas_[c].rank;
        Frame f;
        f.body = r.body;
        a.frames.push_back(f);
        actors_.push_back(std::move(a));
      }
  for (Actor& a : actors_) {
    a.vc.assign(owner_.size(), 0);
    a.vc[a.warp_entity] = a.vc[a.lone] = 1;
  }
}

void World::run() {
  while (!ctx_.stop) {
    std::vector<int> runnable;
    for (size_t i = 0; i < actors_.size(); ++i) {
      const Actor& a = actors_[i];
      if (!a.done && (!a.blocked || a.blocked_gen != gen_)) runnable.push_back(static_cast<int>(i));
    }
    std::vector<int> ready;
    for (int i : pending_)
      if (effects_[i].prev < 0 || effects_[effects_[i].prev].landed) ready.push_back(i);
    if (runnable.empty() && ready.empty()) {
      if (std::any_of(actors_.begin(), actors_.end(), [](const Actor& a) { return !a.done; })) deadlock();
      return;
    }
    if (ctx_.schedule == 0) {
      if (!runnable.empty()) {
        // Round-robin from the actor after the last one that ran.
        auto it = std::lower_bound(runnable.begin(), runnable.end(), static_cast<int>(next_actor_));
        int pick = it == runnable.end() ? runnable.front() : *it;
        next_actor_ = static_cast<size_t>(pick) + 1;
        step_actor(pick);
      } else {
        land(ready.front());
      }
      continue;
    }
    bool land_now = !ready.empty() && (runnable.empty() || rng_() % 3 == 0);
    if (land_now) {
      land(ready[rng_() % ready.size()]);
    } else {
      int pick = runnable[rng_() % runnable.size()];
      int n = 1 + static_cast<int>(rng_() % 4);
      for (int i = 0; i < n && step_actor(pick); ++i) {}
    }
  }
}

/// Runs one statement of actor `index` (or ends a finished block); false
/// when it cannot go on (done, blocked, stopped).
bool World::step_actor(int index) {
  Actor& a = actors_[index];
  while (!a.frames.empty()) {
    Frame& f = a.frames.back();
    if (f.pc < f.body->size()) break;
    if (f.lanes_vary) {
      // The lanes whose range has trips left go round again, the others
      // wait at the loop's end.
      uint32_t next = 0;
      for (int64_t l = 0; l < 32; ++l)
        if ((f.mask >> l & 1) && f.lane_left[l] > 0) {
          --f.lane_left[l];
          f.lane_value[l] += f.lane_step[l];
          next |= uint32_t(1) << l;
        }
      if (next != 0) {
        f.mask = next;
        f.pc = 0;
        set_lane(a, std::countr_zero(next));
        return true;
      }
      a.frames.pop_back();
      if (!a.frames.empty()) set_lane(a, std::countr_zero(a.frames.back().mask));
      continue;
    }
    if (f.loop && f.trips_left > 0) {
      --f.trips_left;
      f.value += f.step;
      bind_loop(a, f, f.value);
      f.pc = 0;
      return true;
    }
    a.frames.pop_back();
  }
  if (a.frames.empty()) {
    a.done = true;
    narrow_to(a, Frame{});  // every lane ends: the warp's whole clock
    if (std::none_of(actors_.begin(), actors_.end(), [&](const Actor& o) { return o.cta == a.cta && !o.done; }))
      end_cta(a.cta);
    changed();
    return false;
  }
  if (++ctx_.statements > ctx_.max_steps) {
    ctx_.fail(RunProblem::Kind::StepLimit, ctx_.m.kernels[ctx_.kernel].range,
              "the run stopped after " + std::to_string(ctx_.max_steps) + " statements");
    return false;
  }
  size_t frame = a.frames.size() - 1;
  narrow_to(a, a.frames[frame]);
  StmtId id = (*a.frames[frame].body)[a.frames[frame].pc];
  a.frames[frame].pc++;
  Result r = exec(a, id);
  if (r == Result::Blocked) {
    a.frames[frame].pc--;
    a.blocked = true;
    a.blocked_gen = gen_;
    a.blocked_at = id;
    return false;
  }
  if (a.blocked) {
    a.blocked = false;
    a.blocked_on.clear();
  }
  return r == Result::Next;
}

World::Result World::exec(Actor& a, StmtId id) { return statement(a, id); }

void World::narrow_to(Actor& a, const Frame& top) {
  const bool narrow = top.elected || top.mask != ~0u;
  const bool electing = top.elected && a.entity != a.lone;
  a.entity = top.elected ? a.lone : a.warp_entity;
  // The elected thread knows the other lanes' accesses up to the warp's
  // last barrier only (`elect` orders nothing), with what it acquired
  // itself in earlier narrow code (`one`).
  auto cap = [&] { a.vc[a.warp_entity] = std::min(a.vc[a.warp_entity], a.synced); };
  if (narrow == a.narrow) {
    if (electing) cap();
    return;
  }
  a.narrow = narrow;
  if (narrow) {
    a.wide = a.vc;
    if (electing) cap();
    join(a.vc, a.one);
    return;
  }
  // Back to all lanes: they know what they knew; the narrow code's
  // acquisitions stay its own, its epochs go on.
  a.one = std::move(a.vc);
  a.vc = std::move(a.wide);
  a.wide.clear();
  for (uint32_t e : {a.warp_entity, a.lone}) a.vc[e] = std::max(a.vc[e], a.one[e]);
}

Clock World::released(const Actor& a) const {
  Clock c = a.vc;
  if (a.narrow)
    c[a.warp_entity] = std::min(c[a.warp_entity], a.synced);
  else
    join(c, a.one);
  return c;
}

void World::land(int index) {
  Effect& e = effects_[index];
  // An in-order queue (a warp's wgmma, tcgen05 or store groups) completes
  // its effects in order: each is ordered after the one before.
  if (e.prev >= 0) join(e.vc, effects_[e.prev].vc);
  e.landed = true;
  pending_.erase(std::find(pending_.begin(), pending_.end(), index));
  e.land(e);
  changed();
}

void World::arrive(Mbarrier& b, int64_t n, const Clock& vc) {
  b.arrivals += n;
  join(b.pending, vc);
  // Arrivals past the count carry into the next phase (E0401 reports them).
  while (b.count > 0 && b.arrivals >= b.count && b.tx == 0) {
    b.arrivals -= b.count;
    b.phase[b.completed % 2] = std::move(b.pending);
    b.pending.clear();
    ++b.completed;
  }
  changed();
}

void World::complete_tx(Mbarrier& b, int64_t bytes, const Clock& vc) {
  b.tx -= bytes;
  arrive(b, 0, vc);
}

int World::effect(Actor& a, StmtId stmt, int prev, std::function<void(Effect&)> land) {
  Effect e;
  e.actor = static_cast<int>(&a - actors_.data());
  e.entity = new_entity(e.actor);
  e.stmt = stmt;
  e.vc = a.vc;
  if (e.vc.size() <= e.entity) e.vc.resize(e.entity + 1, 0);
  e.vc[e.entity] = 1;
  e.prev = prev;
  e.land = std::move(land);
  // What the warp does after the issue is not ordered before the effect.
  release(a);
  effects_.push_back(std::move(e));
  pending_.push_back(static_cast<int>(effects_.size() - 1));
  changed();
  return static_cast<int>(effects_.size() - 1);
}

void World::end_cta(int c) {
  Clock end;
  for (const Actor& a : actors_)
    if (a.cta == c) {
      join(end, a.vc);
      join(end, a.one);
    }
  Cta& cta = ctas_[static_cast<size_t>(c)];
  auto close = [&](Storage& st) {
    if (st.tracked)
      for (const AccessRecord& r : st.history)
        if (exec::at(end, r.entity) < r.epoch) after_end(st, r.write, r.stmt);
    st.history.clear();
    st.freed = true;
  };
  for (auto& [sym, st] : cta.buffers) close(st);
  for (auto& [key, st] : cta.fragments) close(st);
}

void World::deadlock() {
  const Module& m = ctx_.m;
  std::vector<const Actor*> stuck;
  for (const Actor& a : actors_)
    if (!a.done) stuck.push_back(&a);
  const Actor& first = *stuck.front();
  auto where = [&](const Actor& a) {
    std::string who = a.role->name.empty() ? "the kernel" : "role `" + std::string(a.role->name) + "`";
    return who + " (warp " + std::to_string(a.warp) + (ctas_.size() > 1 ? ", CTA rank " + std::to_string(ctas_[a.cta].rank) : "") + ")";
  };
  std::vector<RunProblem::Related> related;
  std::vector<StmtId> seen{first.blocked_at};
  for (const Actor* a : stuck) {
    if (std::find(seen.begin(), seen.end(), a->blocked_at) != seen.end() || a->blocked_at == kNone) continue;
    seen.push_back(a->blocked_at);
    related.push_back({m.stmts[a->blocked_at].range, where(*a) + " waits here: " + a->blocked_on});
  }
  ByteRange at = first.blocked_at == kNone ? m.kernels[ctx_.kernel].range : m.stmts[first.blocked_at].range;
  ctx_.fail(RunProblem::Kind::Deadlock, at,
            "deadlock: no warp can move and nothing is in flight; " + where(first) + " waits here: " + first.blocked_on,
            std::move(related));
}

}  // namespace cake::exec
