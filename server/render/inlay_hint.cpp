// Inlay hint labels: the cost model's on costly lines and pipelines, and
// buffer sizes and pipeline stages (render.h).
#include "render.h"
#include "units.h"

namespace cake::render {

std::string hint_label(const KernelCosts::Hint& h) {
  if (h.per_iteration)
    return "time ≈ " + micros(h.time_us, 3) + " per iteration · " + std::string(ring_bound(h.latency_bound, h.resource)) +
           "-bound";
  return "time ≈ " + micros(h.time_us, 1) + " on " + std::string(resource_name(h.resource)) + " · " +
         percent(100 * h.time_us / h.kernel_us) + " of kernel";
}

std::string hint_label(const InlayHintInfo& h) {
  switch (h.kind) {
    case InlayHintInfo::Kind::Size:
      return "size " + short_bytes(h.bytes) + (h.per_stage ? ", " + short_bytes(*h.per_stage) + " per stage" : "");
    case InlayHintInfo::Kind::Stage:
      return ": stage" + (h.stages ? " 0.." + std::to_string(*h.stages - 1) : std::string()) + ", phase " +
             std::string(h.name) + ".phase";
  }
  return {};
}

}  // namespace cake::render
