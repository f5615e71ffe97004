// Reading and writing device tables at run time (device_table.h). The rules
// are cake-arch-gen's for the embedded tables, less the source ids (a table
// written by `cake calibrate` cites "calibrated", which sources.json has):
// known parameter keys, {value, src, status} each, the required parameters,
// fractions at most 1, known targets.
#include "device_table.h"

#include "json_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <optional>

namespace cake::cli {

using json = nlohmann::ordered_json;

namespace {

constexpr std::string_view kStatuses[] = {"confirmed", "secondary", "derived", "unconfirmed"};

std::optional<Status> status_of(std::string_view name) {
  for (size_t i = 0; i < std::size(kStatuses); ++i)
    if (kStatuses[i] == name) return static_cast<Status>(i + 1);  // Status::None comes first
  return std::nullopt;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// "a, b" for ["a", "b"]; "a" for "a"; nullopt for anything else.
std::optional<std::string> joined_src(const json& src) {
  if (src.is_string()) return src.get<std::string>();
  if (!src.is_array() || src.empty()) return std::nullopt;
  std::string out;
  for (const json& s : src) {
    if (!s.is_string()) return std::nullopt;
    out += (out.empty() ? "" : ", ") + s.get<std::string>();
  }
  return out;
}

/// The inverse of joined_src: one id as a string, several as a list.
json src_json(std::string_view src) {
  json ids = json::array();
  for (size_t at = 0; at <= src.size();) {
    size_t comma = src.find(", ", at);
    if (comma == std::string_view::npos) comma = src.size();
    ids.push_back(std::string(src.substr(at, comma - at)));
    at = comma + 2;
  }
  return ids.size() == 1 ? ids[0] : ids;
}

/// An integral value as an integer (132, not 132.0), as the tables write them.
json number(double v) {
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return static_cast<int64_t>(v);
  return v;
}

}  // namespace

/// Fills a LoadedDevice from its JSON, or says what is wrong.
struct TableReader {
  LoadedDevice& d;
  std::string error;

  bool fail(std::string why) {
    error = std::move(why);
    return false;
  }

  bool strings(const json& j, std::string_view key, std::vector<std::string_view>& out) {
    const json& list = j.contains(key) ? j[std::string(key)] : json::array();
    if (!list.is_array()) return fail("`" + std::string(key) + "` must be a list of targets");
    for (const json& t : list) {
      if (!t.is_string() || !find_target(t.get<std::string>()))
        return fail("`" + std::string(key) + "` names an unknown target " + t.dump());
      out.push_back(d.keep(t.get<std::string>()));
    }
    return true;
  }

  bool param(const std::string& key, const json& e) {
    auto id = find_device_param(key);
    if (!id) return fail("unknown parameter `" + key + "`");
    std::string where = "params." + key;
    if (!e.is_object() || !e.contains("value") || !e["value"].is_number())
      return fail(where + ": expected {\"value\": NUMBER, \"src\": ..., \"status\": ...}");
    double v = e["value"].get<double>();
    if (!std::isfinite(v) || v < 0) return fail(where + ": the value must be a number >= 0");
    if (key.starts_with("eff_") && v > 1) return fail(where + ": a fraction must be at most 1");
    auto src = joined_src(e.contains("src") ? e["src"] : json());
    if (!src) return fail(where + ": `src` must be an id or a list of ids");
    auto status = status_of(e.contains("status") && e["status"].is_string() ? e["status"].get<std::string>() : "");
    if (!status) return fail(where + ": `status` must be one of confirmed, secondary, derived, unconfirmed");
    d.info_.param(*id) = DeviceParam{v, d.keep(*src), *status};
    return true;
  }

  bool read(json doc) {
    d.source_ = std::move(doc);
    const json& j = d.source_;
    if (!j.is_object()) return fail("not a device table (a JSON object)");
    for (const char* key : {"device", "name", "arch", "version"})
      if (!j.contains(key) || !j[key].is_string()) return fail("needs a string `" + std::string(key) + "`");
    d.info_.id = d.keep(j["device"].get<std::string>());
    const json& aliases = j.contains("aliases") ? j["aliases"] : json::array();
    d.info_.alias = aliases.is_array() && !aliases.empty() && aliases[0].is_string()
                        ? d.keep(aliases[0].get<std::string>())
                        : d.info_.id;
    d.info_.name = d.keep(j["name"].get<std::string>());
    d.info_.arch = d.keep(j["arch"].get<std::string>());
    d.info_.version = d.keep(j["version"].get<std::string>());
    if (!strings(j, "targets", d.targets_) || !strings(j, "default_for", d.default_for_)) return false;
    d.info_.targets = d.targets_;
    d.info_.default_for = d.default_for_;
    if (!j.contains("params") || !j["params"].is_object()) return fail("needs an object `params`");
    for (const auto& [key, e] : j["params"].items())
      if (!param(key, e)) return false;
    for (std::string_view key : kRequiredDeviceParams)
      if (!j["params"].contains(std::string(key))) return fail("params." + std::string(key) + " is required");
    return true;
  }
};

bool LoadedDevice::named(std::string_view name) const { return iequals(info_.id, name) || iequals(info_.alias, name); }

LoadedTable load_device_table(const std::string& path) {
  JsonFile f = read_json_file(path);
  if (!f.error.empty()) return {nullptr, f.error};
  auto device = std::make_unique<LoadedDevice>();
  TableReader reader{*device, {}};
  if (!reader.read(std::move(f.doc))) return {nullptr, path + ": " + reader.error};
  return {std::move(device), ""};
}

json device_table_json(const DeviceInfo& device, const json* base) {
  json j = base ? *base : json::object();
  j["device"] = std::string(device.id);
  if (!base) {
    j["aliases"] = json::array({std::string(device.alias)});
    j["name"] = std::string(device.name);
    j["arch"] = std::string(device.arch);
    j["targets"] = json::array();
    for (std::string_view t : device.targets) j["targets"].push_back(std::string(t));
    j["default_for"] = json::array();
    for (std::string_view t : device.default_for) j["default_for"].push_back(std::string(t));
  }
  j["version"] = std::string(device.version);
  json params = base && base->contains("params") ? (*base)["params"] : json::object();
  for (size_t i = 0; i < kDeviceParamCount; ++i) {
    auto id = static_cast<DeviceParamId>(i);
    const DeviceParam& p = device.param(id);
    std::string key(device_param_key(id));
    if (!p.known()) {
      params.erase(key);
      continue;
    }
    json& e = params[key];
    if (!e.is_object()) e = json::object();
    e["value"] = number(p.value);
    e["src"] = src_json(p.src);
    e["status"] = std::string(status_name(p.status));
  }
  j["params"] = params;
  return j;
}

}  // namespace cake::cli
