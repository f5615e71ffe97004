// The warps of one SM as a closed queueing network, for one pipeline ring's
// iteration. Each role is a class of customers: its warps, which go round
// the ring's iteration one after another through segments of dependent
// work, each segment held on the SM unit it needs most (tensor core,
// CUDA cores, SFU, issue slots: one of each per scheduler; shared memory:
// one port for the SM), plus delays no unit serves (barrier round trips).
// Warps that need the same unit at once queue for it, so the iteration
// takes longer than the busiest unit's share (the roofline) whenever the
// warps are too few, or their segments too dependent, to keep it busy:
// FlashAttention's two consumer warpgroups alternating MMA and softmax.
// docs/cost-model.md, "Dependent chains".
#pragma once

#include "cake/cost.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace cake {

/// One role's warps in one ring: per iteration of the ring, the seconds one
/// warp holds each unit (indexed by Resource; Hbm and L2 unused: global
/// traffic is the roofline's) and the seconds it waits on no unit.
struct WarpClass {
  double warps = 0;  // of the role, per CTA
  std::array<double, kResourceCount> hold_s{};
  double delay_s = 0;
  std::string_view role;  // its name ("" for the implicit role)
  /// The warp's chain: all its segments and delays one after another.
  double chain_s() const;
};

/// One ring iteration of the SM's closed network of warps.
struct NetworkTime {
  double iteration_s = 0;
  /// The unit the slowest class spends longest at, its queueing included;
  /// nullopt when its waits on no unit (barrier round trips) are longer.
  std::optional<Resource> unit;
  /// Each class's own time round the iteration, its queueing included
  /// (the slowest's is `iteration_s`).
  std::vector<double> rounds_s;
};

/// A ring iteration when `ctas_per_sm` CTAs' warps of `classes` share one
/// SM: the slowest class's time round its iteration, by Schweitzer's
/// approximate mean-value analysis of the closed network (each of the SM's
/// four schedulers holds a quarter of the warps; shared memory is one port
/// for the four; the ring's barriers keep every class at the slowest one's
/// pace). Zero without classes.
NetworkTime closed_network(const std::vector<WarpClass>& classes, double ctas_per_sm);

}  // namespace cake
