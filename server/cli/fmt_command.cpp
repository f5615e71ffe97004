// `cake fmt [--check | --write] FILE|DIR|- ...`: the canonical format
// (cake/format.h). Without a flag the formatted text goes to stdout; --check
// lists the files that are not formatted; --write rewrites them. A file with
// syntax errors is left alone and reported. Exit: 0 all formatted (or
// written), 1 some file not formatted or not formattable, 2 usage or I/O.
#include "cli.h"
#include "io.h"

#include "cake/format.h"

#include <fstream>
#include <vector>

namespace cake::cli {

std::string fmt_help() {
  return R"(usage: cake fmt [--check | --write] FILE|DIR|- ...

Formats CAKE IR: two spaces per brace level, one space between tokens on a
line, at most one blank line in a row, no trailing spaces, one final newline.
Line breaks and comments are kept. Files with syntax errors are not touched.

  (no flag)  print the formatted text to stdout
  --check    list the files that are not formatted; exit 1 if any
  --write    rewrite files that are not formatted (not stdin)

exit status: 0 formatted, 1 some file not formatted or has syntax errors,
2 usage or I/O error.
)";
}

int run_fmt(Args args) {
  enum class Mode { Print, Check, Write } mode = Mode::Print;
  std::vector<std::string> paths;
  for (std::string_view a : args) {
    if (a == "--check") mode = Mode::Check;
    else if (a == "--write" || a == "-w") mode = Mode::Write;
    else if (a == "--help" || a == "-h") return write_all(stdout, fmt_help()) ? kExitOk : kExitUsage;
    else if (a.starts_with("-") && a != "-") {
      write_all(stderr, "cake fmt: unknown option '" + std::string(a) + "'\nTry 'cake fmt --help'.\n");
      return kExitUsage;
    } else paths.emplace_back(a);
  }
  if (paths.empty()) {
    write_all(stderr, "cake fmt: no input files\nTry 'cake fmt --help'.\n");
    return kExitUsage;
  }
  int status = kExitOk;
  for (const InputFile& input : expand_inputs(paths)) {
    if (!input.error.empty()) {
      write_all(stderr, "cake fmt: " + input.path + ": " + input.error + "\n");
      status = kExitUsage;
      continue;
    }
    ReadResult read = input.is_stdin ? read_stdin() : read_file(input.path);
    if (!read.error.empty()) {
      write_all(stderr, "cake fmt: " + input.path + ": " + read.error + "\n");
      status = kExitUsage;
      continue;
    }
    SyntaxTree tree = cake::parse(read.text);
    std::optional<std::string> formatted = format_source(tree, read.text);
    if (!formatted) {
      write_all(stderr, "cake fmt: " + input.path + ": has syntax errors (see `cake check`); not formatted\n");
      if (status == kExitOk) status = kExitFindings;
      if (mode == Mode::Print) write_all(stdout, read.text);
      continue;
    }
    bool changed = *formatted != read.text;
    switch (mode) {
      case Mode::Print: write_all(stdout, *formatted); break;
      case Mode::Check:
        if (changed) {
          write_all(stdout, input.path + "\n");
          if (status == kExitOk) status = kExitFindings;
        }
        break;
      case Mode::Write:
        if (changed && !input.is_stdin) {
          std::ofstream out(input.path, std::ios::binary | std::ios::trunc);
          out << *formatted;
          if (!out) {
            write_all(stderr, "cake fmt: " + input.path + ": cannot write\n");
            status = kExitUsage;
          }
        } else if (input.is_stdin) {
          write_all(stdout, *formatted);
        }
        break;
    }
  }
  return status;
}

}  // namespace cake::cli
