// build_model(): the CST of a whole file -> Module, with names resolved.
#pragma once

#include "cake/model.h"
#include "cake/syntax.h"

#include <string_view>
#include <vector>

namespace cake {

void build_model(const TSTree* tree, std::string_view text, Module& module, std::vector<Diagnostic>& diagnostics);

}  // namespace cake
