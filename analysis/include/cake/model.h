// The typed model of a CAKE IR file: items, kernels with their parameters,
// symbols and facts, resources, roles, statements, ops and expressions,
// every node with its byte range into the analysed text. Built from the CST
// by build_model(); names are resolved into the def-use table (`symbols`),
// so go-to-definition, references and rename are range look-ups.
//
// Storage is flat: expressions, statements and symbols live in vectors of the
// Module and refer to each other by index. Names are string_views into the
// analysed text, which the owning Analysis keeps alive.
#pragma once

#include "cake/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace cake {

// Section - Scalars and types

enum class DType : uint8_t {
  F64, F32, TF32, F16, BF16, F8E4M3, F8E5M2, F6E3M2, F6E2M3, F4E2M1,
  I64, I32, I16, I8, U64, U32, U16, U8, B32, Pred, Unknown
};
std::string_view dtype_name(DType dtype);
std::optional<DType> parse_dtype(std::string_view name);
/// Bits per element (pred: 1, unknown: 0).
unsigned dtype_bits(DType dtype);
/// Bits an element takes in shared and tensor memory: its width, but 8 for
/// the 6- and 4-bit floats. tcgen05.mma's kind::f8f6f4 reads them sixteen to
/// a 16-byte chunk (packed, then padding), which TMA's 16U6/16U4_ALIGN16B
/// types write from a packed tensor, so a tile takes a byte per element
/// (docs/language.md, "dtypes"). Global memory and `bytes()` count them packed.
unsigned stored_bits(DType dtype);
/// The 6- and 4-bit floats (f6e3m2, f6e2m3, f4e2m1).
bool is_sub_byte_float(DType dtype);
bool is_float(DType dtype);
/// The 8-bit floats (f8e4m3, f8e5m2).
bool is_fp8(DType dtype);
/// The 8-bit integers (i8, u8).
bool is_int8(DType dtype);
/// The PTX type `store.add` adds `dtype` as (`red.global.add`: f32, f64,
/// i32 as s32, u32, u64), empty when it cannot.
std::string_view red_add_type(DType dtype);
/// The PTX type an MMA instruction names for operands of `dtype` (bf16,
/// f16, tf32, e4m3, e5m2, s8, ...), empty when it is no MMA operand type.
std::string_view mma_type(DType dtype);
/// What a tcgen05.mma instruction says of an operand dtype: its `.kind`
/// ("f16", "tf32", "f8f6f4", "i8"; empty when the dtype is no tcgen05.mma
/// operand) and its format code in the instruction descriptor.
struct Tcgen05Operand {
  std::string_view kind;
  unsigned format = 0;
};
Tcgen05Operand tcgen05_operand(DType dtype);

enum class Space : uint8_t { Global, Const, Smem, Dsmem, Tmem, Reg, Scalar, None };
std::string_view space_name(Space space);

enum class Swizzle : uint8_t { None, B32, B64, B128 };
/// Bytes of the swizzle span (32, 64, 128), 0 for None.
unsigned swizzle_bytes(Swizzle swizzle);

enum class Order : uint8_t { RowMajor, ColMajor };

enum class FragLayout : uint8_t { None, MmaAcc, MmaAccRow, WgmmaAcc, WgmmaAccRow, Tcgen05Acc };
std::string_view frag_layout_name(FragLayout layout);

enum class Op : uint8_t {
#define CAKE_OP(ID, SPELLING, FAMILY, FEATURE, OP1, OP2, OP3, ENGINE, COMPLETION, ISSUE, SUMMARY) ID,
#include "cake/ops.def"
#undef CAKE_OP
};
enum class OpFamily : uint8_t { Move, Mma, Plain, GroupWait, Arrive, Commit, ArgReduce };
/// The op table (cake/ops.h, from ops.def) has every column; these read it.
std::string_view op_spelling(Op op);
OpFamily op_family(Op op);
std::optional<Op> parse_op(std::string_view spelling);

using ExprId = uint32_t;
using StmtId = uint32_t;
using SymbolId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;

// Section - Expressions

struct IndexItem {
  enum class Kind : uint8_t { Scalar, Slice, Full };
  Kind kind = Kind::Scalar;
  ByteRange range;
  ExprId start = kNone;   // Scalar: the index; Slice: the start
  ExprId extent = kNone;  // Slice only
};

