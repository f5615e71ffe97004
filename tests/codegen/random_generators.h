// Every random kernel generator of tests/codegen/random_*.h, one row each,
// read by the host differential tests (host_run_test.cpp) and by
// cake-gpu-check (tests/gpu/gpu_check.cpp), so that a new generator is
// added in one place.
#pragma once

#include <cstdint>
#include <string_view>

#include "random_kernels.h"
#include "random_mma_kernels.h"
#include "random_pipeline_kernels.h"

namespace cake::testing {

struct RandomGenerator {
  /// Its group: the host test's tag `[group]`, the CTest that runs that tag,
  /// and cake-gpu-check's option `--group FIRST:COUNT`.
  std::string_view group;
  std::string_view what;  // for messages
  RandomKernel (*make)(uint64_t seed);
  /// Seeds the host test draws by default (CAKE_RANDOM_KERNELS overrides):
  /// each group's CTest stays near a minute on two cores.
  uint64_t host_seeds;
};

inline constexpr RandomGenerator random_generators[] = {
    {"random", "fragment", random_kernel, 24},
    {"random-mma", "mma.sync", random_mma_kernel, 24},
    {"random-mma", "wgmma", random_wgmma_kernel, 16},
    {"random-mma", "tcgen05.mma", random_tcgen05_kernel, 16},
    {"random-pipeline", "pipeline", random_pipeline_kernel, 24},
    {"random-pipeline", "mma.sync pipeline", random_mma_pipeline_kernel, 8},
    {"random-pipeline", "wgmma pipeline", random_wgmma_pipeline_kernel, 8},
    {"random-pipeline", "tcgen05.mma pipeline", random_tcgen05_pipeline_kernel, 8},
};

}  // namespace cake::testing
