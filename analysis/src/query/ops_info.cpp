// Op descriptions for editors, keyword list and scope look-up
// (cake/query_ops.h). The op table lists every op once; ops.def stays the
// source of the spellings.
#include "cake/query_ops.h"

#include <array>

namespace cake {
namespace {

struct OpInfo {
  Op op;
  std::string_view summary;
};

constexpr OpInfo kOps[] = {
    {Op::Load, "copies a tile into registers or shared memory (plain loads)"},
    {Op::Store, "writes a tile to global or shared memory (plain stores)"},
    {Op::CpAsync, "asynchronous global-to-shared copy (`cp.async`), tracked by commit groups"},
    {Op::TmaLoad, "TMA tensor load of a box into shared memory, completing on an mbarrier"},
    {Op::TmaStore, "TMA tensor store of a shared-memory tile to global memory"},
    {Op::BulkLoad, "bulk (non-tensor) copy into shared memory, completing on an mbarrier"},
    {Op::Ldmatrix, "loads 8x8 matrices from shared memory into an mma fragment"},
    {Op::Stmatrix, "stores an mma fragment as 8x8 matrices into shared memory"},
    {Op::Tcgen05Ld, "reads tensor memory into registers"},
    {Op::Tcgen05St, "writes registers into tensor memory"},
    {Op::Tcgen05Cp, "copies shared memory into tensor memory"},
    {Op::Mma, "warp-level matrix multiply-accumulate (`mma.sync`) on register fragments"},
    {Op::Wgmma, "warpgroup asynchronous matrix multiply-accumulate from shared memory"},
    {Op::Tcgen05Mma, "5th-generation tensor-core MMA into tensor memory"},
    {Op::CpAsyncCommit, "closes the current `cp.async` group"},
    {Op::WgmmaFence, "orders register accesses before the next `wgmma`"},
    {Op::WgmmaCommit, "closes the current `wgmma` group"},
    {Op::TmaStoreCommit, "closes the current TMA store group"},
    {Op::Tcgen05WaitLd, "waits for this thread's `tcgen05.ld`s"},
    {Op::Tcgen05WaitSt, "waits for this thread's `tcgen05.st`s"},
    {Op::Syncthreads, "block-wide barrier (`__syncthreads`)"},
    {Op::ClusterSync, "cluster-wide barrier"},
    {Op::FenceProxyAsync, "orders generic-proxy writes before async-proxy reads"},
    {Op::CpAsyncWait, "waits until at most `n` `cp.async` groups are pending"},
    {Op::WgmmaWait, "waits until at most `n` `wgmma` groups are pending"},
    {Op::TmaStoreWait, "waits until at most `n` TMA store groups are pending"},
    {Op::Arrive, "arrives on an mbarrier"},
    {Op::ArriveExpectTx, "arrives on an mbarrier and adds the bytes of the phase's transactions"},
    {Op::Tcgen05Commit, "makes an mbarrier track completion of prior `tcgen05` ops"},
    {Op::ArgminRow, "per-row minimum and its index"},
    {Op::ArgmaxRow, "per-row maximum and its index"},
};

const OpInfo& info(Op op) { return kOps[static_cast<size_t>(op)]; }

constexpr std::string_view kKeywords[] = {
    "target", "kernel", "where", "grid", "block", "cluster", "nonportable", "const", "dispatch", "when", "else",
    "bench", "global", "smem", "tmem", "reg", "mbarrier", "namedbarrier", "tensormap", "box", "swizzle", "layout",
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

std::string_view op_summary(Op op) { return info(op).summary; }

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
