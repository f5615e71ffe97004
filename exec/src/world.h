// One cluster of CTAs being executed: their shared memory, tensor memory,
// barriers and register fragments, one actor (coroutine) per warp, the async
// effects in flight, and the scheduler that interleaves them. run.cpp runs
// one World per cluster of the grid; statements.cpp and ops.cpp give each
// statement and op its meaning.
#pragma once

#include "cake/exec/run.h"
#include "cake/roles.h"
#include "cake/eval.h"
#include "cake/typing.h"
#include "state.h"
#include "tile.h"

#include <array>
#include <bit>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>
#include <string>
#include <vector>

namespace cake::exec {

/// An mbarrier: a phase completes when its arrivals reach the count and its
/// transaction bytes are back to zero (docs/language.md, "Barriers and phases").
struct Mbarrier {
  int64_t count = 1;
  int64_t completed = 0;  // phases completed
  int64_t arrivals = 0, tx = 0;
  Clock pending;          // releases into the current phase
  Clock phase[2];         // what the last completed phase of each parity carries
};

/// A named barrier (or syncthreads, or cluster.sync): it releases every
/// waiting thread when `expected` threads have arrived; each release is a
/// generation, carrying what all the arrivals joined.
struct NamedBarrier {
  int64_t expected = 0, arrived = 0;
  uint64_t generation = 0;
  Clock joined;
  std::map<uint64_t, Clock> released;  // the last few generations
};

/// An async effect in flight: it lands (reads and writes its operands,
/// completes bytes or arrivals) at a moment the schedule picks, after `prev`
/// (the effect before it in the same in-order queue) has landed.
struct Effect {
  uint32_t entity = 0;
  int actor = -1;
  StmtId stmt = kNone;
  Clock vc;
  /// A `tma.store`'s writes to global memory, which only `tma.store.wait`
  /// (not `.read`) orders: an entity of their own, its clock `written`
  /// (`vc` and the store queue's earlier writes). Unused (0, empty) elsewhere.
  uint32_t write_entity = 0;
  Clock written;
  int prev = -1;
  bool landed = false;
  std::function<void(Effect&)> land;
};

/// An ordered async group queue of one warp (cp.async, wgmma, tma.store).
struct GroupQueue {
  std::vector<int> open;              // issued, not yet committed
  std::deque<std::vector<int>> groups;  // committed, oldest first
  /// The store queue's groups whose reads a `tma.store.wait.read` has
  /// seen done, oldest first: their writes are still for a full
  /// `tma.store.wait` to acquire (they count toward its `n` too).
  std::deque<std::vector<int>> read;
  int last = -1;                      // the newest effect (in-order landing)
};

struct Frame {
  const std::vector<StmtId>* body = nullptr;
  size_t pc = 0;
  bool loop = false;
  SymbolId variable = kNone, stage = kNone;
  int64_t value = 0, trips_left = 0, step = 1, stages = 0;
  uint32_t mask = ~0u;   // the lanes of this warp that run the body
  bool elected = false;  // inside `elect*`: one thread
  /// A loop whose range differs between the lanes (it reads `lane`): each
  /// lane's variable, step and trips left after the current one; the
  /// lanes still iterating are `mask` (World::set_lane() binds a lane's).
  bool lanes_vary = false;
  std::array<int64_t, 32> lane_value{}, lane_step{}, lane_left{};
  int64_t threads() const { return std::popcount(mask); }
};

struct Actor {
  /// Whose accesses it records now: the warp's (`warp_entity`) or, inside
  /// `elect`, the elected thread's (`lone`). The language's `elect` orders
  /// nothing (docs/language.md, "Who executes a statement"): a release by
  /// fewer than all lanes carries the warp's own accesses only up to its
  /// last barrier (`synced`) and the elected thread's, and what fewer than
  /// all lanes acquire (`one`) is not the other lanes' until a barrier.
  uint32_t entity = 0;
  uint32_t warp_entity = 0, lone = 0;
  uint32_t synced = 0;  // the warp's epoch at its last barrier: ordered for every lane after it
  bool narrow = false;  // running code fewer than all lanes run; `vc` then holds their knowledge
  Clock wide;           // while narrow: the clock of all lanes
  Clock one;            // what lanes that ran narrow code knew
  int cta = 0;           // index into World::ctas_
  int64_t warp = 0;      // in the CTA
  const RoleView* role = nullptr;
  int64_t rank = 0;      // role.rank
  int64_t lane = 0;      // the lane a lane-serial statement runs for (RunContext::lane_mode)
  Env env;
  std::vector<Frame> frames;
  bool done = false;
  uint64_t blocked_gen = 0;  // blocked until the world's generation moves past this
  bool blocked = false;
  StmtId blocked_at = kNone;
  std::string blocked_on;  // what it waits for, for the deadlock report
  Clock vc;
  GroupQueue cp, store;
  GroupQueue wgmma;            // holds wgmma slot numbers of its warpgroup (World::wgmma_slots_)
  int64_t wgmma_issued = 0;
  std::vector<int> tc_ld, tc_st;  // tcgen05.ld / st in flight
  std::vector<int> tc_pipe;       // every tcgen05.mma / cp / commit issued, in order
  NamedBarrier* waiting = nullptr;  // the named barrier it arrived on and waits at
  uint64_t waiting_generation = 0;
};

struct Cta {
  int64_t block[3] = {0, 0, 0};
  int64_t rank = 0;  // in its cluster
  std::map<SymbolId, Storage> buffers;                   // smem and tmem
  std::map<SymbolId, std::vector<Mbarrier>> mbarriers;
  std::map<int64_t, NamedBarrier> named;                 // by id; 0 is syncthreads
  std::unordered_map<uint64_t, Storage> fragments;  // by symbol << 32 | owner (nodes stay put)
};

/// Everything a World shares with the run: the module, the global tensors,
/// the problems found so far.
struct RunContext {
  const Module& m;
  uint32_t kernel;
  Evaluator eval;
  Typer typer;
  Env shape;
  std::vector<RoleView> roles;
  std::map<SymbolId, Storage> globals;  // tensor parameters
  std::map<SymbolId, double> scalars;   // scalar parameters
  std::vector<RunProblem> problems;
  int64_t statements = 0;
  int64_t max_steps = 0;
  int64_t max_elements = 0;
  uint64_t schedule = 0;
  bool stop = false;  // a problem that ends the run
  std::vector<std::pair<StmtId, StmtId>> races_seen;
  /// Per statement: who shares a collective op (see World::share()).
  std::map<StmtId, int> share_kind;
  /// Per statement: the rows of the warpgroup fragment it touches (0: none).
  std::map<StmtId, int64_t> window_rows;
  /// A kernel that reads `lane` runs lane-serial: a statement whose operands
  /// read `lane` or a per-thread fragment runs once per active lane, with
  /// per-thread fragments held per lane (see statements.cpp).
  bool lane_mode = false;
  std::set<SymbolId> async_fragments;  // the fragments the race detector follows
  std::vector<int8_t> integral;        // by expression: reads no buffer (World::integral)
  SymbolId lane = kNone;
  /// Loop and stage variables whose loop's range reads `lane` (or such a
  /// variable): they hold a value per lane, as `lane` does.
  std::set<SymbolId> lane_vars;
  std::map<StmtId, bool> per_lane;
  std::map<StmtId, bool> broadcast;  // a lane-serial load whose source all lanes read alike

