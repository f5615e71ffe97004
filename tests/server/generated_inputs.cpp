// Generated sources for the CLI tests (cli_test.cpp), where `cake` is the
// function that runs the binary and cannot also name the namespace.
#include "../support/kernel_gen.h"

std::string repeated_targets_file(size_t target_lines, size_t kernels) {
  return cake::test::repeated_targets_file(target_lines, kernels);
}
