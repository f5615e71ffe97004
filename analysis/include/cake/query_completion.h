// Completion and signature help: candidates at a byte offset of a file and
// the form of the op being written. Text-based around the cursor, so both
// work while the file has syntax errors; names come from the model.
#pragma once

#include "cake/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

struct CompletionCandidate {
  enum class Kind : uint8_t { Keyword, Op, Function, Type, Name, Dim, Snippet };
  Kind kind = Kind::Name;
  std::string label;
  std::string detail;       // "shared-memory buffer", "keyword"; empty for Kind::Dim
  std::string insert_text;  // empty: the label; for snippets, `${1:name}` placeholders
  SymbolKind symbol_kind = SymbolKind::Builtin;  // Kind::Name only
  /// Kind::Dim only: which dim of which buffer (stage dims first; the
  /// server words it, server/render/completion.cpp).
  uint32_t dim = 0;
  bool stage_dim = false;
  std::string buffer;
};

/// Candidates at `offset`. After `buf[` (inside an unclosed index of a
/// buffer) only its dims and the index names in scope; elsewhere keywords,
/// the ops every listed target has, builtin functions, dtypes, names in
/// scope and snippets.
std::vector<CompletionCandidate> completions_at(const Module& m, std::string_view text, uint32_t offset);

struct SignatureInfo {
  std::string label;  // "tma.load dst <- src [, barrier] ..."
  std::string documentation;
  /// [begin, end) of each operand in `label`, in characters of the label.
  std::vector<std::pair<uint32_t, uint32_t>> parameters;
  uint32_t active = 0;
};

/// The form of the op that starts the statement holding `offset`, if any.
std::optional<SignatureInfo> signature_at(std::string_view text, uint32_t offset);

}  // namespace cake
