// E0303 (maxnreg values), E0302 (the roles' budgets against the CTA's
// register pool) and E0304 (each role's fragments against its budget). The
// numbers are the kernel's register plan (cake/kernel_facts.h):
//   - `maxnreg` a multiple of the step within the range (E0303);
//   - the roles' budgets (maxnreg, or the entry count for roles without
//     one) times their threads within the CTA's pool
//     ⌊regs per block ÷ (unit · T)⌋ · unit · T, unit = registers a warp
//     allocates per thread (E0302);
//   - each role's fragments (E0304). A fragment's cost per thread is its
//     elements ÷ the threads of its owner × its 32-bit words per element,
//     rounded up (cake/fragments.h): the owner of `wgmma_acc` is a
//     warpgroup (4 warps), of `mma_acc` and `tcgen05_acc` a warp, of a plain
//     `reg` each thread. A row vector (`mma_acc.row`, `wgmma_acc.row`) has
//     one value per accumulator row, and each row is held by the 4 threads
//     (a quad) that hold that row of the accumulator, so it costs rows × 4 ÷
//     owner threads × words. A role's fragments are summed (all assumed live
//     at once) and kRegisterOverhead added for addresses, indices and loop
//     counters. The budget is the role's maxnreg where the target has
//     setmaxnreg, else the most a thread of this block can have:
//     min(max registers per thread, ⌊regs per block ÷ (unit · T)⌋ · unit).
#include "checks/resources.h"
#include "diag_builder.h"
#include "cake/fragments.h"

#include <algorithm>
#include <string>

