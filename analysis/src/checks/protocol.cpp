// The protocol verifier: simulates the barrier traffic of every role of a
// kernel (abstract interpretation over concrete trip counts) and reports the
// E04xx protocol errors and E06xx races it observes.
//
// What it models. Each role is one actor that runs its statements in order;
// a statement's multiplicity is the number of threads that run it (the whole
// role, one thread per warpgroup or warp in `elect.*`, one in `elect`, or the
// threads for which a per-thread `if` holds). Each mbarrier element has a
// phase counter, the arrivals, expected and delivered transaction bytes of its
// current phase. `wait b parity(p)` passes when the current phase's parity is
// not p (so parity 1 passes on a fresh barrier). Actors run round-robin until
// all finish or none can move: a deadlock, reported with a trace of where
// every blocked role waits and what its barrier lacks.
//
// Happens-before is tracked with events: every smem/tmem access is an event;
// an arrive releases the events its threads can vouch for (an `elect` orders
// nothing: one thread's arrive does not release what the other lanes read,
// unless a `syncthreads`/`sync` ordered them first); a completed phase
// carries the released events, the bytes TMA delivered and the MMAs a
// `tcgen05.commit` covers; a passing wait acquires them. A read whose last
// write is not acquired is a race (E0601, E0411 for TMEM), so is a write over
// reads or writes of another role that are not acquired (E0602, E0603).
// In the same walk each role's async groups are followed: wgmma fence and
// wait (E0407, E0408), cp.async groups (E0409), tcgen05.commit's issuer
// (E0410) and tcgen05.ld's wait (E0412), TMEM lanes per warp (E0413).
//
// Trip counts come from the kernel's bench shapes, else from the smallest
// shape the facts allow that gives every pipeline at least two turns of its
// ring. A kernel whose values cannot be evaluated (an unknown loop bound or
// condition) or whose simulation exceeds the step budget is skipped: no
// diagnostic is better than a guess.
#include "checks/checks.h"
#include "checks/roles.h"
#include "checks/samples.h"
#include "diag_builder.h"
#include "semantics/checked.h"
#include "semantics/typing.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>

namespace cake {
namespace {

constexpr int64_t kMaxSteps = 400000;
constexpr int64_t kMaxTrips = 4096;

enum class Scope : uint8_t { All, PerWarpgroup, PerWarp, One, Partial };

struct BarrierKey {
  SymbolId symbol = kNone;
  int64_t index = 0;
  bool operator<(const BarrierKey& o) const { return std::tie(symbol, index) < std::tie(o.symbol, o.index); }
};

struct SlotKey {
  SymbolId symbol = kNone;
  int64_t stage = -1;
  bool operator<(const SlotKey& o) const { return std::tie(symbol, stage) < std::tie(o.symbol, o.stage); }
};

struct Event {
  int actor = -1;
  StmtId stmt = kNone;
  Scope scope = Scope::All;
  bool async = false;    // completes later (TMA, bulk, cp.async, wgmma, tcgen05.mma)
  bool done = true;      // for async events of the actor's own groups
  bool synced = false;   // a block or named barrier ordered all threads after it
};

struct BarrierState {
  int64_t count = 1;
  int64_t phase = 0;  // completed phases
  int64_t arrivals = 0, expected = 0, delivered = 0;
  std::vector<std::pair<StmtId, int64_t>> contributors;  // this phase's arrivals
  StmtId expect_stmt = kNone;
  std::vector<int> phase_events;      // released into the current phase
  std::vector<char> completed_events;  // by event id: 1 when a completed phase carries it
  std::set<StmtId> arriving_stmts;    // every statement that ever arrived
};

struct SlotState {
  int last_write = -1;
  std::vector<int> reads;  // since the last write
};

struct Frame {
  const std::vector<StmtId>* body = nullptr;
  size_t pc = 0;
  bool loop = false;
  SymbolId variable = kNone, stage = kNone;
  int64_t value = 0, last = 0, step = 1, stages = 0;
  Scope scope = Scope::All;
  int64_t threads = 0;
  StmtId elect = kNone;  // the innermost elect statement
};

struct Actor {
  int index = 0;
  RoleView role;
  std::vector<Frame> frames;
  Env env;
  bool done = false;
  StmtId blocked_at = kNone;
  BarrierKey blocked_on;
  int64_t blocked_parity = 0;
  std::vector<char> known_all, known_one;  // acquired events, by id
  std::vector<int> own;                     // own events, for release
  // wgmma
  bool fenced = false;
  std::set<SymbolId> touched_since_fence, wgmma_uncommitted;
  std::deque<std::set<SymbolId>> wgmma_groups;
  std::vector<int> wgmma_reads_uncommitted;
  std::deque<std::vector<int>> wgmma_read_groups;
  // cp.async
  std::set<SlotKey> cp_uncommitted;
  std::deque<std::set<SlotKey>> cp_groups;
  std::set<SlotKey> cp_unsynced;
  // tcgen05
  std::vector<int> mma_events;  // every MMA event: a commit covers all prior MMAs of its thread
  Scope mma_scope = Scope::One;
  StmtId mma_stmt = kNone;
  std::set<SymbolId> ld_pending;
};

class Simulator {
 public:
  Simulator(const Module& m, std::vector<Diagnostic>& diags, uint32_t kernel,
            std::vector<RoleView> roles, Env env)
      : m_(m), diags_(diags), eval_(m), typer_(m, nullptr), kernel_(kernel) {
    for (size_t i = 0; i < roles.size(); ++i) {
      Actor a;
      a.index = static_cast<int>(i);
      a.role = roles[i];
      a.env = env;
      set_builtins(a);
      Frame f;
      f.body = roles[i].body;
      f.threads = roles[i].threads();
      a.frames.push_back(f);
      actors_.push_back(std::move(a));
    }
  }

  void run() {
    while (true) {
      bool progress = false, all_done = true;
      for (Actor& a : actors_) {
        if (a.done) continue;
        int64_t before = steps_;
        if (!run_actor(a)) return;  // aborted: no verdict
        if (steps_ != before) progress = true;
        if (!a.done) all_done = false;
      }
      if (all_done) break;
      if (!progress) {
        deadlock();
        break;
      }
    }
    leftovers();
  }

 private:
  // Section - environment

