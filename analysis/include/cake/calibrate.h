// Calibration of the cost model: fits the calibratable parameters of a
// device table (calibrated_params.def: achieved fractions of each roof,
// tensor-core efficiency per instruction, load latency per movement engine,
// the barrier round trip, per-iteration and launch overheads) to measured
// kernel times, by bounded least squares on the log of estimate ÷ measured.
// Only parameters the samples exercise move: one whose small change moves
// no estimate keeps its table value. Pure: the caller reads the measurement
// file and the kernels (`cake calibrate`, docs/cost-model.md "Calibration").
#pragma once

#include "cake/analyze.h"
#include "cake/device.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cake {

/// Absolute: the value stays in [lower, upper]. Relative: in [lower × start,
/// upper × start].
enum class CalibrationBound : uint8_t { Absolute, Relative };

/// One parameter calibration may fit, with its bounds.
struct CalibratedParam {
  DeviceParamId id;
  CalibrationBound kind;
  double lower, upper;
};
/// Every line of calibrated_params.def, in its order.
std::span<const CalibratedParam> calibrated_params();
/// The interval a parameter whose table value is `start` is fitted in.
std::pair<double, double> calibration_bounds(const CalibratedParam& p, double start);

/// One measured run: kernel `kernel` of `analysis` at bench `bench` (an
/// index into Module::benches) for `target` took `measured_us`.
struct CalibrationSample {
  const Analysis* analysis = nullptr;
  uint32_t kernel = 0;
  int32_t bench = -1;
  std::string_view target;
  double measured_us = 0;
};

struct CalibrationOptions {
  /// A parameter is fitted when moving it by 5% of its range changes some
  /// sample's estimate by more than this fraction.
  double sensitivity = 1e-3;
  /// Evaluations of all the samples' estimates the optimiser may spend.
  int max_evaluations = 20000;
};

/// One calibratable parameter the device has.
struct ParamFit {
  DeviceParamId id{};
  double before = 0, after = 0;
  double lower = 0, upper = 0;  // its bounds
  double sensitivity = 0;       // the largest relative change of an estimate for a 5% step of its range
  bool fitted = false;          // exercised by the samples, so fitted; else unchanged
  bool at_bound = false;        // the fit stopped at a bound: the model or the data may be off
};

/// One sample before and after.
struct SampleFit {
  double measured_us = 0, before_us = 0, after_us = 0;
  bool ok = false;      // false: not estimated, left out of the fit
  std::string problem;  // why not
  double error_before() const { return before_us / measured_us - 1; }
  double error_after() const { return after_us / measured_us - 1; }
};

/// Relative error, estimate ÷ measured − 1, over the estimated samples.
struct FitError {
  double rms = 0;
  double max = 0;  // the largest |error|
};

struct Calibration {
  /// The starting device with the fitted values, each with src "calibrated"
  /// and status derived; its strings are the starting device's.
  DeviceInfo device;
  std::vector<ParamFit> params;    // in calibrated_params.def order
  std::vector<SampleFit> samples;  // in the order given
  size_t used = 0;                 // samples in the fit
  FitError before, after;
  int evaluations = 0;
  std::string optimiser;  // "NLopt LN_BOBYQA"
};

/// Fits `start`'s calibratable parameters to `samples`. With no sample
/// estimated nothing moves.
Calibration calibrate(const DeviceInfo& start, std::span<const CalibrationSample> samples,
                      const CalibrationOptions& options = {});

}  // namespace cake
