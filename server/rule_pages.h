// The rule pages, docs/rules/<code>.md, built into the binary
// (embed_rule_pages.cmake): hovers explain a rule and `cake/rulePage`
// answers with its page whether or not the docs are installed beside the
// server (docs_root.h says where they are for links).
#pragma once

#include <string_view>

namespace cake {

/// The markdown page of rule `code` ("CAKE-E0101"); empty for an unknown code.
std::string_view rule_page(std::string_view code);

/// The "What it means" section of rule `code`'s page, without its heading
/// and the blank lines around it; empty when there is none.
std::string_view rule_meaning(std::string_view code);

}  // namespace cake
