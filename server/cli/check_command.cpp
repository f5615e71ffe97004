// `cake check`: expands the inputs, checks each file (on a thread pool with
// --jobs), then writes the results in input order as text, JSON or SARIF,
// and turns the counts into the exit code. Unreadable inputs are reported on
// stderr and make the exit code 2, but never stop the other files.
#include "check_options.h"
#include "cli.h"
#include "io.h"

#include "cake/analyze.h"
#include "cake/codegen/cache.h"
#include "cake/codegen/facts.h"
#include "convert.h"
#include "diagnostic_json.h"
#include "sarif.h"
#include "text_report.h"

#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace cake::cli {
namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view kStdinUri = "untitled:stdin";

/// Everything the output needs about one checked (or unreadable) file.
struct FileResult {
  std::string path;
  std::string error;  // why it could not be read; empty when checked
  DiagnosticCounts counts;
  std::string text;   // --format text: the rendered diagnostics
  std::string document;  // --format json: {"path", "uri", "diagnostics"} as text, for raw()
  json sarif;         // --format sarif: the results
};

/// What every file's check shares; read-only while the pool runs.
struct CheckContext {
  const CheckOptions& options;
  const ToolInfo& tool;
  AnalyzeOptions analyze_options;  // of options
  bool color = false;
  std::string stdin_text;
};

std::string document_uri(const InputFile& input) {
  return input.is_stdin ? std::string(kStdinUri) : file_uri(absolute_path(input.path));
}

SarifArtifact sarif_artifact(const InputFile& input) {
  if (input.is_stdin) return {std::string(kStdinUri), ""};
  if (!input.path.empty() && input.path.front() == '/') return {file_uri(input.path), ""};
  return {relative_uri(input.path), "SRCROOT"};
}

void render(FileResult& result, const InputFile& input, const Analysis& analysis, const CheckContext& context) {
  PositionConverter positions(analysis.text, analysis.lines);
  std::vector<std::string> targets = file_targets(analysis.module, context.analyze_options);
  switch (context.options.format) {
    case OutputFormat::Text: {
      TextDocument document{input.path, &positions, std::move(targets)};
      result.text = render_diagnostics(analysis.diagnostics, document, {.color = context.color});
      break;
    }
    case OutputFormat::Json: {
      // Written as text here, on the pool (an element of `files`: depth 2).
      DocumentContext document{document_uri(input), &positions, std::move(targets)};
      JsonWriter out(result.document, 2);
      out.begin_object();
      out.value("path", input.path);
      out.value("uri", document.uri);
      out.begin_array("diagnostics");
      for (const Diagnostic& diagnostic : analysis.diagnostics)
        write_diagnostic_json(out, diagnostic, document, context.tool.docs_root);
      out.end();
      out.end();
      break;
    }
    case OutputFormat::Sarif:
      result.sarif = sarif_results(analysis.diagnostics, sarif_artifact(input), positions, targets);
      break;
  }
}

/// --compile: the compiler's facts of every kernel that lowers, for each of
/// the file's targets, when the file has no errors (docs/lowering.md).
void add_compiler_facts(Analysis& a) {
  if (count(a.diagnostics).errors > 0) return;
  std::vector<Diagnostic> found;
  for (uint32_t k = 0; k < a.module.kernels.size(); ++k)
    for (const Target& t : a.module.targets) {
      codegen::FactsResult r = codegen::compiler_facts(a, k, std::string(t.name), {}, codegen::default_cache_dir());
      found.insert(found.end(), r.diagnostics.begin(), r.diagnostics.end());
    }
  if (found.empty()) return;
  a.diagnostics.insert(a.diagnostics.end(), found.begin(), found.end());
  sort_diagnostics(a.diagnostics);
}

