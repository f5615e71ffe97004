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

struct InlayHintInfo {
  uint32_t offset = 0;
  std::string label;
};

/// Hints in `range`: the byte size after each buffer declaration whose size
/// folds, and the stage and phase names after each pipeline's stage variable.
std::vector<InlayHintInfo> inlay_hints(const Module& m, std::string_view text, ByteRange range);

}  // namespace cake
