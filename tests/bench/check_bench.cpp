// cake-bench-check: how fast cake::analyze (parse + model + every check)
// runs on one core, against the targets of docs/architecture.md. It generates
// valid CAKE IR (warp-specialised Hopper kernels, tests/support/kernel_gen.h)
// of 1,000, 10,000 and 100,000 lines and times analyze() over N runs each
// (min / median / p95, in total and per 1,000 lines), then analyses >= 2,000
// example-sized files one after another (batch mode, text already in memory)
// and reports files/s. The last table gives the ratio to each target
// (10,000-line file: median <= 50 ms; batch: >= 1,000 files/s); a ratio
// >= 1.00 meets it. A benchmark, not a timed test: the exit status is 0
// whatever the timings, unless --fail-on-miss is given; it is 1 when a
// generated file draws an error diagnostic (the numbers would then measure
// something unrealistic). docs/benchmarks.md explains how to run and read it.
// Then the output formats of `cake check` (analyze() and the report as a
// string, no I/O) on a file whose `target` line is repeated 1,000 times with
// 40 erroneous kernels (cake::test::repeated_targets_file, about 1,200
// diagnostics): JSON must stay within 1.5x the text, which it did not
// while each diagnostic listed the file's targets once per line.
// `--emit-file LINES PATH` only writes such a generated file of >= LINES
// lines to PATH (the language-server benchmark, tests/bench/lsp_bench.py,
// opens it) and exits; `--emit-repeated-targets LINES KERNELS PATH` writes
// the repeated-target file.
//
// Usage: cake-bench-check [--runs N] [--files N] [--sizes 1000,10000,...]
//                         [--fail-on-miss] [--smoke]
//        cake-bench-check --emit-file LINES PATH
//        cake-bench-check --emit-repeated-targets LINES KERNELS PATH

#include "../support/kernel_gen.h"

#include "cake/analyze.h"
#include "cake/registry.h"
#include "convert.h"
#include "diagnostic_json.h"
#include "sarif.h"
#include "text_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#ifndef __has_feature
#define __has_feature(x) 0
#endif

namespace {

struct BenchOptions {
  unsigned runs = 20;                              // timed runs per file size
  unsigned files = 2000;                           // files in the batch run
  std::vector<size_t> sizes = {1000, 10000, 100000};
  size_t target_size = 10000;                      // the size the latency target is for
  double target_ms = 50.0;                         // median analyze() of target_size lines
  double target_files_per_s = 1000.0;              // batch throughput
  size_t repeated_target_lines = 1000;             // the output-format file
  size_t repeated_target_kernels = 40;
  double target_json_over_text = 1.5;              // check + JSON report vs check + text report
  bool fail_on_miss = false;
  bool is_smoke = false;                           // tiny sizes: verdicts are indicative only

