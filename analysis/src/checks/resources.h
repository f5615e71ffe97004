// The resource checks (E03xx): what one CTA of each kernel asks of the SM,
// against each listed target's limits from the architecture tables
// (cake/arch.h). A limit is never a literal here, and what the kernel asks
// (its shared-memory layout, role partition, register and tensor-memory
// plans) is never recomputed here: each rule reads the kernel's facts
// (cake/kernel_facts.h) and words what exceeds a limit. One file per topic:
//   - launch_shape.cpp: block size (E0305), grid dims (E0310), cluster shape (E0309);
//   - smem_limit.cpp: shared memory (E0301);
//   - role_partition.cpp: roles (E0306), warpgroup-wide ops (E0307);
//   - registers.cpp: maxnreg (E0303), the register pool (E0302), fragments (E0304);
//   - tmem_alloc.cpp: tensor memory (E0308);
//   - barrier_limits.cpp: named barriers (E0311), mbarrier counts and transaction bytes (E0312).
// resources.cpp runs them over every kernel. A value that is not a
// compile-time constant is skipped (E0112 reports it). Everything is linear
// in the kernel's statements.
#pragma once

#include "checks/arch_support.h"
#include "cake/kernel_facts.h"

#include <string_view>
#include <vector>

namespace cake {

/// What every resource rule reads: the module, the kernel's facts and the
/// listed targets; push() adds a diagnostic for a group of targets.
struct ResourceContext {
  const Module& m;
  std::vector<Diagnostic>& diags;
  const KernelFacts& facts;
  TargetSet listed;

  const Kernel& kernel() const { return m.kernels[facts.kernel()]; }
  const Evaluator& eval() const { return facts.evaluator(); }
  ByteRange expr_range(ExprId e) const { return e == kNone ? ByteRange{} : m.exprs[e].range; }
  void push(Diagnostic d, std::optional<TargetSet> targets = std::nullopt) const {
    if (targets) set_targets(d, *targets);
    diags.push_back(std::move(d));
  }
  std::string kernel_name() const {
    const Kernel& k = kernel();
    return k.symbol == kNone ? std::string("kernel") : std::string(m.symbols[k.symbol].name);
  }
};

void check_launch_shape(const ResourceContext& c);
void check_smem_limit(const ResourceContext& c);
void check_role_partition(const ResourceContext& c);
void check_registers(const ResourceContext& c);
void check_tmem_alloc(const ResourceContext& c);
void check_barrier_limits(const ResourceContext& c);

}  // namespace cake
