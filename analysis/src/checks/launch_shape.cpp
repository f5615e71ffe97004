// E0305 (block size), E0310 (grid dims) and E0309 (cluster shape): the
// launch shape against each listed target's limits (resources.h).
//   - block size: at most the target's threads per block, a multiple of the
//     warp size;
//   - grid dims: positive for every shape the facts allow (the bench shapes
//     and the facts' extreme values, the kernel's samples);
//   - cluster shape: dims positive, their product within the portable size,
//     or the non-portable one with `nonportable` (a fix adds it), and every
//     grid dim a multiple of its cluster dim; with `cta_group 2`, a cluster
//     of an even number of CTAs (its pairs are ranks 2i and 2i + 1).
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
        Diagnostic d = t <= 0        ? make_diagnostic(DiagForm::BlockSizeEmpty, at, t)
                       : t > key.max ? make_diagnostic(DiagId::BadBlockSize, at, t, key.max, target_list(group))
                                     : make_diagnostic(DiagForm::BlockSizeWarp, at, t, key.warp);
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
        c.push(make_diagnostic(DiagId::BadGrid, c.m.exprs[dim].range, c.m.written(c.m.exprs[dim].range), *v));
      continue;
    }
    for (const Env& env : c.facts.samples()) {
      auto v = c.eval().eval(dim, &env);
      if (!v || *v > 0) continue;
      c.push(make_diagnostic(DiagForm::GridSample, c.m.exprs[dim].range, c.m.written(c.m.exprs[dim].range), *v,
                             describe(c.m, env, k.shape_symbols)));
      break;
    }
  }
}

/// `cta_group 2`: the pairs are CTAs of one cluster, so it needs a cluster
/// of an even number of CTAs.
void cta_pairs(const ResourceContext& c, const Kernel& k) {
  if (k.cta_group != 2) return;
  if (k.cluster.empty()) {
    Diagnostic d = make_diagnostic(DiagForm::CtaPairNoCluster, k.cta_group_range);
    d.fixes.push_back({"add `cluster (2)`", {{{k.cta_group_range.begin, k.cta_group_range.begin}, "cluster (2) "}}, true});
    c.push(std::move(d));
    return;
  }
  std::optional<int64_t> product = 1;
  for (ExprId d : k.cluster) {
    auto v = c.eval().fold(d);
    product = v && product ? checked_mul(*product, *v) : std::nullopt;
  }
  if (!product || *product <= 0 || *product % 2 == 0) return;
  Diagnostic d = make_diagnostic(DiagForm::CtaPairOddCluster, k.cluster_range, *product);
  d.related.push_back({k.cta_group_range, "CTA pairs"});
  c.push(std::move(d));
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
      c.push(make_diagnostic(DiagForm::ClusterDim, c.expr_range(d), *v), clustered);
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
          Diagnostic d = p > key.nonportable
                             ? make_diagnostic(DiagForm::ClusterNonportable, k.cluster_range, p, key.nonportable,
                                               target_list(group), first.cluster_max_nonportable.src)
                             : make_diagnostic(DiagId::BadCluster, k.cluster_range, p, key.portable,
                                               target_list(group), first.cluster_max_portable.src, key.nonportable);
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
          bad = std::pair<int64_t, std::string>{*v, describe(c.m, env, k.shape_symbols)};
          break;
        }
      }
    }
    if (!bad) continue;
    static constexpr const char* kAxis[] = {"x", "y", "z"};
    ByteRange where = g == kNone ? k.grid_range : c.expr_range(g);
    std::string_view axis = kAxis[std::min<size_t>(i, 2)];
    Diagnostic d = bad->second.empty()
                       ? make_diagnostic(DiagForm::ClusterGrid, where, axis, bad->first, *dims[i])
                       : make_diagnostic(DiagForm::ClusterGridSample, where, axis, bad->first, bad->second, *dims[i]);
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
  cta_pairs(c, k);
}

}  // namespace cake
