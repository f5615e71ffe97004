// What a run needs before it starts: the shape (a bench's, the smallest the
// `where` facts allow, or overrides checked against the facts) and the
// inputs (seeded random values per dtype, or given arrays checked against
// the parameters' shapes).
#pragma once

#include "cake/exec/run.h"
#include "cake/model.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cake::exec {

using Shape = std::vector<std::pair<SymbolId, int64_t>>;
/// A shape by symbol name, as choose_shape's overrides take it.
using NamedShape = std::vector<std::pair<std::string, int64_t>>;

struct ShapeChoice {
  Shape values;        // every shape symbol of the kernel
  std::string text;    // "M = 128, N = 256, K = 64"
  std::string error;   // set when no shape results
};

/// The benches (indices into Module::benches) that run `kernel`.
std::vector<size_t> kernel_benches(const Module& m, uint32_t kernel);

/// The shape of bench `bench` (an index into Module::benches; -1: the
/// smallest shape the kernel's facts allow), with `overrides` (by symbol
/// name) on top. Errors: an unknown symbol, an unbound one, a fact that
/// fails (quoted).
ShapeChoice choose_shape(const Module& m, uint32_t kernel, int64_t bench, const NamedShape& overrides);

/// `shape` by symbol name: the overrides that give another kernel the same
/// shape (a bench's reference kernel, whose symbols match by name).
NamedShape named_shape(const Module& m, const Shape& shape);

/// One TensorData per parameter of `kernel` under `shape`: tensors of the
/// right size filled by fill_random() with a seed derived from `seed` and the
/// parameter's position, scalars from the shape (a parameter that is also a
/// shape symbol) or 1. Error when a tensor's size is not known or over
/// `max_elements`.
bool make_inputs(const Module& m, uint32_t kernel, const Shape& shape, uint64_t seed,
                 std::vector<TensorData>& out, std::string& error, int64_t max_elements = int64_t(1) << 28);

}  // namespace cake::exec
