// The resource checks (E03xx): what one CTA of each kernel asks of the SM,
// against each listed target's limits from the architecture tables
// (cake/arch.h). A limit is never a literal here. Per kernel, in one walk:
//   - block size (E0305): at most the target's threads per block, a
//     multiple of the warp size;
//   - grid dims (E0310): positive for every shape the facts allow (the
//     bench shapes and the facts' extreme values, samples.h);
//   - cluster shape (E0309): dims positive, their product within the
//     portable size, or the non-portable one with `nonportable` (a fix adds
//     it), and every grid dim a multiple of its cluster dim;
//   - shared memory (E0301): every smem buffer and mbarrier laid out with
//     its alignment (swizzled tiles at the swizzle's repeat, 1024 B for
//     128B; each stage of a swizzled ring padded to it; unswizzled buffers at
//     16 B; mbarriers 8 B each) against the per-block opt-in maximum (and
//     the SM's capacity less the per-block reservation, when smaller);
//   - roles (E0306): each role's warps inside the block, no warp in two
//     roles, no warp in none;
//   - warpgroup-wide ops (E0307): a role that issues wgmma or sets maxnreg
//     covers whole warpgroups;
//   - registers: `maxnreg` a multiple of the step within the range (E0303);
//     the roles' budgets (maxnreg, or the entry count for roles without
//     one) times their threads within the CTA's pool
//     ⌊regs per block ÷ (unit · T)⌋ · unit · T, unit = registers a warp
//     allocates per thread (E0302); and each role's fragments (E0304);
//   - tensor memory (E0308), named barriers (E0311), mbarrier counts and
//     transaction bytes (E0312).
//
// Fragment register cost. A fragment's cost per thread is its elements ÷
// the threads of its owner × its 32-bit words per element, rounded up: the
// owner of `wgmma_acc` is a warpgroup (4 warps), of `mma_acc` and
// `tcgen05_acc` a warp, of a plain `reg` each thread. A row vector
// (`mma_acc.row`, `wgmma_acc.row`) has one value per accumulator row, and
// each row is held by the 4 threads (a quad) that hold that row of the
// accumulator, so it costs rows × 4 ÷ owner threads × words. A role's
// fragments are summed (all assumed live at once) and kRegisterOverhead
// added for addresses, indices and loop counters. The budget is the role's
// maxnreg where the target has setmaxnreg, else the most a thread of this
// block can have: min(max registers per thread, ⌊regs per block ÷ (unit · T)⌋ · unit).
//
// A value that is not a compile-time constant is skipped here (E0112
// reports it). Everything is linear in the kernel's statements.
#include "checks/arch_support.h"
#include "checks/checks.h"
#include "checks/samples.h"
#include "diag_builder.h"
#include "semantics/checked.h"
#include "semantics/fragments.h"

#include <algorithm>
#include <string>

namespace cake {
namespace {


std::string warp_text(uint64_t mask) {
  std::string out;
  int count = 0;
  for (int i = 0; i < 64;) {
    if (!(mask >> i & 1)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 64 && (mask >> (j + 1) & 1)) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? std::to_string(i) : std::to_string(i) + "-" + std::to_string(j);
    count += j - i + 1;
    i = j + 1;
  }
  return (count == 1 ? "warp " : "warps ") + out;
}

uint64_t warp_range_mask(int64_t first, int64_t end) {
  uint64_t mask = 0;
  for (int64_t w = std::max<int64_t>(first, 0); w < end && w < 64; ++w) mask |= uint64_t(1) << w;
  return mask;
}

struct RoleRes {
  StmtId stmt = kNone;  // kNone: the implicit role of a kernel without roles
  std::string_view name;
  ByteRange header;     // the role's name (or the kernel's)
  ByteRange spec;       // its warp list
  uint64_t mask = 0;
  bool known = false;
  bool beyond = false;  // an entry names warps past the block (E0306)
  std::optional<int64_t> maxnreg;
  ByteRange maxnreg_value;
  StmtId first_wgmma = kNone;
  struct Frag {
    SymbolId symbol;
    int64_t elements;  // per owner
    unsigned bits;
    FragLayout layout;
  };
  std::vector<Frag> frags;
  int64_t threads(int64_t warp_size) const { return std::popcount(mask) * warp_size; }
};

class ResourceChecker {
 public:
  ResourceChecker(const Module& m, std::vector<Diagnostic>& diags)
      : m_(m), diags_(diags), eval_(m), listed_(listed_targets(m)) {}

  void run() {
    if (listed_.empty()) return;
    // The warp size splits the block into warps; every table says 32, and
    // the first listed target's is used for the partition.
    warp_ = target_at(std::countr_zero(listed_.bits)).warp_size.value;
    if (warp_ <= 0) return;
    for (uint32_t k = 0; k < m_.kernels.size(); ++k) kernel(k);
  }

 private:
  // Section - kernel

  void kernel(uint32_t index) {
    const Kernel& k = m_.kernels[index];
    kernel_ = index;
    samples_.reset();
    threads_ = std::nullopt;
    if (k.block != kNone) threads_ = eval_.fold(k.block);
    block_size(k);
    grid(k);
    cluster(k);
    smem(k);
    tmem(k);
    named_barriers(k);
    mbarriers(k);
    roles(k);
  }

  const std::vector<Env>& samples() {
    if (!samples_) samples_ = shape_samples(m_, eval_, kernel_);
    return *samples_;
  }

  void push(Diagnostic d, std::optional<TargetSet> targets = std::nullopt) {
    if (targets) set_targets(d, *targets);
    diags_.push_back(std::move(d));
  }

  ByteRange expr_range(ExprId e) const { return e == kNone ? ByteRange{} : m_.exprs[e].range; }

  // Section - block, grid, cluster

