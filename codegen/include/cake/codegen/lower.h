// Lowering CAKE IR to CUDA C++ (docs/lowering.md): one self-contained
// translation unit per kernel × target, an `extern "C"` kernel with every
// physical line under a `#line` of the .cake file, each statement's text as a
// comment above its code, and the launch plan as data. No I/O: the caller
// compiles the source (nvrtc.h) and writes files.
#pragma once

#include "cake/analyze.h"
#include "cake/diagnostic.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cake::codegen {

/// How a launcher encodes a `tensormap` (cuTensorMapEncodeTiled): a tiled
/// map of the whole tensor parameter `tensor`, row-major and contiguous, so
/// its global dims and strides are the tensor's own. Lists are innermost
/// first, as the driver takes them.
struct TensorMapEncoding {
  std::string tensor;               // the tensor parameter's name
  std::string dtype;                // "bf16", "f32", ...
  int64_t element_bytes = 0;        // in shared memory (a byte for 6- and 4-bit floats)
  int64_t element_bits = 0;         // in the tensor: 4 and 6 for the packed 16U4/16U6_ALIGN16B types
  std::vector<std::string> dims;    // C++ expressions over the shape symbols
  std::vector<int64_t> box;         // the box, element strides all 1
  int64_t swizzle = 0;              // bytes: 0 (none), 32, 64, 128
  // Not interleaved, L2 promotion of 128 bytes, out-of-bounds elements
  // read as zeros (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE).
};

/// One parameter of the kernel's signature, in order.
struct LaunchParam {
  std::string name;
  enum class Kind { Tensor, ShapeSymbol, Scalar, TensorMap } kind = Kind::Tensor;
  std::string ctype;  // "const float*", "long long", ...
  TensorMapEncoding map;  // TensorMap only
};

/// Grid, block and shared memory of one bench of the kernel.
struct BenchLaunch {
  std::vector<std::pair<std::string, int64_t>> shape;  // the bench's bindings
  std::vector<int64_t> grid;                           // x, y, z
};

/// What a launcher needs to run the kernel (docs/lowering.md, "Launch plan").
struct LaunchPlan {
  std::string kernel;
  std::string target;
  std::vector<LaunchParam> params;
  std::vector<std::string> grid;  // C++ expressions over the shape symbols, x first
  int64_t block = 0;
  int64_t dynamic_smem = 0;  // bytes: the verifier's layout total (E0301)
  std::vector<int64_t> cluster;  // CTAs per cluster (x, y, z); empty: no cluster. In the kernel (__cluster_dims__)
  std::vector<BenchLaunch> benches;
};

struct Lowered {
  std::string cuda;  // the translation unit
  /// For each line of `cuda` (index 0 is line 1): the 1-based .cake line
  /// its `#line` names, 0 for lines that map nowhere (the prelude, `#line`
  /// directives themselves).
  std::vector<uint32_t> cake_line;
  LaunchPlan plan;
  /// Why it could not be lowered (CAKE-E08xx), empty when it was.
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return diagnostics.empty(); }
};

/// The grid (x, y, z) of kernel `kernel` at a shape (every shape symbol
/// bound); 0 for a dimension that does not evaluate.
std::vector<int64_t> launch_grid(const Module& module, uint32_t kernel,
                                 const std::vector<std::pair<SymbolId, int64_t>>& shape);

/// How to lower beyond the IR itself.
struct LowerOptions {
  /// A role statement whose `maxnreg` is not applied: the role keeps the
  /// launch's registers per thread. Only for compile experiments (which
  /// role's budget makes ptxas spill, compiler_facts()); the result must not
  /// run, since the roles' budgets no longer add up to the pool.
  StmtId keep_launch_registers = kNone;
};

/// Lowers kernel `kernel` (an index into analysis.module.kernels) for
/// `target` ("sm_80", ...). `file` is the path `#line` names. A file with
/// errors is refused: analysis.diagnostics must hold none.
Lowered lower(const Analysis& analysis, uint32_t kernel, const std::string& target, const std::string& file,
              const LowerOptions& options = {});

}  // namespace cake::codegen

namespace cake::codegen {

/// A shape symbol a dispatch's guards read, and where a call's arguments
/// give it: dim `dim` of the dispatch's parameter `param` (as its kernel
/// first writes the symbol, docs/language.md "Dispatch").
struct DispatchInput {
  std::string name;
  size_t param = 0, dim = 0;
};

/// A `dispatch` as a host-side selector: a C++ function of the shape
/// symbols its guards read that returns the index of the first case whose
/// guard holds (the `else` case's when none does, -1 without one).
struct DispatchSelector {
  std::string name;
  std::vector<std::string> params;        // the dispatch's parameters, in order
  std::vector<DispatchInput> inputs;      // the selector's arguments, in order
  std::vector<std::string> kernels;       // each case's kernel, in order
  std::vector<std::string> guards;        // each case's guard as C++ ("" for else)
  std::string function;                   // `cake_select_NAME`
  std::string cpp;                        // the function's definition
  std::vector<Diagnostic> diagnostics;    // why it could not be made (E0801)
  bool ok() const { return diagnostics.empty(); }
};

/// The selector of dispatch `index` (into analysis.module.dispatches); a
/// file with errors is refused.
DispatchSelector lower_dispatch(const Analysis& analysis, uint32_t index);

}  // namespace cake::codegen
