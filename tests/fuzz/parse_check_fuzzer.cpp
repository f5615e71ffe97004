// The fuzz target of the front end: any bytes go through cake::analyze (parse,
// model, every check), then through one incremental edit derived from the
// input itself: the tree is edited with ts_tree_edit, reparsed incrementally
// by cake::parse, and its syntax diagnostics are computed. When both the
// incremental and a fresh parse of the edited text are free of errors, they
// must be the same tree (the "edits never desynchronise" invariant); the
// comparison walks both trees with cursors, without recursion, so deeply
// nested inputs cannot overflow the stack here. A file the verifier accepts
// also runs on the CPU executor (small and briefly).
//
// Built as a libFuzzer binary (-DCAKE_FUZZ=ON, scripts/fuzz.sh) and, in every
// build, linked into cake-fuzz-replay, which runs the committed corpus and the
// generated stress inputs through this same function.

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/exec/run.h"
#include "cake/exec/setup.h"
#include "cake/syntax.h"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

/// Row and byte column of `offset`, as tree-sitter counts them.
TSPoint point_at(std::string_view text, size_t offset) {
  TSPoint p{0, 0};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') ++p.row, p.column = 0;
    else ++p.column;
  }
  return p;
}

/// Whether two trees have the same nodes (symbol, byte range, missing flag,
/// field, child count) in the same order.
bool same_tree(TSNode a_root, TSNode b_root, std::string& where) {
  TSTreeCursor a = ts_tree_cursor_new(a_root), b = ts_tree_cursor_new(b_root);
  bool same = true;
  for (;;) {
    TSNode x = ts_tree_cursor_current_node(&a), y = ts_tree_cursor_current_node(&b);
    if (ts_node_symbol(x) != ts_node_symbol(y) || ts_node_start_byte(x) != ts_node_start_byte(y) ||
        ts_node_end_byte(x) != ts_node_end_byte(y) || ts_node_is_missing(x) != ts_node_is_missing(y) ||
        ts_node_child_count(x) != ts_node_child_count(y) ||
        ts_tree_cursor_current_field_id(&a) != ts_tree_cursor_current_field_id(&b)) {
      where = std::string(ts_node_type(x)) + " at " + std::to_string(ts_node_start_byte(x)) + " vs " +
              ts_node_type(y) + " at " + std::to_string(ts_node_start_byte(y));
      same = false;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&a)) {
      ts_tree_cursor_goto_first_child(&b);
      continue;
    }
    bool done = false;
    while (!ts_tree_cursor_goto_next_sibling(&a)) {
      ts_tree_cursor_goto_parent(&b);
      if (!ts_tree_cursor_goto_parent(&a)) {
        done = true;
        break;
      }
    }
    if (done) break;
    ts_tree_cursor_goto_next_sibling(&b);
  }
  ts_tree_cursor_delete(&a);
  ts_tree_cursor_delete(&b);
  return same;
}

/// Every kernel the verifier accepts (no error in the file) runs on the CPU
/// executor at its smallest shape, small and briefly: it must not crash,
/// whatever it finds.
void run_accepted_kernels(const cake::Analysis& a) {
  if (cake::count(a.diagnostics).errors > 0) return;
  constexpr int64_t kElements = 1 << 16;
  for (uint32_t k = 0; k < a.module.kernels.size() && k < 4; ++k) {
    cake::exec::ShapeChoice shape = cake::exec::choose_shape(a.module, k, -1, {});
    std::vector<cake::exec::TensorData> inputs;
    std::string error;
    if (!shape.error.empty() || !cake::exec::make_inputs(a.module, k, shape.values, 1, inputs, error, kElements))
      continue;
    cake::exec::RunOptions options;
    options.max_steps = 20000;
    options.max_elements = kElements;
    cake::exec::RunResult r = cake::exec::run_kernel(a.module, k, shape.values, std::move(inputs), options);
    for (const cake::exec::RunProblem& p : r.problems)
      if (p.at.begin > p.at.end || p.at.end > a.text.size()) {
        std::fprintf(stderr, "run problem outside the text: %s\n", p.message.c_str());
        std::abort();
      }
  }
}

