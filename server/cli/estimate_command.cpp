// `cake estimate FILE... [--kernel K] [--target T] [--device D | --table
// FILE] [--format text|json]`: the cost model's estimates (cake/cost.h) of
// each kernel, for each target the file lists (or --target), on each
// target's default device (or --device, or the device table FILE, say one
// `cake calibrate` wrote), for each bench of the kernel. Every estimate names its
// device and the device table's version. Exit: 0 estimated, 1 some file has
// errors and was not estimated, 2 usage or I/O.
#include "args.h"
#include "cli.h"
#include "device_table.h"
#include "io.h"

#include "cake/analyze.h"
#include "cake/cost.h"
#include "cake/query_cost.h"
#include "render/units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

namespace cake::cli {
namespace {

using json = nlohmann::ordered_json;

/// Lines the text output names per estimate.
constexpr size_t kTopLines = 3;

struct EstimateOptions {
  std::vector<std::string> paths;
  std::string kernel, target;
  const DeviceInfo* device = nullptr;
  std::unique_ptr<LoadedDevice> table;  // --table: a device table read at run time
  bool json = false;
};

/// A number for JSON: rounded to 4 significant digits' worth, finite.
double num(double v) {
  if (!std::isfinite(v)) return 0;
  if (v == 0) return 0;
  double scale = std::pow(10.0, 4 - static_cast<int>(std::ceil(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

json demand_json(const Demand& d) {
  json o = json::object();
  for (size_t i = 0; i < kResourceCount; ++i)
    if (d.amount[i] != 0) o[std::string(resource_name(static_cast<Resource>(i)))] = num(d.amount[i]);
  return o;
}

json estimate_json(const std::string& path, const Analysis& a, const Estimate& e) {
  const Kernel& k = a.module.kernels[e.kernel];
  json o;
  o["file"] = path;
  o["kernel"] = std::string(a.module.symbols[k.symbol].name);
  o["target"] = std::string(e.target);
  json unverified = json::array();
  for (std::string_view key : unverified_params(*e.device)) unverified.push_back(std::string(key));
  o["device"] = {{"id", std::string(e.device->id)},
                 {"name", std::string(e.device->name)},
                 {"table_version", std::string(e.device->version)},
                 {"unverified", unverified}};
  if (e.bench >= 0) {
    json shape = json::object();
    for (const auto& [name, v] : e.shape) shape[std::string(name)] = v;
    o["bench"] = {{"line", a.lines.position(a.module.benches[e.bench].range.begin).line + 1}, {"shape", shape}};
  } else {
    o["bench"] = nullptr;
  }
  o["ok"] = e.ok;
  if (!e.ok) o["problem"] = e.problem;
  if (e.ok) {
    o["time_us"] = num(e.time_us);
    o["bound"] = std::string(bound_name(e.bound));
    json res = json::object();
    for (size_t i = 0; i < kResourceCount; ++i) {
      const ResourceUse& u = e.resources[i];
      auto r = static_cast<Resource>(i);
      res[std::string(resource_name(r))] = {{"demand", num(u.demand)},
                                            {"unit", std::string(resource_unit(r))},
                                            {"throughput_per_s", num(u.throughput)},
                                            {"peak_per_s", num(u.peak)},
                                            {"time_us", num(u.time_us)},
                                            {"utilisation", num(u.utilisation)}};
    }
    o["resources"] = res;
    o["ctas"] = e.ctas;
    o["waves"] = num(e.waves);
    o["full_waves"] = e.full_waves;
    o["tail_fill"] = num(e.tail_fill);
    o["tail_us"] = num(e.tail_us);
    o["latency_us"] = num(e.latency_us);
    o["launch_us"] = num(e.launch_us);
    o["cta"] = {{"iterations_us", num(e.cta_iterations_us)}, {"prologue_epilogue_us", num(e.cta_outside_us)}};
  }
  o["occupancy"] = {{"ctas_per_sm", e.occupancy.ctas_per_sm},
                    {"limiter", std::string(e.occupancy.limiter)},
                    {"smem_per_cta", e.occupancy.smem_per_cta},
                    {"smem_layout", e.occupancy.smem_buffers},
                    {"regs_per_cta", e.occupancy.regs_per_cta},
                    {"threads", e.occupancy.threads}};
  json rings = json::array();
  for (const RingCost& r : e.rings) {
    json j = {{"line", r.line},
              {"stages", r.stages},
              {"trips", r.trips >= 0 ? json(r.trips) : json(nullptr)},
              {"iteration_us", num(r.iteration_us)},
              {"roofline_us", num(r.roofline_us)},
              {"resource_us", num(r.resource_us)},
              {"load_latency_us", num(r.load_latency_us)},
              {"bound", r.latency_bound() ? "latency" : std::string(resource_name(r.bound))},
              {"per_iteration", demand_json(r.per_iteration)}};
    json roles = json::array();
    for (const RingRole& role : r.roles) {
      json hold = json::object();
      for (size_t k = 0; k < kResourceCount; ++k)
        if (role.hold_us[k] > 0) hold[std::string(resource_name(static_cast<Resource>(k)))] = num(role.hold_us[k]);
      roles.push_back({{"role", std::string(role.role)},
                       {"warps", num(role.warps)},
                       {"hold_us", hold},
                       {"waits_us", num(role.waits_us)},
                       {"round_us", num(role.round_us)}});
    }
    j["roles"] = roles;
    rings.push_back(j);
  }
  o["rings"] = rings;
  json lines = json::array();
  for (const LineCost& l : e.lines)
    lines.push_back({{"line", l.line},
                     {"op", std::string(l.op)},
                     {"resource", std::string(resource_name(l.resource))},
                     {"time_us", num(l.time_us)},
                     {"demand", demand_json(l.demand)}});
  o["lines"] = lines;
  return o;
}

std::string estimate_text(const Analysis& a, const Estimate& e) {
  using render::Units;
  auto ring_text = [](const RingCost& r) {
    return render::micros(r.iteration_us, 3, Units::Terminal) + " per iteration, " +
           std::string(render::ring_bound(r.latency_bound(), r.bound)) + "-bound\n";
  };
  std::string s = "  ";
  s += e.bench >= 0 ? "bench " + render::shape_text(bench_shape(e), " ") : std::string("no bench");
  if (!e.ok) {
    s += ": " + e.problem + "\n";
    for (const RingCost& r : e.rings)
      s += "    ring at line " + std::to_string(r.line) + " (" + std::to_string(r.stages) + " stages): " + ring_text(r);
    return s;
  }
  s += ": " + render::micros(e.time_us, 1, Units::Terminal) + ", " + std::string(bound_name(e.bound)) + "-bound; " +
       std::to_string(e.ctas) + " CTAs, " + std::to_string(e.occupancy.ctas_per_sm) + "/SM (" +
       std::string(e.occupancy.limiter) + "), " + render::fixed_number(e.waves, 2) + " waves\n    roofs:";
  for (size_t i = 0; i < kResourceCount; ++i) {
    const ResourceUse& u = e.resources[i];
    if (u.demand <= 0) continue;
    s += " " + std::string(resource_name(static_cast<Resource>(i))) + " " + render::percent(100 * u.utilisation, Units::Terminal);
  }
  s += "\n";
  for (const RingCost& r : e.rings)
    s += "    ring at line " + std::to_string(r.line) + " (" + std::to_string(r.stages) + " stages, " +
         std::to_string(r.trips) + " trips): " + ring_text(r);
  // The costliest lines, each alone on the whole device.
  std::vector<const LineCost*> top;
  for (const LineCost& l : e.lines) top.push_back(&l);
  std::sort(top.begin(), top.end(), [](const LineCost* x, const LineCost* y) { return x->time_us > y->time_us; });
  if (top.size() > kTopLines) top.resize(kTopLines);
  if (!top.empty()) s += "    costliest lines:";
  for (size_t i = 0; i < top.size(); ++i)
    s += std::string(i ? "," : "") + " " + std::to_string(top[i]->line) + " " + std::string(top[i]->op) + " " +
         render::micros(top[i]->time_us, 1, Units::Terminal) + " " + std::string(resource_name(top[i]->resource));
  if (!top.empty()) s += "\n";
  return s;
}

std::optional<int> parse(Args args, EstimateOptions& o) {
  auto fail = [](const std::string& m) { return std::optional<int>(usage_error("estimate", m)); };
  for (ArgCursor c(args); !c.done(); c.advance()) {
    std::string_view a = c.current();
    if (a == "--help" || a == "-h") return write_all(stdout, estimate_help()) ? kExitOk : kExitUsage;
    if (c.is("--kernel")) {
      auto v = c.value("--kernel");
      if (!v) return fail("--kernel needs a name");
      o.kernel = *v;
    } else if (c.is("--target")) {
      auto v = c.value("--target");
      if (!v || !find_target(*v)) return fail("unknown target '" + v.value_or("") + "'");
      o.target = *v;
    } else if (c.is("--device")) {
      auto v = c.value("--device");
      o.device = v ? find_device(*v) : nullptr;
      if (!o.device) {
        std::string known;
        for (const DeviceInfo& d : all_devices()) known += " " + std::string(d.alias);
        return fail("unknown device '" + v.value_or("") + "' (one of:" + known + ")");
      }
    } else if (c.is("--table")) {
      auto v = c.value("--table");
      if (!v) return fail("--table needs a device table file");
      LoadedTable t = load_device_table(*v);
      if (!t.device) return fail(t.error);
      o.table = std::move(t.device);
    } else if (c.is("--format")) {
      auto v = c.value("--format");
      if (!v || (*v != "text" && *v != "json")) return fail("--format takes text or json");
      o.json = *v == "json";
    } else if (a.starts_with("-") && a != "-") {
      return fail("unknown option '" + std::string(a) + "'");
    } else {
      o.paths.emplace_back(a);
    }
  }
  if (o.paths.empty()) return fail("no input files");
  if (o.device && o.table) return fail("--device and --table both choose the device: give one");
  return std::nullopt;
}

}  // namespace

std::string estimate_help() {
  return R"(usage: cake estimate [options] FILE|DIR|- ...

Estimates each kernel's time with the cost model (docs/cost-model.md): for
every target the file lists, on that target's default device, for every
`bench` of the kernel. A kernel without a bench gets its pipelines'
per-iteration costs only ("no bench").

  --kernel K              only the kernel named K
  --target T              only target T (sm_80 ... sm_100a)
  --device D              this device instead of each target's default:
                          a100 a10 rtx3090 l4 rtx4090 h100 h200 b200
  --table FILE            the device of this device table (the format of
                          analysis/arch/devices/<id>.json; `cake calibrate -o`
                          writes one) instead of each target's default
  --format text|json      output format (default text)

Default devices: sm_80 A100-SXM4-80GB, sm_86 A10, sm_89 L4,
sm_90/sm_90a H100-SXM5-80GB, sm_100a B200-HGX.

exit status: 0 estimated, 1 a file has errors and cannot be estimated,
2 usage or I/O error.
)";
}

int run_estimate(Args args) {
  EstimateOptions o;
  if (auto status = parse(args, o)) return *status;
  int status = kExitOk;
  bool kernel_seen = o.kernel.empty();
  json estimates = json::array();
  std::string text;
  std::vector<const DeviceInfo*> used;  // the devices estimated on, in order of first use
  for (const InputFile& input : expand_inputs(o.paths)) {
    ReadResult read;
    if (input.error.empty()) read = input.is_stdin ? read_stdin() : read_file(input.path);
    if (!input.error.empty() || !read.error.empty()) {
      write_all(stderr, "cake estimate: " + input.path + ": " + (input.error.empty() ? read.error : input.error) + "\n");
      status = kExitUsage;
      continue;
    }
    auto analysis = analyze(std::move(read.text));
    if (unsigned errors = count(analysis->diagnostics).errors) {
      write_all(stderr, "cake estimate: " + input.path + ": " + std::to_string(errors) +
                            " error(s); not estimated (see `cake check`)\n");
      if (status == kExitOk) status = kExitFindings;
      continue;
    }
    const Module& m = analysis->module;
    for (uint32_t k = 0; k < m.kernels.size(); ++k) {
      std::string name(m.kernels[k].symbol == kNone ? "" : m.symbols[m.kernels[k].symbol].name);
      if (!o.kernel.empty() && name != o.kernel) continue;
      kernel_seen = true;
      for (const Target& t : m.targets) {
        if (!o.target.empty() && t.name != o.target) continue;
        const DeviceInfo* device = o.table ? &o.table->info() : o.device ? o.device : default_device(t.name);
        if (!device || !device->runs(t.name)) {
          write_all(stderr, "cake estimate: " + input.path + ": " + name + ": " +
                                (device ? std::string(device->id) + " does not run " : "no device for ") +
                                std::string(t.name) + "\n");
          continue;
        }
        if (std::find(used.begin(), used.end(), device) == used.end()) used.push_back(device);
        text += input.path + ": " + name + ", " + std::string(t.name) + " on " + std::string(device->id) +
                " (table " + std::string(device->version) + ")\n";
        for (const Estimate& e : estimate_kernel(*analysis, k, t.name, *device)) {
          if (o.json) estimates.push_back(estimate_json(input.path, *analysis, e));
          else text += estimate_text(*analysis, e);
        }
      }
    }
  }
  if (!kernel_seen) {
    write_all(stderr, "cake estimate: no kernel named '" + o.kernel + "'\n");
    return kExitUsage;
  }
  // Which figures behind the estimates are guesses (docs/cost-model.md "Device tables").
  for (const DeviceInfo* d : used) {
    std::string keys;
    for (std::string_view key : unverified_params(*d)) keys += (keys.empty() ? "" : ", ") + std::string(key);
    if (!keys.empty())
      text += "unverified (guessed or assumed) figures of " + std::string(d->id) + ", table " + std::string(d->version) +
              ": " + keys + "\n";
  }
  bool written = o.json ? write_all(stdout, json{{"tool", "cake estimate"}, {"estimates", estimates}}.dump(2) + "\n")
                        : write_all(stdout, text);
  return written ? status : kExitUsage;
}

}  // namespace cake::cli
