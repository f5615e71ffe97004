// Inlay hint labels of the cost model (render.h).
#include "render.h"
#include "units.h"

namespace cake::render {

std::string hint_label(const KernelCosts::Hint& h) {
  if (h.per_iteration)
    return "≈ " + micros(h.time_us, 3) + "/iteration · " + std::string(ring_bound(h.latency_bound, h.resource));
  return "≈ " + micros(h.time_us, 1) + " " + std::string(resource_name(h.resource)) + " · " +
         percent(100 * h.time_us / h.kernel_us);
}

}  // namespace cake::render
