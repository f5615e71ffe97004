// The architecture tables: what each target has and how far it goes, as
// constexpr data. The source of truth is analysis/arch/<target>.json; at
// build time cake-arch-gen (analysis/arch/gen_arch_tables.cpp) turns those
// files into a generated C++ source, so analysis/ neither parses JSON nor
// does I/O at run time. Every number carries the id of its source (the ids
// of analysis/arch/sources.json, after gpu-arch.json) and a status, so a
// message or a hover can say where a limit comes from.
#pragma once

#include "cake/model.h"

#include <array>
#include <optional>
#include <cstdint>
#include <span>
#include <string_view>

namespace cake {

/// How well a number is established (gpu-arch.md's status labels).
enum class Status : uint8_t { None, Confirmed, Secondary, Derived, Unconfirmed };
std::string_view status_name(Status status);

/// One number of a table, with its source ids ("cccl_arch_traits, cuda_pg_cc").
template <typename T>
struct Sourced {
  T value = 0;
  std::string_view src;
  Status status = Status::None;
  /// False for a number the table does not have (clusters on sm_80).
  bool known() const { return status != Status::None; }
};
/// A limit of a target table.
using Limit = Sourced<int64_t>;

enum class LimitId : uint8_t {
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) ID,
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
};
inline constexpr size_t kLimitCount = 0
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) +1
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
    ;

enum class Feature : uint8_t {
#define CAKE_FEATURE(ID, KEY, NAME) ID,
#include "cake/arch_features.def"
#undef CAKE_FEATURE
};
inline constexpr size_t kFeatureCount = 0
#define CAKE_FEATURE(ID, KEY, NAME) +1
#include "cake/arch_features.def"
#undef CAKE_FEATURE
    ;

/// Whether a target has a feature, and on whose word.
struct FeatureGate {
  bool available = false;
  std::string_view src;
  Status status = Status::None;
};

/// `first, first + step, ..., last` (inclusive).
struct StepRange {
  int32_t first = 0, last = 0, step = 1;
  bool contains(int64_t v) const { return v >= first && v <= last && (v - first) % step == 0; }
};

/// A span of bytes and the alignment its pattern needs in shared memory.
struct SwizzleRule {
  Swizzle mode = Swizzle::None;
  Limit span;   // bytes of one swizzled row (32, 64, 128)
  Limit align;  // bytes the pattern repeats over (256, 512, 1024)
};

/// One `mma.sync` shape for an operand dtype.
struct MmaSyncShape {
  DType dtype = DType::Unknown;
  int32_t m = 0, n = 0, k = 0;
  std::string_view src;
  Status status = Status::None;
};

/// The dense `wgmma` shapes for an operand dtype: M, K and the valid Ns.
struct WgmmaShape {
  DType dtype = DType::Unknown;
  int32_t m = 0, k = 0;
  std::span<const StepRange> n;
  std::string_view src;
  Status status = Status::None;
};

/// The dense `tcgen05.mma` shapes of one kind and CTA group.
struct Tcgen05Shape {
  std::string_view kind;  // "f16", "tf32", "f8f6f4", "i8"
  std::span<const DType> dtypes;
  int32_t cta_group = 1;
  std::span<const int32_t> m;
  std::span<const StepRange> n;
  int32_t k = 0;
  std::string_view src;
  Status status = Status::None;
};

/// Everything the verifier and the cost model know about one target.
struct TargetInfo {
  std::string_view name;     // "sm_90a"
  std::string_view family;   // "Hopper GH100 (H100, H200)"
  std::string_view version;  // the table's version string
#define CAKE_LIMIT(ID, SECTION, KEY, DESCRIPTION) Limit KEY;
#include "cake/arch_limits.def"
#undef CAKE_LIMIT
  std::array<FeatureGate, kFeatureCount> features;
  std::span<const int32_t> cp_async_sizes;  // bytes per cp.async piece
  std::string_view cp_async_src;
  std::span<const SwizzleRule> swizzles;
  std::span<const MmaSyncShape> mma_sync;
  std::span<const WgmmaShape> wgmma;
  std::span<const Tcgen05Shape> tcgen05_mma;

  bool has(Feature f) const { return features[static_cast<size_t>(f)].available; }
  const FeatureGate& gate(Feature f) const { return features[static_cast<size_t>(f)]; }
  const Limit& limit(LimitId id) const;
  /// The rule of a swizzle mode, or null for None or a mode the table lacks.
  const SwizzleRule* swizzle(Swizzle mode) const;
  /// The `tcgen05.mma` shape of `cta_group` with operands of `dtype` that
  /// has M = `m` and N = `n`, or null when none has.
  const Tcgen05Shape* tcgen05_shape(DType dtype, int32_t cta_group, int64_t m, int64_t n) const;
};

/// Every known target, oldest first (sm_80 ... sm_100a).
std::span<const TargetInfo> all_targets();
/// The target of this name, or null.
const TargetInfo* find_target(std::string_view name);

/// The feature a target needs for `op` (ops.def's last column), or nullopt
/// when every target has it.
std::optional<Feature> op_feature(Op op);

/// The JSON key of a limit ("smem_per_block_optin") and what it is.
std::string_view limit_key(LimitId id);
std::string_view limit_description(LimitId id);
/// The JSON key of a feature ("wgmma") and its name in messages.
std::string_view feature_key(Feature f);
std::string_view feature_name(Feature f);

/// A source of the tables (analysis/arch/sources.json).
struct SourceInfo {
  std::string_view id;     // "cuda_pg_cc"
  std::string_view title;
  std::string_view url;
};
std::span<const SourceInfo> all_sources();
const SourceInfo* find_source(std::string_view id);

}  // namespace cake
