// The semantic checks that run over a built model, in order. Each check is a
// function in its own file; run_checks() calls them all. Checks read the
// model only: they get no source text (Module::written() quotes a node).
#pragma once

#include "cake/analyze.h"

namespace cake {

void run_checks(const Module& module, const AnalyzeOptions& options, std::vector<Diagnostic>& diagnostics);

}  // namespace cake
