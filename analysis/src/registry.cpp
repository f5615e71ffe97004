// The rule registry, generated from diagnostic_kinds.def.
#include "cake/registry.h"

#include <algorithm>
#include <array>

namespace cake {
namespace {

constexpr RuleInfo kRules[] = {
#define CAKE_DIAG(ID, CODE, SEVERITY, SCOPE, SUMMARY, TEMPLATE) \
  {DiagId::ID, CODE, Severity::SEVERITY, DiagScope::SCOPE, SUMMARY, TEMPLATE},
#include "cake/diagnostic_kinds.def"
#undef CAKE_DIAG
};

}  // namespace

std::span<const RuleInfo> all_rules() { return kRules; }

const RuleInfo& rule_info(DiagId id) { return kRules[static_cast<size_t>(id)]; }

const RuleInfo* find_rule(std::string_view code) {
  auto it = std::find_if(std::begin(kRules), std::end(kRules),
                         [&](const RuleInfo& r) { return r.code == code; });
  return it == std::end(kRules) ? nullptr : &*it;
}

}  // namespace cake
