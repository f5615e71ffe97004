// finish_diagnostics(): the last step of every analysis (analyze(),
// Document): drops what follows an unclosed `/*`, sorts, removes repeats.
#pragma once

#include "cake/diagnostic.h"

#include <vector>

namespace cake {

void finish_diagnostics(std::vector<Diagnostic>& diagnostics);

}  // namespace cake
