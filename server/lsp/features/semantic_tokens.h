// The LSP encoding of semantic tokens: the legend and the delta encoding of
// cake::semantic_tokens (cake/query_tokens.h) in a negotiated position
// encoding. Exposed for tests/lsp/features_test.cpp.
#pragma once

#include "cake/query_tokens.h"
#include "convert.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace cake::lsp {

/// The token type names, indexed by TokenKind.
const std::vector<std::string_view>& semantic_token_legend();

/// Five integers per token: delta line, delta start (relative to the previous
/// token on the same line), length, type, modifiers (0).
std::vector<uint32_t> encode_semantic_tokens(const std::vector<SemanticToken>& tokens, std::string_view text,
                                             const PositionConverter& positions);

}  // namespace cake::lsp
