// calibrate(): bounded least squares of the cost model's parameters against
// measured kernel times (cake/calibrate.h). The estimate is a max of roofs
// plus exposed latency: piecewise smooth, no derivatives, so the optimiser
// is NLopt's derivative-free, bound-constrained BOBYQA, restarted from its
// own result until a restart no longer improves (a fresh trust region gets
// it past the kinks where one roof overtakes another). Each fitted parameter
// is one coordinate in [0, 1] over its bounds: linear for absolute bounds,
// logarithmic for relative ones (a latency's ×2 and ÷2 are as far), so the
// optimiser sees comparable scales.
#include "cake/calibrate.h"

#include "cake/cost.h"

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

namespace cake {
namespace {

constexpr CalibratedParam kCalibrated[] = {
#define CAKE_CALIBRATED(KEY, KIND, LOWER, UPPER) {DeviceParamId::KEY, CalibrationBound::KIND, LOWER, UPPER},
#include "cake/calibrated_params.def"
#undef CAKE_CALIBRATED
};

/// The sensitivity probe's step, in a parameter's [0, 1] coordinate.
constexpr double kProbeStep = 0.05;
/// BOBYQA's first trust-region radius, in the same coordinates.
constexpr double kInitialStep = 0.1;
/// Restarts stop when one improves the objective by less than this fraction.
constexpr double kRestartGain = 1e-9;
constexpr int kMaxRestarts = 8;
/// A coordinate this close to 0 or 1 is reported as at its bound.
constexpr double kAtBound = 1e-4;

/// One fitted parameter's coordinate.
struct Axis {
  DeviceParamId id;
  double lo, hi;
  bool log;
  double value(double x) const { return log ? lo * std::exp(x * std::log(hi / lo)) : lo + x * (hi - lo); }
  double coord(double v) const {
    double x = log ? std::log(v / lo) / std::log(hi / lo) : (v - lo) / (hi - lo);
    return std::clamp(x, 0.0, 1.0);
  }
};

class Fitter {
 public:
  Fitter(const DeviceInfo& start, std::span<const CalibrationSample> samples, int max_evaluations)
      : samples_(samples), max_evaluations_(max_evaluations), device_(start) {}

  /// Every sample's estimate on `d`, in µs; NaN where it has none, and
  /// then why in `problems` when given.
  std::vector<double> times(const DeviceInfo& d, std::vector<std::string>* problems = nullptr) const {
    std::vector<double> t(samples_.size(), std::numeric_limits<double>::quiet_NaN());
    if (problems) problems->assign(samples_.size(), "");
    for (size_t i = 0; i < samples_.size(); ++i) {
      const CalibrationSample& s = samples_[i];
      if (!s.analysis) {
        if (problems) (*problems)[i] = "no kernel";
        continue;
      }
      Estimate e = estimate_bench(*s.analysis, s.kernel, s.bench, s.target, d);
      if (e.ok && e.time_us > 0) t[i] = e.time_us;
      else if (problems) (*problems)[i] = e.ok ? "estimated time is not positive" : e.problem;
    }
    return t;
  }

  /// The samples the fit uses: estimated on the starting device, measured > 0.
  void use(const std::vector<double>& start_times) {
    for (size_t i = 0; i < samples_.size(); ++i)
      if (std::isfinite(start_times[i]) && samples_[i].measured_us > 0) used_.push_back(i);
  }
  size_t used() const { return used_.size(); }

  /// The largest |log change| of a used sample's estimate when the axis
  /// moves by kProbeStep either way from `at` (whose estimates are `base`).
  double sensitivity(const DeviceInfo& at, const Axis& a, const std::vector<double>& base) const {
    double x0 = a.coord(at.param(a.id).value), worst = 0;
    for (double dx : {-kProbeStep, kProbeStep}) {
      double x = std::clamp(x0 + dx, 0.0, 1.0);
      if (x == x0) continue;
      DeviceInfo d = at;
      d.param(a.id).value = a.value(x);
      std::vector<double> t = times(d);
      for (size_t i : used_)
        if (std::isfinite(t[i])) worst = std::max(worst, std::fabs(std::log(t[i] / base[i])));
    }
    return worst;
  }

