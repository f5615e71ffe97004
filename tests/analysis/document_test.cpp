// Document (piecewise reparse + diagnostics by units) against analyze() of
// the same text: the tree and every diagnostic must be identical, on the
// examples and test files as they are and after random edit sequences
// (a differential test with a fixed seed, so a failure replays).
#include <catch2/catch.hpp>

#include "cake/document.h"
#include "support/kernel_gen.h"
#include "support/test_files.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace {

std::string render(const std::vector<cake::Diagnostic>& diagnostics) {
  std::ostringstream out;
  for (const cake::Diagnostic& d : diagnostics) {
    out << static_cast<int>(d.id) << " " << static_cast<int>(d.severity) << " [" << d.range.begin << "," << d.range.end
        << ") " << d.message << "\n";
    for (const cake::RelatedSpan& r : d.related) out << "  related [" << r.range.begin << "," << r.range.end << ") " << r.message << "\n";
    for (const cake::Fix& f : d.fixes) {
      out << "  fix " << f.title << (f.preferred ? " (preferred)" : "") << "\n";
      for (const cake::TextEdit& e : f.edits) out << "    [" << e.range.begin << "," << e.range.end << ") " << e.new_text << "\n";
    }
    for (const std::string& t : d.targets) out << "  target " << t << "\n";
  }
  return out.str();
}

std::string tree_string(const cake::SyntaxTree& tree) {
  std::string out;
  for (const cake::SyntaxTree::Piece& p : tree.pieces()) {
    char* s = ts_node_string(ts_tree_root_node(p.tree.get()));
    out += "[" + std::to_string(p.range.begin) + "," + std::to_string(p.range.end) + ") " + s + "\n";
    std::free(s);
  }
  return out;
}

std::vector<std::filesystem::path> inputs() {
  return cake::test::list_files({CAKE_EXAMPLES_DIR, std::filesystem::path(CAKE_TESTS_DIR) / "diagnostics"}, {".cake"});
}

/// The same text analysed from scratch.
void check_same(cake::Document& doc, const std::string& context) {
  if (const char* dump = std::getenv("CAKE_DOC_DUMP")) {  // the text of the last check, to replay a failure
    std::ofstream(dump, std::ios::binary) << doc.text();
  }
  auto fresh = cake::analyze(doc.text());
  INFO(context);
  REQUIRE(tree_string(doc.tree()) == tree_string(fresh->tree));
  const std::vector<cake::Diagnostic>* incremental = doc.diagnostics();
  REQUIRE(incremental != nullptr);
  REQUIRE(render(*incremental) == render(fresh->diagnostics));
}

// Fragments an engineer types: brackets, keywords, whole statements, a
// suppression comment, a new kernel header, a line break.
const char* const kFragments[] = {
    "}", "{", "(", ")", "[", "]", "\n", " ", "x", "0", "128", ",", ":", "..",
    "kernel k2(A: global f32[N]) grid (1) block 128 {\n}\n",
    "  wait full[s] parity(s.phase)\n", "  syncthreads\n", "  arrive empty[s]\n",
    "  let t = 4\n", "const C = 8\n", "bench k { N = 256 }\n", "// cake: allow(CAKE-W0091)\n",
    "/*", "*/", "elect {", "role r warp(0 .. 3) {", "smem q: f32[64]\n", "target sm_80\n"};

/// Calls fn(path, document) for each input file.
template <typename Fn>
void for_each_document(Fn&& fn) {
  auto files = inputs();
  REQUIRE(!files.empty());
  for (const auto& path : files) {
    auto text = cake::test::read_file(path);
    REQUIRE(text);
    cake::Document doc(*text);
    fn(path, doc);
  }
}

}  // namespace

TEST_CASE("a document analyses exactly as analyze() does") {
  for_each_document([](const std::filesystem::path& path, cake::Document& doc) { check_same(doc, path.string()); });
}

