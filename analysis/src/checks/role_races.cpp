// E0605: a race between the warps of one role, in shared memory, and in
// global memory where threads move their own values. The protocol simulator
// (checks/protocol/) orders a role's own accesses by program order, which
// holds for each warp but not between the warps of a role: they run in no
// order until a barrier meets them all. This check walks each role of
// several warps in program order (a loop body twice, for what one iteration
// leaves to the next) and reports a shared-memory access that another warp
// of the role may make before or after it with no barrier between, when at
// least one of the two writes:
//   - a read of what another warp wrote (row_softmax without its
//     `syncthreads`: each warp stores its partial maxima, then reads all);
//   - a write over what another warp reads or wrote, or writes in the same
//     statement (`store s[lane] <- x` in every warp).
// Which warp touches which part: an access inside `elect` is one thread's;
// a thread's own values moved at an index of nothing but the thread and the
// shape touch what that index gives each thread of the role (evaluated at
// every thread and shape sample: `s[warp.id * 32 + 31 - lane]`), and a
// register fragment's, at such an index of no lane, what each warp holds
// of it (fragment_warp_rows: a warpgroup's warps a quarter of the rows each,
// evaluated at every warp), over every trip of the constant loops whose
// variables the index reads (which shows warps apart, never that they
// meet: a barrier may keep the trips apart); otherwise
// one whose shared-memory index depends on the thread (warp.id, lane,
// role.rank, or a `let` of them) is its warp's own part, the same part as
// an access with the same operand that reads the warp (`s[lane]` is the
// same elements in every warp) or with the same index of the warp along
// some dim (`s[warp.id, lane]`, `s[warp.id, 31 - lane]`); any other is spread over the role's
// threads (a collective tile), the same part as an access with the same
// operand and register layout. Two accesses that index constant, non-
// overlapping ranges along some dim (two stages `s[0]` and `s[1]`) never
// meet. `syncthreads`, `cluster.sync`, `sync NAME`
// and an mbarrier `wait` order what came before (the wait conservatively).
// TMA and bulk copies complete through an mbarrier, which the simulator
// checks (E0601). A cp.async write over what another warp reads or wrote
// is reported here (a refill before the barrier that proves the others
// finished reading); reads of what it wrote are E0409's (its group and a
// barrier).
#include "cake/ops.h"
#include "checks/checks.h"
#include "diag_builder.h"
#include "cake/fragments.h"
#include "cake/kernel_facts.h"
#include "cake/roles.h"
#include "cake/tile_in_buffer.h"
#include "cake/typing.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cake {
namespace {

/// Thread pairs times dims compared at most to decide whether two slices
/// keep the warps of a role apart (8 warps of 32 lanes, two dims).
constexpr int64_t kMaxThreadPairs = int64_t(1) << 17;

/// Trips of a loop, and combinations of the loops' trips, a footprint
/// enumerates at most (beyond them the expressions decide).
constexpr int64_t kMaxTrips = 64;
constexpr size_t kMaxTripCombos = 256;
/// Thread x trip points one such footprint evaluates at most, and all of a
/// role's together: the check runs as the user types.
constexpr int64_t kMaxTripPoints = int64_t(1) << 14;
constexpr int64_t kMaxRoleTripPoints = int64_t(1) << 17;

/// Statements visited per role at most (each loop is walked twice, so a
/// deep nest would double with every level).
constexpr int64_t kMaxSteps = 20000;

enum class Part : uint8_t { Single, Own, Spread };

struct Access {
  StmtId stmt = kNone;
  ExprId operand = kNone;
  SymbolId symbol = kNone;
  bool write = false;
  Part part = Part::Spread;
  FragLayout layout = FragLayout::None;  // the register side's
  std::vector<StmtId> path;               // the statements around it, outermost first
  bool own_register = false;              // the register side is a thread's own values (no layout)
  bool atomic = false;                    // `store.add`: atomic adds meet no other atomic add
  int64_t rows = 0;                       // a fragment's rows (its first dim), where a constant
};

class RoleRaces {
 public:
  RoleRaces(const Module& m, const FactsCache& facts, std::vector<Diagnostic>& diags)
      : m_(m), facts_(facts), diags_(diags), eval_(m), typer_(m, nullptr) {}