  void set_builtins(Actor& a) {
    // Protocol values use the role's first unit, warp and lane; per-thread
    // conditions are evaluated over every thread where they matter.
    // The builder creates the builtins first: stop at the first other symbol
    // (scanning every symbol per role made large files quadratic).
    for (SymbolId id = 0; id < m_.symbols.size() && m_.symbols[id].kind == SymbolKind::Builtin; ++id) {
      const Symbol& s = m_.symbols[id];
      if (s.name == "lane") a.env.values[id] = 0;
      if (s.name == "role") a.env.fields[id]["rank"] = 0;
      if (s.name == "warp") a.env.fields[id]["id"] = a.role.first_warp;
      if (s.name == "block") a.env.fields[id]["x"] = 0, a.env.fields[id]["y"] = 0, a.env.fields[id]["z"] = 0;
      if (s.name == "cluster") a.env.fields[id]["rank"] = 0;
      if (s.name == "lane") lane_ = id;
      if (s.name == "warp") warp_ = id;
      if (s.name == "role") rank_ = id;
    }
  }

  std::optional<int64_t> value(const Actor& a, ExprId e) const { return eval_.eval(e, &a.env); }

  /// Threads of the role for which `cond` holds, trying every warp and lane.
  std::optional<int64_t> threads_where(Actor& a, ExprId cond) {
    int64_t n = 0;
    Env env = a.env;
    int64_t per_unit = a.role.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (int64_t w = 0; w < a.role.warps; ++w) {
      if (warp_ != kNone) env.fields[warp_]["id"] = a.role.first_warp + w;
      if (rank_ != kNone) env.fields[rank_]["rank"] = w / per_unit;
      for (int64_t l = 0; l < 32; ++l) {
        if (lane_ != kNone) env.values[lane_] = l;
        auto v = eval_.eval(cond, &env);
        if (!v) return std::nullopt;
        n += *v != 0;
      }
    }
    return n;
  }

  // Section - the interpreter

  bool run_actor(Actor& a) {
    while (!a.frames.empty()) {
      if (++steps_ > kMaxSteps) return false;
      Frame& f = a.frames.back();
      if (f.pc >= f.body->size()) {
        if (f.loop && f.value + f.step <= f.last) {
          f.value += f.step;
          bind_loop(a, f);
          f.pc = 0;
          continue;
        }
        a.frames.pop_back();
        continue;
      }
      StmtId id = (*f.body)[f.pc++];
      Result r = exec(a, id);
      if (r == Result::Abort) return false;
      if (r == Result::Blocked) {
        a.frames.back().pc--;
        --steps_;
        return true;
      }
    }
    a.done = true;
    return true;
  }

  void bind_loop(Actor& a, const Frame& f) {
    if (f.variable != kNone) a.env.values[f.variable] = f.value;
    if (f.stage != kNone && f.stages > 0) {
      a.env.values[f.stage] = f.value % f.stages;
      a.env.fields[f.stage]["phase"] = (f.value / f.stages) % 2;
    }
  }

  enum class Result { Next, Blocked, Abort };

  Result exec(Actor& a, StmtId id) {
    const Stmt& s = m_.stmts[id];
    a.blocked_at = kNone;
    return std::visit([&](const auto& node) { return step(a, id, s, node); }, s.node);
  }

  Frame child_frame(const Actor& a, const std::vector<StmtId>* body) const {
    Frame f;
    f.body = body;
    const Frame& p = a.frames.back();
    f.scope = p.scope;
    f.threads = p.threads;
    f.elect = p.elect;
    return f;
  }

  Result step(Actor&, StmtId, const Stmt&, const DeclStmt&) { return Result::Next; }
  Result step(Actor&, StmtId, const Stmt&, const RoleStmt&) { return Result::Next; }
  Result step(Actor& a, StmtId, const Stmt&, const PlainStmt& p) { return plain(a, p.op); }

  // Lets are evaluated on demand through their value: nothing to bind.
  Result step(Actor&, StmtId, const Stmt&, const LetStmt&) { return Result::Next; }

  Result step(Actor& a, StmtId id, const Stmt&, const ElectStmt& e) {
    Frame f = child_frame(a, &e.body);
    int64_t n = e.kind == ElectStmt::Kind::One           ? 1
                : e.kind == ElectStmt::Kind::PerWarpgroup ? a.role.warpgroups()
                                                         : a.role.warps;
    Scope sc = e.kind == ElectStmt::Kind::One ? Scope::One
               : e.kind == ElectStmt::Kind::PerWarpgroup ? Scope::PerWarpgroup
                                                         : Scope::PerWarp;
    // The narrower of the enclosing scope and this elect.
    if (f.scope == Scope::All || n < f.threads) {
      f.scope = sc;
      f.threads = std::min(f.threads, n);
    }
    f.elect = id;
    a.frames.push_back(f);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const ForStmt& l) {
    return loop(a, id, l.variable, kNone, l.start, l.end, l.step, kNone, &l.body);
  }

  Result step(Actor& a, StmtId id, const Stmt&, const PipelineStmt& p) {
    return loop(a, id, p.variable, p.stage, p.start, p.end, p.step, p.stages, &p.body);
  }

  Result loop(Actor& a, StmtId, SymbolId var, SymbolId stage, ExprId start, ExprId end, ExprId step,
              ExprId stages, const std::vector<StmtId>* body) {
    auto b = value(a, start), e = value(a, end);
    std::optional<int64_t> st = step == kNone ? std::optional<int64_t>(1) : value(a, step);
    std::optional<int64_t> ring = stages == kNone ? std::optional<int64_t>(0) : eval_.fold(stages);
    if (!b || !e || !st || *st <= 0 || !ring || *ring < 0) return Result::Abort;
    if (*e <= *b) return Result::Next;
    if ((*e - *b) / *st > kMaxTrips) return Result::Abort;
    Frame f = child_frame(a, body);
    f.loop = true;
    f.variable = var;
    f.stage = stage;
    f.value = *b;
    f.step = *st;
    f.last = *b + (*e - 1 - *b) / *st * *st;
    f.stages = *ring;
    a.frames.push_back(f);
    bind_loop(a, f);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const IfStmt& i) {
    if (depends_on_thread(m_, eval_, i.condition)) {
      auto n = threads_where(a, i.condition);
      if (!n) return Result::Abort;
      if (*n > 0) {
        Frame f = child_frame(a, &i.then_body);
        if (*n < f.threads) f.scope = Scope::Partial, f.threads = std::min(f.threads, *n);
        a.frames.push_back(f);
      }
      // The else branch runs on the other threads; protocol-wise it is rare
      // enough to follow only when the condition holds nowhere.
      if (*n == 0 && !i.else_body.empty()) a.frames.push_back(child_frame(a, &i.else_body));
      (void)id;
      return Result::Next;
    }
    auto c = value(a, i.condition);
    if (!c) return Result::Abort;
    const auto& body = *c ? i.then_body : i.else_body;
    if (!body.empty()) a.frames.push_back(child_frame(a, &body));
    return Result::Next;
  }

