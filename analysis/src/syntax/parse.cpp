// parse(): one tree-sitter parser per thread, reused across documents.
#include "cake/syntax.h"

namespace cake {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};

TSParser* thread_parser() {
  thread_local std::unique_ptr<TSParser, ParserDeleter> parser = [] {
    std::unique_ptr<TSParser, ParserDeleter> p(ts_parser_new());
    ts_parser_set_language(p.get(), tree_sitter_cake());
    return p;
  }();
  return parser.get();
}

}  // namespace

TreePtr parse(std::string_view text, const TSTree* old) {
  TSParser* parser = thread_parser();
  TSTree* tree = ts_parser_parse_string(parser, old, text.data(), static_cast<uint32_t>(text.size()));
  if (!tree) {  // cancelled or timed out: never leave the caller without a tree
    ts_parser_reset(parser);
    tree = ts_parser_parse_string(parser, nullptr, "", 0);
  }
  return TreePtr(tree);
}

}  // namespace cake
