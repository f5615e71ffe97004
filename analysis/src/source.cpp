// LineIndex: byte offsets <-> (line, byte column), by binary search over the
// line starts. Lines end at "\n"; a preceding "\r" is not part of the line.
#include "cake/source.h"

#include <algorithm>
#include <cstddef>
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

void LineIndex::replace(std::string_view text, uint32_t begin, uint32_t end, uint32_t inserted) {
  // A line start s follows the newline at s - 1: the starts in (begin, end]
  // went with the replaced bytes, the inserted bytes bring their own, and
  // every start after `end` moves by the change in length.
  auto first = std::upper_bound(starts_.begin(), starts_.end(), begin);
  auto last = std::upper_bound(first, starts_.end(), end);
  int64_t delta = int64_t(inserted) - int64_t(end - begin);
  for (auto it = last; it != starts_.end(); ++it) *it = static_cast<uint32_t>(*it + delta);
  std::vector<uint32_t> added;
  const char* base = text.data();
  for (const char *p = base + begin, *stop = base + begin + inserted;
       p < stop && (p = static_cast<const char*>(std::memchr(p, '\n', stop - p))); ++p)
    added.push_back(static_cast<uint32_t>(p - base + 1));
  // Replace [first, last) with `added`, shifting the tail once.
  size_t at = static_cast<size_t>(first - starts_.begin());
  size_t removed = static_cast<size_t>(last - first);
  if (added.size() <= removed) {
    std::copy(added.begin(), added.end(), first);
    starts_.erase(first + static_cast<std::ptrdiff_t>(added.size()), last);
  } else {
    std::copy(added.begin(), added.begin() + static_cast<std::ptrdiff_t>(removed), first);
    starts_.insert(starts_.begin() + static_cast<std::ptrdiff_t>(at + removed),
                   added.begin() + static_cast<std::ptrdiff_t>(removed), added.end());
  }
  text_ = text;
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