  RunContext(const Module& module, uint32_t k) : m(module), kernel(k), eval(module), typer(module, nullptr) {}
  void fail(RunProblem::Kind kind, ByteRange at, std::string message, std::vector<RunProblem::Related> related = {});
};

class World {
 public:
  World(RunContext& ctx, std::vector<std::array<int64_t, 3>> blocks, uint64_t seed);
  /// Runs every warp of every CTA to the end, a deadlock or a stop.
  void run();

 private:
  enum class Result { Next, Blocked, Stop };

  // Section - scheduling (world.cpp)
  bool step_actor(int index);
  void land(int effect);
  void deadlock();
  /// Every thread of CTA `c` has ended: what its memory saw that none of
  /// them had ordered before their end races with it, and so does every
  /// later access (a copy still in flight, a peer through `dsmem`).
  void end_cta(int c);
  Result exec(Actor& a, StmtId id);

  // Section - statements (statements.cpp)
  Result statement(Actor& a, StmtId id);
  Result data_statement(Actor& a, StmtId id);
  bool runs_per_lane(StmtId id);
  bool runs_per_lane_expr(ExprId e);
  bool broadcasts(StmtId id);
  Result broadcast_load(Actor& a, StmtId id, uint32_t mask);
  std::optional<bool> condition(Actor& a, ExprId e, StmtId at);
  void set_lane(Actor& a, int64_t lane);
  /// Binds a loop frame's variable (and stage, phase) to `value`.
  void bind_loop(Actor& a, const Frame& f, int64_t value);
  /// A symbol that holds a value per lane: `lane`, a per-thread fragment,
  /// a variable of a loop whose range reads the lane.
  bool per_lane_symbol(SymbolId s) const;
  Result op(Actor& a, StmtId id, Op op);
  Result decl(Actor& a, const DeclStmt& d, StmtId id);
  Result assign(Actor& a, const AssignStmt& s, StmtId id);
  Result reduce(Actor& a, const ReduceStmt& s, StmtId id);
  Result push_loop(Actor& a, SymbolId var, SymbolId stage, ExprId start, ExprId end, ExprId step, ExprId stages,
                   const std::vector<StmtId>& body, StmtId id);
  Result named_barrier(Actor& a, NamedBarrier& b, std::string what);
  /// `arrive NAME` (bar.arrive), and a `sync`'s own arrival: counts the
  /// warp toward the open round and releases what it did.
  void named_arrive(Actor& a, NamedBarrier& b);
  /// The named barrier a `sync`/`arrive` operand names, by its id; null
  /// when its CTA has none with that id.
  NamedBarrier* named_of(const Actor& a, ExprId barrier);
  /// `writes` false (`tma.store.wait.read`): the groups' reads are done,
  /// not their writes (Effect::written).
  Result group_wait(Actor& a, GroupQueue& q, int64_t keep, std::string what, std::vector<int>* slots = nullptr,
                    bool writes = true);
  Result wait_all(Actor& a, std::vector<int>& pending, std::string what);
  void mma(uint32_t entity, const Clock& vc, const View& acc, const View& x, const View& y, bool add, StmtId id);
  /// The rows of a collective op's operands that this warp moves.
  bool share(Actor& a, StmtId id, View& dst, View& src);

