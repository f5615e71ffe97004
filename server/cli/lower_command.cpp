// `cake lower FILE [--kernel K] [--target T] [-o DIR] [--emit cuda|ptx|cubin|plan]
// [--format text|json]`: lowers kernels to CUDA C++ (cake/codegen/lower.h) and,
// for ptx and cubin, compiles them in-process with NVRTC (cake/codegen/nvrtc.h).
// What cannot be lowered yet is a CAKE-E0801 diagnostic on its line; NVRTC's
// own errors name the .cake lines through `#line`. Exit: 0 lowered (and
// compiled), 1 findings (the file has errors, something is not lowered, a
// compile failed), 2 usage, I/O or no CUDA Toolkit for ptx/cubin.
#include "args.h"
#include "cli.h"
#include "convert.h"
#include "io.h"
#include "kernel_named.h"
#include "text_report.h"

#include "cake/analyze.h"
#include "cake/codegen/cache.h"
#include "cake/codegen/lower.h"
#include "cake/codegen/nvrtc.h"
#include "cake/registry.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace cake::cli {
namespace {

using json = nlohmann::ordered_json;

struct LowerOptions {
  std::string path, kernel, target, out_dir;
  std::string emit = "cuda";
  bool json = false;
};

std::optional<int> parse(Args args, LowerOptions& o) {
  auto fail = [](const std::string& m) { return std::optional<int>(usage_error("lower", m)); };
  for (ArgCursor c(args); !c.done(); c.advance()) {
    std::string_view a = c.current();
    if (a == "--help" || a == "-h") return write_all(stdout, lower_help()) ? kExitOk : kExitUsage;
    if (c.is("--kernel")) {
      auto v = c.value("--kernel");
      if (!v) return fail("--kernel needs a name");
      o.kernel = *v;
    } else if (c.is("--target")) {
      auto v = c.value("--target");
      if (!v) return fail("--target needs a target (sm_80, sm_90a, ...)");
      o.target = *v;
    } else if (c.is("-o") || c.is("--out")) {
      auto v = c.value(c.is("-o") ? "-o" : "--out");
      if (!v) return fail("-o needs a directory");
      o.out_dir = *v;
    } else if (c.is("--emit")) {
      auto v = c.value("--emit");
      if (!v || (*v != "cuda" && *v != "ptx" && *v != "cubin" && *v != "plan" && *v != "dispatch"))
        return fail("--emit takes cuda, ptx, cubin, plan or dispatch");
      o.emit = *v;
    } else if (c.is("--format")) {
      auto v = c.value("--format");
      if (!v || (*v != "text" && *v != "json")) return fail("--format takes text or json");
      o.json = *v == "json";
    } else if (a.starts_with("-") && a != "-") {
      return fail("unknown option '" + std::string(a) + "'");
    } else if (o.path.empty()) {
      o.path = std::string(a);
    } else {
      return fail("one FILE at a time");
    }
  }
  if (o.path.empty()) return fail("no FILE given");
  if (o.emit == "cubin" && o.out_dir.empty() && !o.json) return fail("--emit cubin writes files: give -o DIR");
  return std::nullopt;
}

json plan_json(const codegen::LaunchPlan& p) {
  json params = json::array();
  for (const codegen::LaunchParam& q : p.params) {
    const char* kind = q.kind == codegen::LaunchParam::Kind::Tensor        ? "tensor"
                       : q.kind == codegen::LaunchParam::Kind::ShapeSymbol ? "shape"
                       : q.kind == codegen::LaunchParam::Kind::TensorMap   ? "tensormap"
                                                                           : "scalar";
    json param = {{"name", q.name}, {"kind", kind}, {"type", q.ctype}};
    if (q.kind == codegen::LaunchParam::Kind::TensorMap)
      param["encoding"] = {{"tensor", q.map.tensor},       {"dtype", q.map.dtype}, {"element_bytes", q.map.element_bytes},
                           {"element_bits", q.map.element_bits}, {"dims", q.map.dims},           {"box", q.map.box},     {"swizzle", q.map.swizzle},
                           {"interleave", "none"},         {"l2_promotion", 128},  {"oob_fill", "zero"}};
    params.push_back(param);
  }
  json benches = json::array();
  for (const codegen::BenchLaunch& b : p.benches) {
    json shape = json::object();
    for (const auto& [n, v] : b.shape) shape[n] = v;
    benches.push_back({{"shape", shape}, {"grid", b.grid}});
  }
  return {{"kernel", p.kernel}, {"target", p.target}, {"params", params}, {"grid", p.grid},
          {"block", p.block},   {"dynamic_smem", p.dynamic_smem},         {"cluster", p.cluster},
          {"benches", benches}};
}

bool write_file(const std::string& path, const std::string& bytes, std::string& error) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) error = "cannot write " + path;
  return static_cast<bool>(f);
}

