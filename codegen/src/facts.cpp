// compiler_facts(): NVRTC's and ptxas's findings on the .cake lines; see
// cake/codegen/facts.h and docs/lowering.md.
#include "cake/codegen/facts.h"

#include "cake/codegen/cache.h"
#include "cake/codegen/lower.h"
#include "facts/kernel_facts.h"

#include <regex>
#include <set>
#include <sstream>

namespace cake::codegen {
namespace {

// The name `#line` gives the .cake file in the code compiled here: what
// NVRTC's messages and the PTX `.file` directive then name.
constexpr const char* kCakeFile = "kernel.cake";

/// The narrowest span on 1-based .cake line `line` inside the kernel: the
/// keyword of the first statement that starts on it, else the line's text.
ByteRange line_span(const Analysis& a, uint32_t kernel, uint32_t line) {
  const Kernel& k = a.module.kernels[kernel];
  if (line == 0 || line > a.lines.line_count()) return {k.range.begin, k.range.begin};
  uint32_t begin = a.lines.line_start(line - 1);
  std::string_view text = a.lines.line_text(line - 1);
  for (const Stmt& s : a.module.stmts)
    if (s.range.begin >= begin && s.range.begin < begin + text.size() && s.range.begin >= k.range.begin &&
        s.range.end <= k.range.end)
      return s.keyword.begin < s.keyword.end ? s.keyword : s.range;
  size_t first = text.find_first_not_of(" \t");
  size_t last = text.find_last_not_of(" \t\r");
  if (first == std::string_view::npos) return {begin, begin};
  return {begin + static_cast<uint32_t>(first), begin + static_cast<uint32_t>(last + 1)};
}

Diagnostic make(DiagId id, Severity severity, ByteRange at, std::string message, const std::string& target) {
  Diagnostic d;
  d.id = id;
  d.severity = severity;
  d.range = at;
  d.message = std::move(message);
  d.targets = {target};
  return d;
}

/// NVRTC's front-end errors (`kernel.cake(35): error: ...`) and ptxas's
/// (`ptxas application ptx input, line 131; error : ...`), each once.
std::vector<Diagnostic> compile_errors(const Analysis& a, uint32_t kernel, const std::string& target,
                                       const CompileResult& r) {
  static const std::regex front(R"(^(.*)\((\d+)\): (?:catastrophic )?error: (.*)$)");
  static const std::regex ptxas(R"(^ptxas[^,]*, line (\d+); error\s*:\s*(.*)$)");
  static const std::regex fatal(R"(^ptxas fatal\s*:\s*(.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(r.log);
  std::string line;
  std::smatch m;
  auto add = [&](uint32_t cake_line, const std::string& message) {
    Diagnostic d = make(DiagId::CudaCompileError, Severity::Error, line_span(a, kernel, cake_line),
                        "the CUDA compiler rejects the code of this line for " + target + ": " + message, target);
    for (const Diagnostic& o : out)
      if (o.range.begin == d.range.begin && o.message == d.message) return;
    out.push_back(std::move(d));
  };
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, front) && m[1] == kCakeFile) add(static_cast<uint32_t>(std::stoul(m[2])), m[3]);
    else if (std::regex_match(line, m, ptxas))
      add(ptx_line_to_cake(r.ptx, static_cast<uint32_t>(std::stoul(m[1])), kCakeFile), m[2]);
    else if (std::regex_match(line, m, fatal)) add(0, m[1]);
  }
  if (out.empty()) add(0, r.error.empty() ? "no message" : r.error);
  return out;
}

}  // namespace

