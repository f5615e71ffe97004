// KernelFacts (analysis/include/cake/kernel_facts.h): one shared-memory layout
// per kernel × target, read by E0301, the cost model's occupancy, W0705 and
// the hover. The regression of issue 11 (E0301 said 307200 bytes while W0705
// said 151 KB; with 200 stages the estimate fitted 2 CTAs where E0301's
// layout, 204800 B, fits one), the layout's own invariants, and a property
// over generated kernels: wherever E0301, W0705, the estimate's occupancy
// and the hover state a kernel's shared memory, they state the same number,
// and E0301 fires exactly when that number is over the target's limit.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/arch.h"
#include "cake/cost.h"
#include "cake/device.h"
#include "cake/query_hover.h"
#include "cake/kernel_facts.h"
#include "support/kernel_gen.h"

#include <algorithm>
#include <random>
#include <regex>
#include <string>

using namespace cake;

namespace {

/// The first number after `prefix` in `text`, or -1.
int64_t number_after(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stoll(m[1].str());
}

bool concerns(const Diagnostic& d, std::string_view target) {
  return d.targets.empty() || std::find(d.targets.begin(), d.targets.end(), target) != d.targets.end();
}

/// E0301's bytes on `target`, or -1 when it does not fire there.
int64_t e0301_bytes(const Analysis& a, std::string_view target) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.id == DiagId::SmemOverLimit && concerns(d, target)) return number_after(d.message, "needs (\\d+) bytes");
  return -1;
}

/// W0705's shared-memory bytes on `target`, or -1 when it does not fire there with that limiter.
int64_t w0705_bytes(const Analysis& a, std::string_view target) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.id == DiagId::SingleCtaPerSm && concerns(d, target))
      return number_after(d.message, "shared memory \\((\\d+) bytes of buffers");
  return -1;
}

/// The estimate's occupancy input: the shared memory it fits on the SM.
int64_t estimate_bytes(const Analysis& a, std::string_view target) {
  const DeviceInfo* device = default_device(target);
  REQUIRE(device != nullptr);
  std::vector<Estimate> e = estimate_kernel(a, 0, target, *device);
  REQUIRE(!e.empty());
  return e.front().occupancy.smem_buffers;
}

/// The hover on the kernel's name: the total it gives for `target`, or -1.
int64_t hover_bytes(const Analysis& a, std::string_view target) {
  const Kernel& k = a.module.kernels[0];
  REQUIRE(k.symbol != kNone);
  auto h = hover_at(a.module, a.text, a.diagnostics, a.module.symbols[k.symbol].def.begin);
  REQUIRE(h);
  REQUIRE(h->subject);
  for (const HoverFact& f : h->subject->facts)
    if (f.kind == HoverFact::Kind::LayoutTotal && std::find(f.targets.begin(), f.targets.end(), target) != f.targets.end())
      return f.number.value_or(-1);
  return -1;
}

int64_t per_block_limit(const TargetInfo& t) {
  int64_t limit = t.smem_per_block_optin.value;
  if (t.smem_per_sm.known() && t.smem_reserved_per_block.known())
    limit = std::min(limit, t.smem_per_sm.value - t.smem_reserved_per_block.value);
  return limit;
}

const SmemLayout& layout(const Analysis& a, std::string_view target) {
  static std::vector<std::unique_ptr<KernelFacts>> keep;  // the facts outlive the call
  keep.push_back(std::make_unique<KernelFacts>(a.module, 0));
  return keep.back()->on(*find_target(target)).smem;
}

/// The issue's kernel: one swizzled ring of `stages` 512-byte tiles (each
/// padded to the 1024-byte swizzle repeat) and one role that reads global
/// memory, so that one CTA per SM gets W0705.
std::string issue_kernel(int stages, std::string_view targets = "sm_90a") {
  return "target " + std::string(targets) + R"(
kernel fat(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  smem s: bf16[)" + std::to_string(stages) + R"(][4, 64] swizzle(128B)
  role all_in_one all {
    reg x: f32[32, 64] layout(mma_acc)
    load x <- X[block.x * 32 : 32, :]
  }
}
bench fat { N = 16896 }
)";
}

}  // namespace