  // Section - values and memory (memory.cpp)
 public:
  struct Window {
    bool active = false;
    int64_t full = 0, lo = 0, hi = 0;  // rows [lo, hi) of `full`
    bool none = false;                 // this warp holds none of the rows
  };
  /// The window `w` of a warpgroup's fragment, made the window of part
  /// `frag` of it (`y[32 : 32, :]`, `y[5, :]`): the warp's rows of the
  /// fragment as rows of the part, `none` when it holds none of them; `w`
  /// itself for a whole fragment or anything else.
  Window part_window(const View& frag, const Window& w) const;
  std::optional<int64_t> integer(const Actor& a, ExprId e);
  bool integral(ExprId e);
  std::optional<View> view(Actor& a, ExprId e, StmtId at);
  View windowed(const View& v, const Window& w) const;
  Window window_of(const Actor& a, StmtId id) const;
  std::optional<Tile> tile(Actor& a, ExprId e, const Window& w, StmtId at);
  Tile read(Actor& a, const View& v, StmtId at, bool record = true);
  bool write(Actor& a, const View& v, const Tile& t, StmtId at);
  /// dst = src, or with `add` (store.add) dst += src, each element one
  /// atomic add.
  /// With `split` (a tma.store's effect) the write is recorded as its
  /// `write_entity`'s.
  void copy(uint32_t entity, const Clock& vc, const View& dst, const View& src, StmtId at, bool add = false,
            const Effect* split = nullptr);
  void access(uint32_t entity, const Clock& vc, const View& v, bool write, StmtId at, bool atomic = false);
  /// An async-proxy read of shared memory `st`, ordered after the
  /// generic-proxy write `r`: unless its writer's `fence.proxy.async` is
  /// ordered before the read too, a race between the proxies.
  void unfenced_read(const Clock& vc, const Storage& st, const AccessRecord& r, StmtId at);
  /// `fence.proxy.async` by `a`: its generic-proxy writes to shared memory
  /// so far, and its cp.async copies it has waited for, are fenced.
  void fence_proxy(Actor& a);
  /// Reports statement `at`'s access to `st` as racing with the end of the
  /// CTA that held it (once per statement).
  void after_end(const Storage& st, bool write, StmtId at);
  Storage& fragment(Actor& a, SymbolId sym);
  Mbarrier* barrier(Actor& a, ExprId e, int64_t* index, int cta = -1);
  /// A `cta_group 2` kernel's tcgen05.mma: both CTAs of the pair.
  Result pair_mma(Actor& a, StmtId id, const View& acc, const View& x, const View& y, bool add, int64_t threads);
  /// Whether a warpgroup holds a fragment of this layout together
  /// (fragment_owner_threads()), not a warp or a thread.
  bool warpgroup_owned(FragLayout layout) const;

