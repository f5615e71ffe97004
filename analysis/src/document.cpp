// Document: text + incrementally reparsed tree + diagnostics by units.
//
// The diagnostics of a file are split into units whose inputs are known:
// - one unit per kernel: the file's `target` and `const` items, the kernel,
//   and the `bench` items that name it; it owns the diagnostics inside the
//   kernel (header and body);
// - one global unit: every item, kernels without their bodies; it owns the
//   diagnostics outside kernels (targets, consts, dispatch, bench) and the
//   file-wide ones (duplicate names, a missing target).
// Every unit also sees the names of all items (build.cpp declares them all),
// so names resolve as in a whole-file build. A unit's result is cached under
// the hash of its input texts; after an edit only units whose inputs changed
// run again, and the others' ranges move with their inputs. Syntax errors
// (whose messages cite line numbers) and suppression comments are applied to
// the whole file on every call; both are cheap.
#include "cake/document.h"

#include "cake/registry.h"

#include "checks/checks.h"
#include "finish.h"
#include "model/build.h"
#include "model/cst.h"
#include "suppression.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <functional>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace cake {

namespace {

/// One top-level item of the current tree.
struct Item {
  TSSymbol symbol = 0;
  ByteRange piece;        // from the end of the previous item: its leading comments belong to it
  ByteRange body;         // kernels: the body block; empty when absent
  std::string_view name;  // kernels: the name; benches: the kernel named
  ByteRange declared;     // the name it declares (const, kernel, dispatch)
  TSNode node{}, name_node{};
};

/// The text ranges a unit reads, in file order, and their combined hash.
struct Inputs {
  std::vector<ByteRange> ranges;
  uint64_t key = 0;
  size_t bytes = 0;
};

uint64_t mix(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 12) + (seed >> 4));
}

/// Maps offsets of an old version of a unit's inputs to the current one:
/// the inputs have the same texts, so an offset keeps its distance from the
/// start of the input it lies in.
class RangeMap {
 public:
  RangeMap(const std::vector<ByteRange>& from, const std::vector<ByteRange>& to) : from_(from), to_(to) {}

  uint32_t map(uint32_t offset, bool is_end) const {
    // The input holding the offset: [begin, end) for a start, (begin, end] for an end.
    auto it = std::upper_bound(from_.begin(), from_.end(), offset, [&](uint32_t o, const ByteRange& r) {
      return is_end ? o <= r.begin : o < r.begin;
    });
    if (it == from_.begin()) return offset;
    size_t i = static_cast<size_t>(it - from_.begin()) - 1;
    return to_[i].begin + (offset - from_[i].begin);
  }
  ByteRange map(ByteRange r) const {
    uint32_t b = map(r.begin, false);
    return {b, r.end == r.begin ? b : map(r.end, true)};
  }

 private:
  const std::vector<ByteRange>& from_;
  const std::vector<ByteRange>& to_;
};

struct UnitResult {
  std::vector<ByteRange> inputs;  // where the inputs were when it ran
  std::vector<Diagnostic> diagnostics;
  // A report points outside the inputs (say, at the whole of another
  // kernel): its ranges cannot be moved, so the unit runs every time.
  bool volatile_ = false;
};

// At least this many units to run (opening a file, or a change to its
// targets) and they are shared with a second thread.
constexpr size_t kParallelUnits = 16;

bool covered(const std::vector<ByteRange>& inputs, ByteRange r) {
  return std::any_of(inputs.begin(), inputs.end(),
                     [&](const ByteRange& in) { return in.begin <= r.begin && r.end <= in.end; });
}


