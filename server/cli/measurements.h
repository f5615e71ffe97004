// The measurement file: measured kernel times, as `cake calibrate` reads
// them and as the profiler is to write them (docs/cost-model.md
// "Calibration" defines the format):
//
//   {"format": "cake-measurements", "version": 1,
//    "measurements": [{"file": "copy.cake", "kernel": "copy", "target": "sm_90a",
//                      "device": "h100", "bench": {"M": 16777216}, "time_us": 61.2,
//                      "repetitions": 100, "metrics": {"dram_bytes": 4.3e9}}]}
//
// "file" is relative to the measurement file; "source" instead embeds the
// kernel's text. Unknown keys are ignored, so a later profiler may add some.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cake::cli {

inline constexpr std::string_view kMeasurementFormat = "cake-measurements";
inline constexpr int kMeasurementVersion = 1;

struct Measurement {
  size_t index = 0;     // 1-based position in the file
  std::string file;     // as written; empty when the source is embedded
  std::string path;     // `file` resolved against the measurement file's directory
  std::string source;   // the embedded kernel text ("source")
  bool embedded = false;
  std::string kernel, target, device;
  std::vector<std::pair<std::string, int64_t>> bench;  // shape symbol = value, in the file's order
  double time_us = 0;
  int64_t repetitions = 0;        // 0: not given
  nlohmann::ordered_json metrics;  // an object of numbers; the fit does not use them yet

  /// "copy.cake" or "<measurement 3>", for messages.
  std::string where() const;
  /// "M=16777216 N=4096".
  std::string shape() const;
};

struct MeasurementFile {
  std::vector<Measurement> measurements;
  std::string error;  // set: unreadable, not JSON, another format or version, a malformed entry
};

MeasurementFile read_measurements(const std::string& path);

}  // namespace cake::cli
