// The cost model (cake/cost.h) against expectations computed by hand from
// the device tables' numbers (analysis/arch/devices/*.json), each within 5%:
// a TMA copy is DRAM-bound, a wgmma loop on resident tiles is tensor-bound,
// a 1-stage ring is latency-bound; and its properties: more stages never
// slower until shared memory runs out, twice the problem about twice the
// time past one wave, a partial last wave costs a whole wave's time.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/cost.h"
#include "cake/kernel_facts.h"
#include "cost/queue.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace cake;

namespace {

const DeviceInfo& h100() { return *find_device("h100"); }

std::unique_ptr<Analysis> checked(std::string text) {
  auto a = analyze(std::move(text));
  for (const Diagnostic& d : a->diagnostics) INFO(d.message);
  REQUIRE(count(a->diagnostics).errors == 0);
  return a;
}

std::vector<Estimate> estimates(const Analysis& a, const DeviceInfo& d = h100()) {
  REQUIRE(a.module.kernels.size() == 1);
  return estimate_kernel(a, 0, "sm_90a", d);
}

double clock_s(const DeviceInfo& d) { return 1 / (d.clock_mhz.value * 1e6); }

std::string replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// One TMA load and one TMA store per 16 KB tile.
const char* kCopy = R"(target sm_90a
kernel copy(A: global bf16[M, 64] row_major, B: global bf16[M, 64] row_major)
  where M % 128 == 0
  grid (M / 128)
  block 128
{
  smem buf: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [128, 64] swizzle(128B)
  tensormap tB = B box [128, 64] swizzle(128B)
  role copier all {
    elect {
      arrive.expect_tx full, bytes(buf)
      tma.load buf <- tA[block.x * 128, 0], full
      wait full parity(0)
      tma.store tB[block.x * 128, 0] <- buf
      tma.store.commit
      tma.store.wait 0
    }
  }
}
bench copy { M = 16777216 }
bench copy { M = 33554432 }
)";

// Each CTA loads a 64 x 64 and a 256 x 64 tile once, then runs R wgmmas on
// them: tensor-bound. PAD bytes of extra shared memory set CTAs per SM.
const char* kTile = R"(target sm_90a
const R = 4096
kernel tile_mma(A: global bf16[M, 64] row_major, B: global bf16[256, 64] row_major)
  where M % 64 == 0
  grid (M / 64)
  block 128
{
  smem sA: bf16[64, 64] swizzle(128B)
  smem sB: bf16[256, 64] swizzle(128B)
  smem pad: u8[PAD]
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(128B)
  tensormap tB = B box [256, 64] swizzle(128B)
  role mma warpgroup(0) {
    reg acc: f32[64, 256] layout(wgmma_acc) = 0
    elect {
      arrive.expect_tx full, bytes(sA) + bytes(sB)
      tma.load sA <- tA[block.x * 64, 0], full
      tma.load sB <- tB[0, 0], full
    }
    wait full parity(0)
    for r in 0 .. R {
      wgmma.fence
      wgmma acc += sA @ sB.T
      wgmma.commit
      wgmma.wait 0
    }
  }
}
bench tile_mma { M = MFULL }
bench tile_mma { M = MTAIL }
)";

// One CTA streams T rows through a ring of S stages of 8 KB; the consumer
// only waits and releases: the load latency is all there is.
const char* kRing = R"(target sm_90a
kernel ring(A: global bf16[T, 64] row_major)
  where T % 64 == 0
  grid (1)
  block 256
{
  smem buf: bf16[S][64, 64] swizzle(128B)
  mbarrier full[S]
  mbarrier empty[S]
  tensormap tA = A box [64, 64] swizzle(128B)
  role producer warpgroup(0) {
    elect {
      pipeline s in ring(S) for t in 0 .. T / 64 {
        wait empty[s] parity(s.phase ^ 1)
        arrive.expect_tx full[s], bytes(buf[s])
        tma.load buf[s] <- tA[t * 64, 0], full[s]
      }
    }
  }
  role consumer warpgroup(1) {
    pipeline s in ring(S) for t in 0 .. T / 64 {
      wait full[s] parity(s.phase)
      elect { arrive empty[s] }
    }
  }
}
bench ring { T = 65536 }
)";

std::string tile(int pad, int64_t full_ctas, int64_t tail_ctas) {
  return replace(replace(replace(kTile, "PAD", std::to_string(pad)), "MFULL", std::to_string(full_ctas * 64)),
                 "MTAIL", std::to_string(tail_ctas * 64));
}

}  // namespace