  // Section - barriers

  std::optional<BarrierKey> barrier_of(const Actor& a, ExprId e) {
    if (e == kNone) return std::nullopt;
    const Expr& x = m_.exprs[e];
    BarrierKey key;
    if (x.kind == Expr::Kind::Name) {
      key.symbol = x.symbol;
    } else if (x.kind == Expr::Kind::Index && x.lhs != kNone && m_.exprs[x.lhs].kind == Expr::Kind::Name &&
               x.items.size() == 1 && x.items[0].kind == IndexItem::Kind::Scalar) {
      key.symbol = m_.exprs[x.lhs].symbol;
      auto i = value(a, x.items[0].start);
      if (!i) return std::nullopt;
      key.index = *i;
    } else {
      return std::nullopt;
    }
    if (key.symbol == kNone || m_.symbols[key.symbol].kind != SymbolKind::Mbarrier) return std::nullopt;
    return key;
  }

  BarrierState& barrier(BarrierKey key) {
    auto it = barriers_.find(key);
    if (it != barriers_.end()) return it->second;
    BarrierState b;
    const Symbol& s = m_.symbols[key.symbol];
    if (s.count != kNone)
      if (auto c = eval_.fold(s.count); c && *c > 0) b.count = *c;
    return barriers_.emplace(key, b).first->second;
  }

  std::string barrier_text(BarrierKey key) const {
    const Symbol& s = m_.symbols[key.symbol];
    std::string t(s.name);
    if (s.value != kNone) t += "[" + std::to_string(key.index) + "]";
    return t;
  }

  /// Events of actor `a` that an arrive by threads of `scope` vouches for.
  void released_by(const Actor& a, Scope scope, std::vector<int>& out) const {
    for (size_t e = 0; e < a.known_all.size(); ++e)
      if (a.known_all[e] || (e < a.known_one.size() && a.known_one[e])) out.push_back(static_cast<int>(e));
    for (int e : a.own) {
      const Event& ev = events_[e];
      if (ev.async && !ev.done) continue;
      if (ev.synced || scope == Scope::All) { out.push_back(e); continue; }
      switch (ev.scope) {
        case Scope::One: out.push_back(e); break;
        case Scope::PerWarp: if (scope == Scope::PerWarp) out.push_back(e); break;
        case Scope::PerWarpgroup: if (scope == Scope::PerWarp || scope == Scope::PerWarpgroup) out.push_back(e); break;
        case Scope::All:
        case Scope::Partial:
          // wgmma reads complete for the whole warpgroup at wgmma.wait.
          if (ev.async && ev.done &&
              (scope == Scope::PerWarp || scope == Scope::PerWarpgroup || a.role.warpgroups() <= 1))
            out.push_back(e);
          break;
      }
    }
  }

  void arrive(Actor& a, StmtId id, BarrierKey key, int64_t n, Scope scope) {
    BarrierState& b = barrier(key);
    b.arrivals += n;
    b.contributors.push_back({id, n});
    b.arriving_stmts.insert(id);
    released_by(a, scope, b.phase_events);
    if (b.arrivals > b.count) {
      if (reported_.insert({DiagId::ArrivalCount, id}).second) {
        Diagnostic d = make_diagnostic(
            DiagId::ArrivalCount, m_.stmts[id].range,
            "`" + barrier_text(key) + "` receives " + std::to_string(b.arrivals) + " arrivals in one phase but was declared count(" +
                std::to_string(b.count) + "): " + who(a, n) + " arrive here");
        decl_note(d, key.symbol);
        diags_.push_back(std::move(d));
      }
      b.arrivals = b.count;  // keep simulating
    }
    try_complete(key, b);
  }

  void try_complete(BarrierKey key, BarrierState& b) {
    if (b.arrivals < b.count || b.delivered < b.expected) return;
    if (b.delivered > b.expected && b.expect_stmt != kNone &&
        reported_.insert({DiagId::ExpectTxBytes, b.expect_stmt}).second) {
      Diagnostic d = make_diagnostic(DiagId::ExpectTxBytes, m_.stmts[b.expect_stmt].range,
                                     "`" + barrier_text(key) + "` expects " + std::to_string(b.expected) +
                                         " bytes per phase but its copies deliver " + std::to_string(b.delivered) +
                                         ": the phase completes before the last " +
                                         std::to_string(b.delivered - b.expected) + " bytes land (readers race them)");
      decl_note(d, key.symbol);
      diags_.push_back(std::move(d));
    }
    b.phase++;
    // A bitmap, not a sorted list: every arrival releases all the events its
    // actor knows, so sorting them into a list each phase made a 1,024-trip
    // ring cost ~90 ms.
    for (int e : b.phase_events) {
      if (static_cast<size_t>(e) >= b.completed_events.size()) b.completed_events.resize(e + 1, 0);
      b.completed_events[e] = 1;
    }
    b.phase_events.clear();
    b.contributors.clear();
    b.arrivals = b.expected = b.delivered = 0;
    b.expect_stmt = kNone;
  }

  std::string who(const Actor& a, int64_t n) const {
    std::string role = a.role.name.empty() ? "the kernel's threads" : "role `" + std::string(a.role.name) + "`";
    return std::to_string(n) + " thread(s) of " + role;
  }

  void decl_note(Diagnostic& d, SymbolId sym) const {
    d.related.push_back({m_.symbols[sym].decl, "declared here"});
  }