  void run() {
    for (uint32_t k = 0; k < m_.kernels.size(); ++k) {
      const auto& roles = facts_.kernel(k).roles();
      if (!roles) continue;
      single_role_ = roles->size() == 1;
      kernel_ = k;
      for (const RoleView& r : *roles) {
        if (r.warps <= 1) continue;  // one warp runs in program order
        role_ = &r;
        footprints_.clear();
        apart_.clear();
        trip_points_ = 0;
        pending_.clear();
        steps_ = 0;
        walk(*r.body, false);
      }
    }
  }

 private:
  void walk(const std::vector<StmtId>& body, bool single) {
    for (StmtId id : body) {
      if (++steps_ > kMaxSteps) return;  // nested loops walk twice each: bounded
      path_.push_back(id);
      statement(id, single);
      path_.pop_back();
    }
  }

  void statement(StmtId id, bool single) {
    const Stmt& s = m_.stmts[id];
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ElectStmt>) {
            walk(n.body, single || n.kind == ElectStmt::Kind::One);
          } else if constexpr (std::is_same_v<T, ForStmt> || std::is_same_v<T, PipelineStmt>) {
            walk(n.body, single);  // twice: one iteration's accesses meet the next one's
            walk(n.body, single);
          } else if constexpr (std::is_same_v<T, IfStmt>) {
            // A condition on the thread may leave some warps out: what
            // its branches write is not known to be every warp's.
            bool partial = depends_on_thread(m_, eval_, n.condition);
            guarded_ += partial;
            walk(n.then_body, single);
            walk(n.else_body, single);
            guarded_ -= partial;
          } else if constexpr (std::is_same_v<T, SyncStmt> || std::is_same_v<T, WaitStmt>) {
            pending_.clear();
          } else if constexpr (std::is_same_v<T, PlainStmt>) {
            OpIssue issue = op_info(n.op).issue;
            if (issue == OpIssue::Block || issue == OpIssue::Cluster) pending_.clear();
          } else if constexpr (std::is_same_v<T, MoveStmt>) {
            // TMA and bulk copies complete through mbarriers and bulk groups
            // (the simulator, E0601); cp.async through its groups and a
            // barrier (E0409).
            if (n.op == Op::TmaLoad || n.op == Op::BulkLoad || n.op == Op::TmaStore) return;
            // A cp.async refill over what other warps still read is a race
            // here; what reads it after is E0409's (its group and barrier).
            if (n.op == Op::CpAsync) {
              access(id, n.dst, true, single, n.src, /*remember=*/false);
              return access(id, n.src, false, single, n.dst);
            }
            access(id, n.dst, true, single, n.src, true, n.op == Op::StoreAdd);
            access(id, n.src, false, single, n.dst);
          } else if constexpr (std::is_same_v<T, MmaStmt>) {
            access(id, n.a, false, single, n.acc);
            access(id, n.b, false, single, n.acc);
          } else if constexpr (std::is_same_v<T, AssignStmt>) {
            access(id, n.target, true, single, n.target);
            reads_in(id, n.value, single, n.target);
          } else if constexpr (std::is_same_v<T, ReduceStmt>) {
            access(id, n.src, false, single, n.dst);
          } else if constexpr (std::is_same_v<T, ArgReduceStmt>) {
            access(id, n.src, false, single, n.value);
          }
        },
        s.node);
  }

  /// The shared-memory operands an element-wise expression reads.
  void reads_in(StmtId id, ExprId e, bool single, ExprId reg_side, int depth = 0) {
    if (e == kNone || depth > 64) return;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name || x.kind == Expr::Kind::Index) {
      access(id, e, false, single, reg_side);
      return;
    }
    reads_in(id, x.lhs, single, reg_side, depth + 1);
    reads_in(id, x.rhs, single, reg_side, depth + 1);
    for (ExprId a : x.args) reads_in(id, a, single, reg_side, depth + 1);
  }

  void access(StmtId id, ExprId operand, bool write, bool single, ExprId reg_side, bool remember = true,
              bool atomic = false) {
    if (operand == kNone) return;
    SymbolId sym = root_symbol(m_, operand);
    if (sym == kNone || (m_.symbols[sym].kind != SymbolKind::Smem && m_.symbols[sym].kind != SymbolKind::TensorParam)) return;
    Access a{id, operand, sym, write, Part::Spread, FragLayout::None, path_};
    a.atomic = atomic;
    if (single) a.part = Part::Single;
    else if (depends_on_thread(m_, eval_, operand)) a.part = Part::Own;
    if (!single && reg_side != kNone) {
      a.layout = typer_.type_of(reg_side).layout;
      SymbolId r = root_symbol(m_, reg_side);
      a.own_register = a.layout == FragLayout::None && r != kNone && m_.symbols[r].kind == SymbolKind::Reg;
      // A warpgroup's fragment's rows are known for the whole fragment
      // only: of a part (`w[32 : 32, :]`) the warps hold other rows.
      bool whole = m_.exprs[reg_side].kind == Expr::Kind::Name || fragment_owner_threads(a.layout, 32) <= 32;
      if (a.layout != FragLayout::None && whole && r != kNone && m_.symbols[r].kind == SymbolKind::Reg &&
          !m_.symbols[r].type.dims.empty())
        a.rows = eval_.fold(m_.symbols[r].type.dims[0]).value_or(0);
    }
    if (write && remember && !atomic && a.part == Part::Spread && guarded_ == 0) same_tile(a, reg_side);
    // In global memory only a thread's own values are compared: where a
    // fragment's warps put their parts there is the layout's to say (a
    // warpgroup's rows of a `wgmma_acc` tile), which these rules do not ask.
    if (m_.symbols[sym].kind == SymbolKind::TensorParam && !(a.own_register && !single)) return;
    if (write && !single && !atomic) same_elements(a, reg_side);
    for (const Access& p : pending_) {
      if (p.symbol != sym || !(p.write || write) || (p.atomic && atomic) || same_part(p, a) ||
          disjoint(p.operand, a.operand))
        continue;
      report(p, a);
      break;
    }
    if (!remember) return;
    // A loop's second walk meets the same sites again: keep each once.
    for (const Access& p : pending_)
      if (p.stmt == id && p.operand == operand) return;
    pending_.push_back(a);
  }

  /// Whether an access moves a thread's own values, so that where each
  /// thread moves them is all it touches: a per-thread register (no
  /// layout). A copy between memories is spread over the threads.
  static bool thread_values(const Access& a) { return a.part != Part::Single && a.own_register; }

  /// The values of loop variable `var` where a loop around the access (on
  /// `path`) declares it with constant bounds and at most kMaxTrips trips.
  bool trip_values(SymbolId var, const std::vector<StmtId>& path,
                   std::vector<std::pair<SymbolId, std::vector<int64_t>>>& trips) const {
    for (StmtId id : path) {
      const Stmt& st = m_.stmts[id];
      ExprId start = kNone, end = kNone, step = kNone;
      if (const auto* f = std::get_if<ForStmt>(&st.node); f && f->variable == var) start = f->start, end = f->end, step = f->step;
      if (const auto* p = std::get_if<PipelineStmt>(&st.node); p && p->variable == var)
        start = p->start, end = p->end, step = p->step;
      if (start == kNone) continue;
      auto first = eval_.fold(start), last = eval_.fold(end);
      auto by = step == kNone ? std::optional<int64_t>(1) : eval_.fold(step);
      if (!first || !last || !by || *by <= 0 || *last - *first > kMaxTrips * *by) return false;
      std::vector<int64_t> values;
      for (int64_t v = *first; v < *last; v += *by) values.push_back(v);
      trips.push_back({var, std::move(values)});
      return true;
    }
    return false;
  }

  /// Whether where each warp touches memory by an access is known from its
  /// index: a thread's own values, or a register fragment's, which each
  /// warp holds whole (a warpgroup's warps a quarter of its rows each).
  static bool warp_parts_known(const Access& a) { return thread_values(a) || (a.part != Part::Single && a.rows > 0); }

  bool same_part(const Access& x, const Access& y) {
    if (x.part == Part::Single && y.part == Part::Single) return true;
    if (warp_parts_known(x) && warp_parts_known(y))
      if (auto apart = apart_at_every_thread(x, y)) return *apart;
    if (x.part != y.part) return false;
    if (x.part == Part::Own)
      return same_expr(x.operand, y.operand) ? reads_warp(x.operand) : apart_by_warp(x.operand, y.operand);
    return same_expr(x.operand, y.operand) && x.layout == y.layout;
  }

  /// Each thread's box of a buffer: [first, end) along each dim indexed.
  using Box = std::vector<std::pair<int64_t, int64_t>>;
  /// The element a box of scalar indices is.
  static std::vector<int64_t> element_of(const Box& box) {
    std::vector<int64_t> at;
    for (const auto& r : box) at.push_back(r.first);
    return at;
  }
  struct PointHash {
    size_t operator()(const std::vector<int64_t>& p) const {
      uint64_t h = 0x9e3779b97f4a7c15ull;
      for (int64_t v : p) h = (h ^ static_cast<uint64_t>(v)) * 0x100000001b3ull;
      return static_cast<size_t>(h);
    }
  };
  /// Where the role's threads touch a buffer by one operand whose index, and
  /// the `if`s around it, read nothing but the thread (`lane`, `warp.id`,
  /// `role.rank`, `let`s of them), the shape and the CTA (taken at block 0):
  /// only the threads those conditions admit; per shape sample (one where it
  /// reads no shape symbol), each thread's warp and box (a fragment with a
  /// layout: each warp's, the rows it holds), and where every item is a
  /// scalar, the warp that touches each element (-1 for several).
  struct Footprint {
    SymbolId base = kNone;
    size_t dims = 0;
    bool points = false;
    /// Taken over every trip of the loops whose variables the index reads:
    /// apart proves the warps apart, a meeting proves nothing (the trips
    /// may be kept apart by a barrier in the loop).
    bool over_trips = false;
    std::vector<std::vector<std::pair<int64_t, Box>>> threads;
    std::vector<std::unordered_map<std::vector<int64_t>, int64_t, PointHash>> owners;
  };

  const Footprint* footprint(const Access& a) {
    ExprId operand = a.operand;
    const std::vector<StmtId>& path = a.path;
    auto [it, fresh] = footprints_.try_emplace(operand);
    if (!fresh) return it->second ? &*it->second : nullptr;
    IndexedOperand o = indexed_operand(m_, operand);
    if (o.base == kNone) return nullptr;
    // A fragment is each warp's (a quarter of a warpgroup's rows): its box
    // is the warp's, found at lane 0; a bare name is every dim whole.
    bool per_warp = !a.own_register;
    if (per_warp && o.items.empty()) {
      const ValueType& t = m_.symbols[o.base].type;
      o.items.assign(t.stage_dims.size() + t.dims.size(), IndexItem{IndexItem::Kind::Full, {}, kNone, kNone});
    }
    // A warpgroup's fragment: each warp its rows, along the first tile dim
    // the operand does not fix (a warp's fragment: the whole tile).
    bool narrow = per_warp && fragment_owner_threads(a.layout, 32) > 32;
    size_t rows_dim = o.items.size();
    if (narrow) {
      for (size_t d = m_.symbols[o.base].type.stage_dims.size(); d < o.items.size() && rows_dim == o.items.size(); ++d)
        if (o.items[d].kind != IndexItem::Kind::Scalar) rows_dim = d;
      if (rows_dim == o.items.size()) return nullptr;
    }
    std::vector<SymbolId> free;
    for (const IndexItem& i : o.items) {
      if (i.start != kNone) eval_.free_symbols(i.start, free);
      if (i.extent != kNone) eval_.free_symbols(i.extent, free);
    }
    // The `if`s around it: only the threads for which each holds (its
    // `then` branch) or fails (`else`) make the access (`if warp.id == 0`).
    std::vector<std::pair<ExprId, bool>> guards;
    for (size_t i = 0; i + 1 < path.size(); ++i)
      if (const auto* c = std::get_if<IfStmt>(&m_.stmts[path[i]].node)) {
        bool then = std::find(c->then_body.begin(), c->then_body.end(), path[i + 1]) != c->then_body.end();
        guards.push_back({c->condition, then});
        eval_.free_symbols(c->condition, free);
      }
    const std::vector<SymbolId>& shape = m_.kernels[kernel_].shape_symbols;
    std::vector<std::pair<SymbolId, std::vector<int64_t>>> trips;  // loop variables and their values
    SymbolId lane = kNone, warp = kNone, role = kNone, block = kNone;
    bool shaped = false;
    for (SymbolId f : free) {
      const Symbol& sym = m_.symbols[f];
      if (sym.kind == SymbolKind::Builtin && sym.name == "lane") lane = f;
      else if (sym.kind == SymbolKind::Builtin && sym.name == "warp") warp = f;
      else if (sym.kind == SymbolKind::Builtin && sym.name == "role") role = f;
      else if (sym.kind == SymbolKind::Builtin && sym.name == "block") block = f;  // one CTA's warps race: its first
      else if (std::find(shape.begin(), shape.end(), f) != shape.end()) shaped = true;
      else if (!trip_values(f, path, trips)) return nullptr;  // the expressions decide
    }
    if (per_warp && lane != kNone) return nullptr;  // a fragment's index is the warp's
    // Every combination of the loop variables' values, a bounded number.
    std::vector<std::vector<int64_t>> combos{{}};
    for (const auto& [var, values] : trips) {
      std::vector<std::vector<int64_t>> next;
      for (const auto& c : combos)
        for (int64_t v : values) {
          next.push_back(c);
          next.back().push_back(v);
        }
      combos = std::move(next);
      if (combos.size() > kMaxTripCombos) return nullptr;
    }
    if (!trips.empty()) {
      int64_t points = int64_t(combos.size()) * role_->warps * (per_warp ? 1 : 32);
      if (points > kMaxTripPoints || trip_points_ + points > kMaxRoleTripPoints) return nullptr;
      trip_points_ += points;
    }
    Footprint fp;
    fp.base = o.base;
    fp.dims = o.items.size();
    fp.over_trips = !trips.empty();
    fp.points = std::all_of(o.items.begin(), o.items.end(), [](const IndexItem& i) { return i.kind == IndexItem::Kind::Scalar; });
    static const std::vector<Env> no_samples{Env{}};
    const std::vector<Env>& all = facts_.kernel(kernel_).samples();
    const std::vector<Env>& samples = all.empty() ? no_samples : all;
    int64_t warps_per_unit = role_->kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (size_t k = 0; k < (shaped ? samples.size() : 1); ++k) {
      Env env = samples[k];
      if (block != kNone)
        for (std::string_view axis : {"x", "y", "z"}) env.fields[block][axis] = 0;
      auto& threads = fp.threads.emplace_back();
      auto& owners = fp.owners.emplace_back();
      for (const auto& combo : combos)
      for (int64_t w = role_->first_warp; w < role_->first_warp + role_->warps; ++w)
        for (int64_t l = 0; l < (per_warp ? 1 : 32); ++l) {
          for (size_t t = 0; t < trips.size(); ++t) env.values[trips[t].first] = combo[t];
          if (lane != kNone) env.values[lane] = l;
          if (warp != kNone) env.fields[warp]["id"] = w;
          if (role != kNone) env.fields[role]["rank"] = (w - role_->first_warp) / warps_per_unit;
          Box box;
          for (const IndexItem& i : o.items) {
            if (i.kind == IndexItem::Kind::Full) {
              box.push_back({INT64_MIN, INT64_MAX});
              continue;
            }
            auto first = eval_.eval(i.start, &env);
            auto extent = i.kind == IndexItem::Kind::Slice ? eval_.eval(i.extent, &env) : std::optional<int64_t>(1);
            if (!first || !extent) return nullptr;
            box.push_back({*first, *first + *extent});
          }
          if (narrow) {
            // The warp's rows: [start + first, start + end) of the fragment's.
            auto [first, end] = fragment_warp_rows(a.layout, a.rows, w);
            int64_t start = o.items[rows_dim].kind == IndexItem::Kind::Full ? 0 : box[rows_dim].first;
            box[rows_dim] = {start + first, start + end};
          }
          bool makes = true;
          for (const auto& [condition, holds] : guards) {
            auto v = eval_.eval(condition, &env);
            if (!v) return nullptr;
            makes = makes && (*v != 0) == holds;
          }
          if (!makes) continue;
          if (fp.points) {
            auto [o_it, o_fresh] = owners.emplace(element_of(box), w);
            if (!o_fresh && o_it->second != w) o_it->second = -1;
          }
          threads.push_back({w, std::move(box)});
        }
    }
    it->second = std::move(fp);
    return &*it->second;
  }

  /// Whether two accesses of the threads' own parts whose footprints are
  /// known keep different warps apart: at each shape sample, no element a
  /// warp's lanes touch by `x` is one another warp's touch by `y`
  /// (`s[warp.id * 32 + 31 - lane]` and `s[warp.id * 32 + (lane ^ 1)]`).
  /// nullopt where a footprint is not known or too many boxes would be
  /// compared: the expressions decide then.
  std::optional<bool> apart_at_every_thread(const Access& x, const Access& y) {
    auto key = std::minmax(x.operand, y.operand);
    if (auto it = apart_.find(key); it != apart_.end()) return it->second;
    std::optional<bool> answer = apart_by_footprint(x, y);
    apart_.emplace(key, answer);
    return answer;
  }

  std::optional<bool> apart_by_footprint(const Access& x, const Access& y) {
    const Footprint* a = footprint(x);
    const Footprint* b = footprint(y);
    if (!a || !b || a->base != b->base) return std::nullopt;
    std::optional<bool> apart = apart_in(a, b);
    if (apart == false && (a->over_trips || b->over_trips)) return std::nullopt;
    return apart;
  }

  /// Whether no element a warp touches by `a` is another warp's by `b`, at
  /// every shape sample; nullopt where too many boxes would be compared.
  std::optional<bool> apart_in(const Footprint* a, const Footprint* b) {
    size_t dims = std::min(a->dims, b->dims);
    // Elements (every item a scalar, as many) are looked up; boxes compared pairwise.
    bool points = a->points && b->points && a->dims == b->dims;
    if (!points) {
      size_t most_a = 0, most_b = 0;
      for (const auto& t : a->threads) most_a = std::max(most_a, t.size());
      for (const auto& t : b->threads) most_b = std::max(most_b, t.size());
      if (int64_t(most_a) * int64_t(most_b) * int64_t(dims) > kMaxThreadPairs) return std::nullopt;
    }
    auto meet = [&](const Box& p, const Box& q) {
      for (size_t d = 0; d < dims; ++d)
        if (p[d].second <= q[d].first || q[d].second <= p[d].first) return false;
      return true;
    };
    size_t samples = std::max(a->threads.size(), b->threads.size());
    for (size_t k = 0; k < samples; ++k) {
      size_t ka = std::min(k, a->threads.size() - 1), kb = std::min(k, b->threads.size() - 1);
      if (points) {
        for (const auto& [w, box] : b->threads[kb])
          if (auto it = a->owners[ka].find(element_of(box)); it != a->owners[ka].end() && it->second != w) return false;
        continue;
      }
      for (const auto& [wx, bx] : a->threads[ka])
        for (const auto& [wy, by] : b->threads[kb])
          if (wx != wy && meet(bx, by)) return false;
    }
    return true;
  }

  /// Whether an index reads which warp or warpgroup runs it (`warp.id`,
  /// `role.rank`, a `let` of them): one that reads only `lane` is the same
  /// elements in every warp of the role (`s[lane]`).
  bool reads_warp(ExprId e) const {
    return depends_on_builtin(m_, eval_, e, "warp") || depends_on_builtin(m_, eval_, e, "role");
  }

  /// Whether two accesses of each warp's own part keep different warps
  /// apart: along some dim both index by the same expression of the warp
  /// (`warp.id`, or `role.rank` where it counts warps), not of the lane,
  /// so each warp has its own rows whatever its lanes do there
  /// (`s[warp.id, lane]` and `s[warp.id, 31 - lane]`).
  bool apart_by_warp(ExprId x, ExprId y) const {
    IndexedOperand a = indexed_operand(m_, x), b = indexed_operand(m_, y);
    if (a.base == kNone || a.base != b.base) return false;
    for (size_t d = 0; d < a.items.size() && d < b.items.size(); ++d) {
      const IndexItem &i = a.items[d], &j = b.items[d];
      if (i.kind == IndexItem::Kind::Full || i.kind != j.kind || !same_expr(i.start, j.start) ||
          !same_expr(i.extent, j.extent))
        continue;
      bool per_warp = depends_on_builtin(m_, eval_, i.start, "warp") ||
                      (role_->kind != RoleSpec::Kind::Warpgroup && depends_on_builtin(m_, eval_, i.start, "role"));
      if (per_warp && !depends_on_builtin(m_, eval_, i.start, "lane")) return true;
    }
    return false;
  }

  /// A write of an accumulator-layout fragment that its every owner (each
  /// warp of `mma_acc`, each warpgroup of `wgmma_acc`) holds whole, at an
  /// index that does not depend on the thread: when the role has several
  /// owners, all of them write the same elements in no order.
  void same_tile(const Access& a, ExprId reg_side) {
    int64_t warps_per_owner = 0;
    std::string owner;
    switch (a.layout) {
      case FragLayout::MmaAcc: case FragLayout::MmaAccRow: warps_per_owner = 1, owner = "warp"; break;
      case FragLayout::WgmmaAcc: case FragLayout::WgmmaAccRow: warps_per_owner = 4, owner = "warpgroup"; break;
      case FragLayout::None: case FragLayout::Tcgen05Acc: return;  // a thread's own values; a warp's own lanes
    }
    if (role_->warps <= warps_per_owner || !reported_.insert(a.stmt).second) return;
    std::string reg(m_.written(m_.exprs[reg_side].range));
    Diagnostic d = make_diagnostic(DiagForm::InRoleSameTile, m_.exprs[a.operand].range, written(a.operand), owner,
                                   role_words(), reg, frag_layout_name(a.layout));
    SymbolId r = root_symbol(m_, reg_side);
    if (r != kNone) d.related.push_back({m_.symbols[r].def, "declared here, held whole by each " + owner});
    diags_.push_back(std::move(d));
  }

  /// A write that several warps of the role make to the same elements in
  /// one statement (`store s[lane] <- x`, `store s[0] <- x` in a role of two
  /// warps): no barrier orders a statement with itself, so which warp's
  /// value lands is not known. A thread's own values at an index of only
  /// the thread and the shape are decided by their footprint (which counts
  /// only the threads the `if`s around admit); otherwise an index of the
  /// lane alone, or none of the thread, is every warp's, where no `if` on
  /// the thread may leave warps out.
  void same_elements(const Access& a, ExprId reg_side) {
    if (!thread_values(a)) return;  // a copy from memory is spread over the threads
    bool several = false;
    if (auto apart = apart_at_every_thread(a, a)) several = !*apart;
    else several = guarded_ == 0 && !(a.part == Part::Own && reads_warp(a.operand));
    if (!several || !reported_.insert(a.stmt).second) return;
    Diagnostic d = make_diagnostic(DiagForm::InRoleSameElements, m_.exprs[a.operand].range, written(a.operand), role_words());
    if (a.own_register) d.related.push_back({m_.symbols[root_symbol(m_, reg_side)].def, "declared here: each thread holds its own"});
    diags_.push_back(std::move(d));
  }

  /// Whether the two operands select parts of their buffer that cannot
  /// meet: along some dim both index a constant (a stage `s[0]` and
  /// `s[1]`, rows `[0 : 8, :]` and `[8 : 8, :]`) and the two ranges do
  /// not overlap. Anything not constant may meet.
  bool disjoint(ExprId x, ExprId y) const {
    IndexedOperand a = indexed_operand(m_, x), b = indexed_operand(m_, y);
    if (a.base == kNone || a.base != b.base) return false;
    for (size_t d = 0; d < a.items.size() && d < b.items.size(); ++d) {
      auto range = [&](const IndexItem& item) -> std::optional<std::pair<int64_t, int64_t>> {
        if (item.kind == IndexItem::Kind::Full) return std::nullopt;
        auto start = eval_.fold(item.start);
        auto extent = item.kind == IndexItem::Kind::Slice ? eval_.fold(item.extent) : std::optional<int64_t>(1);
        if (!start || !extent) return std::nullopt;
        return std::pair{*start, *start + *extent};
      };
      auto ra = range(a.items[d]), rb = range(b.items[d]);
      if (ra && rb && (ra->second <= rb->first || rb->second <= ra->first)) return true;
    }
    return false;
  }

  bool same_expr(ExprId a, ExprId b, int depth = 0) const {
    if (a == b) return true;
    if (a == kNone || b == kNone || depth > 64) return false;
    const Expr& x = m_.exprs[a];
    const Expr& y = m_.exprs[b];
    if (x.kind != y.kind || x.text != y.text || x.symbol != y.symbol || x.int_value != y.int_value ||
        x.float_value != y.float_value || x.cast_type != y.cast_type || x.args.size() != y.args.size() ||
        x.items.size() != y.items.size())
      return false;
    if (!same_expr(x.lhs, y.lhs, depth + 1) || !same_expr(x.rhs, y.rhs, depth + 1)) return false;
    for (size_t i = 0; i < x.args.size(); ++i)
      if (!same_expr(x.args[i], y.args[i], depth + 1)) return false;
    for (size_t i = 0; i < x.items.size(); ++i)
      if (x.items[i].kind != y.items[i].kind || !same_expr(x.items[i].start, y.items[i].start, depth + 1) ||
          !same_expr(x.items[i].extent, y.items[i].extent, depth + 1))
        return false;
    return true;
  }

  /// An operand as written, in backquotes; the role as the messages name it.
  std::string written(ExprId operand) const { return "`" + std::string(m_.written(m_.exprs[operand].range)) + "`"; }
  std::string role_words() const {
    return role_->name.empty() ? std::string("the kernel") : "role `" + std::string(role_->name) + "`";
  }

  void report(const Access& earlier, const Access& later) {
    if (!reported_.insert(later.stmt).second) return;
    // The barrier goes before the outermost statement around the later
    // access that is not also around the earlier one (before a loop that
    // reads, not into it).
    StmtId before = later.stmt;
    size_t depth = later.path.size();
    for (size_t i = 0; i < later.path.size(); ++i)
      if (i >= earlier.path.size() || earlier.path[i] != later.path[i]) {
        before = later.path[i];
        depth = i;
        break;
      }
    // Not under an `if` on the thread or inside `elect`: a barrier there
    // would be one only some threads reach (E0405).
    bool divergent = false;
    for (size_t i = 0; i < depth && i < later.path.size(); ++i) {
      const Stmt& around = m_.stmts[later.path[i]];
      if (const auto* c = std::get_if<IfStmt>(&around.node)) divergent = divergent || depends_on_thread(m_, eval_, c->condition);
      divergent = divergent || std::holds_alternative<ElectStmt>(around.node);
    }
    const Stmt& s = m_.stmts[before];
    std::string what = written(later.operand), role = role_words();
    Diagnostic d = later.write
                       ? make_diagnostic(earlier.write ? DiagForm::InRoleOverwriteWrite : DiagForm::InRoleOverwriteRead,
                                         m_.exprs[later.operand].range, what, role)
                       : make_diagnostic(DiagId::InRoleRace, m_.exprs[later.operand].range, what, role);
    d.related.push_back({m_.stmts[earlier.stmt].range, earlier.write ? "written here" : "read here"});
    // syncthreads is for a kernel of one role; several roles meet at a named barrier.
    if (single_role_ && !divergent) {
      TextEdit edit{{s.range.begin, s.range.begin}, "syncthreads\n" + std::string(m_.indent_at(s.range.begin))};
      d.fixes.push_back({"insert `syncthreads` before `" + std::string(m_.written(s.keyword.begin < s.keyword.end ? s.keyword : s.range)) + "`", {edit}, true});
    }
    diags_.push_back(std::move(d));
  }

  const Module& m_;
  const FactsCache& facts_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  Typer typer_;
  uint32_t kernel_ = 0;
  // Per role: the footprints of the operands seen, and the answers for pairs.
  std::map<ExprId, std::optional<Footprint>> footprints_;
  std::map<std::pair<ExprId, ExprId>, std::optional<bool>> apart_;
  const RoleView* role_ = nullptr;
  bool single_role_ = false;
  std::vector<Access> pending_;  // since the last barrier
  std::vector<StmtId> path_;     // the statements being walked, outermost first
  int guarded_ = 0;              // inside an `if` on the thread: some warps may not run it
  int64_t steps_ = 0;            // statements visited in this role
  int64_t trip_points_ = 0;      // points of footprints over loop trips in this role
  std::set<StmtId> reported_;
};

}  // namespace

void check_role_races(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  RoleRaces(module, facts, diagnostics).run();
}

}  // namespace cake
