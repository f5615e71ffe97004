// A cake::Diagnostic as an LSP `Diagnostic` JSON object: range in 0-based
// lines and UTF-16 characters, severity 1-4, the rule's code with a link to
// its docs page, related information, and cake's extras under `data`
// (the targets it concerns and its machine-applicable fixes). The same
// object serves `cake check --format json` and, later, cake-lsp. Objects are
// ordered_json, so keys print in the order the LSP specification lists them.
#pragma once

#include "cake/diagnostic.h"
#include "convert.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace cake {

/// What a diagnostic needs to know about the document it belongs to.
struct DocumentContext {
  std::string uri;                        // the document's URI
  const PositionConverter* positions;     // over the checked text
  std::vector<std::string> file_targets;  // for diagnostics that name none
};

/// The file:// URI of a rule's page, `<docs_root>/rules/<code>.md`;
/// empty when `docs_root` is.
std::string rule_docs_uri(std::string_view docs_root, std::string_view code);

nlohmann::ordered_json lsp_range_json(const LspRange& range);

/// The LSP Diagnostic for `diagnostic`; `docs_root` is an absolute path.
nlohmann::ordered_json diagnostic_to_json(const Diagnostic& diagnostic, const DocumentContext& document,
                                  std::string_view docs_root);

/// Serialises JSON for output: invalid UTF-8 in strings (copied from the
/// checked text) becomes U+FFFD rather than an exception.
std::string dump_json(const nlohmann::ordered_json& value, int indent = 2);

}  // namespace cake