  void block_size(const Kernel& k) {
    if (!threads_) return;
    int64_t t = *threads_;
    ByteRange at = expr_range(k.block);
    struct Key {
      int64_t max, warp;
      bool operator==(const Key&) const = default;
    };
    group_targets<Key>(
        listed_,
        [&](const TargetInfo& info) -> std::optional<Key> {
          int64_t max = info.max_threads_per_block.value, warp = info.warp_size.value;
          if (t > 0 && t <= max && warp > 0 && t % warp == 0) return std::nullopt;
          return Key{max, warp};
        },
        [&](TargetSet group, Key key) {
          std::string message;
          if (t <= 0) message = "a block of " + std::to_string(t) + " threads: a block has at least one warp";
          else if (t > key.max)
            message = "a block of " + std::to_string(t) + " threads is over the " + std::to_string(key.max) +
                      " threads per block of " + target_list(group);
          else
            message = "a block of " + std::to_string(t) + " threads is not a multiple of the warp size (" +
                      std::to_string(key.warp) + "): the last warp would be partial";
          Diagnostic d = make_diagnostic(DiagId::BadBlockSize, at, message);
          if (t > 0 && key.warp > 0 && t % key.warp != 0)
            if (auto up = round_up(t, key.warp); up && *up <= key.max)
              d.fixes.push_back({"use " + std::to_string(*up) + " threads", {{at, std::to_string(*up)}}, false});
          push(std::move(d), group);
        });
  }

  void grid(const Kernel& k) {
    for (ExprId dim : k.grid) {
      if (dim == kNone || m_.exprs[dim].kind == Expr::Kind::Error) continue;
      if (auto v = eval_.fold(dim)) {
        if (*v <= 0)
          push(make_diagnostic(DiagId::BadGrid, m_.exprs[dim].range,
                               "grid dimension `" + std::string(m_.written(m_.exprs[dim].range)) + "` is " +
                                   std::to_string(*v) + ": a grid has at least one CTA per dimension"));
        continue;
      }
      for (const Env& env : samples()) {
        auto v = eval_.eval(dim, &env);
        if (!v || *v > 0) continue;
        push(make_diagnostic(DiagId::BadGrid, m_.exprs[dim].range,
                             "grid dimension `" + std::string(m_.written(m_.exprs[dim].range)) + "` is " +
                                 std::to_string(*v) + " for " + describe(m_, env, k.shape_symbols) +
                                 ", which the facts allow: state a fact that keeps it positive"));
        break;
      }
    }
  }

  void cluster(const Kernel& k) {
    if (k.cluster.empty()) return;
    TargetSet clustered = with_feature(listed_, Feature::Clusters);  // the others get E0203
    if (clustered.empty()) return;
    std::optional<int64_t> product = 1;
    std::vector<std::optional<int64_t>> dims;
    for (ExprId d : k.cluster) {
      auto v = eval_.fold(d);
      dims.push_back(v);
      if (v && *v <= 0) {
        push(make_diagnostic(DiagId::BadCluster, expr_range(d),
                             "cluster dimension " + std::to_string(*v) + ": a cluster has at least one CTA per dimension"),
             clustered);
        return;
      }
      product = v && product ? checked_mul(*product, *v) : std::nullopt;
    }
    if (product) {
      struct Key {
        int64_t portable, nonportable;
        bool operator==(const Key&) const = default;
      };
      int64_t p = *product;
      group_targets<Key>(
          clustered,
          [&](const TargetInfo& t) -> std::optional<Key> {
            if (!t.cluster_max_portable.known() || !t.cluster_max_nonportable.known()) return std::nullopt;
            Key key{t.cluster_max_portable.value, t.cluster_max_nonportable.value};
            if (p <= key.portable || (k.nonportable && p <= key.nonportable)) return std::nullopt;
            return key;
          },
          [&](TargetSet group, Key key) {
            const TargetInfo& first = target_at(std::countr_zero(group.bits));
            std::string message;
            if (p > key.nonportable)
              message = "a cluster of " + std::to_string(p) + " CTAs is over the " + std::to_string(key.nonportable) +
                        " that " + target_list(group) + " allows even with `nonportable` (" +
                        std::string(first.cluster_max_nonportable.src) + ")";
            else
              message = "a cluster of " + std::to_string(p) + " CTAs is over the portable size " +
                        std::to_string(key.portable) + " of " + target_list(group) + " (" +
                        std::string(first.cluster_max_portable.src) + "); sizes up to " +
                        std::to_string(key.nonportable) + " need `nonportable`";
            Diagnostic d = make_diagnostic(DiagId::BadCluster, k.cluster_range, message);
            if (p <= key.nonportable)
              d.fixes.push_back({"add `nonportable`", {{{k.cluster_range.end, k.cluster_range.end}, " nonportable"}}, true});
            push(std::move(d), group);
          });
    }
    // Every grid dim must be a multiple of its cluster dim, or the launch fails.
    for (size_t i = 0; i < dims.size(); ++i) {
      if (!dims[i] || *dims[i] <= 1) continue;
      ExprId g = i < k.grid.size() ? k.grid[i] : kNone;
      std::optional<std::pair<int64_t, std::string>> bad;
      if (g == kNone) bad = std::pair<int64_t, std::string>{1, ""};
      else if (auto v = eval_.fold(g)) {
        if (*v > 0 && *v % *dims[i] != 0) bad = std::pair<int64_t, std::string>{*v, ""};
      } else {
        for (const Env& env : samples()) {
          auto v = eval_.eval(g, &env);
          if (v && *v > 0 && *v % *dims[i] != 0) {
            bad = std::pair<int64_t, std::string>{*v, " for " + describe(m_, env, k.shape_symbols)};
            break;
          }
        }
      }
      if (!bad) continue;
      static constexpr const char* kAxis[] = {"x", "y", "z"};
      Diagnostic d = make_diagnostic(
          DiagId::BadCluster, g == kNone ? k.grid_range : expr_range(g),
          "grid " + std::string(kAxis[std::min<size_t>(i, 2)]) + " is " + std::to_string(bad->first) + bad->second +
              ", not a multiple of the cluster's " + std::to_string(*dims[i]) + ": the launch would fail");
      d.related.push_back({expr_range(k.cluster[i]), "cluster dimension"});
      push(std::move(d), clustered);
    }
  }

