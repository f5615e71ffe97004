// CAKE-W0703: a shared-memory read with bank conflicts.
//
// cake/banks.h computes, from the buffer's row pitch and swizzle and the
// reading instruction's access pattern, how many distinct words one
// 128-byte request asks of the busiest bank; the cost model charges the
// read that many times its bytes of shared-memory bandwidth. This rule
// reports every read with a degree above 1 at the smem operand, with the
// buffer's declaration as the related span.
//
// The fix sets the smallest swizzle that makes every conflicting read of
// the buffer conflict-free, unless a TMA copy moves the buffer (its tensor
// map's swizzle must stay equal, E0503: then the message says so and no fix
// is offered) or the swizzle's alignment would push the CTA's shared memory
// over the target's per-block limit.
#include "checks/arch_support.h"
#include "checks/performance.h"
#include "diag_builder.h"
#include "cake/roles.h"
#include "cake/banks.h"

#include <algorithm>

namespace cake {
namespace {

constexpr Swizzle kSwizzles[] = {Swizzle::B32, Swizzle::B64, Swizzle::B128};

std::string swizzle_text(Swizzle s) {
  return s == Swizzle::None ? std::string("no swizzle") : "swizzle(" + std::to_string(swizzle_bytes(s)) + "B)";
}

class BankConflicts {
 public:
  BankConflicts(const PerfContext& c, std::vector<PerfFinding>& out) : c_(c), m_(c.m), out_(out) {}

  void run() {
    std::vector<std::pair<StmtId, size_t>> owners;  // statement of each read
    for (StmtId id : c_.statements) {
      size_t before = reads_.size();
      smem_reads(m_, c_.typer, c_.target, id, reads_);
      for (size_t i = before; i < reads_.size(); ++i) owners.push_back({id, i});
    }
    for (auto [id, i] : owners)
      if (reads_[i].degree > 1 && available(id)) report(id, reads_[i]);
  }

 private:
  void report(StmtId id, const SmemRead& r) {
    const Symbol& buffer = m_.symbols[r.buffer];
    PerfFinding f;
    f.id = DiagId::BankConflict;
    f.range = m_.exprs[r.operand].range;
    std::string who = reader(id), swizzle = swizzle_text(buffer.type.swizzle), rows = plural(r.rows, "row");
    f.related.push_back({buffer.decl, "`" + std::string(buffer.name) + "` is declared here"});
    Swizzle fix = remedy(r.buffer);
    SymbolId map = fix == Swizzle::None ? kNone : tensormap_of(r.buffer);
    if (fix == Swizzle::None) {
      std::optional<int64_t> padded = padding(r);
      f.message = padded ? diag_message(DiagForm::BankConflictPad, who, buffer.name, r.degree, kTargets, r.pitch,
                                        swizzle, rows, r.row_bytes, *padded)
                         : diag_message(DiagForm::BankConflictNoFix, who, buffer.name, r.degree, kTargets, r.pitch,
                                        swizzle, rows, r.row_bytes);
    } else if (map != kNone) {
      f.message = diag_message(DiagForm::BankConflictTensorMap, who, buffer.name, r.degree, kTargets, r.pitch,
                               swizzle, rows, r.row_bytes, swizzle_text(fix), m_.symbols[map].name);
      f.related.push_back({m_.symbols[map].decl, "TMA copies the buffer with this tensor map's swizzle"});
    } else {
      f.message = diag_message(DiagId::BankConflict, who, buffer.name, r.degree, kTargets, r.pitch, swizzle, rows,
                               r.row_bytes, swizzle_text(fix));
      offer(f, buffer, fix);
    }
    out_.push_back(std::move(f));
  }

  /// Whether the reading op exists on the target (else E0201 reports it).
  bool available(StmtId id) const {
    const auto* mma = std::get_if<MmaStmt>(&m_.stmts[id].node);
    if (!mma) return true;
    return mma->op == Op::Wgmma ? c_.target.has(Feature::Wgmma)
           : mma->op == Op::Tcgen05Mma ? c_.target.has(Feature::Tcgen05)
                                       : true;
  }

  /// Rows `pitch` apart whose pitch is an odd multiple of the bytes each
  /// row is read in fall on distinct banks: the padded pitch that does it,
  /// or none when that still conflicts.
  std::optional<int64_t> padding(const SmemRead& r) const {
    int64_t padded = (r.pitch + r.row_bytes - 1) / r.row_bytes;
    padded = (padded + (padded % 2 == 0)) * r.row_bytes;
    if (conflict_degree(c_.target, padded, r.rows, r.row_bytes, Swizzle::None) > 1) return std::nullopt;
    return padded;
  }

  std::string reader(StmtId id) const {
    const Stmt& s = m_.stmts[id];
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) return "`" + std::string(op_spelling(mv->op)) + "`";
    if (const auto* mma = std::get_if<MmaStmt>(&s.node)) return "`" + std::string(op_spelling(mma->op)) + "`";
    return "an element-wise op";
  }

  /// The smallest swizzle under which no read of `buffer` conflicts, or None.
  Swizzle remedy(SymbolId buffer) const {
    for (Swizzle s : kSwizzles) {
      if (!c_.target.swizzle(s)) continue;
      bool clean = std::all_of(reads_.begin(), reads_.end(), [&](const SmemRead& r) {
        return r.buffer != buffer || degree_with(c_.target, r, s) == 1;
      });
      if (clean) return s;
    }
    return Swizzle::None;
  }

  /// A tensor map a TMA copy moves `buffer` with, or kNone.
  SymbolId tensormap_of(SymbolId buffer) const {
    for (StmtId id : c_.statements) {
      const auto* mv = std::get_if<MoveStmt>(&m_.stmts[id].node);
      if (!mv || (mv->op != Op::TmaLoad && mv->op != Op::TmaStore)) continue;
      ExprId smem = mv->op == Op::TmaLoad ? mv->dst : mv->src, map = mv->op == Op::TmaLoad ? mv->src : mv->dst;
      if (root_symbol(m_, smem) == buffer) return root_symbol(m_, map);
    }
    return kNone;
  }

  /// Sets `swizzle` on the declaration, if the padding it brings still fits.
  void offer(PerfFinding& f, const Symbol& buffer, Swizzle swizzle) const {
    const SwizzleRule* rule = c_.target.swizzle(swizzle);
    int64_t stages = 1;
    for (ExprId d : buffer.type.stage_dims) stages *= c_.typer.evaluator().fold(d).value_or(1);
    const Occupancy& o = c_.estimates.front().occupancy;
    if (!rule || o.smem_buffers + stages * rule->align.value > c_.target.smem_per_block_optin.value) return;
    std::string text = swizzle_text(swizzle);
    TextEdit edit;
    if (buffer.type.swizzle_clause.end > buffer.type.swizzle_clause.begin) {
      edit = {buffer.type.swizzle_clause, text};
    } else {
      if (buffer.type.dims.empty() || buffer.type.written.end <= buffer.type.written.begin) return;
      uint32_t after = buffer.type.written.end;
      edit = {{after, after}, " " + text};
    }
    f.fixes.push_back({"use " + text + " for `" + std::string(buffer.name) + "`", {std::move(edit)}, true});
  }

  const PerfContext& c_;
  const Module& m_;
  std::vector<PerfFinding>& out_;
  std::vector<SmemRead> reads_;
};

}  // namespace

void check_bank_conflicts(const PerfContext& c, std::vector<PerfFinding>& out) { BankConflicts(c, out).run(); }

}  // namespace cake
