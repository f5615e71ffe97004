// The hand-written half of cake/arch.h: names of limits, features and
// statuses, and look-ups into a TargetInfo. The tables themselves are
// generated from analysis/arch/*.json into the build directory
// (arch_tables.cpp, by cake-arch-gen).
#include "cake/arch.h"

#include <algorithm>

namespace cake {
namespace {

struct LimitName {
  Limit TargetInfo::*member;
  std::string_view key;
  std::string_view description;
};
constexpr LimitName kLimits[] = {
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) {&TargetInfo::KEY, #KEY, DESCRIPTION},
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
};

struct FeatureName {
  std::string_view key;
  std::string_view name;
};
constexpr FeatureName kFeatures[] = {
#define CAKE_FEATURE(ID, KEY, NAME) {#KEY, NAME},
#include "cake/arch_features.def"
#undef CAKE_FEATURE
};

}  // namespace

std::string_view status_name(Status status) {
  switch (status) {
    case Status::None: return "none";
    case Status::Confirmed: return "confirmed";
    case Status::Secondary: return "secondary";
    case Status::Derived: return "derived";
    case Status::Unconfirmed: return "unconfirmed";
  }
  return "none";
}

const Limit& TargetInfo::limit(LimitId id) const { return this->*kLimits[static_cast<size_t>(id)].member; }

const SwizzleRule* TargetInfo::swizzle(Swizzle mode) const {
  for (const SwizzleRule& r : swizzles)
    if (r.mode == mode) return &r;
  return nullptr;
}

const Tcgen05Shape* TargetInfo::tcgen05_shape(DType dtype, int32_t cta_group, int64_t m, int64_t n) const {
  for (const Tcgen05Shape& s : tcgen05_mma) {
    if (s.cta_group != cta_group || std::find(s.dtypes.begin(), s.dtypes.end(), dtype) == s.dtypes.end()) continue;
    if (std::find(s.m.begin(), s.m.end(), m) == s.m.end()) continue;
    if (std::any_of(s.n.begin(), s.n.end(), [&](const StepRange& r) { return r.contains(n); })) return &s;
  }
  return nullptr;
}

std::string_view limit_key(LimitId id) { return kLimits[static_cast<size_t>(id)].key; }
std::string_view limit_description(LimitId id) { return kLimits[static_cast<size_t>(id)].description; }
std::string_view feature_key(Feature f) { return kFeatures[static_cast<size_t>(f)].key; }
std::string_view feature_name(Feature f) { return kFeatures[static_cast<size_t>(f)].name; }

}  // namespace cake