FileResult check_file(const InputFile& input, const CheckContext& context) {
  FileResult result;
  result.path = input.path;
  result.error = input.error;
  if (!result.error.empty()) return result;
  try {
    ReadResult read = input.is_stdin ? ReadResult{context.stdin_text, {}} : read_file(input.path);
    if (!read.error.empty()) {
      result.error = read.error;
      return result;
    }
    std::unique_ptr<Analysis> analysis =
        analyze(std::move(read.text), context.analyze_options);
    if (context.options.compile) add_compiler_facts(*analysis);
    result.counts = count(analysis->diagnostics);
    render(result, input, *analysis, context);
  } catch (const std::exception& e) {
    result.error = std::string("internal error: ") + e.what();
  } catch (...) {
    result.error = "internal error";
  }
  return result;
}

std::vector<FileResult> check_all(const std::vector<InputFile>& inputs, const CheckContext& context) {
  std::vector<FileResult> results(inputs.size());
  if (context.options.jobs == 1 || inputs.size() <= 1) {
    for (size_t i = 0; i < inputs.size(); ++i) results[i] = check_file(inputs[i], context);
    return results;
  }
  llvm::ThreadPool pool(llvm::hardware_concurrency(context.options.jobs));
  for (size_t i = 0; i < inputs.size(); ++i)
    pool.async([&, i] { results[i] = check_file(inputs[i], context); });
  pool.wait();
  return results;
}

// Section - Output

std::string plural(unsigned n, std::string_view word) {
  return std::to_string(n) + ' ' + std::string(word) + (n == 1 ? "" : "s");
}

struct Totals {
  unsigned checked = 0, unreadable = 0, errors = 0, warnings = 0;
};

Totals totals(const std::vector<FileResult>& results) {
  Totals sum;
  for (const FileResult& result : results) {
    if (!result.error.empty()) {
      ++sum.unreadable;
      continue;
    }
    ++sum.checked;
    sum.errors += result.counts.errors;
    sum.warnings += result.counts.warnings;
  }
  return sum;
}

std::string file_status(const FileResult& result) {
  if (!result.error.empty()) return "unreadable";
  const DiagnosticCounts& counts = result.counts;
  if (counts.errors == 0 && counts.warnings == 0) return "OK";
  if (counts.warnings == 0) return plural(counts.errors, "error");
  if (counts.errors == 0) return plural(counts.warnings, "warning");
  return plural(counts.errors, "error") + ", " + plural(counts.warnings, "warning");
}

std::string_view status_color(const FileResult& result, bool color) {
  if (!color) return {};
  if (!result.error.empty() || result.counts.errors) return "\x1b[1;31m";
  return result.counts.warnings ? "\x1b[1;35m" : "\x1b[1;32m";
}

std::string summary_table(const std::vector<FileResult>& results, bool color) {
  size_t width = 0;
  for (const FileResult& result : results) width = std::max(width, file_status(result).size());
  std::string out;
  for (const FileResult& result : results) {
    std::string status = file_status(result);
    out += "  ";
    out += status_color(result, color);
    out += status;
    out += color ? "\x1b[0m" : "";
    out += std::string(width - status.size() + 2, ' ') + printable(result.path) + '\n';
  }
  return out;
}

std::string summary_line(const Totals& sum) {
  std::string out = "checked " + plural(sum.checked, "file") + ": " + plural(sum.errors, "error") + ", " +
                    plural(sum.warnings, "warning");
  if (sum.unreadable) out += "; " + plural(sum.unreadable, "file") + " could not be read";
  return out + '\n';
}

std::string text_output(const std::vector<FileResult>& results, const Totals& sum, const CheckContext& context) {
  std::string out;
  for (const FileResult& result : results) out += result.text;
  if (context.options.quiet) return out;
  if (context.options.summary || results.size() > 1) out += summary_table(results, context.color);
  return out + summary_line(sum);
}