namespace cake {

void check_registers(const ResourceContext& c) {
  const RolePartition& p = c.facts.partition();
  const std::vector<RolePlan>& roles = p.roles;
  // A block of more than 64 warps is E0305; its registers are not checked.
  bool block_ok = p.block_ok;
  // maxnreg values (E0303), on targets with setmaxnreg (the others get E0203).
  TargetSet setmax = with_feature(c.listed, Feature::Setmaxnreg);
  bool maxnreg_ok = true;
  for (const RolePlan& r : roles) {
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
          std::string_view src = target_at(std::countr_zero(group.bits)).maxnreg_min.src;
          Diagnostic d =
              v < key.min || v > key.max
                  ? make_diagnostic(DiagId::BadMaxnreg, r.maxnreg_value, v, key.min, key.max, key.step, src)
                  : make_diagnostic(DiagForm::MaxnregStep, r.maxnreg_value, v, key.min, key.max, key.step, src);
          int64_t fixed = std::clamp(key.step > 0 ? v - ((v % key.step) + key.step) % key.step : v, key.min, key.max);
          d.fixes.push_back(
              {"use maxnreg(" + std::to_string(fixed) + ")", {{r.maxnreg_value, std::to_string(fixed)}}, true});
          c.push(std::move(d), group);
        });
  }
  if (!block_ok) return;
  int64_t t = *c.facts.threads();
  // The pool (E0302), when some role sets maxnreg.
  bool any_maxnreg = std::any_of(roles.begin(), roles.end(), [](const RolePlan& r) { return r.maxnreg.has_value(); });
  bool all_known = std::all_of(roles.begin(), roles.end(), [](const RolePlan& r) { return r.known; });
  if (any_maxnreg && maxnreg_ok && all_known) {
    struct Key {
      int64_t pool, need;
      size_t biggest;
      bool operator==(const Key&) const = default;
    };
    group_targets<Key>(
        setmax,
        [&](const TargetInfo& info) -> std::optional<Key> {
          const RegisterPlan& plan = c.facts.on(info).registers;
          if (plan.unit <= 0) return std::nullopt;
          int64_t entry = plan.pool / t;
          int64_t need = 0;
          size_t biggest = 0;
          int64_t biggest_regs = -1;
          for (size_t i = 0; i < roles.size(); ++i) {
            int64_t per = roles[i].maxnreg.value_or(entry);
            int64_t regs = per * plan.roles[i].threads;
            need += regs;
            if (roles[i].maxnreg && regs > biggest_regs) biggest = i, biggest_regs = regs;
          }
          if (need <= plan.pool) return std::nullopt;
          return Key{plan.pool, need, biggest};
        },
        [&](TargetSet group, Key key) {
          const TargetInfo& info = target_at(std::countr_zero(group.bits));
          int64_t entry = key.pool / t;
          std::string terms;
          for (const RolePlan& r : roles)
            terms += (terms.empty() ? "" : " + ") + std::to_string(r.maxnreg.value_or(entry)) + " × " +
                     std::to_string(r.threads(info.warp_size.value));
          const RolePlan& big = roles[key.biggest];
          Diagnostic d = make_diagnostic(DiagId::RegisterPoolOverflow, big.maxnreg_value, key.need, terms, key.pool, t,
                                         target_list(group), info.max_regs_per_block.src);
          for (const RolePlan& r : roles)
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
              d.fixes.push_back(
                  {"use maxnreg(" + std::to_string(fit) + ")", {{big.maxnreg_value, std::to_string(fit)}}, false});
          }
          c.push(std::move(d), group);
        });
  }
  // Fragments per role (E0304).
  for (size_t ri = 0; ri < roles.size(); ++ri) {
    const RolePlan& r = roles[ri];
    if (r.fragments.empty()) continue;
    struct Key {
      int64_t need, budget;
      size_t crossing;
      bool from_maxnreg;
      bool operator==(const Key&) const = default;
    };
    group_targets<Key>(
        c.listed,
        [&](const TargetInfo& info) -> std::optional<Key> {
          const RegisterPlan& plan = c.facts.on(info).registers;
          if (plan.unit <= 0) return std::nullopt;
          const RoleRegisters& rr = plan.roles[ri];
          // The fragment, in declaration order, that takes the need over the budget.
          int64_t need = kRegisterOverhead;
          size_t crossing = rr.fragments.size();
          for (size_t i = 0; i < rr.fragments.size(); ++i) {
            need = std::min<int64_t>(need + rr.fragments[i], INT64_MAX / 4);
            if (need > rr.budget && crossing == rr.fragments.size()) crossing = i;
          }
          if (crossing == rr.fragments.size()) return std::nullopt;
          return Key{rr.need, rr.budget, crossing, rr.from_maxnreg};
        },
        [&](TargetSet group, Key key) {
          const RoleRegisters& rr = c.facts.on(target_at(std::countr_zero(group.bits))).registers.roles[ri];
          std::vector<std::pair<int64_t, size_t>> costs;
          for (size_t i = 0; i < rr.fragments.size(); ++i) costs.push_back({rr.fragments[i], i});
          std::stable_sort(costs.begin(), costs.end(), [](auto& a, auto& b) { return a.first > b.first; });
          std::string parts;
          for (size_t i = 0; i < costs.size() && i < 3; ++i)
            parts += std::string(c.m.symbols[r.fragments[costs[i].second].symbol].name) + " " +
                     std::to_string(costs[i].first) + " + ";
          if (costs.size() > 3) parts += "... + ";
          std::string who = r.stmt == kNone ? "`" + std::string(r.name) + "`" : "role `" + std::string(r.name) + "`";
          const Symbol& at = c.m.symbols[r.fragments[key.crossing].symbol];
          Diagnostic d = key.from_maxnreg ? make_diagnostic(DiagId::FragmentRegisters, at.def, who, key.need, parts,
                                                            kRegisterOverhead, key.budget, at.name)
                                          : make_diagnostic(DiagForm::FragmentRegistersBlock, at.def, who, key.need,
                                                            parts, kRegisterOverhead, key.budget, t,
                                                            target_list(group), at.name);
          for (size_t i = 0; i < costs.size() && i < 3; ++i) {
            const Symbol& s = c.m.symbols[r.fragments[costs[i].second].symbol];
            d.related.push_back(
                {s.decl, "`" + std::string(s.name) + "`: " + std::to_string(costs[i].first) + " registers per thread"});
          }
          if (key.from_maxnreg) d.related.push_back({r.maxnreg_value, "the role's budget"});
          c.push(std::move(d), group);
        });
  }
}

}  // namespace cake