  Result step(Actor& a, StmtId id, const Stmt&, const ArriveStmt& s) {
    auto key = barrier_of(a, s.barrier);
    if (!key) return Result::Abort;
    const Frame& f = a.frames.back();
    if (s.op == Op::ArriveExpectTx) {
      auto bytes = value(a, s.bytes);
      if (!bytes) return Result::Abort;
      BarrierState& b = barrier(*key);
      b.expected += *bytes * f.threads;
      b.expect_stmt = id;
    }
    arrive(a, id, *key, f.threads, f.scope);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const WaitStmt& w) {
    auto key = barrier_of(a, w.barrier);
    auto parity = value(a, w.parity);
    if (!key || !parity) return Result::Abort;
    BarrierState& b = barrier(*key);
    if ((b.phase & 1) == (*parity & 1)) {
      a.blocked_at = id;
      a.blocked_on = *key;
      a.blocked_parity = *parity & 1;
      return Result::Blocked;
    }
    // Acquire what the completed phases carry.
    const Frame& f = a.frames.back();
    auto& into = f.scope == Scope::All ? a.known_all : a.known_one;
    for (size_t e = 0; e < b.completed_events.size(); ++e)
      if (b.completed_events[e]) mark(into, static_cast<int>(e));
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const CommitStmt& c) {
    auto key = barrier_of(a, c.barrier);
    if (!key) return Result::Abort;
    const Frame& f = a.frames.back();
    if (a.mma_stmt != kNone && f.scope != a.mma_scope && reported_.insert({DiagId::Tcgen05CommitThread, id}).second) {
      Diagnostic d = make_diagnostic(DiagId::Tcgen05CommitThread, m_.stmts[id].keyword,
                                     std::string("`tcgen05.commit` must run on the thread that issued the MMAs it "
                                                 "covers; this one runs on ") +
                                         std::to_string(f.threads) + " thread(s)");
      d.related.push_back({m_.stmts[a.mma_stmt].range, "the MMAs are issued here"});
      diags_.push_back(std::move(d));
    }
    // The MMAs complete, then the commit arrives: their events travel with the phase.
    BarrierState& b = barrier(*key);
    for (int e : a.mma_events) {
      events_[e].done = true;
      b.phase_events.push_back(e);
    }
    arrive(a, id, *key, f.threads, f.scope);
    return Result::Next;
  }

  Result step(Actor& a, StmtId, const Stmt&, const GroupWaitStmt& g) {
    auto n = value(a, g.pending);
    if (!n || *n < 0) return Result::Abort;
    if (g.op == Op::WgmmaWait) {
      while (static_cast<int64_t>(a.wgmma_groups.size()) > *n) {
        a.wgmma_groups.pop_front();
        for (int e : a.wgmma_read_groups.front()) events_[e].done = true;
        a.wgmma_read_groups.pop_front();
      }
    } else if (g.op == Op::CpAsyncWait) {
      while (static_cast<int64_t>(a.cp_groups.size()) > *n) {
        for (const SlotKey& s : a.cp_groups.front()) a.cp_unsynced.insert(s);
        a.cp_groups.pop_front();
      }
    }
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt& s, const SyncStmt&) { sync_role(a); (void)id, (void)s; return Result::Next; }

  void sync_role(Actor& a) {
    for (int e : a.own) events_[e].synced = true;
    for (size_t e = 0; e < a.known_one.size(); ++e)
      if (a.known_one[e]) mark(a.known_all, static_cast<int>(e));
    a.cp_unsynced.clear();
  }

  // Section - accesses

  static void mark(std::vector<char>& set, int e) {
    if (e < 0) return;
    if (static_cast<size_t>(e) >= set.size()) set.resize(e + 1, 0);
    set[e] = 1;
  }
  static bool has(const std::vector<char>& set, int e) { return e >= 0 && static_cast<size_t>(e) < set.size() && set[e]; }

  bool knows(const Actor& a, int e, Scope scope) const {
    if (has(a.known_all, e)) return true;
    return scope != Scope::All && has(a.known_one, e);
  }

  /// The smem/tmem slot an operand touches, if any.
  std::optional<SlotKey> slot_of(const Actor& a, ExprId e) {
    if (e == kNone) return std::nullopt;
    ExprId base = e;
    std::optional<int64_t> stage = -1;
    while (base != kNone) {
      const Expr& x = m_.exprs[base];
      if (x.kind == Expr::Kind::Name) break;
      if (x.kind == Expr::Kind::Transpose) { base = x.lhs; continue; }
      if (x.kind == Expr::Kind::Index) {
        const Expr& inner = m_.exprs[x.lhs];
        if (inner.kind == Expr::Kind::Name && inner.symbol != kNone &&
            !m_.symbols[inner.symbol].type.stage_dims.empty() && !x.items.empty() &&
            x.items[0].kind == IndexItem::Kind::Scalar)
          stage = value(a, x.items[0].start);
        base = x.lhs;
        continue;
      }
      return std::nullopt;
    }
    if (base == kNone) return std::nullopt;
    const Expr& n = m_.exprs[base];
    if (n.symbol == kNone) return std::nullopt;
    const Symbol& sym = m_.symbols[n.symbol];
    if (sym.kind != SymbolKind::Smem && sym.kind != SymbolKind::Tmem) return std::nullopt;
    if (!stage) stage = -1;
    return SlotKey{n.symbol, *stage};
  }

  /// The register fragment an operand names, if any.
  SymbolId fragment_of(ExprId e) const {
    while (e != kNone) {
      const Expr& x = m_.exprs[e];
      if (x.kind == Expr::Kind::Name)
        return x.symbol != kNone && m_.symbols[x.symbol].kind == SymbolKind::Reg ? x.symbol : kNone;
      if (x.kind == Expr::Kind::Index || x.kind == Expr::Kind::Transpose) { e = x.lhs; continue; }
      return kNone;
    }
    return kNone;
  }

  int new_event(Actor& a, StmtId id, bool async) {
    Event ev;
    ev.actor = a.index;
    ev.stmt = id;
    ev.scope = a.frames.back().scope;
    ev.async = async;
    ev.done = !async;
    events_.push_back(ev);
    int e = static_cast<int>(events_.size() - 1);
    a.own.push_back(e);
    return e;
  }

