// Diagnostics as LSP JSON, for both ways of delivering them: pushed
// (textDocument/publishDiagnostics, by the server after edits) or pulled
// (textDocument/diagnostic, when the client advertises it). Never both.
#pragma once

#include "feature.h"

namespace cake::lsp {

/// True when the client pulls diagnostics (textDocument.diagnostic).
bool client_pulls_diagnostics(const json& client_capabilities);

/// `diagnostics` (the verifier's, of the current text) and the compiler's
/// facts when they are of the current version.
std::vector<Diagnostic> with_compiled(const OpenDocument& document, const std::vector<Diagnostic>& diagnostics);

/// The LSP Diagnostic objects for a document's current diagnostics.
json diagnostics_json(Context& context, OpenDocument& document, const std::vector<Diagnostic>& diagnostics);

}  // namespace cake::lsp