  // Section - shared memory

  struct SmemItem {
    SymbolId symbol;
    int64_t stages;
    int64_t tile;  // bytes of one stage (smem) or one mbarrier
    Swizzle swizzle;
    bool barrier;
  };

  /// Bytes `item` occupies on `t`, with its alignment, and that alignment.
  static std::optional<std::pair<int64_t, int64_t>> placed(const SmemItem& item, const TargetInfo& t) {
    if (item.barrier) {
      if (!t.mbarrier_bytes.known()) return std::nullopt;
      auto each = round_up(t.mbarrier_bytes.value, t.mbarrier_align.value);
      auto total = each ? checked_mul(item.stages, *each) : std::nullopt;
      if (!total) return std::nullopt;
      return std::pair{*total, t.mbarrier_align.value};
    }
    if (item.swizzle != Swizzle::None) {
      const SwizzleRule* rule = t.swizzle(item.swizzle);
      if (!rule) return std::nullopt;
      auto stage = round_up(item.tile, rule->align.value);
      auto total = stage ? checked_mul(item.stages, *stage) : std::nullopt;
      if (!total) return std::nullopt;
      return std::pair{*total, rule->align.value};
    }
    auto raw = checked_mul(item.stages, item.tile);
    auto total = raw ? round_up(*raw, t.smem_buffer_align.value) : std::nullopt;
    if (!total) return std::nullopt;
    return std::pair{*total, t.smem_buffer_align.value};
  }

  void smem(const Kernel& k) {
    std::vector<SmemItem> items;
    for (StmtId id : k.body) {
      const auto* d = std::get_if<DeclStmt>(&m_.stmts[id].node);
      if (!d || d->symbol == kNone) continue;
      const Symbol& s = m_.symbols[d->symbol];
      if (s.kind == SymbolKind::Smem) {
        auto tile = eval_.bytes_of(s.type, s.type.stage_dims.size());
        std::optional<int64_t> stages = 1;
        for (ExprId e : s.type.stage_dims) {
          auto v = eval_.fold(e);
          stages = v && *v >= 0 && stages ? checked_mul(*stages, *v) : std::nullopt;
        }
        if (tile && stages) items.push_back({d->symbol, *stages, *tile, s.type.swizzle, false});
      } else if (s.kind == SymbolKind::Mbarrier) {
        auto n = s.value == kNone ? std::optional<int64_t>(1) : eval_.fold(s.value);
        if (n && *n > 0) items.push_back({d->symbol, *n, 0, Swizzle::None, true});
      }
    }
    if (items.empty()) return;
    struct Key {
      size_t crossing;
      int64_t limit, total;
      bool operator==(const Key&) const = default;
    };
    group_targets<Key>(
        listed_,
        [&](const TargetInfo& t) -> std::optional<Key> {
          if (!t.smem_per_block_optin.known()) return std::nullopt;
          int64_t limit = t.smem_per_block_optin.value;
          if (t.smem_per_sm.known() && t.smem_reserved_per_block.known())
            limit = std::min(limit, t.smem_per_sm.value - t.smem_reserved_per_block.value);
          int64_t total = 0;
          size_t crossing = items.size();
          for (size_t i = 0; i < items.size(); ++i) {
            auto p = placed(items[i], t);
            if (!p) continue;
            auto sum = checked_add(total, p->first);
            total = sum ? *sum : INT64_MAX;
            if (total > limit && crossing == items.size()) crossing = i;
          }
          if (crossing == items.size()) return std::nullopt;
          return Key{crossing, limit, total};
        },
        [&](TargetSet group, Key key) {
          const TargetInfo& t = target_at(std::countr_zero(group.bits));
          const Symbol& at = m_.symbols[items[key.crossing].symbol];
          std::string message = "shared memory of `" + kernel_name(k) + "` needs " + std::to_string(key.total) +
                                " bytes (buffers and mbarriers, aligned), over the " + std::to_string(key.limit) +
                                " bytes per block of " + target_list(group) + " (" + std::string(t.smem_per_block_optin.src) +
                                "); `" + std::string(at.name) + "` crosses the limit";
          Diagnostic d = make_diagnostic(DiagId::SmemOverLimit, at.def, message);
          // The biggest buffers, as related spans.
          std::vector<std::pair<int64_t, size_t>> sizes;
          for (size_t i = 0; i < items.size(); ++i)
            if (auto p = placed(items[i], t)) sizes.push_back({p->first, i});
          std::stable_sort(sizes.begin(), sizes.end(), [](auto& a, auto& b) { return a.first > b.first; });
          for (size_t i = 0; i < sizes.size() && i < 3; ++i) {
            const SmemItem& item = items[sizes[i].second];
            const Symbol& s = m_.symbols[item.symbol];
            auto p = placed(item, t);
            std::string note = "`" + std::string(s.name) + "`: " + bytes_text(sizes[i].first);
            if (item.stages > 1 && !item.barrier) note += " (" + std::to_string(item.stages) + " stages)";
            if (p && p->second > 16) note += ", " + std::to_string(p->second) + "-byte aligned";
            d.related.push_back({s.decl, note});
          }
          push(std::move(d), group);
        });
  }

  std::string kernel_name(const Kernel& k) const {
    return k.symbol == kNone ? std::string("kernel") : std::string(m_.symbols[k.symbol].name);
  }

  // Section - tensor memory

