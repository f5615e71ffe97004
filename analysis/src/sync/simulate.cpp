// The barrier-traffic simulator (abstract interpretation over concrete trip
// counts). It runs every role of a kernel and records a ProtocolTrace; the
// E04xx and E06xx rules that read the trace live in checks/protocol/.
//
// What it models. Each role is one actor that runs its statements in order;
// a statement's multiplicity is the number of threads that run it (the whole
// role, one thread per warpgroup or warp in `elect.*`, one in `elect`, or the
// threads for which a per-thread `if` holds). Each mbarrier element has a
// phase counter, the arrivals, expected and delivered transaction bytes of its
// current phase. `wait b parity(p)` passes when the current phase's parity is
// not p (so parity 1 passes on a fresh barrier). Actors run round-robin until
// all finish or none can move (a deadlock: the trace says where every
// blocked role waits). Each turn runs an actor until it blocks; when that
// schedule deadlocks, simulate_protocol() also runs a statement per turn
// (either role first), whose hazard, if any, is the cause.
//
// Happens-before is tracked with accesses: every smem/tmem access is one; an
// arrive releases the accesses its threads can vouch for (an `elect` orders
// nothing: one thread's arrive does not release what the other lanes read,
// unless a `syncthreads`/`sync` ordered them first); a completed phase
// carries the released accesses, the bytes TMA delivered and the MMAs a
// `tcgen05.commit` covers; a passing wait acquires them. A named barrier's
// `sync` is a rendezvous across roles: it blocks until the declared threads
// have arrived, and each then knows what all of them vouched for; an
// `arrive` on it (bar.arrive) counts and vouches without waiting. Program order orders
// a role's own synchronous accesses and its own cp.async writes (whose
// completion its group waits govern). An access whose conflicting
// predecessor is not acquired is a Hazard in the trace.
//
// Clusters. A kernel with a `cluster` clause runs every role once per CTA of
// its cluster (each with its `cluster.rank`); barriers and slots are per
// CTA, and a `multicast(mask)` copy or commit reaches the barriers and slots
// of every CTA its mask names. `cluster.sync` is a rendezvous of every
// actor of every CTA, as a named barrier's `sync` is of its threads. The trace shows one CTA (ProtocolTrace::
// shown_cta: the first with a blocked role, else the first with a hazard,
// else CTA 0): its roles, its barriers' traffic (the bytes and arrivals the
// others send it included), its hazards and async events.
//
// The simulator follows wgmma groups only as far as happens-before needs
// (when their smem reads complete); the register side of every async group
// is recorded as AsyncEvents for the rules to replay.
#include "sync/simulate.h"

#include "facts/walk.h"

