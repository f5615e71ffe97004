// Reading a subcommand's options the same way everywhere: `--name value` and
// `--name=value`, and a usage error that points to the subcommand's --help.
// (`cake check` has its own parser, check_options.h, for `--` and repeats.)
#pragma once

#include "cli.h"
#include "io.h"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace cake::cli {

/// A subcommand's arguments, one at a time.
class ArgCursor {
 public:
  explicit ArgCursor(Args args) : args_(args) {}

  bool done() const { return i_ >= args_.size(); }
  std::string_view current() const { return args_[i_]; }
  void advance() { ++i_; }

  /// Whether the current argument is option `name`: `name` or `name=...`.
  bool is(std::string_view name) const {
    std::string_view a = current();
    return a.starts_with(name) && (a.size() == name.size() || a[name.size()] == '=');
  }

  /// The value of option `name`, the current argument: after its "=", or
  /// the next argument (then consumed); nullopt when there is none.
  std::optional<std::string> value(std::string_view name) {
    std::string_view a = current();
    if (a.size() > name.size()) return std::string(a.substr(name.size() + 1));
    if (i_ + 1 < args_.size()) return std::string(args_[++i_]);
    return std::nullopt;
  }

 private:
  Args args_;
  size_t i_ = 0;
};

/// Prints "cake COMMAND: MESSAGE" and the pointer to its --help on stderr;
/// returns the usage exit code.
inline int usage_error(std::string_view command, const std::string& message) {
  std::string c(command);
  write_all(stderr, "cake " + c + ": " + message + "\nTry 'cake " + c + " --help'.\n");
  return kExitUsage;
}

}  // namespace cake::cli