/// The top-level items of a tree, each with its piece of text.
std::vector<Item> scan_items(const SyntaxTree& tree, std::string_view text) {
  const Cst& c = Cst::get();
  std::vector<Item> items;
  uint32_t previous_end = 0;
  tree.for_each_root([&](TSNode root) {
  for_each_named_child(root, [&](TSNode n) {
    TSSymbol s = ts_node_symbol(n);
    if (s != c.target_item && s != c.const_item && s != c.kernel_item && s != c.dispatch_item && s != c.bench_item)
      return;
    Item item;
    item.symbol = s;
    item.piece = {previous_end, ts_node_end_byte(n)};
    previous_end = item.piece.end;
    if (s == c.kernel_item) {
      TSNode body = child(n, c.f.body);
      if (!ts_node_is_null(body)) item.body = node_range(body);
      item.name = node_text(child(n, c.f.name), text);
    } else if (s == c.bench_item) {
      item.name = node_text(child(n, c.f.kernel), text);
    }
    item.node = n;
    if (s == c.const_item || s == c.kernel_item || s == c.dispatch_item) {
      item.name_node = child(n, c.f.name);
      if (!ts_node_is_null(item.name_node) && !ts_node_is_missing(item.name_node))
        item.declared = node_range(item.name_node);
    }
    items.push_back(item);
  });
  });
  return items;
}

/// The first item declaring each name; mixes the names into `*key`.
NameTable name_table(const std::vector<Item>& items, std::string_view text, uint64_t* key) {
  NameTable names;
  for (const Item& item : items) {
    if (item.declared.end <= item.declared.begin) continue;
    std::string_view name = text.substr(item.declared.begin, item.declared.end - item.declared.begin);
    *key = mix(mix(*key, item.symbol), std::hash<std::string_view>{}(name));
    names.try_emplace(name, GlobalName{item.node, item.name_node});
  }
  return names;
}

}  // namespace

struct UnitCache {
  std::unordered_map<uint64_t, UnitResult> results;
};

/// What one version of the text is made of: its items, their names, and
/// each kernel unit's inputs. Built once per version; diagnostics(),
/// model_at() and kernel_units() share it.
struct Layout {
  std::vector<Item> items;
  NameTable names;
  uint64_t names_key = 0;
  Inputs global;
  ItemSelection global_selection;
  struct KernelInputs {
    size_t item = 0;
    std::vector<size_t> chosen;  // item indices in file order: targets, consts, the kernel, its benches
    Inputs inputs;
  };
  std::vector<KernelInputs> kernels;
  std::vector<KernelUnit> units;  // the public view of `kernels`
  std::optional<std::vector<std::string>> targets;  // Document::targets(), made on first use

  ItemSelection selection(const KernelInputs& k) const {
    ItemSelection s;
    for (size_t i : k.chosen) s.items.push_back({items[i].node, ItemPart::Whole});
    s.names = &names;
    s.bytes = k.inputs.bytes;
    return s;
  }
};

