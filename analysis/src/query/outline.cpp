// The outline of a file and the item search of workspace symbols
// (cake/query.h), read from the model's items and statements.
#include "cake/query.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace cake {
namespace {

std::optional<OutlineKind> resource_kind(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Smem: case SymbolKind::Dsmem: return OutlineKind::Smem;
    case SymbolKind::Tmem: return OutlineKind::Tmem;
    case SymbolKind::Reg: return OutlineKind::Reg;
    case SymbolKind::Mbarrier: return OutlineKind::Mbarrier;
    case SymbolKind::NamedBarrier: return OutlineKind::NamedBarrier;
    case SymbolKind::Tensormap: return OutlineKind::Tensormap;
    case SymbolKind::Const: case SymbolKind::ShapeSymbol: case SymbolKind::TensorParam:
    case SymbolKind::ScalarParam: case SymbolKind::Let: case SymbolKind::LoopVar:
    case SymbolKind::StageVar: case SymbolKind::Role: case SymbolKind::Kernel:
    case SymbolKind::Dispatch: case SymbolKind::DispatchParam: case SymbolKind::Builtin:
      return std::nullopt;
  }
  return std::nullopt;
}

/// An entry for a named symbol, or nullopt when the name is missing.
std::optional<OutlineItem> entry(const Module& m, SymbolId id, OutlineKind kind, ByteRange range) {
  if (id == kNone) return std::nullopt;
  const Symbol& s = m.symbol(id);
  if (s.name.empty() || s.def.end == s.def.begin) return std::nullopt;
  OutlineItem item;
  item.name = std::string(s.name);
  item.detail = std::string(symbol_kind_name(s.kind));
  item.kind = kind;
  item.selection = s.def;
  item.range = range.end > range.begin ? range : s.def;
  item.range.begin = std::min(item.range.begin, s.def.begin);
  item.range.end = std::max(item.range.end, s.def.end);
  return item;
}

/// Adds the resources declared in `body` (through nested blocks, but not
/// into roles, which get their own entry) and its roles to `out`.
void add_body(const Module& m, const std::vector<StmtId>& body, std::vector<OutlineItem>& out) {
  std::vector<StmtId> work(body.rbegin(), body.rend());  // a worklist: nesting depth is unbounded
  while (!work.empty()) {
    const Stmt& st = m.stmt(work.back());
    work.pop_back();
    auto push_all = [&](const std::vector<StmtId>& ids) { work.insert(work.end(), ids.rbegin(), ids.rend()); };
    if (auto* d = std::get_if<DeclStmt>(&st.node)) {
      if (d->symbol == kNone) continue;
      if (auto kind = resource_kind(m.symbol(d->symbol).kind))
        if (auto item = entry(m, d->symbol, *kind, st.range)) out.push_back(std::move(*item));
    } else if (auto* r = std::get_if<RoleStmt>(&st.node)) {
      if (auto item = entry(m, r->symbol, OutlineKind::Role, st.range)) {
        add_body(m, r->body, item->children);
        out.push_back(std::move(*item));
      }
    } else if (auto* e = std::get_if<ElectStmt>(&st.node)) {
      push_all(e->body);
    } else if (auto* f = std::get_if<ForStmt>(&st.node)) {
      push_all(f->body);
    } else if (auto* p = std::get_if<PipelineStmt>(&st.node)) {
      push_all(p->body);
    } else if (auto* i = std::get_if<IfStmt>(&st.node)) {
      push_all(i->else_body);
      push_all(i->then_body);
    }
  }
}

bool contains_ignoring_case(std::string_view haystack, std::string_view needle) {
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                        [&](char a, char b) { return lower(a) == lower(b); });
  return it != haystack.end() || needle.empty();
}

}  // namespace

std::vector<OutlineItem> outline(const Module& m) {
  std::vector<OutlineItem> out;
  for (const Kernel& k : m.kernels)
    if (auto item = entry(m, k.symbol, OutlineKind::Kernel, k.range)) {
      add_body(m, k.body, item->children);
      out.push_back(std::move(*item));
    }
  for (const ConstItem& c : m.consts)
    if (auto item = entry(m, c.symbol, OutlineKind::Const, m.symbol(c.symbol).decl)) out.push_back(std::move(*item));
  for (const Dispatch& d : m.dispatches)
    if (auto item = entry(m, d.symbol, OutlineKind::Dispatch, d.range)) out.push_back(std::move(*item));
  for (const Bench& b : m.benches) {
    if (b.kernel.empty()) continue;
    OutlineItem item;
    item.name = "bench " + std::string(b.kernel);
    item.detail = "a benchmark";
    item.kind = OutlineKind::Bench;
    item.range = b.range;
    item.selection = b.kernel_range;
    out.push_back(std::move(item));
  }
  std::stable_sort(out.begin(), out.end(), [](const OutlineItem& a, const OutlineItem& b) { return a.range.begin < b.range.begin; });
  return out;
}

std::vector<OutlineItem> find_items(const Module& m, std::string_view query) {
  std::vector<OutlineItem> out;
  for (OutlineItem& item : outline(m)) {
    if (item.kind == OutlineKind::Bench || !contains_ignoring_case(item.name, query)) continue;
    item.children.clear();
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace cake
