// The op table: every column of ops.def for every op, as one constexpr
// table generated from that file. Op data (spelling, form, feature, the
// spaces of each operand, engine, completion, issue granularity, summary)
// is read from here by the verifier, the cost model, the editor queries and
// the lowering; op behaviour is a `switch (op)` with no `default:`.
#pragma once

#include "cake/arch.h"
#include "cake/model.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cake {

/// A set of memory spaces, one bit per `Space`.
struct SpaceSet {
  uint16_t bits = 0;
  constexpr SpaceSet() = default;
  constexpr SpaceSet(std::initializer_list<Space> spaces) {
    for (Space s : spaces) bits = static_cast<uint16_t>(bits | (1u << static_cast<unsigned>(s)));
  }
  constexpr bool has(Space s) const { return (bits >> static_cast<unsigned>(s)) & 1u; }
  constexpr bool empty() const { return bits == 0; }
  friend constexpr bool operator==(SpaceSet, SpaceSet) = default;
};
/// "smem or global": the spaces in enum order, joined with "or".
std::string spaces_text(SpaceSet set);

/// What executes an op (ops.def's Engine column).
enum class OpEngine : uint8_t { Lsu, AsyncCopy, CopyEngine, TensorCore, TmemPath, Sync, Alu };
/// When an op's effect is done (ops.def's Completion column).
enum class OpCompletion : uint8_t {
  Immediate, Blocking, Mbarrier, CpAsyncGroup, WgmmaGroup, TmaStoreGroup, Tcgen05Commit, Tcgen05WaitLd, Tcgen05WaitSt
};
/// Who issues one instance of an op (ops.def's Issue column).
enum class OpIssue : uint8_t { Collective, PerThread, Warp, Warpgroup, Block, Cluster };

std::string_view engine_name(OpEngine engine);
/// Whether an engine reaches shared memory through the async proxy (PTX
/// ISA, memory consistency model, "Proxies"): the TMA unit, the tensor
/// cores' operand path and the tensor-memory data path do; the load/store
/// unit and cp.async use the generic proxy. A generic-proxy write read
/// through the async proxy needs `fence.proxy.async` between (E0604).
bool async_proxy(OpEngine engine);
std::string_view completion_name(OpCompletion completion);
std::string_view issue_name(OpIssue issue);

/// One line of ops.def.
struct OpInfo {
  Op op;
  std::string_view spelling;
  OpFamily family;
  /// The feature a target needs, or nullopt when every target has the op.
  std::optional<Feature> feature;
  /// The spaces of each operand in the family's order: Move (dst, src),
  /// Mma (acc, a, b). Empty: not a memory operand (a tensormap box) or none.
  SpaceSet operands[3];
  OpEngine engine;
  OpCompletion completion;
  OpIssue issue;
  /// One line: what the op does.
  std::string_view summary;
};

/// The row of `op`.
const OpInfo& op_info(Op op);
/// The op of a statement that has one (moves, mma, plain ops, group waits,
/// arrivals, commits, arg-reductions).
std::optional<Op> op_of(const Stmt& s);
/// Bits of each row of A and B that one instruction of a matrix multiply
/// takes along K, at the narrowest shape the PTX ISA has (its K is this over
/// the operands' width: wgmma's k16 for 16-bit operands is 256 bits); 0 for
/// an op that is not one.
unsigned mma_k_bits(Op op);
/// Whether the shared-memory MMA operand `written` (A if `a`, else B, as
/// written: `sA[s]`, `sB[s].T`) is MN-major: stored with its M (A) or N (B)
/// dim contiguous. The product reads A as [M, K] and B as [K, N]; `.T`
/// swaps a tile's last two dims and `col_major` makes its first dim the
/// contiguous one (docs/language.md), so each flips the answer.
bool mma_operand_mn_major(const Module& m, ExprId written, bool a);
/// Every row, in ops.def's order (`all_ops()[i].op == Op(i)`).
std::span<const OpInfo> all_ops();

}  // namespace cake
