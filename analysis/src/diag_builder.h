// make_diagnostic(): the one place a Diagnostic is built from its registry
// entry, so code, severity and message template always agree.
#pragma once

#include "cake/diagnostic.h"
#include "cake/registry.h"

#include <llvm/Support/FormatVariadic.h>

#include <string>

namespace cake {

template <typename... Args>
Diagnostic make_diagnostic(DiagId id, ByteRange range, Args&&... args) {
  const RuleInfo& info = rule_info(id);
  Diagnostic d;
  d.id = id;
  d.severity = info.severity;
  d.range = range;
  if constexpr (sizeof...(Args) == 0)
    d.message = std::string(info.message_template);
  else
    d.message = llvm::formatv(info.message_template.data(), std::forward<Args>(args)...).str();
  return d;
}

}  // namespace cake
