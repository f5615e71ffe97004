// E0413: a warp may reach only TMEM lanes 32 * (warp % 4) .. + 31. Read from
// the TmemLanes events of the trace (the lanes each warp's tcgen05.ld or
// tcgen05.st reaches, its rows placed as the buffer holds them: a 64-lane
// buffer 16 rows to a quarter, cake/model.h's tmem_lane()); the first warp
// out of its quarter at a statement is reported. An `mma_acc` fragment
// moves 16 lanes at a time, from lane 0 or 16 of a quarter.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <set>

namespace cake {

void check_tmem_lanes(const ProtocolContext& cx) {
  std::set<StmtId> reported;
  for (const std::vector<AsyncEvent>& events : cx.trace.async)
    for (const AsyncEvent& e : events) {
      if (e.kind != AsyncEventKind::TmemLanes) continue;
      int64_t lo = kTmemQuarterLanes * (e.warp % 4), hi = lo + kTmemQuarterLanes - 1, last = e.start + e.count - 1;
      bool inside = e.start >= lo && last <= hi;
      if (inside && (e.lane_step == 0 || e.start % e.lane_step == 0)) continue;
      if (!reported.insert(e.stmt).second) continue;
      const Symbol& buffer = cx.module.symbols[e.other];
      Diagnostic d;
      if (!inside && e.quarter_rows != kTmemQuarterLanes) {
        d = make_diagnostic(DiagForm::TmemLanesHalfRows, e.range, e.warp, e.rows.first,
                            e.rows.first + e.rows.second - 1, buffer.name, e.start, last, lo, hi);
        d.related.push_back({buffer.decl, "`" + std::string(buffer.name) + "` declared here: 64 lanes, 16 rows to a quarter"});
      } else if (!inside) {
        d = make_diagnostic(DiagId::TmemLanes, e.range, e.warp, e.start, last, lo, hi);
      } else {
        d = make_diagnostic(DiagForm::TmemLanesSixteen, e.range, e.warp, e.start);
        if (e.fragment != kNone) {
          const Symbol& f = cx.module.symbols[e.fragment];
          d.related.push_back({f.decl, "`" + std::string(f.name) + "` declared here: an `mma_acc` fragment"});
        }
      }
      cx.diagnostics.push_back(std::move(d));
    }
}

}  // namespace cake
