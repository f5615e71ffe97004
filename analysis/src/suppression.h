// Suppression comments: `// cake: allow(CAKE-W0091, ...)` on the line of a
// warning, or on the line directly above it, silences warnings of those
// codes there. Errors are never silenced. The last pass of analyze(), after
// every check, so it sees every diagnostic.
#pragma once

#include "cake/diagnostic.h"
#include "cake/source.h"
#include "cake/syntax.h"

#include <string_view>
#include <vector>

namespace cake {

/// Removes the warnings (and infos and hints) that an allow comment of
/// `tree` silences, and adds the diagnostics about the comments themselves:
/// an allowed code that silences nothing (W0091, itself silenceable only by
/// an allow on the line above), and a malformed allow, an unknown code or an
/// error code (E0092).
void apply_suppressions(const SyntaxTree& tree, std::string_view text, const LineIndex& lines,
                        std::vector<Diagnostic>& diagnostics);

}  // namespace cake
