// `cake calibrate --measurements FILE.json [-o TABLE] [--device D] [--table
// FILE] [--format text|json]`: fits the calibratable parameters of each
// measured device's table to the measured kernel times (cake/calibrate.h),
// reports each parameter old → new and the error before and after, and with
// -o writes the fitted table as a new version. Each device is fitted on its
// own; -o needs one device (--device picks it). Exit: 0 fitted, 1 a
// measurement could not be estimated (reported, skipped) or nothing could be
// fitted, 2 usage or I/O (missing or malformed measurement file or table).
#include "args.h"
#include "cli.h"
#include "device_table.h"
#include "io.h"
#include "measurement_samples.h"
#include "measurements.h"

#include "cake/calibrate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace cake::cli {
namespace {

using json = nlohmann::ordered_json;

/// Significant digits of a fitted value in a written table: the fit is not
/// better than this, and the table stays readable.
constexpr int kTableDigits = 6;

struct CalibrateOptions {
  std::string measurements, output, table, device;
  bool json = false;
};

/// One device's measurements and the table they are fitted from.
struct DeviceRun {
  const DeviceInfo* start = nullptr;
  std::vector<const Measurement*> measurements;
};

/// What one device's fit produced, for the report.
struct FitReport {
  const DeviceInfo* start = nullptr;
  SampleSet set;
  Calibration fit;
  std::string new_version, output;  // output empty: no table written
};

std::string g(double v, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

/// "+12.3%" for a signed error; "12.3%" for a size (RMS, max).
std::string percent(double fraction, bool sign = false) {
  char buf[32];
  std::snprintf(buf, sizeof buf, sign ? "%+.1f%%" : "%.1f%%", 100 * fraction);
  return buf;
}

/// "2026-12-02.1" → "2026-12-02.1.cal1"; "….cal1" → "….cal2".
std::string next_version(std::string_view old) {
  size_t at = old.rfind(".cal");
  if (at != std::string_view::npos && at + 4 < old.size() &&
      std::all_of(old.begin() + static_cast<std::ptrdiff_t>(at) + 4, old.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::string(old.substr(0, at)) + ".cal" + std::to_string(std::stoll(std::string(old.substr(at + 4))) + 1);
  return std::string(old) + ".cal1";
}

std::optional<int> parse(Args args, CalibrateOptions& o) {
  auto fail = [](const std::string& m) { return std::optional<int>(usage_error("calibrate", m)); };
  // Each option and where its value goes.
  const std::pair<const char*, std::string*> kValues[] = {
      {"--measurements", &o.measurements}, {"--output", &o.output}, {"--table", &o.table}, {"--device", &o.device}};
  for (ArgCursor c(args); !c.done(); c.advance()) {
    std::string_view a = c.current();
    if (a == "--help" || a == "-h") return write_all(stdout, calibrate_help()) ? kExitOk : kExitUsage;
    auto option = std::find_if(std::begin(kValues), std::end(kValues), [&](const auto& kv) { return c.is(kv.first); });
    if (a == "-o") option = std::begin(kValues) + 1;
    if (option != std::end(kValues)) {
      auto v = c.value(a == "-o" ? "-o" : option->first);
      if (!v || v->empty()) return fail(std::string(option->first) + " needs a value");
      *option->second = *v;
    } else if (c.is("--format")) {
      auto v = c.value("--format");
      if (!v || (*v != "text" && *v != "json")) return fail("--format takes text or json");
      o.json = *v == "json";
    } else {
      return fail(a.starts_with("-") ? "unknown option '" + std::string(a) + "'"
                                     : "unexpected argument '" + std::string(a) + "' (measurements come with --measurements)");
    }
  }
  if (o.measurements.empty()) return fail("no measurement file (--measurements FILE.json)");
  return std::nullopt;
}

/// The device a name means: the loaded table's when it is named so, else an
/// embedded one; null when none.
const DeviceInfo* resolve(std::string_view name, const LoadedDevice* table) {
  if (table && table->named(name)) return &table->info();
  return find_device(name);
}

/// A copy of `d` with every value at kTableDigits significant digits.
DeviceInfo rounded(DeviceInfo d) {
  for (size_t i = 0; i < kDeviceParamCount; ++i) {
    DeviceParam& p = d.param(static_cast<DeviceParamId>(i));
    p.value = std::strtod(g(p.value, kTableDigits).c_str(), nullptr);
  }
  return d;
}

std::string fitted_keys(const Calibration& c) {
  std::string s;
  for (const ParamFit& p : c.params)
    if (p.fitted) s += (s.empty() ? "" : ", ") + std::string(device_param_key(p.id));
  return s.empty() ? "nothing" : s;
}

/// The fitted table as a document, with notes that say where it came from.
json table_json(const FitReport& r, const LoadedDevice* table, const std::string& measurements) {
  DeviceInfo d = rounded(r.fit.device);
  d.version = r.new_version;
  json j = device_table_json(d, table && &table->info() == r.start ? &table->source() : nullptr);
  if (!table || &table->info() != r.start)
    j["based_on"] = "the embedded table " + std::string(r.start->id) + " " + std::string(r.start->version);
  j["note"] = "cake calibrate: fitted " + fitted_keys(r.fit) + " to " + std::to_string(r.fit.used) +
              " measurements of " + measurements + " (" + r.fit.optimiser + "), starting from table " +
              std::string(r.start->version) + "; RMS error " + percent(r.fit.before.rms) + " -> " +
              percent(r.fit.after.rms) + ", max " + percent(r.fit.before.max) + " -> " + percent(r.fit.after.max);
  for (const ParamFit& p : r.fit.params)
    if (p.fitted)
      j["params"][std::string(device_param_key(p.id))]["note"] =
          "fitted by cake calibrate to " + measurements + " (was " + g(p.before, kTableDigits) + ", bounds [" +
          g(p.lower) + ", " + g(p.upper) + "])";
  return j;
}

bool write_table(const std::string& path, const json& j) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << j.dump(2) << "\n";
  out.close();
  return static_cast<bool>(out);
}

// Section - the report

std::string param_text(const ParamFit& p) {
  std::string key(device_param_key(p.id)), unit(device_param_unit(p.id));
  std::string s = "    " + key + std::string(key.size() < 22 ? 22 - key.size() : 1, ' ') + g(p.before, 6) + " -> " +
                  g(p.after, 6) + " " + unit + "  [" + g(p.lower) + ", " + g(p.upper) + "]";
  return s + (p.at_bound ? "  at a bound" : "") + "\n";
}

std::string fit_text(const FitReport& r) {
  const Calibration& c = r.fit;
  std::string s = "  " + std::string(r.start->id) + " (table " + std::string(r.start->version) + "): " +
                  std::to_string(c.used) + " measurements used\n";
  if (c.used == 0) return s + "  nothing fitted: no measurement could be estimated\n";
  size_t fitted = std::count_if(c.params.begin(), c.params.end(), [](const ParamFit& p) { return p.fitted; });
  s += "  fitted " + std::to_string(fitted) + " of " + std::to_string(c.params.size()) + " parameters (" + c.optimiser +
       ", " + std::to_string(c.evaluations) + " evaluations):\n";
  std::string idle;
  for (const ParamFit& p : c.params) {
    if (p.fitted) s += param_text(p);
    else idle += (idle.empty() ? "" : ", ") + std::string(device_param_key(p.id));
  }
  if (!idle.empty()) s += "  unchanged, no measurement exercises them: " + idle + "\n";
  if (fitted > c.used)  // fewer equations than unknowns: some values are arbitrary
    s += "  note: " + std::to_string(fitted) + " parameters from " + std::to_string(c.used) +
         " measurements are not all determined; measure more kernels and shapes\n";
  std::string bounded;
  for (const ParamFit& p : c.params)
    if (p.fitted && p.at_bound) bounded += (bounded.empty() ? "" : ", ") + std::string(device_param_key(p.id));
  if (!bounded.empty())
    s += "  note: stopped at a bound: " + bounded +
         "; the measurements ask for values beyond what is physically plausible, so a device fact or the model's "
         "structure is wrong for them, not the parameter\n";
  s += "  error (estimate / measured - 1): RMS " + percent(c.before.rms) + " -> " + percent(c.after.rms) + ", max " +
       percent(c.before.max) + " -> " + percent(c.after.max) + "\n  per measurement:\n";
  std::vector<size_t> order(r.set.measured.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return r.set.measured[a]->index < r.set.measured[b]->index; });
  for (size_t i : order) {
    const Measurement& m = *r.set.measured[i];
    const SampleFit& f = c.samples[i];
    s += "    #" + std::to_string(m.index) + " " + m.where() + " " + m.kernel + " " + m.target + " " + m.shape() + ": " +
         g(m.time_us) + " us measured; ";
    s += f.ok ? g(f.before_us) + " us (" + percent(f.error_before(), true) + ") -> " + g(f.after_us) + " us (" +
                    percent(f.error_after(), true) + ")\n"
              : "not estimated: " + f.problem + "\n";
  }
  if (!r.output.empty())
    s += "  table " + std::string(r.start->id) + " " + r.new_version + " written to " + r.output + "\n";
  return s;
}

json fit_json(const FitReport& r) {
  const Calibration& c = r.fit;
  json params = json::array(), ms = json::array();
  for (const ParamFit& p : c.params)
    params.push_back({{"key", std::string(device_param_key(p.id))},
                      {"unit", std::string(device_param_unit(p.id))},
                      {"fitted", p.fitted},
                      {"before", p.before},
                      {"after", p.after},
                      {"lower", p.lower},
                      {"upper", p.upper},
                      {"at_bound", p.at_bound},
                      {"sensitivity", p.sensitivity}});
  for (size_t i = 0; i < r.set.measured.size(); ++i) {
    const Measurement& m = *r.set.measured[i];
    const SampleFit& f = c.samples[i];
    json e = {{"index", m.index}, {"file", m.where()}, {"kernel", m.kernel}, {"target", m.target},
              {"bench", m.shape()}, {"measured_us", m.time_us}, {"ok", f.ok}};
    if (f.ok) {
      e["before_us"] = f.before_us;
      e["after_us"] = f.after_us;
      e["error_before"] = f.error_before();
      e["error_after"] = f.error_after();
    } else {
      e["problem"] = f.problem;
    }
    ms.push_back(e);
  }
  auto error = [](const FitError& e) { return json{{"rms", e.rms}, {"max", e.max}}; };
  return {{"device", std::string(r.start->id)},
          {"table_version", std::string(r.start->version)},
          {"new_version", r.output.empty() ? json(nullptr) : json(r.new_version)},
          {"output", r.output.empty() ? json(nullptr) : json(r.output)},
          {"optimiser", c.optimiser},
          {"evaluations", c.evaluations},
          {"used", c.used},
          {"params", params},
          {"error", {{"before", error(c.before)}, {"after", error(c.after)}}},
          {"measurements", ms}};
}

// Section - the command

/// Groups the measurements by device; the rest are skipped (unknown device)
/// or ignored (another device than --device or --table asks for).
std::vector<DeviceRun> by_device(const MeasurementFile& mf, const DeviceInfo* only, const LoadedDevice* table,
                                 std::vector<std::pair<const Measurement*, std::string>>& skipped, size_t& ignored) {
  std::vector<DeviceRun> runs;
  for (const Measurement& m : mf.measurements) {
    const DeviceInfo* d = resolve(m.device, table);
    if (!d) {
      skipped.emplace_back(&m, "unknown device `" + m.device + "`");
      continue;
    }
    if ((only && d != only) || (table && d != &table->info())) {
      ++ignored;
      continue;
    }
    auto run = std::find_if(runs.begin(), runs.end(), [&](const DeviceRun& r) { return r.start == d; });
    if (run == runs.end()) run = runs.insert(runs.end(), DeviceRun{d, {}});
    run->measurements.push_back(&m);
  }
  return runs;
}

std::string skipped_text(const std::string& file, const Measurement& m, const std::string& why) {
  return "cake calibrate: " + file + ": measurement " + std::to_string(m.index) + " (" + m.kernel + " in " + m.where() +
         "): " + why + "; skipped\n";
}

}  // namespace

std::string calibrate_help() {
  return R"(usage: cake calibrate --measurements FILE.json [options]

Fits the calibratable parameters of each measured device's cost-model table
(achieved fractions of each roof, tensor-core efficiency per instruction,
load latency per movement engine, barrier round trip, per-iteration and
launch overheads) to measured kernel times by bounded least squares, and
reports each parameter old -> new and the error before and after
(docs/cost-model.md, "Calibration", defines the measurement file).

  --measurements FILE     the measurement file (format cake-measurements, version 1)
  -o, --output TABLE      write the fitted device table (a new version) to TABLE;
                          needs the measurements of one device (see --device)
  --device D              fit only the measurements on device D (id or alias)
  --table FILE            start from this device table instead of the embedded
                          one, and fit only the measurements on its device
  --format text|json      report format (default text)

exit status: 0 fitted, 1 a measurement could not be estimated (skipped) or
nothing could be fitted, 2 usage or I/O error.
)";
}

