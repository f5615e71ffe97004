// What the CUDA compiler learns about a kernel, back on its .cake lines
// (docs/lowering.md, "Compiler facts"): the kernel is lowered and compiled
// with NVRTC for a target, and NVRTC's and ptxas's findings become
// diagnostics: a rejected line (E0802, through `#line` or the PTX `.loc`
// lines), spilled registers (W0803, on the kernel with its roles' fragments
// as related spans), shared memory the verifier's layout does not count
// (W0804). A kernel that does not lower yet has no compiler facts.
#pragma once

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/codegen/nvrtc.h"

#include <map>
#include <string>
#include <vector>

namespace cake::codegen {

/// The PTX instructions of each .cake line (1-based): opcode and count, in
/// the order they first appear.
using PtxLines = std::map<uint32_t, std::vector<std::pair<std::string, int>>>;

struct FactsResult {
  bool lowered = false, compiled = false;
  std::vector<Diagnostic> diagnostics;
  std::vector<FunctionResources> resources;
  PtxLines ptx_lines;  // of the compiled kernel
};

/// The instructions of `ptx` by the .cake line of the `.loc` before them
/// (following `inlined_at` into `cake_file`); directives, labels and braces
/// are not instructions.
PtxLines ptx_by_line(const std::string& ptx, const std::string& cake_file);

/// Lowers and compiles kernel `kernel` for `target` and turns what the
/// compiler reports into diagnostics. `extra_options` go to NVRTC; with a
/// `cache_dir`, compiles come from and go to the cubin cache (cache.h).
/// Without NVRTC: nothing compiled, no diagnostics.
FactsResult compiler_facts(const Analysis& analysis, uint32_t kernel, const std::string& target,
                           const std::vector<std::string>& extra_options = {}, const std::string& cache_dir = "");

/// The diagnostics of compile result `r` of the lowering of kernel `kernel`
/// (with launch plan `plan`), compiled from code whose `#line`s name
/// "/cake-lowered/kernel.cake": what compiler_facts() reports.
/// `spilling_roles`: the role statements whose `maxnreg` budget makes ptxas
/// spill (compiler_facts() finds them by compiling again without each
/// budget); a spill is then reported on the first one's budget, else on the
/// kernel's name.
std::vector<Diagnostic> compile_diagnostics(const Analysis& analysis, uint32_t kernel, const std::string& target,
                                            const LaunchPlan& plan, const CompileResult& r,
                                            const std::vector<StmtId>& spilling_roles = {});

/// The 1-based .cake line of PTX line `ptx_line` (1-based): the nearest
/// `.loc` before it, in file `cake_file` (following `inlined_at` to it); 0
/// when none names that file.
uint32_t ptx_line_to_cake(const std::string& ptx, uint32_t ptx_line, const std::string& cake_file);

}  // namespace cake::codegen
