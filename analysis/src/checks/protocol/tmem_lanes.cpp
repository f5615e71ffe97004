// E0413: a warp may reach only TMEM lanes 32 * (warp % 4) .. + 31. Read from
// the TmemLanes events of the trace (the lanes each warp's tcgen05.ld or
// tcgen05.st reaches); the first warp out of its quarter at a statement is
// reported.
#include "checks/protocol/protocol_checks.h"
#include "diag_builder.h"

#include <set>

namespace cake {

void check_tmem_lanes(const ProtocolContext& cx) {
  std::set<StmtId> reported;
  for (const std::vector<AsyncEvent>& events : cx.trace.async)
    for (const AsyncEvent& e : events) {
      if (e.kind != AsyncEventKind::TmemLanes) continue;
      int64_t lo = 32 * (e.warp % 4);
      if (e.start >= lo && e.start + e.count <= lo + 32) continue;
      if (!reported.insert(e.stmt).second) continue;
      cx.diagnostics.push_back(
          make_diagnostic(DiagId::TmemLanes, e.range, e.warp, e.start, e.start + e.count - 1, lo, lo + 31));
    }
}

}  // namespace cake
