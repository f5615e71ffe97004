// Input expansion, bounded reads and safe writes for the command line.
// std::filesystem is used with error codes only, so no exception escapes;
// messages are the system's ("No such file or directory").
#include "io.h"

#include <llvm/Support/Process.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace cake::cli {
namespace {

namespace fs = std::filesystem;

std::string errno_message(int error) { return std::error_code(error, std::generic_category()).message(); }

std::string too_large_message() {
  return "input is larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB";
}

InputFile file_input(std::string path) { return {std::move(path), false, {}}; }

bool is_cake_file(const fs::directory_entry& entry) {
  std::error_code ec;
  return entry.path().extension() == ".cake" && entry.is_regular_file(ec);
}

/// The *.cake files under `dir`, sorted; an error entry if the walk failed.
std::vector<InputFile> expand_directory(const std::string& dir) {
  std::vector<InputFile> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec))
    if (is_cake_file(*it)) files.push_back(file_input(it->path().generic_string()));
  if (ec) return {{dir, false, ec.message()}};
  std::sort(files.begin(), files.end(), [](const InputFile& a, const InputFile& b) { return a.path < b.path; });
  return files;
}

/// Reads all of `stream`, up to the limit.
ReadResult read_stream(std::FILE* stream) {
  ReadResult result;
  char buffer[1 << 16];
  while (true) {
    size_t got = std::fread(buffer, 1, sizeof buffer, stream);
    result.text.append(buffer, got);
    if (result.text.size() > kMaxInputBytes) return {{}, too_large_message()};
    if (got < sizeof buffer) break;
  }
  if (std::ferror(stream)) return {{}, errno_message(errno ? errno : EIO)};
  return result;
}

}  // namespace

std::vector<InputFile> expand_inputs(const std::vector<std::string>& arguments) {
  std::vector<InputFile> inputs;
  for (const std::string& argument : arguments) {
    if (argument == "-") {
      inputs.push_back({"<stdin>", true, {}});
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(argument, ec);
    if (ec) {
      inputs.push_back({argument, false, ec.message()});
    } else if (fs::is_directory(status)) {
      auto files = expand_directory(argument);
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else {
      inputs.push_back(file_input(argument));
    }
  }
  return inputs;
}

ReadResult read_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return {{}, errno_message(EISDIR)};
  if (auto size = fs::file_size(path, ec); !ec && size > kMaxInputBytes) return {{}, too_large_message()};
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return {{}, errno_message(errno ? errno : EIO)};
  ReadResult result = read_stream(file);
  std::fclose(file);
  return result;
}

ReadResult read_stdin() { return read_stream(stdin); }

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) return path;
  return absolute.lexically_normal().generic_string();
}

std::string current_directory() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  return ec ? std::string() : cwd.generic_string();
}

bool write_all(std::FILE* stream, std::string_view text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), stream) != text.size()) return false;
  return std::fflush(stream) == 0;
}

bool stdout_wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return llvm::sys::Process::StandardOutIsDisplayed() && llvm::sys::Process::StandardOutHasColors();
}

bool stderr_is_terminal() { return llvm::sys::Process::StandardErrIsDisplayed(); }

}  // namespace cake::cli