  void tmem(const Kernel& k) {
    TargetSet tc = with_feature(listed_, Feature::Tcgen05);  // the others get E0202
    if (tc.empty()) return;
    int64_t total = 0;
    for (StmtId id : k.body) {
      const auto* d = std::get_if<DeclStmt>(&m_.stmts[id].node);
      if (!d || d->symbol == kNone || m_.symbols[d->symbol].kind != SymbolKind::Tmem) continue;
      const Symbol& s = m_.symbols[d->symbol];
      if (s.type.dims.size() != 2) {
        push(make_diagnostic(DiagId::BadTmem, s.def,
                             "a tmem buffer is `DTYPE[LANES, COLUMNS]`; `" + std::string(s.name) + "` has " +
                                 std::to_string(s.type.dims.size()) + " dimension(s)"),
             tc);
        continue;
      }
      auto lanes = eval_.fold(s.type.dims[0]);
      auto cols = eval_.fold(s.type.dims[1]);
      std::optional<int64_t> stages = 1;
      for (ExprId e : s.type.stage_dims) {
        auto v = eval_.fold(e);
        stages = v && stages ? checked_mul(*stages, *v) : std::nullopt;
      }
      unsigned bits = dtype_bits(s.type.dtype);
      if (lanes) {
        group_targets<int64_t>(
            tc,
            [&](const TargetInfo& t) -> std::optional<int64_t> {
              if (!t.tmem_lanes.known() || (*lanes >= 1 && *lanes <= t.tmem_lanes.value)) return std::nullopt;
              return t.tmem_lanes.value;
            },
            [&](TargetSet group, int64_t max) {
              push(make_diagnostic(DiagId::BadTmem, expr_range(s.type.dims[0]),
                                   "`" + std::string(s.name) + "` spans " + std::to_string(*lanes) +
                                       " lanes; tensor memory has 1 to " + std::to_string(max) + " lanes on " +
                                       target_list(group)),
                   group);
            });
      }
      if (!cols || !stages || bits == 0 || *cols <= 0) continue;
      int64_t cell_bits = target_at(std::countr_zero(tc.bits)).tmem_cell_bits.value;
      if (cell_bits <= 0) continue;
      auto cells = checked_mul(*cols, bits);
      auto rounded = cells ? round_up(*cells, cell_bits) : std::nullopt;
      auto alloc = rounded ? checked_mul(*rounded / cell_bits, *stages) : std::nullopt;
      if (!alloc) continue;
      int64_t a = *alloc;
      struct Key {
        int64_t min, max;
        bool operator==(const Key&) const = default;
      };
      bool bad = false;
      group_targets<Key>(
          tc,
          [&](const TargetInfo& t) -> std::optional<Key> {
            if (!t.tmem_columns.known()) return std::nullopt;
            Key key{t.tmem_alloc_min_columns.value, t.tmem_columns.value};
            if (a >= key.min && a <= key.max && std::has_single_bit(static_cast<uint64_t>(a))) return std::nullopt;
            return key;
          },
          [&](TargetSet group, Key key) {
            bad = true;
            std::string cols_text = std::to_string(a) + " column" + (a == 1 ? "" : "s");
            std::string detail = bits != cell_bits ? " (" + std::to_string(*cols) + " " + std::string(dtype_name(s.type.dtype)) +
                                                  " values in " + std::to_string(cell_bits) + "-bit cells" +
                                                  (*stages > 1 ? ", " + std::to_string(*stages) + " stages" : "") + ")"
                                 : *stages > 1 ? " (" + std::to_string(*stages) + " stages)" : "";
            push(make_diagnostic(DiagId::BadTmem, expr_range(s.type.dims[1]),
                                 "`" + std::string(s.name) + "` allocates " + cols_text + detail +
                                     "; a tensor-memory allocation is a power of two from " + std::to_string(key.min) +
                                     " to " + std::to_string(key.max) + " columns (" +
                                     std::string(target_at(std::countr_zero(group.bits)).tmem_alloc_min_columns.src) + ")"),
                 group);
          });
      if (bad) continue;
      int64_t before = total;
      total += a;
      group_targets<int64_t>(
          tc,
          [&](const TargetInfo& t) -> std::optional<int64_t> {
            if (!t.tmem_columns.known() || total <= t.tmem_columns.value || before > t.tmem_columns.value) return std::nullopt;
            return t.tmem_columns.value;
          },
          [&](TargetSet group, int64_t max) {
            push(make_diagnostic(DiagId::BadTmem, s.def,
                                 "tensor memory reaches " + std::to_string(total) + " columns with `" +
                                     std::string(s.name) + "`, over the " + std::to_string(max) + " columns per CTA of " +
                                     target_list(group)),
                 group);
          });
    }
  }

  // Section - barriers

