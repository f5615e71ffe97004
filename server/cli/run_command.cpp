// `cake run FILE [--kernel K] [--bench N | --shape M=256,...] --backend cpu
// [--inputs DIR] [--out DIR] [--seed S] [--schedules N] [--format text|json]`:
// runs kernels on the CPU reference executor (cake/exec/run.h). Each kernel
// runs once under the canonical schedule, then under N seeded interleavings;
// outputs that differ between schedules, a race the executor saw, a deadlock
// or a mismatch with the bench's reference kernel are findings on the .cake
// lines that cause them (docs/run.md). Exit: 0 ran and matched, 1 findings
// (or the file has errors), 2 usage or I/O.
#include "args.h"
#include "kernel_named.h"
#include "cli.h"
#include "io.h"

#include "cake/analyze.h"
#include "cake/exec/npy.h"
#include "cake/exec/numeric.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <optional>

namespace cake::cli {
namespace {

using json = nlohmann::ordered_json;
using exec::RunProblem;
using exec::TensorData;

struct RunOptions {
  std::string path, kernel, inputs, out;
  int64_t bench = 0;  // 1-based among the kernel's benches; 0: the smallest legal shape
  std::vector<std::pair<std::string, int64_t>> shape;
  uint64_t seed = 1;
  uint64_t schedules = 0;
  bool json = false;
  bool force = false;
};

/// One finding of a run, on the .cake lines.
struct Finding {
  std::string kind;  // race, deadlock, mismatch, unsupported, ...
  ByteRange at;
  std::string message;
  std::vector<RunProblem::Related> related;
};

struct KernelReport {
  std::string kernel, shape;
  int64_t ctas = 0, statements = 0;
  double seconds = 0;
  std::vector<Finding> findings;
  std::vector<json> outputs;
};

std::optional<int> parse(Args args, RunOptions& o) {
  auto fail = [](const std::string& m) { return std::optional<int>(usage_error("run", m)); };
  bool backend = false;
  auto number = [](const std::string& s, int64_t& v) {
    char* end = nullptr;
    errno = 0;
    long long x = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0) return false;
    v = x;
    return true;
  };
  for (ArgCursor c(args); !c.done(); c.advance()) {
    std::string_view a = c.current();
    if (a == "--help" || a == "-h") return write_all(stdout, run_help()) ? kExitOk : kExitUsage;
    if (c.is("--kernel")) {
      auto v = c.value("--kernel");
      if (!v) return fail("--kernel needs a name");
      o.kernel = *v;
    } else if (c.is("--bench")) {
      auto v = c.value("--bench");
      if (!v || !number(*v, o.bench) || o.bench < 1) return fail("--bench takes a bench number, 1 for the kernel's first");
    } else if (c.is("--shape")) {
      auto v = c.value("--shape");
      if (!v) return fail("--shape takes NAME=VALUE[,NAME=VALUE...]");
      for (llvm::StringRef rest = *v; !rest.empty();) {
        auto [item, tail] = rest.split(',');
        rest = tail;
        auto [name, value] = item.split('=');
        int64_t x = 0;
        if (name.empty() || !number(value.str(), x)) return fail("--shape takes NAME=VALUE[,NAME=VALUE...]");
        o.shape.push_back({name.str(), x});
      }
    } else if (c.is("--backend")) {
      auto v = c.value("--backend");
      if (!v || *v != "cpu") return fail("--backend takes cpu (the reference executor); GPU backends come with codegen");
      backend = true;
    } else if (c.is("--inputs")) {
      auto v = c.value("--inputs");
      if (!v) return fail("--inputs needs a directory of NAME.npy files");
      o.inputs = *v;
    } else if (c.is("--out")) {
      auto v = c.value("--out");
      if (!v) return fail("--out needs a directory");
      o.out = *v;
    } else if (c.is("--seed")) {
      auto v = c.value("--seed");
      int64_t x = 0;
      if (!v || !number(*v, x) || x < 0) return fail("--seed takes a non-negative integer");
      o.seed = static_cast<uint64_t>(x);
    } else if (c.is("--schedules")) {
      auto v = c.value("--schedules");
      int64_t x = 0;
      if (!v || !number(*v, x) || x < 0 || x > 10000) return fail("--schedules takes a count in 0..10000");
      o.schedules = static_cast<uint64_t>(x);
    } else if (a == "--force") {
      o.force = true;
    } else if (c.is("--format")) {
      auto v = c.value("--format");
      if (!v || (*v != "text" && *v != "json")) return fail("--format takes text or json");
      o.json = *v == "json";
    } else if (a.starts_with("-") && a != "-") {
      return fail("unknown option '" + std::string(a) + "'");
    } else if (!o.path.empty()) {
      return fail("one FILE at a time");
    } else {
      o.path = std::string(a);
    }
  }
  if (o.path.empty()) return fail("no FILE given");
  if (!backend) return fail("--backend cpu is required (the only backend without a GPU)");
  return std::nullopt;
}

bool load_inputs(const Module& m, const std::string& dir, std::vector<TensorData>& inputs, std::string& error) {
  for (TensorData& t : inputs) {
    if (t.dims.empty()) continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, t.name + ".npy");
    if (!llvm::sys::fs::exists(path)) continue;  // seeded random values stay
    exec::NpyArray a;
    if (!exec::read_npy(std::string(path), a, error)) {
      error = std::string(path) + ": " + error;
      return false;
    }
    if (a.shape != t.dims) {
      error = std::string(path) + ": its shape does not match `" + t.name + "`";
      return false;
    }
    // The file's order (C or Fortran) to the tensor's (docs/run.md).
    bool col = t.order == Order::ColMajor;
    if (a.fortran_order != col && a.shape.size() >= 2)
      a.values = exec::reorder(a.values, a.shape, a.fortran_order);
    for (size_t i = 0; i < a.values.size(); ++i) t.values[i] = exec::round_to(t.dtype, a.values[i]);
  }
  return true;
}