  void read_slot(Actor& a, StmtId id, ExprId operand, SlotKey slot, bool async) {
    Scope scope = a.frames.back().scope;
    // cp.async groups first: the copy must be retired and ordered.
    if (a.cp_uncommitted.count(slot) || std::any_of(a.cp_groups.begin(), a.cp_groups.end(), [&](const auto& g) { return g.count(slot) > 0; })) {
      report_once(DiagId::MissingCpAsyncWait, id, m_.exprs[operand].range,
                  "`" + slot_text(slot) + "` is read while the cp.async that fills it is still in flight: add `cp.async.wait` "
                  "for its group (and `syncthreads`) before this read");
    } else if (a.cp_unsynced.count(slot) && a.frames.back().scope != Scope::One) {
      report_once(DiagId::MissingCpAsyncWait, id, m_.exprs[operand].range,
                  "`" + slot_text(slot) + "` is read after `cp.async.wait` but without a barrier: other threads' copies are not "
                  "ordered before this read; add `syncthreads`");
    }
    SlotState& st = slots_[slot];
    if (st.last_write >= 0) {
      const Event& w = events_[st.last_write];
      bool own_sync = w.actor == a.index && !w.async;
      const auto* move = std::get_if<MoveStmt>(&m_.stmts[w.stmt].node);
      bool own_cp = w.actor == a.index && move && move->op == Op::CpAsync;  // E0409's business
      if (!own_sync && !own_cp && !knows(a, st.last_write, scope)) {
        bool tmem = m_.symbols[slot.symbol].kind == SymbolKind::Tmem;
        DiagId code = tmem ? DiagId::TmemReadBeforeCommit : DiagId::ReadBeforePublish;
        std::string msg = tmem ? "`" + slot_text(slot) + "` is read before the completion of the MMAs that write it is "
                                 "observed: wait on the barrier their `tcgen05.commit` arrives on"
                               : "`" + slot_text(slot) + "` is read before the barrier that publishes its write: " +
                                     race_reason(a, w, scope);
        if (reported_.insert({code, id}).second) {
          Diagnostic d = make_diagnostic(code, m_.exprs[operand].range, msg);
          d.related.push_back({m_.stmts[w.stmt].range, "written here" + by_role(w.actor)});
          diags_.push_back(std::move(d));
        }
      }
    }
    int e = new_event(a, id, async);
    st.reads.push_back(e);
  }

  std::string race_reason(const Actor& a, const Event& w, Scope scope) const {
    if (scope == Scope::All && w.actor != a.index) return "this role never waits on the phase that carries it to every thread";
    return "no wait of this role acquires it";
  }

  void write_slot(Actor& a, StmtId id, ExprId operand, SlotKey slot, bool async, int* event_out = nullptr) {
    Scope scope = a.frames.back().scope;
    SlotState& st = slots_[slot];
    for (int r : st.reads) {
      const Event& ev = events_[r];
      if (ev.actor == a.index) continue;
      if (!knows(a, r, scope)) {
        if (reported_.insert({DiagId::OverwriteBeforeRelease, id}).second) {
          Diagnostic d = make_diagnostic(DiagId::OverwriteBeforeRelease, m_.exprs[operand].range,
                                         "`" + slot_text(slot) + "` is overwritten before its readers" + by_role(ev.actor) +
                                             " release it: their reads are not ordered before this write");
          d.related.push_back({m_.stmts[ev.stmt].range, "read here" + by_role(ev.actor)});
          diags_.push_back(std::move(d));
        }
        break;
      }
    }
    if (st.last_write >= 0) {
      const Event& w = events_[st.last_write];
      if (w.actor != a.index && !knows(a, st.last_write, scope) && reported_.insert({DiagId::UnorderedWrites, id}).second) {
        Diagnostic d = make_diagnostic(DiagId::UnorderedWrites, m_.exprs[operand].range,
                                       "`" + slot_text(slot) + "` is written by two roles with no barrier ordering the writes");
        d.related.push_back({m_.stmts[w.stmt].range, "also written here" + by_role(w.actor)});
        diags_.push_back(std::move(d));
      }
    }
    int e = new_event(a, id, async);
    st.last_write = e;
    st.reads.clear();
    if (event_out) *event_out = e;
  }

  std::string by_role(int actor) const {
    const RoleView& r = actors_[actor].role;
    return r.name.empty() ? "" : " by role `" + std::string(r.name) + "`";
  }

  std::string slot_text(SlotKey s) const {
    std::string t(m_.symbols[s.symbol].name);
    if (s.stage >= 0) t += "[" + std::to_string(s.stage) + "]";
    return t;
  }

  void report_once(DiagId code, StmtId id, ByteRange range, std::string message) {
    if (!reported_.insert({code, id}).second) return;
    diags_.push_back(make_diagnostic(code, range, std::move(message)));
  }

  /// Register-fragment reads and writes outside wgmma: the async rules.
  void touch_fragment(Actor& a, StmtId id, ExprId operand) {
    SymbolId f = fragment_of(operand);
    if (f == kNone) return;
    bool in_flight = a.wgmma_uncommitted.count(f) ||
                     std::any_of(a.wgmma_groups.begin(), a.wgmma_groups.end(), [&](const auto& g) { return g.count(f) > 0; });
    if (in_flight)
      report_once(DiagId::MissingWgmmaWait, id, m_.exprs[operand].range,
                  "`" + std::string(m_.symbols[f].name) + "` is used while a wgmma that writes it is in flight: " +
                      (a.wgmma_uncommitted.count(f) ? "add `wgmma.commit` and `wgmma.wait 0` before this line"
                                                    : "add `wgmma.wait 0` before this line"));
    if (a.ld_pending.count(f))
      report_once(DiagId::Tcgen05LdWait, id, m_.exprs[operand].range,
                  "`" + std::string(m_.symbols[f].name) + "` is used before `tcgen05.wait.ld` completes the load that fills it");
    a.touched_since_fence.insert(f);
  }

  /// Every buffer an expression reads (smem operands of element-wise ops).
  void reads_in(Actor& a, StmtId id, ExprId e) {
    if (e == kNone) return;
    std::vector<ExprId> work{e};
    while (!work.empty()) {
      ExprId x = work.back();
      work.pop_back();
      if (x == kNone) continue;
      const Expr& ex = m_.exprs[x];
      if (ex.kind == Expr::Kind::Name || ex.kind == Expr::Kind::Index) {
        if (auto slot = slot_of(a, x)) {
          read_slot(a, id, x, *slot, false);
          continue;
        }
        if (fragment_of(x) != kNone) {
          touch_fragment(a, id, x);
          continue;
        }
      }
      if (ex.kind == Expr::Kind::Call && ex.text == "bytes") continue;  // a size, not a read
      if (ex.kind == Expr::Kind::Index) continue;  // global reads and indices: no smem
      work.push_back(ex.lhs);
      work.push_back(ex.rhs);
      for (ExprId arg : ex.args) work.push_back(arg);
    }
  }

