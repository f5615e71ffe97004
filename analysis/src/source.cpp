// LineIndex: byte offsets <-> (line, byte column), by binary search over the
// line starts. Lines end at "\n"; a preceding "\r" is not part of the line.
#include "cake/source.h"

#include <algorithm>
#include <cstring>

namespace cake {

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  if (text.empty()) return;  // memchr must not see a null pointer
  const char* begin = text.data();
  const char* end = begin + text.size();
  for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p)
    starts_.push_back(static_cast<uint32_t>(p - begin + 1));
}

LineCol LineIndex::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - starts_.begin()) - 1;
  return {line, offset - starts_[line]};
}

uint32_t LineIndex::line_start(uint32_t line) const {
  if (line >= starts_.size()) return static_cast<uint32_t>(text_.size());
  return starts_[line];
}

uint32_t LineIndex::offset(LineCol pos) const {
  if (pos.line >= starts_.size()) return static_cast<uint32_t>(text_.size());
  uint32_t end = static_cast<uint32_t>(line_text(pos.line).size()) + starts_[pos.line];
  return std::min(starts_[pos.line] + pos.column, end);
}

std::string_view LineIndex::line_text(uint32_t line) const {
  if (line >= starts_.size()) return {};
  uint32_t b = starts_[line];
  uint32_t e = line + 1 < starts_.size() ? starts_[line + 1] - 1 : static_cast<uint32_t>(text_.size());
  if (e > b && text_[e - 1] == '\r') --e;
  return text_.substr(b, e - b);
}

}  // namespace cake
