// check_resources(): the E03xx driver (resources.h). For every kernel, the
// resource rules, one file per topic, each reading the kernel's facts from
// the analysis's FactsCache.
#include "checks/resources.h"

namespace cake {

void check_resources(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  TargetSet listed = listed_targets(module);
  if (listed.empty()) return;
  // The warp size splits the block into warps; every table says 32.
  if (target_at(std::countr_zero(listed.bits)).warp_size.value <= 0) return;
  for (uint32_t k = 0; k < module.kernels.size(); ++k) {
    ResourceContext c{module, diagnostics, facts.kernel(k), listed};
    check_launch_shape(c);
    check_smem_limit(c);
    check_tmem_alloc(c);
    check_barrier_limits(c);
    check_role_partition(c);
    check_registers(c);
  }
}

}  // namespace cake