  /// Fits `axes` from `from`'s values; returns the device with the best values.
  DeviceInfo optimise(const DeviceInfo& from, const std::vector<Axis>& axes) {
    device_ = from;
    axes_ = axes;
    std::vector<double> x(axes.size());
    for (size_t j = 0; j < axes.size(); ++j) x[j] = axes[j].coord(from.param(axes[j].id).value);
    double best = objective(x.data());
    for (int round = 0; round < kMaxRestarts && evaluations_ < max_evaluations_; ++round) {
      std::vector<double> y = x;
      double f = run_bobyqa(y);
      if (!(f < best)) break;
      bool small = best - f <= kRestartGain * best;
      best = f;
      x = y;
      if (small) break;
    }
    set(x.data());
    return device_;
  }

  int evaluations() const { return evaluations_; }

 private:
  /// Mean squared log error of the used samples with the axes at `x`.
  double objective(const double* x) {
    ++evaluations_;
    set(x);
    double sum = 0;
    for (size_t i : used_) {
      const CalibrationSample& s = samples_[i];
      Estimate e = estimate_bench(*s.analysis, s.kernel, s.bench, s.target, device_);
      // A candidate that cannot estimate a sample is as bad as a factor e^10.
      double err = e.ok && e.time_us > 0 ? std::log(e.time_us / s.measured_us) : 10.0;
      sum += err * err;
    }
    return used_.empty() ? 0 : sum / static_cast<double>(used_.size());
  }

  void set(const double* x) {
    for (size_t j = 0; j < axes_.size(); ++j) device_.param(axes_[j].id).value = axes_[j].value(x[j]);
  }

  static double callback(unsigned, const double* x, double*, void* self) {
    return static_cast<Fitter*>(self)->objective(x);
  }

  /// One BOBYQA run from `x` (updated in place); the objective at its end.
  double run_bobyqa(std::vector<double>& x) {
    unsigned n = static_cast<unsigned>(x.size());
    // BOBYQA models the objective with 2n+1 points and needs n >= 2; one
    // parameter gets the simplex method (also bounded, derivative-free).
    std::unique_ptr<nlopt_opt_s, void (*)(nlopt_opt)> opt(
        nlopt_create(n >= 2 ? NLOPT_LN_BOBYQA : NLOPT_LN_SBPLX, n), nlopt_destroy);
    double f = std::numeric_limits<double>::infinity();
    if (!opt) return f;
    std::vector<double> lo(n, 0.0), hi(n, 1.0), step(n, kInitialStep);
    nlopt_set_lower_bounds(opt.get(), lo.data());
    nlopt_set_upper_bounds(opt.get(), hi.data());
    nlopt_set_initial_step(opt.get(), step.data());
    nlopt_set_min_objective(opt.get(), &Fitter::callback, this);
    nlopt_set_xtol_abs1(opt.get(), 1e-9);
    nlopt_set_ftol_abs(opt.get(), 1e-16);
    nlopt_set_maxeval(opt.get(), std::max(1, max_evaluations_ - evaluations_));
    nlopt_optimize(opt.get(), x.data(), &f);  // any result: x holds the best point seen
    return f;
  }