  Result step(Actor& a, StmtId id, const Stmt&, const MoveStmt& mv) {
    const Frame& f = a.frames.back();
    switch (mv.op) {
      case Op::TmaLoad:
      case Op::BulkLoad: {
        auto key = barrier_of(a, mv.barrier);
        if (!key) return Result::Abort;
        auto slot = slot_of(a, mv.dst);
        int e = -1;
        if (slot) write_slot(a, id, mv.dst, *slot, true, &e);
        Typed t = typer_.type_of(mv.dst);
        int64_t bytes = 0;
        if (!t.is_buffer() || !bytes_of(a, t, bytes)) return Result::Abort;
        BarrierState& b = barrier(*key);
        b.delivered += bytes * f.threads;
        if (e >= 0) b.phase_events.push_back(e);
        try_complete(*key, b);
        return Result::Next;
      }
      case Op::CpAsync: {
        if (auto slot = slot_of(a, mv.dst)) {
          write_slot(a, id, mv.dst, *slot, false);
          a.cp_uncommitted.insert(*slot);
        }
        return Result::Next;
      }
      case Op::TmaStore:
        if (auto slot = slot_of(a, mv.src)) read_slot(a, id, mv.src, *slot, false);
        return Result::Next;
      case Op::Tcgen05Ld: {
        lanes(a, id, mv.src);
        if (auto slot = slot_of(a, mv.src)) read_slot(a, id, mv.src, *slot, false);
        if (SymbolId frag = fragment_of(mv.dst); frag != kNone) a.ld_pending.insert(frag);
        return Result::Next;
      }
      case Op::Tcgen05St:
        lanes(a, id, mv.dst);
        touch_fragment(a, id, mv.src);
        if (auto slot = slot_of(a, mv.dst)) write_slot(a, id, mv.dst, *slot, false);
        return Result::Next;
      default:
        break;
    }
    // load, store, ldmatrix, stmatrix, tcgen05.cp
    if (auto slot = slot_of(a, mv.src)) read_slot(a, id, mv.src, *slot, false);
    else touch_fragment(a, id, mv.src);
    if (auto slot = slot_of(a, mv.dst)) write_slot(a, id, mv.dst, *slot, false);
    else touch_fragment(a, id, mv.dst);
    return Result::Next;
  }

  bool bytes_of(const Actor&, const Typed& t, int64_t& out) const {
    unsigned bits = dtype_bits(t.dtype);
    int64_t n = 1;
    for (size_t i = t.stage_dims; i < t.dims.size(); ++i) {
      auto v = eval_.fold(t.dims[i]);
      if (!v || *v < 0 || __builtin_mul_overflow(n, *v, &n)) return false;
    }
    if (bits == 0 || __builtin_mul_overflow(n, int64_t(bits), &n)) return false;
    out = (n + 7) / 8;
    return true;
  }

  /// E0413: each warp may touch only TMEM lanes 32*(warp % 4) .. +31.
  void lanes(Actor& a, StmtId id, ExprId operand) {
    const Expr& x = m_.exprs[operand];
    if (x.kind != Expr::Kind::Index || x.items.empty()) return;
    const IndexItem& item = x.items[0];
    Env env = a.env;
    int64_t per_unit = a.role.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (int64_t w = 0; w < a.role.warps; ++w) {
      int64_t warp = a.role.first_warp + w;
      if (warp_ != kNone) env.fields[warp_]["id"] = warp;
      if (rank_ != kNone) env.fields[rank_]["rank"] = w / per_unit;
      auto start = eval_.eval(item.start, &env);
      std::optional<int64_t> extent = item.kind == IndexItem::Kind::Slice ? eval_.eval(item.extent, &env)
                                                                           : std::optional<int64_t>(1);
      if (item.kind == IndexItem::Kind::Full) start = 0, extent = 128;
      if (!start || !extent) return;
      int64_t lo = 32 * (warp % 4);
      if (*start < lo || *start + *extent > lo + 32) {
        report_once(DiagId::TmemLanes, id, item.range,
                    "warp " + std::to_string(warp) + " touches TMEM lanes " + std::to_string(*start) + " .. " +
                        std::to_string(*start + *extent - 1) + ", but a warp may reach only lanes " + std::to_string(lo) +
                        " .. " + std::to_string(lo + 31) + " (32 × (warp % 4)); index the lanes with `(warp.id % 4) * 32`");
        return;
      }
    }
  }

  Result step(Actor& a, StmtId id, const Stmt& s, const MmaStmt& mm) {
    const Frame& f = a.frames.back();
    if (mm.op == Op::Wgmma) {
      SymbolId acc = fragment_of(mm.acc);
      SymbolId areg = fragment_of(mm.a);
      bool stale = !a.fenced || (acc != kNone && a.touched_since_fence.count(acc)) ||
                   (areg != kNone && a.touched_since_fence.count(areg));
      if (stale && reported_.insert({DiagId::MissingWgmmaFence, id}).second) {
        Diagnostic d = make_diagnostic(
            DiagId::MissingWgmmaFence, s.keyword,
            std::string(a.fenced ? "the accumulator or A registers were touched since the last `wgmma.fence`"
                                 : "no `wgmma.fence` before the first wgmma") +
                ": add `wgmma.fence` before this line");
        d.fixes.push_back({"insert `wgmma.fence`", {{ByteRange{s.range.begin, s.range.begin}, "wgmma.fence\n" + indent(s.range.begin)}}, true});
        diags_.push_back(std::move(d));
      }
      if (acc != kNone) a.wgmma_uncommitted.insert(acc);
      for (ExprId op : {mm.a, mm.b})
        if (auto slot = slot_of(a, op)) {
          read_slot(a, id, op, *slot, true);
          a.wgmma_reads_uncommitted.push_back(a.own.back());
        }
      return Result::Next;
    }
    if (mm.op == Op::Tcgen05Mma) {
      for (ExprId op : {mm.a, mm.b})
        if (auto slot = slot_of(a, op)) {
          read_slot(a, id, op, *slot, true);
          a.mma_events.push_back(a.own.back());
        }
      if (auto slot = slot_of(a, mm.acc)) {
        int e = -1;
        write_slot(a, id, mm.acc, *slot, true, &e);
        if (e >= 0) a.mma_events.push_back(e);
      }
      a.mma_scope = f.scope;
      a.mma_stmt = id;
      return Result::Next;
    }
    // mma.sync: synchronous register math.
    touch_fragment(a, id, mm.a);
    touch_fragment(a, id, mm.b);
    touch_fragment(a, id, mm.acc);
    return Result::Next;
  }

  std::string indent(uint32_t at) const { return std::string(m_.indent_at(at)); }