TEST_CASE("a TMA copy takes its bytes over the achieved DRAM bandwidth") {
  auto a = checked(kCopy);
  auto e = estimates(*a);
  REQUIRE(e.size() == 2);
  REQUIRE(e[0].ok);
  const DeviceInfo& d = h100();
  double bytes = 2.0 * 16777216 * 64 * 2;  // read A, write B
  double expected_us = bytes / (d.hbm_gbps.value * 1e9 * d.eff_hbm.value) * 1e6 + d.launch_us.value;
  CHECK(e[0].time_us == Approx(expected_us).epsilon(0.05));
  CHECK(e[0].bound == Bound::Hbm);
  CHECK(e[0].resources[size_t(Resource::Hbm)].demand == Approx(bytes));
  CHECK(e[0].resources[size_t(Resource::Hbm)].utilisation == Approx(d.eff_hbm.value).epsilon(0.05));
  CHECK(e[0].device == &d);
  CHECK(e[0].shape == std::vector<std::pair<std::string_view, int64_t>>{{"M", 16777216}});
  // Twice the problem, many waves: twice the time.
  REQUIRE(e[1].ok);
  CHECK(e[1].waves > 2 * e[0].waves * 0.99);
  CHECK(e[1].time_us / e[0].time_us == Approx(2.0).epsilon(0.05));
}

TEST_CASE("wgmma on resident tiles takes its FLOPs over the achieved tensor throughput") {
  const DeviceInfo& d = h100();
  // 40 KB of tiles, 144 registers a thread: 3 CTAs per SM (registers), one full wave.
  int64_t wave = static_cast<int64_t>(d.sms.value) * 3;
  auto a = checked(tile(16, wave, wave * 2));
  auto e = estimates(*a);
  REQUIRE(e.size() == 2);
  REQUIRE(e[0].ok);
  CHECK(e[0].occupancy.ctas_per_sm == 3);
  CHECK(e[0].occupancy.limiter == "registers");
  double flops = 2.0 * 64 * 256 * 64 * 4096 * static_cast<double>(wave);
  double expected_us = flops / (d.tc_tflops_f16.value * 1e12 * d.eff_wgmma.value) * 1e6 + d.launch_us.value;
  CHECK(e[0].time_us == Approx(expected_us).epsilon(0.05));
  CHECK(e[0].bound == Bound::Tensor);
  CHECK(e[0].resources[size_t(Resource::Tensor)].demand == Approx(flops));
  CHECK(e[0].resources[size_t(Resource::Tensor)].utilisation == Approx(d.eff_wgmma.value).epsilon(0.05));
  // Two full waves: twice the time.
  CHECK(e[1].time_us / e[0].time_us == Approx(2.0).epsilon(0.05));
  // Per-line attribution: the wgmma line carries the tensor demand.
  bool found = false;
  for (const LineCost& l : e[0].lines)
    if (l.op == "wgmma" && l.resource == Resource::Tensor) found = l.demand[Resource::Tensor] == Approx(flops);
  CHECK(found);
}

TEST_CASE("a partial last wave costs a whole wave when CTAs cannot share an SM") {
  const DeviceInfo& d = h100();
  // 96 KB of padding: one CTA per SM (shared memory).
  int64_t wave = static_cast<int64_t>(d.sms.value);
  int64_t tail = wave + wave / 10;  // 1.1 waves
  auto a = checked(tile(96 * 1024, wave, tail));
  auto e = estimates(*a);
  REQUIRE(e.size() == 2);
  REQUIRE((e[0].ok && e[1].ok));
  CHECK(e[0].occupancy.ctas_per_sm == 1);
  CHECK(e[0].occupancy.limiter == "smem");
  CHECK(e[1].waves == Approx(1.1).epsilon(0.01));
  double one = e[0].time_us - d.launch_us.value;
  CHECK(e[1].time_us - d.launch_us.value == Approx(2 * one).epsilon(0.05));
  CHECK(e[1].bound == Bound::Tail);
  CHECK(e[1].tail_us > 0.8 * one);
  // With 3 CTAs per SM the 10% tail runs alone on its SMs: a third of a wave.
  auto b = checked(tile(16, wave * 3, wave * 3 + wave * 3 / 10));
  auto f = estimates(*b);
  REQUIRE(f[1].ok);
  double full = f[0].time_us - d.launch_us.value;
  CHECK(f[1].time_us - d.launch_us.value == Approx(full + full / 3).epsilon(0.05));
}

TEST_CASE("a 1-stage ring waits for every load: latency-bound") {
  const DeviceInfo& d = h100();
  auto a = checked(replace(kRing, "S", "1"));
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  CHECK(e[0].bound == Bound::Latency);
  REQUIRE(e[0].rings.size() == 1);
  const RingCost& r = e[0].rings[0];
  CHECK(r.stages == 1);
  CHECK(r.trips == 1024);
  CHECK(r.latency_bound());
  // A stage's round trip: the TMA latency, the barrier, and the 8 KB written
  // into shared memory at 128 B per clock.
  double smem_s = 8192 / (d.smem_bytes_per_clk_sm.value * d.eff_smem.value) * clock_s(d);
  double iteration_s = (d.lat_tma_cycles.value + d.lat_barrier_cycles.value) * clock_s(d) + smem_s;
  CHECK(r.iteration_us == Approx(iteration_s * 1e6).epsilon(0.05));
  CHECK(e[0].time_us == Approx(1024 * iteration_s * 1e6 + d.launch_us.value).epsilon(0.05));
  // The CTA's time is its iterations; nothing runs outside the ring.
  CHECK(e[0].cta_iterations_us == Approx(1024 * iteration_s * 1e6).epsilon(0.05));
  CHECK(e[0].cta_outside_us == Approx(0).margin(1e-9));
}