struct Expr {
  enum class Kind : uint8_t {
    Name,       // text = the name; symbol = what it resolves to
    Int,        // int_value
    Float,      // float_value
    Bool,       // int_value 0/1
    Unary,      // text = operator; lhs = operand
    Binary,     // text = operator; lhs, rhs
    Call,       // text = function; args
    Cast,       // cast_type; lhs = value   (cvt<T>(x))
    Index,      // lhs = base; items
    Field,      // lhs = base; text = field name  (block.x, s.phase)
    Transpose,  // lhs = base  (x.T)
    Error,      // unparsable; already reported as a syntax error
  };
  Kind kind = Kind::Error;
  ByteRange range;
  std::string_view text;
  int64_t int_value = 0;
  double float_value = 0;
  DType cast_type = DType::Unknown;
  ExprId lhs = kNone, rhs = kNone;
  std::vector<ExprId> args;
  std::vector<IndexItem> items;
  SymbolId symbol = kNone;
  /// The expression this one is an operand, index, argument or base of;
  /// kNone for a statement's or declaration's own expression.
  ExprId parent = kNone;
};

// Section - Symbols (the def-use side table)

enum class SymbolKind : uint8_t {
  Const, ShapeSymbol, TensorParam, ScalarParam,
  Smem, Tmem, Reg, Mbarrier, NamedBarrier, Tensormap, Dsmem,
  Let, LoopVar, StageVar, Role, Kernel, Dispatch, DispatchParam, Builtin,
};
std::string_view symbol_kind_name(SymbolKind kind);  // "shared-memory buffer"

/// The value type of a buffer, fragment, parameter or scalar.
struct ValueType {
  DType dtype = DType::Unknown;
  Space space = Space::None;
  /// Leading ring dims first (`bf16[3][128, 64]`: stage_dims = {3}), then
  /// the tile shape ({128, 64}). Each is an expression of the model.
  std::vector<ExprId> stage_dims;
  std::vector<ExprId> dims;
  /// The written type (`bf16[3][128, 64]`); empty for a type without one.
  ByteRange written;
  Swizzle swizzle = Swizzle::None;
  /// The `swizzle(...)` clause as written; empty when there is none.
  ByteRange swizzle_clause;
  Order order = Order::RowMajor;
  /// The `row_major`/`col_major` clause as written; empty when there is none.
  ByteRange order_clause;
  FragLayout layout = FragLayout::None;
};

/// Element order (docs/language.md, "Element order"): the tile dims of a
/// buffer of rank `rank` and order `order`, from the outermost in memory to
/// the contiguous one: 0 .. rank-1 for row_major, rank-1 .. 0 for
/// col_major. A ring's stage dims are outside them all.
inline std::vector<size_t> memory_order(Order order, size_t rank) {
  std::vector<size_t> out(rank);
  for (size_t i = 0; i < rank; ++i) out[i] = order == Order::ColMajor ? rank - 1 - i : i;
  return out;
}
inline std::vector<size_t> memory_order(const ValueType& type) { return memory_order(type.order, type.dims.size()); }
/// Every dim of a buffer of `type` as its position among the index items
/// (stage dims first), outermost in memory first: the stage dims, then the
/// tile's in memory_order().
inline std::vector<size_t> item_order(const ValueType& type) {
  size_t stages = type.stage_dims.size();
  std::vector<size_t> out;
  for (size_t d = 0; d < stages; ++d) out.push_back(d);
  for (size_t d : memory_order(type)) out.push_back(stages + d);
  return out;
}
/// Whether the order moves a buffer's elements: `col_major` of rank 2 or
/// more (a 1-D buffer is the same in both orders).
inline bool is_col_major(const ValueType& type) { return type.order == Order::ColMajor && type.dims.size() >= 2; }
/// The contiguous tile dim of `type` (its last, or its first if col_major);
/// 0 for a scalar.
inline size_t contiguous_dim(const ValueType& type) {
  return type.order == Order::ColMajor || type.dims.empty() ? 0 : type.dims.size() - 1;
}

/// Tensor memory: the lanes of one quarter, the 32 a warp may reach (warp w
/// lanes 32 (w % 4) .. + 31).
constexpr int64_t kTmemQuarterLanes = 32;
/// Tensor memory (docs/language.md, "tmem"): how many rows of a `tmem`
/// buffer of `lanes` lanes lie in each warp's quarter of TMEM lanes. A
/// 64-lane buffer is an M = 64 tcgen05.mma's accumulator, whose row i the
/// MMA writes to lane 32 * (i / 16) + i % 16 (the PTX ISA's data-path
/// layout F: the first 16 lanes of each quarter); any other buffer holds
/// row i in lane i.
constexpr int64_t tmem_rows_per_quarter(int64_t lanes) { return lanes == 64 ? kTmemQuarterLanes / 2 : kTmemQuarterLanes; }
/// The TMEM lane, counted from the buffer's first, that holds row `row`.
constexpr int64_t tmem_lane(int64_t lanes, int64_t row) {
  int64_t q = tmem_rows_per_quarter(lanes);
  return kTmemQuarterLanes * (row / q) + row % q;
}