  Result step(Actor& a, StmtId id, const Stmt&, const ReduceStmt& r) {
    reads_in(a, id, r.src);
    touch_fragment(a, id, r.dst);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const ArgReduceStmt& r) {
    reads_in(a, id, r.src);
    touch_fragment(a, id, r.value);
    touch_fragment(a, id, r.index);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const Stmt&, const AssignStmt& as) {
    reads_in(a, id, as.value);
    if (auto slot = slot_of(a, as.target)) write_slot(a, id, as.target, *slot, false);
    else touch_fragment(a, id, as.target);
    return Result::Next;
  }

  // Plain ops that change async state.
  Result plain(Actor& a, Op op) {
    switch (op) {
      case Op::WgmmaFence:
        a.fenced = true;
        a.touched_since_fence.clear();
        break;
      case Op::WgmmaCommit:
        a.wgmma_groups.push_back(a.wgmma_uncommitted);
        a.wgmma_uncommitted.clear();
        a.wgmma_read_groups.push_back(a.wgmma_reads_uncommitted);
        a.wgmma_reads_uncommitted.clear();
        break;
      case Op::CpAsyncCommit:
        a.cp_groups.push_back(a.cp_uncommitted);
        a.cp_uncommitted.clear();
        break;
      case Op::Tcgen05WaitLd:
        a.ld_pending.clear();
        break;
      case Op::Syncthreads:
      case Op::ClusterSync:
        sync_role(a);
        break;
      default:
        break;
    }
    return Result::Next;
  }

  // Section - endings

  void deadlock() {
    std::vector<Actor*> blocked;
    for (Actor& a : actors_)
      if (!a.done && a.blocked_at != kNone) blocked.push_back(&a);
    if (blocked.empty()) return;
    Actor& first = *blocked.front();
    const BarrierState& b = barrier(first.blocked_on);
    // A barrier no statement ever arrives on is E0404's (sync_static.cpp) to report.
    if (!statically_arrived(first.blocked_on.symbol)) {
      deadlocked_ = true;
      return;
    }
    std::string state = "`" + barrier_text(first.blocked_on) + "` is in phase " + std::to_string(b.phase) + " with " +
                        std::to_string(b.arrivals) + " of " + std::to_string(b.count) + " arrivals" +
                        (b.expected || b.delivered ? " and " + std::to_string(b.delivered) + " of " +
                                                         std::to_string(b.expected) + " bytes"
                                                   : "");
    Diagnostic d = make_diagnostic(DiagId::Deadlock, m_.stmts[first.blocked_at].range,
                                   "deadlock: this wait for parity " + std::to_string(first.blocked_parity) +
                                       " can never complete; " + state + loop_where(first));
    for (Actor* a : blocked) {
      std::string msg = (a->role.name.empty() ? std::string("the kernel") : "role `" + std::string(a->role.name) + "`") +
                        " waits here for `" + barrier_text(a->blocked_on) + "` parity " +
                        std::to_string(a->blocked_parity) + loop_where(*a);
      if (a != &first) d.related.push_back({m_.stmts[a->blocked_at].range, msg});
    }
    for (const auto& [stmt, n] : b.contributors)
      d.related.push_back({m_.stmts[stmt].range, "arrives with " + std::to_string(n) + " thread(s) in this phase"});
    decl_note(d, first.blocked_on.symbol);
    for (Actor& a : actors_)
      if (a.done && !a.role.name.empty())
        d.related.push_back({a.role.range, "role `" + std::string(a.role.name) + "` has finished"});
    diags_.push_back(std::move(d));
    deadlocked_ = true;
  }

  bool statically_arrived(SymbolId barrier) const {
    return std::any_of(m_.stmts.begin(), m_.stmts.end(), [&](const Stmt& st) {
      ExprId b = arrival_barrier(st);
      return b != kNone && root_symbol(m_, b) == barrier;
    });
  }

  std::string loop_where(const Actor& a) const {
    std::string s;
    for (const Frame& f : a.frames) {
      if (!f.loop || f.variable == kNone) continue;
      s += (s.empty() ? " (at " : ", ") + std::string(m_.symbols[f.variable].name) + " = " + std::to_string(f.value);
      if (f.stage != kNone && f.stages > 0)
        s += ", " + std::string(m_.symbols[f.stage].name) + " = " + std::to_string(f.value % f.stages) + ", " +
             std::string(m_.symbols[f.stage].name) + ".phase = " + std::to_string((f.value / f.stages) % 2);
    }
    return s.empty() ? s : s + ")";
  }

  /// Phases left incomplete: arrivals that never add up, bytes that never land.
  void leftovers() {
    for (auto& entry : barriers_) {
      const BarrierKey key = entry.first;  // a plain variable: clang 14 cannot capture structured bindings
      BarrierState& b = entry.second;
      if (b.arrivals > 0 && b.arrivals < b.count && !b.contributors.empty()) {
        // Attribute it only where it is not a side effect of a deadlock:
        // one arriving statement whose share can never equal the count.
        bool single = b.arriving_stmts.size() == 1;
        int64_t share = b.contributors.front().second;
        bool waited_on = std::any_of(actors_.begin(), actors_.end(), [&](const Actor& a) {
          return !a.done && a.blocked_at != kNone && !(a.blocked_on < key) && !(key < a.blocked_on);
        });
        if (single && share != b.count && (!deadlocked_ || waited_on || b.count % share != 0)) {
          StmtId stmt = b.contributors.front().first;
          if (reported_.insert({DiagId::ArrivalCount, stmt}).second) {
            const Actor* who_a = nullptr;
            for (const Actor& a : actors_)
              if (stmt_in_role(stmt, a)) who_a = &a;
            Diagnostic d = make_diagnostic(
                DiagId::ArrivalCount, m_.stmts[stmt].range,
                "`" + barrier_text(key) + "` gets " + std::to_string(share) + " arrival(s) per phase" + elect_reason(stmt, who_a) +
                    " but was declared count(" + std::to_string(b.count) + "): its phase never completes");
            decl_note(d, key.symbol);
            add_arrive_fix(d, stmt, b.count, who_a);
            diags_.push_back(std::move(d));
          }
        }
      }
      if (b.arrivals >= b.count && b.delivered < b.expected && b.expect_stmt != kNone &&
          reported_.insert({DiagId::ExpectTxBytes, b.expect_stmt}).second) {
        Diagnostic d = make_diagnostic(DiagId::ExpectTxBytes, m_.stmts[b.expect_stmt].range,
                                       "`" + barrier_text(key) + "` expects " + std::to_string(b.expected) +
                                           " bytes per phase but its copies deliver " + std::to_string(b.delivered) +
                                           ": the phase never completes (a hang)");
        decl_note(d, key.symbol);
        diags_.push_back(std::move(d));
      }
    }
  }