uint32_t ptx_line_to_cake(const std::string& ptx, uint32_t ptx_line, const std::string& cake_file) {
  static const std::regex file_re(R"(^\s*\.file\s+(\d+)\s+"([^"]*)\")");
  static const std::regex loc_re(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$)");
  static const std::regex inlined_re(R"(inlined_at\s+(\d+)\s+(\d+)\s+\d+)");
  // .file directives come last in NVRTC's PTX: read them all first.
  std::vector<std::string> lines;
  {
    std::istringstream in(ptx);
    std::string l;
    while (std::getline(in, l)) lines.push_back(l);
  }
  std::set<std::string> cake_ids;
  std::smatch m;
  for (const std::string& l : lines)
    if (std::regex_search(l, m, file_re) && m[2] == cake_file) cake_ids.insert(m[1]);
  for (size_t i = std::min<size_t>(ptx_line, lines.size()); i-- > 0;) {
    if (!std::regex_search(lines[i], m, loc_re)) continue;
    if (cake_ids.count(m[1])) return static_cast<uint32_t>(std::stoul(m[2]));
    std::string rest = m[3];
    std::smatch n;
    if (std::regex_search(rest, n, inlined_re) && cake_ids.count(n[1])) return static_cast<uint32_t>(std::stoul(n[2]));
  }
  return 0;
}

FactsResult compiler_facts(const Analysis& a, uint32_t kernel, const std::string& target,
                           const std::vector<std::string>& extra_options, const std::string& cache_dir) {
  FactsResult out;
  Lowered low = lower(a, kernel, target, kCakeFile);
  if (!low.ok() || !available()) return out;
  out.lowered = true;
  CompileRequest request;
  request.source = low.cuda;
  request.name = low.plan.kernel + ".cu";
  request.arch = target;
  request.options = extra_options;
  CompileResult r = compile_cached(request, cache_dir);
  out.resources = r.resources;
  out.compiled = r.ok;
  out.diagnostics = compile_diagnostics(a, kernel, target, low.plan, r);
  return out;
}

std::vector<Diagnostic> compile_diagnostics(const Analysis& a, uint32_t kernel, const std::string& target,
                                            const LaunchPlan& plan, const CompileResult& r) {
  if (!r.ok) return compile_errors(a, kernel, target, r);
  std::vector<Diagnostic> out;
  const Module& m = a.module;
  const Kernel& k = m.kernels[kernel];
  ByteRange name = m.symbols[k.symbol].def;
  std::string kname(m.symbols[k.symbol].name);
  for (const FunctionResources& f : r.resources) {
    if (f.function != plan.kernel) continue;
    if (f.spill_stores > 0 || f.spill_loads > 0) {
      // ptxas reports the kernel as a whole: every role's fragments are
      // what the registers hold.
      Diagnostic d = make(DiagId::RegisterSpill, Severity::Warning, name,
                          "`" + kname + "` spills registers to local memory when compiled for " + target + ": " +
                              std::to_string(f.spill_stores) + " bytes stored and " + std::to_string(f.spill_loads) +
                              " loaded per thread, with " + std::to_string(f.registers) +
                              " registers per thread; every spilled value goes through the L1 cache, so fewer or "
                              "smaller live fragments, or more registers per thread (a smaller block), avoid it",
                          target);
      KernelFacts facts(m, kernel);
      const RolePartition& roles = facts.partition();
      const TargetInfo* t = find_target(target);
      const RegisterPlan* plan = t ? &facts.on(*t).registers : nullptr;
      for (size_t r_i = 0; r_i < roles.roles.size(); ++r_i)
        for (size_t f_i = 0; f_i < roles.roles[r_i].fragments.size(); ++f_i) {
          const RolePlan::Fragment& frag = roles.roles[r_i].fragments[f_i];
          std::string regs = plan && r_i < plan->roles.size() && f_i < plan->roles[r_i].fragments.size()
                                 ? std::to_string(plan->roles[r_i].fragments[f_i]) + " registers per thread"
                                 : "a fragment";
          d.related.push_back({m.symbols[frag.symbol].decl, "`" + std::string(m.symbols[frag.symbol].name) + "`: " + regs});
        }
      out.push_back(std::move(d));
    }
    if (f.shared > 0)
      out.push_back(make(DiagId::SmemMismatch, Severity::Warning, name,
                                     "`" + kname + "` compiled for " + target + " has " + std::to_string(f.shared) +
                                         " bytes of static shared memory that the verifier's layout (" +
                                         std::to_string(plan.dynamic_smem) +
                                         " bytes, all dynamic) does not count: one of the two is wrong",
                                     target));
  }
  return out;
}

}  // namespace cake::codegen
