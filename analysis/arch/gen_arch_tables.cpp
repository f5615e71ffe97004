// cake-arch-gen: the build-time generator of the architecture tables. It
// reads analysis/arch/sources.json and every analysis/arch/<target>.json,
// checks them (every number has a known source id and a status, every
// feature is listed, no key is unknown), and writes one C++ source of
// constexpr tables that cake_analysis compiles (see cake/arch.h). So the
// analysis library embeds the data and never parses JSON or reads a file.
//
// Usage: cake-arch-gen OUT.cpp SOURCES.json TARGET.json... [--devices DEVICE.json...]
// The device files (analysis/arch/devices/<id>.json, cake/device.h) are the
// cost model's machines; each names targets, which must be known.
// Exit status 0 on success; 1 with a message naming the file and key on
// any problem (the build then fails).
#include "cake/arch.h"
#include "cake/device.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct Problem : std::runtime_error {
  using std::runtime_error::runtime_error;
};

json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Problem(path + ": cannot read");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw Problem(path + ": " + e.what());
  }
}

constexpr const char* kLimitKeys[] = {
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) #KEY,
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
};
constexpr const char* kLimitSections[] = {
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) SECTION,
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
};
constexpr const char* kDeviceParamKeys[] = {
#define CAKE_DEVICE_PARAM(KEY, UNIT, DESCRIPTION) #KEY,
#include "cake/device_params.def"
#undef CAKE_DEVICE_PARAM
};
/// Parameters that may be 0: the overheads calibration may fit to nothing
/// (an absolute lower bound of 0 in calibrated_params.def).
bool may_be_zero(std::string_view key) {
  struct Bound {
    const char* key;
    bool absolute;
    double lower;
  };
  enum { Absolute = 1, Relative = 0 };
  constexpr Bound kBounds[] = {
#define CAKE_CALIBRATED(KEY, KIND, LOWER, UPPER) {#KEY, KIND == Absolute, LOWER},
#include "cake/calibrated_params.def"
#undef CAKE_CALIBRATED
  };
  for (const Bound& b : kBounds)
    if (key == b.key) return b.absolute && b.lower == 0;
  return false;
}

constexpr const char* kFeatureKeys[] = {
#define CAKE_FEATURE(ID, KEY, NAME) #KEY,
#include "cake/arch_features.def"
#undef CAKE_FEATURE
};

/// The structured entries of "instructions" (everything else there is a limit).
const std::set<std::string> kStructuredInstructions = {"cp_async_sizes", "swizzles", "mma_sync", "wgmma", "tcgen05_mma"};

const std::set<std::string> kStatuses = {"confirmed", "secondary", "derived", "unconfirmed"};

std::string cpp_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out + "\"";
}

std::string status_enum(const std::string& s) {
  std::string out = s;
  out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return "Status::" + out;
}

class Generator {
 public:
  explicit Generator(std::set<std::string> source_ids) : source_ids_(std::move(source_ids)) {}

  /// Every number must sit in an object with a valid "src" and "status".
  void check_sourced(const json& j, const std::string& where, const json* owner) {
    if (j.is_object()) {
      const json* self = j.contains("src") ? &j : owner;
      if (j.contains("src")) {
        sources_of(j, where);
        if (!j.contains("status") || !j["status"].is_string() || !kStatuses.count(j["status"].get<std::string>()))
          throw Problem(where + ": `status` must be one of confirmed, secondary, derived, unconfirmed");
      }
      for (auto& [k, v] : j.items()) check_sourced(v, where + "." + k, self);
    } else if (j.is_array()) {
      for (size_t i = 0; i < j.size(); ++i) check_sourced(j[i], where + "[" + std::to_string(i) + "]", owner);
    } else if (j.is_number() && !owner) {
      throw Problem(where + ": a number without a source (wrap it as {\"value\": N, \"src\": ..., \"status\": ...})");
    }
  }

