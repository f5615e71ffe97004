// The front door of analysis/: text in, tree + model + diagnostics out.
// Pure: no I/O, no global state; safe to call from several threads at once.
#pragma once

#include "cake/diagnostic.h"
#include "cake/model.h"
#include "cake/source.h"
#include "cake/syntax.h"

#include <string>
#include <vector>

namespace cake {

struct AnalyzeOptions {
  /// Targets assumed when the file names none (it is still an error).
  std::vector<std::string> default_targets = {};
  /// The device (id or alias, cake/device.h) whose table the cost model and
  /// the W07xx performance diagnostics use for every target it runs; empty,
  /// or a device that does not run a target: that target's default device.
  std::string device = {};
};

/// Everything known about one version of one document. Owns its text: the
/// tree and the model's ranges point into it.
struct Analysis {
  std::string text;
  LineIndex lines{std::string_view{}};
  SyntaxTree tree;
  Module module;
  std::vector<Diagnostic> diagnostics;  // sorted by range, then code
};

/// Parses and checks one document. Never throws on any input.
std::unique_ptr<Analysis> analyze(std::string text, const AnalyzeOptions& options = {});

/// The targets of a file (of any model of it: every one holds its `target`
/// items), which its diagnostics concern unless they name some: the names
/// of Module::targets, each once; the options' default targets, each once,
/// when it names none. Every output (text, JSON, SARIF, the editor) lists
/// these.
std::vector<std::string> file_targets(const Module& module, const AnalyzeOptions& options);

/// Puts diagnostics in the order analyze() gives them (by range, code and
/// message) and drops exact repeats: for a caller that adds its own.
void sort_diagnostics(std::vector<Diagnostic>& diagnostics);

/// Counts of diagnostics by severity.
struct DiagnosticCounts {
  unsigned errors = 0, warnings = 0, infos = 0, hints = 0;
};
DiagnosticCounts count(const std::vector<Diagnostic>& diagnostics);

}  // namespace cake
