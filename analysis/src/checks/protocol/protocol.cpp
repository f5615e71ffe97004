// check_protocol(): the E04xx protocol and E06xx race rules that need a
// simulation. For each kernel it chooses a shape among its facts' samples (simulation_env), runs the
// simulator (sync/simulate.cpp) to get a ProtocolTrace and hands the trace to
// each rule of protocol_checks.h. A kernel whose roles or shape are unknown
// gets no verdict; an aborted simulation only verdicts on what it saw.
#include "checks/checks.h"
#include "checks/protocol/protocol_checks.h"
#include "cake/kernel_facts.h"
#include "sync/simulate.h"

namespace cake {

std::string barrier_text(const Module& m, BarrierKey key) {
  const Symbol& s = m.symbols[key.symbol];
  std::string t(s.name);
  if (s.value != kNone) t += "[" + std::to_string(key.index) + "]";
  return t;
}

std::string slot_text(const Module& m, SlotKey slot) {
  std::string t(m.symbols[slot.symbol].name);
  if (slot.stage >= 0) t += "[" + std::to_string(slot.stage) + "]";
  return t;
}

void add_decl_note(const Module& m, Diagnostic& d, SymbolId symbol) {
  d.related.push_back({m.symbols[symbol].decl, "declared here"});
}

void check_protocol(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics) {
  for (uint32_t k = 0; k < module.kernels.size(); ++k) {
    const KernelFacts& kf = facts.kernel(k);
    const auto& roles = kf.roles();
    if (!roles) continue;
    auto env = simulation_env(kf);
    if (!env) continue;
    ProtocolTrace trace = simulate_protocol(module, k, *roles, std::move(*env));
    size_t first = diagnostics.size();
    ProtocolContext cx{module, trace, diagnostics};
    check_arrivals(cx);
    check_tx_bytes(cx);
    check_deadlock(cx);
    check_races(cx);
    check_async_groups(cx);
    check_tmem_lanes(cx);
    check_multicast(cx);
    check_pairs(cx);
    check_phases(cx);
    // In a cluster the trace shows one CTA: say which, when it is not the first.
    if (trace.shown_cta != 0)
      for (size_t i = first; i < diagnostics.size(); ++i)
        diagnostics[i].related.push_back({module.kernels[k].cluster_range,
                                          "seen in the CTA with cluster.rank = " + std::to_string(trace.shown_cta)});
  }
}

}  // namespace cake
