// The number formatter (units.h).
#include "units.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace cake::render {

std::string fixed_number(double v, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

std::string micros(double us, int digits, Units units) {
  switch (units) {
    case Units::Editor: return fixed_number(us, digits) + " µs";
    case Units::Terminal: return fixed_number(us, digits) + " us";
  }
  return fixed_number(us, digits);
}

std::string percent(double value, Units units) {
  switch (units) {
    case Units::Editor: return fixed_number(value, 0) + " %";
    case Units::Terminal: return fixed_number(value, 0) + "%";
  }
  return fixed_number(value, 0);
}

std::string bytes(int64_t n) {
  std::string s = std::to_string(n) + " B";
  if (n >= 1024 && n % 1024 == 0) s += " (" + std::to_string(n / 1024) + " KB)";
  return s;
}

std::string short_bytes(int64_t n) {
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n / 1024) + " KB";
  return std::to_string(n) + " B";
}

std::string amount(double v, std::string_view unit) {
  static constexpr std::pair<double, const char*> kPrefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto& [scale, prefix] : kPrefixes)
    if (v >= scale) return fixed_number(v / scale, 1) + " " + prefix + std::string(unit);
  return fixed_number(v, v == std::floor(v) ? 0 : 1) + " " + std::string(unit);
}

std::string shape_text(const BenchShape& shape, std::string_view separator) {
  std::string s;
  for (const auto& [name, value] : shape) s += (s.empty() ? "" : std::string(separator)) + name + "=" + std::to_string(value);
  return s;
}

std::string bound_text(Bound bound, double utilisation) {
  std::string s = std::string(bound_name(bound)) + "-bound";
  if (bound < Bound::Latency) s += " " + percent(100 * utilisation);
  return s;
}

std::string_view ring_bound(bool latency_bound, Resource resource) {
  return latency_bound ? std::string_view("latency") : resource_name(resource);
}

}  // namespace cake::render