/// `--emit dispatch`: each dispatch's host-side selector.
int emit_dispatches(const Analysis& a, const LowerOptions& o, const TextDocument& doc, const TextReportOptions& style) {
  const Module& m = a.module;
  if (m.dispatches.empty()) return usage_error("lower", o.path + " has no dispatch");
  int status = kExitOk;
  json report = json::array();
  for (uint32_t i = 0; i < m.dispatches.size(); ++i) {
    codegen::DispatchSelector sel = codegen::lower_dispatch(a, i);
    json entry = {{"dispatch", sel.name}, {"ok", sel.ok()}, {"function", sel.function}};
    if (!sel.ok()) {
      status = kExitFindings;
      if (!o.json) write_all(stderr, render_diagnostics(sel.diagnostics, doc, style));
      report.push_back(entry);
      continue;
    }
    json inputs = json::array(), cases = json::array();
    for (const codegen::DispatchInput& in : sel.inputs)
      inputs.push_back({{"name", in.name}, {"param", sel.params.at(in.param)}, {"dim", in.dim}});
    for (size_t c = 0; c < sel.kernels.size(); ++c)
      cases.push_back({{"guard", sel.guards[c].empty() ? json(nullptr) : json(sel.guards[c])}, {"kernel", sel.kernels[c]}});
    entry["inputs"] = inputs;
    entry["cases"] = cases;
    std::string error;
    if (!o.out_dir.empty()) {
      std::string path = o.out_dir + "/" + sel.name + ".dispatch.h";
      if (!write_file(path, sel.cpp, error)) {
        write_all(stderr, "cake lower: " + error + "\n");
        return kExitUsage;
      }
      entry["file"] = path;
      if (!o.json) write_all(stdout, path + "\n");
    } else {
      entry["cpp"] = sel.cpp;
      if (!o.json) write_all(stdout, sel.cpp);
    }
    report.push_back(entry);
  }
  if (o.json) write_all(stdout, report.dump(2) + "\n");
  return status;
}

}  // namespace

std::string lower_help() {
  return R"(usage: cake lower FILE [--kernel K] [--target T] [-o DIR]
                  [--emit cuda|ptx|cubin|plan|dispatch] [--format text|json]

Lowers each kernel of FILE (or only K) for each of the file's targets (or
only T) to a self-contained CUDA C++ translation unit: every line carries
a `#line` of the .cake file and each statement's text is a comment above
its code (docs/lowering.md). What cannot be lowered yet is reported as
CAKE-E0801 on its line.

  --emit cuda    the CUDA C++ (default)
  --emit ptx     compiled in-process with NVRTC; the PTX
  --emit cubin   compiled with NVRTC to a cubin (needs -o DIR)
  --emit plan    the launch plan as JSON: parameters, grid, block,
                 dynamic shared memory, and the grid of each bench
  --emit dispatch  each `dispatch` as a host C++ selector function of the
                 shape symbols its guards read (DIR/NAME.dispatch.h)
  -o DIR         write DIR/KERNEL.TARGET.{cu,ptx,cubin,plan.json}; without
                 it the output goes to stdout
  --format json  one JSON document: per kernel and target, the files,
                 diagnostics and (when compiled) ptxas's resources

ptx and cubin need the CUDA Toolkit's NVRTC in this build.
exit status: 0 lowered, 1 findings (file errors, not lowered, compile
errors), 2 usage or I/O error, or no NVRTC for ptx/cubin.
)";
}

