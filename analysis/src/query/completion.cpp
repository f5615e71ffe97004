// Completion candidates and op signatures (cake/query_completion.h). The
// context comes from the text before the cursor (an unclosed `name[`, the
// op at the start of the line, `} reference ` of a bench), the candidates
// from the model and tables.
#include "cake/query_completion.h"

#include "cake/builtins.h"
#include "cake/ops.h"
#include "cake/query_ops.h"
#include "cake/eval.h"
#include "cake/typing.h"

#include <algorithm>
#include <cctype>

namespace cake {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr DType kCompletionDTypes[] = {DType::F64, DType::F32, DType::TF32, DType::F16, DType::BF16, DType::F8E4M3,
                             DType::F8E5M2, DType::F6E3M2, DType::F6E2M3, DType::F4E2M1, DType::I64, DType::I32,
                             DType::I16, DType::I8, DType::U64, DType::U32, DType::U16, DType::U8, DType::B32,
                             DType::Pred};

struct Snippet {
  std::string_view label, detail, body;
};
constexpr Snippet kSnippets[] = {
    {"kernel", "kernel skeleton",
     "kernel ${1:name}(${2:A}: global ${3:bf16}[${4:M}, ${5:N}] row_major)\n  grid (${6:1})\n  block ${7:128}\n{\n  $0\n}"},
    {"pipeline", "pipeline skeleton",
     "pipeline ${1:s} in ring(${2:4}) for ${3:k} in 0 .. ${4:n} {\n  wait ${5:full}[${1:s}] parity(${1:s}.phase)\n  $0\n}"},
    {"role", "role skeleton", "role ${1:name} warpgroup(${2:0}) maxnreg(${3:232}) {\n  $0\n}"},
};

CompletionCandidate candidate(CompletionCandidate::Kind kind, std::string label, std::string detail,
                              std::string insert_text = {}, SymbolKind symbol_kind = SymbolKind::Builtin) {
  CompletionCandidate c;
  c.kind = kind;
  c.label = std::move(label);
  c.detail = std::move(detail);
  c.insert_text = std::move(insert_text);
  c.symbol_kind = symbol_kind;
  return c;
}

bool is_index_name(SymbolKind k) {
  return k == SymbolKind::LoopVar || k == SymbolKind::StageVar || k == SymbolKind::Let || k == SymbolKind::Const ||
         k == SymbolKind::ShapeSymbol || k == SymbolKind::ScalarParam;
}

/// The offset of the name before the innermost unclosed `[` before
/// `offset` on its line, or nullopt.
std::optional<uint32_t> open_index_base(std::string_view text, uint32_t offset) {
  int depth = 0;
  for (uint32_t i = offset; i > 0; --i) {
    char c = text[i - 1];
    if (c == '\n') return std::nullopt;
    if (c == ']') ++depth;
    if (c == '[' && depth-- == 0) {
      uint32_t e = i - 1;
      if (e == 0 || !word_char(text[e - 1])) return std::nullopt;
      return e - 1;
    }
  }
  return std::nullopt;
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// After `} reference ` of a bench, with a name typed or not: the offset of
/// that `}`, or nullopt.
std::optional<uint32_t> after_reference(std::string_view text, uint32_t offset) {
  constexpr std::string_view kKeyword = "reference";
  uint32_t i = offset;
  while (i > 0 && word_char(text[i - 1])) --i;  // the name being typed
  uint32_t name = i;
  while (i > 0 && blank(text[i - 1])) --i;
  if (i == name || i < kKeyword.size() || text.substr(i - kKeyword.size(), kKeyword.size()) != kKeyword) return std::nullopt;
  i -= static_cast<uint32_t>(kKeyword.size());
  if (i > 0 && word_char(text[i - 1])) return std::nullopt;
  while (i > 0 && blank(text[i - 1])) --i;
  if (i == 0 || text[i - 1] != '}') return std::nullopt;
  return i - 1;
}

/// The kernel named before the `{` that the `}` at `brace` closes: the
/// benched kernel. Read from the text, since a bench being typed may not
/// parse yet.
std::string_view benched_kernel(std::string_view text, uint32_t brace) {
  uint32_t i = brace;
  while (i > 0 && text[i - 1] != '{') {
    if (text[i - 1] == '}') return {};
    --i;
  }
  if (i == 0) return {};
  --i;
  while (i > 0 && blank(text[i - 1])) --i;
  uint32_t end = i;
  while (i > 0 && word_char(text[i - 1])) --i;
  return text.substr(i, end - i);
}

/// The kernels a bench can name as its reference: every kernel but the
/// benched one (a kernel is not its own reference, CAKE-E0119).
void add_reference_kernels(const Module& m, std::string_view text, uint32_t brace,
                           std::vector<CompletionCandidate>& out) {
  std::string_view benched = benched_kernel(text, brace);
  std::vector<std::string_view> seen;
  for (const Symbol& s : m.symbols) {
    if (s.kind != SymbolKind::Kernel || s.name == benched) continue;
    if (std::find(seen.begin(), seen.end(), s.name) != seen.end()) continue;
    seen.push_back(s.name);
    out.push_back(candidate(CompletionCandidate::Kind::Name, std::string(s.name),
                            std::string(symbol_kind_name(s.kind)), {}, s.kind));
  }
}

void add_names(const Module& m, uint32_t offset, bool index_only, std::vector<CompletionCandidate>& out) {
  for (SymbolId id : symbols_in_scope(m, offset)) {
    const Symbol& s = m.symbol(id);
    if (index_only && !is_index_name(s.kind)) continue;
    out.push_back(
        candidate(CompletionCandidate::Kind::Name, std::string(s.name), std::string(symbol_kind_name(s.kind)), {}, s.kind));
  }
}

}  // namespace

std::vector<CompletionCandidate> completions_at(const Module& m, std::string_view text, uint32_t offset) {
  std::vector<CompletionCandidate> out;
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  if (std::optional<uint32_t> base = open_index_base(text, offset)) {
    SymbolId id = m.symbol_at(*base);
    if (id != kNone) {
      const Symbol& s = m.symbol(id);
      std::vector<ExprId> dims = s.type.stage_dims;
      dims.insert(dims.end(), s.type.dims.begin(), s.type.dims.end());
      Typer typer(m, nullptr);
      for (size_t i = 0; i < dims.size(); ++i) {
        CompletionCandidate c = candidate(CompletionCandidate::Kind::Dim, typer.dim_text(dims[i]), {});
        c.dim = static_cast<uint32_t>(i);
        c.stage_dim = i < s.type.stage_dims.size();
        c.buffer = std::string(s.name);
        out.push_back(std::move(c));
      }
      add_names(m, offset, true, out);
      return out;
    }
  }
  if (std::optional<uint32_t> brace = after_reference(text, offset)) {
    add_reference_kernels(m, text, *brace, out);
    return out;
  }
  for (std::string_view k : keywords())
    if (!find_builtin_function(k)) out.push_back(candidate(CompletionCandidate::Kind::Keyword, std::string(k), "keyword"));
  for (const BuiltinFunction& f : kBuiltinFunctions)
    out.push_back(candidate(CompletionCandidate::Kind::Function, std::string(f.name),
                            std::string(f.signature) + ": " + std::string(f.summary)));
  for (const OpInfo& op : all_ops())
    if (op_supported_by(op.op, m))
      out.push_back(candidate(CompletionCandidate::Kind::Op, std::string(op.spelling), std::string(op.summary)));
  for (DType d : kCompletionDTypes) out.push_back(candidate(CompletionCandidate::Kind::Type, std::string(dtype_name(d)), "element type"));
  add_names(m, offset, false, out);
  for (const Snippet& s : kSnippets)
    out.push_back(
        candidate(CompletionCandidate::Kind::Snippet, std::string(s.label), std::string(s.detail), std::string(s.body)));
  return out;
}

std::optional<SignatureInfo> signature_at(std::string_view text, uint32_t offset) {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  uint32_t line = offset;
  while (line > 0 && text[line - 1] != '\n') --line;
  uint32_t b = line;
  while (b < offset && (text[b] == ' ' || text[b] == '\t')) ++b;
  uint32_t e = b;
  while (e < text.size() && (word_char(text[e]) || text[e] == '.')) ++e;
  std::optional<Op> op = parse_op(text.substr(b, e - b));
  if (!op || e > offset) return std::nullopt;
  SignatureInfo sig;
  sig.label = std::string(op_spelling(*op));
  sig.documentation = std::string(op_info(*op).summary);
  std::string_view form = op_form(*op);
  if (!form.empty()) sig.label += " " + std::string(form);
  // Operands are the form's runs between separators (`multicast(mask)` is one).
  static constexpr std::string_view kSeparators = " ,<-=+@[]|";
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (auto i = static_cast<uint32_t>(op_spelling(*op).size()) + 1; i < sig.label.size();) {
    uint32_t j = i;
    while (j < sig.label.size() && kSeparators.find(sig.label[j]) == std::string_view::npos) ++j;
    std::string_view run = std::string_view(sig.label).substr(i, j - i);
    while (!run.empty() && !alnum(run.front())) run.remove_prefix(1), ++i;
    while (!run.empty() && !alnum(run.back())) run.remove_suffix(1);
    if (!run.empty()) sig.parameters.push_back({i, i + static_cast<uint32_t>(run.size())});
    i = std::max(j, i + static_cast<uint32_t>(run.size())) + 1;
  }
  // The active operand: separators typed since the op, outside brackets.
  uint32_t seen = 0;
  int depth = 0;
  for (uint32_t i = e; i < offset; ++i) {
    char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (depth > 0) continue;
    if (c == ',' || c == '@' || (c == '-' && text[i - 1] == '<') || (c == '=' && text[i - 1] != '<')) ++seen;
  }
  sig.active = sig.parameters.empty() ? 0 : std::min<uint32_t>(seen, static_cast<uint32_t>(sig.parameters.size() - 1));
  return sig;
}

}  // namespace cake
