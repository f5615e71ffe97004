// The CPU reference executor: runs one kernel of an analysed module over a
// whole grid on the host, at tile granularity, with the language's semantics
// (docs/language.md, "Execution model"; docs/run.md says how the executor
// implements them). Each warp of each CTA is a coroutine; async effects (TMA,
// bulk and cp.async copies, wgmma, tcgen05) land at a moment the language
// allows, chosen by the schedule. Accesses to shared, tensor and register
// memory are checked for races with vector clocks as they happen, so one run
// reports the two statements of a race whatever the interleaving.
#pragma once

#include "cake/model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cake::exec {

/// A tensor parameter's contents (in its element order: row-major, or
/// column-major for a `col_major` tensor; `dims` as the parameter's type
/// evaluates under the shape), or a scalar parameter's value (no dims).
struct TensorData {
  SymbolId param = kNone;
  std::string name;
  DType dtype = DType::Unknown;
  Order order = Order::RowMajor;
  std::vector<int64_t> dims;
  std::vector<double> values;
  /// For each element, the store statement that last wrote it (kNone: none),
  /// filled by a run for its outputs.
  std::vector<StmtId> writers;
};

struct RunOptions {
  /// 0: the canonical schedule (warps round-robin, async effects land as late
  /// as the language allows). N > 0: seeded interleavings and landing times.
  uint64_t schedule = 0;
  /// A run stops with StepLimit after this many statements (all warps).
  int64_t max_steps = int64_t(1) << 32;
  /// The most elements one tensor, buffer or fragment may hold (8 bytes
  /// each); a larger one stops the run with Unsupported before it is made.
  int64_t max_elements = int64_t(1) << 28;
  /// Called now and then with the CTAs done and the CTAs of the grid.
  std::function<void(int64_t done, int64_t total)> progress;
};

/// What stops a run or marks it wrong, on the `.cake` lines that cause it.
struct RunProblem {
  enum class Kind : uint8_t {
    Deadlock,     // every warp waits and nothing in flight can release one
    Race,         // two unordered accesses, one a write, to overlapping elements
    Unsupported,  // a construct the executor does not run (message says which)
    OutOfBounds,  // a slice past its buffer at run time
    StepLimit,    // RunOptions::max_steps reached
  };
  Kind kind = Kind::Unsupported;
  ByteRange at;
  std::string message;
  struct Related {
    ByteRange at;
    std::string message;
  };
  std::vector<Related> related;
};
std::string_view problem_kind_name(RunProblem::Kind kind);

struct RunResult {
  std::vector<TensorData> tensors;  // every parameter, in order, after the run
  std::vector<RunProblem> problems;
  int64_t ctas = 0;                 // CTAs run
  int64_t statements = 0;           // statements executed (all warps)
  bool completed() const;           // no deadlock, step limit or unsupported construct
};

/// Runs kernel `kernel` of `module` (which must have no errors) under the
/// shape `shape` (every shape symbol bound) with `inputs` (one TensorData per
/// parameter, in order, values already rounded into their dtypes).
RunResult run_kernel(const Module& module, uint32_t kernel, const std::vector<std::pair<SymbolId, int64_t>>& shape,
                     std::vector<TensorData> inputs, const RunOptions& options);

}  // namespace cake::exec