TEST_CASE("more stages are never slower until shared memory runs out") {
  double previous = 1e300;
  bool ran_out = false;
  for (int stages : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32}) {
    std::string text = replace(kRing, "S", std::to_string(stages));
    auto b = analyze(text);
    if (count(b->diagnostics).errors) {  // over the per-block limit (E03xx): out of shared memory
      ran_out = true;
      break;
    }
    auto e = estimates(*b);
    REQUIRE(e.size() == 1);
    if (!e[0].ok) {
      ran_out = true;
      break;
    }
    INFO(stages << " stages: " << e[0].time_us << " us");
    CHECK(e[0].time_us <= previous * 1.000001);
    previous = e[0].time_us;
  }
  CHECK(ran_out);  // 32 x 8 KB is over sm_90a's 227 KB
  // Deep enough, the ring is no longer latency-bound.
  auto deep = analyze(replace(kRing, "S", "16"));
  auto e = estimates(*deep);
  REQUIRE(e[0].ok);
  CHECK_FALSE(e[0].rings[0].latency_bound());
}

TEST_CASE("without a bench: per-iteration costs only, and the device is named") {
  std::string text = replace(kRing, "S", "4");
  text = text.substr(0, text.find("bench ring"));
  auto a = checked(text);
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  CHECK_FALSE(e[0].ok);
  CHECK(e[0].problem == "no bench");
  CHECK(e[0].bench == -1);
  CHECK(e[0].device->id == "H100-SXM5-80GB");
  REQUIRE(e[0].rings.size() == 1);
  CHECK(e[0].rings[0].trips == -1);
  CHECK(e[0].rings[0].per_iteration[Resource::Smem] == Approx(8192));
  CHECK(e[0].rings[0].iteration_us > 0);
}

TEST_CASE("every device estimates the copy, each with its own DRAM roof") {
  auto a = checked(kCopy);
  for (const DeviceInfo& d : all_devices()) {
    if (!d.runs("sm_90a")) continue;
    INFO(d.id);
    auto e = estimates(*a, d);
    REQUIRE(e[0].ok);
    CHECK(e[0].device == &d);
    CHECK(e[0].bound == Bound::Hbm);
  }
}

TEST_CASE("never crashes, and every number is finite, on files with errors and on fuzz seeds") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const char* dir : {"diagnostics", "fuzz/corpus", "examples"}) {
    fs::path root = fs::path(CAKE_TESTS_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file()) files.push_back(e.path());
  }
  for (const auto& e : fs::directory_iterator(CAKE_EXAMPLES_DIR)) files.push_back(e.path());
  REQUIRE(files.size() > 10);
  size_t estimated = 0;
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto a = analyze(text);
    INFO(p.string());
    for (uint32_t k = 0; k < a->module.kernels.size(); ++k)
      for (const TargetInfo& t : all_targets())
        for (const Estimate& e : estimate_kernel(*a, k, t.name, *default_device(t.name))) {
          ++estimated;
          CHECK(std::isfinite(e.time_us));
          CHECK(e.time_us >= 0);
          for (const ResourceUse& u : e.resources) CHECK((std::isfinite(u.demand) && std::isfinite(u.utilisation)));
          for (const RingCost& r : e.rings) CHECK(std::isfinite(r.iteration_us));
        }
  }
  CHECK(estimated > 50);
}

// An 8 x 8 ldmatrix of a tile whose rows are 128 B apart: without a swizzle
// its 8 rows of 16 B fall on the same 4 banks (cake/banks.h, CAKE-W0703).
const char* kLdmatrix = R"(target sm_80
kernel tile(A: global bf16[M, 64]) where M % 64 == 0 grid (M / 64) block 128 {
  smem sA: bf16[64, 64] SWIZZLE
  role mma all {
    reg a: bf16[64, 64] layout(mma_acc)
    cp.async sA <- A[block.x * 64 : 64, :]
    cp.async.commit
    cp.async.wait 0
    syncthreads
    ldmatrix a <- sA[0 : 64, :]
  }
}
bench tile { M = 65536 }
)";