/// The index of element `flat` of a tensor of `dims` stored in `order`.
std::string index_text(const std::vector<int64_t>& dims, Order order, size_t flat) {
  std::vector<int64_t> idx(dims.size());
  std::vector<size_t> outer_first = memory_order(order, dims.size());
  for (auto d = outer_first.rbegin(); d != outer_first.rend(); ++d) {
    idx[*d] = static_cast<int64_t>(flat % static_cast<size_t>(dims[*d]));
    flat /= static_cast<size_t>(dims[*d]);
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

/// Compares each output (a tensor the run wrote) of `got` with `want`.
void compare_outputs(const Module& m, const std::vector<TensorData>& got, const std::vector<TensorData>& want,
                     const std::string& what, ByteRange fallback, std::vector<Finding>& findings,
                     std::vector<json>* report) {
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const TensorData& g = got[i];
    bool written = std::any_of(g.writers.begin(), g.writers.end(), [](StmtId s) { return s != kNone; });
    if (!written || g.values.size() != want[i].values.size()) continue;
    exec::Comparison c = exec::compare(g.dtype, g.values, want[i].values);
    if (report)
      report->push_back({{"tensor", g.name},
                         {"against", what},
                         {"mismatches", c.mismatches},
                         {"max_abs_error", std::isfinite(c.max_abs) ? c.max_abs : -1},
                         {"max_rel_error", std::isfinite(c.max_rel) ? c.max_rel : -1}});
    if (c.matches()) continue;
    size_t first = *c.first;
    StmtId writer = first < g.writers.size() ? g.writers[first] : kNone;
    Finding f;
    f.kind = "mismatch";
    f.at = writer != kNone ? m.stmts[writer].range : fallback;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.6g, expected %.6g", g.values[first], want[i].values[first]);
    f.message = "`" + g.name + "` differs from " + what + " at " + std::to_string(c.mismatches) + " of " +
                std::to_string(g.values.size()) + " elements; the first, " + g.name + index_text(g.dims, g.order, first) +
                " = " + buf + (writer != kNone ? ", was written here" : "");
    if (c.max_abs > 0) {
      char err[120];
      std::snprintf(err, sizeof err, " (max abs error %.3g, max rel error %.3g)", c.max_abs, c.max_rel);
      f.message += err;
    }
    findings.push_back(std::move(f));
  }
}

void add_problems(const std::vector<RunProblem>& problems, std::vector<Finding>& findings) {
  // One finding per kind and pair of lines: another schedule or stage
  // reporting the same race again adds nothing.
  auto other = [](const std::vector<RunProblem::Related>& r) { return r.empty() ? ByteRange{} : r.front().at; };
  for (const RunProblem& p : problems) {
    std::string kind(exec::problem_kind_name(p.kind));
    bool seen = std::any_of(findings.begin(), findings.end(), [&](const Finding& f) {
      return f.kind == kind && f.at == p.at && other(f.related) == other(p.related);
    });
    if (!seen) findings.push_back({std::string(exec::problem_kind_name(p.kind)), p.at, p.message, p.related});
  }
}

bool write_outputs(const std::string& dir, const std::vector<TensorData>& tensors, std::string& error) {
  if (auto ec = llvm::sys::fs::create_directories(dir)) {
    error = dir + ": " + ec.message();
    return false;
  }
  for (const TensorData& t : tensors) {
    bool written = std::any_of(t.writers.begin(), t.writers.end(), [](StmtId s) { return s != kNone; });
    if (!written) continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, t.name + ".npy");
    if (!exec::write_npy(std::string(path), t.dtype, t.dims, t.values, error,
                         t.order == Order::ColMajor && t.dims.size() >= 2)) {
      error = std::string(path) + ": " + error;
      return false;
    }
  }
  return true;
}

}  // namespace

