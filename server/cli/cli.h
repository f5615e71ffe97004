// Shared declarations of the `cake` command line: exit codes, what every
// subcommand is given, and the entry point of each subcommand. Each
// subcommand lives in its own file (check_command.cpp, ...) and returns one
// of the three exit codes; main.cpp dispatches and catches everything.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace cake::cli {

enum ExitCode : int {
  kExitOk = 0,        // nothing wrong
  kExitFindings = 1,  // errors found (or warnings under --werror)
  kExitUsage = 2,     // bad usage, unreadable input, internal failure
};

using Args = std::span<const std::string_view>;

/// Facts about this installation every subcommand may need.
struct ToolInfo {
  std::string version;    // "0.1.0"
  std::string docs_root;  // absolute path of the docs (rules/<code>.md), or empty
};

/// `cake check [options] FILE|DIR|- ...`; `args` excludes "check".
int run_check(Args args, const ToolInfo& tool);

/// The usage text of `cake check`.
std::string check_help();

/// `cake fmt [--check | --write] FILE|DIR|- ...`; `args` excludes "fmt".
int run_fmt(Args args);
std::string fmt_help();

/// `cake estimate [options] FILE|DIR|- ...`; `args` excludes "estimate".
int run_estimate(Args args);
std::string estimate_help();

/// `cake run FILE --backend cpu [options]`; `args` excludes "run".
int run_run(Args args);
std::string run_help();

/// `cake lower FILE [options]`; `args` excludes "lower".
int run_lower(Args args);
std::string lower_help();

/// `cake calibrate --measurements FILE [options]`; `args` excludes "calibrate".
int run_calibrate(Args args);
std::string calibrate_help();

}  // namespace cake::cli