  /// " (`elect.warp`: one per warp, 8 warps)" for an arrive inside an elect.
  std::string elect_reason(StmtId stmt, const Actor* a) const {
    if (!a) return "";
    for (StmtId p = m_.stmts[stmt].parent; p != kNone; p = m_.stmts[p].parent) {
      const auto* e = std::get_if<ElectStmt>(&m_.stmts[p].node);
      if (!e) continue;
      switch (e->kind) {
        case ElectStmt::Kind::PerWarp:
          return " (`elect.warp`: one per warp, " + std::to_string(a->role.warps) + " warps)";
        case ElectStmt::Kind::PerWarpgroup:
          return " (`elect.warpgroup`: one per warpgroup, " + std::to_string(a->role.warpgroups()) + " warpgroups)";
        case ElectStmt::Kind::One:
          return " (`elect`: one thread)";
      }
    }
    return " (every thread of the role: " + std::to_string(a->role.threads()) + ")";
  }

  bool stmt_in_role(StmtId stmt, const Actor& a) const {
    for (StmtId p = stmt; p != kNone; p = m_.stmts[p].parent)
      if (p == a.role.stmt) return true;
    return a.role.stmt == kNone;
  }

  /// `elect.warp { arrive b }` where a bare arrive gives exactly the count.
  void add_arrive_fix(Diagnostic& d, StmtId stmt, int64_t count, const Actor* a) const {
    if (!a) return;
    StmtId parent = m_.stmts[stmt].parent;
    if (parent == kNone) return;
    const auto* elect = std::get_if<ElectStmt>(&m_.stmts[parent].node);
    if (!elect || elect->body.size() != 1) return;
    if (a->role.threads() != count) return;
    std::string arrive(m_.written(m_.stmts[stmt].range));
    d.fixes.push_back({"arrive from every thread of the role: `" + arrive + "`",
                       {{m_.stmts[parent].range, arrive}}, true});
  }

  const Module& m_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  Typer typer_;
  uint32_t kernel_;
  std::vector<Actor> actors_;
  std::map<BarrierKey, BarrierState> barriers_;
  std::map<SlotKey, SlotState> slots_;
  std::vector<Event> events_;
  std::set<std::pair<DiagId, StmtId>> reported_;
  int64_t steps_ = 0;
  bool deadlocked_ = false;
  SymbolId lane_ = kNone, warp_ = kNone, rank_ = kNone;
};

/// Chooses the shape to simulate: a bench shape, else the smallest the facts
/// allow with at least two turns of every ring.
/// Trip counts of every loop in `body` under `env` (loop variables unbound:
/// bounds that use them are skipped), and whether each ring turns twice.
void loop_trips(const Module& m, const Evaluator& eval, const std::vector<StmtId>& body, const Env& env,
                int64_t& max_trips, bool& rings_turn_twice) {
  for (StmtId id : body) {
    const Stmt& s = m.stmts[id];
    const std::vector<StmtId>* inner = nullptr;
    if (const auto* p = std::get_if<PipelineStmt>(&s.node)) {
      auto b = eval.eval(p->start, &env), e = eval.eval(p->end, &env), r = eval.fold(p->stages);
      if (b && e) {
        max_trips = std::max(max_trips, *e - *b);
        if (r && *e - *b < 2 * *r) rings_turn_twice = false;
      }
      inner = &p->body;
    } else if (const auto* f = std::get_if<ForStmt>(&s.node)) {
      auto b = eval.eval(f->start, &env), e = eval.eval(f->end, &env);
      if (b && e) max_trips = std::max(max_trips, *e - *b);
      inner = &f->body;
    } else if (const auto* r = std::get_if<RoleStmt>(&s.node)) {
      inner = &r->body;
    } else if (const auto* el = std::get_if<ElectStmt>(&s.node)) {
      inner = &el->body;
    } else if (const auto* i = std::get_if<IfStmt>(&s.node)) {
      loop_trips(m, eval, i->then_body, env, max_trips, rings_turn_twice);
      inner = &i->else_body;
    }
    if (inner) loop_trips(m, eval, *inner, env, max_trips, rings_turn_twice);
  }
}

std::optional<Env> simulation_env(const Module& m, const Evaluator& eval, uint32_t k) {
  std::vector<Env> samples = shape_samples(m, eval, k);
  const Kernel& kernel = m.kernels[k];
  auto fits = [&](const Env& env, bool need_two_turns) {
    int64_t trips = 0;
    bool twice = true;
    loop_trips(m, eval, kernel.body, env, trips, twice);
    return trips <= kMaxTrips && (twice || !need_two_turns);
  };
  // Bench shapes are what runs; otherwise grow the smallest shape (doubling
  // keeps every divisibility fact) until each ring turns twice.
  bool benched = std::any_of(m.benches.begin(), m.benches.end(), [&](const Bench& b) {
    return b.kernel_symbol != kNone && m.symbols[b.kernel_symbol].kernel == k;
  });
  if (benched && !samples.empty() && fits(samples.front(), false)) return samples.front();
  for (const Env& env : samples) {
    Env grown = env;
    for (int i = 0; i < 12; ++i) {
      if (fits(grown, true)) return grown;
      bool doubled = true;
      for (auto& [sym, v] : grown.values) {
        std::optional<int64_t> twice = checked_mul(v, 2);
        if (!twice) doubled = false;
        else v = *twice;
      }
      if (!doubled) break;  // past int64: this shape cannot grow further
      bool facts = true;
      for (ExprId f : kernel.facts)
        if (auto ok = eval.eval(f, &grown); ok && *ok == 0) facts = false;
      if (!facts) break;
    }
  }
  for (const Env& env : samples)
    if (fits(env, false)) return env;
  return std::nullopt;
}

}  // namespace

void check_protocol(const Module& module, std::vector<Diagnostic>& diagnostics) {
  Evaluator eval(module);
  for (uint32_t k = 0; k < module.kernels.size(); ++k) {
    auto roles = kernel_roles(module, eval, k);
    if (!roles) continue;
    auto env = simulation_env(module, eval, k);
    if (!env) continue;
    std::vector<Diagnostic> found;
    Simulator sim(module, found, k, std::move(*roles), std::move(*env));
    sim.run();
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
}

}  // namespace cake