TEST_CASE("a read with an n-way bank conflict takes n times its shared-memory bytes") {
  auto smem_of_ldmatrix = [](const char* swizzle) {
    auto a = checked(replace(kLdmatrix, "SWIZZLE", swizzle));
    auto e = estimate_kernel(*a, 0, "sm_80", *find_device("a100"));
    REQUIRE(e.size() == 1);
    for (const LineCost& l : e[0].lines)
      if (l.op == "ldmatrix") return l.demand[Resource::Smem];
    FAIL("no ldmatrix line");
    return 0.0;
  };
  double plain = smem_of_ldmatrix(""), swizzled = smem_of_ldmatrix("swizzle(128B)");
  CHECK(swizzled == Approx(64.0 * 64 * 2 * 65536 / 64 * 4));  // the tile, once per warp of the 4
  CHECK(plain == Approx(8 * swizzled));
}

// Each thread holds a 16 x 256 register tile and applies exp2 R times: the
// special-function unit (16 results per clock per SM) is the roof.
const char* kExp = R"(target sm_90a
const R = 1024
kernel exps(X: global f32[M, 256] row_major)
  where M % 16 == 0
  grid (M / 16)
  block 32
{
  role all all {
    reg x: f32[16, 256] layout(mma_acc)
    load x <- X[block.x * 16 : 16, :]
    for r in 0 .. R {
      x = exp2(x)
    }
  }
}
bench exps { M = 16384 }
)";

// Each CTA of a two-CTA cluster loads half of the pair's tile and multicasts
// it to both; each stores one half to its own rows.
const char* kMulticast = R"(target sm_90a
kernel pairs(A: global bf16[N, 64] row_major, B: global bf16[N, 64] row_major)
  where N % 128 == 0
  grid (N / 64)
  block 128
  cluster (2)
{
  smem buf: bf16[128, 64] swizzle(128B)
  mbarrier full
  tensormap tA = A box [64, 64] swizzle(128B)
  tensormap tB = B box [64, 64] swizzle(128B)
  role copier all {
    elect {
      arrive.expect_tx full, bytes(buf)
      tma.load buf[cluster.rank * 64 : 64, :] <- tA[block.x / 2 * 128 + cluster.rank * 64, 0], full multicast(3)
      wait full parity(0)
      tma.store tB[block.x * 64, 0] <- buf[(1 - cluster.rank) * 64 : 64, :]
      tma.store.commit
      tma.store.wait 0
    }
    cluster.sync
  }
}
bench pairs { N = 16777216 })";

TEST_CASE("a multicast TMA load reads its slice from L2 once for the CTAs it feeds") {
  auto a = checked(kMulticast);
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  // Every row of A is read once (each CTA its 64 of the pair's 128 rows),
  // every row of B written once: without the multicast each CTA would read
  // all 128 rows, half again as many bytes.
  double tensor = 16777216.0 * 64 * 2;
  CHECK(e[0].resources[size_t(Resource::L2)].demand == Approx(2 * tensor));
  CHECK(e[0].resources[size_t(Resource::Hbm)].demand == Approx(2 * tensor));
}

TEST_CASE("exp2 takes its elements over the special-function unit's rate") {
  const DeviceInfo& d = h100();
  auto a = checked(kExp);
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  CHECK(e[0].bound == Bound::Sfu);
  double ops = 16384.0 * 256 * 1024;  // elements x iterations, one MUFU.EX2 each
  CHECK(e[0].resources[size_t(Resource::Sfu)].demand == Approx(ops));
  // No tensor work: the SM runs at the CUDA-core clock.
  double rate = d.sfu_per_clk_sm.value * d.sms.value * d.clock_mhz.value * 1e6;
  CHECK(e[0].resources[size_t(Resource::Sfu)].time_us == Approx(ops / rate * 1e6));
  CHECK(e[0].time_us >= ops / rate * 1e6);
  // The CUDA cores do one op per element: eight times the SFU's share of an SM.
  CHECK(e[0].resources[size_t(Resource::CudaCore)].demand == Approx(ops));
}

TEST_CASE("a kernel with tensor work runs its clock-driven roofs at the tensor clock") {
  const DeviceInfo& d = h100();
  REQUIRE(d.clock_tensor_mhz.known());
  REQUIRE(d.clock_tensor_mhz.value < d.clock_mhz.value);
  int64_t wave = static_cast<int64_t>(d.sms.value) * 3;
  auto a = checked(tile(16, wave, wave * 2));
  auto e = estimates(*a);
  REQUIRE(e[0].ok);
  double smem_peak = d.smem_bytes_per_clk_sm.value * d.sms.value * d.clock_tensor_mhz.value * 1e6;
  CHECK(e[0].resources[size_t(Resource::Smem)].peak == Approx(smem_peak));
  double l2_peak = d.l2_bytes_per_clk_sm.value * d.sms.value * d.clock_tensor_mhz.value * 1e6;
  CHECK(e[0].resources[size_t(Resource::L2)].peak == Approx(l2_peak));
  // The TMA copy has no tensor work: the CUDA-core clock.
  auto c = checked(kCopy);
  auto ce = estimates(*c);
  CHECK(ce[0].resources[size_t(Resource::L2)].peak ==
        Approx(d.l2_bytes_per_clk_sm.value * d.sms.value * d.clock_mhz.value * 1e6));
}

