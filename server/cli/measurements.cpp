// Reading and checking a measurement file (measurements.h). Any problem with
// the file itself (not JSON, another format or version, an entry without a
// time) is an error of the whole file: a usage or I/O error for the command.
// Whether each entry's kernel can be estimated is the caller's business.
#include "measurements.h"

#include "json_file.h"

#include <cmath>
#include <filesystem>

namespace cake::cli {

using json = nlohmann::ordered_json;

namespace {

/// A string member, or nullptr when it is missing or not a non-empty string.
const json* text(const json& o, const char* key) {
  return o.contains(key) && o[key].is_string() && !o[key].get<std::string>().empty() ? &o[key] : nullptr;
}

struct EntryReader {
  const std::filesystem::path& dir;
  Measurement m;
  std::string error;

  bool fail(std::string why) {
    error = "measurement " + std::to_string(m.index) + ": " + std::move(why);
    return false;
  }

  bool kernel_source(const json& e) {
    const json* file = text(e, "file");
    bool source = e.contains("source") && e["source"].is_string();
    if (!file == !source) return fail("needs either \"file\" (a path) or \"source\" (the kernel's text)");
    if (file) {
      m.file = file->get<std::string>();
      std::filesystem::path p(m.file);
      m.path = (p.is_absolute() ? p : dir / p).lexically_normal().string();
    } else {
      m.embedded = true;
      m.source = e["source"].get<std::string>();
    }
    return true;
  }

  bool bench(const json& e) {
    if (!e.contains("bench") || !e["bench"].is_object())
      return fail("needs \"bench\": an object of shape symbols and their values");
    for (const auto& [name, v] : e["bench"].items()) {
      if (!v.is_number_integer()) return fail("bench symbol `" + name + "` needs an integer value");
      m.bench.emplace_back(name, v.get<int64_t>());
    }
    return true;
  }

  bool optional_fields(const json& e) {
    if (e.contains("repetitions")) {
      if (!e["repetitions"].is_number_integer() || e["repetitions"].get<int64_t>() <= 0)
        return fail("\"repetitions\" must be a positive integer");
      m.repetitions = e["repetitions"].get<int64_t>();
    }
    m.metrics = e.contains("metrics") ? e["metrics"] : json::object();
    if (!m.metrics.is_object()) return fail("\"metrics\" must be an object of numbers");
    for (const auto& [name, v] : m.metrics.items())
      if (!v.is_number()) return fail("metric `" + name + "` must be a number");
    return true;
  }

  bool read(const json& e) {
    if (!e.is_object()) return fail("not an object");
    if (!kernel_source(e)) return false;
    for (auto [key, field] : {std::pair{"kernel", &m.kernel}, {"target", &m.target}, {"device", &m.device}}) {
      const json* v = text(e, key);
      if (!v) return fail("needs a string \"" + std::string(key) + "\"");
      *field = v->get<std::string>();
    }
    if (!bench(e)) return false;
    if (!e.contains("time_us") || !e["time_us"].is_number() || !std::isfinite(e["time_us"].get<double>()) ||
        e["time_us"].get<double>() <= 0)
      return fail("needs \"time_us\": the measured time, a number > 0");
    m.time_us = e["time_us"].get<double>();
    return optional_fields(e);
  }
};

std::string format_error(const json& doc) {
  if (!doc.is_object()) return "not a measurement file (a JSON object)";
  if (!doc.contains("format") || doc["format"] != kMeasurementFormat)
    return "not a measurement file: \"format\" must be \"" + std::string(kMeasurementFormat) + "\"";
  if (!doc.contains("version") || !doc["version"].is_number_integer())
    return "needs an integer \"version\"";
  if (doc["version"].get<int64_t>() != kMeasurementVersion)
    return "measurement format version " + doc["version"].dump() + " is not supported (this cake reads version " +
           std::to_string(kMeasurementVersion) + ")";
  if (!doc.contains("measurements") || !doc["measurements"].is_array()) return "needs a list \"measurements\"";
  return "";
}

}  // namespace

std::string Measurement::where() const { return embedded ? "<measurement " + std::to_string(index) + ">" : file; }

std::string Measurement::shape() const {
  std::string s;
  for (const auto& [name, v] : bench) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(v);
  return s;
}

MeasurementFile read_measurements(const std::string& path) {
  JsonFile f = read_json_file(path);
  if (!f.error.empty()) return {{}, f.error};
  const json& doc = f.doc;
  if (std::string why = format_error(doc); !why.empty()) return {{}, path + ": " + why};
  MeasurementFile out;
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  for (const json& e : doc["measurements"]) {
    EntryReader reader{dir, {}, {}};
    reader.m.index = out.measurements.size() + 1;
    if (!reader.read(e)) return {{}, path + ": " + reader.error};
    out.measurements.push_back(std::move(reader.m));
  }
  return out;
}

}  // namespace cake::cli
