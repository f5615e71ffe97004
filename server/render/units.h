// The one number formatter of server/: times, percentages, byte sizes,
// amounts with SI prefixes, bench shapes and bounds as text. The hover,
// code lens and inlay hint renderers and `cake estimate`'s text output all
// format numbers here, so a time reads the same everywhere.
#pragma once

#include "cake/cost.h"
#include "cake/query_cost.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace cake::render {

/// How units are spelled: Editor for hovers, lenses and hints ("41.2 µs",
/// "78 %"), Terminal for the command line's ASCII text ("41.2 us", "78%").
enum class Units : uint8_t { Editor, Terminal };

/// `v` with `digits` decimals ("41.2").
std::string fixed_number(double v, int digits);
/// A time in microseconds: "41.2 µs" (Terminal: "41.2 us").
std::string micros(double us, int digits, Units units = Units::Editor);
/// A percentage, given in percent, with no decimals: "78 %" (Terminal: "78%").
std::string percent(double value, Units units = Units::Editor);
/// A byte count: "65536 B (64 KB)" (the KB only when whole).
std::string bytes(int64_t n);
/// A byte count, short: "64 KB" when whole kilobytes, else "1536 B".
std::string short_bytes(int64_t n);
/// "1.5 MB", "3.2 GFLOP": an amount with an SI prefix, one decimal.
std::string amount(double v, std::string_view unit);
/// A bench shape, "N=4096, K=1024" (or with another separator).
std::string shape_text(const BenchShape& shape, std::string_view separator = ", ");
/// What bounds an estimate, with the achieved fraction of a resource roof:
/// "hbm-bound 78 %", "latency-bound".
std::string bound_text(Bound bound, double utilisation);
/// What bounds a pipeline ring: "latency" or its resource's name.
std::string_view ring_bound(bool latency_bound, Resource resource);

}  // namespace cake::render
