// Keeps the generated architecture tables (cake/arch.h) in step with their
// source, analysis/arch/*.json: every limit, feature and instruction table
// of every target equals the JSON, every number in the JSON carries a known
// source id and a status, and a few well-known values are spot-checked. Also
// checks that a rule failing on some listed targets names only those
// (Diagnostic::targets).
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/arch.h"
#include "cake/device.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in);
  return json::parse(in);
}

std::vector<fs::path> target_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(CAKE_ARCH_DIR))
    if (e.path().extension() == ".json" && e.path().stem().string().starts_with("sm_")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string joined_src(const json& j) {
  const json& s = j.at("src");
  if (s.is_string()) return s.get<std::string>();
  std::string out;
  for (const json& x : s) out += (out.empty() ? "" : ", ") + x.get<std::string>();
  return out;
}

std::set<std::string> source_ids() {
  std::set<std::string> ids;
  json sources = read_json(fs::path(CAKE_ARCH_DIR) / "sources.json");
  for (const auto& [id, s] : sources.at("sources").items()) ids.insert(id);
  return ids;
}

/// Every number sits in an object with a `src` of known ids and a `status`.
void check_sourced(const json& j, const std::string& where, bool sourced, const std::set<std::string>& ids) {
  if (j.is_object()) {
    bool here = sourced;
    if (j.contains("src")) {
      here = true;
      INFO(where);
      CHECK(j.contains("status"));
      std::vector<std::string> list;
      if (j["src"].is_string()) list.push_back(j["src"].get<std::string>());
      else
        for (const json& x : j["src"]) list.push_back(x.get<std::string>());
      CHECK_FALSE(list.empty());
      for (const std::string& id : list) {
        INFO("source id " << id);
        CHECK(ids.count(id) == 1);
        CHECK(cake::find_source(id) != nullptr);
      }
    }
    for (const auto& [k, v] : j.items()) check_sourced(v, where + "." + k, here, ids);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) check_sourced(j[i], where + "[" + std::to_string(i) + "]", sourced, ids);
  } else if (j.is_number()) {
    INFO(where << " = " << j.dump() << " has no source");
    CHECK(sourced);
  }
}

cake::Status status_of(const json& j) {
  std::string s = j.at("status").get<std::string>();
  if (s == "confirmed") return cake::Status::Confirmed;
  if (s == "secondary") return cake::Status::Secondary;
  if (s == "derived") return cake::Status::Derived;
  return cake::Status::Unconfirmed;
}

}  // namespace

TEST_CASE("every target file is in the tables, oldest first") {
  std::vector<std::string> names;
  for (const cake::TargetInfo& t : cake::all_targets()) names.emplace_back(t.name);
  CHECK(names == std::vector<std::string>{"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a"});
  CHECK(target_files().size() == names.size());
  for (const fs::path& p : target_files()) {
    json j = read_json(p);
    INFO(p.string());
    CHECK(j.at("target").get<std::string>() == p.stem().string());
    CHECK(cake::find_target(p.stem().string()) != nullptr);
    CHECK_FALSE(j.at("version").get<std::string>().empty());
  }
  CHECK(cake::find_target("sm_100") == nullptr);
}

TEST_CASE("every number in the JSON has a known source and a status") {
  std::set<std::string> ids = source_ids();
  for (const fs::path& p : target_files()) check_sourced(read_json(p), p.stem().string(), false, ids);
}