std::string json_output(const std::vector<FileResult>& results, const Totals& sum) {
  std::string text;
  JsonWriter out(text);
  out.begin_object();
  out.value("version", 1);
  out.begin_array("files");
  for (const FileResult& result : results) {
    if (result.error.empty()) {
      out.raw(nullptr, result.document);
      continue;
    }
    out.begin_object();
    out.value("path", result.path);
    out.value("error", result.error);
    out.begin_array("diagnostics");
    out.end();
    out.end();
  }
  out.end();
  out.begin_object("summary");
  out.value("files", sum.checked);
  out.value("errors", sum.errors);
  out.value("warnings", sum.warnings);
  out.value("unreadable", sum.unreadable);
  out.end();
  out.end();
  return text + '\n';
}

std::string sarif_output(std::vector<FileResult>& results, const std::vector<InputFile>& inputs,
                         const CheckContext& context) {
  json all = json::array();
  std::vector<SarifNotification> notifications;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].error.empty()) {
      notifications.push_back({"cannot read '" + results[i].path + "': " + results[i].error, sarif_artifact(inputs[i])});
      continue;
    }
    for (json& result : results[i].sarif) all.push_back(std::move(result));
  }
  std::string cwd = current_directory();
  SarifOptions options{context.tool.version, context.tool.docs_root, cwd.empty() ? "" : file_uri(cwd + "/")};
  return dump_json(sarif_log(std::move(all), notifications, options)) + '\n';
}

std::string render_output(std::vector<FileResult>& results, const std::vector<InputFile>& inputs,
                          const Totals& sum, const CheckContext& context) {
  switch (context.options.format) {
    case OutputFormat::Text: return text_output(results, sum, context);
    case OutputFormat::Json: return json_output(results, sum);
    case OutputFormat::Sarif: return sarif_output(results, inputs, context);
  }
  return {};
}

std::string read_errors(const std::vector<FileResult>& results) {
  std::string out;
  for (const FileResult& result : results)
    if (!result.error.empty()) out += "cake: cannot read '" + printable(result.path) + "': " + result.error + '\n';
  return out;
}

bool wants_color(ColorMode mode) {
  return mode == ColorMode::Always || (mode == ColorMode::Auto && stdout_wants_color());
}

int exit_code(const Totals& sum, const CheckOptions& options) {
  if (sum.unreadable) return kExitUsage;
  if (sum.errors || (options.werror && sum.warnings)) return kExitFindings;
  return kExitOk;
}

/// Reads stdin before the pool starts, once however often "-" was given.
void read_stdin_once(std::vector<InputFile>& inputs, CheckContext& context) {
  auto is_stdin = [](const InputFile& input) { return input.is_stdin; };
  if (std::none_of(inputs.begin(), inputs.end(), is_stdin)) return;
  ReadResult read = read_stdin();
  context.stdin_text = std::move(read.text);
  for (InputFile& input : inputs)
    if (input.is_stdin) input.error = read.error;
}

}  // namespace

int run_check(Args args, const ToolInfo& tool) {
  ParsedCheckArgs parsed = parse_check_args(args);
  if (!parsed.error.empty()) {
    write_all(stderr, "cake check: " + parsed.error + "\nTry 'cake check --help'.\n");
    return kExitUsage;
  }
  const CheckOptions& options = parsed.options;
  if (options.help) return write_all(stdout, check_help()) ? kExitOk : kExitUsage;

  std::vector<InputFile> inputs = expand_inputs(options.inputs);
  CheckContext context{options, tool, AnalyzeOptions{.default_targets = options.default_targets, .device = options.device},
                       options.format == OutputFormat::Text && wants_color(options.color), {}};
  read_stdin_once(inputs, context);

  std::vector<FileResult> results = check_all(inputs, context);
  Totals sum = totals(results);
  bool errors_written = write_all(stderr, read_errors(results));
  bool output_written = write_all(stdout, render_output(results, inputs, sum, context));
  return errors_written && output_written ? exit_code(sum, options) : kExitUsage;
}

}  // namespace cake::cli
