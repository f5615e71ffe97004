// The register order of each fragment of a kernel, one home for the verifier
// (E0509, checks/fragment_order.cpp) and the lowering (codegen/src/
// mma_sync.cpp). `ldmatrix r <- S trans` fills r with the tile's values in
// the register order of its transpose (docs/language.md): what the mma.sync
// B operand of `a @ b` (b [K, N]) needs, and what no other reader expects.
// The CPU executor sees the same values either way, so a fragment read in
// the wrong order computes the right answer there and a wrong one on a GPU.
#pragma once

#include "cake/model.h"

#include <set>
#include <vector>

namespace cake {

/// The dtypes a plain ldmatrix fills in the mma.sync operand layout: 8-bit
/// (m16n8k32) and tf32 (m16n8k8), whose operands take 32 bits of a row.
bool ldmatrix_fills_operand_order(DType d);

struct FragmentOrder {
  /// Fragments some `ldmatrix ... trans` fills.
  std::set<SymbolId> transposed;
  struct Misuse {
    enum class Kind {
      NeedsTrans,  // `a @ b` reads b, which `writer` fills in plain order
      Transposed,  // `at` reads a transposed fragment as if in plain order
      Mixed,       // `writer` fills a transposed fragment in plain order
      StrayTrans,  // `stmatrix ... trans` of a fragment filled in plain order
      TransShape,  // `ldmatrix/stmatrix ... trans` of a fragment whose transpose is no mma.sync B
    } kind;
    ByteRange at;           // the operand or statement that is wrong
    SymbolId symbol = kNone;
    StmtId writer = kNone;  // the statement that set the order it conflicts with
    StmtId stmt = kNone;    // Mixed, StrayTrans, TransShape: the statement at `at`
  };
  std::vector<Misuse> misuses;
  /// 8-bit and tf32 fragments some plain `ldmatrix` fills and nothing
  /// reads but an mma (as `a`, or `b` of `b.T`) or, 8-bit, a plain
  /// stmatrix. ldmatrix hands a tile out in the mma.sync operand layout of
  /// m16n8k32 (four 8-bit columns of a row to a register) or m16n8k8.tf32
  /// (one column), not the accumulator layout other such fragments keep,
  /// and the lowering keeps these in that order: an mma reads them as they
  /// are. One read otherwise keeps the accumulator layout, which the
  /// lowering then fills value by value instead.
  std::set<SymbolId> operand_order;
};

/// Whether `trans` can give fragment type `t` the register order of its
/// transpose: a 16-bit `mma_acc` [K, N] whose N is a multiple of 16, so its
/// transpose [N, K] is whole 16 × 8 tiles of the layout.
bool trans_order_fits(const Module& m, const ValueType& t);

/// The order facts of kernel `k`.
FragmentOrder fragment_order(const Module& m, const Kernel& k);

}  // namespace cake
