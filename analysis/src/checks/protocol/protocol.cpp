// check_protocol(): the E04xx protocol and E06xx race rules that need a
// simulation. For each kernel it chooses a shape among its facts' samples (simulation_env), runs the
// simulator (sync/simulate.cpp) to get a ProtocolTrace and hands the trace to
// each rule of protocol_checks.h. A kernel whose roles or shape are unknown
// gets no verdict; an aborted simulation only verdicts on what it saw.
#include "checks/checks.h"
#include "checks/protocol/protocol_checks.h"
#include "cake/arch.h"
#include "cake/eval.h"
#include "cake/kernel_facts.h"
#include "sync/simulate.h"

#include <algorithm>
#include <set>
#include <string>

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

std::optional<Fix> role_barrier_fix(const Module& m, const ProtocolTrace& t, const RoleView& role, const Stmt& before,
                                    std::string_view where) {
  // Not every thread of the role may reach a barrier under an `if`.
  for (StmtId p = before.parent; p != kNone && p != role.stmt; p = m.stmts[p].parent)
    if (std::holds_alternative<IfStmt>(m.stmts[p].node)) return std::nullopt;
  auto line_before = [&](const Stmt& s, const std::string& text) {
    return TextEdit{{s.range.begin, s.range.begin}, text + "\n" + std::string(m.indent_at(s.range.begin))};
  };
  // Without roles the block is the role.
  if (role.name.empty() || role.stmt == kNone)
    return Fix{"insert `syncthreads` " + std::string(where), {line_before(before, "syncthreads")}, true};
  Evaluator eval(m);
  std::set<int64_t> taken;
  std::set<std::string_view> names;
  for (const Symbol& s : m.symbols) {
    names.insert(s.name);
    if (s.kind == SymbolKind::NamedBarrier && s.kernel == t.kernel)
      if (auto id = eval.fold(s.id)) taken.insert(*id);
  }
  // The ids every listed target has (arch tables: 1..15 on each so far).
  int64_t first = 0, last = -1;
  bool any = false;
  for (const Target& listed : m.targets) {
    const TargetInfo* info = find_target(listed.name);
    if (!info || !info->named_barrier_first_id.known() || !info->named_barrier_last_id.known()) continue;
    first = any ? std::max(first, info->named_barrier_first_id.value) : info->named_barrier_first_id.value;
    last = any ? std::min(last, info->named_barrier_last_id.value) : info->named_barrier_last_id.value;
    any = true;
  }
  int64_t id = first;
  while (id <= last && taken.count(id)) ++id;
  if (id > last) return std::nullopt;
  std::string name = std::string(role.name) + "_sync";
  for (int n = 2; names.count(name); ++n) name = std::string(role.name) + "_sync" + std::to_string(n);
  return Fix{"insert `sync " + name + "` (a named barrier of role `" + std::string(role.name) + "`) " + std::string(where),
             {line_before(m.stmts[role.stmt],
                          "namedbarrier " + name + " id(" + std::to_string(id) + ") threads(" + std::to_string(role.threads()) + ")"),
              line_before(before, "sync " + name)},
             true};
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
