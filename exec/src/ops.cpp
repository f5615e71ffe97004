// What each op does in the executor: one switch over ops.def, no default.
// How an op is issued and completes is read from the op table (cake/ops.h):
// `Collective` moves are shared by the warps that execute them, `PerThread`
// ops are issued once per executing thread, and an op whose completion is not
// Immediate becomes an async effect that lands later (docs/run.md).
#include "world.h"

#include "cake/exec/numeric.h"
#include "cake/ops.h"

#include <Eigen/Core>

#include <algorithm>

namespace cake::exec {
namespace {

int64_t bytes_of(const View& v) {
  return (v.elements() * static_cast<int64_t>(dtype_bits(v.st->dtype)) + 7) / 8;
}

/// `v` moved to the same buffer of another CTA of the cluster.
View in_cta(const View& v, Cta& cta) {
  View o = v;
  o.st = &cta.buffers.at(v.st->symbol);
  return o;
}

enum Share : int { Whole = 0, PerUnit = 1, PerRole = 2 };

}  // namespace

World::Result World::pair_mma(Actor& a, StmtId id, const View& acc, const View& x, const View& y, bool add,
                              int64_t threads) {
  // A CTA pair's M = 256 MMA (cta_group::2), issued by the even CTA: A's
  // rows and the accumulator's are split between the CTAs (128 each), B's
  // N too (N / 2 each, the columns of y = B.T). Accumulator columns
  // j·N/2 .. of CTA i take A of CTA i times B of CTA j.
  size_t peer = static_cast<size_t>(a.cta ^ 1);
  if (a.cta % 2 != 0 || peer >= ctas_.size() || y.rank() != 2 || acc.rank() != 2 || acc.extent[1] != 2 * y.extent[1]) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range,
              "the executor runs a CTA pair's `tcgen05.mma` issued by the even CTA of a pair, [128, N] += [128, K] @ [K, N / 2] per CTA");
    return Result::Stop;
  }
  const int64_t half = y.extent[1];
  View accs[2] = {acc, in_cta(acc, ctas_[peer])}, xs[2] = {x, in_cta(x, ctas_[peer])},
       ys[2] = {y, in_cta(y, ctas_[peer])};
  auto land = [this, accs, xs, ys, half, add, id](Effect& e) {
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) mma(e.entity, e.vc, accs[i].dim_range(1, j * half, (j + 1) * half), xs[i], ys[j], add, id);
  };
  int prev = a.tc_pipe.empty() ? -1 : a.tc_pipe.back();
  for (int64_t t = 0; t < threads; ++t) a.tc_pipe.push_back(effect(a, id, prev, land));
  return Result::Next;
}

bool World::share(Actor& a, StmtId id, View& dst, View& src) {
  const Module& m = ctx_.m;
  Window w = window_of(a, id);
  // Part of a warpgroup's fragment (`y[32 : 32, :]`, `y[5, :]`): each warp
  // moves the rows of the part it holds, at their rows in the part.
  for (const View* frag : {&dst, &src}) {
    Window p = part_window(*frag, w);
    if (p.full == w.full && !p.none) continue;
    if (p.none) return false;
    for (View* v : {&dst, &src})
      if (p.full > 0 && v->rank() > 0 && v->extent[0] == p.full) *v = v->rows(p.lo, p.hi);
    return true;
  }
  if (w.active) {
    View d = windowed(dst, w), s = windowed(src, w);
    bool dw = d.elements() != dst.elements(), sw = s.elements() != src.elements();
    if (dw && !sw && src.rank() > 0 && src.extent[0] == w.full) s = src.rows(w.lo, w.hi);
    if (sw && !dw && dst.rank() > 0 && dst.extent[0] == w.full) d = dst.rows(w.lo, w.hi);
    dst = d;
    src = s;
    return true;
  }
  bool fragment = dst.st->space == Space::Reg || src.st->space == Space::Reg;
  if (fragment || a.frames.back().elected || lane_serial_) return true;
  // No fragment decides it: the warps that run the statement with the same
  // operands split its rows (move_share(): operands that read warp.id or
  // lane differ per warp, and per lane a lane runs it alone; role.rank, per
  // unit of the role).
  auto it = ctx_.share_kind.find(id);
  int kind = PerRole;
  if (it != ctx_.share_kind.end()) {
    kind = it->second;
  } else {
    switch (move_share(m, ctx_.eval, std::get<MoveStmt>(m.stmts[id].node))) {
      case MoveShare::Thread: case MoveShare::Warp: kind = Whole; break;
      case MoveShare::Unit: kind = PerUnit; break;
      case MoveShare::Role: kind = PerRole; break;
    }
    ctx_.share_kind[id] = kind;
  }
  const RoleView& r = *a.role;
  int64_t n = 1, k = 0;
  if (kind == PerRole) {
    n = r.warps;
    k = a.warp - r.first_warp;
  } else if (kind == PerUnit && r.kind == RoleSpec::Kind::Warpgroup) {
    int64_t lo = std::max(r.first_warp, a.warp / 4 * 4), hi = std::min(r.first_warp + r.warps, a.warp / 4 * 4 + 4);
    n = hi - lo;
    k = a.warp - lo;
  }
  if (n <= 1) return true;
  if (dst.rank() == 0 || src.rank() == 0 || dst.extent[0] != src.extent[0]) return k == 0;
  int64_t rows = dst.extent[0];
  dst = dst.rows(k * rows / n, (k + 1) * rows / n);
  src = src.rows(k * rows / n, (k + 1) * rows / n);
  return true;
}

