// cake-bench-published: the cost model against published GPU results
// (tests/cost/published/results.json, docs/cost-model.md "Published
// results"). The file is a measurement file (`cake calibrate` reads it too)
// whose entries also carry the published figure, the work it measures and
// where it was published. For each entry: the published time, the model's
// estimate on the entry's device table and the error (estimate ÷ published
// − 1); then the median |error|, the largest, and per device the Spearman
// rank correlation of achieved throughput (work ÷ time) over its entries
// that count the same work (FLOPs or bytes). A benchmark, not a timed test:
// `--check MEDIAN WORST` makes it a regression guard (exit 1 when the median
// |error| exceeds MEDIAN % or any case WORST %); `--markdown` prints the
// table docs/cost-model.md shows.
//
// Usage: cake-bench-published [--markdown] [--check MEDIAN WORST] [FILE]

#include "measurement_samples.h"
#include "measurements.h"

#include "cake/cost.h"
#include "cake/device.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#ifndef CAKE_PUBLISHED_RESULTS
#define CAKE_PUBLISHED_RESULTS "tests/cost/published/results.json"
#endif

using namespace cake;
using namespace cake::cli;

namespace {

struct Row {
  std::string id, device, kind;  // kind: "flop" or "bytes", the work the figure counts
  double work = 0, published_us = 0, estimate_us = 0;
  std::string figure, bound, problem;
  double error() const { return estimate_us / published_us - 1; }
};

/// The published figure as written, and the time it gives for `work`.
std::optional<double> published_time(const nlohmann::json& e, double work, std::string& figure) {
  const nlohmann::json& p = e.value("published", nlohmann::json::object());
  if (!p.contains("value") || !p["value"].is_number() || !p.contains("unit")) return std::nullopt;
  double v = p["value"].get<double>();
  std::string unit = p["unit"].get<std::string>();
  char text[64];
  std::snprintf(text, sizeof text, "%g %s", v, unit.c_str());
  figure = text;
  if (unit == "us") return v;
  if (unit == "TFLOP/s" || unit == "TB/s") return v > 0 ? work / (v * 1e12) * 1e6 : std::optional<double>{};
  return std::nullopt;
}

/// Spearman's rank correlation (ties get their mean rank).
double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    for (size_t i = 0; i < v.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
      for (size_t k = i; k <= j; ++k) r[order[k]] = (static_cast<double>(i + j) / 2) + 1;
      i = j + 1;
    }
    return r;
  };
  std::vector<double> rx = ranks(x), ry = ranks(y);
  double mx = 0, my = 0;
  for (size_t i = 0; i < rx.size(); ++i) mx += rx[i], my += ry[i];
  mx /= static_cast<double>(rx.size()), my /= static_cast<double>(ry.size());
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