  void named_barriers(const Kernel& k) {
    std::vector<std::pair<int64_t, SymbolId>> ids;
    for (StmtId id : k.body) {
      const auto* d = std::get_if<DeclStmt>(&m_.stmts[id].node);
      if (!d || d->symbol == kNone || m_.symbols[d->symbol].kind != SymbolKind::NamedBarrier) continue;
      const Symbol& s = m_.symbols[d->symbol];
      if (auto bar = s.id == kNone ? std::nullopt : eval_.fold(s.id)) {
        struct Key {
          int64_t first, last;
          bool operator==(const Key&) const = default;
        };
        int64_t v = *bar;
        group_targets<Key>(
            listed_,
            [&](const TargetInfo& t) -> std::optional<Key> {
              if (!t.named_barrier_first_id.known()) return std::nullopt;
              Key key{t.named_barrier_first_id.value, t.named_barrier_last_id.value};
              if (v >= key.first && v <= key.last) return std::nullopt;
              return key;
            },
            [&](TargetSet group, Key key) {
              std::string why = v == 0 ? " (0 is the barrier `syncthreads` uses)" : "";
              push(make_diagnostic(DiagId::BadNamedBarrier, expr_range(s.id),
                                   "named barrier id " + std::to_string(v) + " is outside " + std::to_string(key.first) +
                                       ".." + std::to_string(key.last) + why),
                   group);
            });
        for (auto& [other, sym] : ids)
          if (other == v) {
            Diagnostic d = make_diagnostic(DiagId::BadNamedBarrier, expr_range(s.id),
                                           "named barrier id " + std::to_string(v) + " is already used by `" +
                                               std::string(m_.symbols[sym].name) +
                                               "`: two names would share one hardware barrier");
            d.related.push_back({m_.symbols[sym].decl, "id " + std::to_string(v) + " declared here"});
            push(std::move(d));
            break;
          }
        ids.push_back({v, d->symbol});
      }
      auto threads = s.count == kNone ? std::nullopt : eval_.fold(s.count);
      if (!threads) continue;
      int64_t n = *threads;
      struct Key {
        int64_t multiple, block;
        bool operator==(const Key&) const = default;
      };
      group_targets<Key>(
          listed_,
          [&](const TargetInfo& t) -> std::optional<Key> {
            if (!t.named_barrier_thread_multiple.known()) return std::nullopt;
            Key key{t.named_barrier_thread_multiple.value, threads_.value_or(INT64_MAX)};
            if (n > 0 && n % key.multiple == 0 && n <= key.block) return std::nullopt;
            return key;
          },
          [&](TargetSet group, Key key) {
            std::string message;
            if (n <= 0 || n % key.multiple != 0)
              message = "named barrier thread count " + std::to_string(n) + " is not a positive multiple of " +
                        std::to_string(key.multiple) + " (whole warps)";
            else
              message = "named barrier thread count " + std::to_string(n) + " is more than the block's " +
                        std::to_string(key.block) + " threads: the barrier would never complete";
            Diagnostic d = make_diagnostic(DiagId::BadNamedBarrier, expr_range(s.count), message);
            if (n > key.block && k.block_range.end > 0) d.related.push_back({k.block_range, "block size"});
            push(std::move(d), group);
          });
    }
  }

  void mbarriers(const Kernel& k) {
    for (StmtId id : k.body) {
      const auto* d = std::get_if<DeclStmt>(&m_.stmts[id].node);
      if (!d || d->symbol == kNone || m_.symbols[d->symbol].kind != SymbolKind::Mbarrier) continue;
      const Symbol& s = m_.symbols[d->symbol];
      if (s.value != kNone)
        if (auto n = eval_.fold(s.value); n && *n < 1)
          push(make_diagnostic(DiagId::MbarrierRange, expr_range(s.value),
                               "an mbarrier array of " + std::to_string(*n) + " barriers: declare at least one"));
      auto count = s.count == kNone ? std::nullopt : eval_.fold(s.count);
      if (!count) continue;
      int64_t c = *count;
      group_targets<int64_t>(
          listed_,
          [&](const TargetInfo& t) -> std::optional<int64_t> {
            if (!t.mbarrier_max_arrivals.known() || (c >= 1 && c <= t.mbarrier_max_arrivals.value)) return std::nullopt;
            return t.mbarrier_max_arrivals.value;
          },
          [&](TargetSet group, int64_t max) {
            push(make_diagnostic(DiagId::MbarrierRange, expr_range(s.count),
                                 "arrival count " + std::to_string(c) + " is outside 1.." + std::to_string(max) +
                                     " (" + std::string(target_at(std::countr_zero(group.bits)).mbarrier_max_arrivals.src) +
                                     ")" + (c < 1 ? ": a phase needs at least one arrival" : "")),
                 group);
          });
    }
  }

  void expect_tx(const ArriveStmt& a) {
    if (a.op != Op::ArriveExpectTx || a.bytes == kNone) return;
    auto bytes = eval_.fold(a.bytes);
    if (!bytes) return;
    int64_t b = *bytes;
    group_targets<int64_t>(
        with_feature(listed_, Feature::MbarrierTx),
        [&](const TargetInfo& t) -> std::optional<int64_t> {
          if (!t.mbarrier_max_tx_bytes.known() || (b >= 0 && b <= t.mbarrier_max_tx_bytes.value)) return std::nullopt;
          return t.mbarrier_max_tx_bytes.value;
        },
        [&](TargetSet group, int64_t max) {
          push(make_diagnostic(DiagId::MbarrierRange, expr_range(a.bytes),
                               "a phase expecting " + std::to_string(b) + " bytes is outside the transaction count 0.." +
                                   std::to_string(max) + " of an mbarrier: split the copy over more phases or barriers"),
               group);
        });
  }

  // Section - roles and registers

