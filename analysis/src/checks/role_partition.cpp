// E0306 (roles partition the block's warps) and E0307 (warpgroup-wide ops
// on whole warpgroups). The partition and its problems are the kernel's
// facts (RolePartition, cake/kernel_facts.h): each role's warps inside the
// block, no warp in two roles, no warp in none. This file words them, and
// checks that a role that issues wgmma or sets maxnreg covers whole
// warpgroups.
#include "checks/resources.h"
#include "diag_builder.h"
#include "cake/fragments.h"

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
      c.push(make_diagnostic(DiagForm::PartitionNoWarps, problem.at, c.m.written(problem.at),
                             problem.warpgroups ? "warpgroup" : "warp"));
      return;
    case Kind::Beyond: {
      Diagnostic d = make_diagnostic(
          DiagForm::PartitionBeyond, problem.at, c.m.written(problem.at),
          warp_text(warp_range_mask(problem.lo, problem.hi)) + (problem.hi > 64 ? "+" : ""), p.warps,
          c.facts.threads().value_or(0));
      if (k.block_range.end > 0) d.related.push_back({k.block_range, "block size"});
      c.push(std::move(d));
      return;
    }
    case Kind::Twice:
      c.push(make_diagnostic(DiagForm::PartitionTwice, problem.at, p.roles[problem.role].name,
                             warp_text(problem.mask)));
      return;
    case Kind::Overlap: {
      const RolePlan& other = p.roles[problem.other];
      Diagnostic d = make_diagnostic(DiagId::RolePartition, problem.at, warp_text(problem.mask),
                                     p.roles[problem.role].name, other.name);
      d.related.push_back({other.spec, "role `" + role_name(other) + "`"});
      c.push(std::move(d));
      return;
    }
    case Kind::AllAfterOthers: {
      const RolePlan& other = p.roles[problem.other];
      Diagnostic d = make_diagnostic(DiagForm::PartitionAllAfterOthers, problem.at, p.roles[problem.role].name,
                                     other.name, warp_text(problem.mask));
      d.related.push_back({other.spec, "role `" + role_name(other) + "`"});
      c.push(std::move(d));
      return;
    }
    case Kind::Unowned: {
      Diagnostic d = make_diagnostic(DiagForm::PartitionUnowned, problem.at, warp_text(problem.mask), p.warps);
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
    std::string who = p.has_roles ? "role `" + std::string(r.name) + "`" : "the block";
    ByteRange at = p.has_roles ? r.spec : (k.block_range.end > 0 ? k.block_range : r.header);
    Diagnostic d = wgmma ? make_diagnostic(DiagId::WarpgroupAlignment, at, who, warp_text(r.mask & split),
                                           warp_text(split))
                         : make_diagnostic(DiagForm::WarpgroupMaxnreg, at, who, warp_text(r.mask & split),
                                           warp_text(split));
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
