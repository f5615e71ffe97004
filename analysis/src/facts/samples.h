// Sample assignments of a kernel's shape symbols that satisfy its `where`
// facts: the bench shapes, and for each symbol its smallest, second-smallest
// and largest value the facts allow (respecting `S % d == 0`). Checks that
// evaluate at these points report only real counterexamples.
#pragma once

#include "cake/model.h"
#include "semantics/eval.h"

#include <vector>

namespace cake {

/// At most a handful of environments binding every shape symbol of `kernel`;
/// each satisfies every fact that can be evaluated.
std::vector<Env> shape_samples(const Module& module, const Evaluator& eval, uint32_t kernel);

/// "K = 1024, N = 128" for the shape symbols bound in `env`.
std::string describe(const Module& module, const Env& env, const std::vector<SymbolId>& symbols);

}  // namespace cake