  void roles(const Kernel& k) {
    std::vector<RoleRes> roles;
    bool has_roles = false;
    int64_t warps = 0;
    bool block_ok = threads_ && *threads_ > 0 && *threads_ % warp_ == 0 && *threads_ / warp_ <= 64;
    if (block_ok) warps = *threads_ / warp_;
    uint64_t all = warp_range_mask(0, warps);
    uint64_t covered = 0;                  // warps of the roles so far
    std::array<uint32_t, 64> owner{};      // the first role of each covered warp
    for (StmtId id : k.body) {
      const auto* r = std::get_if<RoleStmt>(&m_.stmts[id].node);
      if (!r) continue;
      has_roles = true;
      RoleRes res;
      res.stmt = id;
      res.name = r->symbol != kNone ? m_.symbols[r->symbol].name : std::string_view("role");
      res.header = r->symbol != kNone ? m_.symbols[r->symbol].def : m_.stmts[id].keyword;
      if (!r->spec.entries.empty())
        res.spec = {r->spec.entries.front().range.begin, r->spec.entries.back().range.end};
      else
        res.spec = res.header;
      if (r->maxnreg != kNone) {
        res.maxnreg = eval_.fold(r->maxnreg);
        res.maxnreg_value = m_.exprs[r->maxnreg].range;
      }
      res.known = block_ok;
      if (r->spec.kind == RoleSpec::Kind::All) res.mask = all;
      int64_t per = r->spec.kind == RoleSpec::Kind::Warpgroup ? kWarpsPerWarpgroup : 1;
      for (const RoleSpec::Entry& e : r->spec.entries) {
        auto first = eval_.fold(e.first);
        auto end = e.end == kNone ? (first ? checked_add(*first, 1) : std::nullopt) : eval_.fold(e.end);
        if (!first || !end) {
          res.known = false;
          continue;
        }
        if (*end <= *first || *first < 0) {
          push(make_diagnostic(DiagId::RolePartition, e.range,
                               "`" + std::string(m_.written(e.range)) + "` names no " +
                                   (per == 1 ? "warp" : "warpgroup") + ": a range `a .. b` is half-open"));
          res.known = false;
          continue;
        }
        auto lo = checked_mul(*first, per), hi = checked_mul(*end, per);
        if (!lo || !hi) {
          res.known = false;
          continue;
        }
        if (block_ok && *hi > warps) {
          res.beyond = true;
          Diagnostic d = make_diagnostic(
              DiagId::RolePartition, e.range,
              "`" + std::string(m_.written(e.range)) + "` is " + warp_text(warp_range_mask(*lo, *hi)) +
                  (*hi > 64 ? "+" : "") + ", but the block has " + std::to_string(warps) + " warps (" +
                  std::to_string(*threads_) + " threads)");
          if (k.block_range.end > 0) d.related.push_back({k.block_range, "block size"});
          push(std::move(d));
        }
        uint64_t m = warp_range_mask(*lo, std::min<int64_t>(*hi, warps)) & all;
        if (block_ok && (m & res.mask)) {
          push(make_diagnostic(DiagId::RolePartition, e.range,
                               "role `" + std::string(res.name) + "` lists " + warp_text(m & res.mask) + " twice"));
        }
        if (block_ok && (covered & m)) {
          const RoleRes& other = roles[owner[std::countr_zero(covered & m)]];
          Diagnostic d = make_diagnostic(DiagId::RolePartition, e.range,
                                         warp_text(other.mask & m) + " of role `" + std::string(res.name) +
                                             "` already belong to role `" + std::string(other.name) +
                                             "`: roles partition the warps, with no overlap");
          d.related.push_back({other.spec, "role `" + std::string(other.name) + "`"});
          push(std::move(d));
        }
        res.mask |= m;
      }
      if (r->spec.kind == RoleSpec::Kind::All && block_ok && covered) {
        const RoleRes& other = roles[owner[std::countr_zero(covered)]];
        Diagnostic d = make_diagnostic(DiagId::RolePartition, m_.stmts[id].keyword,
                                       "role `" + std::string(res.name) + "` is `all`, but role `" +
                                           std::string(other.name) + "` already has " + warp_text(other.mask));
        d.related.push_back({other.spec, "role `" + std::string(other.name) + "`"});
        push(std::move(d));
      }
      // Record the first owner of each warp, for the overlap reports.
      for (uint64_t fresh = res.mask & ~covered; fresh; fresh &= fresh - 1)
        owner[std::countr_zero(fresh)] = static_cast<uint32_t>(roles.size());
      covered |= res.mask;
      roles.push_back(std::move(res));
    }
    if (!has_roles) {
      RoleRes res;
      res.name = k.symbol != kNone ? m_.symbols[k.symbol].name : std::string_view("kernel");
      res.header = k.symbol != kNone ? m_.symbols[k.symbol].def : k.range;
      res.spec = k.block_range.end > 0 ? k.block_range : res.header;
      res.mask = all;
      res.known = block_ok;
      roles.push_back(std::move(res));
    } else if (block_ok && std::all_of(roles.begin(), roles.end(), [](const RoleRes& r) { return r.known; })) {
      if (uint64_t gap = all & ~covered) {
        Diagnostic d = make_diagnostic(DiagId::RolePartition, k.block_range.end > 0 ? k.block_range : k.range,
                                       warp_text(gap) + " of the block's " + std::to_string(warps) +
                                           " belong to no role: roles partition the warps (give idle warps an "
                                           "empty role, or shrink the block)");
        for (size_t i = 0; i < roles.size() && i < 8; ++i)
          d.related.push_back({roles[i].spec, "role `" + std::string(roles[i].name) + "`: " + warp_text(roles[i].mask)});
        push(std::move(d));
      }
    }
    // Fragments, wgmma and expect_tx inside each role.
    for (RoleRes& r : roles) {
      const std::vector<StmtId>& body = r.stmt == kNone ? k.body : std::get<RoleStmt>(m_.stmts[r.stmt].node).body;
      walk_statements(m_, body, stack_, [&](StmtId id) {
        const Stmt& s = m_.stmts[id];
        if (const auto* d = std::get_if<DeclStmt>(&s.node)) {
          if (d->symbol == kNone) return;
          const Symbol& sym = m_.symbols[d->symbol];
          if (sym.kind != SymbolKind::Reg) return;
          if (has_roles && r.stmt == kNone) return;
          std::optional<int64_t> n = 1;
          for (ExprId e : sym.type.stage_dims) {
            auto v = eval_.fold(e);
            n = v && *v >= 0 && n ? checked_mul(*n, *v) : std::nullopt;
          }
          for (ExprId e : sym.type.dims) {
            auto v = eval_.fold(e);
            n = v && *v >= 0 && n ? checked_mul(*n, *v) : std::nullopt;
          }
          if (n) r.frags.push_back({d->symbol, *n, dtype_bits(sym.type.dtype), sym.type.layout});
        } else if (const auto* mm = std::get_if<MmaStmt>(&s.node)) {
          if (mm->op == Op::Wgmma && r.first_wgmma == kNone) r.first_wgmma = id;
        } else if (const auto* p = std::get_if<PlainStmt>(&s.node)) {
          if ((p->op == Op::WgmmaFence || p->op == Op::WgmmaCommit) && r.first_wgmma == kNone) r.first_wgmma = id;
        } else if (const auto* g = std::get_if<GroupWaitStmt>(&s.node)) {
          if (g->op == Op::WgmmaWait && r.first_wgmma == kNone) r.first_wgmma = id;
        } else if (const auto* a = std::get_if<ArriveStmt>(&s.node)) {
          expect_tx(*a);
        }
      });
    }
    warpgroup_alignment(k, roles, has_roles);
    registers(k, roles);
  }

