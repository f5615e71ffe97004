// Compiler-style text for people and logs: `path:line:col: error[CODE]: msg`
// (1-based line, column in code points), the source line, a caret line
// (`^~~~` under the span, aligned by code points, tabs kept), each related
// span as a `note:` with its own source line, and each fix as `  help: title`.
// ANSI colour is a choice of the caller (TextReportOptions::color).
#pragma once

#include "cake/diagnostic.h"
#include "convert.h"

#include <string>
#include <string_view>
#include <vector>

namespace cake {

struct TextReportOptions {
  bool color = false;  // ANSI escapes; the CLI decides (terminal, --color)
};

/// What the text report needs to know about one checked document.
struct TextDocument {
  std::string_view path;                  // as the user named it
  const PositionConverter* positions;     // over the checked text
  std::vector<std::string> file_targets;  // the file's targets
};

/// Appends the report of one diagnostic (all its lines) to `out`.
void render_diagnostic(std::string& out, const Diagnostic& diagnostic, const TextDocument& document,
                       const TextReportOptions& options);

/// The report of all diagnostics of one document, in order.
std::string render_diagnostics(const std::vector<Diagnostic>& diagnostics, const TextDocument& document,
                               const TextReportOptions& options);

/// `text` with each invalid UTF-8 byte and each control character other
/// than tab replaced by U+FFFD, so it is safe to print and keeps its
/// code-point count.
std::string printable(std::string_view text);

/// The caret line for bytes [begin, end) of `line` (end past the line: to its
/// end): spaces or tabs up to the span, `^`, then `~` per further code point.
std::string caret_line(std::string_view line, uint32_t begin, uint32_t end);

}  // namespace cake
