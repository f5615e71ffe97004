// The `cake` command line: dispatches `cake <subcommand> ...` to the
// subcommand's file, answers --version and help, finds the installed docs
// (for the rule links in JSON and SARIF), and guarantees the exit status is
// 0, 1 or 2: no exception and no unknown subcommand escapes as a crash.
#include "cake_version.h"
#include "cli.h"
#include "docs_root.h"
#include "io.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <csignal>
#include <exception>
#include <string>
#include <vector>

#ifndef CAKE_SOURCE_DIR
#define CAKE_SOURCE_DIR ""
#endif

namespace cake::cli {
namespace {

std::string main_help() {
  return R"(usage: cake <command> [options] [args]

cake checks CAKE IR kernel schedules: names, types, targets, resources,
synchronisation protocol and races, with a stable code and a docs page per
rule.

commands:
  check     check .cake files (FILE, DIR or - for stdin)
  fmt       format .cake files in the canonical format
  estimate  estimate each kernel's time per bench shape, target and device
  calibrate fit the cost model's device table to measured kernel times
  run       run kernels on the CPU reference executor (--backend cpu)
  lower     lower kernels to CUDA C++, PTX or cubins (NVRTC), or a launch plan
  help      show this help, or `cake help check` for a command's

options:
  --version  print the version
  --help     show this help

Run `cake check --help` for the options of check.
)";
}

int usage_error(const std::string& message) {
  write_all(stderr, "cake: " + message + "\nTry 'cake --help'.\n");
  return kExitUsage;
}

int help_command(Args args) {
  if (args.empty()) return write_all(stdout, main_help()) ? kExitOk : kExitUsage;
  if (args[0] == "check") return write_all(stdout, check_help()) ? kExitOk : kExitUsage;
  if (args[0] == "fmt") return write_all(stdout, fmt_help()) ? kExitOk : kExitUsage;
  if (args[0] == "estimate") return write_all(stdout, estimate_help()) ? kExitOk : kExitUsage;
  if (args[0] == "calibrate") return write_all(stdout, calibrate_help()) ? kExitOk : kExitUsage;
  if (args[0] == "run") return write_all(stdout, run_help()) ? kExitOk : kExitUsage;
  if (args[0] == "lower") return write_all(stdout, lower_help()) ? kExitOk : kExitUsage;
  return usage_error("no help for unknown command '" + std::string(args[0]) + "'");
}

int dispatch(Args args, const char* argv0) {
  if (args.empty()) {
    write_all(stderr, main_help());
    return kExitUsage;
  }
  std::string_view command = args[0];
  Args rest = args.subspan(1);
  if (command == "--version" || command == "version")
    return write_all(stdout, "cake " + std::string(kVersion) + "\n") ? kExitOk : kExitUsage;
  if (command == "help" || command == "--help" || command == "-h") return help_command(rest);
  if (command == "check") return run_check(rest, ToolInfo{kVersion, find_docs_root(argv0, CAKE_SOURCE_DIR)});
  if (command == "fmt") return run_fmt(rest);
  if (command == "estimate") return run_estimate(rest);
  if (command == "calibrate") return run_calibrate(rest);
  if (command == "run") return run_run(rest);
  if (command == "lower") return run_lower(rest);
  if (command.starts_with("-")) return usage_error("unknown option '" + std::string(command) + "'");
  return usage_error("unknown command '" + std::string(command) + "'");
}

}  // namespace
}  // namespace cake::cli

int main(int argc, char** argv) {
  // A closed pipe makes writes fail (exit 2) instead of killing the process.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    return cake::cli::dispatch(args, argc > 0 ? argv[0] : "cake");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cake: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "cake: internal error\n");
  }
  return cake::cli::kExitUsage;
}