void World::mma(uint32_t entity, const Clock& vc, const View& acc, const View& x, const View& y, bool add, StmtId id) {
  if (acc.rank() != 2 || x.rank() != 2 || y.rank() != 2 || x.extent[0] != acc.extent[0] ||
      y.extent[1] != acc.extent[1] || x.extent[1] != y.extent[0]) {
    ctx_.fail(RunProblem::Kind::Unsupported, ctx_.m.stmts[id].range,
              "the executor needs acc [M, N] = a [M, K] @ b [K, N] here");
    return;
  }
  auto gather = [](const View& v) {
    Eigen::MatrixXd out(v.extent[0], v.extent[1]);
    int64_t i = 0;
    const std::vector<double>& data = v.st->data;
    v.for_each([&](int64_t flat) {
      out(i / out.cols(), i % out.cols()) = flat < 0 ? 0.0 : data[flat];
      ++i;
    });
    return out;
  };
  Eigen::MatrixXd d = gather(x) * gather(y);
  if (add) d += gather(acc);
  Storage& st = *acc.st;
  int64_t i = 0;
  acc.for_each([&](int64_t flat) {
    st.data[flat] = round_to(st.dtype, d(i / d.cols(), i % d.cols()));
    ++i;
  });
  access(entity, vc, x, false, id);
  access(entity, vc, y, false, id);
  access(entity, vc, acc, true, id);
}

World::Result World::group_wait(Actor& a, GroupQueue& q, int64_t keep, std::string what, std::vector<int>* slots,
                                bool writes) {
  // `slots` maps the queue's entries (wgmma slot numbers) to effects.
  auto effect_of = [&](int i) { return slots ? (*slots)[static_cast<size_t>(i)] : i; };
  // A full store wait first takes the writes of groups a `.read` wait
  // retired (they have landed); those still count toward `keep`.
  while (writes && !q.read.empty() && static_cast<int64_t>(q.read.size() + q.groups.size()) > keep) {
    for (int i : q.read.front()) join(a.vc, effects_[effect_of(i)].written);
    q.read.pop_front();
  }
  while (static_cast<int64_t>(q.groups.size()) > keep) {
    for (int i : q.groups.front()) {
      int e = effect_of(i);
      if (e < 0 || !effects_[e].landed) {
        a.blocked_on = what;
        return Result::Blocked;
      }
    }
    for (int i : q.groups.front()) {
      const Effect& e = effects_[effect_of(i)];
      join(a.vc, writes && !e.written.empty() ? e.written : e.vc);
    }
    if (!writes) q.read.push_back(std::move(q.groups.front()));
    q.groups.pop_front();
  }
  return Result::Next;
}

World::Result World::wait_all(Actor& a, std::vector<int>& pending, std::string what) {
  for (int e : pending)
    if (!effects_[e].landed) {
      a.blocked_on = what;
      return Result::Blocked;
    }
  for (int e : pending) join(a.vc, effects_[e].vc);
  pending.clear();
  return Result::Next;
}

