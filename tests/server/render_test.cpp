// The editor surfaces as text (server/render/): the number formatter, code
// lens titles and inlay hint labels from hand-made summaries (exact
// strings), hover markdown from hand-made and real hovers, and the cost
// hover of docs/examples/hopper_gemm.cake carrying the model's numbers.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/device.h"
#include "render/render.h"
#include "render/units.h"

#include <fstream>
#include <iterator>
#include <string>

using namespace cake;
using namespace cake::render;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

uint32_t offset_of(const std::string& text, const std::string& needle, size_t skip = 0) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(at + skip);
}

}  // namespace

TEST_CASE("the number formatter spells units for editors and terminals", "[render]") {
  CHECK(fixed_number(41.234, 1) == "41.2");
  CHECK(micros(41.234, 1) == "41.2 µs");
  CHECK(micros(0.41234, 3, Units::Terminal) == "0.412 us");
  CHECK(percent(78.4) == "78 %");
  CHECK(percent(78.4, Units::Terminal) == "78%");
  CHECK(bytes(65536) == "65536 B (64 KB)");
  CHECK(bytes(1000) == "1000 B");
  CHECK(amount(1.5e6, "B") == "1.5 MB");
  CHECK(amount(2.5e12, "FLOP") == "2.5 TFLOP");
  CHECK(amount(12, "FLOP") == "12 FLOP");
  CHECK(amount(0.5, "B") == "0.5 B");
  CHECK(shape_text({{"M", 4096}, {"N", 128}}) == "M=4096, N=128");
  CHECK(shape_text({{"M", 4096}, {"N", 128}}, " ") == "M=4096 N=128");
  CHECK(bound_text(Bound::Hbm, 0.78) == "hbm-bound 78 %");
  CHECK(bound_text(Bound::Latency, 0.5) == "latency-bound");
  CHECK(ring_bound(true, Resource::Tensor) == "latency");
  CHECK(ring_bound(false, Resource::Tensor) == "tensor");
}

TEST_CASE("lens titles and hint labels", "[render]") {
  KernelCosts::Lens lens;
  lens.ok = true;
  lens.time_us = 41.23;
  lens.bound = Bound::Hbm;
  lens.utilisation = 0.781;
  lens.device = "H100-SXM5-80GB";
  lens.shape = {{"N", 4096}};
  CHECK(lens_title(lens) == "≈ 41.2 µs · hbm-bound 78 % · H100-SXM5-80GB · N=4096");
  lens.shape.clear();
  lens.bound = Bound::Latency;
  CHECK(lens_title(lens) == "≈ 41.2 µs · latency-bound · H100-SXM5-80GB");

  KernelCosts::Lens none;
  none.device = "A100-SXM4-80GB";
  none.problem = "no bench";
  CHECK(lens_title(none) == "cost: no bench · A100-SXM4-80GB");
  none.iteration_us = 0.41234;
  CHECK(lens_title(none) == "≈ 0.412 µs per iteration (no bench) · A100-SXM4-80GB");

  KernelCosts::Hint line;
  line.time_us = 12.5;
  line.kernel_us = 40;
  line.resource = Resource::Tensor;
  // Every hint says what its figure is (issue 16: "= 0 64 KB").
  CHECK(hint_label(line) == "time ≈ 12.5 µs on tensor · 31 % of kernel");
  KernelCosts::Hint ring;
  ring.per_iteration = true;
  ring.time_us = 0.41234;
  ring.resource = Resource::Smem;
  CHECK(hint_label(ring) == "time ≈ 0.412 µs per iteration · smem-bound");
  ring.latency_bound = true;
  CHECK(hint_label(ring) == "time ≈ 0.412 µs per iteration · latency-bound");

  InlayHintInfo size{.kind = InlayHintInfo::Kind::Size, .name = "acc", .bytes = 65536};
  CHECK(hint_label(size) == "size 64 KB");
  size.bytes = 1536;
  CHECK(hint_label(size) == "size 1536 B");
  size.bytes = 49152;
  size.per_stage = 16384;
  CHECK(hint_label(size) == "size 48 KB, 16 KB per stage");
  InlayHintInfo stage{.kind = InlayHintInfo::Kind::Stage, .name = "s", .stages = 4};
  CHECK(hint_label(stage) == ": stage 0..3, phase s.phase");
  stage.stages.reset();
  CHECK(hint_label(stage) == ": stage, phase s.phase");
}

