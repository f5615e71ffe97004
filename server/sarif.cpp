// Builds the SARIF 2.1.0 log (OASIS SARIF v2.1.0, §3.13 run, §3.27 result,
// §3.30 region, §3.55 fix). Positions come from PositionConverter only.
#include "sarif.h"

#include "cake/registry.h"
#include "diagnostic_json.h"

#include <algorithm>

namespace cake {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";

const char* sarif_level(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Information: return "note";
    case Severity::Hint: return "note";
  }
  return "note";
}

json artifact_location(const SarifArtifact& artifact) {
  json location = {{"uri", artifact.uri}};
  if (!artifact.uri_base_id.empty()) location["uriBaseId"] = artifact.uri_base_id;
  return location;
}

json region(ByteRange range, const PositionConverter& positions) {
  uint32_t begin = positions.clamp(range.begin);
  uint32_t end = std::max(begin, positions.clamp(range.end));
  TextPosition start = positions.utf16_text_position(begin);
  TextPosition stop = positions.utf16_text_position(end);
  return {{"startLine", start.line}, {"startColumn", start.column},
          {"endLine", stop.line},    {"endColumn", stop.column}};
}

json physical_location(ByteRange range, const SarifArtifact& artifact, const PositionConverter& positions) {
  return {{"physicalLocation", {{"artifactLocation", artifact_location(artifact)},
                                {"region", region(range, positions)}}}};
}

json fix_json(const Fix& fix, const SarifArtifact& artifact, const PositionConverter& positions) {
  json replacements = json::array();
  for (const TextEdit& edit : fix.edits)
    replacements.push_back({{"deletedRegion", region(edit.range, positions)},
                            {"insertedContent", {{"text", edit.new_text}}}});
  json change = {{"artifactLocation", artifact_location(artifact)}, {"replacements", std::move(replacements)}};
  return {{"description", {{"text", fix.title}}}, {"artifactChanges", json::array({std::move(change)})}};
}

size_t rule_index(DiagId id) {
  auto rules = all_rules();
  auto it = std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& rule) { return rule.id == id; });
  return static_cast<size_t>(it - rules.begin());
}

json result_json(const Diagnostic& diagnostic, const SarifArtifact& artifact,
                 const PositionConverter& positions, const std::vector<std::string>& file_targets) {
  const RuleInfo& rule = rule_info(diagnostic.id);
  json result = {{"ruleId", rule.code},
                 {"ruleIndex", rule_index(diagnostic.id)},
                 {"level", sarif_level(diagnostic.severity)},
                 {"message", {{"text", diagnostic.message}}},
                 {"locations", json::array({physical_location(diagnostic.range, artifact, positions)})}};
  if (!diagnostic.related.empty()) {
    json related = json::array();
    for (size_t i = 0; i < diagnostic.related.size(); ++i) {
      json location = physical_location(diagnostic.related[i].range, artifact, positions);
      location["id"] = i;
      location["message"] = {{"text", diagnostic.related[i].message}};
      related.push_back(std::move(location));
    }
    result["relatedLocations"] = std::move(related);
  }
  if (!diagnostic.fixes.empty()) {
    json fixes = json::array();
    for (const Fix& fix : diagnostic.fixes) fixes.push_back(fix_json(fix, artifact, positions));
    result["fixes"] = std::move(fixes);
  }
  const auto& targets = diagnostic.targets.empty() ? file_targets : diagnostic.targets;
  result["properties"] = {{"targets", targets}};
  return result;
}

json rules_json(const SarifOptions& options) {
  json rules = json::array();
  for (const RuleInfo& rule : all_rules()) {
    json entry = {{"id", rule.code},
                  {"shortDescription", {{"text", rule.summary}}},
                  {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}}};
    if (std::string help = rule_docs_uri(options.docs_root, rule.code); !help.empty()) entry["helpUri"] = help;
    rules.push_back(std::move(entry));
  }
  return rules;
}

json driver_json(const SarifOptions& options) {
  json driver = {{"name", "cake"}, {"version", options.tool_version}, {"rules", rules_json(options)}};
  if (!options.docs_root.empty()) driver["informationUri"] = file_uri(options.docs_root + "/cli.md");
  return driver;
}

json invocation_json(const std::vector<SarifNotification>& notifications) {
  json notes = json::array();
  for (const SarifNotification& note : notifications) {
    json entry = {{"level", "error"}, {"message", {{"text", note.message}}}};
    if (!note.artifact.uri.empty())
      entry["locations"] = json::array({{{"physicalLocation", {{"artifactLocation", artifact_location(note.artifact)}}}}});
    notes.push_back(std::move(entry));
  }
  return {{"executionSuccessful", notifications.empty()}, {"toolExecutionNotifications", std::move(notes)}};
}

}  // namespace

json sarif_results(const std::vector<Diagnostic>& diagnostics, const SarifArtifact& artifact,
                   const PositionConverter& positions, const std::vector<std::string>& file_targets) {
  json results = json::array();
  for (const Diagnostic& diagnostic : diagnostics)
    results.push_back(result_json(diagnostic, artifact, positions, file_targets));
  return results;
}

json sarif_log(json results, const std::vector<SarifNotification>& notifications, const SarifOptions& options) {
  json run = {{"tool", {{"driver", driver_json(options)}}},
              {"columnKind", "utf16CodeUnits"},
              {"invocations", json::array({invocation_json(notifications)})},
              {"results", std::move(results)}};
  if (!options.src_root.empty()) run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", options.src_root}}}};
  return {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", json::array({std::move(run)})}};
}

}  // namespace cake