namespace {

void add_input(Inputs& in, ByteRange r, uint64_t tag, uint64_t hash) {
  in.ranges.push_back(r);
  in.key = mix(mix(in.key, tag), hash);
  in.bytes += r.end - r.begin;
}

std::unique_ptr<Layout> make_layout(const SyntaxTree& tree, std::string_view text) {
  const Cst& c = Cst::get();
  auto layout = std::make_unique<Layout>();
  Layout& l = *layout;
  l.items = scan_items(tree, text);
  const std::vector<Item>& items = l.items;
  auto hash_of = [&](ByteRange r) { return std::hash<std::string_view>{}(text.substr(r.begin, r.end - r.begin)); };

  // Every item's name, first occurrence first, for the kernel units.
  l.names_key = items.size();
  l.names = name_table(items, text, &l.names_key);

  // Global unit: every item; kernels as header and closing brace.
  for (const Item& item : items) {
    if (item.symbol == c.kernel_item && item.body.end > item.body.begin) {
      ByteRange header{item.piece.begin, item.body.begin}, tail{item.body.end, item.piece.end};
      add_input(l.global, header, 1, hash_of(header));
      add_input(l.global, tail, 2, hash_of(tail));
    } else {
      add_input(l.global, item.piece, 3, hash_of(item.piece));
    }
    l.global_selection.items.push_back(
        {item.node, item.symbol == c.kernel_item ? ItemPart::Header : ItemPart::Whole});
  }
  l.global.key = mix(l.global.key, items.size());
  l.global_selection.bytes = l.global.bytes;

  // What every kernel unit reads besides its kernel: targets and consts,
  // and the benches naming it. Item texts are hashed once.
  std::vector<size_t> context;
  std::unordered_map<std::string_view, std::vector<size_t>> benches;
  std::vector<uint64_t> piece_hash(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    if (item.symbol == c.target_item || item.symbol == c.const_item) context.push_back(i);
    if (item.symbol == c.bench_item) benches[item.name].push_back(i);
    piece_hash[i] = hash_of(item.piece);
  }
  static const std::vector<size_t> kNoBenches;
  for (size_t k = 0; k < items.size(); ++k) {
    const Item& item = items[k];
    if (item.symbol != c.kernel_item) continue;
    // Inputs in file order: targets, consts, the kernel and its benches.
    // Names of other items resolve through `names` (their texts are in
    // names_key); a report that points at one makes the unit volatile.
    Layout::KernelInputs& unit = l.kernels.emplace_back();
    unit.item = k;
    auto found = benches.find(item.name);
    const std::vector<size_t>& own_benches = found == benches.end() ? kNoBenches : found->second;
    unit.chosen.reserve(context.size() + 1 + own_benches.size());
    std::merge(context.begin(), context.end(), own_benches.begin(), own_benches.end(),
               std::back_inserter(unit.chosen));
    unit.chosen.insert(std::upper_bound(unit.chosen.begin(), unit.chosen.end(), k), k);
    for (size_t i : unit.chosen) add_input(unit.inputs, items[i].piece, items[i].symbol, piece_hash[i]);
    unit.inputs.key = mix(unit.inputs.key, l.names_key);
    l.units.push_back({item.piece, item.declared, item.name, unit.inputs.key});
  }
  return layout;
}

}  // namespace

Document::Document(std::string text, AnalyzeOptions options)
    : options_(std::move(options)), units_(std::make_unique<UnitCache>()) {
  replace(std::move(text));
}

Document::~Document() = default;

void Document::replace(std::string text) {
  text_ = std::move(text);
  lines_ = LineIndex(text_);
  tree_ = SyntaxTree(text_, lines_);
  pending_.reset();
  model_.reset();
  unit_model_.reset();
  layout_.reset();
  diagnostics_.reset();
}

void Document::set_options(AnalyzeOptions options) {
  options_ = std::move(options);
  units_->results.clear();
  diagnostics_.reset();
  if (layout_) layout_->targets.reset();  // the default targets may have changed
}

void Document::apply(const TextEdit& edit) {
  uint32_t size = static_cast<uint32_t>(text_.size());
  uint32_t begin = std::min(edit.range.begin, size);
  uint32_t end = std::clamp(edit.range.end, begin, size);
  text_.replace(begin, end - begin, edit.new_text);
  lines_.replace(text_, begin, end, static_cast<uint32_t>(edit.new_text.size()));
  // What changed since the last parse.
  uint32_t inserted = static_cast<uint32_t>(edit.new_text.size());
  if (!pending_) pending_ = SyntaxTree::Changes::of(begin, end, inserted);
  else pending_->add(begin, end, inserted);
  model_.reset();
  unit_model_.reset();
  layout_.reset();
  diagnostics_.reset();
}

const SyntaxTree& Document::tree() {
  parse_tree({});
  return tree_;
}

bool Document::parse_tree(const std::function<bool()>& cancelled) {
  if (!pending_) return tree_.finish(text_, lines_, cancelled);
  SyntaxTree::Changes changed = std::move(*pending_);
  pending_.reset();
  return tree_.update(text_, lines_, changed, cancelled);
}

const std::vector<std::string>& Document::targets() {
  Layout& l = layout();
  if (!l.targets) {
    // A model of the `target` items alone: the builder is the one place
    // that reads them.
    const Cst& c = Cst::get();
    ItemSelection selection;
    for (const Item& item : l.items)
      if (item.symbol == c.target_item) selection.items.push_back({item.node, ItemPart::Whole});
    selection.names = &l.names;
    Module module;
    std::vector<Diagnostic> ignored;
    build_model(tree(), text_, module, ignored, &selection);
    l.targets = file_targets(module, options_);
  }
  return *l.targets;
}

