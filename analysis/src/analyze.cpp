// analyze(): a Document analysed once (document.cpp assembles the pipeline:
// parse, build the model per unit, run the checks, apply suppression
// comments, sort the diagnostics); the diagnostics' order.
#include "cake/analyze.h"

#include "cake/document.h"
#include "finish.h"

#include <algorithm>
#include <tuple>

namespace cake {

std::unique_ptr<Analysis> analyze(std::string text, const AnalyzeOptions& options) {
  // One driver: the editor's Document, analysed once.
  Document document(std::move(text), options);
  return document.release();
}

std::vector<std::string> file_targets(const Module& module, const AnalyzeOptions& options) {
  std::vector<std::string> out;
  for (const Target& t : module.targets) out.emplace_back(t.name);  // already each once
  if (!out.empty()) return out;
  for (const std::string& t : options.default_targets)
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

void finish_diagnostics(std::vector<Diagnostic>& diagnostics) {
  // After an unclosed `/*` the rest of the file is comment text that the
  // parser read as code: only the syntax report about it is meaningful.
  auto open = std::find_if(diagnostics.begin(), diagnostics.end(),
                           [](const Diagnostic& d) { return d.id == DiagId::UnterminatedComment; });
  if (open != diagnostics.end()) {
    uint32_t from = open->range.begin;
    std::erase_if(diagnostics, [&](const Diagnostic& d) { return d.range.begin > from && d.id != DiagId::InvalidCharacter; });
  }
  sort_diagnostics(diagnostics);
}

void sort_diagnostics(std::vector<Diagnostic>& diagnostics) {
  // One order for every way of computing them (analyze(), Document, the
  // compiler's facts added by `cake check --compile`): by range, code and
  // message; the same report twice is shown once.
  std::sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& x, const Diagnostic& y) {
    return std::tie(x.range.begin, x.range.end, x.id, x.message) < std::tie(y.range.begin, y.range.end, y.id, y.message);
  });
  diagnostics.erase(std::unique(diagnostics.begin(), diagnostics.end(),
                                [](const Diagnostic& x, const Diagnostic& y) {
                                  return x.range == y.range && x.id == y.id && x.message == y.message;
                                }),
                    diagnostics.end());
}

DiagnosticCounts count(const std::vector<Diagnostic>& diagnostics) {
  DiagnosticCounts c;
  for (const Diagnostic& d : diagnostics) {
    switch (d.severity) {
      case Severity::Error: ++c.errors; break;
      case Severity::Warning: ++c.warnings; break;
      case Severity::Information: ++c.infos; break;
      case Severity::Hint: ++c.hints; break;
    }
  }
  return c;
}

}  // namespace cake
