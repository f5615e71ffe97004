// A cake::Diagnostic as an LSP `Diagnostic` JSON object: range in 0-based
// lines and UTF-16 characters, severity 1-4, the rule's code with a link to
// its docs page, related information, and cake's extras under `data`
// (the targets it concerns and its machine-applicable fixes). The same
// object serves `cake check --format json` (written as text) and cake-lsp
// (as a value). Objects are ordered_json, so keys print in the order the LSP
// specification lists them.
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

/// Writes JSON text member by member, exactly as dump_json() prints the
/// value it describes (two spaces per level), without building the value.
/// `depth` is the nesting level the first value starts at, for text that
/// another writer's raw() puts inside its document.
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, size_t depth = 0) : out_(out), depth_(depth) {}

  /// A container, as a member named `key` of the open object, or as an
  /// element of the open array (or the document) when `key` is null.
  void begin_object(const char* key = nullptr);
  void begin_array(const char* key = nullptr);
  void end();
  /// A member (or, with a null key, an element) holding a value.
  void value(const char* key, std::string_view s);
  void value(const char* key, const std::string& s) { value(key, std::string_view(s)); }
  void value(const char* key, const char* s) { value(key, std::string_view(s)); }
  void value(const char* key, bool b);
  void value(const char* key, int64_t n);
  void value(const char* key, int n) { value(key, static_cast<int64_t>(n)); }
  void value(const char* key, unsigned n) { value(key, static_cast<int64_t>(n)); }
  void value(const char* key, const std::vector<std::string>& strings);
  /// A member or element already written as JSON text (at the right depth).
  void raw(const char* key, std::string_view text);

 private:
  struct Level {
    char closer;
    bool empty = true;
  };
  void newline(size_t level);
  void start(const char* key);
  void open(const char* key, char opener);
  void string(std::string_view s);

  std::string& out_;
  size_t depth_;
  std::vector<Level> levels_;
};

/// Writes the same object as diagnostic_to_json() builds, as the next
/// element of `out`'s open array (or as its document).
void write_diagnostic_json(JsonWriter& out, const Diagnostic& diagnostic, const DocumentContext& document,
                           std::string_view docs_root);

/// Serialises JSON for output: invalid UTF-8 in strings (copied from the
/// checked text) becomes U+FFFD rather than an exception.
std::string dump_json(const nlohmann::ordered_json& value, int indent = 2);

}  // namespace cake
