// make_diagnostic(): the one place a Diagnostic is built from its registry
// entry, so code, severity and message template always agree. The message
// text lives in diagnostic_kinds.def; a rule passes typed arguments
// (integers, byte counts, names) that fill the template's {0}, {1}, ...
// A rule with several wordings names one with a DiagForm (CAKE_DIAG_FORM).
#pragma once

#include "cake/diagnostic.h"
#include "cake/registry.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/FormatVariadic.h>

#include <string>
#include <string_view>
#include <type_traits>

namespace cake {

/// A further wording of a rule (CAKE_DIAG_FORM in diagnostic_kinds.def).
enum class DiagForm : uint16_t {
#define CAKE_DIAG(ID, CODE, SEVERITY, SCOPE, SUMMARY, TEMPLATE)
#define CAKE_DIAG_FORM(FORM, ID, TEMPLATE) FORM,
#include "cake/diagnostic_kinds.def"
#undef CAKE_DIAG_FORM
#undef CAKE_DIAG
};

struct DiagFormInfo {
  DiagId id;
  std::string_view message_template;
};

inline constexpr DiagFormInfo kDiagForms[] = {
#define CAKE_DIAG(ID, CODE, SEVERITY, SCOPE, SUMMARY, TEMPLATE)
#define CAKE_DIAG_FORM(FORM, ID, TEMPLATE) {DiagId::ID, TEMPLATE},
#include "cake/diagnostic_kinds.def"
#undef CAKE_DIAG_FORM
#undef CAKE_DIAG
};

/// A size in bits as messages show it: "24 bytes", "1 byte", or "12 bits"
/// when it is not whole bytes.
struct BitSize {
  int64_t bits = 0;
};

/// A size in bytes as messages show it: "16 bytes", "1 byte".
struct ByteSize {
  int64_t bytes = 0;
};

}  // namespace cake

template <>
struct llvm::format_provider<cake::ByteSize> {
  static void format(const cake::ByteSize& v, llvm::raw_ostream& os, llvm::StringRef) {
    os << v.bytes << (v.bytes == 1 ? " byte" : " bytes");
  }
};

template <>
struct llvm::format_provider<cake::BitSize> {
  static void format(const cake::BitSize& v, llvm::raw_ostream& os, llvm::StringRef style) {
    if (v.bits % 8 == 0) llvm::format_provider<cake::ByteSize>::format(cake::ByteSize{v.bits / 8}, os, style);
    else os << v.bits << " bits";
  }
};

namespace cake {

namespace detail {

/// formatv knows StringRef, not std::string_view.
template <typename T>
decltype(auto) diag_arg(T&& x) {
  if constexpr (std::is_convertible_v<T, std::string_view> && !std::is_convertible_v<T, const char*> &&
                !std::is_same_v<std::decay_t<T>, std::string>)
    return llvm::StringRef(std::string_view(x));
  else
    return std::forward<T>(x);
}

template <typename... Args>
std::string format_message(std::string_view message_template, Args&&... args) {
  if constexpr (sizeof...(Args) == 0)
    return std::string(message_template);
  else
    return llvm::formatv(message_template.data(), diag_arg(std::forward<Args>(args))...).str();
}

}  // namespace detail

/// A rule's message alone, its template filled with `args`, for rules that
/// build the Diagnostic later (the W07xx findings, merged across targets).
template <typename... Args>
std::string diag_message(DiagId id, Args&&... args) {
  return detail::format_message(rule_info(id).message_template, std::forward<Args>(args)...);
}

template <typename... Args>
std::string diag_message(DiagForm form, Args&&... args) {
  return detail::format_message(kDiagForms[static_cast<size_t>(form)].message_template, std::forward<Args>(args)...);
}

template <typename... Args>
Diagnostic make_diagnostic(DiagId id, ByteRange range, Args&&... args) {
  const RuleInfo& info = rule_info(id);
  Diagnostic d;
  d.id = id;
  d.severity = info.severity;
  d.range = range;
  d.message = detail::format_message(info.message_template, std::forward<Args>(args)...);
  return d;
}

template <typename... Args>
Diagnostic make_diagnostic(DiagForm form, ByteRange range, Args&&... args) {
  const DiagFormInfo& f = kDiagForms[static_cast<size_t>(form)];
  Diagnostic d = make_diagnostic(f.id, range);
  d.message = detail::format_message(f.message_template, std::forward<Args>(args)...);
  return d;
}

}  // namespace cake
