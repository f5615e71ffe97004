// The rules that read a protocol trace (sync/trace.h), one file each:
//   arrivals.cpp      E0401  arrivals per phase differ from the count
//   tx_bytes.cpp      E0402  expect_tx bytes differ from the bytes delivered
//   deadlock.cpp      E0403  a wait that can never complete
//   races.cpp         E0411, E0601, E0602, E0603  happens-before hazards
//   async_groups.cpp  E0407, E0408, E0409, E0410, E0412  async groups
//   tmem_lanes.cpp    E0413  TMEM lanes outside a warp's quarter
//   multicast.cpp     E0414  a multicast mask outside the cluster
//   pairs.cpp         E0421  a CTA pair's MMA or copy barrier in the wrong CTA
//   phases.cpp        E0418, E0419  phases nobody waits for, waits on a consumed phase
// check_protocol() (protocol.cpp) simulates each kernel and runs them all.
#pragma once

#include "cake/diagnostic.h"
#include "cake/model.h"
#include "sync/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

struct ProtocolContext {
  const Module& module;
  const ProtocolTrace& trace;
  std::vector<Diagnostic>& diagnostics;
};

void check_arrivals(const ProtocolContext& cx);
void check_tx_bytes(const ProtocolContext& cx);
void check_deadlock(const ProtocolContext& cx);
void check_races(const ProtocolContext& cx);
void check_async_groups(const ProtocolContext& cx);
void check_tmem_lanes(const ProtocolContext& cx);
void check_multicast(const ProtocolContext& cx);
void check_pairs(const ProtocolContext& cx);
void check_phases(const ProtocolContext& cx);

// Shared wording helpers.

/// `full[2]` for an element of an mbarrier array, `full` for a scalar.
std::string barrier_text(const Module& m, BarrierKey key);
/// `cs[1]` for a stage, `cs` for a buffer without stages.
std::string slot_text(const Module& m, SlotKey slot);
/// A barrier of `role`'s threads inserted before statement `before`
/// (`where` says where, for the fix's title): `syncthreads` without
/// roles; for a role, a `namedbarrier` of its threads declared before it
/// (the first id every listed target has that the kernel leaves free, a
/// new name) and `sync` on it.
/// Nullopt when every id is taken or `before` sits under an `if`.
std::optional<Fix> role_barrier_fix(const Module& m, const ProtocolTrace& t, const RoleView& role, const Stmt& before,
                                    std::string_view where);
/// The "declared here" note on a symbol.
void add_decl_note(const Module& m, Diagnostic& d, SymbolId symbol);

}  // namespace cake