  std::string sources_of(const json& j, const std::string& where) {
    const json& s = j["src"];
    std::vector<std::string> ids;
    if (s.is_string()) ids.push_back(s.get<std::string>());
    else if (s.is_array())
      for (const json& x : s) {
        if (!x.is_string()) throw Problem(where + ": `src` must be an id or a list of ids");
        ids.push_back(x.get<std::string>());
      }
    else
      throw Problem(where + ": `src` must be an id or a list of ids");
    if (ids.empty()) throw Problem(where + ": `src` is empty");
    std::string joined;
    for (const std::string& id : ids) {
      if (!source_ids_.count(id)) throw Problem(where + ": unknown source id `" + id + "` (see sources.json)");
      joined += (joined.empty() ? "" : ", ") + id;
    }
    return joined;
  }

  std::string sourced_int(const json& j, const std::string& where) {
    if (!j.is_object() || !j.contains("value") || !j["value"].is_number_integer())
      throw Problem(where + ": expected {\"value\": INTEGER, \"src\": ..., \"status\": ...}");
    return "{" + std::to_string(j["value"].get<int64_t>()) + ", " + cpp_string(sources_of(j, where)) + ", " +
           status_enum(j["status"].get<std::string>()) + "}";
  }

  static std::string dtype_enum(const json& j, const std::string& where) {
    static const std::set<std::string> kNames = {"f64", "f32", "tf32", "f16", "bf16", "f8e4m3", "f8e5m2",
                                                 "f6e3m2", "f6e2m3", "f4e2m1", "i64", "i32", "i16", "i8",
                                                 "u64", "u32", "u16", "u8", "b32"};
    if (!j.is_string() || !kNames.count(j.get<std::string>())) throw Problem(where + ": unknown dtype " + j.dump());
    std::string s = j.get<std::string>();
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return "DType::" + s;
  }

  std::string step_ranges(const json& j, const std::string& where, const std::string& name) {
    if (!j.is_array() || j.empty()) throw Problem(where + ": expected a list of [first, last, step]");
    std::string body;
    for (const json& r : j) {
      if (!r.is_array() || r.size() != 3 || !r[0].is_number_integer() || !r[1].is_number_integer() ||
          !r[2].is_number_integer() || r[2].get<int>() <= 0 || r[0].get<int>() > r[1].get<int>())
        throw Problem(where + ": expected [first, last, step] with first <= last and step > 0");
      body += "{" + std::to_string(r[0].get<int>()) + ", " + std::to_string(r[1].get<int>()) + ", " +
              std::to_string(r[2].get<int>()) + "}, ";
    }
    arrays_ += "constexpr StepRange " + name + "[] = {" + body + "};\n";
    return name;
  }

  std::string int_array(const json& j, const std::string& where, const std::string& name) {
    if (!j.is_array() || j.empty()) throw Problem(where + ": expected a non-empty list of integers");
    std::string body;
    for (const json& x : j) {
      if (!x.is_number_integer()) throw Problem(where + ": expected integers");
      body += std::to_string(x.get<int64_t>()) + ", ";
    }
    arrays_ += "constexpr int32_t " + name + "[] = {" + body + "};\n";
    return name;
  }