#include "cake/kernel_facts.h"
#include "cake/tile_in_buffer.h"
#include "cake/checked.h"
#include "cake/ops.h"
#include "cake/typing.h"

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace cake {
namespace {

constexpr int64_t kMaxSteps = 400000;
constexpr int64_t kMaxTrips = 4096;

/// One smem/tmem access, for happens-before.
struct Access {
  int actor = -1;  // Actor::id
  StmtId stmt = kNone;
  ThreadScope scope = ThreadScope::All;
  bool async = false;    // completes later (TMA, bulk, wgmma, tcgen05.mma)
  bool done = true;      // for async accesses of the actor's own groups
  bool synced = false;   // a block or named barrier ordered all threads after it
  bool generic = false;  // a generic-proxy write of shared memory
  /// The fence.proxy.async of its writer that followed it, as an access
  /// of its role (released and acquired as accesses are); -1: none yet.
  int fence = -1;
  bool copying = false;  // a cp.async write no cp.async.wait has completed: no fence covers it yet
  StmtId landed = kNone;  // a cp.async write's: the cp.async.wait that completed it
  bool unwaited_st = false;  // a tcgen05.st no tcgen05.wait.st of its role has completed
  int64_t cta = -1;          // a peer CTA's shared memory (dsmem) it touches, else -1
  ExprId operand = kNone;    // for a peer's (cta >= 0): the operand that touches it
  SlotKey slot;              // and the slot
};

/// Elements of a global tensor, [lo, hi) per dim (peer_store_read).
using Region = llvm::SmallVector<std::pair<int64_t, int64_t>, 4>;

struct BarrierState {
  int64_t count = 1;
  int64_t phase = 0;  // completed phases
  int64_t arrivals = 0, expected = 0, delivered = 0;
  std::vector<std::pair<StmtId, int64_t>> contributors;  // this phase's arrivals
  StmtId expect_stmt = kNone;
  llvm::BitVector phase_accesses;      // by access id: released into the current phase
  llvm::BitVector completed_accesses;  // by access id: carried by a completed phase
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
  int64_t value = 0, trips_left = 0, step = 1, stages = 0;  // trips_left: after this one
  ThreadScope scope = ThreadScope::All;
  int64_t threads = 0;
};

struct NamedState;

struct Actor {
  int id = 0;     // in the simulator's actors
  int index = 0;  // the role's
  int64_t cta = 0;  // rank in the cluster
  RoleView role;
  std::vector<Frame> frames;
  Env env;
  bool done = false;
  StmtId blocked_at = kNone;
  BarrierKey blocked_on;
  int64_t blocked_parity = 0;
  llvm::BitVector known_all, known_one;  // acquired accesses, by id
  std::vector<int> own;                     // own accesses, in order
  // For release: own accesses a role-wide sync has ordered and that are
  // complete (always released, as a set), and the rest. Each sync moves
  // what settled, so a release and a sync cost what is in flight, not
  // every access of the loop's trips so far.
  llvm::BitVector settled;
  std::vector<int> unsettled;
  // own[0 .. *_upto) are fenced (fence.proxy.async) and have no unwaited
  // tcgen05.st (tcgen05.wait.st): each fence or wait marks the rest.
  size_t fenced_upto = 0, st_waited_upto = 0;
  // wgmma smem reads: complete at the wgmma.wait that retires their group
  std::vector<int> wgmma_reads_uncommitted;
  std::deque<std::vector<int>> wgmma_read_groups;
  // tcgen05: a commit covers every prior MMA of its thread
  std::vector<int> mma_accesses;
  // At a rendezvous (`sync NAME`, `syncthreads`, `cluster.sync`): the
  // round it arrived in, while it waits.
  const NamedState* held = nullptr;
  int64_t held_round = 0;
  // Its tma.stores: the tensor and, when known, the elements. Its later
  // global reads that may touch them are AsyncEvents (E0417).
  std::vector<std::pair<SymbolId, std::optional<Region>>> stores;
  // Its tma.stores' writes of global memory, by group (the open one, then
  // the committed ones, oldest first): done at the `tma.store.wait` (not
  // `.read`) that retires their group, so that a barrier after it carries
  // them to other roles.
  std::vector<int> store_writes_open;
  std::deque<std::vector<int>> store_writes;
  // Its cp.async writes by group, as store_writes: a fence.proxy.async
  // covers them once the `cp.async.wait` that retires their group has run
  // (`cp_landed`: retired, not yet fenced).
  std::vector<int> cp_writes_open, cp_landed;
  std::deque<std::vector<int>> cp_writes;
  // `dsmem` views declared so far: the CTA each names (-1: not known).
  std::map<SymbolId, int64_t> peers;
};

/// A named barrier (`bar.sync id, threads`): a rendezvous of every thread
/// that reaches it, whichever roles they belong to. A round completes when
/// the declared threads have arrived; what the arriving threads vouched for
/// is then known to all of them.
struct NamedState {
  /// What a completed round carries, until each actor that waits in it
  /// has taken it (then it is dropped: a kept round per trip of a loop
  /// around `syncthreads` grew with trips x accesses, gigabytes).
  struct Round {
    llvm::BitVector accesses;
    int waiters = 0;
  };
  int64_t arrived = 0, round = 0;
  int waiting = 0;                    // actors that wait in the open round
  llvm::BitVector pending;            // by access id: released into the open round
  std::map<int64_t, Round> carried;   // by completed round

  /// `threads` more arrive in the open round (`sync` or `arrive`; `waits`:
  /// a `sync`, which takes the round's accesses once it completes, by
  /// take()); it completes once `declared` have, carrying what they
  /// released.
  void arrive(int64_t threads, int64_t declared, bool waits) {
    arrived += threads;
    waiting += waits;
    if (arrived < declared) return;
    if (waiting > 0) carried[round] = Round{std::move(pending), waiting};
    pending = llvm::BitVector();
    arrived = 0;
    waiting = 0;
    ++round;
  }

  /// The accesses completed round `r` carries, for `known`, by one of
  /// its waiting actors.
  void take(int64_t r, llvm::BitVector& known) {
    auto it = carried.find(r);
    if (it == carried.end()) return;
    known |= it->second.accesses;
    if (--it->second.waiters == 0) carried.erase(it);
  }
};

class Simulator {
 public:
  Simulator(const Module& m, uint32_t kernel, std::vector<RoleView> roles, Env env)
      : m_(m), eval_(m), typer_(m, nullptr) {
    trace_.kernel = kernel;
    // The cluster's CTAs (1 without a cluster, or when its dims are unknown).
    std::optional<int64_t> ctas = 1;
    for (ExprId d : m.kernels[kernel].cluster) {
      auto v = eval_.fold(d);
      ctas = v && *v > 0 && ctas ? checked_mul(*ctas, *v) : std::nullopt;
    }
    ctas_ = ctas && *ctas <= 16 ? *ctas : 1;
    cluster_known_ = ctas && *ctas <= 16;
    pairs_ = m.kernels[kernel].cta_group == 2;
    trace_.cluster = ctas_;
    // The last cluster of the grid: where a loop up to the CTA's diagonal
    // (causal attention) runs longest, and a ring turns most.
    const std::vector<ExprId>& grid = m.kernels[kernel].grid;
    for (size_t d = 0; d < grid.size() && d < 3; ++d)
      if (auto g = eval_.eval(grid[d], &env); g && *g > 0 && *g <= kMaxTrips)
        block_base_[d] = std::max<int64_t>(0, *g - (d == 0 ? ctas_ : 1));
    per_cta_.resize(static_cast<size_t>(ctas_));
    block_.resize(static_cast<size_t>(ctas_));
    for (const RoleView& r : roles) block_rendezvous_ = block_rendezvous_ && reaches_op(m, *r.body, Op::Syncthreads);
    for (PerCta& c : per_cta_) c.async.resize(roles.size());
    for (int64_t c = 0; c < ctas_; ++c)
      for (size_t i = 0; i < roles.size(); ++i) {
        Actor a;
        a.id = static_cast<int>(actors_.size());
        a.index = static_cast<int>(i);
        a.cta = c;
        a.role = roles[i];
        a.env = env;
        set_builtins(a);
        Frame f;
        f.body = roles[i].body;
        f.threads = roles[i].threads();
        a.frames.push_back(f);
        // A declared role runs its own body: the kernel-scope dsmem views
        // it uses are bound to its CTA here.
        if (roles[i].stmt != kNone)
          for (StmtId id : m.kernels[kernel].body)
            if (const auto* d = std::get_if<DeclStmt>(&m.stmts[id].node)) step(a, id, *d);
        cluster_threads_ += f.threads;
        order_.push_back(a.id);
        actors_.push_back(std::move(a));
      }
  }

  /// Runs to the end or a standstill; false when aborted (no verdict).
  /// Each turn an actor runs until it blocks, or `quantum` statements (0:
  /// no limit); `reversed` starts each round from the last role.
  bool run(int64_t quantum = 0, bool reversed = false) {
    quantum_ = quantum;
    if (reversed) std::reverse(order_.begin(), order_.end());
    while (true) {
      bool progress = false, all_done = true;
      for (int i : order_) {
        Actor& a = actors_[i];
        if (a.done) continue;
        int64_t before = steps_;
        if (!run_actor(a)) return false;
        if (steps_ != before) progress = true;
        if (!a.done) all_done = false;
      }
      if (all_done) break;
      if (!progress) {
        trace_.deadlocked = std::any_of(actors_.begin(), actors_.end(),
                                        [](const Actor& a) { return !a.done && a.blocked_at != kNone; });
        break;
      }
    }
    return true;
  }

  /// A peer CTA's shared memory is there only while that CTA runs: each
  /// access through a `dsmem` view must be ordered before the end of some
  /// role of the CTA it touches (a `cluster.sync` before the roles end, or
  /// a barrier the peer waits on after the access). Judged when every role
  /// has finished. Appended to the trace's hazards.
  void peer_exits() {
    if (!std::all_of(actors_.begin(), actors_.end(), [](const Actor& a) { return a.done; })) return;
    std::set<StmtId> reported;
    for (size_t e = 0; e < accesses_.size(); ++e) {
      const Access& ev = accesses_[e];
      if (ev.cta < 0) continue;
      bool ordered = std::any_of(actors_.begin(), actors_.end(), [&](const Actor& o) {
        return o.cta == ev.cta && has(o.known_all, static_cast<int>(e));
      });
      if (ordered) continue;
      if (!reported.insert(ev.stmt).second) continue;
      trace_.hazards.push_back(
          make_hazard(HazardKind::PeerExited, ev.scope, actors_[ev.actor], ev.stmt, ev.operand, ev.slot, ev));
    }
  }

  ProtocolTrace finish() {
    // The CTA the trace shows: the first with a blocked role (a hang in a
    // CTA that a multicast mask starves shows there), else the first with
    // a hazard, else CTA 0.
    // A role held at cluster.sync waits for the others: a role blocked on
    // a barrier says more.
    // A role starved by a barrier that never had an arrival or a byte in
    // its CTA, and that no role still running can reach (what a missing
    // multicast leaves), comes first: the others wait on what it would
    // have done.
    int64_t seen = -1;
    for (const Actor& a : actors_) {
      if (seen >= 0 || a.done || a.blocked_at == kNone || a.blocked_on.symbol == kNone) continue;
      if (m_.symbols[a.blocked_on.symbol].kind != SymbolKind::Mbarrier) continue;
      auto b = barriers_.find({a.cta, a.blocked_on});
      bool empty = b == barriers_.end() || (b->second.phase == 0 && b->second.arrivals == 0 && b->second.delivered == 0);
      if (empty && !reachable(a.cta, a.blocked_on.symbol)) seen = a.cta;
    }
    for (const Actor& a : actors_)
      if (seen < 0 && !a.done && a.blocked_at != kNone && a.blocked_on.symbol != kNone) seen = a.cta;
    for (const Actor& a : actors_)
      if (seen < 0 && !a.done && a.blocked_at != kNone) seen = a.cta;
    for (int64_t c = 0; c < ctas_ && seen < 0; ++c)
      if (!per_cta_[c].hazards.empty()) seen = c;
    if (seen < 0) seen = 0;
    trace_.shown_cta = seen;
    trace_.events = std::move(per_cta_[seen].events);
    trace_.async = std::move(per_cta_[seen].async);
    trace_.hazards = std::move(per_cta_[seen].hazards);
    peer_exits();  // from every CTA: the shown one may touch no peer
    // A bad multicast mask, and a pair's rule broken, are said wherever
    // they were met.
    for (int64_t c = 0; c < ctas_; ++c)
      if (c != seen)
        for (const SyncEvent& e : per_cta_[c].events)
          if (e.kind == SyncEventKind::MulticastOutside || e.kind == SyncEventKind::PairMmaOdd ||
              e.kind == SyncEventKind::PairBarrierFar)
            trace_.events.push_back(e);
    for (const Actor& a : actors_) {
      if (a.cta != seen) continue;
      RoleTrace r;
      r.role = a.role;
      r.finished = a.done;
      if (!a.done && a.blocked_at != kNone) {
        r.blocked_at = a.blocked_at;
        r.blocked_on = a.blocked_on;
        r.blocked_parity = a.blocked_parity;
        for (const Frame& f : a.frames)
          if (f.loop && f.variable != kNone) r.loops.push_back({f.variable, f.value, f.stage, f.stages});
      }
      trace_.roles.push_back(std::move(r));
    }
    for (auto& [at, b] : barriers_) {
      const auto& [cta, key] = at;
      if (cta != seen) continue;
      BarrierEnd e;
      e.key = key;
      e.count = b.count;
      e.phase = b.phase;
      e.arrivals = b.arrivals;
      e.expected = b.expected;
      e.delivered = b.delivered;
      e.expect_stmt = b.expect_stmt;
      e.contributors = std::move(b.contributors);
      trace_.barriers.push_back(std::move(e));
    }
    return std::move(trace_);
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
      if (s.name == "block")
        a.env.fields[id]["x"] = block_base_[0] + a.cta, a.env.fields[id]["y"] = block_base_[1],
        a.env.fields[id]["z"] = block_base_[2];
      if (s.name == "cluster") a.env.fields[id]["rank"] = a.cta;
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
    int64_t turn = 0;
    while (!a.frames.empty()) {
      if (quantum_ > 0 && turn++ == quantum_) return true;  // its turn is over
      if (++steps_ > kMaxSteps) return false;
      Frame& f = a.frames.back();
      if (f.pc >= f.body->size()) {
        if (f.loop && f.trips_left > 0) {
          --f.trips_left;
          f.value += f.step;  // within [start, end): no overflow
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
    return std::visit([&](const auto& node) { return step(a, id, node); }, s.node);
  }

  Frame child_frame(const Actor& a, const std::vector<StmtId>* body) {
    // The odd CTA of a pair enters a body that issues the pair's MMA: said
    // here, since that CTA's MMA role usually blocks before it gets there.
    if (pairs_ && a.cta % 2 != 0)
      if (StmtId mma = first_mma(*body); mma != kNone && odd_mmas_.insert(mma).second) pair_mma_odd(a, mma);
    Frame f;
    f.body = body;
    const Frame& p = a.frames.back();
    f.scope = p.scope;
    f.threads = p.threads;
    return f;
  }

  /// `dsmem v = buf cta(r)`: the CTA `v` names from here on (-1, its
  /// accesses untracked, when it is not one the simulation runs), which
  /// must be one of the cluster (E0414, from a MulticastOutside event).
  Result step(Actor& a, StmtId id, const DeclStmt& d) {
    if (d.symbol == kNone || m_.symbols[d.symbol].kind != SymbolKind::Dsmem) return Result::Next;
    auto rank = value(a, m_.symbols[d.symbol].value);
    bool simulated = rank && *rank >= 0 && *rank < ctas_;
    a.peers[d.symbol] = simulated ? *rank : -1;
    if (!rank || simulated || !cluster_known_) return Result::Next;
    SyncEvent e;
    e.kind = SyncEventKind::MulticastOutside;
    e.stmt = id;
    e.role = a.index;
    e.bytes = *rank;
    e.threads = ctas_;
    record(a.cta, e);
    return Result::Next;
  }
  Result step(Actor&, StmtId, const RoleStmt&) { return Result::Next; }
  Result step(Actor& a, StmtId id, const PlainStmt& p) { return plain(a, id, p.op); }

  // Lets are evaluated on demand through their value: nothing to bind.
  Result step(Actor&, StmtId, const LetStmt&) { return Result::Next; }

  Result step(Actor& a, StmtId, const ElectStmt& e) {
    Frame f = child_frame(a, &e.body);
    int64_t n = e.kind == ElectStmt::Kind::One           ? 1
                : e.kind == ElectStmt::Kind::PerWarpgroup ? a.role.warpgroups()
                                                         : a.role.warps;
    ThreadScope sc = e.kind == ElectStmt::Kind::One           ? ThreadScope::One
                     : e.kind == ElectStmt::Kind::PerWarpgroup ? ThreadScope::PerWarpgroup
                                                               : ThreadScope::PerWarp;
    // The narrower of the enclosing scope and this elect.
    if (f.scope == ThreadScope::All || n < f.threads) {
      f.scope = sc;
      f.threads = std::min(f.threads, n);
    }
    a.frames.push_back(f);
    return Result::Next;
  }

  Result step(Actor& a, StmtId, const ForStmt& l) {
    return loop(a, l.variable, kNone, l.start, l.end, l.step, kNone, &l.body);
  }

  Result step(Actor& a, StmtId, const PipelineStmt& p) {
    return loop(a, p.variable, p.stage, p.start, p.end, p.step, p.stages, &p.body);
  }

  Result loop(Actor& a, SymbolId var, SymbolId stage, ExprId start, ExprId end, ExprId step, ExprId stages,
              const std::vector<StmtId>* body) {
    auto trips = eval_.trips(start, end, step, &a.env);
    std::optional<int64_t> ring = stages == kNone ? std::optional<int64_t>(0) : eval_.fold(stages);
    if (!trips || !ring || *ring < 0 || *trips > kMaxTrips) return Result::Abort;
    if (*trips == 0) return Result::Next;
    auto b = value(a, start);
    Frame f = child_frame(a, body);
    f.loop = true;
    f.variable = var;
    f.stage = stage;
    f.value = *b;
    f.step = step == kNone ? 1 : *value(a, step);
    f.trips_left = *trips - 1;
    f.stages = *ring;
    a.frames.push_back(f);
    bind_loop(a, f);
    return Result::Next;
  }

  Result step(Actor& a, StmtId, const IfStmt& i) {
    if (depends_on_thread(m_, eval_, i.condition)) {
      auto n = threads_where(a, i.condition);
      if (!n) return Result::Abort;
      if (*n > 0) {
        Frame f = child_frame(a, &i.then_body);
        if (*n < f.threads) f.scope = ThreadScope::Partial, f.threads = std::min(f.threads, *n);
        a.frames.push_back(f);
      }
      // The else branch runs on the other threads; protocol-wise it is rare
      // enough to follow only when the condition holds nowhere.
      if (*n == 0 && !i.else_body.empty()) a.frames.push_back(child_frame(a, &i.else_body));
      return Result::Next;
    }
    auto c = value(a, i.condition);
    if (!c) return Result::Abort;
    const auto& body = *c ? i.then_body : i.else_body;
    if (!body.empty()) a.frames.push_back(child_frame(a, &body));
    return Result::Next;
  }

  // Section - barriers

  /// The mbarrier element `e` names. Through a `dsmem` view of a peer's
  /// mbarrier, the viewed one, and `*cta` is the CTA the view names (-1:
  /// not one the simulation runs); without `cta`, a view names none.
  std::optional<BarrierKey> barrier_of(const Actor& a, ExprId e, int64_t* cta = nullptr) {
    if (e == kNone) return std::nullopt;
    const Expr& x = m_.exprs[e];
    if (cta) *cta = a.cta;
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
    if (key.symbol != kNone && cta && m_.symbols[key.symbol].kind == SymbolKind::Dsmem) {
      auto peer = a.peers.find(key.symbol);
      *cta = peer == a.peers.end() ? -1 : peer->second;
      key.symbol = m_.symbols[key.symbol].tensor;
    }
    if (key.symbol == kNone || m_.symbols[key.symbol].kind != SymbolKind::Mbarrier) return std::nullopt;
    return key;
  }

  /// Barrier `key` of CTA `cta` (the actor's own unless a multicast says).
  BarrierState& barrier(int64_t cta, BarrierKey key) {
    auto it = barriers_.find({cta, key});
    if (it != barriers_.end()) return it->second;
    BarrierState b;
    const Symbol& s = m_.symbols[key.symbol];
    if (s.count != kNone)
      if (auto c = eval_.fold(s.count); c && *c > 0) b.count = *c;
    return barriers_.emplace(std::pair{cta, key}, b).first->second;
  }

  /// Whether a role still running may arrive on `barrier` of CTA `cta`:
  /// one of that CTA with an arrive, commit or copy on it, or one of any
  /// CTA with a multicast one.
  bool reachable(int64_t cta, SymbolId barrier) {
    for (const Actor& o : actors_) {
      if (o.done) continue;
      bool found = false;
      walk_statements(m_, *o.role.body, walk_stack_, [&](StmtId id) {
        const Stmt& st = m_.stmts[id];
        ExprId e = arrival_barrier(st);
        if (found || e == kNone || root_symbol(m_, e) != barrier) return;
        found = o.cta == cta || arrival_multicast(st) != kNone;
      });
      if (found) return true;
    }
    return false;
  }

  /// A pair's MMA at `mma` that the odd CTA `a.cta` runs or enters.
  void pair_mma_odd(const Actor& a, StmtId mma) {
    SyncEvent e;
    e.kind = SyncEventKind::PairMmaOdd;
    e.role = a.index;
    e.stmt = mma;
    e.threads = a.cta;
    record(a.cta, e);
  }

  /// The first `tcgen05.mma` in `body`, nested bodies included (kNone: none).
  StmtId first_mma(const std::vector<StmtId>& body) {
    auto [it, fresh] = first_mma_.try_emplace(&body, kNone);
    if (!fresh) return it->second;
    StmtId found = kNone;
    walk_statements(m_, body, walk_stack_, [&](StmtId id) {
      const auto* mm = std::get_if<MmaStmt>(&m_.stmts[id].node);
      if (found == kNone && mm && mm->op == Op::Tcgen05Mma) found = id;
    });
    it->second = found;
    return found;
  }

  /// What each CTA saw: the traffic on its barriers, its roles' async
  /// events and hazards; finish() keeps one CTA's.
  void record(int64_t cta, const SyncEvent& e) { per_cta_[cta].events.push_back(e); }
  std::vector<AsyncEvent>& async_of(const Actor& a) { return per_cta_[a.cta].async[a.index]; }

  SyncEvent event(SyncEventKind kind, const Actor* a, StmtId stmt, BarrierKey key, const BarrierState& b) const {
    SyncEvent e;
    e.kind = kind;
    e.role = a ? a->index : -1;
    e.scope = a ? a->frames.back().scope : ThreadScope::All;
    e.stmt = stmt;
    e.barrier = key;
    e.phase = b.phase;
    return e;
  }

  /// Accesses of actor `a` that an arrive by threads of `scope` vouches for.
  void released_by(const Actor& a, ThreadScope scope, llvm::BitVector& out) const {
    // Bit sets, a word at a time: every release carries all the actor
    // knows, which grows with the trips of a loop around it.
    out |= a.known_all;
    out |= a.known_one;
    out |= a.settled;
    for (int e : a.unsettled) {
      const Access& ev = accesses_[e];
      if (ev.async && !ev.done) continue;
      if (ev.synced || scope == ThreadScope::All) { mark(out, e); continue; }
      switch (ev.scope) {
        case ThreadScope::One: mark(out, e); break;
        case ThreadScope::PerWarp: if (scope == ThreadScope::PerWarp) mark(out, e); break;
        case ThreadScope::PerWarpgroup:
          if (scope == ThreadScope::PerWarp || scope == ThreadScope::PerWarpgroup) mark(out, e);
          break;
        case ThreadScope::All:
        case ThreadScope::Partial:
          // wgmma reads complete for the whole warpgroup at wgmma.wait.
          if (ev.async && ev.done &&
              (scope == ThreadScope::PerWarp || scope == ThreadScope::PerWarpgroup || a.role.warpgroups() <= 1))
            mark(out, e);
          break;
      }
    }
  }

  void arrive(Actor& a, StmtId id, int64_t cta, BarrierKey key, int64_t n, ThreadScope scope) {
    BarrierState& b = barrier(cta, key);
    b.arrivals += n;
    b.contributors.push_back({id, n});
    released_by(a, scope, b.phase_accesses);
    SyncEvent e = event(SyncEventKind::Arrive, &a, id, key, b);
    e.threads = n;
    e.arrivals = b.arrivals;
    record(cta, e);
    if (b.arrivals > b.count) b.arrivals = b.count;  // keep simulating (E0401 reads the event)
    try_complete(&a, id, cta, key, b);
  }

  void try_complete(const Actor* a, StmtId by, int64_t cta, BarrierKey key, BarrierState& b) {
    if (b.arrivals < b.count || b.delivered < b.expected) return;
    SyncEvent e = event(SyncEventKind::PhaseComplete, a, by, key, b);
    e.expected = b.expected;
    e.delivered = b.delivered;
    record(cta, e);
    b.phase++;
    // Bit sets, not sorted lists: every arrival releases all the accesses
    // its actor knows, so sorting them into a list each phase made a
    // 1,024-trip ring cost ~90 ms.
    b.completed_accesses |= b.phase_accesses;
    b.phase_accesses.reset();
    b.contributors.clear();
    b.arrivals = b.expected = b.delivered = 0;
    b.expect_stmt = kNone;
  }

  Result step(Actor& a, StmtId id, const ArriveStmt& s) {
    if (SymbolId b = root_symbol(m_, s.barrier); b != kNone && m_.symbols[b].kind == SymbolKind::NamedBarrier)
      return named_arrive(a, b);
    auto key = barrier_of(a, s.barrier);
    if (!key) return Result::Abort;
    const Frame& f = a.frames.back();
    if (s.op == Op::ArriveExpectTx) {
      auto bytes = value(a, s.bytes);
      if (!bytes) return Result::Abort;
      BarrierState& b = barrier(a.cta, *key);
      b.expected += *bytes * f.threads;
      b.expect_stmt = id;
      SyncEvent e = event(SyncEventKind::ExpectTx, &a, id, *key, b);
      e.bytes = *bytes * f.threads;
      record(a.cta, e);
    }
    // `multicast(mask)`: one arrival on the barrier of each CTA it names
    // (mbarrier.arrive.shared::cluster on each peer's).
    auto ctas = destinations(a, id, s.multicast);
    if (!ctas) return Result::Abort;
    for (int64_t c : *ctas) arrive(a, id, c, *key, f.threads, f.scope);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const WaitStmt& w) {
    auto key = barrier_of(a, w.barrier);
    auto parity = value(a, w.parity);
    if (!key || !parity) return Result::Abort;
    BarrierState& b = barrier(a.cta, *key);
    if ((b.phase & 1) == (*parity & 1)) {
      a.blocked_at = id;
      a.blocked_on = *key;
      a.blocked_parity = *parity & 1;
      return Result::Blocked;
    }
    record(a.cta, event(SyncEventKind::Wait, &a, id, *key, b));
    // Acquire what the completed phases carry.
    const Frame& f = a.frames.back();
    (f.scope == ThreadScope::All ? a.known_all : a.known_one) |= b.completed_accesses;
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const CommitStmt& c) {
    auto key = barrier_of(a, c.barrier);
    if (!key) return Result::Abort;
    const Frame& f = a.frames.back();
    AsyncEvent ae = async_event(AsyncEventKind::Tcgen05Commit, a, id);
    ae.threads = f.threads;
    async_of(a).push_back(ae);
    // The MMAs complete, then the commit arrives (on every CTA its multicast
    // names): their accesses travel with the phase.
    auto to = destinations(a, id, c.multicast);
    if (!to) return Result::Abort;
    for (int e : a.mma_accesses) accesses_[e].done = true;
    for (int64_t cta : *to) {
      BarrierState& b = barrier(cta, *key);
      for (int e : a.mma_accesses) mark(b.phase_accesses, e);
      arrive(a, id, cta, *key, f.threads, f.scope);
    }
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const GroupWaitStmt& g) {
    auto n = value(a, g.pending);
    if (!n || *n < 0) return Result::Abort;
    if (g.op == Op::WgmmaWait) {
      while (static_cast<int64_t>(a.wgmma_read_groups.size()) > *n) {
        for (int e : a.wgmma_read_groups.front()) accesses_[e].done = true;
        a.wgmma_read_groups.pop_front();
      }
    }
    if (g.op == Op::CpAsyncWait) {
      while (static_cast<int64_t>(a.cp_writes.size()) > *n) {
        for (int e : a.cp_writes.front()) {
          accesses_[e].copying = false;
          accesses_[e].landed = id;
          a.cp_landed.push_back(e);
        }
        a.cp_writes.pop_front();
      }
    }
    if (g.op == Op::TmaStoreWait) {
      while (static_cast<int64_t>(a.store_writes.size()) > *n) {
        for (int e : a.store_writes.front()) accesses_[e].done = true;
        a.store_writes.pop_front();
      }
    }
    // The builder gives a GroupWaitStmt only these four ops.
    AsyncEvent ae = async_event(g.op == Op::WgmmaWait      ? AsyncEventKind::WgmmaWait
                                : g.op == Op::CpAsyncWait  ? AsyncEventKind::CpAsyncWait
                                : g.op == Op::TmaStoreWait ? AsyncEventKind::TmaStoreWait
                                                           : AsyncEventKind::TmaStoreWaitRead,
                                a, id);
    ae.count = *n;
    async_of(a).push_back(ae);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const SyncStmt& sy) {
    SymbolId b = root_symbol(m_, sy.barrier);
    auto declared = b == kNone || m_.symbols[b].kind != SymbolKind::NamedBarrier ? std::nullopt
                                                                                  : eval_.fold(m_.symbols[b].count);
    if (!declared || *declared <= 0) {
      sync_role(a, id);
      return Result::Next;
    }
    return rendezvous(a, id, named_[{a.cta, b}], a.frames.back().threads, *declared, BarrierKey{b, 0});
  }

  /// A rendezvous: `threads` of the actor's arrive in `n`'s open round,
  /// which completes once `declared` have; it blocks until then. Arriving
  /// threads vouch for what they did, as a role-wide sync does, and once
  /// the round completes what every arriving thread vouched for is known.
  Result rendezvous(Actor& a, StmtId id, NamedState& n, int64_t threads, int64_t declared, BarrierKey on) {
    if (a.held != &n) {
      sync_role(a, id);
      released_by(a, ThreadScope::All, n.pending);
      a.held = &n;
      a.held_round = n.round;
      n.arrive(threads, declared, true);
    }
    if (n.round == a.held_round) {
      a.blocked_at = id;
      a.blocked_on = on;
      a.blocked_parity = 0;
      return Result::Blocked;
    }
    n.take(a.held_round, a.known_all);
    a.held = nullptr;
    return Result::Next;
  }

  /// `arrive NAME` (bar.arrive): these threads count toward the open round
  /// and vouch for what they did, and go on without waiting; the round's
  /// `sync`ing threads then know it. Nothing orders the arriving threads
  /// among themselves.
  Result named_arrive(Actor& a, SymbolId b) {
    auto declared = eval_.fold(m_.symbols[b].count);
    if (!declared || *declared <= 0) return Result::Next;
    NamedState& n = named_[{a.cta, b}];
    const Frame& f = a.frames.back();
    released_by(a, f.scope, n.pending);
    n.arrive(f.threads, *declared, false);
    return Result::Next;
  }

  void sync_role(Actor& a, StmtId id) {
    size_t kept = 0;
    for (int e : a.unsettled) {
      accesses_[e].synced = true;
      if (accesses_[e].done) mark(a.settled, e);
      else a.unsettled[kept++] = e;
    }
    a.unsettled.resize(kept);
    a.known_all |= a.known_one;
    async_of(a).push_back(async_event(AsyncEventKind::RoleSync, a, id));
  }

  /// The CTAs a copy or commit at `id` reaches: its own, or those its
  /// multicast mask names inside the cluster (each named CTA once). A mask
  /// that names a CTA outside the cluster, or none, is recorded.
  std::optional<std::vector<int64_t>> destinations(const Actor& a, StmtId id, ExprId multicast) {
    if (multicast == kNone) return std::vector<int64_t>{a.cta};
    auto mask = value(a, multicast);
    if (!mask) return std::nullopt;
    std::vector<int64_t> out;
    for (int64_t c = 0; c < ctas_; ++c)  // at most 16
      if ((*mask >> c) & 1) out.push_back(c);
    if (*mask <= 0 || (*mask >> ctas_) != 0) {
      SyncEvent e;
      e.kind = SyncEventKind::MulticastOutside;
      e.role = a.index;
      e.stmt = id;
      e.bytes = *mask;
      e.threads = ctas_;
      record(a.cta, e);
    }
    return out;
  }

  // Section - accesses

  static void mark(llvm::BitVector& set, int e) {
    if (e < 0) return;
    if (static_cast<size_t>(e) >= set.size()) set.resize(std::max<size_t>(e + 1, 2 * set.size()));
    set.set(e);
  }
  static bool has(const llvm::BitVector& set, int e) { return e >= 0 && static_cast<size_t>(e) < set.size() && set.test(e); }

  bool knows(const Actor& a, int e, ThreadScope scope) const {
    if (has(a.known_all, e)) return true;
    return scope != ThreadScope::All && has(a.known_one, e);
  }

  /// The smem/tmem slot an operand touches, if any. Through a `dsmem` view,
  /// the viewed buffer's slot, in the CTA it names (`*cta`; without `cta`,
  /// none).
  std::optional<SlotKey> slot_of(const Actor& a, ExprId e, int64_t* cta = nullptr) {
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
    if (!stage) stage = -1;
    if (sym.kind == SymbolKind::Dsmem) {
      auto peer = a.peers.find(n.symbol);
      if (!cta || sym.tensor == kNone || peer == a.peers.end() || peer->second < 0) return std::nullopt;
      *cta = peer->second;
      return SlotKey{sym.tensor, *stage};
    }
    if (sym.kind != SymbolKind::Smem && sym.kind != SymbolKind::Tmem) return std::nullopt;
    if (cta) *cta = a.cta;
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

  AsyncEvent async_event(AsyncEventKind kind, const Actor& a, StmtId id) const {
    AsyncEvent e;
    e.kind = kind;
    e.scope = a.frames.back().scope;
    e.stmt = id;
    return e;
  }

  int new_access(Actor& a, StmtId id, bool async) {
    Access ev;
    ev.actor = a.id;
    ev.stmt = id;
    ev.scope = a.frames.back().scope;
    ev.async = async;
    ev.done = !async;
    accesses_.push_back(ev);
    int e = static_cast<int>(accesses_.size() - 1);
    a.own.push_back(e);
    a.unsettled.push_back(e);
    return e;
  }

  Hazard make_hazard(HazardKind kind, ThreadScope scope, const Actor& a, StmtId id, ExprId operand, SlotKey slot,
                     const Access& other) const {
    Hazard h;
    h.kind = kind;
    h.scope = scope;
    h.role = a.index;
    h.stmt = id;
    h.operand = operand;
    h.slot = slot;
    h.other_role = actors_[other.actor].index;
    h.other_stmt = other.stmt;
    if (kind == HazardKind::UnfencedProxy) {
      h.fence_after = other.copying ? kNone : other.landed != kNone ? other.landed : other.stmt;
      if (other.fence >= 0) h.late_fence = accesses_[other.fence].stmt;
    }
    if (actors_[other.actor].cta != a.cta) h.other_cta = actors_[other.actor].cta;
    return h;
  }

  /// A hazard of `a`'s access at `id` (once per kind, statement and slot),
  /// with the scope of `a`'s current frame or, for an access recorded
  /// earlier, the scope it had then.
  void hazard(HazardKind kind, const Actor& a, StmtId id, ExprId operand, SlotKey slot, const Access& other) {
    hazard(kind, a.frames.back().scope, a, id, operand, slot, other);
  }
  void hazard(HazardKind kind, ThreadScope scope, const Actor& a, StmtId id, ExprId operand, SlotKey slot,
              const Access& other) {
    if (!per_cta_[a.cta].hazard_seen.insert({kind, id, slot.symbol}).second) return;
    per_cta_[a.cta].hazards.push_back(make_hazard(kind, scope, a, id, operand, slot, other));
  }

  /// Whether the role's own access `e`, by all its threads, is unordered
  /// for the elected thread(s) now running at `scope`: `elect` orders
  /// nothing, so only a barrier of the role since (`synced`) or a phase
  /// they acquired that carries it does.
  bool unordered_for_elected(const Actor& a, int e, ThreadScope scope) const {
    bool elected = scope == ThreadScope::One || scope == ThreadScope::PerWarp || scope == ThreadScope::PerWarpgroup;
    const Access& x = accesses_[e];
    return elected && x.scope == ThreadScope::All && !x.synced && !knows(a, e, scope);
  }

  /// A read of `slot` in CTA `cta` (the actor's own, or a dsmem peer's).
  int read_slot(Actor& a, StmtId id, ExprId operand, SlotKey slot, bool async, int64_t cta = -1) {
    ThreadScope scope = a.frames.back().scope;
    if (cta < 0) cta = a.cta;
    if (cta == a.cta) {
      AsyncEvent ae = async_event(AsyncEventKind::SmemRead, a, id);
      ae.operand = operand;
      ae.slot = slot;
      async_of(a).push_back(ae);
    }
    SlotState& st = slots_[{cta, slot}];
    if (st.last_write >= 0) {
      const Access& w = accesses_[st.last_write];
      // Program order: the role's own synchronous writes, cp.async included
      // (whose completion its group waits govern).
      bool own_ordered = w.actor == a.id && !w.async;
      if (!own_ordered && !knows(a, st.last_write, scope))
        hazard(HazardKind::UnorderedRead, a, id, operand, slot, w);
      if (own_ordered && unordered_for_elected(a, st.last_write, scope))
        hazard(HazardKind::ElectedRead, a, id, operand, slot, w);
    }
    int e = new_access(a, id, async);
    accesses_[e].operand = operand;
    if (cta != a.cta) accesses_[e].cta = cta, accesses_[e].slot = slot;
    slots_[{cta, slot}].reads.push_back(e);
    return e;
  }

  /// A write of `slot` in CTA `cta` (the actor's own, or a multicast's destination).
  int write_slot(Actor& a, StmtId id, ExprId operand, SlotKey slot, bool async, int64_t cta = -1) {
    ThreadScope scope = a.frames.back().scope;
    if (cta < 0) cta = a.cta;
    SlotState& st = slots_[{cta, slot}];
    for (int r : st.reads) {
      const Access& ev = accesses_[r];
      if (ev.actor == a.id) {
        // An async read (a wgmma operand) is complete at a wait every
        // thread ran; a synchronous one is each lane's own.
        if (!ev.async && unordered_for_elected(a, r, scope)) {
          hazard(HazardKind::ElectedOverwrite, a, id, operand, slot, ev);
          break;
        }
        continue;
      }
      if (!knows(a, r, scope)) {
        hazard(HazardKind::UnorderedOverwrite, a, id, operand, slot, ev);
        break;
      }
    }
    if (st.last_write >= 0) {
      const Access& w = accesses_[st.last_write];
      // The same multicast statement run by the role's copy in another CTA
      // writes its own part of the buffer: one collective copy, not a race.
      bool same_multicast = w.stmt == id && async && w.async && actors_[w.actor].index == a.index;
      if (w.actor != a.id && !same_multicast && !knows(a, st.last_write, scope))
        hazard(HazardKind::UnorderedWrite, a, id, operand, slot, w);
    }
    if (cta == a.cta) {
      AsyncEvent ae = async_event(AsyncEventKind::SmemWrite, a, id);
      ae.operand = operand;
      ae.slot = slot;
      async_of(a).push_back(ae);
    }
    int e = new_access(a, id, async);
    if (m_.symbols[slot.symbol].kind == SymbolKind::Smem) {
      auto op = op_of(m_.stmts[id]);  // none: an element-wise assignment
      accesses_[e].generic = !(op && async_proxy(op_info(*op).engine));
    }
    if (cta != a.cta && !async) accesses_[e].cta = cta, accesses_[e].operand = operand, accesses_[e].slot = slot;
    // The slot's first write, ordered after another role's read of it:
    // that read saw nothing (a wait that passed on a phase its barrier
    // never completed). An unordered one is E0602's, above.
    if (st.last_write < 0)
      for (int r : st.reads) {
        const Access& ev = accesses_[r];
        if (actors_[ev.actor].index != a.index && knows(a, r, scope))
          hazard(HazardKind::ReadBeforeFill, ev.scope, actors_[ev.actor], ev.stmt, ev.operand, slot, accesses_[e]);
      }
    st.last_write = e;
    st.reads.clear();
    return e;
  }

  /// A read of tensor memory: its last write, if this role's tcgen05.st,
  /// must have been completed by a tcgen05.wait.st.
  void tmem_read(Actor& a, StmtId id, ExprId operand, SlotKey slot, int64_t cta = -1) {
    if (m_.symbols[slot.symbol].kind != SymbolKind::Tmem) return;
    const SlotState& st = slots_[{cta < 0 ? a.cta : cta, slot}];
    if (st.last_write < 0) return;
    const Access& w = accesses_[st.last_write];
    if (w.unwaited_st) hazard(HazardKind::TmemStoreUnwaited, a, id, operand, slot, w);
  }

  /// A read of shared memory by the async proxy: its last write, if a
  /// generic one, must have been followed by its writer's fence.proxy.async.
  void async_proxy_read(Actor& a, StmtId id, ExprId operand, SlotKey slot, int64_t cta = -1) {
    if (m_.symbols[slot.symbol].kind != SymbolKind::Smem) return;
    SlotState& st = slots_[{cta < 0 ? a.cta : cta, slot}];
    if (st.last_write < 0) return;
    const Access& w = accesses_[st.last_write];
    bool ordered = w.fence >= 0 && (w.actor == a.id || knows(a, w.fence, a.frames.back().scope));
    if (w.generic && !ordered) hazard(HazardKind::UnfencedProxy, a, id, operand, slot, w);
  }

  /// A register fragment read or written outside wgmma.
  void touch_fragment(Actor& a, StmtId id, ExprId operand) {
    SymbolId f = fragment_of(operand);
    if (f == kNone) return;
    AsyncEvent ae = async_event(AsyncEventKind::FragmentUse, a, id);
    ae.operand = operand;
    ae.fragment = f;
    async_of(a).push_back(ae);
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
        int64_t cta = a.cta;
        if (auto slot = slot_of(a, x, &cta)) {
          read_slot(a, id, x, *slot, false, cta);
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

  /// The global tensor an operand names: a tensor parameter in global
  /// memory, or the one a tensormap describes; kNone for anything else.
  SymbolId global_tensor(ExprId e) const {
    SymbolId s = root_symbol(m_, e);
    if (s == kNone) return kNone;
    if (m_.symbols[s].kind == SymbolKind::Tensormap) s = m_.symbols[s].tensor;
    if (s == kNone || m_.symbols[s].kind != SymbolKind::TensorParam) return kNone;
    return m_.symbols[s].type.space == Space::Global ? s : kNone;
  }

  /// The elements of a global tensor that an operand touches, [lo, hi) per
  /// dim, over every thread of the role: `lane`, `warp.id` and `role.rank`
  /// at their extremes (indices are sums and products of them, so the
  /// corners bound them). A tensormap's coordinates start its box; a dim
  /// left whole, or an index past the operand's items, is the whole dim.
  /// nullopt when an index is not known.
  std::optional<Region> global_region(const Actor& a, ExprId operand) const {
    const Expr& x = m_.exprs[operand];
    if (x.kind != Expr::Kind::Index || x.lhs == kNone) return std::nullopt;
    const Expr& base = m_.exprs[x.lhs];
    if (base.kind != Expr::Kind::Name || base.symbol == kNone) return std::nullopt;
    const Symbol& sym = m_.symbols[base.symbol];
    bool box = sym.kind == SymbolKind::Tensormap;
    Region r;
    Env env = a.env;
    auto corner = [&](int i) {
      if (lane_ != kNone) env.values[lane_] = i & 1 ? 31 : 0;
      if (warp_ != kNone) env.fields[warp_]["id"] = a.role.first_warp + (i & 2 ? a.role.warps - 1 : 0);
      if (rank_ != kNone) env.fields[rank_]["rank"] = i & 4 ? std::max<int64_t>(a.role.units(), 1) - 1 : 0;
    };
    constexpr int64_t kWhole[2] = {INT64_MIN, INT64_MAX};
    for (size_t d = 0; d < x.items.size(); ++d) {
      const IndexItem& item = x.items[d];
      if (item.kind == IndexItem::Kind::Full) {
        r.push_back({kWhole[0], kWhole[1]});
        continue;
      }
      ExprId extent = box ? (d < sym.box.size() ? sym.box[d] : kNone)
                          : item.kind == IndexItem::Kind::Slice ? item.extent : kNone;
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (int i = 0; i < 8; ++i) {
        corner(i);
        auto start = eval_.eval(item.start, &env);
        auto ext = extent == kNone ? std::optional<int64_t>(1) : eval_.eval(extent, &env);
        auto end = start && ext ? checked_add(*start, *ext) : std::nullopt;
        if (!end) return std::nullopt;
        lo = std::min(lo, *start), hi = std::max(hi, *end);
      }
      r.push_back({lo, hi});
    }
    return r;
  }

  static bool overlap(const Region& a, const Region& b) {
    if (a.size() != b.size()) return true;  // not the same tensor's dims: assume they meet
    for (size_t d = 0; d < a.size(); ++d)
      if (a[d].second <= b[d].first || b[d].second <= a[d].first) return false;
    return true;
  }

  /// Whether a read of global tensor `t` (its elements `read`, nullopt when
  /// not known) may touch what one of the role's own tma.stores writes: yes
  /// unless both sides' elements are known and apart.
  bool own_store_overlaps(const Actor& a, SymbolId t, const std::optional<Region>& read) const {
    for (const auto& [tensor, region] : a.stores)
      if (tensor == t && (!region || !read || overlap(*region, *read))) return true;
    return false;
  }

  /// A read of global tensor `t` while another CTA of the cluster's
  /// `tma.store` to the same elements may still be writing it (E0417): the
  /// store's completion (its role's `tma.store.wait`, not `.read`) must be
  /// ordered before the read, by `cluster.sync` or a barrier. Stores or
  /// reads whose elements are not known are not judged. The read is kept
  /// for stores that come later with nothing ordering the two
  /// (peer_read_before_store).
  void peer_store_read(Actor& a, StmtId id, ExprId operand, SymbolId t, const std::optional<Region>& read) {
    if (ctas_ <= 1 || !read) return;
    int e = new_access(a, id, false);
    auto& reads = peer_reads_[{a.cta, t}];
    if (reads.size() == kPeerAccesses) reads.erase(reads.begin());
    reads.push_back({e, *read, operand});
    for (int64_t c = 0; c < ctas_; ++c) {
      if (c == a.cta) continue;
      auto stores = peer_stores_.find({c, t});
      if (stores == peer_stores_.end()) continue;
      for (const auto& [w, region] : stores->second)
        if (overlap(region, *read) && !knows(a, w, a.frames.back().scope)) {
          hazard(HazardKind::StoreInFlightRead, a, id, operand, SlotKey{t, -1}, accesses_[w]);
          return;
        }
    }
  }

  /// A tma.store (access `e`) of elements that another CTA read earlier
  /// with nothing ordering that read before the store: the read may see
  /// the old or the new elements (E0417, on the read).
  void peer_read_before_store(const Actor& a, int e, SymbolId t, const Region& region) {
    for (int64_t c = 0; c < ctas_; ++c) {
      if (c == a.cta) continue;
      auto reads = peer_reads_.find({c, t});
      if (reads == peer_reads_.end()) continue;
      for (const PeerRead& r : reads->second) {
        const Access& read = accesses_[r.access];
        if (overlap(region, r.region) && !knows(a, r.access, a.frames.back().scope))
          hazard(HazardKind::StoreInFlightRead, read.scope, actors_[read.actor], read.stmt, r.operand, SlotKey{t, -1},
                 accesses_[e]);
      }
    }
  }

  Result step(Actor& a, StmtId id, const MoveStmt& mv) {
    const Frame& f = a.frames.back();
    if (SymbolId t = global_tensor(mv.src); t != kNone) {
      // Its elements, where a store may write them: the role's own, or in
      // a cluster another CTA's.
      bool stored = std::any_of(a.stores.begin(), a.stores.end(), [&](const auto& st) { return st.first == t; });
      std::optional<Region> read = stored || ctas_ > 1 ? global_region(a, mv.src) : std::nullopt;
      // A read of global memory, for the role's TMA stores still writing
      // it (E0417); none can be before the role's first store to it.
      if (stored && own_store_overlaps(a, t, read)) {
        AsyncEvent ae = async_event(AsyncEventKind::GlobalRead, a, id);
        ae.operand = mv.src;
        ae.other = t;
        async_of(a).push_back(ae);
      }
      // Another role's: the store's completion must be ordered before it.
      auto w = global_writes_.find({a.cta, t});
      if (w != global_writes_.end() && accesses_[w->second].actor != a.id && !knows(a, w->second, f.scope))
        hazard(HazardKind::StoreInFlightRead, a, id, mv.src, SlotKey{t, -1}, accesses_[w->second]);
      peer_store_read(a, id, mv.src, t, read);
    }
    switch (mv.op) {
      case Op::TmaLoad:
      case Op::BulkLoad: {
        int64_t signal = a.cta;  // the CTA of the barrier it completes on
        auto key = barrier_of(a, mv.barrier, &signal);
        if (!key || signal < 0) return Result::Abort;
        if (signal != a.cta && signal != (a.cta ^ 1)) {
          SyncEvent e;
          e.kind = SyncEventKind::PairBarrierFar;
          e.role = a.index;
          e.stmt = id;
          e.barrier = *key;
          e.threads = a.cta;
          e.bytes = signal;
          record(a.cta, e);
        }
        auto to = destinations(a, id, mv.multicast);
        if (!to) return Result::Abort;
        Typed t = typer_.type_of(mv.dst);
        int64_t bytes = 0;
        if (!t.is_buffer() || !bytes_of(t, bytes)) return Result::Abort;
        auto slot = slot_of(a, mv.dst);
        // The box lands in each destination CTA's buffer, at the same
        // offset, and completes its bytes on that CTA's barrier (or, in a
        // CTA pair, on the barrier of the CTA a view names).
        for (int64_t cta : *to) {
          int e = slot ? write_slot(a, id, mv.dst, *slot, true, cta) : -1;
          if (mv.multicast == kNone) cta = signal;
          BarrierState& b = barrier(cta, *key);
          b.delivered += bytes * f.threads;
          SyncEvent ev = event(SyncEventKind::CompleteTx, &a, id, *key, b);
          ev.bytes = bytes * f.threads;
          ev.remote = cta != a.cta;
          record(cta, ev);
          mark(b.phase_accesses, e);
          try_complete(&a, id, cta, *key, b);
        }
        return Result::Next;
      }
      case Op::CpAsync: {
        if (auto slot = slot_of(a, mv.dst)) {
          int e = write_slot(a, id, mv.dst, *slot, false);
          accesses_[e].copying = true;
          a.cp_writes_open.push_back(e);
          AsyncEvent ae = async_event(AsyncEventKind::CpAsyncCopy, a, id);
          ae.slot = *slot;
          async_of(a).push_back(ae);
        }
        return Result::Next;
      }
      case Op::TmaStore:
        if (auto slot = slot_of(a, mv.src)) {
          async_proxy_read(a, id, mv.src, *slot);
          read_slot(a, id, mv.src, *slot, false);
          AsyncEvent ae = async_event(AsyncEventKind::TmaStore, a, id);
          ae.operand = mv.src;
          ae.slot = *slot;
          ae.other = global_tensor(mv.dst);
          async_of(a).push_back(ae);
        }
        if (SymbolId t = global_tensor(mv.dst); t != kNone) {
          int e = new_access(a, id, true);
          a.store_writes_open.push_back(e);
          global_writes_[{a.cta, t}] = e;
          std::optional<Region> region = global_region(a, mv.dst);
          a.stores.push_back({t, region});
          if (ctas_ > 1 && region) {
            peer_read_before_store(a, e, t, *region);
            auto& stores = peer_stores_[{a.cta, t}];
            if (stores.size() == kPeerAccesses) stores.erase(stores.begin());
            stores.push_back({e, std::move(*region)});
          }
        }
        return Result::Next;
      case Op::Tcgen05Ld: {
        lanes(a, id, mv.src, mv.dst);
        if (auto slot = slot_of(a, mv.src)) {
          tmem_read(a, id, mv.src, *slot);
          read_slot(a, id, mv.src, *slot, false);
        }
        if (SymbolId frag = fragment_of(mv.dst); frag != kNone) {
          AsyncEvent ae = async_event(AsyncEventKind::Tcgen05Ld, a, id);
          ae.fragment = frag;
          async_of(a).push_back(ae);
        }
        return Result::Next;
      }
      case Op::Tcgen05St:
        lanes(a, id, mv.dst, mv.src);
        touch_fragment(a, id, mv.src);
        if (auto slot = slot_of(a, mv.dst)) accesses_[write_slot(a, id, mv.dst, *slot, false)].unwaited_st = true;
        return Result::Next;
      case Op::Load:
      case Op::Store:
      case Op::StoreAdd:
      case Op::Ldmatrix:
      case Op::Stmatrix:
        break;
      case Op::Tcgen05Cp:
        if (auto slot = slot_of(a, mv.src)) async_proxy_read(a, id, mv.src, *slot);
        break;
      // Not moves: the builder gives a MoveStmt only the ops above.
      case Op::Mma:
      case Op::Wgmma:
      case Op::Tcgen05Mma:
      case Op::CpAsyncCommit:
      case Op::WgmmaFence:
      case Op::WgmmaCommit:
      case Op::TmaStoreCommit:
      case Op::Tcgen05WaitLd:
      case Op::Tcgen05WaitSt:
      case Op::Syncthreads:
      case Op::ClusterSync:
      case Op::FenceProxyAsync:
      case Op::CpAsyncWait:
      case Op::WgmmaWait:
      case Op::TmaStoreWait:
      case Op::TmaStoreWaitRead:
      case Op::Arrive:
      case Op::ArriveExpectTx:
      case Op::Tcgen05Commit:
      case Op::ArgminRow:
      case Op::ArgmaxRow:
        return Result::Next;
    }
    // load, store, ldmatrix, stmatrix, tcgen05.cp
    int64_t cta = a.cta;
    if (auto slot = slot_of(a, mv.src, &cta)) read_slot(a, id, mv.src, *slot, false, cta);
    else touch_fragment(a, id, mv.src);
    if (auto slot = slot_of(a, mv.dst, &cta)) write_slot(a, id, mv.dst, *slot, false, cta);
    else touch_fragment(a, id, mv.dst);
    return Result::Next;
  }

  bool bytes_of(const Typed& t, int64_t& out) const {
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

  /// The TMEM lanes each warp of the role reaches through `operand`, the
  /// rows it indexes placed in lanes as its buffer holds them
  /// (tmem_lane()); `reg` is the register side, whose `mma_acc` layout
  /// moves 16 lanes at a time (the .16x* shapes).
  void lanes(Actor& a, StmtId id, ExprId operand, ExprId reg) {
    IndexedOperand x = indexed_operand(m_, operand);
    if (x.base == kNone) return;
    SymbolId buffer = x.base;
    const ValueType& type = m_.symbols[buffer].type;
    size_t stages = type.stage_dims.size();
    if (x.items.size() <= stages || type.dims.empty()) return;
    const IndexItem& item = x.items[stages];
    auto buffer_lanes = eval_.fold(type.dims[0]);
    if (!buffer_lanes || *buffer_lanes <= 0) return;
    SymbolId frag = fragment_of(reg);
    bool sixteen = frag != kNone && m_.symbols[frag].type.layout == FragLayout::MmaAcc;
    Env env = a.env;
    int64_t per_unit = a.role.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (int64_t w = 0; w < a.role.warps; ++w) {
      int64_t warp = a.role.first_warp + w;
      if (warp_ != kNone) env.fields[warp_]["id"] = warp;
      if (rank_ != kNone) env.fields[rank_]["rank"] = w / per_unit;
      auto start = eval_.eval(item.start, &env);
      std::optional<int64_t> extent = item.kind == IndexItem::Kind::Slice ? eval_.eval(item.extent, &env)
                                                                           : std::optional<int64_t>(1);
      if (item.kind == IndexItem::Kind::Full) start = 0, extent = *buffer_lanes;
      if (!start || !extent || *start < 0 || *extent <= 0) return;
      AsyncEvent ae = async_event(AsyncEventKind::TmemLanes, a, id);
      ae.operand = operand;
      ae.range = item.range;
      ae.warp = warp;
      ae.start = tmem_lane(*buffer_lanes, *start);
      ae.count = tmem_lane(*buffer_lanes, *start + *extent - 1) - ae.start + 1;
      ae.other = buffer;
      ae.rows = {*start, *extent};
      ae.quarter_rows = tmem_rows_per_quarter(*buffer_lanes);
      ae.lane_step = sixteen ? 16 : 0;
      ae.fragment = frag;
      async_of(a).push_back(ae);
    }
  }

  Result step(Actor& a, StmtId id, const MmaStmt& mm) {
    if (mm.op == Op::Wgmma) {
      AsyncEvent ae = async_event(AsyncEventKind::Wgmma, a, id);
      ae.fragment = fragment_of(mm.acc);
      ae.other = fragment_of(mm.a);
      async_of(a).push_back(ae);
      for (ExprId op : {mm.a, mm.b})
        if (auto slot = slot_of(a, op)) {
          async_proxy_read(a, id, op, *slot);
          a.wgmma_reads_uncommitted.push_back(read_slot(a, id, op, *slot, true));
        }
      return Result::Next;
    }
    if (mm.op == Op::Tcgen05Mma) {
      // A pair's MMA (`cta_group 2`) reads A and B in both CTAs of the
      // pair and writes both accumulators; the even CTA issues it.
      std::vector<int64_t> ctas{a.cta};
      if (pairs_) {
        if (a.cta % 2 != 0 && odd_mmas_.insert(id).second) pair_mma_odd(a, id);
        if ((a.cta ^ 1) < ctas_) ctas.push_back(a.cta ^ 1);
      }
      for (int64_t cta : ctas) {
        if (mm.accumulate_into)
          if (auto slot = slot_of(a, mm.acc)) tmem_read(a, id, mm.acc, *slot, cta);
        for (ExprId op : {mm.a, mm.b})
          if (auto slot = slot_of(a, op)) {
            tmem_read(a, id, op, *slot, cta);
            async_proxy_read(a, id, op, *slot, cta);
            a.mma_accesses.push_back(read_slot(a, id, op, *slot, true, cta));
          }
        if (auto slot = slot_of(a, mm.acc)) a.mma_accesses.push_back(write_slot(a, id, mm.acc, *slot, true, cta));
      }
      async_of(a).push_back(async_event(AsyncEventKind::Tcgen05Mma, a, id));
      return Result::Next;
    }
    // mma.sync: synchronous register math.
    touch_fragment(a, id, mm.a);
    touch_fragment(a, id, mm.b);
    touch_fragment(a, id, mm.acc);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const ReduceStmt& r) {
    reads_in(a, id, r.src);
    touch_fragment(a, id, r.dst);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const ArgReduceStmt& r) {
    reads_in(a, id, r.src);
    touch_fragment(a, id, r.value);
    touch_fragment(a, id, r.index);
    return Result::Next;
  }

  Result step(Actor& a, StmtId id, const AssignStmt& as) {
    reads_in(a, id, as.value);
    if (auto slot = slot_of(a, as.target)) write_slot(a, id, as.target, *slot, false);
    else touch_fragment(a, id, as.target);
    return Result::Next;
  }

  // Plain ops that change async state.
  Result plain(Actor& a, StmtId id, Op op) {
    switch (op) {
      case Op::WgmmaFence:
        async_of(a).push_back(async_event(AsyncEventKind::WgmmaFence, a, id));
        break;
      case Op::WgmmaCommit:
        a.wgmma_read_groups.push_back(std::move(a.wgmma_reads_uncommitted));
        a.wgmma_reads_uncommitted.clear();
        async_of(a).push_back(async_event(AsyncEventKind::WgmmaCommit, a, id));
        break;
      case Op::CpAsyncCommit:
        async_of(a).push_back(async_event(AsyncEventKind::CpAsyncCommit, a, id));
        a.cp_writes.push_back(std::move(a.cp_writes_open));
        a.cp_writes_open.clear();
        break;
      case Op::Tcgen05WaitLd:
        async_of(a).push_back(async_event(AsyncEventKind::Tcgen05WaitLd, a, id));
        break;
      // Rendezvous of the CTA's threads, or of every CTA of the cluster
      // (barrier.cluster.arrive.release, wait.acquire). A role counts
      // whole: one that only some of its threads reach is E0405's.
      case Op::Syncthreads:
        if (!block_rendezvous_) {  // a role has none: E0405 says so
          sync_role(a, id);
          break;
        }
        return rendezvous(a, id, block_[static_cast<size_t>(a.cta)], a.role.threads(), cluster_threads_ / ctas_,
                          BarrierKey{});
      case Op::ClusterSync:
        return rendezvous(a, id, cluster_, a.role.threads(), cluster_threads_, BarrierKey{});
      // The rest below are not plain ops.
      case Op::FenceProxyAsync: {
        // Orders this role's generic writes before the async-proxy reads
        // that the fence itself is ordered before (an access of the role,
        // carried by its releases); a cp.async's once a wait has completed
        // it.
        int fence = new_access(a, id, false);
        for (; a.fenced_upto < a.own.size(); ++a.fenced_upto) {
          Access& w = accesses_[a.own[a.fenced_upto]];
          if (!w.copying) w.fence = fence;
        }
        for (int e : a.cp_landed) accesses_[e].fence = fence;
        a.cp_landed.clear();
        break;
      }
      case Op::Tcgen05WaitSt:
        for (; a.st_waited_upto < a.own.size(); ++a.st_waited_upto) accesses_[a.own[a.st_waited_upto]].unwaited_st = false;
        break;
      case Op::TmaStoreCommit:
        async_of(a).push_back(async_event(AsyncEventKind::TmaStoreCommit, a, id));
        a.store_writes.push_back(std::move(a.store_writes_open));
        a.store_writes_open.clear();
        break;
      case Op::Load:
      case Op::Store:
      case Op::StoreAdd:
      case Op::CpAsync:
      case Op::TmaLoad:
      case Op::TmaStore:
      case Op::BulkLoad:
      case Op::Ldmatrix:
      case Op::Stmatrix:
      case Op::Tcgen05Ld:
      case Op::Tcgen05St:
      case Op::Tcgen05Cp:
      case Op::Mma:
      case Op::Wgmma:
      case Op::Tcgen05Mma:
      case Op::CpAsyncWait:
      case Op::WgmmaWait:
      case Op::TmaStoreWait:
      case Op::TmaStoreWaitRead:
      case Op::Arrive:
      case Op::ArriveExpectTx:
      case Op::Tcgen05Commit:
      case Op::ArgminRow:
      case Op::ArgmaxRow:
        break;
    }
    return Result::Next;
  }

  const Module& m_;
  Evaluator eval_;
  Typer typer_;
  std::vector<Actor> actors_;
  std::map<std::pair<int64_t, BarrierKey>, BarrierState> barriers_;  // by CTA
  std::map<std::pair<int64_t, SymbolId>, NamedState> named_;          // by CTA
  std::map<std::pair<int64_t, SlotKey>, SlotState> slots_;            // by CTA
  int64_t ctas_ = 1;
  std::vector<Access> accesses_;
  struct PerCta {
    std::vector<SyncEvent> events;
    std::vector<std::vector<AsyncEvent>> async;  // by role
    std::vector<Hazard> hazards;
    std::set<std::tuple<HazardKind, StmtId, SymbolId>> hazard_seen;
  };
  std::vector<PerCta> per_cta_;
  ProtocolTrace trace_;
  int64_t steps_ = 0;
  int64_t block_base_[3] = {0, 0, 0};  // block.x of cluster rank 0, block.y, block.z
  NamedState cluster_;           // cluster.sync's rounds
  std::vector<NamedState> block_;  // syncthreads' rounds, by CTA
  std::map<std::pair<int64_t, SymbolId>, int> global_writes_;  // (CTA, tensor): its last tma.store's write
  // In a cluster, (CTA, tensor): its last kPeerAccesses tma.stores and
  // reads whose elements are known, for the other CTAs' (peer_store_read,
  // peer_read_before_store).
  static constexpr size_t kPeerAccesses = 8;
  struct PeerRead {
    int access;
    Region region;
    ExprId operand;
  };
  std::map<std::pair<int64_t, SymbolId>, std::vector<std::pair<int, Region>>> peer_stores_;
  std::map<std::pair<int64_t, SymbolId>, std::vector<PeerRead>> peer_reads_;
  bool block_rendezvous_ = true;   // every role has a syncthreads
  bool cluster_known_ = true;      // the cluster's size is known (1 without a clause)
  bool pairs_ = false;             // `cta_group 2`: MMAs of CTA pairs
  std::set<StmtId> odd_mmas_;      // pair MMAs the odd CTA of a pair reached
  std::map<const std::vector<StmtId>*, StmtId> first_mma_;  // by body
  std::vector<StmtId> walk_stack_;
  int64_t cluster_threads_ = 0;  // every thread of every CTA of the cluster
  int64_t quantum_ = 0;     // statements per turn; 0: until the actor blocks
  std::vector<int> order_;  // the actors, in the order each round runs them
  SymbolId lane_ = kNone, warp_ = kNone, rank_ = kNone;
};

/// The most iterations the body of any loop in `body` runs under `env`:
/// a loop's trips times those of the loops around it (`outer`), so that
/// nested loops count as the product they simulate (two 128-trip loops
/// are 16,384 bodies, not 128); loop variables are unbound, so bounds
/// that use them count once. Also whether each ring turns twice and each
/// loop whose count the shape sets runs twice.
void loop_trips(const Module& m, const Evaluator& eval, const std::vector<StmtId>& body, const Env& env,
                int64_t outer, int64_t& max_trips, bool& loops_turn_twice) {
  auto nested = [&](std::optional<int64_t> t) {
    int64_t total = outer;
    if (t && *t > 0) total = checked_mul(outer, *t).value_or(INT64_MAX);
    max_trips = std::max(max_trips, total);
    return total;
  };
  for (StmtId id : body) {
    const Stmt& s = m.stmts[id];
    if (const auto* p = std::get_if<PipelineStmt>(&s.node)) {
      auto t = eval.trips(p->start, p->end, p->step, &env);
      auto r = eval.fold(p->stages);
      if (t && r && *t / 2 < *r) loops_turn_twice = false;
      loop_trips(m, eval, p->body, env, nested(t), max_trips, loops_turn_twice);
    } else if (const auto* f = std::get_if<ForStmt>(&s.node)) {
      // A loop whose count the shape sets runs twice too: what one trip
      // leaves for the next (a copy over the last trip's reads) shows then.
      auto t = eval.trips(f->start, f->end, f->step, &env);
      if (t && *t < 2 && !eval.trips(f->start, f->end, f->step, nullptr)) loops_turn_twice = false;
      loop_trips(m, eval, f->body, env, nested(t), max_trips, loops_turn_twice);
    } else if (const auto* r = std::get_if<RoleStmt>(&s.node)) {
      loop_trips(m, eval, r->body, env, outer, max_trips, loops_turn_twice);
    } else if (const auto* el = std::get_if<ElectStmt>(&s.node)) {
      loop_trips(m, eval, el->body, env, outer, max_trips, loops_turn_twice);
    } else if (const auto* i = std::get_if<IfStmt>(&s.node)) {
      loop_trips(m, eval, i->then_body, env, outer, max_trips, loops_turn_twice);
      loop_trips(m, eval, i->else_body, env, outer, max_trips, loops_turn_twice);
    }
  }
}

}  // namespace

ProtocolTrace simulate_protocol(const Module& m, uint32_t kernel, std::vector<RoleView> roles, Env env) {
  auto simulate = [&](int64_t quantum, bool reversed) {
    Simulator sim(m, kernel, roles, env);
    bool finished = sim.run(quantum, reversed);
    ProtocolTrace trace = sim.finish();
    trace.aborted = !finished;
    return trace;
  };
  // Each role runs ahead as far as it can: the producer fills the ring
  // first. When that ends in a deadlock, a missing wait may be the cause,
  // and one statement per turn (either role first) lets the roles overlap
  // as they do on the GPU: a producer that never waits for a free stage
  // then shows as the overwrite it is. The first such schedule with a
  // hazard is the verdict; otherwise the deadlock stands.
  ProtocolTrace trace = simulate(0, false);
  if (!trace.deadlocked || trace.aborted || !trace.hazards.empty()) return trace;
  for (bool reversed : {false, true}) {
    ProtocolTrace interleaved = simulate(1, reversed);
    if (interleaved.aborted || interleaved.hazards.empty()) continue;
    interleaved.interleaved = true;
    return interleaved;
  }
  return trace;
}

std::optional<Env> simulation_env(const KernelFacts& facts) {
  const Module& m = facts.module();
  const Evaluator& eval = facts.evaluator();
  const uint32_t k = facts.kernel();
  const std::vector<Env>& samples = facts.samples();
  const Kernel& kernel = m.kernels[k];
  auto fits = [&](const Env& env, bool need_two_turns) {
    int64_t trips = 0;
    bool twice = true;
    loop_trips(m, eval, kernel.body, env, 1, trips, twice);
    return trips <= kMaxTrips && (twice || !need_two_turns);
  };
  // Bench shapes are what runs; otherwise grow the smallest shape (doubling
  // keeps every divisibility fact) until each ring turns twice and each
  // loop whose count the shape sets runs twice.
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

}  // namespace cake
