// SASS line info of every kernel that lowers maps only to its .cake file,
// checked without a GPU: each kernel is compiled to a cubin (-lineinfo), and
// CUPTI's offline source correlation (cuptiGetSassToSourceCorrelation, the
// profiler's own mapping) is asked for every instruction of the kernel's
// code section. No instruction may map to another file (the prelude's
// macros expand at their use), and each statement of row_softmax that does
// work has instructions on its line. Skipped without NVRTC.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/codegen/nvrtc.h"
#include "support/test_files.h"

#include <cupti_pcsampling.h>
#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace cake;

/// The bytes of the cubin's section `.text.NAME` (the kernel's SASS), or 0.
uint64_t text_size(const std::vector<char>& cubin, const std::string& name) {
  if (cubin.size() < sizeof(Elf64_Ehdr)) return 0;
  Elf64_Ehdr eh;
  std::memcpy(&eh, cubin.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return 0;
  auto section = [&](size_t i) {
    Elf64_Shdr sh{};
    size_t at = eh.e_shoff + i * eh.e_shentsize;
    if (at + sizeof sh <= cubin.size()) std::memcpy(&sh, cubin.data() + at, sizeof sh);
    return sh;
  };
  Elf64_Shdr names = section(eh.e_shstrndx);
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh = section(i);
    if (names.sh_offset + sh.sh_name >= cubin.size()) continue;
    const char* n = cubin.data() + names.sh_offset + sh.sh_name;
    if (std::string(n, strnlen(n, cubin.size() - names.sh_offset - sh.sh_name)) == ".text." + name) return sh.sh_size;
  }
  return 0;
}

}  // namespace

TEST_CASE("every SASS instruction of a lowered kernel maps to its .cake file") {
  if (!codegen::available()) {
    WARN("skipped: this build has no NVRTC (the CUDA Toolkit was not found)");
    return;
  }
  const std::string file = "/cake/examples/file.cake";
  int kernels = 0;
  for (const fs::path& path : test::list_files(CAKE_EXAMPLES_DIR, {".cake"})) {
    auto a = analyze(test::read_file(path).value_or(""));
    for (uint32_t k = 0; k < a->module.kernels.size(); ++k) {
      std::string target = file_targets(a->module, {}).front();
      codegen::Lowered low = codegen::lower(*a, k, target, file);
      if (!low.ok()) continue;
      INFO(path.filename().string() << " " << low.plan.kernel << " " << target);
      codegen::CompileRequest r;
      r.source = low.cuda;
      r.arch = target;
      codegen::CompileResult c = codegen::compile(r);
      REQUIRE(c.ok);
      uint64_t size = text_size(c.cubin, low.plan.kernel);
      REQUIRE(size >= 16);
      std::map<std::string, int> files;
      std::set<uint32_t> lines;
      int unmapped = 0;
      for (uint64_t pc = 0; pc < size; pc += 16) {  // one SASS instruction is 16 bytes (sm_70 and later)
        CUpti_GetSassToSourceCorrelationParams p{};
        p.size = CUpti_GetSassToSourceCorrelationParamsSize;
        p.cubin = c.cubin.data();
        p.cubinSize = c.cubin.size();
        p.functionName = low.plan.kernel.c_str();
        p.pcOffset = pc;
        if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS || !p.fileName) {
          ++unmapped;
          continue;
        }
        std::string where = std::string(p.dirName ? p.dirName : "") + "|" + p.fileName;
        ++files[where];
        if (p.lineNumber > 0) lines.insert(p.lineNumber);
        std::free(p.fileName);
        std::free(p.dirName);
      }
      INFO(size / 16 << " instructions, " << unmapped << " without a line");
      REQUIRE(files.size() == 1);
      const std::string& only = files.begin()->first;
      INFO("mapped to " << only);
      CHECK((only == "/cake/examples|file.cake" || only == "|/cake/examples/file.cake"));
      // Instructions that map nowhere are the compiler's own (padding after
      // the exit): a few at most.
      CHECK(unmapped * 10 <= int(size / 16));
      if (low.plan.kernel == "row_softmax")
        for (uint32_t l : {29u, 30u, 31u, 32u, 34u, 35u, 37u, 38u, 39u, 40u, 42u, 43u, 45u, 46u, 47u}) {
          INFO("line " << l);
          CHECK(lines.count(l) == 1);
        }
      ++kernels;
    }
  }
  CHECK(kernels >= 7);
}
