// The barrier-traffic simulator: runs the roles of one kernel over concrete
// trip counts and records what happens in a ProtocolTrace (sync/trace.h).
// It judges nothing; the rules in checks/protocol/ read the trace.
#pragma once

#include "cake/eval.h"
#include "sync/trace.h"

#include <optional>
#include <vector>

namespace cake {

class KernelFacts;

/// Simulates kernel `kernel` with `roles` under `env` (the shape; see
/// simulation_env()). When a value cannot be evaluated or the step budget
/// runs out the trace stops there and is marked `aborted`.
ProtocolTrace simulate_protocol(const Module& m, uint32_t kernel, std::vector<RoleView> roles, Env env);

/// The shape to simulate a kernel with, chosen among its facts' shape samples
/// (KernelFacts::samples()): a bench shape, else the smallest the kernel's
/// `where` facts allow that gives every pipeline two turns of its ring and
/// every loop whose count the shape sets two trips.
/// Nullopt when no shape keeps the trip counts within the budget.
std::optional<Env> simulation_env(const KernelFacts& facts);

}  // namespace cake
