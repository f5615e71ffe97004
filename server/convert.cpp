// Byte offsets <-> positions (LSP UTF-16, text code points) and file URIs.
// Decoding follows the Unicode standard's table of well-formed UTF-8 byte
// sequences (Table 3-7); anything else is taken one byte at a time, so that
// every byte string has exactly one reading and conversions round-trip.
#include "convert.h"

#include <algorithm>

namespace cake {
namespace {

bool in(unsigned char byte, unsigned char low, unsigned char high) { return low <= byte && byte <= high; }

/// The allowed range of the second byte for a lead byte, and the length.
struct LeadInfo {
  uint32_t length = 0;  // 0: not a lead byte
  unsigned char second_low = 0x80, second_high = 0xBF;
};

LeadInfo lead_info(unsigned char lead) {
  if (lead < 0x80) return {1};
  if (in(lead, 0xC2, 0xDF)) return {2};
  if (lead == 0xE0) return {3, 0xA0, 0xBF};
  if (lead == 0xED) return {3, 0x80, 0x9F};
  if (in(lead, 0xE1, 0xEF)) return {3};
  if (lead == 0xF0) return {4, 0x90, 0xBF};
  if (in(lead, 0xF1, 0xF3)) return {4};
  if (lead == 0xF4) return {4, 0x80, 0x8F};
  return {};
}

constexpr Utf8Step kInvalid{1, 1, false};

/// Calls `visit(step)` for each character of `text`; stops when it returns false.
template <typename Visit>
void for_each_step(std::string_view text, Visit visit) {
  while (!text.empty()) {
    Utf8Step step = utf8_step(text);
    if (!visit(step)) return;
    text.remove_prefix(step.bytes);
  }
}

bool is_unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == '/';
}

std::string percent_encode(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(path.size());
  for (unsigned char c : path) {
    if (is_unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

}  // namespace

Utf8Step utf8_step(std::string_view text) {
  if (text.empty()) return kInvalid;
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  LeadInfo info = lead_info(byte(0));
  if (info.length == 0 || text.size() < info.length) return kInvalid;
  if (info.length >= 2 && !in(byte(1), info.second_low, info.second_high)) return kInvalid;
  for (uint32_t i = 2; i < info.length; ++i)
    if (!in(byte(i), 0x80, 0xBF)) return kInvalid;
  return {info.length, info.length == 4 ? 2u : 1u, true};
}

uint32_t utf16_length(std::string_view text) {
  uint32_t units = 0;
  for_each_step(text, [&](Utf8Step step) {
    units += step.utf16_units;
    return true;
  });
  return units;
}

uint32_t code_point_length(std::string_view text) {
  uint32_t points = 0;
  for_each_step(text, [&](Utf8Step) {
    ++points;
    return true;
  });
  return points;
}

uint32_t PositionConverter::clamp(uint32_t offset) const {
  return std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
}

uint32_t PositionConverter::line_of(uint32_t offset) const { return lines_.position(clamp(offset)).line; }

PositionConverter::LinePart PositionConverter::line_prefix(uint32_t offset) const {
  LineCol pos = lines_.position(clamp(offset));
  std::string_view line = lines_.line_text(pos.line);
  // An offset inside a "\r\n" terminator sits at the end of the line's text.
  return {pos.line, line, std::min<uint32_t>(pos.column, static_cast<uint32_t>(line.size()))};
}

PositionConverter::Units PositionConverter::count_units(const LinePart& part) {
  // An offset inside a multi-byte character maps to that character's start:
  // only whole characters before it are counted, decoded in the full line.
  Units units;
  uint32_t bytes = 0;
  for_each_step(part.line, [&](Utf8Step step) {
    if (bytes + step.bytes > part.column) return false;
    bytes += step.bytes;
    units.utf16 += step.utf16_units;
    ++units.code_points;
    return true;
  });
  return units;
}

LspPosition PositionConverter::lsp_position(uint32_t offset) const {
  LinePart part = line_prefix(offset);
  if (encoding_ == PositionEncoding::Utf8) return {part.index, part.column};
  return {part.index, count_units(part).utf16};
}

LspRange PositionConverter::lsp_range(ByteRange range) const {
  uint32_t begin = clamp(range.begin);
  uint32_t end = std::max(begin, clamp(range.end));
  return {lsp_position(begin), lsp_position(end)};
}

TextPosition PositionConverter::text_position(uint32_t offset) const {
  LinePart part = line_prefix(offset);
  return {part.index + 1, count_units(part).code_points + 1};
}

TextPosition PositionConverter::utf16_text_position(uint32_t offset) const {
  LspPosition pos = lsp_position(offset);
  return {pos.line + 1, pos.character + 1};
}

uint32_t PositionConverter::offset(LspPosition position) const {
  if (position.line >= lines_.line_count()) return static_cast<uint32_t>(text_.size());
  std::string_view line = lines_.line_text(position.line);
  uint32_t start = lines_.line_start(position.line);
  if (encoding_ == PositionEncoding::Utf8) {
    // Never inside a character: back up to the start of the one it splits.
    uint32_t column = std::min<uint32_t>(position.character, static_cast<uint32_t>(line.size()));
    uint32_t bytes = 0;
    for_each_step(line, [&](Utf8Step step) {
      if (bytes + step.bytes > column) return false;
      bytes += step.bytes;
      return true;
    });
    return clamp(start + bytes);
  }
  uint32_t units = 0, bytes = 0;
  for_each_step(line, [&](Utf8Step step) {
    if (units + step.utf16_units > position.character) return false;
    units += step.utf16_units;
    bytes += step.bytes;
    return true;
  });
  return clamp(start + bytes);
}

std::string file_uri(std::string_view absolute_path) {
  std::string path(absolute_path);
  if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
  return "file://" + percent_encode(path);
}

std::string relative_uri(std::string_view relative_path) { return percent_encode(relative_path); }

}  // namespace cake
