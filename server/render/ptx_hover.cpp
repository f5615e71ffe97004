// The PTX a .cake line became, for the hover: "PTX for sm_80 on this line:
// `ld.global.f32` × 128, ...", the opcodes in the order they first appear.
#include "render.h"

namespace cake::render {

std::string ptx_hover_markdown(std::string_view target, const std::vector<std::pair<std::string, int>>& ops) {
  constexpr size_t kShown = 10;
  int total = 0;
  for (const auto& [op, n] : ops) total += n;
  std::string out = "**PTX** for " + std::string(target) + " on this line (" + std::to_string(total) +
                    (total == 1 ? " instruction" : " instructions") + "): ";
  for (size_t i = 0; i < ops.size() && i < kShown; ++i)
    out += (i ? ", " : "") + std::string("`") + ops[i].first + "`" + (ops[i].second > 1 ? " × " + std::to_string(ops[i].second) : "");
  if (ops.size() > kShown) out += ", and " + std::to_string(ops.size() - kShown) + " more opcodes";
  return out;
}

}  // namespace cake::render
