// The semantic checks that run over a built model, in order. Each check is a
// function in its own file; run_checks() calls them all.
#pragma once

#include "cake/analyze.h"

namespace cake {

void run_checks(const Module& module, std::string_view text, const AnalyzeOptions& options,
                std::vector<Diagnostic>& diagnostics);

}  // namespace cake
