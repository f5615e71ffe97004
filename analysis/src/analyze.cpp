// analyze(): parse, build the model, run the checks, apply suppression
// comments, sort the diagnostics.
#include "cake/analyze.h"

#include "checks/checks.h"
#include "model/build.h"
#include "finish.h"
#include "suppression.h"

#include <algorithm>
#include <tuple>

namespace cake {

std::unique_ptr<Analysis> analyze(std::string text, const AnalyzeOptions& options) {
  auto a = std::make_unique<Analysis>();
  a->text = std::move(text);
  a->lines = LineIndex(a->text);
  a->tree = parse(a->text);
  a->diagnostics = syntax_diagnostics(a->tree.get(), a->text);
  build_model(a->tree.get(), a->text, a->module, a->diagnostics);
  run_checks(a->module, options, a->diagnostics);
  // Suppression comments see every diagnostic the checks made.
  apply_suppressions(a->tree.get(), a->text, a->lines, a->diagnostics);
  finish_diagnostics(a->diagnostics);
  return a;
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
  // One order for every way of computing them (analyze(), Document): by
  // range, code and message; the same report twice is shown once.
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
