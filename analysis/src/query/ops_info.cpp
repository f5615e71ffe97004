// Op forms for editors, keyword list and scope look-up (cake/query_ops.h).
// Everything else about an op is a column of the op table (cake/ops.h).
#include "cake/query_ops.h"

#include <array>

namespace cake {
namespace {

constexpr std::string_view kKeywords[] = {
    "target", "kernel", "where", "grid", "block", "cluster", "nonportable", "cta_group", "const", "dispatch", "when", "else",
    "bench", "reference", "global", "smem", "tmem", "reg", "mbarrier", "namedbarrier", "tensormap", "box", "dsmem", "cta", "swizzle", "layout",
    "row_major", "col_major", "count", "threads", "id", "role", "warpgroup", "warp", "all", "maxnreg", "let", "for",
    "in", "pipeline", "ring", "if", "elect", "elect.warp", "elect.warpgroup", "wait", "parity", "sync", "bytes",
    "multicast", "trans", "accumulate", "base", "reduce.row", "max", "min", "sum", "cvt", "true", "false"};

/// The statement of `id`'s parent chain covers `offset` (file scope: always).
bool scope_covers(const Module& m, StmtId id, uint32_t offset) {
  return id == kNone || m.stmt(id).range.contains(offset) || m.stmt(id).range.end == offset;
}

}  // namespace

std::string_view op_form(Op op) {
  switch (op_family(op)) {
    case OpFamily::Move: return "dst <- src [, barrier] [multicast(mask)] [trans]";
    case OpFamily::Mma: return "acc (=|+=) a @ b [, accumulate(p)]";
    case OpFamily::Plain: return "";
    case OpFamily::GroupWait: return "n";
    case OpFamily::Arrive: return op == Op::ArriveExpectTx ? "barrier, bytes(n)" : "barrier";
    case OpFamily::Commit: return "barrier [multicast(mask)]";
    case OpFamily::ArgReduce: return "value, index <- src [, base(e)]";
  }
  return "";
}

bool op_supported_by(Op op, const Module& m) {
  std::optional<Feature> f = op_feature(op);
  for (const Target& t : m.targets) {
    const TargetInfo* target = find_target(t.name);
    if (target && f && !target->has(*f)) return false;
  }
  return true;
}

std::span<const std::string_view> keywords() { return kKeywords; }

std::vector<SymbolId> symbols_in_scope(const Module& m, uint32_t offset) {
  uint32_t kernel = kNone;
  for (uint32_t k = 0; k < m.kernels.size(); ++k)
    if (m.kernels[k].range.contains(offset)) kernel = k;
  std::vector<SymbolId> out;
  for (SymbolId id = 0; id < m.symbols.size(); ++id) {
    const Symbol& s = m.symbols[id];
    if (s.name.empty() || s.kind == SymbolKind::Builtin) continue;
    if (s.kernel != kNone && s.kernel != kernel) continue;
    bool ordered = s.kind != SymbolKind::Kernel && s.kind != SymbolKind::Dispatch && s.kind != SymbolKind::ShapeSymbol &&
                   s.kind != SymbolKind::TensorParam && s.kind != SymbolKind::ScalarParam;
    if (ordered && s.def.end > offset) continue;
    if (s.stmt != kNone) {
      bool binder = s.kind == SymbolKind::LoopVar || s.kind == SymbolKind::StageVar;
      StmtId scope = binder ? s.stmt : m.stmt(s.stmt).parent;
      if (s.kind != SymbolKind::Role && !scope_covers(m, scope, offset)) continue;
    }
    out.push_back(id);
  }
  return out;
}

}  // namespace cake
