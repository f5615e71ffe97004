// Bank conflicts of shared-memory reads (banks.h): which rows one phase of
// a read touches, and how many distinct words land in the busiest bank.
#include "cake/banks.h"

#include "cake/fragments.h"

#include <algorithm>
#include <array>

namespace cake {

SwizzleBits swizzle_bits(Swizzle swizzle) {
  // Swizzle<B, 4, 3>: 16-byte chunks (bit 4 up) XORed with the row bits from bit 7.
  return {4, 7, static_cast<int64_t>(swizzle_bytes(swizzle) / 16) - 1};  // 32B: 1 bit, 64B: 2, 128B: 3
}

int64_t swizzled(int64_t offset, Swizzle swizzle) {
  if (swizzle == Swizzle::None) return offset;
  SwizzleBits b = swizzle_bits(swizzle);
  return offset ^ (((offset >> b.row_shift) & b.mask) << b.chunk_shift);
}

namespace {

/// Elements per accumulator row that one quad of threads holds at once: 2
/// consecutive values in each of its 4 threads (PTX mma/wgmma C layouts).
constexpr int64_t kAccRowElements = kThreadsPerAccRow * 2;
int64_t phase_bytes(const TargetInfo& t) { return t.smem_banks.value * t.smem_bank_bytes.value; }

/// Bytes of `n` elements of `dtype`, when whole.
std::optional<int64_t> bytes_of(int64_t n, DType dtype) {
  int64_t bits = n * static_cast<int64_t>(stored_bits(dtype));  // in shared memory
  if (bits <= 0 || bits % 8 != 0) return std::nullopt;
  return bits / 8;
}

class Reads {
 public:
  Reads(const Module& m, Typer& typer, const TargetInfo& t, std::vector<SmemRead>& out)
      : m_(m), typer_(typer), eval_(typer.evaluator()), t_(t), out_(out) {}

  /// `operand`, read by an instruction of this pattern (none: not known).
  void read(ExprId operand, std::optional<SmemPattern> pattern) {
    if (operand == kNone || !pattern) return;
    if (auto r = smem_read(m_, eval_, t_, operand, typer_.type_of(operand), *pattern)) out_.push_back(*r);
  }

  /// Every smem operand of an element-wise expression.
  void expression(ExprId e, std::optional<SmemPattern> pattern, int depth = 0) {
    if (e == kNone || depth > 64) return;
    const Expr& x = m_.exprs[e];
    if (x.kind == Expr::Kind::Name || x.kind == Expr::Kind::Index || x.kind == Expr::Kind::Transpose) {
      read(e, pattern);
      return;
    }
    expression(x.lhs, pattern, depth + 1);
    expression(x.rhs, pattern, depth + 1);
    for (ExprId a : x.args) expression(a, pattern, depth + 1);
  }

  /// The pattern of the threads that own fragment `e` reading its elements:
  /// known for the accumulator layouts only. A plain fragment is each
  /// thread's own copy, at addresses (`lane`, `warp.id`) the rule cannot
  /// see: the threads may well read the same words (a broadcast).
  std::optional<SmemPattern> owner_pattern(ExprId e) { return reader_pattern(typer_.type_of(e).layout); }

  void statement(const Stmt& s) {
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) {
      read(mv->src, smem_read_pattern(mv->op, typer_.type_of(mv->dst).layout));
    } else if (const auto* mma = std::get_if<MmaStmt>(&s.node)) {
      std::optional<SmemPattern> pattern = smem_read_pattern(mma->op, FragLayout::None);
      read(mma->a, pattern);
      read(mma->b, pattern);
    } else if (const auto* a = std::get_if<AssignStmt>(&s.node)) {
      expression(a->value, owner_pattern(a->target));
    } else if (const auto* r = std::get_if<ReduceStmt>(&s.node)) {
      expression(r->src, owner_pattern(r->src));
    } else if (const auto* r = std::get_if<ArgReduceStmt>(&s.node)) {
      expression(r->src, owner_pattern(r->src));
    }
  }

 private:
  const Module& m_;
  Typer& typer_;
  const Evaluator& eval_;
  const TargetInfo& t_;
  std::vector<SmemRead>& out_;
};

}  // namespace

