// Renders diagnostics as compiler-style text, clang's layout with rustc's
// `error[CODE]` header. Columns and carets count code points (an invalid
// byte is one), which aligns them in any terminal for ASCII and most text.
#include "text_report.h"

#include "cake/registry.h"

#include <algorithm>

namespace cake {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct Palette {
  std::string_view bold, error, warning, note, help, caret, reset;
};

Palette palette(const TextReportOptions& options) {
  if (!options.color) return {};
  return {"\x1b[1m", "\x1b[1;31m", "\x1b[1;35m", "\x1b[1;36m", "\x1b[1;32m", "\x1b[1;32m", "\x1b[0m"};
}

std::string_view severity_label(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Information: return "info";
    case Severity::Hint: return "hint";
  }
  return "error";
}

std::string_view severity_color(Severity severity, const Palette& colors) {
  return severity == Severity::Error ? colors.error : severity == Severity::Warning ? colors.warning : colors.note;
}

void append_location(std::string& out, const TextDocument& document, uint32_t offset, const Palette& colors) {
  TextPosition pos = document.positions->text_position(offset);
  out += colors.bold;
  out += printable(document.path);
  out += ':' + std::to_string(pos.line) + ':' + std::to_string(pos.column) + ':';
  out += colors.reset;
  out += ' ';
}

/// The source line under a range and its caret line.
void append_snippet(std::string& out, const TextDocument& document, ByteRange range, const Palette& colors) {
  const PositionConverter& positions = *document.positions;
  uint32_t begin = positions.clamp(range.begin);
  uint32_t end = std::max(begin, positions.clamp(range.end));
  uint32_t line = positions.line_of(begin);
  std::string_view text = positions.line_text(line);
  uint32_t line_start = positions.offset({line, 0});
  uint32_t column = std::min<uint32_t>(begin - line_start, static_cast<uint32_t>(text.size()));
  uint32_t end_column = positions.line_of(end) == line ? end - line_start : UINT32_MAX;
  out += printable(text);
  out += '\n';
  out += colors.caret;
  out += caret_line(text, column, end_column);
  out += colors.reset;
  out += '\n';
}

std::string targets_suffix(const Diagnostic& diagnostic, const TextDocument& document) {
  if (diagnostic.targets.empty() || diagnostic.targets == document.file_targets) return {};
  std::string out = diagnostic.targets.size() == 1 ? " [target " : " [targets ";
  for (size_t i = 0; i < diagnostic.targets.size(); ++i) out += (i ? ", " : "") + diagnostic.targets[i];
  return out + "]";
}

void append_related(std::string& out, const RelatedSpan& related, const TextDocument& document,
                    const Palette& colors) {
  append_location(out, document, related.range.begin, colors);
  out += colors.note;
  out += "note:";
  out += colors.reset;
  out += ' ' + printable(related.message) + '\n';
  append_snippet(out, document, related.range, colors);
}

void append_fix(std::string& out, const Fix& fix, const Palette& colors) {
  out += "  ";
  out += colors.help;
  out += "help:";
  out += colors.reset;
  out += ' ' + printable(fix.title) + '\n';
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    Utf8Step step = utf8_step(text);
    unsigned char first = static_cast<unsigned char>(text.front());
    bool control = step.bytes == 1 && ((first < 0x20 && first != '\t') || first == 0x7F);
    if (!step.valid || control)
      out += kReplacement;
    else
      out += text.substr(0, step.bytes);
    text.remove_prefix(step.bytes);
  }
  return out;
}

std::string caret_line(std::string_view line, uint32_t begin, uint32_t end) {
  std::string out;
  uint32_t offset = 0;
  bool caret = false;
  while (offset < line.size() && offset < std::max(begin + 1, end)) {
    Utf8Step step = utf8_step(line.substr(offset));
    if (offset < begin) {
      out += line[offset] == '\t' ? '\t' : ' ';
    } else {
      out += caret ? '~' : '^';
      caret = true;
    }
    offset += step.bytes;
  }
  if (!caret) out += '^';  // an empty span, or one at the end of the line
  return out;
}

void render_diagnostic(std::string& out, const Diagnostic& diagnostic, const TextDocument& document,
                       const TextReportOptions& options) {
  Palette colors = palette(options);
  append_location(out, document, diagnostic.range.begin, colors);
  out += severity_color(diagnostic.severity, colors);
  out += severity_label(diagnostic.severity);
  out += colors.reset;
  out += colors.bold;
  out += '[' + std::string(rule_info(diagnostic.id).code) + "]: ";
  out += printable(diagnostic.message) + targets_suffix(diagnostic, document);
  out += colors.reset;
  out += '\n';
  append_snippet(out, document, diagnostic.range, colors);
  for (const RelatedSpan& related : diagnostic.related) append_related(out, related, document, colors);
  for (const Fix& fix : diagnostic.fixes) append_fix(out, fix, colors);
}

std::string render_diagnostics(const std::vector<Diagnostic>& diagnostics, const TextDocument& document,
                               const TextReportOptions& options) {
  std::string out;
  for (const Diagnostic& diagnostic : diagnostics) render_diagnostic(out, diagnostic, document, options);
  return out;
}

}  // namespace cake