  void target(const std::string& path) {
    json j = read_json(path);
    std::string where = path;
    for (const char* key : {"target", "version", "family"})
      if (!j.contains(key) || !j[key].is_string()) throw Problem(where + ": needs a string `" + std::string(key) + "`");
    std::string name = j["target"].get<std::string>();
    check_sourced(j, name, nullptr);
    for (const auto& [k, v] : j.items())
      if (k != "target" && k != "version" && k != "family" && k != "based_on" && k != "note" && k != "limits" &&
          k != "features" && k != "instructions")
        throw Problem(where + ": unknown key `" + k + "`");
    std::string id = "k_" + name;
    std::ostringstream t;
    t << "  {\n    .name = " << cpp_string(name) << ",\n    .family = " << cpp_string(j["family"].get<std::string>())
      << ",\n    .version = " << cpp_string(j["version"].get<std::string>()) << ",\n";
    // Limits, in the order of arch_limits.def.
    std::set<std::string> seen;
    for (size_t i = 0; i < std::size(kLimitKeys); ++i) {
      std::string section = kLimitSections[i], key = kLimitKeys[i];
      const json& sec = j.contains(section) ? j[section] : json::object();
      t << "    ." << key << " = ";
      if (sec.contains(key)) t << sourced_int(sec[key], name + "." + section + "." + key);
      else t << "{}";
      t << ",\n";
      seen.insert(section + "." + key);
    }
    for (const char* section : {"limits", "instructions"}) {
      if (!j.contains(section)) continue;
      for (const auto& [k, v] : j[section].items())
        if (!seen.count(std::string(section) + "." + k) &&
            !(std::string(section) == "instructions" && kStructuredInstructions.count(k)))
          throw Problem(where + ": unknown key `" + std::string(section) + "." + k + "` (add it to arch_limits.def)");
    }
    // Features: every one listed, none unknown.
    const json& features = j.contains("features") ? j["features"] : json::object();
    t << "    .features = {{\n";
    for (const char* key : kFeatureKeys) {
      std::string w = name + ".features." + key;
      if (!features.contains(key)) throw Problem(w + ": missing (every target lists every feature)");
      const json& f = features[key];
      if (!f.is_object() || !f.contains("value") || !f["value"].is_boolean())
        throw Problem(w + ": expected {\"value\": true|false, \"src\": ..., \"status\": ...}");
      if (!f.contains("src")) throw Problem(w + ": needs a `src`");
      t << "      {" << (f["value"].get<bool>() ? "true" : "false") << ", " << cpp_string(sources_of(f, w)) << ", "
        << status_enum(f["status"].get<std::string>()) << "},\n";
    }
    for (const auto& item : features.items()) {
      const std::string key = item.key();  // a plain variable: clang 14 cannot capture structured bindings
      if (std::find_if(std::begin(kFeatureKeys), std::end(kFeatureKeys), [&](const char* x) { return key == x; }) ==
          std::end(kFeatureKeys))
        throw Problem(where + ": unknown feature `" + key + "` (add it to arch_features.def)");
    }
    t << "    }},\n";
    const json& ins = j.contains("instructions") ? j["instructions"] : json::object();
    // cp.async sizes.
    if (ins.contains("cp_async_sizes")) {
      const json& c = ins["cp_async_sizes"];
      std::string w = name + ".instructions.cp_async_sizes";
      if (!c.is_object() || !c.contains("value")) throw Problem(w + ": expected {\"value\": [...], \"src\": ...}");
      t << "    .cp_async_sizes = " << int_array(c["value"], w, id + "_cp_async") << ",\n";
      t << "    .cp_async_src = " << cpp_string(sources_of(c, w)) << ",\n";
    } else {
      t << "    .cp_async_sizes = {},\n    .cp_async_src = {},\n";
    }
    // Swizzles.
    if (ins.contains("swizzles")) {
      std::string body;
      for (size_t i = 0; i < ins["swizzles"].size(); ++i) {
        const json& s = ins["swizzles"][i];
        std::string w = name + ".instructions.swizzles[" + std::to_string(i) + "]";
        std::string mode = s.value("mode", "");
        std::string e = mode == "32B" ? "Swizzle::B32" : mode == "64B" ? "Swizzle::B64" : mode == "128B" ? "Swizzle::B128" : "";
        if (e.empty()) throw Problem(w + ": `mode` must be 32B, 64B or 128B");
        body += "{" + e + ", " + sourced_int(s.value("span", json()), w + ".span") + ", " +
                sourced_int(s.value("align", json()), w + ".align") + "}, ";
      }
      arrays_ += "constexpr SwizzleRule " + id + "_swizzles[] = {" + body + "};\n";
      t << "    .swizzles = " << id << "_swizzles,\n";
    } else {
      t << "    .swizzles = {},\n";
    }
    // mma.sync shapes: one row per (dtype, shape).
    if (ins.contains("mma_sync")) {
      std::string body;
      for (size_t i = 0; i < ins["mma_sync"].size(); ++i) {
        const json& e = ins["mma_sync"][i];
        std::string w = name + ".instructions.mma_sync[" + std::to_string(i) + "]";
        std::string dt = dtype_enum(e.value("dtype", json()), w);
        std::string src = cpp_string(sources_of(e, w)), st = status_enum(e["status"].get<std::string>());
        if (!e.contains("shapes") || !e["shapes"].is_array()) throw Problem(w + ": needs `shapes`");
        for (const json& s : e["shapes"]) {
          if (!s.is_array() || s.size() != 3) throw Problem(w + ": a shape is [m, n, k]");
          body += "{" + dt + ", " + std::to_string(s[0].get<int>()) + ", " + std::to_string(s[1].get<int>()) + ", " +
                  std::to_string(s[2].get<int>()) + ", " + src + ", " + st + "},\n  ";
        }
      }
      arrays_ += "constexpr MmaSyncShape " + id + "_mma_sync[] = {\n  " + body + "};\n";
      t << "    .mma_sync = " << id << "_mma_sync,\n";
    } else {
      t << "    .mma_sync = {},\n";
    }
    if (ins.contains("wgmma")) {
      std::string body;
      for (size_t i = 0; i < ins["wgmma"].size(); ++i) {
        const json& e = ins["wgmma"][i];
        std::string w = name + ".instructions.wgmma[" + std::to_string(i) + "]";
        std::string n = step_ranges(e.value("n", json()), w + ".n", id + "_wgmma_n" + std::to_string(i));
        body += "{" + dtype_enum(e.value("dtype", json()), w) + ", " + std::to_string(e.value("m", 0)) + ", " +
                std::to_string(e.value("k", 0)) + ", " + n + ", " + cpp_string(sources_of(e, w)) + ", " +
                status_enum(e["status"].get<std::string>()) + "},\n  ";
      }
      arrays_ += "constexpr WgmmaShape " + id + "_wgmma[] = {\n  " + body + "};\n";
      t << "    .wgmma = " << id << "_wgmma,\n";
    } else {
      t << "    .wgmma = {},\n";
    }
    if (ins.contains("tcgen05_mma")) {
      std::string body;
      for (size_t i = 0; i < ins["tcgen05_mma"].size(); ++i) {
        const json& e = ins["tcgen05_mma"][i];
        std::string w = name + ".instructions.tcgen05_mma[" + std::to_string(i) + "]";
        std::string suffix = id + "_tcgen05_" + std::to_string(i);
        std::string dts;
        for (const json& d : e.value("dtypes", json::array())) dts += dtype_enum(d, w) + ", ";
        if (dts.empty()) throw Problem(w + ": needs `dtypes`");
        arrays_ += "constexpr DType " + suffix + "_dtypes[] = {" + dts + "};\n";
        std::string m = int_array(e.value("m", json()), w + ".m", suffix + "_m");
        std::string n = step_ranges(e.value("n", json()), w + ".n", suffix + "_n");
        body += "{" + cpp_string(e.value("kind", "")) + ", " + suffix + "_dtypes, " +
                std::to_string(e.value("cta_group", 1)) + ", " + m + ", " + n + ", " + std::to_string(e.value("k", 0)) +
                ", " + cpp_string(sources_of(e, w)) + ", " + status_enum(e["status"].get<std::string>()) + "},\n  ";
      }
      arrays_ += "constexpr Tcgen05Shape " + id + "_tcgen05[] = {\n  " + body + "};\n";
      t << "    .tcgen05_mma = " << id << "_tcgen05,\n";
    } else {
      t << "    .tcgen05_mma = {},\n";
    }
    t << "  },\n";
    targets_.push_back({name, t.str()});
  }

