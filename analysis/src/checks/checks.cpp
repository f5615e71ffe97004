// run_checks(): the check pipeline. Checks read the model and the kernels'
// facts (cake/kernel_facts.h, built once here); each appends its
// diagnostics. Order does not matter: analyze() sorts the result.
#include "checks/checks.h"

#include "cake/kernel_facts.h"

namespace cake {

void check_items(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_bench_references(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_statements(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics);
void check_target_features(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_resources(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics);
void check_movement(const Module& module, const FactsCache& facts,
                    std::vector<Diagnostic>& diagnostics);
void check_dispatches(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_fragment_order(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_protocol(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics);
void check_sync_static(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics);
void check_role_races(const Module& module, const FactsCache& facts, std::vector<Diagnostic>& diagnostics);
void check_divergent_fragments(const Module& module, std::vector<Diagnostic>& diagnostics);
void check_performance(const Module& module, const FactsCache& facts,
                       const AnalyzeOptions& options, std::vector<Diagnostic>& diagnostics);

void run_checks(const Module& module, const AnalyzeOptions& options,
                std::vector<Diagnostic>& diagnostics) {
  // Each kernel's facts (roles, layouts, plans, samples), computed once for
  // every check and the cost model that need them.
  FactsCache facts(module);
  check_items(module, diagnostics);
  check_bench_references(module, diagnostics);
  check_statements(module, facts, diagnostics);
  check_target_features(module, diagnostics);
  check_resources(module, facts, diagnostics);
  check_movement(module, facts, diagnostics);
  check_fragment_order(module, diagnostics);
  check_dispatches(module, diagnostics);
  check_protocol(module, facts, diagnostics);
  check_sync_static(module, facts, diagnostics);
  check_role_races(module, facts, diagnostics);
  check_divergent_fragments(module, diagnostics);
  check_performance(module, facts, options, diagnostics);
}

}  // namespace cake