int usage() {
  std::fprintf(stderr, "usage: cake-bench-published [--markdown] [--check MEDIAN WORST] [FILE]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = CAKE_PUBLISHED_RESULTS;
  bool markdown = false;
  std::optional<double> max_median, max_worst;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--markdown") markdown = true;
    else if (a == "--check" && i + 2 < argc) {
      max_median = std::strtod(argv[++i], nullptr) / 100;
      max_worst = std::strtod(argv[++i], nullptr) / 100;
    } else if (!a.empty() && a[0] != '-') path = a;
    else return usage();
  }
  MeasurementFile file = read_measurements(path);
  if (!file.error.empty()) {
    std::fprintf(stderr, "cake-bench-published: %s: %s\n", path.c_str(), file.error.c_str());
    return 2;
  }
  nlohmann::json raw;
  {
    std::ifstream in(path);
    raw = nlohmann::json::parse(in, nullptr, false);
  }
  const nlohmann::json& entries = raw["measurements"];

  std::vector<Row> rows;
  bool broken = false;
  for (const Measurement& m : file.measurements) {
    const nlohmann::json& e = entries[m.index - 1];
    Row r;
    r.id = e.value("id", m.where());
    const DeviceInfo* device = find_device(m.device);
    if (!device) {
      std::fprintf(stderr, "%s: unknown device %s\n", r.id.c_str(), m.device.c_str());
      broken = true;
      continue;
    }
    r.device = std::string(device->id);
    const nlohmann::json& work = e.value("work", nlohmann::json::object());
    r.kind = work.contains("flop") ? "flop" : work.contains("bytes") ? "bytes" : "";
    r.work = r.kind.empty() ? 0 : work[r.kind].get<double>();
    auto t = published_time(e, r.work, r.figure);
    // The file's time is the published one: a figure that disagrees with it is a typo.
    if (!t || r.kind.empty() || std::abs(*t / m.time_us - 1) > 1e-3) {
      std::fprintf(stderr, "%s: time_us %g does not follow from the published figure and work\n", r.id.c_str(),
                   m.time_us);
      broken = true;
      continue;
    }
    r.published_us = m.time_us;
    const Measurement* one[] = {&m};
    SampleSet set = prepare_samples(one, *device);
    if (set.samples.empty()) {
      std::fprintf(stderr, "%s: not estimated: %s\n", r.id.c_str(),
                   set.skipped.empty() ? "?" : set.skipped.front().second.c_str());
      broken = true;
      continue;
    }
    const CalibrationSample& s = set.samples.front();
    Estimate est = estimate_bench(*s.analysis, s.kernel, s.bench, s.target, *device);
    if (!est.ok) {
      std::fprintf(stderr, "%s: not estimated: %s\n", r.id.c_str(), est.problem.c_str());
      broken = true;
      continue;
    }
    r.estimate_us = est.time_us;
    r.bound = std::string(bound_name(est.bound));
    rows.push_back(std::move(r));
  }
  if (rows.empty()) return broken ? 2 : 0;

  if (markdown) {
    std::printf("| result | device | published | published time | estimate | bound | error |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
  } else {
    std::printf("%-34s %-16s %-16s %12s %12s %-10s %8s\n", "result", "device", "published", "time (us)", "estimate",
                "bound", "error");
  }
  std::vector<double> errors;
  for (const Row& r : rows) {
    errors.push_back(std::abs(r.error()));
    if (markdown)
      std::printf("| %s | %s | %s | %.1f µs | %.1f µs | %s | %+.1f %% |\n", r.id.c_str(), r.device.c_str(),
                  r.figure.c_str(), r.published_us, r.estimate_us, r.bound.c_str(), 100 * r.error());
    else
      std::printf("%-34s %-16s %-16s %12.1f %12.1f %-10s %+7.1f%%\n", r.id.c_str(), r.device.c_str(), r.figure.c_str(),
                  r.published_us, r.estimate_us, r.bound.c_str(), 100 * r.error());
  }
  std::vector<double> sorted = errors;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double worst = sorted.back();
  size_t within8 = static_cast<size_t>(std::count_if(sorted.begin(), sorted.end(), [](double e) { return e <= 0.08; }));
  std::printf("\n%zu results: median |error| %.1f %%, largest %.1f %%, %zu within 8 %%, %zu beyond 20 %%\n", n,
              100 * median, 100 * worst, within8,
              static_cast<size_t>(std::count_if(sorted.begin(), sorted.end(), [](double e) { return e > 0.2; })));
  // Ranking by achieved throughput, per device and kind of work.
  std::map<std::pair<std::string, std::string>, std::vector<const Row*>> groups;
  for (const Row& r : rows) groups[{r.device, r.kind}].push_back(&r);
  for (const auto& [key, group] : groups) {
    if (group.size() < 3) continue;
    std::vector<double> published, estimated;
    for (const Row* r : group) {
      published.push_back(r->work / r->published_us);
      estimated.push_back(r->work / r->estimate_us);
    }
    std::printf("%s, %s throughput of %zu results: Spearman %.2f\n", key.first.c_str(),
                key.second == "flop" ? "FLOP" : "byte", group.size(), spearman(published, estimated));
  }
  if (broken) return 2;
  if (max_median && (median > *max_median || worst > *max_worst)) {
    std::printf("regression: the median |error| must stay within %.0f %% and every case within %.0f %%\n",
                100 * *max_median, 100 * *max_worst);
    return 1;
  }
  return 0;
}
