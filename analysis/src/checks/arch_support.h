// Helpers shared by the checks that read the architecture tables (E02xx
// target features, E03xx resources, E05xx movement): the set of known
// targets a file lists, grouping those targets by outcome so that a rule
// that fails on sm_80 but not on sm_90a reports once and names sm_80, a
// pre-order walk over statement bodies without recursion, and the small
// arithmetic the rules share. Nothing here allocates per statement.
#pragma once

#include "cake/arch.h"
#include "cake/diagnostic.h"
#include "cake/model.h"

#include <array>
#include <bit>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cake {

/// A set of known targets, as bits over all_targets() indices.
struct TargetSet {
  uint64_t bits = 0;

  bool empty() const { return bits == 0; }
  bool has(size_t i) const { return i < 64 && (bits >> i & 1u); }
  void add(size_t i) {
    if (i < 64) bits |= uint64_t(1) << i;
  }
  TargetSet operator&(TargetSet o) const { return {bits & o.bits}; }
  TargetSet operator|(TargetSet o) const { return {bits | o.bits}; }
  TargetSet minus(TargetSet o) const { return {bits & ~o.bits}; }
  bool operator==(const TargetSet&) const = default;

  template <typename F>
  void for_each(F&& f) const {
    for (uint64_t b = bits; b; b &= b - 1) f(static_cast<size_t>(std::countr_zero(b)));
  }
};

inline const TargetInfo& target_at(size_t i) { return all_targets()[i]; }

/// The known targets the file's `target` item lists (unknown ones are E0110's).
TargetSet listed_targets(const Module& m);
/// Every known target (of all_targets()) that has `f`.
TargetSet targets_with(Feature f);
/// The targets of `s` that have `f`.
inline TargetSet with_feature(TargetSet s, Feature f) { return s & targets_with(f); }

/// "sm_80, sm_86" (in table order).
std::string target_list(TargetSet s);
/// "sm_90a only", "sm_90, sm_90a and sm_100a", "no target".
std::string target_alternatives(TargetSet s);
/// Sets `d.targets` to the names in `s`.
void set_targets(Diagnostic& d, TargetSet s);
/// Offers "remove `sm_80` from the targets" when some listed target stays.
void offer_target_removal(Diagnostic& d, const Module& m, TargetSet remove);

/// Splits `targets` by the value of `key(target)` (a std::optional<Key>;
/// nullopt: nothing to report) and calls `emit(group, key)` once per group,
/// in table order of each group's first target.
template <typename Key, typename KeyFn, typename Emit>
void group_targets(TargetSet targets, KeyFn&& key, Emit&& emit) {
  std::array<std::pair<Key, TargetSet>, 64> groups{};
  size_t n = 0;
  targets.for_each([&](size_t i) {
    std::optional<Key> k = key(target_at(i));
    if (!k) return;
    for (size_t g = 0; g < n; ++g)
      if (groups[g].first == *k) {
        groups[g].second.add(i);
        return;
      }
    groups[n].first = *k;
    groups[n].second.add(i);
    ++n;
  });
  for (size_t g = 0; g < n; ++g) emit(groups[g].second, groups[g].first);
}

/// Calls `visit(id)` on every statement under `roots` in text order
/// (pre-order), with an explicit stack: bodies can nest deeply.
template <typename Visit>
void walk_statements(const Module& m, const std::vector<StmtId>& roots, std::vector<StmtId>& stack, Visit&& visit) {
  stack.clear();
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back(*it);
  auto push_all = [&](const std::vector<StmtId>& body) {
    for (auto it = body.rbegin(); it != body.rend(); ++it) stack.push_back(*it);
  };
  while (!stack.empty()) {
    StmtId id = stack.back();
    stack.pop_back();
    if (id >= m.stmts.size()) continue;
    visit(id);
    const Stmt& s = m.stmts[id];
    if (const auto* e = std::get_if<ElectStmt>(&s.node)) push_all(e->body);
    else if (const auto* f = std::get_if<ForStmt>(&s.node)) push_all(f->body);
    else if (const auto* p = std::get_if<PipelineStmt>(&s.node)) push_all(p->body);
    else if (const auto* r = std::get_if<RoleStmt>(&s.node)) push_all(r->body);
    else if (const auto* c = std::get_if<IfStmt>(&s.node)) {
      push_all(c->else_body);
      push_all(c->then_body);
    }
  }
}

/// `v` rounded up to a multiple of `unit` (unit > 0), or nullopt on overflow.
inline std::optional<int64_t> round_up(int64_t v, int64_t unit) {
  if (unit <= 0) return v;
  int64_t r = v % unit;
  if (r == 0) return v;
  int64_t out;
  if (__builtin_add_overflow(v, unit - r, &out)) return std::nullopt;
  return out;
}

/// "12 bytes" / "1 byte".
std::string bytes_text(int64_t n);

}  // namespace cake
