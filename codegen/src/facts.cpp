// compiler_facts(): NVRTC's and ptxas's findings on the .cake lines; see
// cake/codegen/facts.h and docs/lowering.md.
#include "cake/codegen/facts.h"

#include "cake/codegen/cache.h"
#include "cake/codegen/lower.h"
#include "cake/kernel_facts.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace cake::codegen {
namespace {

// The name `#line` gives the .cake file in the code compiled here: what
// NVRTC's messages and the PTX `.file` directive then name. Absolute: NVRTC
// records a relative one in `.file` against its current directory.
constexpr const char* kCakeFile = "/cake-lowered/kernel.cake";

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

/// The resources ptxas reports for the kernel's own function, or null.
const FunctionResources* kernel_resources(const CompileResult& r, const std::string& function) {
  for (const FunctionResources& f : r.resources)
    if (f.function == function) return &f;
  return nullptr;
}

/// Bytes spilled per thread, stored and loaded.
int64_t spilled(const FunctionResources& f) { return f.spill_stores + f.spill_loads; }

/// The roles whose `maxnreg` budget makes the kernel spill: for each role
/// with a budget, the kernel is compiled again with that role keeping the
/// launch's registers (LowerOptions); a role whose budget, lifted, lowers
/// the spill is one. ptxas reports a kernel as a whole, so this experiment
/// is the evidence of which role's code spills. Only run when a spill was
/// found; each compile goes through the cubin cache.
std::vector<StmtId> spilling_roles(const Analysis& a, uint32_t kernel, const CompileRequest& base, int64_t spill,
                                   const std::string& cache_dir) {
  std::vector<StmtId> out;
  KernelFacts facts(a.module, kernel);
  for (const RolePlan& role : facts.partition().roles) {
    if (role.stmt == kNone || !role.maxnreg) continue;
    LowerOptions options;
    options.keep_launch_registers = role.stmt;
    Lowered low = lower(a, kernel, base.arch, kCakeFile, options);
    if (!low.ok()) continue;
    CompileRequest request = base;
    request.source = low.cuda;
    CompileResult r = compile_cached(request, cache_dir);
    const FunctionResources* f = r.ok ? kernel_resources(r, low.plan.kernel) : nullptr;
    if (f && spilled(*f) < spill) out.push_back(role.stmt);
  }
  return out;
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

/// NVRTC's front-end errors (`/cake-lowered/kernel.cake(35): error: ...`) and ptxas's
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

namespace {

/// The lines of `ptx`, and for each the .cake line (1-based) of the nearest
/// `.loc` at or before it that names `cake_file`, directly or through
/// `inlined_at` (0 before any). NVRTC writes the `.file` directives last.
struct PtxLocs {
  std::vector<std::string> lines;
  std::vector<uint32_t> cake;
};

PtxLocs ptx_locs(const std::string& ptx, const std::string& cake_file) {
  static const std::regex file_re(R"(^\s*\.file\s+(\d+)\s+"([^"]*)\")");
  static const std::regex loc_re(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$)");
  static const std::regex inlined_re(R"(inlined_at\s+(\d+)\s+(\d+)\s+\d+)");
  PtxLocs out;
  std::istringstream in(ptx);
  for (std::string l; std::getline(in, l);) out.lines.push_back(l);
  std::set<std::string> cake_ids;
  std::smatch m;
  for (const std::string& l : out.lines)
    if (std::regex_search(l, m, file_re) && m[2] == cake_file) cake_ids.insert(m[1]);
  uint32_t current = 0;
  for (const std::string& l : out.lines) {
    if (l.find(".loc") != std::string::npos && std::regex_search(l, m, loc_re)) {
      std::string rest = m[3];
      std::smatch n;
      if (cake_ids.count(m[1])) current = static_cast<uint32_t>(std::stoul(m[2]));
      else if (std::regex_search(rest, n, inlined_re) && cake_ids.count(n[1]))
        current = static_cast<uint32_t>(std::stoul(n[2]));
    }
    out.cake.push_back(current);
  }
  return out;
}

}  // namespace

uint32_t ptx_line_to_cake(const std::string& ptx, uint32_t ptx_line, const std::string& cake_file) {
  PtxLocs locs = ptx_locs(ptx, cake_file);
  if (ptx_line == 0 || locs.cake.empty()) return 0;
  return locs.cake[std::min<size_t>(ptx_line, locs.cake.size()) - 1];
}

PtxLines ptx_by_line(const std::string& ptx, const std::string& cake_file) {
  PtxLocs locs = ptx_locs(ptx, cake_file);
  PtxLines out;
  for (size_t i = 0; i < locs.lines.size(); ++i) {
    std::string_view t = locs.lines[i];
    size_t first = t.find_first_not_of(" \t");
    if (first == std::string_view::npos || locs.cake[i] == 0) continue;
    t = t.substr(first);
    if (t.front() == '.' || t.front() == '{' || t.front() == '}' || t.starts_with("//") || t.front() == '$' ||
        t.back() == ':')
      continue;
    // `@%p1 bra $L__BB0_2;`: the predicate is not the opcode.
    if (t.front() == '@') {
      size_t sp = t.find_first_of(" \t");
      if (sp == std::string_view::npos) continue;
      t = t.substr(t.find_first_not_of(" \t", sp));
    }
    std::string op(t.substr(0, t.find_first_of(" \t;")));
    auto& ops = out[locs.cake[i]];
    auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& p) { return p.first == op; });
    if (it == ops.end()) ops.push_back({op, 1});
    else ++it->second;
  }
  return out;
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
  std::vector<StmtId> spilling;
  if (r.ok)
    if (const FunctionResources* f = kernel_resources(r, low.plan.kernel); f && spilled(*f))
      spilling = spilling_roles(a, kernel, request, spilled(*f), cache_dir);
  out.diagnostics = compile_diagnostics(a, kernel, target, low.plan, r, spilling);
  if (r.ok) out.ptx_lines = ptx_by_line(r.ptx, kCakeFile);
  return out;
}

std::vector<Diagnostic> compile_diagnostics(const Analysis& a, uint32_t kernel, const std::string& target,
                                            const LaunchPlan& plan, const CompileResult& r,
                                            const std::vector<StmtId>& spilling_roles) {
  if (!r.ok) return compile_errors(a, kernel, target, r);
  std::vector<Diagnostic> out;
  const Module& m = a.module;
  const Kernel& k = m.kernels[kernel];
  ByteRange name = m.symbols[k.symbol].def;
  std::string kname(m.symbols[k.symbol].name);
  for (const FunctionResources& f : r.resources) {
    if (f.function != plan.kernel) continue;
    if (f.spill_stores > 0 || f.spill_loads > 0) {
      KernelFacts facts(m, kernel);
      const RolePartition& roles = facts.partition();
      const TargetInfo* t = find_target(target);
      const RegisterPlan* regs_plan = t ? &facts.on(*t).registers : nullptr;
      // ptxas reports the kernel as a whole; a role whose budget, lifted,
      // lowers the spill (spilling_roles) is where it is reported.
      const RolePlan* culprit = nullptr;
      for (const RolePlan& role : roles.roles)
        if (role.stmt != kNone && !spilling_roles.empty() && role.stmt == spilling_roles.front()) culprit = &role;
      std::string spills = std::to_string(f.spill_stores) + " bytes stored and " + std::to_string(f.spill_loads) +
                           " loaded per thread";
      Diagnostic d =
          culprit
              ? make(DiagId::RegisterSpill, Severity::Warning, culprit->maxnreg_value,
                     "role `" + std::string(culprit->name) + "` of `" + kname + "` spills registers to local memory " +
                         "under its budget of " + std::to_string(*culprit->maxnreg) + " registers per thread when " +
                         "compiled for " + target + ": " + spills + " (compiled with this role at the launch's " +
                         "registers, it spills less); every spilled value goes through the L1 cache, so fewer or " +
                         "smaller live values in the role, or a larger `maxnreg` (taken from another role), avoid it",
                     target)
              : make(DiagId::RegisterSpill, Severity::Warning, name,
                     "`" + kname + "` spills registers to local memory when compiled for " + target + ": " + spills +
                         ", with " + std::to_string(f.registers) +
                         " registers per thread; every spilled value goes through the L1 cache, so fewer or "
                         "smaller live fragments, or more registers per thread (a smaller block), avoid it",
                     target);
      if (culprit) d.related.push_back({name, "the kernel, as ptxas reports it"});
      for (size_t r_i = 0; r_i < roles.roles.size(); ++r_i) {
        if (culprit && &roles.roles[r_i] != culprit) continue;
        for (size_t f_i = 0; f_i < roles.roles[r_i].fragments.size(); ++f_i) {
          const RolePlan::Fragment& frag = roles.roles[r_i].fragments[f_i];
          std::string regs = regs_plan && r_i < regs_plan->roles.size() && f_i < regs_plan->roles[r_i].fragments.size()
                                 ? std::to_string(regs_plan->roles[r_i].fragments[f_i]) + " registers per thread"
                                 : "a fragment";
          d.related.push_back({m.symbols[frag.symbol].decl, "`" + std::string(m.symbols[frag.symbol].name) + "`: " + regs});
        }
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