TEST_CASE("the generated tables equal the JSON") {
  for (const fs::path& p : target_files()) {
    json j = read_json(p);
    const cake::TargetInfo* t = cake::find_target(p.stem().string());
    REQUIRE(t);
    INFO(t->name);
    CHECK(t->version == j.at("version").get<std::string>());
    CHECK(t->family == j.at("family").get<std::string>());
    size_t seen = 0;
    for (size_t i = 0; i < cake::kLimitCount; ++i) {
      auto id = static_cast<cake::LimitId>(i);
      std::string key(cake::limit_key(id));
      const cake::Limit& l = t->limit(id);
      const json* entry = nullptr;
      for (const char* section : {"limits", "instructions"})
        if (j.contains(section) && j[section].contains(key)) entry = &j[section][key];
      INFO(key);
      if (!entry) {
        CHECK_FALSE(l.known());
        continue;
      }
      ++seen;
      CHECK(l.known());
      CHECK(l.value == entry->at("value").get<int64_t>());
      CHECK(std::string(l.src) == joined_src(*entry));
      CHECK(l.status == status_of(*entry));
    }
    CHECK(seen > 20);
    for (size_t i = 0; i < cake::kFeatureCount; ++i) {
      auto f = static_cast<cake::Feature>(i);
      std::string key(cake::feature_key(f));
      INFO(key);
      const json& entry = j.at("features").at(key);
      CHECK(t->has(f) == entry.at("value").get<bool>());
      CHECK(std::string(t->gate(f).src) == joined_src(entry));
    }
    const json& ins = j.at("instructions");
    std::vector<int> sizes(t->cp_async_sizes.begin(), t->cp_async_sizes.end());
    CHECK(sizes == ins.at("cp_async_sizes").at("value").get<std::vector<int>>());
    REQUIRE(t->swizzles.size() == ins.at("swizzles").size());
    for (size_t i = 0; i < t->swizzles.size(); ++i) {
      CHECK(t->swizzles[i].span.value == ins["swizzles"][i]["span"]["value"].get<int64_t>());
      CHECK(t->swizzles[i].align.value == ins["swizzles"][i]["align"]["value"].get<int64_t>());
    }
    size_t shapes = 0;
    for (const json& e : ins.at("mma_sync")) shapes += e.at("shapes").size();
    CHECK(t->mma_sync.size() == shapes);
    CHECK(t->wgmma.size() == (ins.contains("wgmma") ? ins["wgmma"].size() : 0));
    CHECK(t->tcgen05_mma.size() == (ins.contains("tcgen05_mma") ? ins["tcgen05_mma"].size() : 0));
  }
}

TEST_CASE("well-known values") {
  auto t = [](const char* n) { return cake::find_target(n); };
  CHECK(t("sm_80")->smem_per_block_optin.value == 166912);
  CHECK(t("sm_86")->smem_per_block_optin.value == 101376);
  CHECK(t("sm_89")->smem_per_block_optin.value == 101376);
  for (const char* n : {"sm_90", "sm_90a", "sm_100a"}) {
    INFO(n);
    CHECK(t(n)->smem_per_block_optin.value == 232448);
    CHECK(t(n)->cluster_max_portable.value == 8);
    CHECK(t(n)->cluster_max_nonportable.value == 16);
    CHECK(t(n)->has(cake::Feature::Tma));
    CHECK(t(n)->has(cake::Feature::Clusters));
  }
  for (const char* n : {"sm_80", "sm_86", "sm_89"}) {
    INFO(n);
    CHECK_FALSE(t(n)->cluster_max_portable.known());
    CHECK_FALSE(t(n)->has(cake::Feature::Tma));
    CHECK(t(n)->has(cake::Feature::CpAsync));
  }
  CHECK(t("sm_100a")->tmem_columns.value == 512);
  CHECK(t("sm_100a")->tmem_lanes.value == 128);
  CHECK_FALSE(t("sm_90a")->tmem_columns.known());
  for (const cake::TargetInfo& info : cake::all_targets()) {
    INFO(info.name);
    CHECK(info.has(cake::Feature::Wgmma) == (info.name == "sm_90a"));
    CHECK(info.has(cake::Feature::Tcgen05) == (info.name == "sm_100a"));
    CHECK(info.has(cake::Feature::Setmaxnreg) == (info.name == "sm_90a" || info.name == "sm_100a"));
    CHECK(info.has(cake::Feature::MmaFp8) == (info.name != "sm_80" && info.name != "sm_86"));
    CHECK(info.max_threads_per_block.value == 1024);
    CHECK(info.named_barrier_last_id.value == 15);
    CHECK(info.smem_reserved_per_block.value == 1024);
  }
  CHECK(t("sm_90a")->maxnreg_min.value == 24);
  CHECK(t("sm_90a")->maxnreg_max.value == 256);
  CHECK(t("sm_90a")->maxnreg_step.value == 8);
  const cake::SwizzleRule* s128 = t("sm_90a")->swizzle(cake::Swizzle::B128);
  REQUIRE(s128);
  CHECK(s128->align.value == 1024);
  CHECK(s128->span.value == 128);
  CHECK(t("sm_80")->swizzle(cake::Swizzle::B64)->align.value == 512);
  CHECK(t("sm_80")->swizzle(cake::Swizzle::B32)->align.value == 256);
  CHECK(std::string(t("sm_90a")->smem_per_block_optin.src).find("cccl_arch_traits") != std::string::npos);
}

