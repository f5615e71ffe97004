// run_checks(): the check pipeline. Checks read the model only; each appends
// its diagnostics.
#include "checks/checks.h"

namespace cake {

void run_checks(const Module& module, std::string_view text, const AnalyzeOptions& options,
                std::vector<Diagnostic>& diagnostics) {
  (void)module, (void)text, (void)options, (void)diagnostics;
}

}  // namespace cake
