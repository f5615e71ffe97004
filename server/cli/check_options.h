// The options of `cake check`, parsed from argv by a small hand-written
// parser (`--opt value` and `--opt=value`, `--` ends options, `-` is stdin),
// with their documented defaults.
#pragma once

#include "cli.h"

#include <string>
#include <vector>

namespace cake::cli {

enum class OutputFormat { Text, Json, Sarif };
enum class ColorMode { Auto, Always, Never };

struct CheckOptions {
  OutputFormat format = OutputFormat::Text;
  ColorMode color = ColorMode::Auto;
  bool werror = false;   // warnings make the exit code 1
  bool quiet = false;    // no summary lines (text mode)
  bool summary = false;  // the per-file table even for one file (text mode)
  bool help = false;
  bool compile = false;  // also lower and compile each kernel: the compiler's facts (E0802, W0803, W0804)
  unsigned jobs = 1;     // files checked at once; 0: one per core
  std::vector<std::string> default_targets;  // for files that name none
  std::string device;                        // for W07xx; empty: each target's default
  std::vector<std::string> inputs;           // FILE, DIR or "-", in order
};

struct ParsedCheckArgs {
  CheckOptions options;
  std::string error;  // a usage error, for "cake check: <error>"
};

ParsedCheckArgs parse_check_args(Args args);

}  // namespace cake::cli
