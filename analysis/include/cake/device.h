// The device tables of the cost model: one GPU product per table (SMs,
// clocks, bandwidths, tensor and CUDA-core throughput, latencies, launch
// overhead and the achieved fraction of each roof). The source of truth is
// analysis/arch/devices/<id>.json; cake-arch-gen embeds them at build time
// beside the target tables (cake/arch.h), so analysis/ parses no JSON at run
// time. Every number carries its source ids and a status; "calibrated" marks
// an initial estimate that calibration against measured runs replaces.
#pragma once

#include "cake/arch.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace cake {

/// One number of a device table; unknown for a parameter the device does
/// not have (wgmma on an A100).
using DeviceParam = Sourced<double>;

enum class DeviceParamId : uint8_t {
#define CAKE_DEVICE_PARAM(KEY, UNIT, DESCRIPTION) KEY,
#include "cake/device_params.def"
#undef CAKE_DEVICE_PARAM
};
inline constexpr size_t kDeviceParamCount = 0
#define CAKE_DEVICE_PARAM(KEY, UNIT, DESCRIPTION) +1
#include "cake/device_params.def"
#undef CAKE_DEVICE_PARAM
    ;

struct DeviceInfo {
  std::string_view id;       // "H100-SXM5-80GB" (gpu-arch.json's key)
  std::string_view alias;    // "h100"
  std::string_view name;     // "H100 SXM5 80 GB (GH100)"
  std::string_view arch;     // its own target, "sm_90a"
  std::string_view version;  // the table's version string
  std::span<const std::string_view> targets;      // targets whose code it runs
  std::span<const std::string_view> default_for;  // targets it is the default device of
#define CAKE_DEVICE_PARAM(KEY, UNIT, DESCRIPTION) DeviceParam KEY;
#include "cake/device_params.def"
#undef CAKE_DEVICE_PARAM

  const DeviceParam& param(DeviceParamId id) const;
  DeviceParam& param(DeviceParamId id);
  bool runs(std::string_view target) const;
};

/// Every device, sorted by id (the order of the files in analysis/arch/devices/).
std::span<const DeviceInfo> all_devices();
/// The device of this id or alias (case-insensitive), or null.
const DeviceInfo* find_device(std::string_view id_or_alias);
/// The device estimates for a target use unless told otherwise, or null.
const DeviceInfo* default_device(std::string_view target);
/// The device for estimates on `target` when `requested` (an id or alias;
/// empty: none) was asked for: it when it runs the target, else the
/// target's default; null when neither exists.
const DeviceInfo* device_for(std::string_view target, std::string_view requested);

/// The parameters every device table must give (cake-arch-gen and a table
/// loaded at run time both insist); the others may be left out as unknown.
inline constexpr std::string_view kRequiredDeviceParams[] = {
    "sms",          "clock_mhz",         "hbm_gbps",          "l2_bytes_per_clk_sm", "smem_bytes_per_clk_sm",
    "tc_tflops_f16", "fp32_tflops",       "sfu_per_clk_sm",      "issue_per_clk_sm",  "lat_global_cycles", "lat_barrier_cycles",
    "launch_us",    "eff_hbm",           "eff_l2",            "eff_smem",         "eff_fp32",
    "eff_issue"};

std::string_view device_param_key(DeviceParamId id);
/// The parameter of this JSON key, or nullopt.
std::optional<DeviceParamId> find_device_param(std::string_view key);
std::string_view device_param_unit(DeviceParamId id);
/// The keys of the device's parameters whose status is unconfirmed: guesses
/// and assumptions with no published figure behind them, which `cake
/// estimate` names beside every estimate that uses the table.
std::vector<std::string_view> unverified_params(const DeviceInfo& d);
std::string_view device_param_description(DeviceParamId id);

}  // namespace cake
