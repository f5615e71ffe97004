// E0311 (named barriers: ids within the target's range and distinct,
// thread counts whole warps within the block) and E0312 (mbarrier arrays of
// at least one barrier, arrival counts and the transaction bytes a phase
// expects within the target's limits).
#include "checks/resources.h"
#include "diag_builder.h"

#include <string>

namespace cake {
namespace {

void named_barriers(const ResourceContext& c, const Kernel& k) {
  std::vector<std::pair<int64_t, SymbolId>> ids;
  for (StmtId id : k.body) {
    const auto* d = std::get_if<DeclStmt>(&c.m.stmts[id].node);
    if (!d || d->symbol == kNone || c.m.symbols[d->symbol].kind != SymbolKind::NamedBarrier) continue;
    const Symbol& s = c.m.symbols[d->symbol];
    if (auto bar = s.id == kNone ? std::nullopt : c.eval().fold(s.id)) {
      struct Key {
        int64_t first, last;
        bool operator==(const Key&) const = default;
      };
      int64_t v = *bar;
      group_targets<Key>(
          c.listed,
          [&](const TargetInfo& t) -> std::optional<Key> {
            if (!t.named_barrier_first_id.known()) return std::nullopt;
            Key key{t.named_barrier_first_id.value, t.named_barrier_last_id.value};
            if (v >= key.first && v <= key.last) return std::nullopt;
            return key;
          },
          [&](TargetSet group, Key key) {
            c.push(v == 0 ? make_diagnostic(DiagForm::NamedBarrierZero, c.expr_range(s.id), v, key.first, key.last)
                          : make_diagnostic(DiagId::BadNamedBarrier, c.expr_range(s.id), v, key.first, key.last),
                   group);
          });
      for (auto& [other, sym] : ids)
        if (other == v) {
          Diagnostic d =
              make_diagnostic(DiagForm::NamedBarrierShared, c.expr_range(s.id), v, c.m.symbols[sym].name);
          d.related.push_back({c.m.symbols[sym].decl, "id " + std::to_string(v) + " declared here"});
          c.push(std::move(d));
          break;
        }
      ids.push_back({v, d->symbol});
    }
    auto threads = s.count == kNone ? std::nullopt : c.eval().fold(s.count);
    if (!threads) continue;
    int64_t n = *threads;
    struct Key {
      int64_t multiple, block;
      bool operator==(const Key&) const = default;
    };
    group_targets<Key>(
        c.listed,
        [&](const TargetInfo& t) -> std::optional<Key> {
          if (!t.named_barrier_thread_multiple.known()) return std::nullopt;
          Key key{t.named_barrier_thread_multiple.value, c.facts.threads().value_or(INT64_MAX)};
          if (n > 0 && n % key.multiple == 0 && n <= key.block) return std::nullopt;
          return key;
        },
        [&](TargetSet group, Key key) {
          Diagnostic d = n <= 0 || n % key.multiple != 0
                             ? make_diagnostic(DiagForm::NamedBarrierThreads, c.expr_range(s.count), n, key.multiple)
                             : make_diagnostic(DiagForm::NamedBarrierOverBlock, c.expr_range(s.count), n, key.block);
          if (n > key.block && k.block_range.end > 0) d.related.push_back({k.block_range, "block size"});
          c.push(std::move(d), group);
        });
  }
}

void mbarriers(const ResourceContext& c, const Kernel& k) {
  for (StmtId id : k.body) {
    const auto* d = std::get_if<DeclStmt>(&c.m.stmts[id].node);
    if (!d || d->symbol == kNone || c.m.symbols[d->symbol].kind != SymbolKind::Mbarrier) continue;
    const Symbol& s = c.m.symbols[d->symbol];
    if (s.value != kNone)
      if (auto n = c.eval().fold(s.value); n && *n < 1)
        c.push(make_diagnostic(DiagForm::MbarrierEmpty, c.expr_range(s.value), *n));
    auto count = s.count == kNone ? std::nullopt : c.eval().fold(s.count);
    if (!count) continue;
    int64_t n = *count;
    group_targets<int64_t>(
        c.listed,
        [&](const TargetInfo& t) -> std::optional<int64_t> {
          if (!t.mbarrier_max_arrivals.known() || (n >= 1 && n <= t.mbarrier_max_arrivals.value)) return std::nullopt;
          return t.mbarrier_max_arrivals.value;
        },
        [&](TargetSet group, int64_t max) {
          std::string_view src = target_at(std::countr_zero(group.bits)).mbarrier_max_arrivals.src;
          c.push(n < 1 ? make_diagnostic(DiagForm::MbarrierNoArrival, c.expr_range(s.count), n, max, src)
                       : make_diagnostic(DiagId::MbarrierRange, c.expr_range(s.count), n, max, src),
                 group);
        });
  }
}

void expect_tx(const ResourceContext& c, const ArriveStmt& a) {
  if (a.op != Op::ArriveExpectTx || a.bytes == kNone) return;
  auto bytes = c.eval().fold(a.bytes);
  if (!bytes) return;
  int64_t b = *bytes;
  group_targets<int64_t>(
      with_feature(c.listed, Feature::MbarrierTx),
      [&](const TargetInfo& t) -> std::optional<int64_t> {
        if (!t.mbarrier_max_tx_bytes.known() || (b >= 0 && b <= t.mbarrier_max_tx_bytes.value)) return std::nullopt;
        return t.mbarrier_max_tx_bytes.value;
      },
      [&](TargetSet group, int64_t max) {
        c.push(make_diagnostic(DiagForm::MbarrierTxBytes, c.expr_range(a.bytes), b, max), group);
      });
}

}  // namespace

void check_barrier_limits(const ResourceContext& c) {
  const Kernel& k = c.kernel();
  named_barriers(c, k);
  mbarriers(c, k);
  // The transaction bytes of every `arrive.expect_tx` in a role.
  for (const RolePlan& r : c.facts.partition().roles)
    for (StmtId id : r.arrivals) expect_tx(c, std::get<ArriveStmt>(c.m.stmts[id].node));
}

}  // namespace cake
