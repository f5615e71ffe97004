// SARIF 2.1.0 output for `cake check --format sarif`: one run whose tool
// driver lists every rule of the registry (id, summary, docs page, default
// level), and one result per diagnostic with its location, related
// locations and fixes. Regions are 1-based; columns count UTF-16 code units
// (the run says so with "columnKind": "utf16CodeUnits").
#pragma once

#include "cake/diagnostic.h"
#include "convert.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cake {

/// Where a checked document is, as SARIF names it.
struct SarifArtifact {
  std::string uri;          // a file:// URI, or relative to uri_base_id
  std::string uri_base_id;  // "SRCROOT" for a relative uri; else empty
};

struct SarifOptions {
  std::string tool_version;
  std::string docs_root;  // absolute; gives helpUri and informationUri
  std::string src_root;   // file:// URI of the base of relative paths, ending in '/'
};

/// A problem of the run itself (an unreadable file), not of a document.
struct SarifNotification {
  std::string message;
  SarifArtifact artifact;
};

/// The SARIF `result` objects for one document's diagnostics.
nlohmann::ordered_json sarif_results(const std::vector<Diagnostic>& diagnostics, const SarifArtifact& artifact,
                             const PositionConverter& positions,
                             const std::vector<std::string>& file_targets);

/// The whole log: one run holding `results` (concatenated from
/// sarif_results) and the notifications.
nlohmann::ordered_json sarif_log(nlohmann::ordered_json results, const std::vector<SarifNotification>& notifications,
                         const SarifOptions& options);

}  // namespace cake
