// The hand-written half of cake/device.h: parameter names and look-ups. The
// tables are generated from analysis/arch/devices/*.json (cake-arch-gen).
#include "cake/device.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace cake {
namespace {

struct ParamName {
  DeviceParam DeviceInfo::*member;
  std::string_view key, unit, description;
};
constexpr ParamName kParams[] = {
#define CAKE_DEVICE_PARAM(KEY, UNIT, DESCRIPTION) {&DeviceInfo::KEY, #KEY, UNIT, DESCRIPTION},
#include "cake/device_params.def"
#undef CAKE_DEVICE_PARAM
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const DeviceParam& DeviceInfo::param(DeviceParamId id) const { return this->*kParams[static_cast<size_t>(id)].member; }
DeviceParam& DeviceInfo::param(DeviceParamId id) { return this->*kParams[static_cast<size_t>(id)].member; }

bool DeviceInfo::runs(std::string_view target) const {
  return std::find(targets.begin(), targets.end(), target) != targets.end();
}

const DeviceInfo* find_device(std::string_view id_or_alias) {
  for (const DeviceInfo& d : all_devices())
    if (iequals(d.id, id_or_alias) || iequals(d.alias, id_or_alias)) return &d;
  return nullptr;
}

const DeviceInfo* default_device(std::string_view target) {
  for (const DeviceInfo& d : all_devices())
    if (std::find(d.default_for.begin(), d.default_for.end(), target) != d.default_for.end()) return &d;
  return nullptr;
}

const DeviceInfo* device_for(std::string_view target, std::string_view requested) {
  const DeviceInfo* d = requested.empty() ? nullptr : find_device(requested);
  return d && d->runs(target) ? d : default_device(target);
}

std::string_view device_param_key(DeviceParamId id) { return kParams[static_cast<size_t>(id)].key; }
std::optional<DeviceParamId> find_device_param(std::string_view key) {
  for (size_t i = 0; i < std::size(kParams); ++i)
    if (kParams[i].key == key) return static_cast<DeviceParamId>(i);
  return std::nullopt;
}
std::string_view device_param_unit(DeviceParamId id) { return kParams[static_cast<size_t>(id)].unit; }
std::string_view device_param_description(DeviceParamId id) { return kParams[static_cast<size_t>(id)].description; }

}  // namespace cake

namespace cake {

std::vector<std::string_view> unverified_params(const DeviceInfo& d) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < kDeviceParamCount; ++i) {
    auto id = static_cast<DeviceParamId>(i);
    if (d.param(id).status == Status::Unconfirmed) out.push_back(device_param_key(id));
  }
  return out;
}

}  // namespace cake