int run_calibrate(Args args) {
  CalibrateOptions o;
  if (auto status = parse(args, o)) return *status;
  auto usage = [](const std::string& m) {
    write_all(stderr, "cake calibrate: " + m + "\n");
    return kExitUsage;
  };
  LoadedTable table;
  if (!o.table.empty() && !(table = load_device_table(o.table)).device) return usage(table.error);
  const DeviceInfo* only = o.device.empty() ? nullptr : resolve(o.device, table.device.get());
  if (!o.device.empty() && !only) return usage("unknown device '" + o.device + "'");
  MeasurementFile mf = read_measurements(o.measurements);
  if (!mf.error.empty()) return usage(mf.error);

  std::vector<std::pair<const Measurement*, std::string>> skipped;
  size_t ignored = 0;
  std::vector<DeviceRun> runs = by_device(mf, only, table.device.get(), skipped, ignored);
  if (runs.size() > 1 && !o.output.empty()) {
    std::string ids;
    for (const DeviceRun& r : runs) ids += (ids.empty() ? "" : ", ") + std::string(r.start->id);
    return usage("measurements on several devices (" + ids + "): -o writes one table, choose it with --device");
  }
  int status = kExitOk;
  std::vector<FitReport> fits;
  for (const DeviceRun& run : runs) {
    FitReport& r = fits.emplace_back();
    r.start = run.start;
    r.set = prepare_samples(run.measurements, *run.start);
    r.fit = calibrate(*run.start, r.set.samples);
    for (auto& s : r.set.skipped) skipped.push_back(s);
    for (size_t i = 0; i < r.fit.samples.size(); ++i)
      if (!r.fit.samples[i].ok) skipped.emplace_back(r.set.measured[i], r.fit.samples[i].problem);
    if (r.fit.used == 0) {
      write_all(stderr, "cake calibrate: " + std::string(run.start->id) + ": no measurement could be estimated; nothing fitted\n");
      status = kExitFindings;
      continue;
    }
    if (o.output.empty()) continue;
    r.new_version = next_version(run.start->version);
    if (!write_table(o.output, table_json(r, table.device.get(), o.measurements)))
      return usage(o.output + ": cannot write the table");
    r.output = o.output;
  }
  std::sort(skipped.begin(), skipped.end(), [](const auto& a, const auto& b) { return a.first->index < b.first->index; });
  for (const auto& [m, why] : skipped) write_all(stderr, skipped_text(o.measurements, *m, why));
  if (!skipped.empty() && status == kExitOk) status = kExitFindings;
  if (runs.empty()) {
    write_all(stderr, "cake calibrate: " + o.measurements + ": no measurement to fit\n");
    status = kExitFindings;
  }

  std::string text = "cake calibrate: " + o.measurements + ": " + std::to_string(mf.measurements.size()) +
                     " measurements, " + std::to_string(skipped.size()) + " skipped, " + std::to_string(ignored) +
                     " on other devices\n";
  json report = {{"tool", "cake calibrate"}, {"measurements", o.measurements}, {"fits", json::array()}};
  for (const FitReport& r : fits) {
    text += fit_text(r);
    report["fits"].push_back(fit_json(r));
  }
  report["skipped"] = json::array();
  for (const auto& [m, why] : skipped) report["skipped"].push_back({{"index", m->index}, {"reason", why}});
  report["ignored"] = ignored;
  bool written = write_all(stdout, o.json ? report.dump(2) + "\n" : text);
  return written ? status : kExitUsage;
}

}  // namespace cake::cli
