// The cubin cache; see cake/codegen/cache.h. An entry is three files named
// by the key (KEY.cubin, KEY.ptx, KEY.log), written to a temporary name and
// renamed, so a reader never sees half an entry and two writers of the same
// key leave one whole copy.
#include "cake/codegen/cache.h"

#include <llvm/Support/xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace cake::codegen {
namespace {

namespace fs = std::filesystem;

bool read_all(const fs::path& p, std::string& out) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = std::move(s).str();
  return static_cast<bool>(f) || f.eof();
}

bool write_atomically(const fs::path& p, const std::string& bytes) {
  std::ostringstream tmp_name;
  tmp_name << p.string() << ".tmp" << std::this_thread::get_id();
  fs::path tmp = tmp_name.str();
  {
    std::ofstream f(tmp, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) return false;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/cake/cubins";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/cake/cubins";
  return "";
}

std::string cache_key(const CompileRequest& r) {
  std::string all = "cake-cubin-1\n" + version() + "\n" + r.arch + "\n" + r.name + "\n" + (r.line_info ? "L" : "-") + "\n";
  for (const std::string& o : r.options) all += o + "\n";
  for (const Header& h : r.headers) all += h.name + "\n" + std::to_string(h.text.size()) + "\n" + h.text;
  all += r.source;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(llvm::xxHash64(all)));
  return std::string(hex) + "-" + r.arch;
}

CompileResult compile_cached(const CompileRequest& request, const std::string& dir, bool* hit) {
  if (hit) *hit = false;
  if (dir.empty()) return compile(request);
  fs::path base = fs::path(dir) / cache_key(request);
  CompileResult cached;
  std::string cubin;
  if (read_all(base.string() + ".cubin", cubin) && !cubin.empty() && read_all(base.string() + ".ptx", cached.ptx) &&
      read_all(base.string() + ".log", cached.log)) {
    cached.cubin.assign(cubin.begin(), cubin.end());
    cached.ok = true;
    cached.resources = parse_resources(cached.log);
    if (hit) *hit = true;
    return cached;
  }
  CompileResult r = compile(request);
  if (!r.ok) return r;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return r;
  // The cubin last: an entry counts only when it is there.
  if (write_atomically(base.string() + ".ptx", r.ptx) && write_atomically(base.string() + ".log", r.log))
    write_atomically(base.string() + ".cubin", std::string(r.cubin.begin(), r.cubin.end()));
  return r;
}

}  // namespace cake::codegen