TEST_CASE("an f16 accumulator runs at the table's f16-accumulate rate where it has one") {
  // mma.sync on resident tiles on an RTX 4090, whose f16-accumulate peak is
  // twice its f32-accumulate one; an L4 has one rate for both.
  const char* mma = R"(target sm_89
const R = 4096
kernel tile_mma(A: global f16[M, 16] row_major, B: global f16[8, 16] row_major)
  where M % 16 == 0
  grid (M / 16)
  block 32
{
  role all all {
    reg a: f16[16, 16] layout(mma_acc)
    reg b: f16[8, 16] layout(mma_acc)
    reg acc: ACC[16, 8] layout(mma_acc) = 0
    load a <- A[block.x * 16 : 16, :]
    load b <- B[:, :]
    for r in 0 .. R {
      mma acc += a @ b.T
    }
  }
}
bench tile_mma { M = 1048576 }
)";
  const DeviceInfo& rtx = *find_device("rtx4090");
  REQUIRE(rtx.tc_tflops_f16_acc_f16.known());
  auto f32 = checked(replace(mma, "ACC", "f32")), f16 = checked(replace(mma, "ACC", "f16"));
  auto e32 = estimate_kernel(*f32, 0, "sm_89", rtx), e16 = estimate_kernel(*f16, 0, "sm_89", rtx);
  REQUIRE((e32[0].ok && e16[0].ok));
  double t32 = e32[0].resources[size_t(Resource::Tensor)].time_us, t16 = e16[0].resources[size_t(Resource::Tensor)].time_us;
  CHECK(t32 / t16 == Approx(rtx.tc_tflops_f16_acc_f16.value / rtx.tc_tflops_f16.value));
  // An L4 has no f16-accumulate figure: both run at its one f16 rate.
  const DeviceInfo& l4 = *find_device("l4");
  REQUIRE(!l4.tc_tflops_f16_acc_f16.known());
  auto l32 = estimate_kernel(*f32, 0, "sm_89", l4), l16 = estimate_kernel(*f16, 0, "sm_89", l4);
  REQUIRE((l32[0].ok && l16[0].ok));
  CHECK(l32[0].resources[size_t(Resource::Tensor)].time_us == Approx(l16[0].resources[size_t(Resource::Tensor)].time_us));
}

/// One thread's tcgen05.mma of resident tiles, R times: A DT[ROWS, K], B
/// DT[64, K] (K the row of one 128B span: KDIM), into f32[ROWS, 64].
const char* kUmmaTile = R"(target sm_100a
const R = 4096
kernel tile_umma(C: global f32[M, 64] row_major)
  where M % 128 == 0
  grid (M / 128)
  block 128
{
  smem sA: DT[ROWS, KDIM] swizzle(128B)
  smem sB: DT[64, KDIM] swizzle(128B)
  tmem acc: f32[ROWS, 64]
  mbarrier done
  role all all {
    elect {
      for r in 0 .. R {
        tcgen05.mma acc += sA @ sB.T, accumulate(r > 0)
      }
      tcgen05.commit done
    }
    wait done parity(0)
  }
}
bench tile_umma { M = 1048576 }
)";

TEST_CASE("one CTA's M = 64 tcgen05.mma takes as long as an M = 128 one: half the data path") {
  const DeviceInfo& b200 = *find_device("b200");
  std::string mma = replace(replace(kUmmaTile, "DT", "bf16"), "KDIM", "64");
  auto m128 = checked(replace(mma, "ROWS", "128")), m64 = checked(replace(mma, "ROWS", "64"));
  auto e128 = estimate_kernel(*m128, 0, "sm_100a", b200), e64 = estimate_kernel(*m64, 0, "sm_100a", b200);
  REQUIRE((e128[0].ok && e64[0].ok));
  const ResourceUse &t128 = e128[0].resources[size_t(Resource::Tensor)], &t64 = e64[0].resources[size_t(Resource::Tensor)];
  CHECK(t64.demand == Approx(t128.demand / 2));  // half the FLOPs
  CHECK(t64.time_us == Approx(t128.time_us));    // at half the rate
}

