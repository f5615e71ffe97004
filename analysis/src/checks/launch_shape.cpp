// E0305 (block size), E0310 (grid dims) and E0309 (cluster shape): the
// launch shape against each listed target's limits (resources.h).
//   - block size: at most the target's threads per block, a multiple of the
//     warp size;
//   - grid dims: positive for every shape the facts allow (the bench shapes
//     and the facts' extreme values, the kernel's samples);
//   - cluster shape: dims positive, their product within the portable size,
//     or the non-portable one with `nonportable` (a fix adds it), and every
//     grid dim a multiple of its cluster dim.
#include "checks/resources.h"
#include "diag_builder.h"
#include "facts/samples.h"

#include <algorithm>
#include <string>

namespace cake {
namespace {

void block_size(const ResourceContext& c, const Kernel& k) {
  std::optional<int64_t> threads = c.facts.threads();
  if (!threads) return;
  int64_t t = *threads;
  ByteRange at = c.expr_range(k.block);
  struct Key {
    int64_t max, warp;
    bool operator==(const Key&) const = default;
  };
  group_targets<Key>(
      c.listed,
      [&](const TargetInfo& info) -> std::optional<Key> {
        int64_t max = info.max_threads_per_block.value, warp = info.warp_size.value;
        if (t > 0 && t <= max && warp > 0 && t % warp == 0) return std::nullopt;
        return Key{max, warp};
      },
      [&](TargetSet group, Key key) {
        std::string message;
        if (t <= 0)
          message = "a block of " + std::to_string(t) + " threads: a block has at least one warp";
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
        c.push(std::move(d), group);
      });
}

void grid(const ResourceContext& c, const Kernel& k) {
  for (ExprId dim : k.grid) {
    if (dim == kNone || c.m.exprs[dim].kind == Expr::Kind::Error) continue;
    if (auto v = c.eval().fold(dim)) {
      if (*v <= 0)
        c.push(make_diagnostic(DiagId::BadGrid, c.m.exprs[dim].range,
                               "grid dimension `" + std::string(c.m.written(c.m.exprs[dim].range)) + "` is " +
                                   std::to_string(*v) + ": a grid has at least one CTA per dimension"));
      continue;
    }
    for (const Env& env : c.facts.samples()) {
      auto v = c.eval().eval(dim, &env);
      if (!v || *v > 0) continue;
      c.push(make_diagnostic(DiagId::BadGrid, c.m.exprs[dim].range,
                             "grid dimension `" + std::string(c.m.written(c.m.exprs[dim].range)) + "` is " +
                                 std::to_string(*v) + " for " + describe(c.m, env, k.shape_symbols) +
                                 ", which the facts allow: state a fact that keeps it positive"));
      break;
    }
  }
}

void cluster(const ResourceContext& c, const Kernel& k) {
  if (k.cluster.empty()) return;
  TargetSet clustered = with_feature(c.listed, Feature::Clusters);  // the others get E0203
  if (clustered.empty()) return;
  std::optional<int64_t> product = 1;
  std::vector<std::optional<int64_t>> dims;
  for (ExprId d : k.cluster) {
    auto v = c.eval().fold(d);
    dims.push_back(v);
    if (v && *v <= 0) {
      c.push(
          make_diagnostic(DiagId::BadCluster, c.expr_range(d),
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
            d.fixes.push_back(
                {"add `nonportable`", {{{k.cluster_range.end, k.cluster_range.end}, " nonportable"}}, true});
          c.push(std::move(d), group);
        });
  }
  // Every grid dim must be a multiple of its cluster dim, or the launch fails.
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dims[i] || *dims[i] <= 1) continue;
    ExprId g = i < k.grid.size() ? k.grid[i] : kNone;
    std::optional<std::pair<int64_t, std::string>> bad;
    if (g == kNone)
      bad = std::pair<int64_t, std::string>{1, ""};
    else if (auto v = c.eval().fold(g)) {
      if (*v > 0 && *v % *dims[i] != 0) bad = std::pair<int64_t, std::string>{*v, ""};
    } else {
      for (const Env& env : c.facts.samples()) {
        auto v = c.eval().eval(g, &env);
        if (v && *v > 0 && *v % *dims[i] != 0) {
          bad = std::pair<int64_t, std::string>{*v, " for " + describe(c.m, env, k.shape_symbols)};
          break;
        }
      }
    }
    if (!bad) continue;
    static constexpr const char* kAxis[] = {"x", "y", "z"};
    Diagnostic d = make_diagnostic(DiagId::BadCluster, g == kNone ? k.grid_range : c.expr_range(g),
                                   "grid " + std::string(kAxis[std::min<size_t>(i, 2)]) + " is " +
                                       std::to_string(bad->first) + bad->second + ", not a multiple of the cluster's " +
                                       std::to_string(*dims[i]) + ": the launch would fail");
    d.related.push_back({c.expr_range(k.cluster[i]), "cluster dimension"});
    c.push(std::move(d), clustered);
  }
}

}  // namespace

void check_launch_shape(const ResourceContext& c) {
  const Kernel& k = c.kernel();
  block_size(c, k);
  grid(c, k);
  cluster(c, k);
}

}  // namespace cake
