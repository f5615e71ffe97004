// Semantic tokens and inlay hints (cake/query_tokens.h). Tokens are the
// leaves of the tree-sitter tree, classed by their node type (the classes of
// grammar/queries/highlights.scm: comments, numbers, types, the grammar's
// keywords and op tokens) and, for identifiers, by the model's def-use table
// (what the name is a definition or use of). There is no second lexer and
// no keyword list: the grammar's own anonymous word tokens are the keywords.
#include "cake/query_tokens.h"

#include "model/cst.h"
#include "cake/eval.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>
#include <vector>

namespace cake {
namespace {

TokenKind symbol_token(SymbolKind k) {
  switch (k) {
    case SymbolKind::Smem:
    case SymbolKind::Tmem:
    case SymbolKind::Reg:
    case SymbolKind::Dsmem:
    case SymbolKind::Tensormap: return TokenKind::Buffer;
    case SymbolKind::Mbarrier:
    case SymbolKind::NamedBarrier: return TokenKind::Barrier;
    case SymbolKind::Role: return TokenKind::Role;
    case SymbolKind::TensorParam:
    case SymbolKind::ScalarParam:
    case SymbolKind::ShapeSymbol:
    case SymbolKind::DispatchParam: return TokenKind::Parameter;
    case SymbolKind::Kernel:
    case SymbolKind::Dispatch: return TokenKind::Function;
    case SymbolKind::Const:
    case SymbolKind::Let:
    case SymbolKind::LoopVar:
    case SymbolKind::StageVar:
    case SymbolKind::Builtin: return TokenKind::Variable;
  }
  return TokenKind::Variable;
}

bool word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

/// The grammar's keywords: its anonymous tokens that are words (`kernel`,
/// `elect.warp`, `tma.load`), read from the language once.
const std::unordered_set<std::string_view>& grammar_words() {
  static const std::unordered_set<std::string_view> words = [] {
    std::unordered_set<std::string_view> out;
    const TSLanguage* lang = tree_sitter_cake();
    for (TSSymbol s = 0; s < ts_language_symbol_count(lang); ++s) {
      if (ts_language_symbol_type(lang, s) != TSSymbolTypeAnonymous) continue;
      std::string_view name = ts_language_symbol_name(lang, s);
      if (!name.empty() && word_start(name.front())) out.insert(name);
    }
    return out;
  }();
  return words;
}

/// Emits a token per line of a range that may span lines (block comments).
void add_lines(std::string_view text, ByteRange r, TokenKind kind, std::vector<SemanticToken>& out) {
  uint32_t b = r.begin;
  for (uint32_t i = r.begin; i < r.end; ++i) {
    if (text[i] != '\n') continue;
    if (i > b) out.push_back({{b, i}, kind});
    b = i + 1;
  }
  if (r.end > b) out.push_back({{b, r.end}, kind});
}

class TokenWalk {
 public:
  TokenWalk(const Module& m, std::string_view text, ByteRange range, std::vector<SemanticToken>& out)
      : m_(m), text_(text), c_(Cst::get()), range_(range), end_(std::min<uint32_t>(range.end, static_cast<uint32_t>(text.size()))),
        out_(out) {}

  /// Visits the leaves of `root` that start in the range, in text order
  /// (a pre-order walk: each node starts no earlier than the one before).
  void run(TSNode root) {
    // The cursor keeps the path: `parents` mirrors it (ts_node_parent
    // would walk down from the root for every leaf).
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    std::vector<TSSymbol> parents;
    for (bool more = true; more;) {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_start_byte(n) >= end_) break;
      bool overlaps = ts_node_end_byte(n) > range_.begin;
      if (overlaps && ts_node_child_count(n) > 0 && !is_token(n)) {
        parents.push_back(ts_node_symbol(n));
        ts_tree_cursor_goto_first_child(&cursor);
        continue;
      }
      if (overlaps) leaf(n, parents.empty() ? TSSymbol(0) : parents.back(), ts_tree_cursor_current_field_id(&cursor));
      while (more && !ts_tree_cursor_goto_next_sibling(&cursor)) {
        more = ts_tree_cursor_goto_parent(&cursor);
        if (more) parents.pop_back();
      }
    }
    ts_tree_cursor_delete(&cursor);
  }

  /// Nodes whose children are parts of one token to the user: a comment's
  /// and a literal's (none today, but a grammar may give them some).
  bool is_token(TSNode n) const {
    TSSymbol s = ts_node_symbol(n);
    return s == c_.comment || s == c_.integer_literal || s == c_.float_literal || s == c_.byte_size ||
           s == c_.primitive_type;
  }

  void leaf(TSNode n, TSSymbol ps, TSFieldId field) {
    if (ts_node_is_missing(n)) return;
    ByteRange r = node_range(n);
    if (r.begin < range_.begin || r.begin >= end_ || r.end <= r.begin) return;
    std::optional<TokenKind> kind = classify(n, r, ps, field);
    if (kind) add_lines(text_, {r.begin, std::min(r.end, end_)}, *kind, out_);
  }

