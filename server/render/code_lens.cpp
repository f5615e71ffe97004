// Code lens titles (render.h).
#include "render.h"
#include "units.h"

namespace cake::render {

std::string lens_title(const KernelCosts::Lens& l) {
  if (!l.ok) {
    if (!l.iteration_us) return "cost: " + l.problem + " · " + l.device;
    return "≈ " + micros(*l.iteration_us, 3) + " per iteration (" + l.problem + ") · " + l.device;
  }
  std::string shape = shape_text(l.shape);
  return "≈ " + micros(l.time_us, 1) + " · " + bound_text(l.bound, l.utilisation) + " · " + l.device +
         (shape.empty() ? "" : " · " + shape);
}

}  // namespace cake::render
