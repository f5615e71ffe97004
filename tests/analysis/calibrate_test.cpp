// Calibration (cake/calibrate.h) against synthetic measurements: the kernels
// of tests/calibration/ (each exercising some parameters: a TMA copy for
// eff_hbm and, on one CTA, launch_us; a shared tile in L2 for eff_l2;
// latency-bound rings of one and two stages for the TMA latency, the barrier
// and the per-iteration overhead; serial barriers and loads; smem reads;
// wgmma and mma.sync loops) are "measured" by estimating them on an H100
// whose parameters were changed to known values. Starting from the shipped
// table, the fit must recover those values, leave the parameters no kernel
// exercises as they were, and stay close under measurement noise.
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/calibrate.h"
#include "cake/cost.h"
#include "support/test_files.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>

using namespace cake;

namespace {

const DeviceInfo& h100() { return *find_device("h100"); }

/// The "real" H100 the synthetic measurements come from: every value away
/// from the table's by 10–60%.
const std::map<std::string, double> kTruth = {
    {"eff_hbm", 0.8},          {"eff_l2", 0.7},          {"eff_smem", 0.85},           {"eff_wgmma", 0.85},
    {"eff_mma_sync", 0.55},    {"lat_tma_cycles", 800},  {"lat_barrier_cycles", 100},  {"lat_global_cycles", 600},
    {"iter_overhead_cycles", 40}, {"launch_us", 4}};

DeviceInfo with(const DeviceInfo& base, const std::map<std::string, double>& values) {
  DeviceInfo d = base;
  for (const auto& [key, v] : values) {
    auto id = find_device_param(key);
    REQUIRE(id);
    d.param(*id).value = v;
  }
  return d;
}

/// The kernels of tests/calibration/ (their names, or all), analysed.
std::vector<std::unique_ptr<Analysis>> kernels(std::vector<std::string> names = {}) {
  std::vector<std::unique_ptr<Analysis>> out;
  for (const auto& path : test::list_files(std::filesystem::path(CAKE_TESTS_DIR) / "calibration", {".cake"})) {
    if (!names.empty() && std::find(names.begin(), names.end(), path.stem().string()) == names.end()) continue;
    auto text = test::read_file(path);
    REQUIRE(text);
    auto a = analyze(*text);
    INFO(path.string());
    REQUIRE(count(a->diagnostics).errors == 0);
    out.push_back(std::move(a));
  }
  REQUIRE_FALSE(out.empty());
  return out;
}

/// One sample per kernel and bench, measured on `truth`, each time scaled by
/// a factor of `noise()`.
template <typename Noise>
std::vector<CalibrationSample> measure(const std::vector<std::unique_ptr<Analysis>>& files, const DeviceInfo& truth,
                                       Noise noise) {
  std::vector<CalibrationSample> samples;
  for (const auto& a : files)
    for (uint32_t k = 0; k < a->module.kernels.size(); ++k)
      for (size_t b = 0; b < a->module.benches.size(); ++b) {
        Estimate e = estimate_bench(*a, k, static_cast<int32_t>(b), "sm_90a", truth);
        if (!e.ok) continue;  // another kernel's bench
        samples.push_back({a.get(), k, static_cast<int32_t>(b), "sm_90a", e.time_us * noise()});
      }
  return samples;
}

const ParamFit& fit_of(const Calibration& c, std::string_view key) {
  auto id = find_device_param(key);
  REQUIRE(id);
  for (const ParamFit& p : c.params)
    if (p.id == *id) return p;
  FAIL("no fit for " << key);
  return c.params.front();
}

void check_recovered(const Calibration& c, const std::string& key, double truth, double tolerance) {
  INFO(key << ": fitted " << fit_of(c, key).after << ", truth " << truth);
  CHECK(fit_of(c, key).fitted);
  CHECK(std::fabs(fit_of(c, key).after - truth) <= tolerance * truth);
}

}  // namespace

TEST_CASE("the calibratable parameters are device parameters, with bounds that hold the shipped tables") {
  REQUIRE_FALSE(calibrated_params().empty());
  for (const CalibratedParam& p : calibrated_params()) {
    INFO(device_param_key(p.id));
    CHECK(p.lower < p.upper);
    CHECK(p.lower >= 0);
    for (const DeviceInfo& d : all_devices()) {
      const DeviceParam& v = d.param(p.id);
      if (!v.known()) continue;
      INFO(d.id);
      auto [lo, hi] = calibration_bounds(p, v.value);
      CHECK(v.value >= lo);
      CHECK(v.value <= hi);
    }
  }
  // Facts of the datasheet are never fitted.
  for (const char* fact : {"sms", "clock_mhz", "hbm_gbps", "tc_tflops_f16"}) {
    auto id = find_device_param(fact);
    REQUIRE(id);
    for (const CalibratedParam& p : calibrated_params()) CHECK(p.id != *id);
  }
}