TEST_CASE("a rule that fails on some listed targets names only those") {
  struct Case {
    const char* text;
    cake::DiagId id;
    std::vector<std::string> targets;
  };
  const Case cases[] = {
      {"target sm_80, sm_90a\n"
       "kernel k(V: global f32[N]) where N % 128 == 0 grid (N / 128) block 32 {\n"
       "  smem vs: f32[128]\n  mbarrier full\n"
       "  elect { arrive.expect_tx full, bytes(vs)\n bulk.load vs <- V[block.x * 128 : 128], full }\n"
       "  wait full parity(0)\n}\n",
       cake::DiagId::OpNotOnTarget, {"sm_80"}},
      {"target sm_86, sm_89, sm_90a\n"
       "kernel k(A: global f32[N]) grid (1) block 128 {\n  smem a: f32[3][128, 64]\n  smem b: f32[128, 64]\n}\n",
       cake::DiagId::SmemOverLimit, {"sm_86", "sm_89"}},
      {"target sm_90, sm_90a, sm_100a\n"
       "kernel k(A: global f32[N]) grid (1) block 128 { role r warpgroup(0) maxnreg(40) { } }\n",
       cake::DiagId::ClauseNotOnTarget, {"sm_90"}},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto a = cake::analyze(c.text);
    size_t found = 0;
    for (const cake::Diagnostic& d : a->diagnostics) {
      INFO(d.message);
      if (d.id != c.id) {
        CHECK(d.severity != cake::Severity::Error);
        continue;
      }
      ++found;
      CHECK(d.targets == c.targets);
    }
    CHECK(found >= 1);
  }
}

// Section - Device tables (cake/device.h, analysis/arch/devices/*.json)

namespace {

std::vector<fs::path> device_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(CAKE_ARCH_DIR) / "devices"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every GPU of gpu-arch.json is a device, with its alias and default targets") {
  std::vector<std::string> ids;
  for (const cake::DeviceInfo& d : cake::all_devices()) ids.emplace_back(d.id);
  std::sort(ids.begin(), ids.end());
  CHECK(ids == std::vector<std::string>{"A10", "A100-SXM4-80GB", "B200-HGX", "H100-SXM5-80GB", "H200-SXM-141GB", "L4",
                                        "RTX-3090", "RTX-4090"});
  CHECK(device_files().size() == ids.size());
  const std::pair<const char*, const char*> aliases[] = {
      {"a100", "A100-SXM4-80GB"}, {"a10", "A10"}, {"rtx3090", "RTX-3090"}, {"l4", "L4"}, {"rtx4090", "RTX-4090"},
      {"h100", "H100-SXM5-80GB"}, {"h200", "H200-SXM-141GB"}, {"b200", "B200-HGX"}, {"H100", "H100-SXM5-80GB"}};
  for (auto [alias, id] : aliases) {
    INFO(alias);
    REQUIRE(cake::find_device(alias));
    CHECK(cake::find_device(alias)->id == id);
  }
  CHECK(cake::find_device("v100") == nullptr);
  const std::pair<const char*, const char*> defaults[] = {{"sm_80", "A100-SXM4-80GB"}, {"sm_86", "A10"},
                                                          {"sm_89", "L4"},           {"sm_90", "H100-SXM5-80GB"},
                                                          {"sm_90a", "H100-SXM5-80GB"}, {"sm_100a", "B200-HGX"}};
  for (auto [target, id] : defaults) {
    INFO(target);
    REQUIRE(cake::default_device(target));
    CHECK(cake::default_device(target)->id == id);
    CHECK(cake::default_device(target)->runs(target));
  }
}

