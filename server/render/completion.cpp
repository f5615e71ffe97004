// Completion item details (render.h).
#include "render.h"

namespace cake::render {

std::string completion_detail(const CompletionCandidate& c) {
  if (c.kind != CompletionCandidate::Kind::Dim) return c.detail;
  return std::string(c.stage_dim ? "stage dim " : "dim ") + std::to_string(c.dim) + " of `" + c.buffer + "`";
}

}  // namespace cake::render
