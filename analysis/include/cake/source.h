// Line bookkeeping over one source text: byte offset <-> (line, byte column).
// Conversions to UTF-16 or code points belong to server/ (convert.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace cake {

struct LineCol {
  uint32_t line = 0;    // 0-based
  uint32_t column = 0;  // 0-based, in bytes from the line start
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);

  /// Follows an edit: `text` is the new text, in which the bytes [begin,
  /// end) of the indexed text were replaced by `inserted` bytes. Scans the
  /// inserted bytes only and moves the line starts after them; the result
  /// equals LineIndex(text).
  void replace(std::string_view text, uint32_t begin, uint32_t end, uint32_t inserted);

  LineCol position(uint32_t offset) const;
  /// The byte offset of (line, byte column), clamped to the text.
  uint32_t offset(LineCol pos) const;
  /// The text of a line without its terminator ("\n" or "\r\n").
  std::string_view line_text(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(starts_.size()); }
  uint32_t line_start(uint32_t line) const;

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};

}  // namespace cake
