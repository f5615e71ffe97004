// Names of the model's closed enums (dtypes, spaces, layouts, symbol kinds)
// and the look-ups from their spellings. Ops have their table in ops.cpp.
#include "cake/model.h"

#include <algorithm>
#include <array>

namespace cake {
namespace {

struct DTypeInfo {
  std::string_view name;
  unsigned bits;
  bool is_float;
  /// The type `red.global.add` adds it as on every target (PTX ISA, red:
  /// .u32 .s32 .u64 .f32 .f64), empty when it has none.
  std::string_view red_add;
  /// The type an MMA instruction names for operands of it (PTX ISA, mma,
  /// wgmma.mma_async, tcgen05.mma: the 8-bit and narrower floats without
  /// their width), empty when it is no MMA operand type.
  std::string_view mma;
  /// As a tcgen05.mma operand: the instruction's `.kind` and the format
  /// code of the instruction descriptor's A/B fields (PTX ISA,
  /// "Instruction descriptor": kind::f16 f16 0, bf16 1; kind::tf32 2;
  /// kind::f8f6f4 e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5; kind::i8 u8 0,
  /// s8 1); empty kind when it is none.
  Tcgen05Operand tcgen05;
};
constexpr std::array<DTypeInfo, 21> kDTypes = {{
    {"f64", 64, true, "f64", "f64", {}},
    {"f32", 32, true, "f32", "", {}},
    {"tf32", 32, true, "", "tf32", {"tf32", 2}},
    {"f16", 16, true, "", "f16", {"f16", 0}},
    {"bf16", 16, true, "", "bf16", {"f16", 1}},
    {"f8e4m3", 8, true, "", "e4m3", {"f8f6f4", 0}},
    {"f8e5m2", 8, true, "", "e5m2", {"f8f6f4", 1}},
    {"f6e3m2", 6, true, "", "e3m2", {"f8f6f4", 4}},
    {"f6e2m3", 6, true, "", "e2m3", {"f8f6f4", 3}},
    {"f4e2m1", 4, true, "", "e2m1", {"f8f6f4", 5}},
    {"i64", 64, false, "", "", {}},
    {"i32", 32, false, "s32", "", {}},
    {"i16", 16, false, "", "", {}},
    {"i8", 8, false, "", "s8", {"i8", 1}},
    {"u64", 64, false, "u64", "", {}},
    {"u32", 32, false, "u32", "", {}},
    {"u16", 16, false, "", "", {}},
    {"u8", 8, false, "", "u8", {"i8", 0}},
    {"b32", 32, false, "", "", {}},
    {"pred", 1, false, "", "", {}},
    {"?", 0, false, "", "", {}},
}};

}  // namespace

std::string_view dtype_name(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].name; }
unsigned dtype_bits(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].bits; }
bool is_float(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].is_float; }
bool is_sub_byte_float(DType dtype) { return is_float(dtype) && dtype_bits(dtype) < 8; }
unsigned stored_bits(DType dtype) { return is_sub_byte_float(dtype) ? 8 : dtype_bits(dtype); }
bool is_fp8(DType dtype) { return dtype == DType::F8E4M3 || dtype == DType::F8E5M2; }
bool is_int8(DType dtype) { return dtype == DType::I8 || dtype == DType::U8; }
std::string_view red_add_type(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].red_add; }
std::string_view mma_type(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].mma; }
Tcgen05Operand tcgen05_operand(DType dtype) { return kDTypes[static_cast<size_t>(dtype)].tcgen05; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (size_t i = 0; i + 1 < kDTypes.size(); ++i)
    if (kDTypes[i].name == name) return static_cast<DType>(i);
  return std::nullopt;
}

std::string_view space_name(Space space) {
  switch (space) {
    case Space::Global: return "global";
    case Space::Const: return "const";
    case Space::Smem: return "smem";
    case Space::Dsmem: return "dsmem";
    case Space::Tmem: return "tmem";
    case Space::Reg: return "reg";
    case Space::Scalar: return "scalar";
    case Space::None: return "none";
  }
  return "none";
}

unsigned swizzle_bytes(Swizzle swizzle) {
  switch (swizzle) {
    case Swizzle::None: return 0;
    case Swizzle::B32: return 32;
    case Swizzle::B64: return 64;
    case Swizzle::B128: return 128;
  }
  return 0;
}

std::string_view frag_layout_name(FragLayout layout) {
  switch (layout) {
    case FragLayout::None: return "none";
    case FragLayout::MmaAcc: return "mma_acc";
    case FragLayout::MmaAccRow: return "mma_acc.row";
    case FragLayout::WgmmaAcc: return "wgmma_acc";
    case FragLayout::WgmmaAccRow: return "wgmma_acc.row";
    case FragLayout::Tcgen05Acc: return "tcgen05_acc";
  }
  return "none";
}

std::string_view symbol_kind_name(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Const: return "a constant";
    case SymbolKind::ShapeSymbol: return "a shape symbol";
    case SymbolKind::TensorParam: return "a tensor parameter";
    case SymbolKind::ScalarParam: return "a scalar parameter";
    case SymbolKind::Smem: return "a shared-memory buffer";
    case SymbolKind::Tmem: return "a tensor-memory buffer";
    case SymbolKind::Reg: return "a register fragment";
    case SymbolKind::Mbarrier: return "an mbarrier";
    case SymbolKind::NamedBarrier: return "a named barrier";
    case SymbolKind::Tensormap: return "a tensormap";
    case SymbolKind::Dsmem: return "a view of a peer CTA's shared memory";
    case SymbolKind::Let: return "a scalar";
    case SymbolKind::LoopVar: return "a loop variable";
    case SymbolKind::StageVar: return "a pipeline stage";
    case SymbolKind::Role: return "a role";
    case SymbolKind::Kernel: return "a kernel";
    case SymbolKind::Dispatch: return "a dispatch";
    case SymbolKind::DispatchParam: return "a dispatch parameter";
    case SymbolKind::Builtin: return "a builtin";
  }
  return "a name";
}

SymbolId Module::symbol_at(uint32_t offset) const {
  for (SymbolId i = 0; i < symbols.size(); ++i) {
    const Symbol& s = symbols[i];
    if (s.def.contains(offset)) return i;
    auto it = std::upper_bound(s.uses.begin(), s.uses.end(), offset,
                               [](uint32_t o, const ByteRange& r) { return o < r.begin; });
    if (it != s.uses.begin() && std::prev(it)->contains(offset)) return i;
  }
  return kNone;
}

}  // namespace cake