TEST_CASE("random edit sequences keep tree and diagnostics equal to a full reparse") {
  // CAKE_DOC_SEED and CAKE_DOC_STEPS run other or longer sequences.
  const char* seed = std::getenv("CAKE_DOC_SEED");
  const char* steps = std::getenv("CAKE_DOC_STEPS");
  std::mt19937 rng(seed ? std::strtoul(seed, nullptr, 10) : 20261202);
  const int step_count = steps ? std::atoi(steps) : 40;
  for_each_document([&](const std::filesystem::path& path, cake::Document& doc) {
    (void)doc.diagnostics();  // warm the caches, as an editor does on open
    for (int step = 0; step < step_count; ++step) {
      const std::string& now = doc.text();
      uint32_t size = static_cast<uint32_t>(now.size());
      uint32_t at = size ? std::uniform_int_distribution<uint32_t>(0, size)(rng) : 0;
      cake::TextEdit edit;
      switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
        case 0: {  // delete a few bytes
          uint32_t n = std::uniform_int_distribution<uint32_t>(1, 12)(rng);
          edit.range = {at, std::min(size, at + n)};
          break;
        }
        case 1: {  // insert a fragment
          edit.range = {at, at};
          edit.new_text = kFragments[std::uniform_int_distribution<size_t>(0, std::size(kFragments) - 1)(rng)];
          break;
        }
        case 2: {  // replace a word-sized span with a fragment
          uint32_t n = std::uniform_int_distribution<uint32_t>(1, 6)(rng);
          edit.range = {at, std::min(size, at + n)};
          edit.new_text = kFragments[std::uniform_int_distribution<size_t>(0, std::size(kFragments) - 1)(rng)];
          break;
        }
        default: {  // duplicate the line at `at`
          uint32_t b = at, e = at;
          while (b > 0 && now[b - 1] != '\n') --b;
          while (e < size && now[e] != '\n') ++e;
          edit.range = {b, b};
          edit.new_text = now.substr(b, e - b) + "\n";
          break;
        }
      }
      doc.apply(edit);
      // Analyse after most edits; sometimes let edits pile up, as when typing fast.
      if (step % 3 != 1)
        check_same(doc, path.string() + " after step " + std::to_string(step) + ", edit at " +
                            std::to_string(edit.range.begin) + ".." + std::to_string(edit.range.end) + " -> \"" +
                            edit.new_text + "\"");
    }
  });
}

TEST_CASE("a cancelled analysis returns nothing and the next call completes") {
  auto files = inputs();
  REQUIRE(!files.empty());
  auto text = cake::test::read_file(files.front());
  REQUIRE(text);
  cake::Document doc(*text);
  int calls = 0;
  CHECK(doc.diagnostics([&] { return ++calls > 1; }) == nullptr);
  check_same(doc, "after a cancelled run");
}

TEST_CASE("units shared with a second thread give the same diagnostics, cancelled or not") {
  // Enough kernels (and text) that the units run on two threads and the
  // pieces are parsed by two; some kernels broken, so diagnostics come
  // from many units.
  std::string text = cake::test::kmeans_file(12000);
  for (size_t at = text.find("kernel "), n = 0; at != std::string::npos; at = text.find("kernel ", at + 1), ++n)
    if (n % 7 == 3) text.insert(text.find('{', at) + 1, "\n  wait nowhere[0] parity(0)\n");
  REQUIRE(text.size() >= 256 * 1024);
  {
    cake::Document doc(text);
    const std::vector<cake::Diagnostic>* first = doc.diagnostics([] { return false; });  // by units
    REQUIRE(first != nullptr);
    CHECK_FALSE(first->empty());
    check_same(doc, "units on two threads");
  }
  // Only one thread asks between units, so how often it asks depends on
  // how many units the other took: a run whose question came after the last
  // unit finishes, and gives its diagnostics. A run told to stop returns
  // none. Either way the next run gives the same diagnostics as a fresh one.
  int cancelled_runs = 0;
  for (int stop_after : {1, 5, 40}) {
    cake::Document doc(text);
    std::atomic<int> calls = 0;  // asked from both threads
    std::atomic<bool> told = false;
    const std::vector<cake::Diagnostic>* got = doc.diagnostics([&] {
      if (++calls <= stop_after) return false;
      told = true;
      return true;
    });
    INFO("stop after " << stop_after << " calls, asked " << calls.load());
    CHECK((got == nullptr) == told.load());
    cancelled_runs += got == nullptr;
    check_same(doc, "after a run cancelled at call " + std::to_string(stop_after));
  }
  CHECK(cancelled_runs >= 1);
}