TEST_CASE("6- and 4-bit tcgen05.mma operands run at the 8-bit rate and read a byte a value from shared memory") {
  // kind::f8f6f4 takes e4m3, e3m2 and e2m1 alike: K = 32 a step, the FP8
  // peak (not the block-scaled FP4 one), and 128 bytes of shared memory a
  // row of 128 values, whatever their width.
  std::string mma = replace(replace(kUmmaTile, "ROWS", "128"), "KDIM", "128");
  const DeviceInfo& b200 = *find_device("b200");
  REQUIRE(b200.tc_tflops_f4.value > b200.tc_tflops_f8.value);
  auto f8 = checked(replace(mma, "DT", "f8e4m3")), f6 = checked(replace(mma, "DT", "f6e3m2")),
       f4 = checked(replace(mma, "DT", "f4e2m1"));
  auto e8 = estimate_kernel(*f8, 0, "sm_100a", b200), e6 = estimate_kernel(*f6, 0, "sm_100a", b200),
       e4 = estimate_kernel(*f4, 0, "sm_100a", b200);
  REQUIRE((e8[0].ok && e6[0].ok && e4[0].ok));
  for (const auto* e : {&e6, &e4}) {
    for (Resource r : {Resource::Tensor, Resource::Smem, Resource::Issue})
      CHECK((*e)[0].resources[size_t(r)].time_us == Approx(e8[0].resources[size_t(r)].time_us));
  }
  // The layout: a byte a value.
  KernelFacts facts(f4->module, 0);
  const SmemLayout& smem = facts.on(*find_target("sm_100a")).smem;
  REQUIRE(smem.complete);
  CHECK(smem.slots[0].bytes == 128 * 128);
  CHECK(smem.slots[1].bytes == 64 * 128);
}

TEST_CASE("mma.sync takes an issue slot per instruction: m16n8k16 for 16-bit operands, m16n8k32 for 8-bit") {
  // The same 16 x 8 x 32 tile product R times: two k16 instructions each
  // for bf16, one k32 instruction for f8e4m3, on an L4.
  const char* mma = R"(target sm_89
const R = 4096
kernel tile_mma(A: global DT[M, 32] row_major, B: global DT[16, 32] row_major)
  where M % 16 == 0
  grid (M / 16)
  block 32
{
  role all all {
    reg a: DT[16, 32] layout(mma_acc)
    reg b: DT[16, 32] layout(mma_acc)
    reg acc: f32[16, 16] layout(mma_acc) = 0
    load a <- A[block.x * 16 : 16, :]
    load b <- B[:, :]
    for r in 0 .. R {
      mma acc += a @ b.T
    }
  }
}
bench tile_mma { M = 16 }
)";
  const DeviceInfo& l4 = *find_device("l4");
  auto bf16 = checked(replace(mma, "DT", "bf16")), f8 = checked(replace(mma, "DT", "f8e4m3"));
  auto eb = estimate_kernel(*bf16, 0, "sm_89", l4), e8 = estimate_kernel(*f8, 0, "sm_89", l4);
  REQUIRE((eb[0].ok && e8[0].ok));
  // 16 x 16 x 32 per repetition: 2 n8 tiles x 2 k16 steps, or 2 x 1 k32.
  double loads = 2;  // the two fragment loads' slots are the same in both
  double slots_b = eb[0].resources[size_t(Resource::Issue)].demand, slots_8 = e8[0].resources[size_t(Resource::Issue)].demand;
  CHECK(slots_b - slots_8 == Approx(2.0 * 4096).margin(loads * 32));
  CHECK(slots_8 >= 2.0 * 4096);
}

TEST_CASE("the guesses of a device table are named") {
  auto keys = unverified_params(*find_device("b200"));
  CHECK(std::find(keys.begin(), keys.end(), "l2_bytes_per_clk_sm") != keys.end());
  auto h100_keys = unverified_params(h100());
  CHECK(std::find(h100_keys.begin(), h100_keys.end(), "hbm_gbps") == h100_keys.end());
  CHECK(std::find(h100_keys.begin(), h100_keys.end(), "lat_tma_cycles") != h100_keys.end());
}

// WARPS warps per CTA, one CTA per SM (grid = SMs), each warp its own
// 16 x 256 tile: R rounds of exp2 (SFU) and then a dependent multiply-add
// (CUDA cores). One warp runs on one of the SM's four schedulers, so its
// chain of statements is serial at a quarter of the SM; four warps run side
// by side on all four.
const char* kChain = R"(target sm_90a
const R = 256
kernel chain(X: global f32[M, 256] row_major)
  where M % 8448 == 0
  grid (132)
  block BLOCK
{
  role all all {
    reg x: f32[16, 256] layout(mma_acc)
    load x <- X[(block.x * (BLOCK / 32) + warp.id) * 16 : 16, :]
    for r in 0 .. R {
      x = exp2(x)
      x = x * 0.5 + 1.0
    }
  }
}
bench chain { M = 8448 }
)";

TEST_CASE("one warp's dependent statements are serial; warps on other schedulers overlap them") {
  auto one = checked(replace(kChain, "BLOCK", "32")), four = checked(replace(kChain, "BLOCK", "128"));
  auto e1 = estimates(*one), e4 = estimates(*four);
  REQUIRE((e1[0].ok && e4[0].ok));
  // One warp: the chain, not a roof, sets the time (reported as latency).
  CHECK(e1[0].bound == Bound::Latency);
  double sfu_roof_us = e1[0].resources[size_t(Resource::Sfu)].time_us;
  CHECK(e1[0].time_us > 3.5 * sfu_roof_us);
  // Four warps do four times the work in about the same time.
  CHECK(e4[0].resources[size_t(Resource::Sfu)].demand == Approx(4 * e1[0].resources[size_t(Resource::Sfu)].demand));
  CHECK(e4[0].time_us == Approx(e1[0].time_us).epsilon(0.1));
}

