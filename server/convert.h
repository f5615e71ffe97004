// The only place where byte offsets become positions, and positions become
// byte offsets again. analysis/ speaks in byte ranges; LSP speaks in 0-based
// lines and UTF-16 code units; the text report speaks in 1-based lines and
// code-point columns. Invalid UTF-8 never fails a conversion: each byte that
// does not start a valid sequence counts as one unit in every encoding, and
// offsets or positions past the end are clamped. It also builds the file://
// URIs that name documents and rule pages.
#pragma once

#include "cake/diagnostic.h"
#include "cake/source.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cake {

/// An LSP Position: 0-based line, 0-based character in UTF-16 code units.
struct LspPosition {
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const LspPosition&) const = default;
};

struct LspRange {
  LspPosition start;
  LspPosition end;
  bool operator==(const LspRange&) const = default;
};

/// A position for people: 1-based line, 1-based column in code points.
struct TextPosition {
  uint32_t line = 1;
  uint32_t column = 1;
  bool operator==(const TextPosition&) const = default;
};

/// One decoded step of UTF-8: how many bytes it takes and what it counts for.
struct Utf8Step {
  uint32_t bytes = 1;        // 1 for an invalid byte
  uint32_t utf16_units = 1;  // 2 above U+FFFF, else 1
  bool valid = true;
};

/// Decodes the character that starts `text` (which must not be empty).
Utf8Step utf8_step(std::string_view text);

/// Code units `text` takes in UTF-16, counting each invalid byte as one.
uint32_t utf16_length(std::string_view text);

/// Code points in `text`, counting each invalid byte as one.
uint32_t code_point_length(std::string_view text);

/// How an LSP position counts characters (LSP 3.17 positionEncoding).
enum class PositionEncoding : uint8_t { Utf16, Utf8 };

/// Converts between byte offsets and positions in one text. Holds views: the
/// text and its line index must outlive it. LSP positions count UTF-16 code
/// units, or bytes when the client negotiated "utf-8".
class PositionConverter {
 public:
  PositionConverter(std::string_view text, const LineIndex& lines, PositionEncoding encoding = PositionEncoding::Utf16)
      : text_(text), lines_(lines), encoding_(encoding) {}

  LspPosition lsp_position(uint32_t offset) const;
  LspRange lsp_range(ByteRange range) const;
  /// 1-based line and code-point column, for text output.
  TextPosition text_position(uint32_t offset) const;
  /// 1-based line and 1-based UTF-16 column, for SARIF regions.
  TextPosition utf16_text_position(uint32_t offset) const;
  /// The byte offset of an LSP position. A character inside a surrogate pair
  /// or past the line's end, or a line past the last, is clamped.
  uint32_t offset(LspPosition position) const;

  /// The 0-based line holding `offset`, and the line's text.
  uint32_t line_of(uint32_t offset) const;
  std::string_view line_text(uint32_t line) const { return lines_.line_text(line); }
  uint32_t clamp(uint32_t offset) const;

 private:
  /// The line holding an offset, and the offset's byte column in it.
  struct LinePart {
    uint32_t index = 0;
    std::string_view line;
    uint32_t column = 0;
  };
  struct Units {
    uint32_t utf16 = 0;
    uint32_t code_points = 0;
  };
  LinePart line_prefix(uint32_t offset) const;
  /// UTF-16 units and code points of the whole characters before the column.
  static Units count_units(const LinePart& part);

  std::string_view text_;
  const LineIndex& lines_;
  PositionEncoding encoding_;
};

/// "file:///abs/path%20with%20space.cake" for an absolute path.
std::string file_uri(std::string_view absolute_path);

/// A relative URI reference ("dir/a%20b.cake") for a relative path.
std::string relative_uri(std::string_view relative_path);

}  // namespace cake
