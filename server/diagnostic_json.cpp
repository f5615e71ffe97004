// Builds LSP Diagnostic objects (LSP 3.17 §Diagnostic) from analysis values.
// Every position goes through PositionConverter; nothing here counts bytes.
//
// The object is described once, by emit_diagnostic() over a sink, and made
// two ways: as a JSON value (ValueSink: the language server, which sends it
// inside a message) or written straight out as text (JsonWriter: `cake
// check --format json`, where building, printing and freeing a value per
// diagnostic took most of the time on a file with a thousand diagnostics).
// JsonWriter prints what dump_json() prints for the value.
#include "diagnostic_json.h"

#include "cake/registry.h"

#include <vector>

namespace cake {
namespace {

using json = nlohmann::ordered_json;

/// Builds a JSON value from emit_diagnostic()'s calls.
class ValueSink {
 public:
  void begin_object(const char* key = nullptr) { open(key, json(json::value_t::object)); }
  void begin_array(const char* key = nullptr) { open(key, json(json::value_t::array)); }
  void end() {
    if (stack_.size() > 1) stack_.pop_back();
  }
  template <typename V>
  void value(const char* key, V&& v) {
    add(key, json(std::forward<V>(v)));
  }
  json take() { return std::move(root_); }

 private:
  json* add(const char* key, json v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& parent = *stack_.back();
    if (key) {
      auto& members = parent.get_ref<json::object_t&>();
      members.emplace_back(key, std::move(v));
      return &members.back().second;
    }
    auto& elements = parent.get_ref<json::array_t&>();
    elements.push_back(std::move(v));
    return &elements.back();
  }
  void open(const char* key, json v) { stack_.push_back(add(key, std::move(v))); }

  json root_;
  std::vector<json*> stack_;
};

template <typename Sink>
void emit_position(Sink& out, const char* key, const LspPosition& position) {
  out.begin_object(key);
  out.value("line", position.line);
  out.value("character", position.character);
  out.end();
}

template <typename Sink>
void emit_range(Sink& out, const char* key, const LspRange& range) {
  out.begin_object(key);
  emit_position(out, "start", range.start);
  emit_position(out, "end", range.end);
  out.end();
}

/// The LSP Diagnostic, in the order the LSP specification lists its fields.
template <typename Sink>
void emit_diagnostic(Sink& out, const Diagnostic& diagnostic, const DocumentContext& document,
                     std::string_view docs_root) {
  const RuleInfo& rule = rule_info(diagnostic.id);
  const PositionConverter& positions = *document.positions;
  out.begin_object();
  emit_range(out, "range", positions.lsp_range(diagnostic.range));
  out.value("severity", static_cast<int>(diagnostic.severity));
  out.value("code", rule.code);
  if (std::string href = rule_docs_uri(docs_root, rule.code); !href.empty()) {
    out.begin_object("codeDescription");
    out.value("href", href);
    out.end();
  }
  out.value("source", "cake");
  out.value("message", diagnostic.message);
  if (!diagnostic.related.empty()) {
    out.begin_array("relatedInformation");
    for (const RelatedSpan& related : diagnostic.related) {
      out.begin_object();
      out.begin_object("location");
      out.value("uri", document.uri);
      emit_range(out, "range", positions.lsp_range(related.range));
      out.end();
      out.value("message", related.message);
      out.end();
    }
    out.end();
  }
  out.begin_object("data");
  out.value("targets", diagnostic.targets.empty() ? document.file_targets : diagnostic.targets);
  out.begin_array("fixes");
  for (const Fix& fix : diagnostic.fixes) {
    out.begin_object();
    out.value("title", fix.title);
    out.value("isPreferred", fix.preferred);
    out.begin_array("edits");
    for (const TextEdit& edit : fix.edits) {
      out.begin_object();
      emit_range(out, "range", positions.lsp_range(edit.range));
      out.value("newText", edit.new_text);
      out.end();
    }
    out.end();
    out.end();
  }
  out.end();
  out.end();
  out.end();
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
  ValueSink sink;
  emit_range(sink, nullptr, range);
  return sink.take();
}

json diagnostic_to_json(const Diagnostic& diagnostic, const DocumentContext& document,
                        std::string_view docs_root) {
  ValueSink sink;
  emit_diagnostic(sink, diagnostic, document, docs_root);
  return sink.take();
}

void write_diagnostic_json(JsonWriter& out, const Diagnostic& diagnostic, const DocumentContext& document,
                           std::string_view docs_root) {
  emit_diagnostic(out, diagnostic, document, docs_root);
}

// Section - JsonWriter

void JsonWriter::begin_object(const char* key) { open(key, '{'); }
void JsonWriter::begin_array(const char* key) { open(key, '['); }

void JsonWriter::end() {
  Level level = levels_.back();
  levels_.pop_back();
  if (!level.empty) newline(levels_.size());
  out_ += level.closer;
}

void JsonWriter::value(const char* key, std::string_view s) {
  start(key);
  string(s);
}

void JsonWriter::value(const char* key, bool b) {
  start(key);
  out_ += b ? "true" : "false";
}

void JsonWriter::value(const char* key, int64_t n) {
  start(key);
  out_ += std::to_string(n);
}

void JsonWriter::value(const char* key, const std::vector<std::string>& strings) {
  begin_array(key);
  for (const std::string& s : strings) value(nullptr, s);
  end();
}

void JsonWriter::raw(const char* key, std::string_view text) {
  start(key);
  out_ += text;
}

void JsonWriter::newline(size_t level) {
  out_ += '\n';
  out_.append(2 * (depth_ + level), ' ');
}

void JsonWriter::start(const char* key) {
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (!level.empty) out_ += ',';
  level.empty = false;
  newline(levels_.size());
  if (key) {
    string(key);
    out_ += ": ";
  }
}

void JsonWriter::open(const char* key, char opener) {
  start(key);
  out_ += opener;
  levels_.push_back({opener == '{' ? '}' : ']'});
}

void JsonWriter::string(std::string_view s) {
  // Plain ASCII is copied; anything else goes through nlohmann's escaping
  // (and its U+FFFD for invalid UTF-8), as in dump_json().
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') {
      out_ += dump_json(json(std::string(s)), -1);
      return;
    }
  }
  out_ += '"';
  out_ += s;
  out_ += '"';
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace cake
