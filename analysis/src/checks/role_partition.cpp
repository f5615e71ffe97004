// E0306 (roles partition the block's warps) and E0307 (warpgroup-wide ops
// on whole warpgroups). The partition and its problems are the kernel's
// facts (RolePartition, facts/kernel_facts.h): each role's warps inside the
// block, no warp in two roles, no warp in none. This file words them, and
// checks that a role that issues wgmma or sets maxnreg covers whole
// warpgroups.
#include "checks/resources.h"
#include "diag_builder.h"
#include "semantics/fragments.h"

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

std::string role_name(const RolePlan& r) { return std::string(r.name); }

void partition_problem(const ResourceContext& c, const RolePartition& p, const PartitionProblem& problem) {
  const Kernel& k = c.kernel();
  using Kind = PartitionProblem::Kind;
  switch (problem.kind) {
    case Kind::NoWarps:
      c.push(make_diagnostic(DiagId::RolePartition, problem.at,
                             "`" + std::string(c.m.written(problem.at)) + "` names no " +
                                 (problem.warpgroups ? "warpgroup" : "warp") + ": a range `a .. b` is half-open"));
      return;
    case Kind::Beyond: {
      Diagnostic d =
          make_diagnostic(DiagId::RolePartition, problem.at,
                          "`" + std::string(c.m.written(problem.at)) + "` is " +
                              warp_text(warp_range_mask(problem.lo, problem.hi)) + (problem.hi > 64 ? "+" : "") +
                              ", but the block has " + std::to_string(p.warps) + " warps (" +
                              std::to_string(c.facts.threads().value_or(0)) + " threads)");
      if (k.block_range.end > 0) d.related.push_back({k.block_range, "block size"});
      c.push(std::move(d));
      return;
    }
    case Kind::Twice:
      c.push(make_diagnostic(
          DiagId::RolePartition, problem.at,
          "role `" + role_name(p.roles[problem.role]) + "` lists " + warp_text(problem.mask) + " twice"));
      return;
    case Kind::Overlap: {
      const RolePlan& other = p.roles[problem.other];
      Diagnostic d = make_diagnostic(DiagId::RolePartition, problem.at,
                                     warp_text(problem.mask) + " of role `" + role_name(p.roles[problem.role]) +
                                         "` already belong to role `" + role_name(other) +
                                         "`: roles partition the warps, with no overlap");
      d.related.push_back({other.spec, "role `" + role_name(other) + "`"});
      c.push(std::move(d));
      return;
    }
    case Kind::AllAfterOthers: {
      const RolePlan& other = p.roles[problem.other];
      Diagnostic d = make_diagnostic(DiagId::RolePartition, problem.at,
                                     "role `" + role_name(p.roles[problem.role]) + "` is `all`, but role `" +
                                         role_name(other) + "` already has " + warp_text(problem.mask));
      d.related.push_back({other.spec, "role `" + role_name(other) + "`"});
      c.push(std::move(d));
      return;
    }
    case Kind::Unowned: {
      Diagnostic d = make_diagnostic(DiagId::RolePartition, problem.at,
                                     warp_text(problem.mask) + " of the block's " + std::to_string(p.warps) +
                                         " belong to no role: roles partition the warps (give idle warps an "
                                         "empty role, or shrink the block)");
      for (size_t i = 0; i < p.roles.size() && i < 8; ++i)
        d.related.push_back({p.roles[i].spec, "role `" + role_name(p.roles[i]) + "`: " + warp_text(p.roles[i].mask)});
      c.push(std::move(d));
      return;
    }
  }
}

void warpgroup_alignment(const ResourceContext& c, const RolePartition& p) {
  const Kernel& k = c.kernel();
  for (const RolePlan& r : p.roles) {
    if (!r.known || !r.mask || r.beyond) continue;
    bool wgmma = r.first_wgmma != kNone;
    TargetSet setmax = r.maxnreg ? with_feature(c.listed, Feature::Setmaxnreg) : TargetSet{};
    if (!wgmma && setmax.empty()) continue;
    uint64_t split = 0;
    for (int g = 0; g < 64; g += kWarpsPerWarpgroup) {
      uint64_t group = warp_range_mask(g, g + kWarpsPerWarpgroup);
      if ((r.mask & group) && (r.mask & group) != group) split |= group;
    }
    if (!split) continue;
    std::string what = wgmma ? "issues `wgmma`" : "sets `maxnreg`";
    std::string who = p.has_roles ? "role `" + std::string(r.name) + "`" : "the block";
    Diagnostic d = make_diagnostic(
        DiagId::WarpgroupAlignment, p.has_roles ? r.spec : (k.block_range.end > 0 ? k.block_range : r.header),
        who + " " + what + " but has only " + warp_text(r.mask & split) + " of " + warp_text(split) +
            ": warpgroup-wide instructions (" + (wgmma ? "wgmma" : "setmaxnreg") +
            ") run on 4 whole warps starting at a multiple of 4");
    if (wgmma)
      d.related.push_back({c.m.stmts[r.first_wgmma].keyword, "warpgroup-wide op here"});
    else
      d.related.push_back({r.maxnreg_value, "maxnreg here"});
    if (!wgmma) set_targets(d, setmax);
    c.push(std::move(d));
  }
}

}  // namespace

void check_role_partition(const ResourceContext& c) {
  const RolePartition& p = c.facts.partition();
  for (const PartitionProblem& problem : p.problems) partition_problem(c, p, problem);
  warpgroup_alignment(c, p);
}

}  // namespace cake
