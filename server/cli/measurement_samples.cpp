// prepare_samples() (measurement_samples.h): measurements grouped by their
// kernel source; per source the text is analysed as it is (its own errors
// skip every measurement of it), then again with one appended bench line per
// measurement (an error on that line skips only that measurement).
#include "measurement_samples.h"
#include "kernel_named.h"

#include "io.h"

#include <algorithm>
#include <map>

namespace cake::cli {
namespace {

struct Source {
  std::vector<const Measurement*> measurements;
  std::string text, error;
};

std::string key_of(const Measurement& m) { return m.embedded ? "\n" + std::to_string(m.index) : m.path; }

/// Why `m` cannot be estimated in the file's model, or "".
std::string unusable(const Measurement& m, const Module& module, const DeviceInfo& device) {
  if (!kernel_named(module, m.kernel)) return "no kernel named `" + m.kernel + "` in " + m.where();
  if (!find_target(m.target)) return "unknown target `" + m.target + "`";
  if (std::none_of(module.targets.begin(), module.targets.end(), [&](const Target& t) { return t.name == m.target; }))
    return m.where() + " does not list target " + m.target;
  if (!device.runs(m.target)) return std::string(device.id) + " does not run " + m.target;
  return "";
}

std::string bench_line(const Measurement& m) {
  std::string s = "bench " + m.kernel + " {";
  for (size_t i = 0; i < m.bench.size(); ++i)
    s += (i ? ", " : " ") + m.bench[i].first + " = " + std::to_string(m.bench[i].second);
  return s + " }\n";
}

/// The first error of `a` on 0-based line `line`, or "".
std::string error_on_line(const Analysis& a, uint32_t line) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.severity == Severity::Error && a.lines.position(d.range.begin).line == line) return d.message;
  return "";
}

int32_t bench_on_line(const Analysis& a, uint32_t line) {
  for (size_t b = 0; b < a.module.benches.size(); ++b)
    if (a.lines.position(a.module.benches[b].range.begin).line == line) return static_cast<int32_t>(b);
  return -1;
}

/// Adds the samples of one source's measurements (all usable in its model).
void add_samples(const std::string& text, const std::vector<const Measurement*>& ms, SampleSet& out) {
  std::string all = text;
  if (!all.empty() && all.back() != '\n') all += '\n';
  std::vector<uint32_t> lines;
  for (const Measurement* m : ms) {
    lines.push_back(static_cast<uint32_t>(std::count(all.begin(), all.end(), '\n')));
    all += bench_line(*m);
  }
  auto a = analyze(std::move(all));
  for (size_t i = 0; i < ms.size(); ++i) {
    const Measurement& m = *ms[i];
    int32_t b = bench_on_line(*a, lines[i]);
    std::string why = error_on_line(*a, lines[i]);
    if (why.empty() && b < 0) why = "the bench line could not be read";
    if (why.empty())
      for (const BenchBinding& binding : a->module.benches[b].bindings)
        if (binding.symbol == kNone) why = "`" + std::string(binding.name) + "` is not a shape symbol of " + m.kernel;
    if (!why.empty()) {
      out.skipped.emplace_back(&m, "bench " + m.shape() + ": " + why);
      continue;
    }
    out.samples.push_back({a.get(), *kernel_named(a->module, m.kernel), b, m.target, m.time_us});
    out.measured.push_back(&m);
  }
  out.analyses.push_back(std::move(a));
}

void prepare_source(const Source& src, const DeviceInfo& device, SampleSet& out) {
  auto skip_all = [&](const std::string& why) {
    for (const Measurement* m : src.measurements) out.skipped.emplace_back(m, why);
  };
  if (!src.error.empty()) return skip_all("cannot read " + src.measurements[0]->path + ": " + src.error);
  auto plain = analyze(src.text);
  if (unsigned errors = count(plain->diagnostics).errors)
    return skip_all(src.measurements[0]->where() + ": " + std::to_string(errors) +
                    " error(s); not estimated (see `cake check`)");
  std::vector<const Measurement*> usable;
  for (const Measurement* m : src.measurements) {
    std::string why = unusable(*m, plain->module, device);
    if (why.empty()) usable.push_back(m);
    else out.skipped.emplace_back(m, why);
  }
  if (!usable.empty()) add_samples(src.text, usable, out);
}

}  // namespace

SampleSet prepare_samples(std::span<const Measurement* const> measurements, const DeviceInfo& device) {
  std::map<std::string, Source> sources;
  for (const Measurement* m : measurements) {
    Source& s = sources[key_of(*m)];
    if (s.measurements.empty()) {
      if (m->embedded) s.text = m->source;
      else {
        ReadResult r = read_file(m->path);
        s.text = std::move(r.text);
        s.error = std::move(r.error);
      }
    }
    s.measurements.push_back(m);
  }
  SampleSet out;
  for (const auto& [key, src] : sources) prepare_source(src, device, out);
  return out;
}

}  // namespace cake::cli
