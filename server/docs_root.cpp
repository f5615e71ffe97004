// find_docs_root(); see docs_root.h.
#include "docs_root.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace cake {

std::string find_docs_root(const char* argv0, const std::string& source_dir) {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(argv0 ? argv0 : "", &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(installed, "share", "cake", "docs");
    if (llvm::sys::fs::is_directory(installed)) return std::string(installed.str());
  }
  std::string source = source_dir + "/docs";
  return source_dir.empty() || !llvm::sys::fs::is_directory(source) ? std::string() : source;
}

}  // namespace cake