std::string run_help() {
  return R"(usage: cake run FILE --backend cpu [options]

Runs each benched kernel of FILE on the CPU reference executor: every warp
of every CTA as a coroutine, with the language's barrier and async
semantics. Reports races, deadlocks, outputs that differ between schedules
and mismatches with the bench's reference kernel, on the .cake lines.

options:
  --kernel K        run kernel K (default: every kernel a bench names)
  --bench N         use the shape of the kernel's N-th bench (default: the
                    smallest shape the kernel's `where` facts allow)
  --shape M=256,... set shape symbols (checked against `where`)
  --backend cpu     the CPU reference executor (required)
  --inputs DIR      read NAME.npy for each tensor parameter found there
                    (the others get seeded random values)
  --out DIR         write every tensor the kernel writes as NAME.npy
  --seed S          seed of the random inputs (default 1)
  --schedules N     also run N seeded interleavings and compare (default 0)
  --force           run even though `cake check` reports errors, to see
                    what they do at run time (exit status 1 all the same)
  --format text|json

exit status: 0 ran and matched, 1 findings, 2 usage or I/O error.
)";
}

int run_run(Args args) {
  RunOptions o;
  if (auto code = parse(args, o)) return *code;
  ReadResult file = o.path == "-" ? read_stdin() : read_file(o.path);
  if (!file.error.empty()) {
    write_all(stderr, "cake run: " + o.path + ": " + file.error + "\n");
    return kExitUsage;
  }
  std::unique_ptr<Analysis> a = analyze(std::move(file.text));
  const Module& m = a->module;
  DiagnosticCounts counts = count(a->diagnostics);
  if (counts.errors > 0 && !o.force) {
    write_all(stderr, "cake run: " + o.path + ": " + std::to_string(counts.errors) +
                          " error(s); not run (see `cake check`, or --force to see what they do at run time)\n");
    return kExitFindings;
  }
  std::vector<uint32_t> kernels;
  if (!o.kernel.empty()) {
    auto k = kernel_named(m, o.kernel);
    if (!k) return usage_error("run", "no kernel named '" + o.kernel + "' in " + o.path);
    kernels.push_back(*k);
  } else {
    for (uint32_t k = 0; k < m.kernels.size(); ++k)
      if (!exec::kernel_benches(m, k).empty()) kernels.push_back(k);
    if (kernels.empty()) return usage_error("run", o.path + " has no bench; name a kernel with --kernel");
  }

  std::vector<KernelReport> reports;
  for (uint32_t k : kernels) {
    KernelReport r;
    r.kernel = std::string(m.symbols[m.kernels[k].symbol].name);
    std::vector<size_t> benches = exec::kernel_benches(m, k);
    int64_t bench = -1;
    if (o.bench > 0) {
      if (static_cast<size_t>(o.bench) > benches.size())
        return usage_error("run", "`" + r.kernel + "` has " + std::to_string(benches.size()) + " bench(es)");
      bench = static_cast<int64_t>(benches[static_cast<size_t>(o.bench - 1)]);
    }
    exec::ShapeChoice shape = exec::choose_shape(m, k, bench, o.shape);
    if (!shape.error.empty()) return usage_error("run", r.kernel + ": " + shape.error);
    r.shape = shape.text;
    std::vector<TensorData> inputs;
    std::string error;
    if (!exec::make_inputs(m, k, shape.values, o.seed, inputs, error) ||
        (!o.inputs.empty() && !load_inputs(m, o.inputs, inputs, error))) {
      write_all(stderr, "cake run: " + error + "\n");
      return kExitUsage;
    }
    auto start = std::chrono::steady_clock::now();
    bool progress_shown = false;
    double shown_at = 0;
    std::string running = r.kernel;
    exec::RunOptions ro;
    // Progress on a terminal's stderr for runs over a second, at most four
    // times a second, on one line that rewrites itself.
    bool terminal = stderr_is_terminal();
    ro.progress = [&](int64_t done, int64_t total) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!terminal || s < 1 || s - shown_at < 0.25) return;
      shown_at = s;
      progress_shown = true;
      write_all(stderr, "\r\033[K" + running + ": " + std::to_string(done) + "/" + std::to_string(total) + " CTAs");
    };
    exec::RunResult base = exec::run_kernel(m, k, shape.values, inputs, ro);
    add_problems(base.problems, r.findings);
    r.ctas = base.ctas;
    r.statements = base.statements;
    for (uint64_t s = 1; s <= o.schedules && base.completed(); ++s) {
      ro.schedule = s;
      running = r.kernel + " (schedule " + std::to_string(s) + ")";
      exec::RunResult other = exec::run_kernel(m, k, shape.values, inputs, ro);
      add_problems(other.problems, r.findings);
      if (other.completed())
        compare_outputs(m, other.tensors, base.tensors, "the canonical schedule's output (schedule " + std::to_string(s) + ")",
                        m.kernels[k].range, r.findings, nullptr);
    }
    // The bench's reference kernel, on the same inputs (its parameters match
    // by position, E0118) and the same shape (by symbol name).
    SymbolId ref = kNone;
    for (size_t b : benches)
      if ((bench < 0 || b == static_cast<size_t>(bench)) && ref == kNone) ref = m.benches[b].reference_symbol;
    if (ref != kNone && base.completed()) {
      uint32_t rk = m.symbols[ref].kernel;
      exec::ShapeChoice rshape = exec::choose_shape(m, rk, -1, exec::named_shape(m, shape.values));
      std::string rname(m.symbols[m.kernels[rk].symbol].name);
      if (!rshape.error.empty()) {
        r.findings.push_back({"mismatch", m.benches[benches.front()].reference_range,
                              "the reference `" + rname + "` cannot run at this shape: " + rshape.error, {}});
      } else {
        ro.schedule = 0;
        running = rname + " (reference)";
        exec::RunResult want = exec::run_kernel(m, rk, rshape.values, inputs, ro);
        add_problems(want.problems, r.findings);
        if (want.completed())
          compare_outputs(m, base.tensors, want.tensors, "the reference `" + rname + "`", m.kernels[k].range,
                          r.findings, &r.outputs);
      }
    }
    if (progress_shown) write_all(stderr, "\r\033[K");
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!o.out.empty() && base.completed() && !write_outputs(o.out, base.tensors, error)) {
      write_all(stderr, "cake run: " + error + "\n");
      return kExitUsage;
    }
    reports.push_back(std::move(r));
  }

  bool findings = false;
  if (o.json) {
    json out = json::array();
    for (const KernelReport& r : reports) {
      json f = json::array();
      for (const Finding& x : r.findings) {
        auto pos = a->lines.position(x.at.begin);
        json rel = json::array();
        for (const RunProblem::Related& rr : x.related) {
          auto p = a->lines.position(rr.at.begin);
          rel.push_back({{"line", p.line + 1}, {"column", p.column + 1}, {"message", rr.message}});
        }
        f.push_back({{"kind", x.kind}, {"line", pos.line + 1}, {"column", pos.column + 1}, {"message", x.message},
                     {"related", rel}});
      }
      findings = findings || !r.findings.empty();
      out.push_back({{"file", o.path}, {"kernel", r.kernel}, {"shape", r.shape}, {"ctas", r.ctas},
                     {"statements", r.statements}, {"seconds", r.seconds}, {"comparisons", r.outputs},
                     {"findings", f}});
    }
    write_all(stdout, json{{"tool", "cake run"}, {"runs", out}}.dump(2) + "\n");
  } else {
    std::string text;
    for (const KernelReport& r : reports) {
      for (const Finding& x : r.findings) {
        auto pos = a->lines.position(x.at.begin);
        text += o.path + ":" + std::to_string(pos.line + 1) + ":" + std::to_string(pos.column + 1) + ": error[run-" +
                x.kind + "]: " + x.message + "\n";
        for (const RunProblem::Related& rr : x.related) {
          auto p = a->lines.position(rr.at.begin);
          text += o.path + ":" + std::to_string(p.line + 1) + ":" + std::to_string(p.column + 1) + ": note: " +
                  rr.message + "\n";
        }
      }
      findings = findings || !r.findings.empty();
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.2f s", r.seconds);
      std::string compared;
      for (const json& c : r.outputs)
        compared += ", " + c["tensor"].get<std::string>() + " matches " + c["against"].get<std::string>();
      text += r.kernel + " (" + r.shape + "): " + std::to_string(r.ctas) + " CTAs, " + std::to_string(r.statements) +
              " statements, " + secs + ": " +
              (r.findings.empty() ? "ok" + compared : std::to_string(r.findings.size()) + " finding(s)") + "\n";
    }
    write_all(stdout, text);
  }
  return findings || counts.errors > 0 ? kExitFindings : kExitOk;
}

}  // namespace cake::cli
