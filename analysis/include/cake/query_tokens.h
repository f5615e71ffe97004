// Semantic tokens and inlay hints: a classification of the words of a text
// (keywords, ops, buffers, barriers, roles, types, targets, ...) and the
// hints shown inline (buffer byte sizes, pipeline stage and phase names).
// Tokens are the tree's leaves, classed by node type and, for names, by the
// model's def-use table; a file with syntax errors is still coloured (the
// leaves inside ERROR nodes keep their types); each token lies on one line.
#pragma once

#include "cake/model.h"
#include "cake/syntax.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

/// Token classes, in the order of the LSP legend (server/lsp/features/semantic_tokens.cpp).
enum class TokenKind : uint8_t {
  Keyword, Op, Buffer, Barrier, Role, Type, Target, Parameter, Variable, Function, Number, Comment
};
inline constexpr size_t kTokenKindCount = 12;

struct SemanticToken {
  ByteRange range;
  TokenKind kind;
};

/// The tokens of `tree` (the parse of `text`, which `m` was built from)
/// that start in `range`, in text order, not overlapping.
std::vector<SemanticToken> semantic_tokens(const Module& m, const SyntaxTree& tree, std::string_view text, ByteRange range);

/// An inlay hint as numbers and names; server/render/inlay_hint.cpp writes
/// its label.
struct InlayHintInfo {
  enum class Kind : uint8_t {
    Size,   // after a buffer's declaration: its bytes
    Stage,  // after a pipeline's stage variable: its stages and phase
  };
  Kind kind = Kind::Size;
  uint32_t offset = 0;
  std::string_view name;             // the buffer or the stage variable, into the model's text
  int64_t bytes = 0;                 // Size: all stages
  std::optional<int64_t> per_stage;  // Size: a ring's bytes per stage
  std::optional<int64_t> stages;     // Stage: the ring's stages, when the count folds
};

/// Hints in `range`: the byte size after each buffer declaration whose size
/// folds, and the stages and phase after each pipeline's stage variable.
std::vector<InlayHintInfo> inlay_hints(const Module& m, std::string_view text, ByteRange range);

}  // namespace cake