  /// Tiny sizes that run in well under a second: checks the program works.
  static BenchOptions smoke() {
    BenchOptions o;
    o.runs = 3;
    o.files = 20;
    o.sizes = {100, 1000};
    o.target_size = 1000;
    o.target_ms = 5.0;  // the 10,000-line target scaled to 1,000 lines
    o.repeated_target_lines = 50;
    o.repeated_target_kernels = 2;
    o.is_smoke = true;
    return o;
  }
};

struct Stats {
  double min = 0, median = 0, p95 = 0;
};

Stats stats_of(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) {
    size_t i = static_cast<size_t>(q * static_cast<double>(samples.size() - 1) + 0.5);
    return samples[std::min(i, samples.size() - 1)];
  };
  return {samples.front(), at(0.5), at(0.95)};
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

size_t count_lines(std::string_view text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// Prints the error diagnostics of an analysis (at most 5); returns their number.
unsigned report_errors(std::string_view what, const cake::Analysis& analysis) {
  unsigned errors = 0;
  for (const cake::Diagnostic& d : analysis.diagnostics) {
    if (d.severity != cake::Severity::Error) continue;
    if (++errors <= 5) {
      size_t line = 1 + static_cast<size_t>(std::count(analysis.text.begin(),
                                                       analysis.text.begin() + std::min<size_t>(d.range.begin, analysis.text.size()), '\n'));
      std::string_view code = cake::rule_info(d.id).code;
      std::printf("  %.*s:%zu: error [%.*s] %s\n", static_cast<int>(what.size()), what.data(), line,
                  static_cast<int>(code.size()), code.data(), d.message.c_str());
    }
  }
  return errors;
}

std::string format(const char* fmt, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

std::string with_commas(size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

/// Writes `text` to `path`; false (with a message) when it cannot.
bool write_file(const char* path, const std::string& text) {
  std::FILE* f = std::fopen(path, "wb");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f) ok = std::fclose(f) == 0 && ok;
  if (!ok) std::perror(path);
  return ok;
}

/// One output format of `cake check`: the report of `analysis` as the CLI
/// renders it (the targets from file_targets(), the rule links to a docs root).
enum class Format { None, Text, Json, Sarif };

std::string report(Format f, const cake::Analysis& analysis) {
  cake::PositionConverter positions(analysis.text, analysis.lines);
  std::vector<std::string> targets = cake::file_targets(analysis.module, {});
  switch (f) {
    case Format::None: return {};
    case Format::Text:
      return cake::render_diagnostics(analysis.diagnostics, {"bench.cake", &positions, std::move(targets)}, {});
    case Format::Json: {
      // As `cake check` writes it (server/cli/check_command.cpp), less the summary.
      cake::DocumentContext document{"file:///bench.cake", &positions, std::move(targets)};
      std::string text;
      cake::JsonWriter out(text);
      out.begin_object();
      out.value("version", 1);
      out.begin_array("files");
      out.begin_object();
      out.value("path", "bench.cake");
      out.value("uri", document.uri);
      out.begin_array("diagnostics");
      for (const cake::Diagnostic& d : analysis.diagnostics)
        cake::write_diagnostic_json(out, d, document, "/usr/share/cake/docs");
      out.end();
      out.end();
      out.end();
      out.end();
      return text;
    }
    case Format::Sarif:
      return cake::dump_json(cake::sarif_log(
          cake::sarif_results(analysis.diagnostics, {"bench.cake", "SRCROOT"}, positions, targets), {},
          {"0", "/usr/share/cake/docs", "file:///"}));
  }
  return {};
}

bool parse_args(int argc, char** argv, BenchOptions& o) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--smoke") {
      o = BenchOptions::smoke();
    } else if (a == "--runs") {
      const char* v = value();
      if (!v || (o.runs = static_cast<unsigned>(std::atoi(v))) == 0) return false;
    } else if (a == "--files") {
      const char* v = value();
      if (!v || (o.files = static_cast<unsigned>(std::atoi(v))) == 0) return false;
    } else if (a == "--sizes") {
      const char* v = value();
      if (!v) return false;
      o.sizes.clear();
      for (const char* p = v; *p;) {
        o.sizes.push_back(std::strtoul(p, const_cast<char**>(&p), 10));
        if (*p == ',') ++p;
        else if (*p) return false;
      }
      if (std::find(o.sizes.begin(), o.sizes.end(), o.target_size) == o.sizes.end() && !o.sizes.empty())
        o.target_size = o.sizes[o.sizes.size() / 2];
    } else if (a == "--fail-on-miss") {
      o.fail_on_miss = true;
    } else {
      return false;
    }
  }
  return !o.sizes.empty();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string_view(argv[1]) == "--emit-file")
    return write_file(argv[3], cake::test::kmeans_file(std::strtoul(argv[2], nullptr, 10))) ? 0 : 1;
  if (argc == 5 && std::string_view(argv[1]) == "--emit-repeated-targets")
    return write_file(argv[4], cake::test::repeated_targets_file(std::strtoul(argv[2], nullptr, 10),
                                                                 std::strtoul(argv[3], nullptr, 10))) ? 0 : 1;
  BenchOptions options;
  if (!parse_args(argc, argv, options)) {
    std::printf("usage: %s [--runs N] [--files N] [--sizes 1000,10000,...] [--fail-on-miss] [--smoke]\n"
                "       %s --emit-file LINES PATH\n"
                "       %s --emit-repeated-targets LINES KERNELS PATH\n", argv[0], argv[0], argv[0]);
    return 2;
  }
  unsigned generated_errors = 0;

  // Section - Latency per file size
  std::printf("cake-bench-check: cake::analyze() = parse + model + checks, one thread\n");
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && !__has_feature(address_sanitizer)
  std::printf("build: optimised%s\n\n",
#ifdef NDEBUG
              ""
#else
              ", assertions on"
#endif
  );