TEST_CASE("calibration recovers known parameters from exact synthetic measurements") {
  auto files = kernels();
  DeviceInfo truth = with(h100(), kTruth);
  auto samples = measure(files, truth, [] { return 1.0; });
  REQUIRE(samples.size() >= 15);
  Calibration c = calibrate(h100(), samples);
  CHECK(c.used == samples.size());
  CHECK(c.before.rms > 0.1);   // the shipped table is off by 10-60%
  CHECK(c.after.rms < 1e-3);
  CHECK(c.after.max < 3e-3);
  for (const auto& [key, value] : kTruth) check_recovered(c, key, value, key == "iter_overhead_cycles" ? 0.05 : 0.02);
  // Nothing measured uses cp.async or is bound by the CUDA cores: they keep
  // the table's values, and tcgen05 (not on an H100) is not offered at all.
  for (const char* idle : {"lat_cp_async_cycles", "eff_fp32"}) {
    INFO(idle);
    const ParamFit& p = fit_of(c, idle);
    CHECK_FALSE(p.fitted);
    CHECK(p.after == p.before);
    CHECK(c.device.param(p.id).value == h100().param(p.id).value);
    CHECK(c.device.param(p.id).src == h100().param(p.id).src);
  }
  for (const ParamFit& p : c.params) CHECK(p.id != DeviceParamId::eff_tcgen05);
  // The fitted device says where its values come from.
  CHECK(c.device.eff_hbm.src == "calibrated");
  CHECK(c.device.eff_hbm.status == Status::Derived);
  CHECK(c.device.sms.value == h100().sms.value);
  for (const SampleFit& s : c.samples) {
    CHECK(s.ok);
    CHECK(std::fabs(s.error_after()) < 3e-3);
  }
}

TEST_CASE("only the parameters the measurements exercise move") {
  auto files = kernels({"tensor"});
  auto samples = measure(files, with(h100(), kTruth), [] { return 1.0; });
  Calibration c = calibrate(h100(), samples);
  check_recovered(c, "eff_wgmma", 0.85, 0.02);
  check_recovered(c, "eff_mma_sync", 0.55, 0.02);
  for (const char* idle : {"eff_hbm", "eff_l2", "lat_tma_cycles", "lat_global_cycles", "lat_barrier_cycles",
                           "iter_overhead_cycles"}) {
    INFO(idle);
    CHECK_FALSE(fit_of(c, idle).fitted);
    CHECK(fit_of(c, idle).after == fit_of(c, idle).before);
  }
}

TEST_CASE("calibration stays close under 2% measurement noise") {
  auto files = kernels();
  DeviceInfo truth = with(h100(), kTruth);
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<double> jitter(0.98, 1.02);
  // Three noisy runs of every shape, as a profiler's repetitions would give.
  std::vector<CalibrationSample> samples;
  for (int run = 0; run < 3; ++run)
    for (const CalibrationSample& s : measure(files, truth, [&] { return jitter(rng); })) samples.push_back(s);
  Calibration c = calibrate(h100(), samples);
  CHECK(c.after.rms < 0.02);
  CHECK(c.after.rms < c.before.rms / 5);
  for (const auto& [key, value] : kTruth)
    if (key != "iter_overhead_cycles") check_recovered(c, key, value, 0.05);
  // 40 cycles of a 1000-cycle iteration are half drowned in 2% noise.
  CHECK(std::fabs(fit_of(c, "iter_overhead_cycles").after - 40) < 20);
}

TEST_CASE("without a usable sample nothing moves") {
  Calibration c = calibrate(h100(), {});
  CHECK(c.used == 0);
  for (const ParamFit& p : c.params) {
    CHECK_FALSE(p.fitted);
    CHECK(p.after == p.before);
  }
  auto files = kernels({"copy"});
  CalibrationSample wrong{files[0].get(), 0, -1, "sm_90a", 10.0};  // no bench: not estimated
  c = calibrate(h100(), std::span(&wrong, 1));
  CHECK(c.used == 0);
  REQUIRE(c.samples.size() == 1);
  CHECK_FALSE(c.samples[0].ok);
  CHECK_FALSE(c.samples[0].problem.empty());
}

TEST_CASE("the per-iteration overhead adds to every ring iteration") {
  auto files = kernels({"rings"});
  const Analysis& a = *files[0];
  Estimate plain = estimate_bench(a, 0, 0, "sm_90a", h100());
  Estimate slow = estimate_bench(a, 0, 0, "sm_90a", with(h100(), {{"iter_overhead_cycles", 100}}));
  REQUIRE(plain.ok);
  REQUIRE(slow.ok);
  REQUIRE(plain.rings.size() == 1);
  double trips = static_cast<double>(plain.rings[0].trips);
  double per_iteration_us = 100 / h100().clock_mhz.value;
  CHECK(slow.time_us - plain.time_us == Approx(trips * per_iteration_us).epsilon(1e-6));
}