struct Symbol {
  SymbolKind kind = SymbolKind::Builtin;
  std::string_view name;
  ByteRange def;          // the defining name (empty for builtins and shape symbols' implicit def)
  ByteRange decl;         // the whole declaration
  uint32_t kernel = kNone;  // owning kernel index, kNone at file scope
  StmtId stmt = kNone;    // the declaring statement, if any
  ValueType type;
  ExprId value = kNone;   // Const / Let: its value; Mbarrier: array size; Dsmem: the CTA rank
  ExprId count = kNone;   // Mbarrier: count(c); NamedBarrier: threads(t)
  ExprId id = kNone;      // NamedBarrier: id(i)
  SymbolId tensor = kNone;              // Tensormap: the tensor parameter; Dsmem: the smem buffer
  std::vector<ExprId> box;              // Tensormap: box dims
  std::vector<ByteRange> uses;          // every reference, in text order
  /// The Name expressions among the uses (every use inside an expression),
  /// in text order: what a check walks to see how the symbol is used
  /// (`Expr::parent` gives the index, field or call around it).
  std::vector<ExprId> refs;
};

// Section - Statements

struct MoveStmt {
  Op op;
  ExprId dst = kNone, src = kNone, barrier = kNone, multicast = kNone;
  bool trans = false;
  ByteRange multicast_clause;  // `multicast(mask)` as written, if given
};
struct MmaStmt { Op op; ExprId acc = kNone; bool accumulate_into = false; ExprId a = kNone, b = kNone, accumulate = kNone; };
struct PlainStmt { Op op; };
struct GroupWaitStmt { Op op; ExprId pending = kNone; };
struct ArriveStmt {
  Op op;
  ExprId barrier = kNone, bytes = kNone;
  ExprId multicast = kNone;    // `arrive b multicast(mask)`: on b of each CTA the mask names
  ByteRange multicast_clause;  // `multicast(mask)` as written, if given
};
struct WaitStmt { ExprId barrier = kNone, parity = kNone; };
struct SyncStmt { ExprId barrier = kNone; };
struct CommitStmt {
  Op op;
  ExprId barrier = kNone, multicast = kNone;
  ByteRange multicast_clause;  // `multicast(mask)` as written, if given
};
struct ReduceStmt { enum class Kind : uint8_t { Max, Min, Sum } kind; ExprId dst = kNone, src = kNone; };
struct ArgReduceStmt { Op op; ExprId value = kNone, index = kNone, src = kNone, base = kNone; };
struct AssignStmt { std::string_view op; ExprId target = kNone, value = kNone; };
struct LetStmt { SymbolId symbol = kNone; ExprId value = kNone; };
/// A resource or fragment declaration; the symbol holds its type.
struct DeclStmt { SymbolId symbol = kNone; };
struct ElectStmt { enum class Kind : uint8_t { One, PerWarpgroup, PerWarp } kind; std::vector<StmtId> body; };
struct ForStmt { SymbolId variable = kNone; ExprId start = kNone, end = kNone, step = kNone; std::vector<StmtId> body; };
struct PipelineStmt {
  SymbolId stage = kNone, variable = kNone;
  ExprId stages = kNone, start = kNone, end = kNone, step = kNone;
  ByteRange ring;  // the `ring(N)` clause as written
  std::vector<StmtId> body;
};
struct IfStmt { ExprId condition = kNone; std::vector<StmtId> then_body, else_body; };

struct RoleSpec {
  enum class Kind : uint8_t { Warpgroup, Warp, All } kind = Kind::All;
  /// Each entry is one unit (`warpgroup(1, 2)`) or a range (`warp(0 .. 2)`).
  struct Entry { ExprId first = kNone; ExprId end = kNone; ByteRange range; };  // end != kNone: a range
  std::vector<Entry> entries;
};
struct RoleStmt {
  SymbolId symbol = kNone;
  RoleSpec spec;
  ExprId maxnreg = kNone;
  ByteRange maxnreg_clause;  // `maxnreg(n)` as written, if given
  std::vector<StmtId> body;
};

struct Stmt {
  ByteRange range;    // the whole statement
  ByteRange keyword;  // the leading keyword or op token
  StmtId parent = kNone;
  std::variant<MoveStmt, MmaStmt, PlainStmt, GroupWaitStmt, ArriveStmt, WaitStmt, SyncStmt,
               CommitStmt, ReduceStmt, ArgReduceStmt, AssignStmt, LetStmt, DeclStmt, ElectStmt,
               ForStmt, PipelineStmt, IfStmt, RoleStmt>
      node;
};

// Section - Items

struct Target {
  std::string_view name;
  ByteRange range;
};

