// Helpers shared by the checks that read the architecture tables (E02xx
// target features, E03xx resources, E05xx movement): the set of known
// targets a file lists, grouping those targets by outcome so that a rule
// that fails on sm_80 but not on sm_90a reports once and names sm_80, and
// the small helpers the rules share (the statement walk of facts/walk.h and
// the checked arithmetic of cake/checked.h come with it). Nothing here
// allocates per statement.
#pragma once

#include "cake/arch.h"
#include "cake/diagnostic.h"
#include "cake/model.h"
#include "facts/walk.h"
#include "cake/checked.h"

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

/// "12 bytes" / "1 byte".
std::string bytes_text(int64_t n);

}  // namespace cake
