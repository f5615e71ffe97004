// From measurements to calibration samples: each measurement's kernel file
// is read and analysed once, and each measured shape becomes a `bench` line
// appended to the kernel's text, so the profiler may measure shapes the file
// does not list. A measurement that cannot be estimated (unreadable file,
// file with errors, unknown kernel or target, a bench symbol the kernel does
// not have) is skipped with the reason.
#pragma once

#include "measurements.h"

#include "cake/analyze.h"
#include "cake/calibrate.h"

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cake::cli {

struct SampleSet {
  std::vector<std::unique_ptr<Analysis>> analyses;  // what the samples point into
  std::vector<CalibrationSample> samples;
  std::vector<const Measurement*> measured;  // samples[i] is measured[i]
  std::vector<std::pair<const Measurement*, std::string>> skipped;
};

/// The samples of `measurements`, all on `device`.
SampleSet prepare_samples(std::span<const Measurement* const> measurements, const DeviceInfo& device);

}  // namespace cake::cli
