// closed_network() (queue.h): Schweitzer's approximate
// mean-value analysis of a closed multi-class queueing network (P. Schweitzer,
// "Approximate analysis of multiclass closed networks of queues", 1979;
// Lazowska et al., "Quantitative System Performance", 1984, ch. 7). A
// customer arriving at a unit finds there the mean queue of the full
// population less its own share; fixed-point iteration from a proportional
// start converges in a few dozen rounds for the handful of classes a kernel
// has.
#include "cost/queue.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cake {

namespace {

/// Warp schedulers of an SM: a CTA's warps are spread over them, and each
/// has its own quarter of the CUDA cores, SFU, issue slots and tensor core.
constexpr double kQueueSchedulers = 4;
/// Rounds of the fixed-point iteration at most, and the change in any queue
/// length (customers) below which it has converged.
constexpr int kQueueRounds = 1000;
constexpr double kQueueTolerance = 1e-9;

/// How many schedulers' warps one unit serves: shared memory is one port
/// for the SM; every other unit is per scheduler.
double sharers(Resource r) { return r == Resource::Smem ? kQueueSchedulers : 1; }

}  // namespace

double WarpClass::chain_s() const { return std::accumulate(hold_s.begin(), hold_s.end(), delay_s); }

NetworkTime closed_network(const std::vector<WarpClass>& classes, double ctas_per_sm) {
  size_t n = classes.size();
  if (n == 0) return {};
  std::vector<double> customers(n);
  std::vector<std::array<double, kResourceCount>> queue(n), residence(n);
  for (size_t c = 0; c < n; ++c) {
    // One scheduler's share of the class's warps (a lone warp is one customer there).
    customers[c] = std::max(1.0, classes[c].warps * ctas_per_sm / kQueueSchedulers);
    double chain = classes[c].chain_s();
    for (size_t k = 0; k < kResourceCount; ++k) queue[c][k] = chain > 0 ? customers[c] * classes[c].hold_s[k] / chain : 0;
  }
  std::vector<double> cycle(n, 0);
  for (int round = 0; round < kQueueRounds; ++round) {
    std::array<double, kResourceCount> total{};
    for (size_t c = 0; c < n; ++c)
      for (size_t k = 0; k < kResourceCount; ++k) total[k] += queue[c][k];
    for (size_t c = 0; c < n; ++c) {
      const WarpClass& w = classes[c];
      cycle[c] = w.delay_s;
      for (size_t k = 0; k < kResourceCount; ++k) {
        double seen = sharers(static_cast<Resource>(k)) * total[k] - queue[c][k] / customers[c];
        residence[c][k] = w.hold_s[k] * (1 + std::max(0.0, seen));
        cycle[c] += residence[c][k];
      }
    }
    // The ring's barriers hold every class to the slowest one's pace: a
    // producer whose own round is short waits out the rest (on no unit).
    double slowest = *std::max_element(cycle.begin(), cycle.end()), change = 0;
    for (size_t c = 0; c < n; ++c)
      for (size_t k = 0; k < kResourceCount; ++k) {
        double q = slowest > 0 ? customers[c] * residence[c][k] / slowest : 0;
        change = std::max(change, std::abs(q - queue[c][k]));
        queue[c][k] = q;
      }
    if (change < kQueueTolerance) break;
  }
  NetworkTime t;
  size_t slowest = std::max_element(cycle.begin(), cycle.end()) - cycle.begin();
  t.iteration_s = cycle[slowest];
  t.rounds_s = cycle;
  auto longest = std::max_element(residence[slowest].begin(), residence[slowest].end());
  if (*longest > 0 && *longest >= classes[slowest].delay_s) t.unit = static_cast<Resource>(longest - residence[slowest].begin());
  return t;
}

}  // namespace cake
