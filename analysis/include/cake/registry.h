// The rule registry: what every diagnostic code means, generated from
// diagnostic_kinds.def. The docs page of a code is docs/rules/<code>.md.
#pragma once

#include "cake/diagnostic.h"

#include <span>
#include <string_view>

namespace cake {

struct RuleInfo {
  DiagId id;
  std::string_view code;      // "CAKE-E0101"
  Severity severity;
  DiagScope scope;            // which unit of a Document owns it
  std::string_view summary;   // "undefined name"
  std::string_view message_template;
};

/// Every registered rule, in code order.
std::span<const RuleInfo> all_rules();

const RuleInfo& rule_info(DiagId id);

/// The rule with this code ("CAKE-E0101"), or null.
const RuleInfo* find_rule(std::string_view code);

}  // namespace cake
