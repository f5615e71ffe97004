// Compiled cubins kept by content (docs/lowering.md, "Compiling"): the key
// is a hash of everything a compile depends on (the source, the
// architecture, the options, NVRTC's version), the value what compile()
// returned: the cubin, the PTX and the log with ptxas's report. The one
// place codegen/ touches files, in the directory its caller names
// (default_cache_dir(): $XDG_CACHE_HOME/cake/cubins or ~/.cache/cake/cubins).
#pragma once

#include "cake/codegen/nvrtc.h"

#include <string>

namespace cake::codegen {

/// $XDG_CACHE_HOME/cake/cubins, else $HOME/.cache/cake/cubins, else "".
std::string default_cache_dir();

/// The hex key of `request` under this build's NVRTC.
std::string cache_key(const CompileRequest& request);

/// compile(), answered from `dir` when it holds the result for the same
/// key, and stored there after a successful compile (failures are not
/// kept: the log may name a transient cause). `hit` says which. An empty
/// `dir`, or one that cannot be written, compiles every time.
CompileResult compile_cached(const CompileRequest& request, const std::string& dir, bool* hit = nullptr);

}  // namespace cake::codegen
