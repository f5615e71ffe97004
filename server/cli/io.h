// The command line's contact with the outside: expanding FILE|DIR|- into the
// list of documents to check (directories searched recursively for *.cake,
// sorted), reading them with a size limit, and writing to stdout/stderr
// without throwing or dying on a closed pipe.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cake::cli {

/// Files larger than this are refused rather than read.
inline constexpr size_t kMaxInputBytes = size_t{64} << 20;

/// One document to check, or a path that could not be expanded.
struct InputFile {
  std::string path;   // as shown to the user; "<stdin>" for "-"
  bool is_stdin = false;
  std::string error;  // set when the path itself failed (no such file)
};

/// Expands the positional arguments in order. A directory yields its *.cake
/// files, recursively, sorted by path; nothing when it holds none.
std::vector<InputFile> expand_inputs(const std::vector<std::string>& arguments);

struct ReadResult {
  std::string text;
  std::string error;  // empty on success: "No such file or directory", ...
};

ReadResult read_file(const std::string& path);
ReadResult read_stdin();

/// The absolute, lexically normal form of `path` (for URIs).
std::string absolute_path(const std::string& path);
/// The current directory, absolute.
std::string current_directory();

/// Writes all of `text`; false when the stream failed (a closed pipe).
bool write_all(std::FILE* stream, std::string_view text);

/// Whether ANSI colour suits stdout: a terminal that has colours, and no
/// NO_COLOR in the environment.
bool stdout_wants_color();

/// Whether stderr is a terminal (progress lines that rewrite themselves).
bool stderr_is_terminal();

}  // namespace cake::cli
