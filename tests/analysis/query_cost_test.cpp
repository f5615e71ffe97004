// The editor's cost surfaces (cake/query_cost.h): the summaries DocumentCosts
// caches per kernel unit equal fresh ones after edits anywhere in the file
// (a differential test over the examples), a kernel loses its estimates
// only to errors of its own, hovers on a kernel's name, a pipeline and an op
// carry the model's numbers, and costly lines get hints at their ends. All on the structured summaries; their text is
// tests/server/render_test.cpp's.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/query_cost.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

using namespace cake;

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::filesystem::path> examples() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(CAKE_DOCS_DIR "/examples"))
    if (e.path().extension() == ".cake") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// Every kernel's summary with its hints at absolute offsets.
KernelCosts flatten(const std::vector<DocumentCosts::Entry>& entries) {
  KernelCosts f;
  for (const DocumentCosts::Entry& e : entries) {
    f.lens.insert(f.lens.end(), e.costs->lens.begin(), e.costs->lens.end());
    for (KernelCosts::Hint h : e.costs->hints) {
      h.offset += e.unit->piece.begin;
      f.hints.push_back(h);
    }
  }
  return f;
}

/// A document with its cost cache, estimated for its first target's default
/// device, or for `at` when given.
struct Costed {
  explicit Costed(const std::string& text) : doc(text), at(cost_target(doc.targets(), "")) {}
  Costed(const std::string& text, const CostTarget& target) : doc(text), at(target) {}
  std::vector<DocumentCosts::Entry> kernels() { return costs.kernels(doc, at, *doc.diagnostics()); }
  Document doc;
  DocumentCosts costs;
  CostTarget at;
};

/// What a fresh document of the same text gives for the same target (an
/// edit may break the `target` line, and a fresh document would then pick
/// none: the cache is compared with what it was asked for).
KernelCosts fresh(const std::string& text, const CostTarget& at) { return flatten(Costed(text, at).kernels()); }

uint32_t offset_of(const std::string& text, const std::string& needle, size_t skip = 0) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(at + skip);
}

}  // namespace

TEST_CASE("every example's kernels have a lens per bench, naming the device") {
  for (const auto& path : examples()) {
    Costed c(read(path));
    INFO(path.filename().string());
    REQUIRE(c.at.device);
    auto kernels = c.kernels();
    REQUIRE(kernels.size() == c.doc.kernel_units().size());
    for (const auto& k : kernels) {
      REQUIRE(!k.costs->lens.empty());
      for (const KernelCosts::Lens& lens : k.costs->lens) CHECK(lens.device == c.at.device->id);
    }
  }
}

TEST_CASE("cached summaries equal fresh ones after random edits") {
  std::mt19937 rng(7);
  const std::string snippets[] = {"\n", "// note\n", "x", " ", "\n\n// two lines\n"};
  for (const auto& path : examples()) {
    std::string text = read(path);
    Costed c(text);
    Document& doc = c.doc;
    INFO(path.filename().string());
    REQUIRE(flatten(c.kernels()) == fresh(text, c.at));
    for (int step = 0; step < 12; ++step) {
      // Insert or delete at a line start: comments, blank lines, or a stray
      // character that breaks one kernel.
      uint32_t line = std::uniform_int_distribution<uint32_t>(0, doc.lines().line_count() - 1)(rng);
      uint32_t at_offset = doc.lines().line_start(line);
      TextEdit edit{{at_offset, at_offset}, snippets[rng() % std::size(snippets)]};
      if (rng() % 4 == 0) edit = {{at_offset, std::min<uint32_t>(at_offset + 3, doc.text().size())}, ""};
      doc.apply(edit);
      text = doc.text();
      INFO("step " << step);
      CHECK(flatten(c.kernels()) == fresh(text, c.at));
    }
  }
}

TEST_CASE("an edit in one kernel re-estimates only that kernel") {
  std::string text = read(CAKE_DOCS_DIR "/examples/kmeans_dispatch.cake");
  Document doc(text);
  DocumentCosts costs;
  CostTarget at = cost_target(doc.targets(), "");
  auto before = costs.kernels(doc, at, *doc.diagnostics());
  REQUIRE(before.size() >= 2);
  // A comment inside the last kernel's body: the others keep their summaries.
  ByteRange last = before.back().unit->piece;
  uint32_t inside = doc.lines().line_start(doc.lines().position(last.end).line);
  doc.apply({{inside, inside}, "  // edited\n"});
  auto after = costs.kernels(doc, at, *doc.diagnostics());
  REQUIRE(after.size() == before.size());
  for (size_t i = 0; i + 1 < after.size(); ++i) CHECK(after[i].costs == before[i].costs);
}