// The SM's warps as a closed queueing network (cost/queue.h), in seconds of
// holding a unit per ring iteration.
WarpClass warp_class(double warps, std::initializer_list<std::pair<Resource, double>> holds, double delay = 0) {
  WarpClass c{warps, {}, delay};
  for (auto [r, t] : holds) c.hold_s[static_cast<size_t>(r)] = t;
  return c;
}

TEST_CASE("one warp per scheduler runs its chain; more warps queue for a unit") {
  // One warpgroup: a warp on each scheduler, alone there: its segments and
  // its barrier one after another.
  auto one = warp_class(4, {{Resource::Tensor, 3.0}, {Resource::Sfu, 2.0}}, 0.5);
  CHECK(closed_network({one}, 1).iteration_s == Approx(5.5));
  CHECK(closed_network({one}, 1).unit == Resource::Tensor);
  // Two warps per scheduler that need only the tensor core keep it busy:
  // twice one warp's time, as the roofline says.
  auto tensor_only = warp_class(8, {{Resource::Tensor, 3.0}});
  CHECK(closed_network({tensor_only}, 1).iteration_s == Approx(6.0).epsilon(1e-6));
  // Two CTAs per SM: twice the warps.
  CHECK(closed_network({tensor_only}, 2).iteration_s == Approx(12.0).epsilon(1e-6));
  // Shared memory is one port for the four schedulers' warps.
  auto smem_only = warp_class(4, {{Resource::Smem, 1.0}});
  CHECK(closed_network({smem_only}, 1).iteration_s == Approx(4.0).epsilon(1e-6));
  // Waits on no unit: latency.
  CHECK_FALSE(closed_network({warp_class(4, {{Resource::Issue, 1.0}}, 2.0)}, 1).unit.has_value());
  CHECK(closed_network({}, 1).iteration_s == 0);
}

TEST_CASE("two warpgroups alternating MMA and softmax queue for the tensor core") {
  // FlashAttention's consumers: each holds the tensor core 1280 (S and PV)
  // and the issue slots 530 (the softmax) per iteration, one after the
  // other. Exact mean-value analysis of two one-customer classes: each
  // finds the other where it is alone, a fraction 1280 / 1810 of its round
  // at the tensor core and 530 / 1810 at issue, so its round is 1280 (1 + 1280 / 1810) +
  // 530 (1 + 530 / 1810) = 2870.6. Schweitzer's approximation is within a
  // few percent of that.
  auto consumer = warp_class(4, {{Resource::Tensor, 1280}, {Resource::Issue, 530}});
  NetworkTime t = closed_network({consumer, consumer}, 1);
  CHECK(t.iteration_s == Approx(2870.6).epsilon(0.03));
  CHECK(t.unit == Resource::Tensor);
  // Between the roofline (the tensor core busy with both: 2560) and the
  // two chains one after another (3620).
  CHECK(t.iteration_s > 2560 * 1.1);
  CHECK(t.iteration_s < 3620);
  // A producer warp that issues a few TMA loads per iteration and waits on
  // its barriers the rest of the time (the ring keeps it at the consumers'
  // pace) barely slows their issue.
  auto producer = warp_class(4, {{Resource::Issue, 4}});
  CHECK(closed_network({producer, consumer, consumer}, 1).iteration_s == Approx(t.iteration_s).epsilon(0.01));
}

