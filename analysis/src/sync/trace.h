// The protocol trace: what the barrier-traffic simulator (sync/simulate.cpp)
// observed while it ran one kernel's roles to the end or to a standstill. It
// holds facts, never verdicts: the E04xx and E06xx rules
// (checks/protocol/*.cpp) read it and decide what is wrong and how to say it.
//
// Vocabulary.
//   role     one actor of the simulation: a `role` of the kernel, or the whole
//            block for a kernel without roles. Roles are numbered by their
//            place in RoleView order; `ProtocolTrace::roles[i]` is role i.
//   barrier  one mbarrier element (`full[2]`), a BarrierKey. Its phase
//            counter starts at 0; a phase completes when its arrivals reach
//            the declared count and its delivered bytes reach the expected.
//   scope    how many threads of a role run a statement: the whole role, one
//            per warpgroup or warp (`elect.warpgroup`, `elect.warp`), one
//            (`elect`), or some threads (a per-thread `if`).
//   slot     one stage of an smem or tmem buffer (`cs[1]`; stage -1 for a
//            buffer without stages): the unit the race rules track.
//   cluster  a kernel with a `cluster` clause is simulated with every CTA of
//            its cluster; the trace shows one CTA (`shown_cta`): its roles,
//            its barriers' traffic (what other CTAs' multicasts send it
//            included), its hazards and async events. MulticastOutside,
//            PairMmaOdd and PairBarrierFar events are kept from every CTA.
//
// What each part means.
//   events      the barrier traffic, in simulation order (SyncEvent below):
//               arrivals, expect_tx bytes, the bytes each copy's complete_tx
//               delivers with its statement, passing waits, and every phase
//               completion with that phase's totals.
//   barriers    the state each barrier element was left in: the open phase's
//               arrivals, expected and delivered bytes and who arrived in it.
//   roles       per role: whether it ran to its end, and if not, the wait it
//               is blocked on and the loop position there (where progress
//               stopped).
//   hazards     happens-before findings: an access to a slot whose previous
//               conflicting access (another role's, or an async one) is not
//               ordered before it by any acquired barrier phase. Only the
//               first hazard of each kind at each statement on each buffer
//               is kept.
//   async       per role, in program order, the events of its asynchronous
//               groups (wgmma fence/commit/wait, cp.async commit/wait, tcgen05
//               mma/commit/ld/wait.ld, TMEM lane ranges, register-fragment
//               and smem uses) for the rules that replay them.
//
// A simulation that cannot evaluate a value (an unknown loop bound or
// condition) or runs past its step budget stops there: its trace is marked
// `aborted`, holds what happened until then, and says nothing about where
// progress stopped (rules about the end state skip it: no diagnostic is
// better than a guess).
//
// The cluster/multicast and interleaving work builds on this structure: new
// traffic is a new SyncEventKind, documented here.
#pragma once