TEST_CASE("hovers carry the model's numbers") {
  std::string text = read(CAKE_DOCS_DIR "/examples/hopper_gemm.cake");
  auto a = analyze(text);
  auto hover = [&](const std::string& needle, size_t skip) {
    return cost_hover(a->module, a->text, a->lines, offset_of(text, needle, skip), "");
  };
  auto e = estimate_kernel(*a, 0, "sm_90a", *find_device("h100"));
  REQUIRE(e.front().ok);

  auto kernel = hover("hopper_gemm(", 2);
  REQUIRE(kernel);
  const auto* table = std::get_if<KernelCostHover>(&kernel->what);
  REQUIRE(table);
  REQUIRE(!table->estimates.empty());
  CHECK(table->estimates.front().time_us == e.front().time_us);
  CHECK(table->estimates.front().device->id == std::string_view("H100-SXM5-80GB"));
  CHECK(table->table_version == e.front().device->version);
  REQUIRE(table->roofline);
  CHECK(table->roofline->target == "sm_90a");
  CHECK(table->roofline->has_ratio);
  CHECK(!table->roofline->achieved.empty());

  auto pipeline = hover("pipeline s in ring(4)", 2);
  REQUIRE(pipeline);
  const auto* ring = std::get_if<PipelineCostHover>(&pipeline->what);
  REQUIRE(ring);
  CHECK(ring->ring.iteration_us == e.front().rings.front().iteration_us);
  CHECK(ring->ring.stages == 4);

  auto op = hover("wgmma acc +=", 1);
  REQUIRE(op);
  const auto* line = std::get_if<LineCostHover>(&op->what);
  REQUIRE(line);
  CHECK(line->line.resource == Resource::Tensor);
  CHECK(line->op == "wgmma");
  CHECK(line->line.line == a->lines.position(offset_of(text, "wgmma acc +=")).line + 1);

  CHECK(!hover("target", 1));  // outside every kernel
  // Another device when asked for one that runs the target.
  auto h200 = cost_hover(a->module, a->text, a->lines, offset_of(text, "hopper_gemm(", 2), "h200");
  REQUIRE(h200);
  const auto* h200_table = std::get_if<KernelCostHover>(&h200->what);
  REQUIRE(h200_table);
  REQUIRE(!h200_table->estimates.empty());
  CHECK(h200_table->estimates.front().device->id == std::string_view("H200-SXM-141GB"));
}

TEST_CASE("costly lines get a hint at their end with their share") {
  std::string text = read(CAKE_DOCS_DIR "/examples/hopper_gemm.cake");
  Document doc(text);
  DocumentCosts costs;
  auto kernels = costs.kernels(doc, cost_target(doc.targets(), ""), *doc.diagnostics());
  REQUIRE(kernels.size() == 2);  // hopper_gemm and its reference, hopper_gemm_ref
  REQUIRE(kernels[0].unit->kernel == "hopper_gemm");
  uint32_t wgmma_line = doc.lines().position(offset_of(text, "wgmma acc +=")).line;
  bool found = false;
  for (const KernelCosts::Hint& h : kernels[0].costs->hints) {
    uint32_t at = kernels[0].unit->piece.begin + h.offset;
    LineCol pos = doc.lines().position(at);
    CHECK(pos.column == doc.lines().line_text(pos.line).size());  // at the end of its line
    CHECK(!h.per_iteration);  // a share of the kernel's time
    CHECK(h.time_us >= kCostlyLineShare * h.kernel_us);
    if (pos.line == wgmma_line) found = h.resource == Resource::Tensor;
  }
  CHECK(found);
}

TEST_CASE("only a kernel with errors of its own loses its estimates (issue 16)") {
  // kmeans_dispatch.cake: four kernels and their benches. Breaking one
  // kernel, or the file around them, leaves the others' summaries as they
  // were with no error at all.
  std::string clean = read(CAKE_DOCS_DIR "/examples/kmeans_dispatch.cake");
  auto summaries = [](const std::string& text) {
    Costed c(text);
    std::vector<std::pair<std::string, KernelCosts>> out;
    for (const DocumentCosts::Entry& e : c.kernels()) out.emplace_back(std::string(e.unit->kernel), *e.costs);
    return out;
  };
  auto clean_summaries = summaries(clean);
  REQUIRE(clean_summaries.size() == 4);
  const std::string broken_kernel = clean_summaries[1].first;
  size_t body = clean.find("kernel " + broken_kernel + "(");
  REQUIRE(body != std::string::npos);
  body = clean.find("{\n", body) + 2;

  struct Case {
    const char* what;
    std::string text;
    bool kernel_broken;  // clean_summaries[1] has an error of its own
  };
  std::vector<Case> cases = {
      {"an undefined name in one kernel", std::string(clean).insert(body, "  wait no_such_barrier parity(0)\n"), true},
      {"a syntax error in one kernel", std::string(clean).insert(body, "  @@@\n"), true},
      {"junk between items", std::string(clean).insert(clean.find("\nkernel " + broken_kernel + "("), "\n@@@\n"),
       false},
      {"a repeated target line", std::string(clean).insert(clean.find("\n", clean.find("target ")) + 1, "target sm_90a\n"),
       false},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto a = analyze(c.text);
    REQUIRE(count(a->diagnostics).errors > 0);
    auto got = summaries(c.text);
    REQUIRE(got.size() == clean_summaries.size());
    for (size_t i = 0; i < got.size(); ++i) {
      INFO(got[i].first);
      if (c.kernel_broken && got[i].first == broken_kernel) {
        REQUIRE(got[i].second.lens.size() == 1);  // one lens that says why, no hints
        CHECK(!got[i].second.lens[0].ok);
        CHECK(got[i].second.lens[0].problem == kNotEstimatedWithErrors);
        CHECK(got[i].second.hints.empty());
        continue;
      }
      CHECK(got[i].second.lens == clean_summaries[i].second.lens);
      CHECK(got[i].second.hints.size() == clean_summaries[i].second.hints.size());
    }
  }
}