TEST_CASE("the published FlashAttention-3 kernel is bound by its consumers' tensor core and softmax turns") {
  std::ifstream in(std::filesystem::path(CAKE_TESTS_DIR) / "cost" / "published" / "attention_h100.cake", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto a = checked(text);
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  CHECK(e[0].bound == Bound::Tensor);
  REQUIRE(e[0].rings.size() == 1);
  const RingCost& r = e[0].rings[0];
  // One CTA per SM: the tensor core's roof for an iteration is both
  // consumers' MMAs. Each consumer's softmax waits for its S and its PV
  // waits for the softmax's P (an MMA reading a register computed in its
  // segment); the other consumer's MMAs cover part of it, not all.
  double roof_us = r.per_iteration.tensor_s * 1e6;
  CHECK(r.resource_us > 1.15 * roof_us);
  CHECK(r.resource_us < 1.6 * roof_us);
  // The TMA producer holds no unit while its copies run: it does not set the pace.
  CHECK(r.iteration_us == Approx(r.resource_us).epsilon(0.05));
  CHECK(r.roofline_us == Approx(roof_us).epsilon(0.001));
  // Each role as the closed network sees it: the consumers hold the tensor
  // core for their QK^T and PV, the issue slots for their softmax, and go
  // round in the ring's time; the producer only issues.
  REQUIRE(r.roles.size() == 3);
  CHECK(r.roles[0].role == "producer");
  CHECK(r.roles[0].hold_us[size_t(Resource::Tensor)] == 0);
  CHECK(r.roles[0].round_us < 0.01 * r.resource_us);
  for (size_t i : {1, 2}) {
    const RingRole& c = r.roles[i];
    CHECK(c.role == (i == 1 ? "consumer0" : "consumer1"));
    CHECK(c.warps == 4);
    CHECK(c.hold_us[size_t(Resource::Tensor)] == Approx(roof_us / 2).epsilon(0.001));
    CHECK(c.hold_us[size_t(Resource::Issue)] > 0.2 * roof_us);
    CHECK(c.round_us == Approx(r.resource_us).epsilon(0.001));
  }
}

// One warp per CTA and one CTA per SM (132 of them): a ring of dependent
// exp2 (a quarter of the SFU, so its chain is four times its roof), then an
// epilogue of stores, global traffic that no chain holds.
const char* kLone = R"(target sm_90a
kernel lone(X: global f32[M, 256] row_major, Y: global f32[M, 65536] row_major)
  where M % 2112 == 0
  grid (M / 16)
  block 32
{
  role all all {
    reg x: f32[16, 256] layout(mma_acc)
    load x <- X[block.x * 16 : 16, :]
    pipeline s in ring(1) for r in 0 .. 64 {
      x = exp2(x)
    }
    for c in 0 .. STORES {
      store Y[block.x * 16 : 16, c * 256 : 256] <- x
    }
  }
}
bench lone { M = 2112 }
)";

TEST_CASE("a CTA alone on its SM runs its epilogue after its main loop, each the longer of its roof and its chains") {
  auto a = checked(replace(kLone, "STORES", "256"));
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  REQUIRE(e[0].rings.size() == 1);
  const RingCost& r = e[0].rings[0];
  // The ring is its one warp's chain, four times the SFU's roof.
  double sfu_roof_us = r.per_iteration[Resource::Sfu] / (e[0].resources[size_t(Resource::Sfu)].throughput / h100().sms.value) * 1e6;
  CHECK(r.resource_us == Approx(4 * sfu_roof_us).epsilon(0.02));
  // The epilogue's stores, after it: the two add, and the stores name the bound.
  double rings_us = r.iteration_us * 64;
  CHECK(e[0].time_us - e[0].launch_us == Approx(rings_us + e[0].cta_outside_us).epsilon(0.01));
  CHECK(e[0].bound == Bound::Hbm);
  // With few stores the ring is the longer part: its chain names the bound.
  auto b = checked(replace(kLone, "STORES", "4"));
  auto f = estimates(*b);
  REQUIRE(f[0].ok);
  CHECK(f[0].bound == Bound::Sfu);
  CHECK(f[0].time_us - f[0].launch_us == Approx(f[0].rings[0].iteration_us * 64 + f[0].cta_outside_us).epsilon(0.01));
}

// Branches: an `if` the model can evaluate costs each branch by the fraction
// of executions that take it; one it cannot (here it reads `lane`) costs its
// `then` branch every time and its `else` nothing.
TEST_CASE("an if costs its branches by the fraction of executions that take them") {
  const char* text = R"(target sm_90a
kernel branches(X: global f32[N], Y: global f32[N]) where N % 4096 == 0 grid (N / 4096) block 128 {
  reg x: f32
  for k in 0 .. 32 {
    load x <- X[block.x * 4096 + k * 128 + warp.id * 32 + lane]
    if k % 4 == 0 || k == 31 {
      store Y[block.x * 4096 + k * 128 + warp.id * 32 + lane] <- x
    } else {
      x = x * 3.0
    }
  }
}
bench branches { N = 1048576 }
)";
  auto a = checked(text);
  auto e = estimates(*a);
  REQUIRE(e.size() == 1);
  REQUIRE(e[0].ok);
  // Bytes through L2: every load (32 per thread), and the store in 9 of the
  // 32 iterations (k = 0, 4, ..., 28 and 31).
  double elements = 1048576.0;
  CHECK(e[0].resources[size_t(Resource::L2)].demand == Approx(elements * 4 * (32 + 9) / 32));
  // The else branch: one multiply per element in the other 23.
  CHECK(e[0].resources[size_t(Resource::CudaCore)].demand == Approx(elements * 23 / 32));
  // Reading `lane`, the condition is not the model's to evaluate: the
  // store is costed every iteration and the multiply never.
  auto b = checked(replace(text, "if k % 4 == 0 || k == 31 {", "if lane < 31 {"));
  auto f = estimates(*b);
  REQUIRE(f[0].ok);
  CHECK(f[0].resources[size_t(Resource::L2)].demand == Approx(elements * 4 * 2));
  CHECK(f[0].resources[size_t(Resource::CudaCore)].demand == Approx(0.0));
}