/// Every kernel of a file the verifier accepts lowers for each of its
/// targets, or is refused with E0801 on a range inside the text; never a
/// crash (docs/lowering.md). Nothing is compiled here.
void lower_accepted_kernels(const cake::Analysis& a) {
  if (cake::count(a.diagnostics).errors > 0) return;
  for (uint32_t k = 0; k < a.module.kernels.size() && k < 4; ++k)
    for (const std::string& t : cake::file_targets(a.module, {})) {
      cake::codegen::Lowered low = cake::codegen::lower(a, k, t, "fuzz.cake");
      for (const cake::Diagnostic& d : low.diagnostics)
        if (d.id != cake::DiagId::NotLowered || d.range.begin > d.range.end || d.range.end > a.text.size()) {
          std::fprintf(stderr, "lowering diagnostic outside the text or of another code: %s\n", d.message.c_str());
          std::abort();
        }
      if (low.ok() && low.cake_line.size() != static_cast<size_t>(std::count(low.cuda.begin(), low.cuda.end(), '\n'))) {
        std::fprintf(stderr, "lowered CUDA and its line map disagree\n");
        std::abort();
      }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);

  // The whole pipeline, on the input as it is.
  {
    std::unique_ptr<cake::Analysis> analysis = cake::analyze(text);
    if (!analysis || analysis->tree.pieces().empty()) {
      std::fprintf(stderr, "analyze returned no analysis or no tree\n");
      std::abort();
    }
    for (const cake::Diagnostic& d : analysis->diagnostics) {
      if (d.range.begin > d.range.end || d.range.end > analysis->text.size()) {
        std::fprintf(stderr, "diagnostic range [%u, %u) outside the text of %zu bytes: %s\n",
                     d.range.begin, d.range.end, analysis->text.size(), d.message.c_str());
        std::abort();
      }
    }
    run_accepted_kernels(*analysis);
    lower_accepted_kernels(*analysis);
  }

  // Two incremental edits: replace [start, start + removed) by a slice of
  // the input itself, then insert another slice elsewhere, all chosen from
  // the input's hash.
  uint64_t h = fnv1a(data, size);
  size_t start = size == 0 ? 0 : h % (size + 1);
  size_t removed = std::min<size_t>((h >> 16) % 17, size - start);
  size_t from = size == 0 ? 0 : (h >> 24) % size;
  size_t inserted = std::min<size_t>((h >> 40) % 17, size - from);
  std::string edited = text.substr(0, start) + text.substr(from, inserted) + text.substr(start + removed);
  cake::SyntaxTree::Changes changes = cake::SyntaxTree::Changes::of(
      static_cast<uint32_t>(start), static_cast<uint32_t>(start + removed), static_cast<uint32_t>(inserted));
  size_t second = edited.empty() ? 0 : ((h >> 48) * 2654435761u) % (edited.size() + 1);
  size_t second_len = std::min<size_t>((h >> 56) % 9, size - from);
  edited.insert(second, text.substr(from, second_len));
  changes.add(static_cast<uint32_t>(second), static_cast<uint32_t>(second), static_cast<uint32_t>(second_len));

  // The piecewise reparse must give the tree of a fresh parse, errors or
  // not (cake/syntax.h: the tree is a function of the text).
  cake::LineIndex before(text), after(edited);
  cake::SyntaxTree tree(text, before);
  tree.update(edited, after, changes);
  cake::SyntaxTree fresh = cake::parse(edited);
  std::vector<cake::Diagnostic> diagnostics = cake::syntax_diagnostics(tree, edited);
  for (const cake::Diagnostic& d : diagnostics) {
    if (d.range.begin > d.range.end || d.range.end > edited.size()) {
      std::fprintf(stderr, "syntax diagnostic range [%u, %u) outside the text of %zu bytes\n",
                   d.range.begin, d.range.end, edited.size());
      std::abort();
    }
  }
  if (tree.pieces().size() != fresh.pieces().size()) {
    std::fprintf(stderr, "reparse has %zu pieces, a fresh parse %zu\n", tree.pieces().size(), fresh.pieces().size());
    std::abort();
  }
  for (size_t i = 0; i < tree.pieces().size(); ++i) {
    const cake::SyntaxTree::Piece &x = tree.pieces()[i], &y = fresh.pieces()[i];
    std::string where;
    if (x.range != y.range ||
        !same_tree(ts_tree_root_node(x.tree.get()), ts_tree_root_node(y.tree.get()), where)) {
      std::fprintf(stderr, "reparse differs from a fresh parse in piece %zu: %s\n", i, where.c_str());
      std::abort();
    }
  }
  return 0;
}
