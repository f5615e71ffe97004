// textDocument/semanticTokens/full and /range: cake::semantic_tokens,
// delta-encoded per LSP 3.17 with custom types for buffers, barriers, roles,
// ops and targets beside the standard ones.
#include "features/semantic_tokens.h"

#include "feature.h"

namespace cake::lsp {

const std::vector<std::string_view>& semantic_token_legend() {
  static const std::vector<std::string_view> legend = {"keyword", "op",     "buffer",    "barrier",
                                                       "role",    "type",   "target",    "parameter",
                                                       "variable", "function", "number", "comment"};
  return legend;
}

std::vector<uint32_t> encode_semantic_tokens(const std::vector<SemanticToken>& tokens, std::string_view text,
                                             const PositionConverter& positions) {
  (void)text;
  std::vector<uint32_t> data;
  data.reserve(tokens.size() * 5);
  LspPosition previous;
  for (const SemanticToken& t : tokens) {
    LspPosition start = positions.lsp_position(t.range.begin);
    LspPosition end = positions.lsp_position(t.range.end);
    if (end.line != start.line || end.character <= start.character) continue;
    data.push_back(start.line - previous.line);
    data.push_back(start.line == previous.line ? start.character - previous.character : start.character);
    data.push_back(end.character - start.character);
    data.push_back(static_cast<uint32_t>(t.kind));
    data.push_back(0);
    previous = start;
  }
  return data;
}

namespace {

json tokens(Context& context, const json& params, ByteRange range) {
  OpenDocument& d = context.document(params);
  PositionConverter positions = context.positions(d);
  std::vector<SemanticToken> found = semantic_tokens(d.doc->model(), d.doc->tree(), d.doc->text(), range);
  return {{"data", encode_semantic_tokens(found, d.doc->text(), positions)}};
}

json full(Context& context, const json& params) {
  return tokens(context, params, {0, UINT32_MAX});
}

json in_range(Context& context, const json& params) {
  OpenDocument& d = context.document(params);
  return tokens(context, params, context.byte_range(d, params.value("range", json::object())));
}

}  // namespace

CAKE_LSP_FEATURE({"textDocument/semanticTokens/full", full, [](const json&, json& caps) {
                    caps["semanticTokensProvider"] = {
                        {"legend", {{"tokenTypes", semantic_token_legend()}, {"tokenModifiers", json::array()}}},
                        {"full", true},
                        {"range", true}};
                  }});
CAKE_LSP_FEATURE({"textDocument/semanticTokens/range", in_range, {}});

}  // namespace cake::lsp