  void warpgroup_alignment(const Kernel& k, const std::vector<RoleRes>& roles, bool has_roles) {
    for (const RoleRes& r : roles) {
      if (!r.known || !r.mask || r.beyond) continue;
      bool wgmma = r.first_wgmma != kNone;
      TargetSet setmax = r.maxnreg ? with_feature(listed_, Feature::Setmaxnreg) : TargetSet{};
      if (!wgmma && setmax.empty()) continue;
      uint64_t split = 0;
      for (int g = 0; g < 64; g += kWarpsPerWarpgroup) {
        uint64_t group = warp_range_mask(g, g + kWarpsPerWarpgroup);
        if ((r.mask & group) && (r.mask & group) != group) split |= group;
      }
      if (!split) continue;
      std::string what = wgmma ? "issues `wgmma`" : "sets `maxnreg`";
      std::string who = has_roles ? "role `" + std::string(r.name) + "`" : "the block";
      Diagnostic d = make_diagnostic(
          DiagId::WarpgroupAlignment, has_roles ? r.spec : (k.block_range.end > 0 ? k.block_range : r.header),
          who + " " + what + " but has only " + warp_text(r.mask & split) + " of " + warp_text(split) +
              ": warpgroup-wide instructions (" + (wgmma ? "wgmma" : "setmaxnreg") +
              ") run on 4 whole warps starting at a multiple of 4");
      if (wgmma) d.related.push_back({m_.stmts[r.first_wgmma].keyword, "warpgroup-wide op here"});
      else d.related.push_back({r.maxnreg_value, "maxnreg here"});
      if (!wgmma) set_targets(d, setmax);
      push(std::move(d));
    }
  }

  static int64_t frag_cost(const RoleRes::Frag& f, int64_t warp_size) {
    return fragment_registers(f.layout, f.elements, f.bits, warp_size);
  }

