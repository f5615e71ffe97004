// Diagnostics as analysis/ produces them: plain values with byte ranges into
// the checked text. server/ turns them into LSP, JSON, SARIF or text; nothing
// here knows about positions in lines, UTF-16 or any output format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cake {

/// A half-open range of bytes [begin, end) in one source text.
struct ByteRange {
  uint32_t begin = 0;
  uint32_t end = 0;

  bool contains(uint32_t offset) const { return begin <= offset && offset < end; }
  bool operator==(const ByteRange&) const = default;
};

enum class Severity : uint8_t { Error = 1, Warning = 2, Information = 3, Hint = 4 };

/// Which unit of a Document owns a diagnostic (diagnostic_kinds.def's Scope
/// column; document.cpp): the unit of the item it lies in; the global unit
/// wherever it lies; or both of those.
enum class DiagScope : uint8_t { Unit, Global, UnitAndGlobal };

/// Identifies a rule of the registry (diagnostic_kinds.def).
enum class DiagId : uint16_t {
#define CAKE_DIAG(ID, CODE, SEVERITY, SCOPE, SUMMARY, TEMPLATE) ID,
#include "cake/diagnostic_kinds.def"
#undef CAKE_DIAG
};

/// A secondary site: the declaration, the other role, the conflicting op.
struct RelatedSpan {
  ByteRange range;
  std::string message;
};

struct TextEdit {
  ByteRange range;  // replaced bytes; empty for an insertion
  std::string new_text;
};

/// A machine-applicable fix: every edit applies to the checked text.
struct Fix {
  std::string title;
  std::vector<TextEdit> edits;
  bool preferred = false;
};

struct Diagnostic {
  DiagId id{};
  Severity severity = Severity::Error;
  ByteRange range;                   // the narrowest span that is wrong
  std::string message;               // lower-case, one line, specific
  std::vector<RelatedSpan> related;  // notes at other spans
  std::vector<Fix> fixes;
  std::vector<std::string> targets;  // the targets it concerns; empty: all
};

/// Replaces every byte range of `d` (its own, its related spans', its
/// fixes' edits) by f(range): moving a diagnostic moves all of them.
template <typename Fn>
void for_each_range(Diagnostic& d, Fn&& f) {
  d.range = f(d.range);
  for (RelatedSpan& r : d.related) r.range = f(r.range);
  for (Fix& fix : d.fixes)
    for (TextEdit& e : fix.edits) e.range = f(e.range);
}

}  // namespace cake