TEST_CASE("the device tables equal their JSON, every number sourced") {
  std::set<std::string> ids = source_ids();
  for (const fs::path& p : device_files()) {
    json j = read_json(p);
    check_sourced(j, p.stem().string(), false, ids);
    const cake::DeviceInfo* d = cake::find_device(j.at("device").get<std::string>());
    REQUIRE(d);
    INFO(d->id);
    CHECK(p.stem().string() == std::string(d->id));
    CHECK(d->version == j.at("version").get<std::string>());
    CHECK(d->arch == j.at("arch").get<std::string>());
    CHECK(d->alias == j.at("aliases")[0].get<std::string>());
    CHECK(d->targets.size() == j.at("targets").size());
    for (const json& t : j.at("targets")) CHECK(d->runs(t.get<std::string>()));
    const json& params = j.at("params");
    for (size_t i = 0; i < cake::kDeviceParamCount; ++i) {
      auto id = static_cast<cake::DeviceParamId>(i);
      std::string key(cake::device_param_key(id));
      INFO(key);
      const cake::DeviceParam& v = d->param(id);
      if (!params.contains(key)) {
        CHECK_FALSE(v.known());
        continue;
      }
      CHECK(v.value == params[key].at("value").get<double>());
      CHECK(std::string(v.src) == joined_src(params[key]));
      CHECK(v.status == status_of(params[key]));
    }
  }
  // Spot checks against gpu-arch.json.
  const cake::DeviceInfo* h100 = cake::find_device("h100");
  REQUIRE(h100);
  CHECK(h100->sms.value == 132);
  CHECK(h100->hbm_gbps.value == 3350);
  CHECK(h100->tc_tflops_f16.value == 989.4);
  CHECK(h100->eff_wgmma.known());
  CHECK_FALSE(cake::find_device("a100")->eff_wgmma.known());
  CHECK(cake::find_device("b200")->tc_tflops_f4.value == 9000);
}

TEST_CASE("tcgen05.mma shapes: one CTA's M = 64 takes N in steps of 8, M = 128 in steps of 16") {
  const cake::TargetInfo* b = cake::find_target("sm_100a");
  REQUIRE(b);
  using cake::DType;
  CHECK(b->tcgen05_shape(DType::BF16, 1, 64, 24));
  CHECK(b->tcgen05_shape(DType::BF16, 1, 128, 32));
  CHECK_FALSE(b->tcgen05_shape(DType::BF16, 1, 128, 24));
  CHECK_FALSE(b->tcgen05_shape(DType::BF16, 1, 32, 64));
  CHECK_FALSE(b->tcgen05_shape(DType::BF16, 1, 64, 264));
  CHECK(b->tcgen05_shape(DType::F8E4M3, 2, 256, 128));  // a CTA pair's M = 256
  CHECK_FALSE(b->tcgen05_shape(DType::I8, 2, 256, 48));   // 8-bit integers: N in steps of 32
  CHECK_FALSE(cake::find_target("sm_90a")->tcgen05_shape(DType::BF16, 1, 128, 128));
}