Layout& Document::layout() {
  if (!layout_) layout_ = make_layout(tree(), text_);
  return *layout_;
}

const std::vector<KernelUnit>& Document::kernel_units() { return layout().units; }

const Module& Document::kernel_model(size_t unit) {
  Layout& l = layout();
  const Layout::KernelInputs& k = l.kernels.at(unit);
  if (!unit_model_ || unit_model_key_ != k.inputs.key || unit_model_range_ != l.items[k.item].piece) {
    ItemSelection selection = l.selection(k);
    unit_model_ = std::make_unique<Module>();
    std::vector<Diagnostic> ignored;
    build_model(tree(), text_, *unit_model_, ignored, &selection);
    unit_model_key_ = k.inputs.key;
    unit_model_range_ = l.items[k.item].piece;
  }
  return *unit_model_;
}

bool Document::kernel_has_errors(size_t unit, const std::vector<Diagnostic>& diagnostics) {
  const Cst& c = Cst::get();
  Layout& l = layout();
  for (size_t i : l.kernels.at(unit).chosen) {
    const Item& item = l.items[i];
    if (i != l.kernels[unit].item && item.symbol != c.bench_item) continue;  // targets and consts
    ByteRange own = node_range(item.node);
    // Diagnostics are sorted by range: the first that starts in `own`, on.
    auto it = std::lower_bound(diagnostics.begin(), diagnostics.end(), own.begin,
                               [](const Diagnostic& d, uint32_t offset) { return d.range.begin < offset; });
    for (; it != diagnostics.end() && it->range.begin < own.end; ++it)
      if (it->severity == Severity::Error && rule_info(it->id).scope != DiagScope::Global) return true;
  }
  return false;
}

const Module& Document::model_at(uint32_t offset) {
  Layout& l = layout();
  // Kernels are in file order: the last one starting at or before `offset`.
  auto it = std::upper_bound(l.kernels.begin(), l.kernels.end(), offset, [&](uint32_t o, const Layout::KernelInputs& k) {
    return o < ts_node_start_byte(l.items[k.item].node);
  });
  if (it != l.kernels.begin()) {
    size_t unit = static_cast<size_t>(it - l.kernels.begin()) - 1;
    if (offset <= l.items[l.kernels[unit].item].piece.end) return kernel_model(unit);
  }
  return model();
}

const Module& Document::model_for(ByteRange range) {
  for (const KernelUnit& u : kernel_units())
    if (u.piece.begin <= range.begin && range.end <= u.piece.end) return model_at(range.begin);
  return model();
}

const Module& Document::model() {
  if (!model_) {
    model_ = std::make_unique<Module>();
    std::vector<Diagnostic> ignored;
    build_model(tree(), text_, *model_, ignored);
  }
  return *model_;
}

std::unique_ptr<Analysis> Document::release() {
  auto a = std::make_unique<Analysis>();
  a->diagnostics = std::move(*diagnostics());
  model();
  // The model and the line index point into the text. Moving a long string
  // keeps its characters where they are; a short one's move, so then both
  // are made again over the Analysis's text.
  const char* before = text_.data();
  a->text = std::move(text_);
  a->tree = std::move(tree_);
  if (a->text.data() == before) {
    a->lines = std::move(lines_);
    a->module = std::move(*model_);
  } else {
    a->lines = LineIndex(a->text);
    std::vector<Diagnostic> ignored;
    build_model(a->tree, a->text, a->module, ignored);
  }
  // Empty, with no tree: replace() makes it a document again.
  pending_.reset();
  text_.clear();
  lines_ = LineIndex(text_);
  model_.reset();
  unit_model_.reset();
  layout_.reset();
  diagnostics_.reset();
  units_->results.clear();
  return a;
}

const std::vector<Diagnostic>* Document::diagnostics(const std::function<bool()>& cancelled) {
  if (!diagnostics_) check(cancelled, nullptr);
  return diagnostics_.get();
}