TEST_CASE("issue 11: E0301, W0705 and the estimate read one layout", "[facts]") {
  SECTION("300 stages: E0301's 307200 bytes, and no estimate that fits it") {
    auto a = analyze(issue_kernel(300));
    CHECK(e0301_bytes(*a, "sm_90a") == 307200);
    CHECK(layout(*a, "sm_90a").total == 307200);
    CHECK(estimate_bytes(*a, "sm_90a") == 307200);
    CHECK(w0705_bytes(*a, "sm_90a") == -1);  // it said "151 KB" before
    CHECK(hover_bytes(*a, "sm_90a") == 307200);
  }
  SECTION("200 stages: the file is clean of E0301, and one CTA fits per SM") {
    auto a = analyze(issue_kernel(200));
    CHECK(e0301_bytes(*a, "sm_90a") == -1);
    CHECK(estimate_bytes(*a, "sm_90a") == 204800);
    std::vector<Estimate> e = estimate_kernel(*a, 0, "sm_90a", *default_device("sm_90a"));
    CHECK(e.front().occupancy.ctas_per_sm == 1);  // it said 2 before
    CHECK(e.front().occupancy.limiter == "smem");
    CHECK(w0705_bytes(*a, "sm_90a") == 204800);
    CHECK(hover_bytes(*a, "sm_90a") == 204800);
  }
  SECTION("E0301 on one target and W0705 on another give the same bytes") {
    auto a = analyze(issue_kernel(200, "sm_80, sm_90a"));
    CHECK(e0301_bytes(*a, "sm_80") == 204800);
    CHECK(w0705_bytes(*a, "sm_90a") == 204800);
    CHECK(estimate_bytes(*a, "sm_90a") == 204800);
    CHECK(estimate_bytes(*a, "sm_80") == 204800);
  }
}

TEST_CASE("the layout: aligned slots, placed without overlap, the total their end", "[facts]") {
  auto a = analyze(R"(target sm_90a
kernel k(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  mbarrier full[3]
  smem plain: f32[3][10]
  smem tile: bf16[2][4, 64] swizzle(128B)
  mbarrier one
  smem small: bf16[64, 32] swizzle(64B)
}
)");
  const SmemLayout& l = layout(*a, "sm_90a");
  REQUIRE(l.slots.size() == 5);
  // In declaration order, with the one formula's bytes.
  CHECK(l.slots[0].barrier);
  CHECK(l.slots[0].bytes == 24);
  CHECK(l.slots[1].bytes == 128);  // 3 × 40 B, rounded up to 16
  CHECK(l.slots[1].stride == 40);
  CHECK(l.slots[2].bytes == 2048);  // 2 stages of 512 B, each padded to 1024
  CHECK(l.slots[2].stride == 1024);
  CHECK(l.slots[2].align == 1024);
  CHECK(l.slots[3].bytes == 8);
  CHECK(l.slots[4].bytes == 4096);
  int64_t end = 0, sum = 0;
  for (const SmemSlot& s : l.slots) {
    CHECK(s.offset % s.align == 0);
    for (const SmemSlot& o : l.slots)
      if (&o != &s) CHECK((s.offset + s.bytes <= o.offset || o.offset + o.bytes <= s.offset));
    end = std::max(end, s.offset + s.bytes);
    sum += s.bytes;
  }
  CHECK(l.total == end);
  CHECK(l.total == sum);
  CHECK(l.total == 24 + 128 + 2048 + 8 + 4096);
}