  std::span<const CalibrationSample> samples_;
  int max_evaluations_;
  int evaluations_ = 0;
  std::vector<size_t> used_;
  DeviceInfo device_;
  std::vector<Axis> axes_;
};

/// The axis of a parameter `start` has, or nullopt when it has none (the
/// device lacks it, or a relative bound around 0 leaves no room).
std::optional<Axis> axis_of(const CalibratedParam& p, const DeviceInfo& start) {
  const DeviceParam& v = start.param(p.id);
  if (!v.known()) return std::nullopt;
  auto [lo, hi] = calibration_bounds(p, v.value);
  bool log = p.kind == CalibrationBound::Relative;
  if (!(lo < hi) || (log && lo <= 0)) return std::nullopt;
  return Axis{p.id, lo, hi, log};
}

FitError errors(const std::vector<SampleFit>& samples, bool after) {
  FitError e;
  size_t n = 0;
  for (const SampleFit& s : samples) {
    if (!s.ok) continue;
    double r = after ? s.error_after() : s.error_before();
    e.rms += r * r;
    e.max = std::max(e.max, std::fabs(r));
    ++n;
  }
  e.rms = n ? std::sqrt(e.rms / static_cast<double>(n)) : 0;
  return e;
}

}  // namespace

std::span<const CalibratedParam> calibrated_params() { return kCalibrated; }

std::pair<double, double> calibration_bounds(const CalibratedParam& p, double start) {
  if (p.kind == CalibrationBound::Relative) return {p.lower * start, p.upper * start};
  return {p.lower, p.upper};
}

Calibration calibrate(const DeviceInfo& start, std::span<const CalibrationSample> samples,
                      const CalibrationOptions& options) {
  Calibration out;
  out.device = start;
  out.optimiser = "NLopt LN_BOBYQA";
  Fitter fit(start, samples, options.max_evaluations);
  std::vector<std::string> problems;
  std::vector<double> before = fit.times(start, &problems);
  fit.use(before);
  out.used = fit.used();

  std::vector<Axis> all, fitted;
  for (const CalibratedParam& p : kCalibrated)
    if (auto a = axis_of(p, start)) {
      all.push_back(*a);
      ParamFit pf;
      pf.id = p.id;
      pf.before = pf.after = start.param(p.id).value;
      pf.lower = a->lo;
      pf.upper = a->hi;
      out.params.push_back(pf);
    }
  // Fit what the samples exercise; once fitted, a parameter that was idle
  // may matter (a latency the stages hid at the old bandwidth), so probe the
  // rest again at the new point until none joins.
  DeviceInfo current = start;
  for (size_t round = 0; out.used > 0 && round < all.size(); ++round) {
    std::vector<double> base = fit.times(current);
    size_t joined = 0;
    for (size_t j = 0; j < all.size(); ++j) {
      ParamFit& pf = out.params[j];
      if (pf.fitted) continue;
      pf.sensitivity = std::max(pf.sensitivity, fit.sensitivity(current, all[j], base));
      if (pf.sensitivity > options.sensitivity) {
        pf.fitted = true;
        fitted.push_back(all[j]);
        ++joined;
      }
    }
    if (!joined) break;
    current = fit.optimise(current, fitted);
  }

  for (size_t j = 0; j < all.size(); ++j) {
    ParamFit& pf = out.params[j];
    if (!pf.fitted) continue;
    DeviceParam& v = out.device.param(pf.id);
    v.value = pf.after = current.param(pf.id).value;
    v.src = "calibrated";
    v.status = Status::Derived;
    double x = all[j].coord(pf.after);
    pf.at_bound = x < kAtBound || x > 1 - kAtBound;
  }
  std::vector<double> after = fit.times(out.device);
  for (size_t i = 0; i < samples.size(); ++i) {
    SampleFit s;
    s.measured_us = samples[i].measured_us;
    s.ok = std::isfinite(before[i]) && std::isfinite(after[i]) && s.measured_us > 0;
    if (s.ok) {
      s.before_us = before[i];
      s.after_us = after[i];
    } else {
      s.problem = !problems[i].empty() ? problems[i]
                  : s.measured_us > 0 ? "not estimated with the fitted values"
                                      : "measured time is not positive";
    }
    out.samples.push_back(std::move(s));
  }
  out.before = errors(out.samples, false);
  out.after = errors(out.samples, true);
  out.evaluations = fit.evaluations();
  return out;
}

}  // namespace cake