const std::vector<Diagnostic>& Document::diagnostics_around(uint32_t offset) {
  if (!diagnostics_ && units_->results.empty()) diagnostics();  // a first look: the one pass over the file
  if (diagnostics_) return *diagnostics_;
  around_ = std::move(*check({}, &offset));
  return around_;
}

std::optional<std::vector<Diagnostic>> Document::check(const std::function<bool()>& cancelled, const uint32_t* only) {
  // Parsing the pieces edits touched is part of the work a newer message
  // interrupts (between pieces).
  if (!parse_tree(cancelled)) return std::nullopt;
  const Cst& c = Cst::get();
  std::string_view text = text_;

  Layout& l = layout();
  const std::vector<Item>& items = l.items;

  std::unordered_map<uint64_t, UnitResult> next;
  std::vector<Diagnostic> merged;
  auto in_kernel = [&](uint32_t offset) {
    for (const Item& item : items)  // few kernels; a scan is fine
      if (item.symbol == c.kernel_item && item.piece.begin <= offset && offset < item.piece.end) return true;
    return false;
  };
  // Which unit owns a diagnostic is its rule's Scope (diagnostic_kinds.def):
  // the unit of the item it lies in, the global unit wherever it lies, or both.
  auto global_owns = [&](const Diagnostic& d) {
    switch (rule_info(d.id).scope) {
      case DiagScope::Unit: return !in_kernel(d.range.begin);
      case DiagScope::Global:
      case DiagScope::UnitAndGlobal: return true;
    }
    return true;
  };
  auto kernel_owns = [&](const Layout::KernelInputs& k, const Diagnostic& d) {
    ByteRange own = items[k.item].piece;
    bool inside = own.begin <= d.range.begin && d.range.begin < own.end;
    switch (rule_info(d.id).scope) {
      case DiagScope::Unit:
      case DiagScope::UnitAndGlobal: return inside;
      case DiagScope::Global: return false;
    }
    return false;
  };
  // Keeps a unit's own diagnostics as its result.
  auto keep = [&](const Inputs& in, UnitResult& r, const Diagnostic& d) {
    Diagnostic copy = d;
    for_each_range(copy, [&](ByteRange range) {
      if (!covered(in.ranges, range)) r.volatile_ = true;
      return range;
    });
    r.diagnostics.push_back(std::move(copy));
  };

  bool done = true;
  if (units_->results.empty() && !cancelled) {
    // Nothing to reuse and nobody waiting to cancel (analyze(), a first
    // look): one pass over the whole file, the same diagnostics as the
    // units would make (document_test checks that), shared out to them
    // for the next call. Its model becomes the whole-file model() unless one
    // was built already.
    auto module = std::make_unique<Module>();
    std::vector<Diagnostic> found;
    build_model(tree(), text, *module, found);
    run_checks(*module, options_, found);
    UnitResult& global = next[l.global.key];
    global.inputs = l.global.ranges;
    for (const Diagnostic& d : found)
      if (global_owns(d)) keep(l.global, global, d);
    for (const Layout::KernelInputs& k : l.kernels) {
      // Two units of one key (the same text twice) share a result that
      // fits neither: it is made again next time.
      bool repeated = next.count(k.inputs.key) > 0;
      UnitResult& r = next[k.inputs.key];
      r.volatile_ |= repeated;
      r.inputs = k.inputs.ranges;
      for (const Diagnostic& d : found)
        if (kernel_owns(k, d)) keep(k.inputs, r, d);
    }
    for (const auto& [key, r] : next) merged.insert(merged.end(), r.diagnostics.begin(), r.diagnostics.end());
    // A model() handed out before stays valid: it is of the same text.
    if (!model_) model_ = std::move(module);
  } else {
    // The units: the global one, then each kernel's (with `only`, the one
    // holding it). A unit whose inputs did not change reuses its result.
    struct Job {
      const Inputs* in = nullptr;
      const Layout::KernelInputs* kernel = nullptr;  // null: the global unit
      bool run = false;
      std::optional<UnitResult> result;  // when it ran
    };
    std::vector<Job> jobs;
    jobs.push_back({&l.global, nullptr, false, std::nullopt});
    for (const Layout::KernelInputs& k : l.kernels) {
      ByteRange own = items[k.item].piece;
      if (only && !(own.begin <= *only && *only < own.end)) continue;
      jobs.push_back({&k.inputs, &k, false, std::nullopt});
    }
    std::unordered_map<uint64_t, int> uses;
    for (const Job& j : jobs) ++uses[j.in->key];
    std::vector<size_t> to_run;
    for (size_t i = 0; i < jobs.size(); ++i) {
      Job& j = jobs[i];
      auto cached = units_->results.find(j.in->key);
      // Two units of one key (the same text twice) each run: a result is
      // handed to one unit only.
      j.run = cached == units_->results.end() || cached->second.inputs.size() != j.in->ranges.size() ||
              cached->second.volatile_ || uses[j.in->key] > 1;
      if (j.run) to_run.push_back(i);
    }

    // Runs one unit: its own model and every rule, keeping what it owns.
    // Reads the tree, the text and the layout only, so units can run on
    // two threads at once.
    const SyntaxTree& parsed = tree_;
    auto run = [&](Job& j) {
      UnitResult r;
      r.inputs = j.in->ranges;
      Module module;
      std::vector<Diagnostic> found;
      ItemSelection selection = j.kernel ? l.selection(*j.kernel) : l.global_selection;
      build_model(parsed, text, module, found, &selection);
      run_checks(module, options_, found);
      for (const Diagnostic& d : found)
        if (j.kernel ? kernel_owns(*j.kernel, d) : global_owns(d)) keep(*j.in, r, d);
      j.result = std::move(r);
    };
    // Opening a large file runs every unit: a second thread takes every
    // other one. A newer message stops both between units.
    std::atomic<size_t> taken{0};
    std::atomic<bool> stop{false};
    auto work = [&](bool asks) {
      for (;;) {
        if (stop.load(std::memory_order_relaxed)) return;
        if (asks && cancelled && cancelled()) {
          stop = true;
          return;
        }
        size_t n = taken.fetch_add(1);
        if (n >= to_run.size()) return;
        run(jobs[to_run[n]]);
      }
    };
    if (to_run.size() >= kParallelUnits && std::thread::hardware_concurrency() > 1) {
      std::thread helper(work, false);
      work(true);
      helper.join();
    } else {
      work(true);
    }
    done = !stop;

    if (done) {
      for (Job& j : jobs) {
        UnitResult r = j.run ? std::move(*j.result) : std::move(units_->results.at(j.in->key));
        RangeMap map(r.inputs, j.in->ranges);
        for (const Diagnostic& d : r.diagnostics) {
          Diagnostic moved = d;
          for_each_range(moved, [&](ByteRange range) { return map.map(range); });
          merged.push_back(std::move(moved));
        }
        // The result keeps the positions it was computed at: later maps start there.
        next[j.in->key] = std::move(r);
      }
    } else {
      for (Job& j : jobs)
        if (j.result) next[j.in->key] = std::move(*j.result);
    }
  }
  if (!done || only) {
    // Keep what was computed, for the next call.
    for (auto& [key, result] : next) units_->results.insert_or_assign(key, std::move(result));
    if (!done) return std::nullopt;
  } else {
    units_->results = std::move(next);
  }

  std::vector<Diagnostic> all = syntax_diagnostics(tree(), text, lines_);
  all.insert(all.end(), std::make_move_iterator(merged.begin()), std::make_move_iterator(merged.end()));
  apply_suppressions(tree(), text, lines_, all);
  finish_diagnostics(all);
  if (only) {
    // Of the units around `only`: an allow comment elsewhere looks unused.
    std::erase_if(all, [](const Diagnostic& d) { return d.id == DiagId::UnusedSuppression; });
    return all;
  }
  diagnostics_ = std::make_unique<std::vector<Diagnostic>>(std::move(all));
  return std::nullopt;
}

}  // namespace cake