std::optional<SmemPattern> smem_read_pattern(Op op, FragLayout dst_layout) {
  switch (op) {
    case Op::Ldmatrix:
    case Op::Wgmma:
    case Op::Tcgen05Mma: return SmemPattern::Matrix;
    case Op::Load: return reader_pattern(dst_layout);
    // TMA, bulk and tcgen05 copies read through their own engines; the
    // others read no shared memory by themselves.
    case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore: case Op::BulkLoad: case Op::Stmatrix:
    case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp: case Op::Mma: case Op::CpAsyncCommit:
    case Op::WgmmaFence: case Op::WgmmaCommit: case Op::TmaStoreCommit: case Op::Tcgen05WaitLd:
    case Op::Tcgen05WaitSt: case Op::Syncthreads: case Op::ClusterSync: case Op::FenceProxyAsync:
    case Op::CpAsyncWait: case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx:
    case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow: return std::nullopt;
  }
  return std::nullopt;
}

int64_t conflict_degree(const TargetInfo& t, int64_t pitch, int64_t rows, int64_t row_bytes, Swizzle swizzle) {
  int64_t banks = t.smem_banks.value, word = t.smem_bank_bytes.value;
  if (banks <= 0 || banks > 64 || word <= 0 || rows <= 0 || row_bytes <= 0) return 1;
  // At most one phase: `banks` words (the caller caps rows × row_bytes).
  std::array<int64_t, 128> words{};
  size_t n = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t b = 0; b < row_bytes && n < words.size(); b += word) words[n++] = swizzled(r * pitch + b, swizzle) / word;
  // Distinct words only (the same word is a broadcast), then count per bank.
  std::sort(words.begin(), words.begin() + static_cast<ptrdiff_t>(n));
  n = static_cast<size_t>(std::unique(words.begin(), words.begin() + static_cast<ptrdiff_t>(n)) - words.begin());
  std::array<int64_t, 64> per_bank{};
  int64_t worst = 1;
  for (size_t i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[static_cast<size_t>(words[i] % banks)]);
  return worst;
}

std::optional<SmemRead> smem_read(const Module& m, const Evaluator& eval, const TargetInfo& t, ExprId operand,
                                  const Typed& ty, SmemPattern pattern) {
  if (!ty.is_buffer() || ty.space != Space::Smem || ty.root == kNone || ty.stage_dims > 0 || ty.dims.size() < 2)
    return std::nullopt;
  const Symbol& buffer = m.symbols[ty.root];
  if (buffer.kind != SymbolKind::Smem || buffer.type.dims.size() < 2) return std::nullopt;
  // A col_major tile's runs are its columns: ldmatrix reads 16-byte runs
  // of it as of a row-major one, but a fragment's element-wise reads walk
  // across the runs, a pattern not modelled here.
  bool col = is_col_major(buffer.type);
  if (col && pattern != SmemPattern::Matrix) return std::nullopt;
  size_t inner = contiguous_dim(buffer.type);
  auto row = eval.fold(buffer.type.dims[inner]);
  auto pitch = row ? bytes_of(*row, buffer.type.dtype) : std::nullopt;
  int64_t phase = phase_bytes(t);
  if (!pitch || *pitch <= 0 || phase <= 0) return std::nullopt;
  SmemRead r;
  r.operand = operand;
  r.buffer = ty.root;
  r.pattern = pattern;
  r.pitch = *pitch;
  auto acc_row = bytes_of(kAccRowElements, ty.dtype);
  r.row_bytes = pattern == SmemPattern::Matrix ? t.ldmatrix_row_bytes.value : acc_row.value_or(0);
  if (r.row_bytes <= 0) return std::nullopt;
  r.row_bytes = std::min(r.row_bytes, phase);
  r.rows = std::max<int64_t>(1, phase / r.row_bytes);
  // A slice of fewer rows than a phase holds: only those.
  int64_t slice_rows = 1;
  for (size_t i = 0; i < ty.dims.size(); ++i)
    if (i != (col ? 0 : ty.dims.size() - 1)) slice_rows *= eval.fold(ty.dims[i]).value_or(r.rows);
  if (slice_rows > 0) r.rows = std::min(r.rows, slice_rows);
  r.degree = conflict_degree(t, r.pitch, r.rows, r.row_bytes, buffer.type.swizzle);
  return r;
}

std::optional<SmemPattern> reader_pattern(FragLayout layout) {
  if (layout == FragLayout::MmaAcc || layout == FragLayout::WgmmaAcc || layout == FragLayout::Tcgen05Acc)
    return SmemPattern::Accumulator;
  return std::nullopt;
}

int64_t degree_with(const TargetInfo& t, const SmemRead& read, Swizzle swizzle) {
  return conflict_degree(t, read.pitch, read.rows, read.row_bytes, swizzle);
}

void smem_reads(const Module& m, Typer& typer, const TargetInfo& t, StmtId id, std::vector<SmemRead>& out) {
  if (id >= m.stmts.size()) return;
  Reads(m, typer, t, out).statement(m.stmts[id]);
}

}  // namespace cake
