// The symbol under a cursor, its occurrences and rename (cake/query.h). All
// of it reads the def-use table of the model: a reference is a range in
// Symbol::uses, a definition is Symbol::def.
#include "cake/query.h"

#include "cake/syntax.h"

#include <algorithm>
#include <string_view>

namespace cake {
namespace {

bool is_identifier(std::string_view name) {
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !alpha(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

/// A keyword: an anonymous token of the grammar spelled like an identifier.
bool is_keyword(std::string_view name) {
  const TSLanguage* language = tree_sitter_cake();
  uint32_t count = ts_language_symbol_count(language);
  for (TSSymbol s = 0; s < count; ++s)
    if (ts_language_symbol_type(language, s) == TSSymbolTypeAnonymous && ts_language_symbol_name(language, s) == name)
      return true;
  return false;
}

bool is_builtin_name(std::string_view name) {
  // The model declares these first, as SymbolKind::Builtin; a fresh model of
  // an empty text is too costly here, so keep the list beside the check.
  constexpr std::string_view kBuiltins[] = {"block", "cluster", "role", "warp", "lane", "inf", "nan"};
  return std::find(std::begin(kBuiltins), std::end(kBuiltins), name) != std::end(kBuiltins);
}

}  // namespace

SymbolId symbol_at_cursor(const Module& module, uint32_t offset) {
  SymbolId id = module.symbol_at(offset);
  if (id == kNone && offset > 0) id = module.symbol_at(offset - 1);
  return id;
}

std::vector<Occurrence> occurrences(const Module& module, SymbolId symbol, bool include_definition) {
  std::vector<Occurrence> out;
  if (symbol == kNone || symbol >= module.symbols.size()) return out;
  const Symbol& s = module.symbol(symbol);
  bool has_def = s.def.end > s.def.begin;
  if (include_definition && has_def) out.push_back({s.def, true});
  for (const ByteRange& use : s.uses)
    if (!(has_def && use == s.def)) out.push_back({use, false});
  std::sort(out.begin(), out.end(), [](const Occurrence& a, const Occurrence& b) { return a.range.begin < b.range.begin; });
  out.erase(std::unique(out.begin(), out.end(), [](const Occurrence& a, const Occurrence& b) { return a.range == b.range; }),
            out.end());
  return out;
}

bool is_valid_name(std::string_view name) {
  return is_identifier(name) && !is_keyword(name) && !is_builtin_name(name) && !parse_dtype(name);
}

RenamePlan prepare_rename(const Module& module, uint32_t offset) {
  RenamePlan plan;
  plan.symbol = symbol_at_cursor(module, offset);
  if (plan.symbol == kNone) {
    plan.error = "there is no symbol to rename here";
    return plan;
  }
  const Symbol& s = module.symbol(plan.symbol);
  if (s.kind == SymbolKind::Builtin || s.def.end == s.def.begin) {
    plan.error = "`" + std::string(s.name) + "` is a builtin and cannot be renamed";
    return plan;
  }
  for (const Occurrence& o : occurrences(module, plan.symbol, true))
    if (o.range.contains(offset) || o.range.end == offset) plan.range = o.range;
  return plan;
}

RenameResult rename_symbol(const Module& module, uint32_t offset, std::string_view new_name) {
  RenameResult result;
  RenamePlan plan = prepare_rename(module, offset);
  if (!plan.error.empty()) {
    result.error = plan.error;
    return result;
  }
  const Symbol& s = module.symbol(plan.symbol);
  if (!is_valid_name(new_name)) {
    result.error = "`" + std::string(new_name) + "` is not a valid name (a keyword, type, builtin or no identifier)";
    return result;
  }
  if (new_name == s.name) return result;
  // Names may not shadow (docs/language.md): a clash with any name of the
  // same kernel or of file scope would change what the text means.
  for (const Symbol& other : module.symbols)
    if (other.name == new_name && other.kind != SymbolKind::Builtin &&
        (other.kernel == kNone || s.kernel == kNone || other.kernel == s.kernel)) {
      result.error = "`" + std::string(new_name) + "` is already defined";
      return result;
    }
  for (const Occurrence& o : occurrences(module, plan.symbol, true)) result.edits.push_back({o.range, std::string(new_name)});
  return result;
}

}  // namespace cake
