// Parses `cake check` arguments and holds its help text. Every value is
// validated here, so the command itself never meets a bad option.
#include "check_options.h"

#include "cake/device.h"

#include <charconv>
#include <optional>

namespace cake::cli {
namespace {

/// Splits "--name=value" into ("--name", "value"); otherwise no value.
std::pair<std::string_view, std::optional<std::string_view>> split_inline(std::string_view arg) {
  if (!arg.starts_with("--")) return {arg, std::nullopt};
  size_t eq = arg.find('=');
  if (eq == std::string_view::npos) return {arg, std::nullopt};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

bool takes_value(std::string_view name) {
  return name == "--format" || name == "--color" || name == "--target" || name == "--device" || name == "--jobs" ||
         name == "-j";
}

std::string set_format(CheckOptions& options, std::string_view value) {
  if (value == "text") options.format = OutputFormat::Text;
  else if (value == "json") options.format = OutputFormat::Json;
  else if (value == "sarif") options.format = OutputFormat::Sarif;
  else return "unknown format '" + std::string(value) + "' (expected text, json or sarif)";
  return {};
}

std::string set_color(CheckOptions& options, std::string_view value) {
  if (value == "auto") options.color = ColorMode::Auto;
  else if (value == "always") options.color = ColorMode::Always;
  else if (value == "never") options.color = ColorMode::Never;
  else return "unknown color mode '" + std::string(value) + "' (expected auto, always or never)";
  return {};
}

std::string set_jobs(CheckOptions& options, std::string_view value) {
  unsigned jobs = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), jobs);
  if (ec != std::errc() || end != value.data() + value.size() || jobs > 1024)
    return "--jobs needs a number from 0 to 1024, not '" + std::string(value) + "'";
  options.jobs = jobs;
  return {};
}

/// Adds each target of a comma-separated list.
std::string add_targets(CheckOptions& options, std::string_view value) {
  while (true) {
    size_t comma = value.find(',');
    std::string_view target = value.substr(0, comma);
    if (target.empty()) return "--target needs a target name such as sm_90a";
    options.default_targets.emplace_back(target);
    if (comma == std::string_view::npos) return {};
    value.remove_prefix(comma + 1);
  }
}

/// The device of the W07xx diagnostics: an id or alias of cake/device.h.
std::string set_device(CheckOptions& options, std::string_view value) {
  if (!find_device(value)) {
    std::string known;
    for (const DeviceInfo& d : all_devices()) known += " " + std::string(d.alias);
    return "unknown device '" + std::string(value) + "' (one of:" + known + ")";
  }
  options.device = value;
  return {};
}

std::string apply_value(CheckOptions& options, std::string_view name, std::string_view value) {
  if (name == "--format") return set_format(options, value);
  if (name == "--device") return set_device(options, value);
  if (name == "--color") return set_color(options, value);
  if (name == "--target") return add_targets(options, value);
  return set_jobs(options, value);  // --jobs, -j
}

/// Applies a flag without a value; false when it is not one.
bool apply_flag(CheckOptions& options, std::string_view name) {
  if (name == "--werror") options.werror = true;
  else if (name == "--quiet" || name == "-q") options.quiet = true;
  else if (name == "--summary") options.summary = true;
  else if (name == "--compile") options.compile = true;
  else if (name == "--help" || name == "-h") options.help = true;
  else return false;
  return true;
}

}  // namespace

ParsedCheckArgs parse_check_args(Args args) {
  ParsedCheckArgs parsed;
  CheckOptions& options = parsed.options;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (options_ended || arg == "-" || !arg.starts_with("-")) {
      options.inputs.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    auto [name, inline_value] = split_inline(arg);
    if (takes_value(name)) {
      if (!inline_value && i + 1 >= args.size()) return {{}, std::string(name) + " needs a value"};
      std::string_view value = inline_value ? *inline_value : args[++i];
      if (std::string error = apply_value(options, name, value); !error.empty()) return {{}, error};
    } else if (inline_value || !apply_flag(options, name)) {
      return {{}, "unknown option '" + std::string(arg) + "'"};
    }
  }
  if (!options.help && options.inputs.empty()) return {{}, "no input files (give a FILE, a DIR or - for stdin)"};
  return parsed;
}

std::string check_help() {
  return R"(usage: cake check [options] FILE|DIR|- ...

Checks CAKE IR files and reports their diagnostics. A DIR is searched
recursively for *.cake files (in sorted order); - reads stdin (<stdin>).

options:
  --format text|json|sarif  output format (default: text)
  --werror                  warnings count as errors for the exit code
  --target T[,T...]         target(s) assumed by files that name none
                            (may be repeated; the file is still reported)
  --device D                the GPU whose cost-model table the W07xx
                            performance warnings use, for the targets it
                            runs (a100 a10 rtx3090 l4 rtx4090 h100 h200
                            b200); default: each target's default device
  --compile                 also lower each kernel to CUDA and compile it
                            with NVRTC for each target: what the compiler
                            finds (a rejected line, spilled registers, shared
                            memory the layout does not count) is reported on
                            the .cake lines (E0802, W0803, W0804); kernels
                            that do not lower yet are left out
  --jobs N, -j N            check N files at once (default 1; 0: one per
                            core); output keeps the input order
  --summary                 print the per-file table even for one file
  --quiet, -q               no summary lines (text format)
  --color auto|always|never colour in text output (default: auto, on a
                            terminal unless NO_COLOR is set)
  --help, -h                show this help

exit status:
  0  no errors
  1  errors found (or warnings, with --werror)
  2  usage error, or an input that could not be read
)";
}

}  // namespace cake::cli
