// Sample assignments of a kernel's shape symbols that satisfy its `where`
// facts: the bench shapes, and for each symbol its smallest, second-smallest
// and largest value the facts allow (respecting `S % d == 0`), all together
// and each symbol apart (it at its second-smallest, the others at their
// smallest: M indexed by the N-grid goes out of bounds there). Checks that
// evaluate at these points report only real counterexamples.
#pragma once

#include "cake/model.h"
#include "cake/eval.h"

#include <optional>
#include <vector>

namespace cake {

/// At most a handful of environments binding every shape symbol of `kernel`;
/// each satisfies every fact that can be evaluated.
std::vector<Env> shape_samples(const Module& module, const Evaluator& eval, uint32_t kernel);

/// The shape whose every symbol is at its smallest (pick 0), second-smallest
/// (1) or largest (2) value the facts' bounds allow (respecting `S % d ==
/// 0`), when every fact holds there.
std::optional<Env> bounded_shape(const Module& module, const Evaluator& eval, uint32_t kernel, int pick);

/// False when a fact of `k` evaluates to false under `env` (facts that
/// cannot be evaluated are taken to hold).
bool facts_hold(const Module& module, const Evaluator& eval, const Kernel& k, const Env& env);

/// "K = 1024, N = 128" for the shape symbols bound in `env`.
std::string describe(const Module& module, const Env& env, const std::vector<SymbolId>& symbols);

}  // namespace cake