  // Section - barriers (world.cpp)
  void arrive(Mbarrier& b, int64_t n, const Clock& vc);
  void complete_tx(Mbarrier& b, int64_t bytes, const Clock& vc);
  void release(Actor& a) {
    // The elected thread's clock holds the warp's epoch at its last
    // barrier (narrow_to()): that stays.
    if (a.entity != a.lone) a.vc[a.warp_entity]++;
    a.vc[a.lone]++;
  }
  /// What a release by the threads now running carries (see Actor).
  Clock released(const Actor& a) const;
  /// Switches `a`'s clocks when its code goes from all lanes to fewer, or back.
  void narrow_to(Actor& a, const Frame& top);
  int effect(Actor& a, StmtId stmt, int prev, std::function<void(Effect&)> land);
  void changed() { ++gen_; }

  RunContext& ctx_;
  std::vector<Cta> ctas_;
  std::vector<Actor> actors_;
  std::vector<Effect> effects_;
  std::vector<int> pending_;  // effects not landed yet, oldest first
  NamedBarrier cluster_barrier_;
  /// A `wgmma` is one operation of its warpgroup: the n-th wgmma of each of
  /// its warps is slot n, whose effect is issued (on the whole tile) when the
  /// last of those warps issues it. By CTA and warpgroup: each slot's effect
  /// (-1 until then), and the count of warps that issued it.
  struct WgmmaSlot {
    int effect = -1;
    int64_t issued = 0;
    Clock vc;
  };
  std::map<std::pair<int, int64_t>, std::vector<WgmmaSlot>> wgmma_slots_;
  uint64_t gen_ = 1;
  bool lane_serial_ = false;  // a statement runs for one lane at a time
  /// By entity: the actor whose warp, elected thread or effect it is (its
  /// size is the next entity's number).
  std::vector<int> owner_;
  /// Each `fence.proxy.async` run: the entity that ran it and its epoch
  /// then (AccessRecord::fence; entry 0 is no fence).
  std::vector<std::pair<uint32_t, uint32_t>> fences_{{0, 0}};
  uint32_t new_entity(int actor) {
    owner_.push_back(actor);
    return static_cast<uint32_t>(owner_.size() - 1);
  }
  /// Whether a race between statements `earlier` and `at` is one to report:
  /// not reported yet, and fewer than 20 reported in all.
  bool first_report(StmtId earlier, StmtId at);
  std::mt19937_64 rng_;
  size_t next_actor_ = 0;
};

}  // namespace cake::exec
