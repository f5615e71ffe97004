// Semantic tokens and inlay hints (cake/query_tokens.h). A small scanner
// finds comments, numbers and words; the model says what a word names (its
// symbol, or the op keyword of a statement).
#include "cake/query_tokens.h"

#include "cake/arch.h"
#include "cake/query_ops.h"
#include "semantics/eval.h"

#include <algorithm>
#include <cctype>

namespace cake {
namespace {

bool word_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

TokenKind symbol_token(SymbolKind k) {
  switch (k) {
    case SymbolKind::Smem:
    case SymbolKind::Tmem:
    case SymbolKind::Reg:
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

}  // namespace

std::vector<SemanticToken> semantic_tokens(const Module& m, std::string_view text, ByteRange range) {
  std::vector<ByteRange> ops;
  for (const Stmt& s : m.stmts)
    if (s.keyword.end > s.keyword.begin && parse_op(text.substr(s.keyword.begin, s.keyword.end - s.keyword.begin)))
      ops.push_back(s.keyword);
  std::sort(ops.begin(), ops.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  const std::span<const std::string_view> kw = keywords();

  std::vector<SemanticToken> out;
  uint32_t end = std::min<uint32_t>(range.end, static_cast<uint32_t>(text.size()));
  auto op_index = ops.begin();
  for (uint32_t i = 0; i < end;) {
    char c = text[i];
    uint32_t j = i + 1;
    std::optional<TokenKind> kind;
    if (c == '/' && j < text.size() && (text[j] == '/' || text[j] == '*')) {
      bool line = text[j] == '/';
      size_t close = line ? text.find('\n', i) : text.find("*/", i + 2);
      j = close == std::string_view::npos ? static_cast<uint32_t>(text.size())
                                          : static_cast<uint32_t>(close + (line ? 0 : 2));
      kind = TokenKind::Comment;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < text.size() && (word_char(text[j]) || (text[j] == '.' && j + 1 < text.size() &&
                                                        std::isdigit(static_cast<unsigned char>(text[j + 1])))))
        ++j;
      kind = TokenKind::Number;
    } else if (word_start(c)) {
      while (op_index != ops.end() && op_index->end <= i) ++op_index;
      if (op_index != ops.end() && op_index->begin == i) {
        j = op_index->end;
        kind = TokenKind::Op;
      } else {
        while (j < text.size() && word_char(text[j])) ++j;
        std::string_view w = text.substr(i, j - i);
        // Dotted keywords (`elect.warp`, `reduce.row`) are one token.
        uint32_t k = j;
        while (k + 1 < text.size() && text[k] == '.' && word_start(text[k + 1])) {
          uint32_t e = k + 1;
          while (e < text.size() && word_char(text[e])) ++e;
          if (std::find(kw.begin(), kw.end(), text.substr(i, e - i)) == kw.end()) break;
          k = j = e;
          w = text.substr(i, e - i);
        }
        SymbolId id = m.symbol_at(i);
        bool target = std::any_of(m.targets.begin(), m.targets.end(), [&](const Target& t) { return t.range.begin == i; });
        if (target) kind = TokenKind::Target;
        else if (id != kNone && m.symbol(id).kind != SymbolKind::Builtin) kind = symbol_token(m.symbol(id).kind);
        else if (parse_dtype(w)) kind = TokenKind::Type;
        else if (std::find(kw.begin(), kw.end(), w) != kw.end()) kind = TokenKind::Keyword;
      }
    }
    if (kind && j > range.begin && i >= range.begin) add_lines(text, {i, std::min<uint32_t>(j, end)}, *kind, out);
    i = j;
  }
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
    if (std::optional<int64_t> b = eval.bytes_of(s.type)) {
      std::string label = std::to_string(*b) + " B";
      if (*b >= 1024 && *b % 1024 == 0) label = std::to_string(*b / 1024) + " KB";
      out.push_back({s.decl.end, label});
    }
  }
  for (const Stmt& st : m.stmts) {
    const auto* p = std::get_if<PipelineStmt>(&st.node);
    if (!p || p->stage == kNone) continue;
    const Symbol& s = m.symbol(p->stage);
    if (!in_range(s.def.end)) continue;
    std::string stages = p->stages == kNone ? "" : eval.fold(p->stages) ? std::to_string(*eval.fold(p->stages)) : "";
    std::string name(s.name);
    out.push_back({s.def.end, ": stage" + (stages.empty() ? "" : " 0.." + std::to_string(std::stoll(stages) - 1)) +
                                  ", phase " + name + ".phase"});
  }
  std::sort(out.begin(), out.end(), [](const InlayHintInfo& a, const InlayHintInfo& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace cake
