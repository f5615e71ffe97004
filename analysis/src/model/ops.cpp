// The op table (cake/ops.h): one constexpr row per line of ops.def, and the
// names of its columns' values. op_spelling(), op_family(), parse_op()
// (cake/model.h) and op_feature() (cake/arch.h) read it too.
#include "cake/ops.h"

#include "cake/roles.h"

#include <array>
#include <type_traits>
#include <variant>

namespace cake {
namespace {

// Each column of ops.def is spelt without its enum's name; these turn a
// column into a value. A space list `(Smem, Global)` becomes a SpaceSet.
#define CAKE_SPACE_SET(...) [] { using enum Space; return SpaceSet{__VA_ARGS__}; }()
namespace feature_column {
using enum Feature;
constexpr std::optional<Feature> Any = std::nullopt;
}  // namespace feature_column

constexpr OpInfo kOps[] = {
#define CAKE_OP(ID, SPELLING, FAMILY, FEATURE, OP1, OP2, OP3, ENGINE, COMPLETION, ISSUE, SUMMARY)                    \
  {Op::ID,                                                                                                   \
   SPELLING,                                                                                                 \
   OpFamily::FAMILY,                                                                                         \
   feature_column::FEATURE,                                                                                  \
   {CAKE_SPACE_SET OP1, CAKE_SPACE_SET OP2, CAKE_SPACE_SET OP3},                                              \
   OpEngine::ENGINE,                                                                                         \
   OpCompletion::COMPLETION,                                                                                 \
   OpIssue::ISSUE,                                                                                           \
   SUMMARY},
#include "cake/ops.def"
#undef CAKE_OP
};
#undef CAKE_SPACE_SET

/// The table is in enum order, so op_info() indexes it.
constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (static_cast<size_t>(kOps[i].op) != i) return false;
  return true;
}
static_assert(in_enum_order());

}  // namespace

const OpInfo& op_info(Op op) { return kOps[static_cast<size_t>(op)]; }
std::span<const OpInfo> all_ops() { return kOps; }

unsigned mma_k_bits(Op op) {
  switch (op) {
    // mma.sync's narrowest shapes: m16n8k8 (16-bit), m16n8k4 (tf32), m16n8k16 (8-bit).
    case Op::Mma: return 128;
    // wgmma m64nNk16 / k8 / k32 and tcgen05.mma's K: 32 bytes of a row.
    case Op::Wgmma: case Op::Tcgen05Mma: return 256;
    case Op::Load: case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore:
    case Op::BulkLoad: case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp:
    case Op::CpAsyncCommit: case Op::WgmmaFence: case Op::WgmmaCommit: case Op::TmaStoreCommit: case Op::Tcgen05WaitLd:
    case Op::Tcgen05WaitSt: case Op::Syncthreads: case Op::ClusterSync: case Op::FenceProxyAsync: case Op::CpAsyncWait:
    case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx:
    case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow: return 0;
  }
  return 0;
}

std::optional<Op> op_of(const Stmt& s) {
  return std::visit(
      [](const auto& node) -> std::optional<Op> {
        if constexpr (requires { node.op; }) {
          if constexpr (std::is_same_v<std::decay_t<decltype(node.op)>, Op>) return node.op;
        }
        return std::nullopt;
      },
      s.node);
}

std::string_view op_spelling(Op op) { return op_info(op).spelling; }
OpFamily op_family(Op op) { return op_info(op).family; }
std::optional<Feature> op_feature(Op op) { return op_info(op).feature; }

std::optional<Op> parse_op(std::string_view spelling) {
  for (const OpInfo& row : kOps)
    if (row.spelling == spelling) return row.op;
  return std::nullopt;
}

std::string spaces_text(SpaceSet set) {
  std::string out;
  std::vector<std::string_view> names;
  for (unsigned i = 0; i <= static_cast<unsigned>(Space::None); ++i)
    if (set.has(static_cast<Space>(i))) names.push_back(space_name(static_cast<Space>(i)));
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string_view engine_name(OpEngine engine) {
  switch (engine) {
    case OpEngine::Lsu: return "load/store unit";
    case OpEngine::AsyncCopy: return "cp.async";
    case OpEngine::CopyEngine: return "TMA";
    case OpEngine::TensorCore: return "tensor core";
    case OpEngine::TmemPath: return "tensor memory";
    case OpEngine::Sync: return "synchronisation";
    case OpEngine::Alu: return "ALU";
  }
  return "";
}

bool async_proxy(OpEngine engine) {
  switch (engine) {
    case OpEngine::CopyEngine:
    case OpEngine::TensorCore:
    case OpEngine::TmemPath:
      return true;
    case OpEngine::Lsu:
    case OpEngine::AsyncCopy:
    case OpEngine::Sync:
    case OpEngine::Alu:
      return false;
  }
  return false;
}

std::string_view completion_name(OpCompletion completion) {
  switch (completion) {
    case OpCompletion::Immediate: return "done before the next statement";
    case OpCompletion::Blocking: return "blocks until its condition holds";
    case OpCompletion::Mbarrier: return "completes on its mbarrier";
    case OpCompletion::CpAsyncGroup: return "completes by `cp.async.wait` on its commit group";
    case OpCompletion::WgmmaGroup: return "completes by `wgmma.wait` on its commit group";
    case OpCompletion::TmaStoreGroup: return "completes by `tma.store.wait` on its commit group";
    case OpCompletion::Tcgen05Commit: return "completes on the mbarrier of a later `tcgen05.commit`";
    case OpCompletion::Tcgen05WaitLd: return "completes by `tcgen05.wait.ld`";
    case OpCompletion::Tcgen05WaitSt: return "completes by `tcgen05.wait.st`";
  }
  return "";
}

std::string_view issue_name(OpIssue issue) {
  switch (issue) {
    case OpIssue::Collective: return "the executing threads together";
    case OpIssue::PerThread: return "each executing thread";
    case OpIssue::Warp: return "each warp";
    case OpIssue::Warpgroup: return "each warpgroup";
    case OpIssue::Block: return "every thread of the CTA";
    case OpIssue::Cluster: return "every thread of the cluster";
  }
  return "";
}

bool mma_operand_mn_major(const Module& m, ExprId written, bool a) {
  if (written == kNone) return false;
  const Expr& w = m.exprs[written];
  bool transposed = w.kind == Expr::Kind::Transpose;
  SymbolId buffer = root_symbol(m, transposed ? w.lhs : written);
  bool col = buffer != kNone && is_col_major(m.symbols[buffer].type);
  // A stored [M, K] row-major is K-major; B stored [K, N] row-major is N-major.
  return (a ? transposed : !transposed) != col;
}

}  // namespace cake
