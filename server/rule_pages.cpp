// rule_page(), rule_meaning(); the pages are generated into
// rule_pages_data.cpp in the build directory (embed_rule_pages.cmake).
#include "rule_pages.h"

#include <utility>

namespace cake {

extern const std::pair<std::string_view, std::string_view> kRulePages[];
extern const unsigned kRulePageCount;

std::string_view rule_page(std::string_view code) {
  for (unsigned i = 0; i < kRulePageCount; ++i)
    if (kRulePages[i].first == code) return kRulePages[i].second;
  return {};
}

std::string_view rule_meaning(std::string_view code) {
  std::string_view page = rule_page(code);
  size_t start = page.find("\n## What it means");
  if (start == std::string_view::npos) return {};
  start = page.find('\n', start + 1);
  size_t end = page.find("\n## ", start);
  std::string_view meaning = page.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  while (!meaning.empty() && (meaning.front() == '\n' || meaning.front() == ' ')) meaning.remove_prefix(1);
  while (!meaning.empty() && (meaning.back() == '\n' || meaning.back() == ' ')) meaning.remove_suffix(1);
  return meaning;
}

}  // namespace cake
