// Shared-memory bank conflicts of the reads a statement makes, computed
// from the buffer's layout (row pitch and swizzle) and the access pattern
// of the instruction that reads it. Shared by the cost model (a read with
// an n-way conflict costs n times its bytes of shared-memory bandwidth) and
// the W0703 check, so the diagnostic and the estimate agree.
//
// Shared memory serves one request of `banks × bank_bytes` (128) bytes per
// clock when every bank is asked for at most one distinct word; a request
// that asks one bank for n distinct words takes n clocks. A warp's access is
// served in phases of 128 bytes; which addresses one phase holds depends on
// the instruction:
//   - Matrix: 8 rows of 16 bytes (ldmatrix's 8×8 matrices, and the core
//     matrices a wgmma or tcgen05.mma reads from a shared-memory operand);
//   - Accumulator: a register fragment with an accumulator layout
//     (mma_acc, wgmma_acc, tcgen05_acc) holds, per row, 2 consecutive
//     elements in each of a quad's 4 threads: rows of 8 elements.
// Reads into plain (per-thread) fragments are left out: each thread reads
// its own copy at addresses the model does not know, often the same words
// (a broadcast, which never conflicts).
// The rows are the buffer's rows: `pitch` bytes apart, the swizzle applied
// to each byte offset (CUTLASS's Swizzle<B, 4, 3>: bits 4.. XOR bits 7..),
// at most as many as the slice has.
#pragma once

#include "cake/arch.h"
#include "cake/model.h"
#include "cake/typing.h"

#include <optional>
#include <vector>

namespace cake {

/// A swizzle as bit fields of a byte offset: the `mask` bits from
/// `chunk_shift` (the 16-byte chunk) are XORed with those from `row_shift`.
/// The one formula: the verifier and cost model read it through swizzled(),
/// the lowering writes it into the CUDA it emits (codegen/src/values.cpp).
struct SwizzleBits {
  unsigned chunk_shift = 4, row_shift = 7;
  int64_t mask = 0;
};
SwizzleBits swizzle_bits(Swizzle swizzle);
/// Byte offset `offset` from a base aligned to the pattern, swizzled.
int64_t swizzled(int64_t offset, Swizzle swizzle);

enum class SmemPattern : uint8_t { Matrix, Accumulator };

struct SmemRead {
  ExprId operand = kNone;  // the smem operand as written (`sA[s][0 : 16, :]`)
  SymbolId buffer = kNone;
  SmemPattern pattern = SmemPattern::Matrix;
  int64_t pitch = 0;       // bytes between the buffer's rows
  int64_t rows = 0;        // rows one phase touches
  int64_t row_bytes = 0;   // bytes of each
  int64_t degree = 1;      // n of an n-way conflict (1: conflict-free)
};

/// The conflict degree of one phase of `rows` rows of `row_bytes` bytes,
/// `pitch` bytes apart, under `swizzle`, on a target's banks.
int64_t conflict_degree(const TargetInfo& t, int64_t pitch, int64_t rows, int64_t row_bytes, Swizzle swizzle);

/// Appends the shared-memory reads of statement `id` whose pattern and
/// pitch are known (2-D or deeper tiles; a 1-D operand is broadcast and
/// never conflicts), each with its degree under the buffer's own swizzle.
void smem_reads(const Module& m, Typer& typer, const TargetInfo& t, StmtId id, std::vector<SmemRead>& out);

/// The read of `operand` (typed `ty`) by an instruction of `pattern`, or
/// nullopt when it is not a 2-D smem tile of known pitch.
std::optional<SmemRead> smem_read(const Module& m, const Evaluator& eval, const TargetInfo& t, ExprId operand,
                                  const Typed& ty, SmemPattern pattern);
/// The pattern in which the owners of a fragment of this layout read a
/// tile: Accumulator for the accumulator layouts, else not known.
std::optional<SmemPattern> reader_pattern(FragLayout layout);

/// The pattern in which `op` reads its shared-memory operands (a `load`:
/// as the owners of its destination's layout `dst_layout` read), or
/// nullopt when it reads none through the banks.
std::optional<SmemPattern> smem_read_pattern(Op op, FragLayout dst_layout);

/// The degree of `read` under another swizzle (the W0703 fix's candidate).
int64_t degree_with(const TargetInfo& t, const SmemRead& read, Swizzle swizzle);

}  // namespace cake
