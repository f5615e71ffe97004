// The canonical format of CAKE IR (`cake fmt`, LSP formatting): two spaces
// per brace level, four more on a line that continues an open `(` or `[`,
// one space wherever the source had any between two tokens on a line, at
// most one blank line in a row, no trailing spaces, one final newline.
// Line breaks, comments and token order are the author's; formatting twice
// changes nothing.
#pragma once

#include "cake/syntax.h"

#include <optional>
#include <string>
#include <string_view>

namespace cake {

/// The formatted text, or nullopt when the tree has syntax errors (a
/// formatter must never guess at broken code).
std::optional<std::string> format_source(const SyntaxTree& tree, std::string_view text);

}  // namespace cake
