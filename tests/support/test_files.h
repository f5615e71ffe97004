// File helpers shared by the test programs: read a whole file as bytes, list
// the files of a directory in a stable (sorted) order, and split text into
// lines. Tests read their inputs at run time, so a new corpus file, example
// or diagnostics test is picked up without touching any C++.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cake::test {

/// The bytes of `path`, or nullopt when it cannot be read.
inline std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return std::move(out).str();
}

struct ListOptions {
  std::string extension;   // ".cake"; empty: every regular file
  bool recursive = false;
};

/// Regular files under `dir` matching `options`, sorted by path. A missing
/// directory yields an empty list.
inline std::vector<std::filesystem::path> list_files(const std::filesystem::path& dir,
                                                     const ListOptions& options = {}) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  auto keep = [&](const fs::directory_entry& entry) {
    return entry.is_regular_file() &&
           (options.extension.empty() || entry.path().extension() == options.extension);
  };
  if (options.recursive) {
    for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
      if (keep(entry)) files.push_back(entry.path());
  } else {
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (keep(entry)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// The files of several directories, one directory after another.
inline std::vector<std::filesystem::path> list_files(std::initializer_list<std::filesystem::path> dirs,
                                                     const ListOptions& options = {}) {
  std::vector<std::filesystem::path> files;
  for (const auto& dir : dirs)
    for (auto& f : list_files(dir, options)) files.push_back(std::move(f));
  return files;
}

/// Lines of `text` without their terminators ("\n" or "\r\n"). A final line
/// without a terminator is kept; text ending in "\n" has no empty last line.
inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

}  // namespace cake::test