  void registers(const Kernel& k, const std::vector<RoleRes>& roles) {
    // A block of more than 64 warps is E0305; its registers are not checked.
    bool block_ok = threads_ && *threads_ > 0 && *threads_ % warp_ == 0 && *threads_ / warp_ <= 64;
    // maxnreg values (E0303), on targets with setmaxnreg (the others get E0203).
    TargetSet setmax = with_feature(listed_, Feature::Setmaxnreg);
    bool maxnreg_ok = true;
    for (const RoleRes& r : roles) {
      if (!r.maxnreg) continue;
      int64_t v = *r.maxnreg;
      struct Key {
        int64_t min, max, step;
        bool operator==(const Key&) const = default;
      };
      group_targets<Key>(
          setmax,
          [&](const TargetInfo& t) -> std::optional<Key> {
            if (!t.maxnreg_min.known()) return std::nullopt;
            Key key{t.maxnreg_min.value, t.maxnreg_max.value, t.maxnreg_step.value};
            if (v >= key.min && v <= key.max && key.step > 0 && v % key.step == 0) return std::nullopt;
            return key;
          },
          [&](TargetSet group, Key key) {
            maxnreg_ok = false;
            std::string message = "maxnreg(" + std::to_string(v) + ") " +
                                  (v < key.min || v > key.max ? "is outside " + std::to_string(key.min) + ".." + std::to_string(key.max)
                                                              : "is not a multiple of " + std::to_string(key.step)) +
                                  ": setmaxnreg takes " + std::to_string(key.min) + ".." + std::to_string(key.max) +
                                  " in steps of " + std::to_string(key.step) + " (" +
                                  std::string(target_at(std::countr_zero(group.bits)).maxnreg_min.src) + ")";
            Diagnostic d = make_diagnostic(DiagId::BadMaxnreg, r.maxnreg_value, message);
            int64_t fixed = std::clamp(key.step > 0 ? v - ((v % key.step) + key.step) % key.step : v, key.min, key.max);
            d.fixes.push_back({"use maxnreg(" + std::to_string(fixed) + ")", {{r.maxnreg_value, std::to_string(fixed)}}, true});
            push(std::move(d), group);
          });
    }
    if (!block_ok) return;
    int64_t t = *threads_;
    // The pool (E0302), when some role sets maxnreg.
    bool any_maxnreg = std::any_of(roles.begin(), roles.end(), [](const RoleRes& r) { return r.maxnreg.has_value(); });
    bool all_known = std::all_of(roles.begin(), roles.end(), [](const RoleRes& r) { return r.known; });
    if (any_maxnreg && maxnreg_ok && all_known) {
      struct Key {
        int64_t pool, need;
        size_t biggest;
        bool operator==(const Key&) const = default;
      };
      group_targets<Key>(
          setmax,
          [&](const TargetInfo& info) -> std::optional<Key> {
            int64_t unit = info.reg_alloc_unit_per_warp.value / std::max<int64_t>(1, info.warp_size.value);
            if (unit <= 0) return std::nullopt;
            int64_t pool = info.max_regs_per_block.value / (unit * t) * unit * t;
            int64_t entry = pool / t;
            int64_t need = 0;
            size_t biggest = 0;
            int64_t biggest_regs = -1;
            for (size_t i = 0; i < roles.size(); ++i) {
              int64_t per = roles[i].maxnreg.value_or(entry);
              int64_t regs = per * roles[i].threads(info.warp_size.value);
              need += regs;
              if (roles[i].maxnreg && regs > biggest_regs) biggest = i, biggest_regs = regs;
            }
            if (need <= pool) return std::nullopt;
            return Key{pool, need, biggest};
          },
          [&](TargetSet group, Key key) {
            const TargetInfo& info = target_at(std::countr_zero(group.bits));
            int64_t entry = key.pool / t;
            std::string terms;
            for (const RoleRes& r : roles)
              terms += (terms.empty() ? "" : " + ") + std::to_string(r.maxnreg.value_or(entry)) + " × " +
                       std::to_string(r.threads(info.warp_size.value));
            const RoleRes& big = roles[key.biggest];
            Diagnostic d = make_diagnostic(
                DiagId::RegisterPoolOverflow, big.maxnreg_value,
                "the roles' register budgets need " + std::to_string(key.need) + " registers (" + terms +
                    "), more than the " + std::to_string(key.pool) + " of a " + std::to_string(t) +
                    "-thread CTA's pool on " + target_list(group) + " (" + std::string(info.max_regs_per_block.src) +
                    "): setmaxnreg would wait forever");
            for (const RoleRes& r : roles)
              if (&r != &big)
                d.related.push_back({r.maxnreg ? r.maxnreg_value : r.header,
                                     "role `" + std::string(r.name) + "`: " + std::to_string(r.maxnreg.value_or(entry)) +
                                         " × " + std::to_string(r.threads(info.warp_size.value)) +
                                         (r.maxnreg ? "" : " (no maxnreg: the entry count)")});
            int64_t others = key.need - *big.maxnreg * big.threads(info.warp_size.value);
            int64_t step = info.maxnreg_step.value > 0 ? info.maxnreg_step.value : 8;
            int64_t threads = big.threads(info.warp_size.value);
            if (threads > 0 && key.pool > others) {
              int64_t fit = (key.pool - others) / threads / step * step;
              fit = std::min(fit, info.maxnreg_max.value);
              if (fit >= info.maxnreg_min.value && fit < *big.maxnreg)
                d.fixes.push_back({"use maxnreg(" + std::to_string(fit) + ")", {{big.maxnreg_value, std::to_string(fit)}}, false});
            }
            push(std::move(d), group);
          });
    }
    // Fragments per role (E0304).
    for (const RoleRes& r : roles) {
      if (r.frags.empty()) continue;
      struct Key {
        int64_t need, budget;
        size_t crossing;
        bool from_maxnreg;
        bool operator==(const Key&) const = default;
      };
      group_targets<Key>(
          listed_,
          [&](const TargetInfo& info) -> std::optional<Key> {
            int64_t warp = info.warp_size.value;
            int64_t unit = info.reg_alloc_unit_per_warp.value / std::max<int64_t>(1, warp);
            if (unit <= 0) return std::nullopt;
            bool from_maxnreg = r.maxnreg && info.has(Feature::Setmaxnreg);
            int64_t budget = from_maxnreg ? *r.maxnreg
                                          : std::min(info.max_regs_per_thread.value,
                                                     info.max_regs_per_block.value / (unit * t) * unit);
            int64_t need = kRegisterOverhead;
            size_t crossing = r.frags.size();
            for (size_t i = 0; i < r.frags.size(); ++i) {
              need = std::min<int64_t>(need + frag_cost(r.frags[i], warp), INT64_MAX / 4);
              if (need > budget && crossing == r.frags.size()) crossing = i;
            }
            if (crossing == r.frags.size()) return std::nullopt;
            return Key{need, budget, crossing, from_maxnreg};
          },
          [&](TargetSet group, Key key) {
            const TargetInfo& info = target_at(std::countr_zero(group.bits));
            int64_t warp = info.warp_size.value;
            std::vector<std::pair<int64_t, size_t>> costs;
            for (size_t i = 0; i < r.frags.size(); ++i) costs.push_back({frag_cost(r.frags[i], warp), i});
            std::stable_sort(costs.begin(), costs.end(), [](auto& a, auto& b) { return a.first > b.first; });
            std::string parts;
            for (size_t i = 0; i < costs.size() && i < 3; ++i)
              parts += std::string(m_.symbols[r.frags[costs[i].second].symbol].name) + " " +
                       std::to_string(costs[i].first) + " + ";
            if (costs.size() > 3) parts += "... + ";
            std::string budget = key.from_maxnreg ? "its maxnreg(" + std::to_string(key.budget) + ")"
                                                  : "the " + std::to_string(key.budget) + " a thread of a " +
                                                        std::to_string(t) + "-thread block can have on " + target_list(group);
            std::string who = r.stmt == kNone ? "`" + std::string(r.name) + "`" : "role `" + std::string(r.name) + "`";
            const Symbol& at = m_.symbols[r.frags[key.crossing].symbol];
            Diagnostic d = make_diagnostic(DiagId::FragmentRegisters, at.def,
                                           "the fragments of " + who + " need " + std::to_string(key.need) +
                                               " registers per thread (" + parts + std::to_string(kRegisterOverhead) +
                                               " overhead), over " + budget + "; `" + std::string(at.name) +
                                               "` crosses it");
            for (size_t i = 0; i < costs.size() && i < 3; ++i) {
              const Symbol& s = m_.symbols[r.frags[costs[i].second].symbol];
              d.related.push_back({s.decl, "`" + std::string(s.name) + "`: " + std::to_string(costs[i].first) +
                                               " registers per thread"});
            }
            if (key.from_maxnreg) d.related.push_back({r.maxnreg_value, "the role's budget"});
            push(std::move(d), group);
          });
    }
  }

  const Module& m_;
  std::vector<Diagnostic>& diags_;
  Evaluator eval_;
  TargetSet listed_;
  uint32_t kernel_ = 0;
  std::optional<std::vector<Env>> samples_;
  std::optional<int64_t> threads_;
  int64_t warp_ = 0;
  std::vector<StmtId> stack_;
};

}  // namespace

void check_resources(const Module& module, std::vector<Diagnostic>& diagnostics) {
  ResourceChecker(module, diagnostics).run();
}

}  // namespace cake