/// A name the first `target` item lists again (CAKE-E0102). It is not in
/// Module::targets; `separated` is the name with the separator before it,
/// what removing it deletes. Names that a further `target` item repeats are
/// not recorded: that item draws CAKE-E0114, whose fix merges it.
struct RepeatedTarget {
  ByteRange range, first, separated;
};

struct Param {
  SymbolId symbol = kNone;
};

struct Kernel {
  SymbolId symbol = kNone;
  ByteRange range;
  std::vector<SymbolId> params;
  std::vector<SymbolId> shape_symbols;  // in order of first use in a parameter shape
  std::vector<ExprId> facts;
  std::vector<ExprId> grid, cluster;
  ExprId block = kNone;
  bool nonportable = false;
  /// `cta_group 2`: tcgen05 ops work on pairs of the cluster's CTAs (ranks
  /// 2i and 2i + 1; the even one issues the pair's MMAs). 1 without the
  /// clause or when its value is not 1 or 2 (E0309).
  int cta_group = 1;
  ByteRange grid_range, block_range, cluster_range, cta_group_range;
  /// Top-level statements of the body: declarations, roles and (for a kernel
  /// with no role) the statements of its implicit `all` role.
  std::vector<StmtId> body;
};

struct DispatchCase {
  ExprId guard = kNone;  // kNone for else
  std::string_view kernel;
  ByteRange kernel_range;
  SymbolId kernel_symbol = kNone;
  ByteRange range;
};

struct Dispatch {
  SymbolId symbol = kNone;
  ByteRange range;
  std::vector<SymbolId> params;
  std::vector<DispatchCase> cases;  // the else case last, if any
};

struct BenchBinding {
  std::string_view name;
  ByteRange name_range;
  ExprId value = kNone;
  SymbolId symbol = kNone;  // the kernel's shape symbol, if it has one of that name
};

struct Bench {
  std::string_view kernel;
  ByteRange kernel_range;
  SymbolId kernel_symbol = kNone;
  ByteRange range;
  std::vector<BenchBinding> bindings;
  /// `reference NAME`: the kernel whose outputs `cake run` compares with the
  /// benched kernel's for the same inputs. Empty name when there is none;
  /// reference_symbol is kNone when it names no kernel (E0101/E0108).
  std::string_view reference;
  ByteRange reference_range;
  SymbolId reference_symbol = kNone;
};

struct ConstItem {
  SymbolId symbol = kNone;
};

struct Module {
  /// The targets the file lists, each once, in the order they are first
  /// listed (on the first `target` item, then on further ones): the one list
  /// every check, estimate and output reads.
  std::vector<Target> targets;
  std::vector<RepeatedTarget> repeated_targets;  // on the first `target` item
  ByteRange target_range;                    // the first `target` item
  std::vector<ByteRange> extra_target_items;  // further `target` items (an error)
  ByteRange first_item_range;                // the first item of the file
  bool items_before_target = false;          // an item precedes the first `target`
  std::vector<ConstItem> consts;
  std::vector<Kernel> kernels;
  std::vector<Dispatch> dispatches;
  std::vector<Bench> benches;

  std::vector<Expr> exprs;
  std::vector<Stmt> stmts;
  std::vector<Symbol> symbols;

  /// The text the model was built from: every range and name points into
  /// it. Read it through the three calls below, never by searching it.
  std::string_view source;

  /// How a node is written (its range's text): for quoting it in a message
  /// or copying it into a fix.
  std::string_view written(ByteRange range) const;
  /// The builtin symbol `name` (`block`, `cluster`, `warp`, ...), kNone when
  /// absent. The builder declares the builtins first, so this reads only
  /// them, not every symbol of a large file.
  SymbolId builtin(std::string_view name) const {
    for (SymbolId id = 0; id < symbols.size() && symbols[id].kind == SymbolKind::Builtin; ++id)
      if (symbols[id].name == name) return id;
    return kNone;
  }
  /// The blanks that open the line of `offset`: the indentation a fix gives
  /// a line it inserts there.
  std::string_view indent_at(uint32_t offset) const;
  /// `range` with its line (the line break included) when nothing but
  /// blanks and a trailing `//` comment shares it: what a fix deletes to
  /// remove a construct that stands on a line of its own; else `range`.
  ByteRange whole_lines(ByteRange range) const;

  const Expr& expr(ExprId id) const { return exprs[id]; }
  const Stmt& stmt(StmtId id) const { return stmts[id]; }
  const Symbol& symbol(SymbolId id) const { return symbols[id]; }

  /// The symbol whose definition or one of whose uses covers `offset`.
  SymbolId symbol_at(uint32_t offset) const;
};

}  // namespace cake
