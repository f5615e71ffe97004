// How the model's nodes are written (cake/model.h): the text of a range, the
// indentation of a line, a construct's whole lines. The model keeps its
// source so that messages can quote it and fixes can copy and delete it;
// these are the only readers of that text, so layout questions (blanks,
// line breaks, trailing comments) have one answer, and checks never search
// the text themselves.
#include "cake/model.h"

namespace cake {

std::string_view Module::written(ByteRange r) const {
  if (r.begin > r.end || r.end > source.size()) return {};
  return source.substr(r.begin, r.end - r.begin);
}

std::string_view Module::indent_at(uint32_t offset) const {
  if (offset > source.size()) return {};
  size_t start = source.rfind('\n', offset == 0 ? 0 : offset - 1);
  start = start == std::string_view::npos || offset == 0 ? 0 : start + 1;
  size_t end = start;
  while (end < offset && (source[end] == ' ' || source[end] == '\t')) ++end;
  return source.substr(start, end - start);
}

ByteRange Module::whole_lines(ByteRange r) const {
  std::string_view text = source;
  if (r.begin > r.end || r.end > text.size()) return r;
  uint32_t b = r.begin, e = r.end;
  while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
  if (b > 0 && text[b - 1] != '\n') return r;
  while (e < text.size() && (text[e] == ' ' || text[e] == '\t')) ++e;
  if (text.substr(e).starts_with("//"))
    while (e < text.size() && text[e] != '\n') ++e;
  if (e < text.size() && text[e] == '\r') ++e;
  if (e < text.size() && text[e] == '\n') return {b, e + 1};
  if (e == text.size()) return {b, e};
  return r;
}

}  // namespace cake
