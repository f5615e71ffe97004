// Device tables as files, at run time: `--table FILE` of `cake estimate` and
// `cake calibrate` reads a table in the format of
// analysis/arch/devices/<id>.json into a DeviceInfo, and `cake calibrate -o`
// writes one. The embedded tables (cake/device.h) need neither.
#pragma once

#include "cake/device.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cake::cli {

/// A device table read from a file: its DeviceInfo, whose string views point
/// into this object, and the JSON it came from (notes and all). Never copied
/// or moved, so the views cannot dangle: it lives behind a unique_ptr.
class LoadedDevice {
 public:
  LoadedDevice() = default;
  LoadedDevice(const LoadedDevice&) = delete;
  LoadedDevice& operator=(const LoadedDevice&) = delete;

  const DeviceInfo& info() const { return info_; }
  const nlohmann::ordered_json& source() const { return source_; }
  /// Whether `name` is this device's id or alias (case-insensitive).
  bool named(std::string_view name) const;

 private:
  friend struct TableReader;
  std::string_view keep(std::string s) { return strings_.emplace_back(std::move(s)); }

  std::deque<std::string> strings_;  // a deque never moves its elements
  std::vector<std::string_view> targets_, default_for_;
  DeviceInfo info_{};
  nlohmann::ordered_json source_;
};

struct LoadedTable {
  std::unique_ptr<LoadedDevice> device;  // null on error
  std::string error;                     // "FILE: why"
};

/// Reads and checks a device table: the keys of device_params.def with
/// {value, src, status}, the required parameters, known targets.
LoadedTable load_device_table(const std::string& path);

/// `device` as a device table document. `base` is the JSON it was read from
/// (its notes and keys are kept, its values replaced), or null for an
/// embedded table.
nlohmann::ordered_json device_table_json(const DeviceInfo& device, const nlohmann::ordered_json* base);

}  // namespace cake::cli