World::Result World::op(Actor& a, StmtId id, Op op) {
  const Module& m = ctx_.m;
  const Stmt& s = m.stmts[id];
  const int64_t threads = lane_serial_ ? 1 : a.frames.back().threads();
  auto fail = [&](std::string message) {
    if (!ctx_.stop) ctx_.fail(RunProblem::Kind::Unsupported, s.range, std::move(message));
    return Result::Stop;
  };
  auto views = [&](ExprId d, ExprId x, View& dv, View& xv) {
    auto dd = view(a, d, id);
    auto xx = view(a, x, id);
    if (!dd || !xx) return false;
    dv = *dd;
    xv = *xx;
    return true;
  };
  // The CTAs a copy or commit reaches: its own, or those of a multicast
  // mask. A mask naming a CTA outside the cluster (or none) is an
  // out-of-bounds problem, which stops the run (checked by the callers).
  auto targets = [&](ExprId mask) {
    std::vector<int> out;
    if (mask == kNone) return std::vector<int>{a.cta};
    auto bits = integer(a, mask);
    const int64_t n = static_cast<int64_t>(ctas_.size());
    if (!bits || *bits <= 0 || (n < 63 && *bits >> n != 0)) {
      ctx_.fail(RunProblem::Kind::OutOfBounds, m.exprs[mask].range,
                "`multicast(" + (bits ? std::to_string(*bits) : std::string("?")) + ")` names " +
                    (bits && *bits == 0 ? std::string("no CTA of") : "CTAs outside") + " a cluster of " +
                    std::to_string(n));
      return out;
    }
    for (int64_t c = 0; c < n; ++c)
      if (*bits >> c & 1) out.push_back(static_cast<int>(c));
    return out;
  };
  // Every move's operands, resolved at issue (an effect reads and writes
  // them when it lands).
  View dst, src;
  const MoveStmt* mv = std::get_if<MoveStmt>(&s.node);
  if (mv && !views(mv->dst, mv->src, dst, src)) return fail("the executor cannot resolve this move's operands");
  auto copy_later = [this, id](const View& d, const View& x) {
    return [this, d, x, id](Effect& e) { copy(e.entity, e.vc, d, x, id); };
  };
  switch (op) {
    case Op::Load:
    case Op::Store:
    case Op::StoreAdd:
    case Op::Ldmatrix:
    case Op::Stmatrix: {
      // Synchronous collective moves (`trans` chooses a register layout,
      // not different values); store.add adds into global memory.
      if (share(a, id, dst, src)) copy(a.entity, a.vc, dst, src, id, op == Op::StoreAdd);
      return Result::Next;
    }
    case Op::CpAsync: {
      if (!share(a, id, dst, src)) return Result::Next;
      int e = effect(a, id, a.cp.last, copy_later(dst, src));
      a.cp.open.push_back(e);
      a.cp.last = e;
      return Result::Next;
    }
    case Op::TmaLoad:
    case Op::BulkLoad: {
      int64_t index = 0;
      // Its own CTA's barrier, or (a CTA pair's copy) the one a view names.
      Mbarrier* own = barrier(a, mv->barrier, &index);
      if (!own) return fail("the executor cannot resolve this copy's barrier");
      SymbolId bar = root_symbol(m, mv->barrier);
      if (m.symbols[bar].kind == SymbolKind::Dsmem) bar = m.symbols[bar].tensor;
      bool multicast = mv->multicast != kNone;
      std::vector<int> to = targets(mv->multicast);
      if (to.empty()) return Result::Stop;
      int64_t bytes = bytes_of(src);
      for (int64_t t = 0; t < threads; ++t)
        effect(a, id, -1, [this, dst, src, id, to, bar, index, bytes, own, multicast](Effect& e) {
          for (int c : to) {
            copy(e.entity, e.vc, in_cta(dst, ctas_[c]), src, id);
            complete_tx(multicast ? ctas_[c].mbarriers.at(bar)[static_cast<size_t>(index)] : *own, bytes, e.vc);
          }
        });
      return Result::Next;
    }
    case Op::TmaStore: {
      for (int64_t t = 0; t < threads; ++t) {
        int e = effect(a, id, a.store.last, [this, dst, src, id](Effect& x) {
          x.written = x.vc;
          if (x.prev >= 0) join(x.written, effects_[x.prev].written);
          if (x.written.size() <= x.write_entity) x.written.resize(x.write_entity + 1, 0);
          x.written[x.write_entity] = 1;
          copy(x.entity, x.vc, dst, src, id, false, &x);
        });
        effects_[e].write_entity = new_entity(effects_[e].actor);
        a.store.open.push_back(e);
        a.store.last = e;
      }
      return Result::Next;
    }
    case Op::Tcgen05Ld:
    case Op::Tcgen05St: {
      std::vector<int>& q = op == Op::Tcgen05Ld ? a.tc_ld : a.tc_st;
      int prev = q.empty() ? -1 : q.back();
      q.push_back(effect(a, id, prev, copy_later(dst, src)));
      return Result::Next;
    }
    case Op::Tcgen05Cp: {
      int prev = a.tc_pipe.empty() ? -1 : a.tc_pipe.back();
      for (int64_t t = 0; t < threads; ++t)
        a.tc_pipe.push_back(effect(a, id, prev, copy_later(dst, src)));
      return Result::Next;
    }
    case Op::Mma:
    case Op::Wgmma:
    case Op::Tcgen05Mma: {
      const auto& n = std::get<MmaStmt>(s.node);
      auto acc = view(a, n.acc, id), x = view(a, n.a, id), y = view(a, n.b, id);
      if (!acc || !x || !y) return fail("the executor cannot resolve this MMA's operands");
      bool add = n.accumulate_into;
      if (n.accumulate != kNone) {
        auto p = integer(a, n.accumulate);
        if (!p) return fail("the executor cannot evaluate accumulate(...)");
        add = add && *p != 0;
      }
      if (op == Op::Tcgen05Mma && m.kernels[ctx_.kernel].cta_group == 2) return pair_mma(a, id, *acc, *x, *y, add, threads);
      Window w = window_of(a, id);
      View av = windowed(*acc, w), xv = windowed(*x, w), yv = *y;
      if (w.active && av.elements() != acc->elements() && xv.elements() == x->elements() && x->rank() == 2 &&
          x->extent[0] == w.full)
        xv = x->rows(w.lo, w.hi);
      if (op == Op::Mma) {
        mma(a.entity, a.vc, av, xv, yv, add, id);
        return ctx_.stop ? Result::Stop : Result::Next;
      }
      if (op == Op::Wgmma) {
        // The warpgroup's n-th wgmma: issued on the whole tile by the last
        // of its warps to reach it.
        const RoleView& r = *a.role;
        int64_t wg = a.warp / 4;
        int64_t members = std::min(r.first_warp + r.warps, wg * 4 + 4) - std::max(r.first_warp, wg * 4);
        auto& slots = wgmma_slots_[{a.cta, wg}];
        size_t n = static_cast<size_t>(a.wgmma_issued++);
        if (slots.size() <= n) slots.resize(n + 1);
        join(slots[n].vc, a.vc);
        a.wgmma.open.push_back(static_cast<int>(n));
        if (++slots[n].issued < members) {
          release(a);
          return Result::Next;
        }
        View whole_acc = *acc, whole_x = *x;
        int prev = n > 0 ? slots[n - 1].effect : -1;
        int e = effect(a, id, prev, [this, whole_acc, whole_x, yv, add, id](Effect& e) {
          mma(e.entity, e.vc, whole_acc, whole_x, yv, add, id);
        });
        join(effects_[e].vc, slots[n].vc);
        slots[n].effect = e;
        return Result::Next;
      }
      auto land = [this, av, xv, yv, add, id](Effect& e) { mma(e.entity, e.vc, av, xv, yv, add, id); };
      {
        int prev = a.tc_pipe.empty() ? -1 : a.tc_pipe.back();
        for (int64_t t = 0; t < threads; ++t) a.tc_pipe.push_back(effect(a, id, prev, land));
      }
      return Result::Next;
    }
    case Op::CpAsyncCommit:
      a.cp.groups.push_back(std::move(a.cp.open));
      a.cp.open.clear();
      return Result::Next;
    case Op::WgmmaCommit:
      a.wgmma.groups.push_back(std::move(a.wgmma.open));
      a.wgmma.open.clear();
      return Result::Next;
    case Op::TmaStoreCommit:
      a.store.groups.push_back(std::move(a.store.open));
      a.store.open.clear();
      return Result::Next;
    case Op::WgmmaFence:
      return Result::Next;  // orders nothing the executor's logical values can show
    case Op::FenceProxyAsync:
      fence_proxy(a);
      return Result::Next;
    case Op::Tcgen05WaitLd:
      return wait_all(a, a.tc_ld, "its `tcgen05.ld` results");
    case Op::Tcgen05WaitSt:
      return wait_all(a, a.tc_st, "its `tcgen05.st` writes");
    case Op::Syncthreads:
      return named_barrier(a, ctas_[a.cta].named[0], "`syncthreads`");
    case Op::ClusterSync:
      return named_barrier(a, cluster_barrier_, "`cluster.sync`");
    case Op::CpAsyncWait:
    case Op::WgmmaWait:
    case Op::TmaStoreWait:
    // Either form lands the group's stores (reads smem, writes global
    // memory); only the full wait orders their writes before what follows.
    case Op::TmaStoreWaitRead: {
      const auto& n = std::get<GroupWaitStmt>(s.node);
      auto keep = integer(a, n.pending);
      if (!keep) return fail("the executor cannot evaluate the group count");
      std::string what = "its older `" + std::string(op_spelling(op)) + "` groups to complete";
      if (op != Op::WgmmaWait)
        return group_wait(a, op == Op::CpAsyncWait ? a.cp : a.store, *keep, what, nullptr, op != Op::TmaStoreWaitRead);
      std::vector<int> slots;
      for (const WgmmaSlot& w : wgmma_slots_[{a.cta, a.warp / 4}]) slots.push_back(w.effect);
      return group_wait(a, a.wgmma, *keep, what, &slots);
    }
    case Op::Arrive:
    case Op::ArriveExpectTx: {
      const auto& n = std::get<ArriveStmt>(s.node);
      if (SymbolId sym = root_symbol(m, n.barrier); sym != kNone && m.symbols[sym].kind == SymbolKind::NamedBarrier) {
        NamedBarrier* named = named_of(a, n.barrier);
        if (!named) return fail("no named barrier with this id");
        named_arrive(a, *named);
        return Result::Next;
      }
      int64_t index = 0;
      Mbarrier* b = barrier(a, n.barrier, &index);
      if (!b) return fail("the executor cannot resolve this barrier");
      if (op == Op::ArriveExpectTx) {
        auto bytes = integer(a, n.bytes);
        if (!bytes) return fail("the executor cannot evaluate the byte count");
        b->tx += *bytes * threads;
      }
      // `multicast(mask)`: on the barrier of each CTA the mask names.
      std::vector<int> to = targets(n.multicast);
      if (to.empty()) return Result::Stop;
      const Clock vc = released(a);
      for (int c : to)
        arrive(n.multicast == kNone ? *b : ctas_[c].mbarriers.at(root_symbol(m, n.barrier))[static_cast<size_t>(index)],
               threads, vc);
      release(a);
      return Result::Next;
    }
    case Op::Tcgen05Commit: {
      const auto& n = std::get<CommitStmt>(s.node);
      SymbolId bar = root_symbol(m, n.barrier);
      int64_t index = 0;
      if (!barrier(a, n.barrier, &index)) return fail("the executor cannot resolve this barrier");
      std::vector<int> to = targets(n.multicast);
      if (to.empty()) return Result::Stop;
      std::vector<int> covered = a.tc_pipe;
      int prev = a.tc_pipe.empty() ? -1 : a.tc_pipe.back();
      for (int64_t t = 0; t < threads; ++t)
        a.tc_pipe.push_back(effect(a, id, prev, [this, to, bar, index, covered](Effect& e) {
          // Arrives once every tcgen05 op issued before it has completed.
          for (int c : covered) join(e.vc, effects_[c].vc);
          for (int c : to) arrive(ctas_[c].mbarriers.at(bar)[static_cast<size_t>(index)], 1, e.vc);
        }));
      return Result::Next;
    }
    case Op::ArgminRow:
    case Op::ArgmaxRow: {
      const auto& n = std::get<ArgReduceStmt>(s.node);
      Window w = window_of(a, id);
      auto value = view(a, n.value, id), index = view(a, n.index, id), src = view(a, n.src, id);
      if (!value || !index || !src) return fail("the executor cannot resolve this reduction's operands");
      int64_t base = n.base == kNone ? 0 : integer(a, n.base).value_or(0);
      View vv = windowed(*value, w), iv = windowed(*index, w), sv = windowed(*src, w);
      Tile best = read(a, vv, id), arg = read(a, iv, id), x = read(a, sv, id);
      if (x.dims.size() != 2 || static_cast<int64_t>(best.values.size()) != x.dims[0] ||
          arg.values.size() != best.values.size())
        return fail("an arg-reduction needs an [M, N] source and M values and indices");
      // Strictly better replaces: the first (smallest) column wins a tie,
      // and an earlier call's value wins over an equal later one.
      for (int64_t r = 0; r < x.dims[0]; ++r)
        for (int64_t c = 0; c < x.dims[1]; ++c) {
          double v = x.values[static_cast<size_t>(r * x.dims[1] + c)];
          double& b = best.values[static_cast<size_t>(r)];
          if (op == Op::ArgminRow ? v < b : v > b) {
            b = v;
            arg.values[static_cast<size_t>(r)] = static_cast<double>(c + base);
          }
        }
      if (!write(a, vv, best, id) || !write(a, iv, arg, id)) return Result::Stop;
      return Result::Next;
    }
  }
  return fail("the executor does not run `" + std::string(op_spelling(op)) + "`");
}

}  // namespace cake::exec
