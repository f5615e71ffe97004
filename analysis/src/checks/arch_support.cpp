// Target sets, their names and the small text helpers of arch_support.h.
#include "checks/arch_support.h"

namespace cake {

TargetSet listed_targets(const Module& m) {
  TargetSet s;
  std::span<const TargetInfo> all = all_targets();
  for (const Target& t : m.targets)
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == t.name) s.add(i);
  return s;
}

TargetSet targets_with(Feature f) {
  TargetSet s;
  std::span<const TargetInfo> all = all_targets();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].has(f)) s.add(i);
  return s;
}

std::string target_list(TargetSet s) {
  std::string out;
  s.for_each([&](size_t i) {
    if (!out.empty()) out += ", ";
    out += target_at(i).name;
  });
  return out;
}

std::string target_alternatives(TargetSet s) {
  std::vector<std::string_view> names;
  s.for_each([&](size_t i) { names.push_back(target_at(i).name); });
  if (names.empty()) return "no target";
  if (names.size() == 1) return std::string(names[0]) + " only";
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

void set_targets(Diagnostic& d, TargetSet s) {
  d.targets.clear();
  s.for_each([&](size_t i) { d.targets.emplace_back(target_at(i).name); });
}

void offer_target_removal(Diagnostic& d, const Module& m, TargetSet remove) {
  if (m.targets.size() < 2) return;
  std::string kept;
  bool removed = false;
  for (const Target& t : m.targets) {
    bool drop = false;
    remove.for_each([&](size_t i) { drop = drop || target_at(i).name == t.name; });
    if (drop) {
      removed = true;
      continue;
    }
    kept += (kept.empty() ? "" : ", ") + std::string(t.name);
  }
  if (!removed || kept.empty()) return;
  ByteRange all{m.targets.front().range.begin, m.targets.back().range.end};
  d.fixes.push_back({"remove " + target_list(remove) + " from the targets", {{all, kept}}, false});
}

std::string bytes_text(int64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace cake