int run_lower(Args args) {
  LowerOptions o;
  if (auto code = parse(args, o)) return *code;
  bool compile = o.emit == "ptx" || o.emit == "cubin";
  if (compile && !codegen::available()) {
    write_all(stderr, "cake lower: --emit " + o.emit + " needs the CUDA Toolkit's NVRTC: " + codegen::why_unavailable() + "\n");
    return kExitUsage;
  }
  ReadResult file = o.path == "-" ? read_stdin() : read_file(o.path);
  if (!file.error.empty()) {
    write_all(stderr, "cake lower: " + o.path + ": " + file.error + "\n");
    return kExitUsage;
  }
  std::string cake_path = o.path == "-" ? "<stdin>" : absolute_path(o.path);
  std::unique_ptr<Analysis> a = analyze(std::move(file.text));
  const Module& m = a->module;
  PositionConverter positions(a->text, a->lines);
  TextDocument doc{o.path, &positions, file_targets(m, {})};
  TextReportOptions style{stdout_wants_color()};
  if (count(a->diagnostics).errors > 0) {
    write_all(stderr, render_diagnostics(a->diagnostics, doc, style));
    write_all(stderr, "cake lower: " + o.path + " has errors; nothing lowered (see `cake check`)\n");
    return kExitFindings;
  }
  if (o.emit == "dispatch") {
    if (!o.out_dir.empty())
      if (std::error_code ec = llvm::sys::fs::create_directories(o.out_dir)) {
        write_all(stderr, "cake lower: " + o.out_dir + ": " + ec.message() + "\n");
        return kExitUsage;
      }
    return emit_dispatches(*a, o, doc, style);
  }
  std::vector<uint32_t> kernels;
  if (!o.kernel.empty()) {
    auto k = kernel_named(m, o.kernel);
    if (!k) return usage_error("lower", "no kernel named '" + o.kernel + "' in " + o.path);
    kernels.push_back(*k);
  } else {
    for (uint32_t k = 0; k < m.kernels.size(); ++k) kernels.push_back(k);
  }
  std::vector<std::string> targets = file_targets(m, {});
  if (!o.target.empty()) {
    if (std::find(targets.begin(), targets.end(), o.target) == targets.end())
      return usage_error("lower", "`" + o.target + "` is not a target of " + o.path + " (it lists the targets it is checked for)");
    targets = {o.target};
  }
  if (targets.empty()) return usage_error("lower", o.path + " names no target; give one with a `target` line");
  if (!o.out_dir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(o.out_dir)) {
      write_all(stderr, "cake lower: " + o.out_dir + ": " + ec.message() + "\n");
      return kExitUsage;
    }
  }

  int status = kExitOk;
  json report = json::array();
  for (uint32_t k : kernels) {
    std::string kname(m.symbols[m.kernels[k].symbol].name);
    for (const std::string& t : targets) {
      codegen::Lowered low = codegen::lower(*a, k, t, cake_path);
      json entry = {{"kernel", kname}, {"target", t}, {"ok", low.ok()}};
      if (!low.ok()) {
        status = kExitFindings;
        json ds = json::array();
        for (const Diagnostic& d : low.diagnostics) {
          TextPosition p = positions.text_position(d.range.begin);
          ds.push_back({{"code", std::string(rule_info(d.id).code)}, {"message", d.message},
                        {"line", p.line}, {"column", p.column}});
        }
        entry["diagnostics"] = ds;
        if (!o.json) write_all(stderr, render_diagnostics(low.diagnostics, doc, style));
        report.push_back(entry);
        continue;
      }
      std::string base = o.out_dir.empty() ? "" : o.out_dir + "/" + kname + "." + t;
      std::string output, suffix;
      if (o.emit == "cuda") {
        output = low.cuda;
        suffix = ".cu";
      } else if (o.emit == "plan") {
        output = plan_json(low.plan).dump(2) + "\n";
        suffix = ".plan.json";
      } else {
        codegen::CompileRequest req;
        req.source = low.cuda;
        req.name = kname + "." + t + ".cu";
        req.arch = t;
        codegen::CompileResult r = codegen::compile_cached(req, codegen::default_cache_dir());
        json res = json::array();
        for (const codegen::FunctionResources& f : r.resources)
          res.push_back({{"function", f.function}, {"registers", f.registers}, {"spill_stores", f.spill_stores},
                         {"spill_loads", f.spill_loads}, {"stack", f.stack}, {"local", f.local}});
        entry["resources"] = res;
        if (!r.ok) {
          status = kExitFindings;
          entry["ok"] = false;
          entry["compile_log"] = r.log;
          if (!o.json) write_all(stderr, "cake lower: " + kname + " for " + t + ": " + r.error + "\n" + r.log);
          report.push_back(entry);
          continue;
        }
        if (o.emit == "ptx") {
          output = r.ptx;
          suffix = ".ptx";
        } else {
          output.assign(r.cubin.begin(), r.cubin.end());
          suffix = ".cubin";
        }
      }
      if (!base.empty()) {
        std::string error;
        if (!write_file(base + suffix, output, error)) {
          write_all(stderr, "cake lower: " + error + "\n");
          return kExitUsage;
        }
        entry["file"] = base + suffix;
        if (!o.json) write_all(stdout, base + suffix + "\n");
      } else if (!o.json) {
        if (!write_all(stdout, output)) return kExitUsage;
      } else if (o.emit != "cubin") {
        entry[o.emit] = o.emit == "plan" ? plan_json(low.plan) : json(output);
      }
      report.push_back(entry);
    }
  }
  if (o.json && !write_all(stdout, report.dump(2) + "\n")) return kExitUsage;
  return status;
}

}  // namespace cake::cli