  /// The class of leaf `n`, child of a `ps` node in field `field`.
  std::optional<TokenKind> classify(TSNode n, ByteRange r, TSSymbol ps, TSFieldId field) const {
    TSSymbol s = ts_node_symbol(n);
    if (s == c_.comment) return TokenKind::Comment;
    if (s == c_.integer_literal || s == c_.float_literal || s == c_.byte_size || ps == c_.integer_literal ||
        ps == c_.float_literal || ps == c_.byte_size)
      return TokenKind::Number;
    if (s == c_.primitive_type || ps == c_.primitive_type) return TokenKind::Type;
    std::string_view word = node_text(n, text_);
    if (word.empty() || !word_start(word.front())) return std::nullopt;  // punctuation, operators
    if (s == c_.identifier) {
      // A call's function (`bytes(cs[s])`, `exp(x)`): highlights.scm's @function.call.
      if (ps == c_.call_expression && field == c_.f.function) return TokenKind::Function;
      return name(r, word);
    }
    if (ps == c_.transpose_expression) return std::nullopt;  // `.T` reads as a field
    if (parse_op(word)) return TokenKind::Op;
    return TokenKind::Keyword;
  }

  /// An identifier: a target, else what the model resolves it to; a
  /// builtin or unresolved name that the grammar also uses as a keyword
  /// (`block.x`, `cluster.rank`, `bytes(...)`) reads as the keyword.
  std::optional<TokenKind> name(ByteRange r, std::string_view word) const {
    bool target = std::any_of(m_.targets.begin(), m_.targets.end(), [&](const Target& t) { return t.range.begin == r.begin; });
    if (target) return TokenKind::Target;
    SymbolId id = symbol_at(r.begin);
    if (id != kNone && m_.symbol(id).kind != SymbolKind::Builtin) return symbol_token(m_.symbol(id).kind);
    if (grammar_words().contains(word)) return TokenKind::Keyword;
    return std::nullopt;
  }

  /// The symbol a name at `offset` defines or uses, as Module::symbol_at()
  /// answers it (the lowest-numbered symbol wins; definitions and uses are
  /// name ranges, so they start at the name), from an index of every
  /// definition and use built on first need: a file has thousands of symbols.
  SymbolId symbol_at(uint32_t offset) const {
    if (!indexed_) {
      indexed_ = true;
      for (SymbolId i = 0; i < m_.symbols.size(); ++i) {
        const Symbol& s = m_.symbols[i];
        if (s.def.end > s.def.begin) names_.push_back({s.def.begin, i});
        for (const ByteRange& u : s.uses) names_.push_back({u.begin, i});
      }
      std::sort(names_.begin(), names_.end());
    }
    auto it = std::lower_bound(names_.begin(), names_.end(), std::pair<uint32_t, SymbolId>{offset, 0});
    return it != names_.end() && it->first == offset ? it->second : kNone;
  }

  const Module& m_;
  mutable bool indexed_ = false;
  mutable std::vector<std::pair<uint32_t, SymbolId>> names_;  // (name's offset, symbol), sorted
  std::string_view text_;
  const Cst& c_;
  ByteRange range_;
  uint32_t end_;
  std::vector<SemanticToken>& out_;
};

}  // namespace

std::vector<SemanticToken> semantic_tokens(const Module& m, const SyntaxTree& tree, std::string_view text, ByteRange range) {
  std::vector<SemanticToken> out;
  TokenWalk walk(m, text, range, out);
  for (const SyntaxTree::Piece& p : tree.pieces())
    if (p.range.end > range.begin && p.range.begin < range.end) walk.run(ts_tree_root_node(p.tree.get()));
  return out;
}

std::vector<InlayHintInfo> inlay_hints(const Module& m, std::string_view text, ByteRange range) {
  (void)text;
  Evaluator eval(m);
  std::vector<InlayHintInfo> out;
  auto in_range = [&](uint32_t o) { return o >= range.begin && o <= range.end; };
  for (const Symbol& s : m.symbols) {
    bool buffer = s.kind == SymbolKind::Smem || s.kind == SymbolKind::Tmem || s.kind == SymbolKind::Reg;
    if (!buffer || !in_range(s.decl.end) || s.decl.end == 0) continue;
    // What the buffer takes where it lives.
    if (std::optional<int64_t> b = eval.stored_bytes_of(s.type)) {
      InlayHintInfo h;
      h.kind = InlayHintInfo::Kind::Size;
      h.offset = s.decl.end;
      h.name = s.name;
      h.bytes = *b;
      if (!s.type.stage_dims.empty()) h.per_stage = eval.stored_bytes_of(s.type, s.type.stage_dims.size());
      out.push_back(h);
    }
  }
  for (const Stmt& st : m.stmts) {
    const auto* p = std::get_if<PipelineStmt>(&st.node);
    if (!p || p->stage == kNone) continue;
    const Symbol& s = m.symbol(p->stage);
    if (!in_range(s.def.end)) continue;
    InlayHintInfo h;
    h.kind = InlayHintInfo::Kind::Stage;
    h.offset = s.def.end;
    h.name = s.name;
    h.stages = p->stages == kNone ? std::nullopt : eval.fold(p->stages);
    out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const InlayHintInfo& a, const InlayHintInfo& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace cake
