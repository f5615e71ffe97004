// Runs the fuzz target (parse_check_fuzzer.cpp) without libFuzzer, so that
// every normal build replays the committed regression corpus and the
// generated stress inputs: a file or directory argument runs each file under
// it; `--stress NAME` runs one generated input (`--list-stress` names them).
// A crash, a sanitizer report or an abort in the target fails the run; each
// input's time is printed so a slow one stands out. A hang is caught by the
// CTest TIMEOUT of the test that runs it.
//
// Usage: cake-fuzz-replay PATH...  |  --stress NAME  |  --list-stress

#include "../support/kernel_gen.h"
#include "../support/test_files.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

constexpr size_t kDepth = 10000;

/// Generated inputs that are too big, or too binary, to commit.
struct StressInput {
  const char* name;
  const char* what;
  std::function<std::string()> make;
};

const std::vector<StressInput>& stress_inputs() {
  static const std::vector<StressInput> inputs = {
      {"large", "a valid 1 MB file of warp-specialised kernels",
       [] {
         std::string text = cake::test::kmeans_file(1);
         for (int i = 1; text.size() < (1u << 20); ++i)
           text += "\n" + cake::test::kmeans_kernel("k" + std::to_string(i), 2 + i % 3);
         return text;
       }},
      {"deep-blocks", "10,000 nested `{` in a kernel body, never closed",
       [] { return "target sm_90a\nkernel k() grid (1) block 32 " + repeat("{ ", kDepth); }},
      {"deep-blocks-closed", "10,000 nested `{ }` in a kernel body",
       [] { return "target sm_90a\nkernel k() grid (1) block 32 " + repeat("{ ", kDepth) + repeat("} ", kDepth); }},
      {"deep-loops", "10,000 nested for loops (valid syntax)",
       [] {
         return "target sm_90a\nkernel k() grid (1) block 32 {\n" + repeat("for i in 0 .. 2 {\n", kDepth) +
                "syncthreads\n" + repeat("}\n", kDepth) + "}\n";
       }},
      {"deep-parens", "10,000 nested parentheses (valid syntax)",
       [] { return "target sm_90a\nconst A = " + repeat("(", kDepth) + "1" + repeat(")", kDepth) + "\n"; }},
      {"deep-parens-unclosed", "10,000 open parentheses",
       [] { return "target sm_90a\nconst A = " + repeat("(", kDepth) + "1\n"; }},
      {"deep-unary", "10,000 nested unary minus signs",
       [] { return "target sm_90a\nconst A = " + repeat("- ", kDepth) + "1\n"; }},
      {"long-expression", "one expression of 100,000 terms (a left-deep tree)",
       [] { return "target sm_90a\nconst A = 1" + repeat(" + 1", 100000) + "\n"; }},
      {"deep-index", "10,000 chained index operations",
       [] { return "target sm_90a\nconst A = x" + repeat("[0]", kDepth) + "\n"; }},
      {"invalid-utf8", "a valid kernel with invalid UTF-8 sequences spliced in",
       [] {
         std::string text = cake::test::kmeans_file(1);
         const std::string bad[] = {"\xff", "\xc0\x80", "\x80", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xfe\xfe"};
         std::string out;
         for (size_t i = 0, k = 0; i < text.size(); ++i) {
           out += text[i];
           if (i % 97 == 0) out += bad[k++ % std::size(bad)];
         }
         return out;
       }},
      {"nul-bytes", "a valid kernel with NUL bytes spliced in, then 64 KiB of NULs",
       [] {
         std::string text = cake::test::kmeans_file(1);
         std::string out;
         for (size_t i = 0; i < text.size(); ++i) {
           out += text[i];
           if (i % 61 == 0) out += '\0';
         }
         return out + std::string(1 << 16, '\0');
       }},
      {"many-errors", "20,000 lines of garbage tokens",
       [] { return "target sm_90a\n" + repeat("] ) } -> <- @ .. : , kernel ( [ { \n", 20000); }},
  };
  return inputs;
}

bool run_one(std::string_view name, const std::string& bytes) {
  auto start = std::chrono::steady_clock::now();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("ok %8.1f ms %9zu B  %.*s\n", ms, bytes.size(), static_cast<int>(name.size()), name.data());
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s PATH... | --stress NAME | --list-stress\n", argv[0]);
    return 2;
  }
  std::string_view first = argv[1];
  if (first == "--list-stress") {
    for (const StressInput& s : stress_inputs()) std::printf("%s\t%s\n", s.name, s.what);
    return 0;
  }
  if (first == "--stress") {
    if (argc != 3) {
      std::printf("--stress takes one name (see --list-stress)\n");
      return 2;
    }
    for (const StressInput& s : stress_inputs())
      if (s.name == std::string_view(argv[2])) {
        std::printf("%s: %s\n", s.name, s.what);
        return run_one(s.name, s.make()) ? 0 : 1;
      }
    std::printf("no stress input named `%s` (see --list-stress)\n", argv[2]);
    return 2;
  }
  unsigned count = 0;
  for (int i = 1; i < argc; ++i) {
    std::vector<fs::path> files;
    if (fs::is_directory(argv[i])) files = cake::test::list_files(argv[i], {.extension = "", .recursive = true});
    else files.emplace_back(argv[i]);
    for (const fs::path& file : files) {
      std::optional<std::string> bytes = cake::test::read_file(file);
      if (!bytes) {
        std::printf("%s: cannot read\n", file.c_str());
        return 1;
      }
      run_one(file.native(), *bytes);
      ++count;
    }
  }
  if (count == 0) {
    std::printf("no input found\n");
    return 1;
  }
  std::printf("%u input(s) replayed\n", count);
  return 0;
}