#include "cake/model.h"
#include "cake/roles.h"

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace cake {

/// The threads of a role that run a statement.
enum class ThreadScope : uint8_t { All, PerWarpgroup, PerWarp, One, Partial };

/// One mbarrier element: `symbol[index]` (index 0 for a scalar mbarrier).
struct BarrierKey {
  SymbolId symbol = kNone;
  int64_t index = 0;
  bool operator<(const BarrierKey& o) const { return std::tie(symbol, index) < std::tie(o.symbol, o.index); }
  bool operator==(const BarrierKey& o) const { return symbol == o.symbol && index == o.index; }
};

/// One stage of an smem or tmem buffer; stage -1 when it has no stages.
struct SlotKey {
  SymbolId symbol = kNone;
  int64_t stage = -1;
  bool operator<(const SlotKey& o) const { return std::tie(symbol, stage) < std::tie(o.symbol, o.stage); }
  bool operator==(const SlotKey& o) const { return symbol == o.symbol && stage == o.stage; }
};

enum class SyncEventKind : uint8_t {
  /// `threads` threads of `role` arrive at `stmt` (`arrive`,
  /// `arrive.expect_tx`, `tcgen05.commit`); `arrivals` is the phase's count
  /// after them, before the simulator clamps it to the declared count.
  Arrive,
  /// `arrive.expect_tx` adds `bytes` (already times the threads) to the
  /// phase's expected bytes; the Arrive of the same statement follows.
  ExpectTx,
  /// A copy (`tma.load`, `bulk.load`) at `stmt` delivers `bytes` to the
  /// barrier: the complete_tx of its transaction.
  CompleteTx,
  /// A wait at `stmt` passed and acquired what the completed phases carry.
  Wait,
  /// Phase `phase` of the barrier completed: it had `expected` and
  /// `delivered` bytes (delivered > expected: it completed as the last copy
  /// overshot). `stmt` is the statement whose arrival or copy completed it.
  PhaseComplete,
  /// The `multicast` mask of the copy or commit at `stmt` (in `bytes`) is
  /// not a non-empty subset of the cluster's `threads` CTAs (1 without a
  /// cluster). No barrier.
  MulticastOutside,
  /// A `tcgen05.mma` of a `cta_group 2` kernel at `stmt` ran in the odd
  /// CTA `threads` of its pair. No barrier.
  PairMmaOdd,
  /// A copy at `stmt` in CTA `threads` completes on `barrier` of CTA
  /// `bytes` (through a view), neither its own CTA nor its pair.
  PairBarrierFar,
};

/// One event of the barrier traffic. Fields a kind does not name are zero.
struct SyncEvent {
  SyncEventKind kind = SyncEventKind::Arrive;
  ThreadScope scope = ThreadScope::All;  // of the statement's threads
  int role = -1;
  StmtId stmt = kNone;
  BarrierKey barrier;
  int64_t phase = 0;      // the barrier's phase the event belongs to
  int64_t threads = 0;    // Arrive
  int64_t arrivals = 0;   // Arrive
  int64_t bytes = 0;      // ExpectTx, CompleteTx
  int64_t expected = 0;   // PhaseComplete
  int64_t delivered = 0;  // PhaseComplete
  bool remote = false;    // CompleteTx: a copy another CTA of the cluster issued
};

/// The open (incomplete) phase a barrier element was left in.
struct BarrierEnd {
  BarrierKey key;
  int64_t count = 1;   // declared arrivals per phase
  int64_t phase = 0;   // phases completed
  int64_t arrivals = 0, expected = 0, delivered = 0;
  StmtId expect_stmt = kNone;                            // the open phase's last expect_tx
  std::vector<std::pair<StmtId, int64_t>> contributors;  // the open phase's arrivals: statement, threads
};

/// A loop enclosing the statement a role stopped at.
struct LoopPosition {
  SymbolId variable = kNone;
  int64_t value = 0;
  SymbolId stage = kNone;  // a pipeline's stage variable, or kNone
  int64_t stages = 0;
};

struct RoleTrace {
  RoleView role;
  bool finished = false;         // ran to its end
  StmtId blocked_at = kNone;     // else the wait (or named-barrier `sync`) it is blocked on
  BarrierKey blocked_on;         // the mbarrier element, or {named barrier, 0}
  int64_t blocked_parity = 0;
  std::vector<LoopPosition> loops;  // outermost first, at blocked_at
};

enum class HazardKind : uint8_t {
  /// A read whose slot's last write (another role's, or async) is not ordered
  /// before it.
  UnorderedRead,
  /// A write over a read by another role that is not ordered before it.
  UnorderedOverwrite,
  /// A write over another role's write that is not ordered before it.
  UnorderedWrite,
  /// An async-proxy read (TMA store, wgmma, tcgen05.mma or tcgen05.cp) of
  /// shared memory whose last write was a generic-proxy one (a store,
  /// `stmatrix`, `cp.async`, an element-wise result) that no
  /// `fence.proxy.async` of its writer followed.
  UnfencedProxy,
  /// A read of tensor memory (`tcgen05.ld`, a `tcgen05.mma` operand or the
  /// accumulator of a `+=`) whose last write is this role's `tcgen05.st`
  /// that no `tcgen05.wait.st` has completed.
  TmemStoreUnwaited,
  /// A read of a global tensor (`slot.symbol`, stage -1) that another
  /// role's `tma.store` writes, whose completion (the `tma.store.wait`, not
  /// `.read`, that retires its group) is not ordered before the read.
  StoreInFlightRead,
  /// A read or write of a peer CTA's shared memory (through a `dsmem`
  /// view) that nothing orders before that CTA ends.
  PeerExited,
  /// A read of a slot (another role's to fill) that nothing had written
  /// yet, filled later by a write not ordered before it: the read sees
  /// whatever the memory held.
  ReadBeforeFill,
  /// A read inside `elect` of what all the role's threads wrote, with no
  /// barrier of the role (nor a phase the elected thread waited on)
  /// between: `elect` orders nothing.
  ElectedRead,
  /// A write inside `elect` (a copy the elected thread issues, a store)
  /// over what all the role's threads read, with no barrier of the role
  /// between.
  ElectedOverwrite,
};

struct Hazard {
  HazardKind kind = HazardKind::UnorderedRead;
  ThreadScope scope = ThreadScope::All;  // of the access
  int role = -1;
  StmtId stmt = kNone;
  ExprId operand = kNone;
  SlotKey slot;
  int other_role = -1;  // the earlier, unordered access
  StmtId other_stmt = kNone;
  int64_t other_cta = -1;  // its CTA, where not the reader's (cluster rank)
  /// UnfencedProxy: the statement a `fence.proxy.async` goes after (the
  /// write, or the `cp.async.wait` that completed a copy; kNone: a copy no
  /// wait completed, which E0408 reports).
  StmtId fence_after = kNone;
  /// UnfencedProxy: the writer's `fence.proxy.async` that followed the
  /// write but is not ordered before the read (kNone: none followed it).
  StmtId late_fence = kNone;
};

enum class AsyncEventKind : uint8_t {
  WgmmaFence,     // `wgmma.fence`
  WgmmaCommit,    // `wgmma.commit`
  WgmmaWait,      // `wgmma.wait count`
  Wgmma,          // a wgmma writing fragment `fragment` (kNone: none) reading A fragment `other`
  FragmentUse,    // a register fragment read or written outside wgmma, at `operand`
  CpAsyncCopy,    // a cp.async writing `slot`
  CpAsyncCommit,  // `cp.async.commit`
  CpAsyncWait,    // `cp.async.wait count`
  RoleSync,       // `syncthreads`, `cluster.sync` or `sync NAME` of the role
  SmemRead,       // a read of `slot` at `operand`
  Tcgen05Mma,     // a tcgen05.mma
  Tcgen05Commit,  // a tcgen05.commit run by `threads` threads
  Tcgen05Ld,      // a tcgen05.ld filling `fragment`
  Tcgen05WaitLd,  // `tcgen05.wait.ld`
  TmemLanes,      // warp `warp` reaches TMEM lanes [start, start + count) at `operand`
  SmemWrite,      // a write of `slot` at `operand` (any kind: stores, copies, element-wise)
  TmaStore,       // a tma.store reading `slot` at `operand`
  TmaStoreCommit,  // `tma.store.commit`
  TmaStoreWait,    // `tma.store.wait count`
  TmaStoreWaitRead,  // `tma.store.wait.read count`
  GlobalRead,      // a read of global tensor `other` (a parameter) at `operand`
};

/// One event of a role's asynchronous groups, in program order.
struct AsyncEvent {
  AsyncEventKind kind = AsyncEventKind::WgmmaFence;
  ThreadScope scope = ThreadScope::All;
  StmtId stmt = kNone;
  ExprId operand = kNone;  // FragmentUse, SmemRead: the operand expression
  ByteRange range;         // TmemLanes: the lane index
  SymbolId fragment = kNone, other = kNone;  // TmaStore, GlobalRead: `other` is the global tensor
  SlotKey slot;
  int64_t count = 0;    // WgmmaWait, CpAsyncWait: groups left pending; TmemLanes: lanes
  int64_t threads = 0;  // Tcgen05Commit
  int64_t warp = 0, start = 0;  // TmemLanes
  /// TmemLanes: the rows indexed (first, count) of the tmem buffer `other`
  /// (`fragment` the register side),
  /// which holds that many in each quarter of lanes (tmem_rows_per_quarter());
  /// 16 where the access moves 16 lanes at a time (an `mma_acc` fragment),
  /// else 0.
  std::pair<int64_t, int64_t> rows;
  int64_t quarter_rows = kTmemQuarterLanes, lane_step = 0;
};

struct ProtocolTrace {
  uint32_t kernel = 0;
  std::vector<RoleTrace> roles;
  std::vector<SyncEvent> events;
  std::vector<BarrierEnd> barriers;  // by key
  std::vector<Hazard> hazards;
  std::vector<std::vector<AsyncEvent>> async;  // by role
  int64_t cluster = 1;      // CTAs simulated: the cluster's
  int64_t shown_cta = 0;    // the CTA whose roles, traffic and hazards this is
  bool deadlocked = false;  // some role is blocked and none can move
  bool aborted = false;     // stopped early: events are a prefix, the end state is unknown
  /// The roles ran a statement per turn: the schedule where each runs
  /// ahead deadlocked, and this one shows the hazard that caused it (any
  /// deadlock here is its consequence, not a finding of its own).
  bool interleaved = false;
};

}  // namespace cake
