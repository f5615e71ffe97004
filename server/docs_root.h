// Where the docs are: installed beside the binary, else in the source tree.
#pragma once

#include <string>

namespace cake {

/// `<exe dir>/../share/cake/docs` when installed, else `<source_dir>/docs`;
/// empty when neither exists. `argv0` may be null.
std::string find_docs_root(const char* argv0, const std::string& source_dir);

}  // namespace cake
