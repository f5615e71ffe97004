// The concrete syntax tree: tree-sitter's parse of CAKE IR, owned with RAII.
// `parse()` never fails: bad input yields ERROR and MISSING nodes, which
// syntax_diagnostics() turns into specific E00xx messages.
#pragma once

#include "cake/diagnostic.h"

#include <tree_sitter/api.h>

#include <memory>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_cake(void);

namespace cake {

struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

/// Parses `text`; with `old` (already edited by ts_tree_edit) reparses
/// incrementally. Never returns null: a parse that cannot run yields an
/// empty tree of an empty text.
TreePtr parse(std::string_view text, const TSTree* old = nullptr);

/// E00xx diagnostics for the ERROR and MISSING nodes of `tree`, and for bytes
/// that are not valid UTF-8 or are NUL.
std::vector<Diagnostic> syntax_diagnostics(const TSTree* tree, std::string_view text);

/// The text of a node.
inline std::string_view node_text(TSNode node, std::string_view text) {
  uint32_t b = ts_node_start_byte(node), e = ts_node_end_byte(node);
  if (b > text.size()) b = static_cast<uint32_t>(text.size());
  if (e > text.size()) e = static_cast<uint32_t>(text.size());
  return text.substr(b, e - b);
}

inline ByteRange node_range(TSNode node) {
  return {ts_node_start_byte(node), ts_node_end_byte(node)};
}

}  // namespace cake