#else
  std::printf("build: NOT an optimised release build (no -O, or sanitizers): figures are not comparable\n\n");
#endif
  std::printf("%-14s %8s %11s %5s %9s %9s %9s   %-27s %6s\n", "file", "lines", "bytes", "runs", "min ms",
              "median ms", "p95 ms", "per 1k lines min/med/p95", "errors");
  double target_median = -1;
  for (size_t size : options.sizes) {
    std::string text = cake::test::kmeans_file(size);
    size_t lines = count_lines(text);
    // Fewer runs for big files, but never fewer than 3.
    unsigned runs = std::max<unsigned>(3, static_cast<unsigned>(options.runs * std::min<double>(1.0, 10000.0 / static_cast<double>(size))));
    std::vector<double> samples;
    unsigned errors = 0;
    {
      auto warm = cake::analyze(text);
      errors = report_errors("generated " + std::to_string(size) + "-line file", *warm);
    }
    for (unsigned r = 0; r < runs; ++r) {
      double t0 = now_ms();
      auto analysis = cake::analyze(text);
      samples.push_back(now_ms() - t0);
    }
    Stats s = stats_of(samples);
    double k = 1000.0 / static_cast<double>(lines);
    char per_k[64];
    std::snprintf(per_k, sizeof per_k, "%.2f / %.2f / %.2f", s.min * k, s.median * k, s.p95 * k);
    std::printf("%-14s %8s %11s %5u %9.2f %9.2f %9.2f   %-27s %6u\n", (with_commas(size) + " lines").c_str(),
                with_commas(lines).c_str(), with_commas(text.size()).c_str(), runs, s.min, s.median, s.p95,
                per_k, errors);
    if (size == options.target_size) target_median = s.median;
    generated_errors += errors;
  }

  // Section - Batch throughput
  std::vector<std::string> files;
  size_t batch_lines = 0;
  for (unsigned i = 0; i < options.files; ++i) {
    files.push_back("target sm_90a\n\n" + cake::test::kmeans_kernel("kernel" + std::to_string(i), 2 + static_cast<int>(i % 3)));
    batch_lines += count_lines(files.back());
  }
  {
    auto first = cake::analyze(files.front());
    generated_errors += report_errors("generated example-sized file", *first);
  }
  double t0 = now_ms();
  size_t diagnostics = 0;
  for (const std::string& file : files) diagnostics += cake::analyze(file)->diagnostics.size();
  double batch_ms = now_ms() - t0;
  double files_per_s = 1000.0 * static_cast<double>(files.size()) / batch_ms;
  std::printf("\nbatch: %zu files of ~%zu lines each, analysed one after another in %.1f ms: %.0f files/s "
              "(%zu diagnostics in all)\n",
              files.size(), batch_lines / files.size(), batch_ms, files_per_s, diagnostics);

  // Section - Output formats: check + report, on a file that repeats its `target` line
  double json_over_text = 0;
  {
    std::string text = cake::test::repeated_targets_file(options.repeated_target_lines, options.repeated_target_kernels);
    size_t diagnostics_in_file = cake::analyze(text)->diagnostics.size();
    std::printf("\noutput formats: check + report as a string, a file repeating `target sm_90a, sm_100a` on %s "
                "lines, %zu kernels, %s diagnostics\n",
                with_commas(options.repeated_target_lines).c_str(), options.repeated_target_kernels,
                with_commas(diagnostics_in_file).c_str());
    std::printf("%-8s %5s %9s %9s %12s %14s\n", "format", "runs", "min ms", "median ms", "bytes", "bytes/diag");
    unsigned runs = std::max(3u, options.runs / 2);
    double medians[4] = {};
    for (Format f : {Format::None, Format::Text, Format::Json, Format::Sarif}) {
      std::vector<double> samples;
      size_t bytes = 0;
      for (unsigned r = 0; r <= runs; ++r) {  // the first is a warm-up
        double t0 = now_ms();
        bytes = report(f, *cake::analyze(text)).size();
        if (r > 0) samples.push_back(now_ms() - t0);
      }
      Stats s = stats_of(samples);
      medians[static_cast<int>(f)] = s.median;
      const char* name = f == Format::None ? "none" : f == Format::Text ? "text" : f == Format::Json ? "json" : "sarif";
      std::printf("%-8s %5u %9.2f %9.2f %12s %14s\n", name, runs, s.min, s.median, with_commas(bytes).c_str(),
                  with_commas(bytes / std::max<size_t>(1, diagnostics_in_file)).c_str());
    }
    json_over_text = medians[2] / medians[1];
  }

  // Section - Targets
  std::printf("\n%-40s %-16s %-14s %-8s %s\n", "target", "goal", "measured", "ratio", "verdict");
  bool missed = false;
  if (target_median > 0) {
    double ratio = options.target_ms / target_median;
    missed = missed || ratio < 1.0;
    std::printf("%-40s %-16s %-14s %-8s %s\n",
                ("analyze " + with_commas(options.target_size) + "-line file, median").c_str(),
                ("<= " + std::to_string(static_cast<int>(options.target_ms)) + " ms").c_str(),
                format("%.2f ms", target_median).c_str(),
                format("%.2fx", ratio).c_str(), ratio >= 1.0 ? "meets" : "MISSES");
  } else {
    std::printf("%-40s (no %s-line run: pass --sizes with it)\n", "analyze file, median",
                with_commas(options.target_size).c_str());
  }
  {
    double ratio = files_per_s / options.target_files_per_s;
    missed = missed || ratio < 1.0;
    std::printf("%-40s %-16s %-14s %-8s %s\n", "batch throughput, one core",
                (">= " + std::to_string(static_cast<int>(options.target_files_per_s)) + " files/s").c_str(),
                (std::to_string(static_cast<int>(files_per_s)) + " files/s").c_str(),
                format("%.2fx", ratio).c_str(), ratio >= 1.0 ? "meets" : "MISSES");
  }
  {
    // A ratio of the goal to the measured factor: >= 1.00 meets it.
    double ratio = options.target_json_over_text / json_over_text;
    missed = missed || ratio < 1.0;
    std::printf("%-40s %-16s %-14s %-8s %s\n", "check --format json vs text (median)",
                format("<= %.1fx text", options.target_json_over_text).c_str(),
                format("%.2fx text", json_over_text).c_str(), format("%.2fx", ratio).c_str(),
                ratio >= 1.0 ? "meets" : "MISSES");
  }
  if (options.is_smoke)
    std::printf("(smoke run: tiny sizes and few runs; the verdicts above are indicative only)\n");
  if (generated_errors != 0) {
    std::printf("\nerror: the generated files draw %u error diagnostic(s); the figures above do not "
                "measure valid input\n", generated_errors);
    return 1;
  }
  return options.fail_on_miss && missed ? 1 : 0;
}
