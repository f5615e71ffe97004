// An editable document for editors: the text, its tree kept up to date by
// reparsing only the pieces an edit touches (SyntaxTree, cake/syntax.h: a
// function of the text, broken or not), and diagnostics that are recomputed
// only for the items an edit can affect. Edits are cheap: the text and its
// line index change at once, the tree only when something reads it, so a
// burst of edits costs one reparse.
//
// The diagnostics are always exactly those of analyze() on the current text
// (tests/analysis/document_test.cpp checks this over random edits). Not
// thread-safe: one thread owns a Document.
#pragma once

#include "cake/analyze.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cake {

struct UnitCache;
struct Layout;

/// One kernel of the current text and the unit that checks it: the kernel
/// with the file's targets and consts and the benches naming it.
struct KernelUnit {
  ByteRange piece;        // the kernel item with its leading comments
  ByteRange name;         // its name (empty when missing)
  std::string_view kernel;  // its name's text, into Document::text()
  /// The hash of the unit's input texts (and of every item's name): equal
  /// keys mean equal models up to where the text lies.
  uint64_t key = 0;
};

class Document {
 public:
  explicit Document(std::string text, AnalyzeOptions options = {});
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  /// Replaces `edit.range` (byte offsets into the current text, clamped to
  /// it) with `edit.new_text`. The tree follows on its next use.
  void apply(const TextEdit& edit);
  /// Replaces the whole text (a full reparse; the caches stay).
  void replace(std::string text);
  /// New options (say, default targets): everything is checked again.
  void set_options(AnalyzeOptions options);

  const std::string& text() const { return text_; }
  const LineIndex& lines() const { return lines_; }
  /// The tree of the current text (reparsing the pieces edits touched).
  const SyntaxTree& tree();

  /// The diagnostics of the current text, sorted as analyze() sorts them.
  /// Items whose text and context did not change since the last call reuse
  /// their results. Returns nullptr when `cancelled` answered true between
  /// two items (the work done so far is kept for the next call).
  const std::vector<Diagnostic>* diagnostics(const std::function<bool()>& cancelled = {});

  /// For a request about one position (hover): diagnostics() when they are
  /// up to date; otherwise those of the units around `offset` only (the
  /// syntax errors, the global unit and the kernel holding it), so the
  /// request never waits for every kernel a burst of edits touched. Within
  /// that kernel they equal diagnostics(), except that an allow comment's
  /// "unused" warning is left out.
  const std::vector<Diagnostic>& diagnostics_around(uint32_t offset);

  /// file_targets() of the current text (cake/analyze.h): its targets,
  /// each once, or the options' default targets. Read from a model of the
  /// `target` items alone, built once per version.
  const std::vector<std::string>& targets();

  /// The model of the whole current text (names resolved, no checks), built
  /// on first use after an edit. Its string_views point into text().
  const Module& model();
  /// A model good for questions about one position: inside a kernel, the
  /// model of that kernel with the targets, consts and its benches (built
  /// in a fraction of a millisecond); elsewhere model(). Names of other
  /// items resolve, but their symbols are made only when referenced.
  const Module& model_at(uint32_t offset);
  /// model_at() for a range: the kernel's model when `range` lies in one
  /// kernel, else model().
  const Module& model_for(ByteRange range);

  /// Hands the current text, its tree, the whole-file model and the
  /// diagnostics over to an Analysis (analyze() is a Document analysed
  /// once); the Document is empty afterwards, with no tree, until replace().
  std::unique_ptr<Analysis> release();

  /// The kernels of the current text, in file order, with their units.
  const std::vector<KernelUnit>& kernel_units();
  /// The model of kernel_units()[unit] (the last one built is kept).
  const Module& kernel_model(size_t unit);
  /// Whether kernel_units()[unit] has an error of its own among
  /// `diagnostics` (diagnostics() of the current text): one that starts in
  /// the kernel item, from `kernel` to its `}`, or in a `bench` item naming
  /// it, and whose rule is not file-wide (DiagScope::Global, such as a
  /// missing target). Errors in other items, or in text between items, are
  /// not the kernel's.
  bool kernel_has_errors(size_t unit, const std::vector<Diagnostic>& diagnostics);

 private:
  AnalyzeOptions options_;
  std::string text_;
  LineIndex lines_{std::string_view{}};
  SyntaxTree tree_;
  std::optional<SyntaxTree::Changes> pending_;  // what edits changed since the tree was parsed
  std::unique_ptr<Module> model_;
  std::unique_ptr<Module> unit_model_;  // model_at() of one kernel
  ByteRange unit_model_range_;
  uint64_t unit_model_key_ = 0;
  std::unique_ptr<Layout> layout_;  // of the current version
  std::unique_ptr<std::vector<Diagnostic>> diagnostics_;
  std::vector<Diagnostic> around_;  // diagnostics_around() when diagnostics_ is not current
  std::unique_ptr<UnitCache> units_;

  Layout& layout();
  /// Checks the current text: every unit (then diagnostics_ is set), or
  /// with `only` the global unit and the one holding *only (returned).
  std::optional<std::vector<Diagnostic>> check(const std::function<bool()>& cancelled, const uint32_t* only);
  /// Brings tree_ up to the text; false when `cancelled` stopped it.
  bool parse_tree(const std::function<bool()>& cancelled);
};

}  // namespace cake