  /// A list of strings, as a constexpr array named `name`.
  std::string string_array(const json& j, const std::string& where, const std::string& name) {
    if (!j.is_array()) throw Problem(where + ": expected a list of strings");
    std::string body;
    for (const json& x : j) {
      if (!x.is_string()) throw Problem(where + ": expected strings");
      body += cpp_string(x.get<std::string>()) + ", ";
    }
    arrays_ += "constexpr std::string_view " + name + "[] = {" + body + "};\n";
    return j.empty() ? "{}" : name;
  }

  void device(const std::string& path) {
    json j = read_json(path);
    for (const char* key : {"device", "name", "arch", "version"})
      if (!j.contains(key) || !j[key].is_string()) throw Problem(path + ": needs a string `" + std::string(key) + "`");
    std::string name = j["device"].get<std::string>();
    check_sourced(j, name, nullptr);
    for (const auto& [k, v] : j.items())
      if (k != "device" && k != "aliases" && k != "name" && k != "arch" && k != "targets" && k != "default_for" &&
          k != "version" && k != "based_on" && k != "note" && k != "params")
        throw Problem(path + ": unknown key `" + k + "`");
    const json& aliases = j.value("aliases", json::array());
    if (!aliases.is_array() || aliases.size() != 1 || !aliases[0].is_string())
      throw Problem(path + ": `aliases` must list one short name");
    std::string id = "d_" + std::to_string(devices_.size());
    for (const char* key : {"targets", "default_for"})
      for (const json& t : j.value(key, json::array()))
        if (!t.is_string() || !targets_named(t.get<std::string>()))
          throw Problem(path + ": `" + key + "` names an unknown target " + t.dump());
    for (const json& t : j.value("default_for", json::array())) {
      std::string target = t.get<std::string>();
      if (!defaults_.insert(target).second) throw Problem(path + ": a second default device for " + target);
      const json targets = j.value("targets", json::array());
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) throw Problem(path + ": default for " + target + " it cannot run");
    }
    std::ostringstream d;
    d << "  {\n    .id = " << cpp_string(name) << ",\n    .alias = " << cpp_string(aliases[0].get<std::string>())
      << ",\n    .name = " << cpp_string(j["name"].get<std::string>()) << ",\n    .arch = "
      << cpp_string(j["arch"].get<std::string>()) << ",\n    .version = " << cpp_string(j["version"].get<std::string>())
      << ",\n    .targets = " << string_array(j.value("targets", json::array()), path + ".targets", id + "_targets")
      << ",\n    .default_for = "
      << string_array(j.value("default_for", json::array()), path + ".default_for", id + "_defaults") << ",\n";
    const json& params = j.contains("params") ? j["params"] : json::object();
    for (const auto& item : params.items()) {
      const std::string key = item.key();
      if (std::find_if(std::begin(kDeviceParamKeys), std::end(kDeviceParamKeys),
                       [&](const char* x) { return key == x; }) == std::end(kDeviceParamKeys))
        throw Problem(path + ": unknown parameter `" + key + "` (add it to device_params.def)");
    }
    for (const char* key : kDeviceParamKeys) {
      std::string w = name + ".params." + key;
      d << "    ." << key << " = ";
      if (!params.contains(key)) {
        d << "{},\n";
        continue;
      }
      const json& e = params[key];
      bool zero_ok = may_be_zero(key);
      if (!e.is_object() || !e.contains("value") || !e["value"].is_number() || e["value"].get<double>() < 0 ||
          (!zero_ok && e["value"].get<double>() == 0))
        throw Problem(w + ": expected {\"value\": " + (zero_ok ? "NUMBER >= 0" : "POSITIVE NUMBER") +
                      ", \"src\": ..., \"status\": ...}");
      std::ostringstream v;
      v.precision(17);
      v << e["value"].get<double>();
      d << "{" << v.str() << ", " << cpp_string(sources_of(e, w)) << ", " << status_enum(e["status"].get<std::string>())
        << "},\n";
    }
    for (std::string_view key : cake::kRequiredDeviceParams)
      if (!params.contains(std::string(key))) throw Problem(name + ".params." + std::string(key) + ": required for every device");
    for (const auto& item : params.items())
      if (item.key().starts_with("eff_") && item.value()["value"].get<double>() > 1)
        throw Problem(name + ".params." + item.key() + ": a fraction must be at most 1");
    d << "  },\n";
    devices_.push_back(d.str());
  }

  std::string output(const json& sources) {
    // Oldest first: by the number after "sm_", then by suffix (sm_90 before sm_90a).
    auto key = [](const std::string& n) {
      size_t i = n.find_first_of("0123456789");
      size_t e = n.find_first_not_of("0123456789", i == std::string::npos ? n.size() : i);
      int num = i == std::string::npos ? 0 : std::stoi(n.substr(i, e - i));
      return std::pair{num, e == std::string::npos ? std::string() : n.substr(e)};
    };
    std::sort(targets_.begin(), targets_.end(), [&](const auto& a, const auto& b) { return key(a.first) < key(b.first); });
    for (size_t i = 1; i < targets_.size(); ++i)
      if (targets_[i].first == targets_[i - 1].first) throw Problem("target `" + targets_[i].first + "` is defined twice");
    std::ostringstream o;
    o << "// Generated by cake-arch-gen from analysis/arch/*.json. Do not edit:\n"
         "// change the JSON files (cake/arch.h describes the tables).\n"
         "#include \"cake/arch.h\"\n#include \"cake/device.h\"\n\nnamespace cake {\nnamespace {\n\n"
      << arrays_ << "\nconstexpr TargetInfo kTargets[] = {\n";
    for (const auto& [name, text] : targets_) o << text;
    o << "};\n\nconstexpr DeviceInfo kDevices[] = {\n";
    for (const std::string& text : devices_) o << text;
    o << "};\n\nconstexpr SourceInfo kSources[] = {\n";
    for (const auto& [id, s] : sources["sources"].items())
      o << "  {" << cpp_string(id) << ", " << cpp_string(s.value("title", "")) << ", " << cpp_string(s.value("url", ""))
        << "},\n";
    o << "};\n\n}  // namespace\n\n"
         "std::span<const TargetInfo> all_targets() { return kTargets; }\n\n"
         "const TargetInfo* find_target(std::string_view name) {\n"
         "  for (const TargetInfo& t : kTargets)\n    if (t.name == name) return &t;\n  return nullptr;\n}\n\n"
         "std::span<const DeviceInfo> all_devices() { return kDevices; }\n\n"
         "std::span<const SourceInfo> all_sources() { return kSources; }\n\n"
         "const SourceInfo* find_source(std::string_view id) {\n"
         "  for (const SourceInfo& s : kSources)\n    if (s.id == id) return &s;\n  return nullptr;\n}\n\n"
         "}  // namespace cake\n";
    return o.str();
  }

 private:
  std::set<std::string> source_ids_;
  std::string arrays_;
  std::vector<std::pair<std::string, std::string>> targets_;
  std::vector<std::string> devices_;
  std::set<std::string> defaults_;

  bool targets_named(const std::string& name) const {
    return std::any_of(targets_.begin(), targets_.end(), [&](const auto& t) { return t.first == name; });
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUT.cpp SOURCES.json TARGET.json...\n", argv[0]);
    return 2;
  }
  try {
    json sources = read_json(argv[2]);
    if (!sources.contains("sources") || !sources["sources"].is_object())
      throw Problem(std::string(argv[2]) + ": needs an object `sources`");
    std::set<std::string> ids;
    for (const auto& [id, s] : sources["sources"].items()) ids.insert(id);
    Generator gen(std::move(ids));
    int i = 3;
    for (; i < argc && std::string(argv[i]) != "--devices"; ++i) gen.target(argv[i]);
    for (++i; i < argc; ++i) gen.device(argv[i]);
    std::string text = gen.output(sources);
    // Write only when the text changed, so an unchanged table rebuilds nothing.
    std::ifstream old(argv[1], std::ios::binary);
    std::ostringstream current;
    if (old) current << old.rdbuf();
    if (!old || current.str() != text) {
      std::ofstream out(argv[1], std::ios::binary);
      out << text;
      if (!out) throw Problem(std::string(argv[1]) + ": cannot write");
    }
  } catch (const Problem& e) {
    std::fprintf(stderr, "cake-arch-gen: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cake-arch-gen: %s\n", e.what());
    return 1;
  }
  return 0;
}
