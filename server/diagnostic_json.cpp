// Builds LSP Diagnostic objects (LSP 3.17 §Diagnostic) from analysis values.
// Every position goes through PositionConverter; nothing here counts bytes.
#include "diagnostic_json.h"

#include "cake/registry.h"

namespace cake {
namespace {

using json = nlohmann::ordered_json;

json position_json(const LspPosition& position) {
  return {{"line", position.line}, {"character", position.character}};
}

json related_json(const RelatedSpan& related, const DocumentContext& document) {
  json location = {{"uri", document.uri},
                   {"range", lsp_range_json(document.positions->lsp_range(related.range))}};
  return {{"location", std::move(location)}, {"message", related.message}};
}

json edit_json(const TextEdit& edit, const DocumentContext& document) {
  return {{"range", lsp_range_json(document.positions->lsp_range(edit.range))}, {"newText", edit.new_text}};
}

json fix_json(const Fix& fix, const DocumentContext& document) {
  json edits = json::array();
  for (const TextEdit& edit : fix.edits) edits.push_back(edit_json(edit, document));
  return {{"title", fix.title}, {"isPreferred", fix.preferred}, {"edits", std::move(edits)}};
}

json data_json(const Diagnostic& diagnostic, const DocumentContext& document) {
  const auto& targets = diagnostic.targets.empty() ? document.file_targets : diagnostic.targets;
  json fixes = json::array();
  for (const Fix& fix : diagnostic.fixes) fixes.push_back(fix_json(fix, document));
  return {{"targets", targets}, {"fixes", std::move(fixes)}};
}

}  // namespace

std::string rule_docs_uri(std::string_view docs_root, std::string_view code) {
  if (docs_root.empty()) return {};
  std::string path(docs_root);
  if (path.back() != '/') path += '/';
  path += "rules/";
  path += code;
  path += ".md";
  return file_uri(path);
}

json lsp_range_json(const LspRange& range) {
  return {{"start", position_json(range.start)}, {"end", position_json(range.end)}};
}

json diagnostic_to_json(const Diagnostic& diagnostic, const DocumentContext& document,
                        std::string_view docs_root) {
  const RuleInfo& rule = rule_info(diagnostic.id);
  json out = {{"range", lsp_range_json(document.positions->lsp_range(diagnostic.range))},
              {"severity", static_cast<int>(diagnostic.severity)},
              {"code", rule.code}};
  if (std::string href = rule_docs_uri(docs_root, rule.code); !href.empty())
    out["codeDescription"] = {{"href", std::move(href)}};
  out["source"] = "cake";
  out["message"] = diagnostic.message;
  if (!diagnostic.related.empty()) {
    json related = json::array();
    for (const RelatedSpan& span : diagnostic.related) related.push_back(related_json(span, document));
    out["relatedInformation"] = std::move(related);
  }
  out["data"] = data_json(diagnostic, document);
  return out;
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace cake
