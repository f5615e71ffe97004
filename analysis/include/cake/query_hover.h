// Hover: what is at a byte offset of a file, described as markdown. Works on
// the model of any text, including one with syntax errors (the model keeps
// what parsed). No positions and no LSP here; the server converts the range.
#pragma once

#include "cake/diagnostic.h"
#include "cake/model.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

struct HoverInfo {
  ByteRange range;       // what the description is about
  std::string markdown;  // paragraphs separated by blank lines
  std::vector<std::string_view> rules;  // codes of the diagnostics described, in order
};

/// The description of the symbol, op, dtype or target at `offset`, followed
/// by the code and rule summary of every diagnostic covering it; nullopt
/// when there is nothing to say.
std::optional<HoverInfo> hover_at(const Module& m, std::string_view text, const std::vector<Diagnostic>& diagnostics,
                                  uint32_t offset);

}  // namespace cake
