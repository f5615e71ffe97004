// textDocument/codeLens: on each kernel, its estimated time, what bounds it
// and the device, per bench shape (cake/cost.h), e.g.
// "≈ 41.2 µs · hbm-bound 78 % · H100-SXM5-80GB · N=4096". Shown for the
// file's first target that has a default device.
#include "cake/cost.h"
#include "feature.h"

#include <cstdio>

namespace cake::lsp {
namespace {

std::string fixed(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string title(const Estimate& e) {
  std::string shape;
  for (const auto& [name, value] : e.shape) shape += (shape.empty() ? "" : ", ") + std::string(name) + "=" + std::to_string(value);
  std::string device(e.device->id);
  if (!e.ok) {
    if (e.rings.empty()) return "cost: " + e.problem + " · " + device;
    return "≈ " + fixed(e.rings.front().iteration_us, 3) + " µs per iteration (" + e.problem + ") · " + device;
  }
  std::string bound = std::string(bound_name(e.bound)) + "-bound";
  if (e.bound < Bound::Latency) bound += " " + fixed(100 * e.resources[static_cast<size_t>(e.bound)].utilisation, 0) + " %";
  return "≈ " + fixed(e.time_us, 1) + " µs · " + bound + " · " + device + (shape.empty() ? "" : " · " + shape);
}

json code_lens(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  const DeviceInfo* device = nullptr;
  std::string target;
  for (const std::string& t : d.doc->targets())
    if ((device = default_device(t))) {
      target = t;
      break;
    }
  json lenses = json::array();
  if (!device) return lenses;
  const Module& m = d.doc->model();
  for (uint32_t k = 0; k < m.kernels.size(); ++k) {
    if (m.kernels[k].symbol == kNone) continue;
    ByteRange name = m.symbols[m.kernels[k].symbol].def;
    for (const Estimate& e : estimate_kernel(m, d.doc->text(), d.doc->lines(), k, target, *device))
      lenses.push_back({{"range", context.range(d, name)}, {"command", {{"title", title(e)}, {"command", ""}}}});
  }
  return lenses;
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/codeLens", code_lens,
                  [](const json&, json& caps) { caps["codeLensProvider"] = {{"resolveProvider", false}}; }});

}  // namespace cake::lsp