TEST_CASE("a tmem buffer takes the 4 bytes its allocation writes its address to", "[facts]") {
  auto a = analyze(R"(target sm_100a
kernel k(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {
  tmem acc: f32[128, 64]
  mbarrier done
  smem tile: bf16[128, 64] swizzle(128B)
  tmem other: f32[128, 32]
}
)");
  const SmemLayout& l = layout(*a, "sm_100a");
  REQUIRE(l.slots.size() == 4);
  CHECK(l.slots[0].tmem_address);
  CHECK(l.slots[0].bytes == 4);
  CHECK_FALSE(l.slots[1].tmem_address);
  CHECK(l.slots[3].tmem_address);
  // Placed last (the smallest alignment), after the tile and the barrier.
  CHECK(l.slots[0].offset == 16384 + 8);
  CHECK(l.slots[3].offset == 16384 + 8 + 4);
  CHECK(l.total == 16384 + 8 + 4 + 4);
}

TEST_CASE("generated kernels: E0301, W0705, the estimate and the hover agree on the bytes", "[facts]") {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::vector<std::string> all_targets = {"sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a"};
  const char* dtypes[] = {"bf16", "f16", "f32", "u8"};
  const int dtype_bytes[] = {2, 2, 4, 1};
  const char* swizzles[] = {"", " swizzle(32B)", " swizzle(64B)", " swizzle(128B)"};
  const int swizzle_row[] = {0, 32, 64, 128};
  int e0301 = 0, w0705 = 0, cases = 0;
  auto check_file = [&](const std::string& text, const std::vector<std::string>& targets) {
    ++cases;
    INFO(text);
    auto a = analyze(text);
    REQUIRE(a->module.kernels.size() >= 1);
    for (const std::string& t : targets) {
      INFO("target " << t);
      const TargetInfo* info = find_target(t);
      REQUIRE(info);
      const SmemLayout& l = layout(*a, t);
      if (!l.complete) continue;
      int64_t bytes = l.total;
      int64_t over = e0301_bytes(*a, t);
      if (bytes > per_block_limit(*info)) {
        CHECK(over == bytes);
        ++e0301;
      } else {
        CHECK(over == -1);
      }
      CHECK(estimate_bytes(*a, t) == bytes);
      if (int64_t w = w0705_bytes(*a, t); w != -1) {
        CHECK(w == bytes);
        ++w0705;
      }
      if (!l.slots.empty()) CHECK(hover_bytes(*a, t) == bytes);
    }
  };
  // The generator of the benchmarks (a warp-specialised ring), at many depths.
  for (int stages : {1, 2, 3, 4, 8, 16, 40, 100})
    check_file("target sm_90a, sm_100a\n" + test::kmeans_kernel("k", stages), {"sm_90a", "sm_100a"});
  // Random buffers, rings and barriers in a single-role kernel that reads
  // global memory (so that one CTA per SM gets W0705).
  for (int i = 0; i < 150; ++i) {
    std::vector<std::string> targets;
    for (const std::string& t : all_targets)
      if (pick(0, 2) == 0) targets.push_back(t);
    if (targets.empty()) targets.push_back(all_targets[static_cast<size_t>(pick(0, 4))]);
    std::string text = "target ";
    for (size_t t = 0; t < targets.size(); ++t) text += (t ? ", " : "") + targets[t];
    text += "\nkernel g(X: global f32[N, 64]) where N % 128 == 0 grid (N / 128) block 128 {\n";
    int buffers = pick(1, 4);
    for (int b = 0; b < buffers; ++b) {
      int d = pick(0, 3), sw = pick(0, 3);
      // A swizzled tile's row is the swizzle's span; others any width.
      int cols = sw ? swizzle_row[sw] / dtype_bytes[d] : 8 * pick(1, 16);
      int rows = pick(1, 64);
      std::string stages = pick(0, 1) ? "[" + std::to_string(pick(1, 120)) + "]" : "";
      text += "  smem b" + std::to_string(b) + ": " + dtypes[d] + stages + "[" + std::to_string(rows) + ", " +
              std::to_string(cols) + "]" + swizzles[sw] + "\n";
    }
    for (int m = pick(0, 2); m > 0; --m)
      text += "  mbarrier bar" + std::to_string(m) + (pick(0, 1) ? "[" + std::to_string(pick(1, 8)) + "]" : "") + "\n";
    text += R"(  role one all {
    reg x: f32[32, 64] layout(mma_acc)
    load x <- X[block.x * 32 : 32, :]
  }
}
bench g { N = 16896 }
)";
    check_file(text, targets);
  }
  // The property was exercised: some kernels are over a limit, some fit one CTA per SM.
  CHECK(cases > 100);
  CHECK(e0301 > 10);
  CHECK(w0705 > 10);
}
