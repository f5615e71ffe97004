// The kernel of a module with a given name, for the subcommands that take
// `--kernel K` or name a kernel in a measurement (run, calibrate).
#pragma once

#include "cake/model.h"

#include <optional>
#include <string_view>

namespace cake::cli {

inline std::optional<uint32_t> kernel_named(const Module& module, std::string_view name) {
  for (uint32_t k = 0; k < module.kernels.size(); ++k)
    if (module.kernels[k].symbol != kNone && module.symbols[module.kernels[k].symbol].name == name) return k;
  return std::nullopt;
}

}  // namespace cake::cli