TEST_CASE("hover markdown: title, facts, op support, diagnostics", "[render]") {
  HoverInfo h;
  h.subject.emplace();
  HoverSubject& s = *h.subject;
  s.name = "sA";
  s.what = "shared-memory buffer";
  HoverFact type;
  type.label = "type";
  type.kind = HoverFact::Kind::Code;
  type.text = "bf16";
  HoverFact shape;
  shape.label = "shape";
  shape.kind = HoverFact::Kind::Shape;
  shape.text = "[128, 64]";
  shape.stages = "[4]";
  HoverFact size;
  size.label = "size";
  size.kind = HoverFact::Kind::Bytes;
  size.number = 65536;
  size.per_stage = 16384;
  HoverFact value;
  value.label = "value";
  value.kind = HoverFact::Kind::Expr;
  value.text = "32 * 2";
  value.number = 64;
  HoverFact placed;
  placed.label = "placed";
  placed.kind = HoverFact::Kind::Placement;
  placed.slot = {65536, 4, 16384, 1024, 0, false};
  placed.total = 66560;
  placed.targets = {"sm_90a", "sm_100a"};
  s.facts = {type, shape, size, value, placed};
  CHECK(hover_markdown(h) ==
        "**sA**: shared-memory buffer\n\n- type: `bf16`\n- shape: [4] stages of [128, 64]\n"
        "- size: 65536 B (64 KB), 16384 B (16 KB) per stage\n- value: `32 * 2` = 64\n"
        "- placed: 65536 B (64 KB) (4 stages of 16384 B), 1024-byte aligned, at offset 0 of the kernel's 66560 B "
        "on `sm_90a`, `sm_100a`");

  // A diagnostic: its rule, not its message (the editor shows that beside the hover).
  h.diagnostics.push_back({"E0301", "shared memory over the limit"});
  CHECK_THAT(hover_markdown(h), Catch::EndsWith("\n\n---\n\n**E0301**: shared memory over the limit"));
  h.subject.reset();
  CHECK(hover_markdown(h) == "**E0301**: shared memory over the limit");
  auto rule = [](std::string_view code) { return RuleText{"It needs more.", "file:///d/rules/" + std::string(code) + ".md"}; };
  CHECK(hover_markdown(h, rule) ==
        "**E0301**: shared memory over the limit\n\nIt needs more.\n\n[The rule's page](file:///d/rules/E0301.md)");

  HoverInfo op;
  op.subject.emplace();
  op.subject->kind = HoverSubject::Kind::Op;
  op.subject->name = "wgmma.fence";
  op.subject->summary = "orders register accesses before wgmma";
  op.subject->feature = "wgmma";
  op.subject->supported = {"sm_90a"};
  op.subject->unsupported = {"sm_80"};
  CHECK(hover_markdown(op) == "**wgmma.fence**\n\norders register accesses before wgmma\n\nNeeds wgmma. Supported on "
                              "`sm_90a`. **Not supported** on `sm_80`.");
  op.subject->feature.reset();
  op.subject->form = "n";
  CHECK(hover_markdown(op) == "**wgmma.fence** `n`\n\norders register accesses before wgmma\n\nAvailable on every target.");
}

TEST_CASE("cost hovers carry the model's numbers", "[render]") {
  std::string text = read(CAKE_EXAMPLES_DIR "/hopper_gemm.cake");
  auto a = analyze(text);
  auto hover = [&](const std::string& needle, size_t skip) {
    auto h = cost_hover(a->module, a->text, a->lines, offset_of(text, needle, skip), "");
    REQUIRE(h);
    return cost_hover_markdown(*h);
  };
  auto e = estimate_kernel(*a, 0, "sm_90a", *find_device("h100"));
  REQUIRE(e.front().ok);

  std::string kernel = hover("hopper_gemm(", 2);
  CHECK_THAT(kernel, Catch::StartsWith("**Estimated cost** (table "));
  CHECK_THAT(kernel, Catch::Contains("| target | device | bench | time | bound | occupancy | waves |\n|---|"));
  CHECK_THAT(kernel, Catch::Contains("| sm_90a | H100-SXM5-80GB | "));
  CHECK_THAT(kernel, Catch::Contains(micros(e.front().time_us, 1)));
  CHECK_THAT(kernel, Catch::Contains("\nRoofline (sm_90a"));

  std::string pipeline = hover("pipeline s in ring(4)", 2);
  CHECK_THAT(pipeline, Catch::StartsWith("**Per iteration** (sm_90a on H100-SXM5-80GB"));
  CHECK_THAT(pipeline, Catch::Contains(micros(e.front().rings.front().iteration_us, 3)));
  CHECK_THAT(pipeline, Catch::Contains("\n\n- 4 stages"));
  CHECK_THAT(pipeline, Catch::Contains("\n\nDemand per iteration:\n- "));
  CHECK_THAT(pipeline, Catch::Contains("\n- roofline: " + micros(e.front().rings.front().roofline_us, 3) + " (" + std::string(resource_name(e.front().rings.front().bound)) + ")"));
  // The closed network's view: each role's warps, what one holds, its round.
  CHECK_THAT(pipeline, Catch::Contains("\n\nEach role's warps per iteration"));
  CHECK_THAT(pipeline, Catch::Contains("\n- `producer` (4 warps): issue "));
  CHECK_THAT(pipeline, Catch::Contains("\n- `consumer` (8 warps): tensor "));

  std::string op = hover("wgmma acc +=", 1);
  CHECK_THAT(op, Catch::StartsWith("**Cost of line "));
  CHECK_THAT(op, Catch::Contains("(`wgmma`, sm_90a on H100-SXM5-80GB"));
  CHECK_THAT(op, Catch::Contains(" of tensor alone, "));
  CHECK_THAT(op, Catch::Contains("\n\nDemand:\n- "));
}
