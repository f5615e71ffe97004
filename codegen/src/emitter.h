// The state of lowering one kernel × target, shared by the files of
// codegen/src: the model and its facts, the CUDA being written with its line
// map, and the diagnostics of what cannot be lowered (yet).
#pragma once

#include "cake/codegen/lower.h"
#include "cake/model.h"
#include "cake/kernel_facts.h"
#include "cake/eval.h"
#include "cake/fragment_order.h"
#include "cake/tile_in_buffer.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cake::codegen {

/// The C++ of integer expression `e` when it is an operator or a call of
/// cdiv/min/max, its operands printed by `operand`; nullopt for any other
/// kind (names, fields, literals: the caller's to print).
std::optional<std::string> composite_integer(const Expr& e, const std::function<std::string(ExprId)>& operand);

/// A fragment's shape as the lowering sees it: its layout, its dims (folded
/// to constants) and its dtype.
struct FragShape {
  FragLayout layout = FragLayout::None;
  std::vector<int64_t> dims;  // tile dims; empty: a scalar register
  DType dtype = DType::Unknown;
  /// 32-bit registers per thread (E0304's count).
  int64_t registers() const;
  /// Elements of the C++ array that holds it per thread: one per register
  /// (32-bit types, and 16-bit pairs packed in one), one per element for a
  /// per-thread (layout None) tile.
  int64_t slots() const;
  /// A 16- or 8-bit fragment in an accumulator layout: 2 or 4 elements
  /// packed in each 32-bit register (for 16 bits the mma.sync and wgmma
  /// operand form): value i is part i % n (the low bits first) of register
  /// i / n, n = per_register().
  bool packed() const;
  /// Values per 32-bit register: 2 (16-bit) or 4 (8-bit) packed, else 1.
  int64_t per_register() const;
  /// The values one thread holds: its registers, or the values packed in
  /// them (two or four a register; a .row vector's last one may be part full).
  int64_t values() const;
};

/// Where register `i` of a fragment sits in its tile, as C++ expressions of
/// `i` (an unrolled loop variable) and the thread's lane: row and column (a
/// 1-D fragment has only a row, or for layout None the flat index).
struct ElementPlace {
  std::string row, col;
};

/// An element's place split in two: every layout places register `i` of a
/// thread at the thread's corner (lane and warp only) plus the register's
/// offset from it (`i` only). An address taken at the corner once indexes
/// every register from it by a constant after unrolling, which is less for
/// NVRTC to simplify (a sixth less compile time for row_softmax).
struct SplitPlace {
  ElementPlace thread, reg;
};

/// The buffer an operand names and its index items, outermost first (a
/// ring's stage items, then the tile's; none for a bare name).
using Operand = IndexedOperand;
inline Operand operand_of(const Module& m, ExprId id) { return indexed_operand(m, id); }
/// A part of a fragment of rank `rank` with a whole item for each dim past
/// the written ones: `t[1]` of a [2, 4] fragment is `t[1, :]`, its row 1.
inline void whole_past(Operand& part, size_t rank) {
  if (!part.items.empty() && part.items.size() < rank) part.items.resize(rank, IndexItem{IndexItem::Kind::Full, {}, kNone, kNone});
}

/// A memory operand's layout for a tile element at (row, col): its symbol
/// (`base`; `storage` is the buffer a dsmem view names), every dim (stage
/// dims first) with the index in it, which dims the tile's row and column
/// run along, its smem slot, and whether it is plain memory (neither swizzled
/// nor placed apart by stage; linear() in memory order addresses it).
struct OperandLayout {
  SymbolId base = kNone, storage = kNone;
  std::vector<std::string> dims, coordinate;
  std::vector<size_t> tile_dims;
  size_t stages = 0;
  /// Every dim, outermost in memory first: the stage dims, then the tile's
  /// in its element order (docs/language.md, "Element order").
  std::vector<size_t> order;
  const SmemSlot* slot = nullptr;
  bool plain = true;
  /// The linear index of dims [from, to) in memory order.
  std::string linear(size_t from, size_t to) const;
  /// Elements between neighbours along dim `d` (a C++ expression).
  std::string stride(size_t d) const;
};

/// A plain operand's address at a thread's corner and its registers' offsets
/// from it, in elements (Emitter::corner_address()).
struct CornerAddress {
  std::string pointer, offset;
  bool column_innermost = false;  // the tile's last dim (its columns, or its only dim) runs along the buffer's contiguous dim
};

class Emitter {
 public:
  Emitter(const Analysis& analysis, uint32_t kernel, const TargetInfo& target, const std::string& file);

  const Module& m;
  const LineIndex& lines;
  const Kernel& kernel;
  const TargetInfo& target;
  KernelFacts facts;
  const Evaluator& eval;
  std::string file;
  LowerOptions options;
  Lowered out;

  // Section - writing

  /// Appends one physical line, mapped to the .cake line of `at` (no
  /// mapping when `at` is empty and no statement is current).
  void line(const std::string& text, ByteRange at);
  /// A `.cake` statement's text as comments (one per source line; only
  /// its first line when `head_only`).
  void comment(ByteRange at, bool head_only = false);
  int indent = 0;

  // Section - refusing

  /// Records that the construct at `at` cannot be lowered (CAKE-E0801).
  void refuse(ByteRange at, const std::string& what);

  // Section - values (values.cpp)

  /// The C++ of an integer (index) expression; refuses what it cannot say.
  std::string index(ExprId e);
  /// The C++ of a condition.
  std::string condition(ExprId e);
  /// The shape of a register fragment symbol, or nullopt (refused).
  std::optional<FragShape> fragment(SymbolId s, ByteRange at);
  /// Where register `i` (C++ expression) of `f` sits: split_place()'s two
  /// parts added.
  ElementPlace place(const FragShape& f, const std::string& i);
  SplitPlace split_place(const FragShape& f, const std::string& i);
  /// The register of a packed (16-bit) mma_acc fragment `f` that holds the
  /// 8 x 8 block at rows 8 * `block_row`, columns 8 * `block_col`: each such
  /// register is one ldmatrix matrix and one mma.sync operand register.
  std::string packed_register(const FragShape& f, const std::string& block_row, const std::string& block_col) const;
  /// The 8 x 8 block (row, column of blocks) that register `r` of packed
  /// fragment `f` holds: the inverse of packed_register().
  ElementPlace packed_block(const FragShape& f, const std::string& r) const;
  /// The register of an mma_acc fragment `f` that holds the k-th value (of
  /// 2 · columns / 8) of its row slot `slot` (a `.row` vector's register):
  /// what a row reduction reads.
  std::string mma_acc_register(const FragShape& f, const std::string& slot, const std::string& k) const;
  /// The register of accumulator fragment `f` (mma_acc or wgmma_acc) that
  /// holds the k-th value (of 2 · columns / 8, in column order) of its row
  /// slot `slot`; that value's column is 8 (k / 2) + 2t + k % 2 in both.
  std::string acc_row_register(const FragShape& f, const std::string& slot, const std::string& k) const;
  /// The column of that k-th value: 8 (k / 2) + 2t + k % 2, t the lane's
  /// index in its quad (both accumulator layouts).
  std::string acc_row_column(const std::string& k) const;
  /// The C++ of element-wise expression `e` at register `i` of a result of
  /// shape `result`; operands are fragments of that shape, row vectors
  /// broadcast along rows, or scalars. `context` is the dtype a literal or
  /// an integer scalar takes here (the other operand's, or the assigned
  /// fragment's: docs/language.md, "Types"): f64 keeps them in double,
  /// anything else computes them in f32.
  std::string element(ExprId e, const FragShape& result, const std::string& i, DType context = DType::Unknown);
  /// The C++ of integer expression `e` at register `i` of an integer
  /// result of shape `result` (C++ integer arithmetic, which the statement
  /// that stores it narrows); operands as element() takes them.
  std::string integer_element(ExprId e, const FragShape& result, const std::string& i);
  /// `row(x)` or `col(x)` at register `i` of a result of shape `result`:
  /// the place of that element, which x must share (nullopt: refused).
  std::optional<std::string> element_place(const Expr& call, const FragShape& result, const std::string& i);
  /// Part `op` of fragment `f` (`y[32 : 32, :]`, `t[1, :]`): the C++
  /// condition that register `i` lies in it ("" when every one does) and,
  /// into `tile`, the register's coordinates in the part (a scalar item's
  /// dim dropped); nullopt where the part is not lowered (refused).
  std::optional<std::string> part_guard(const FragShape& f, const IndexedOperand& op, const std::string& i,
                                        std::vector<std::string>& tile);
  /// The items of the part an assignment writes (`x[:, 0 : 8] = ...`), while
  /// its value is lowered: an operand that is the same part of a fragment
  /// laid out as x is read at the same register.
  const std::vector<IndexItem>* part_items = nullptr;
  /// While an assignment's value is lowered: the fragment it writes, and
  /// the statements that fetch the operand values other lanes hold
  /// (shuffles, which every lane of the warp must run: the caller puts them
  /// before any guard of the register loop's body; `once`, those that do
  /// not depend on the register, before the loop). `reads_target`: an
  /// operand reads the written fragment at another place, from the copy
  /// `name + "_was"` the caller makes before writing. Null elsewhere,
  /// where such operands are refused.
  struct Fetch {
    explicit Fetch(SymbolId written) : target(written) {}
    SymbolId target = kNone;
    std::vector<std::string> statements;
    std::vector<std::string> once;
    bool reads_target = false;
    /// The name of the next value fetched `once`.
    std::string next_once() const { return "cake_e" + std::to_string(once.size()); }
  };
  Fetch* fetch = nullptr;
  /// Operand `id`, a part of a fragment, at register `i` of the result
  /// (its slot as stored): the same register when it is the assigned part
  /// (part_items), else the element as far from the part's start as the
  /// result's register is from the written part's (other_place()).
  std::optional<std::string> part_operand(ExprId id, const FragShape& result, const std::string& i);
  /// Part `items` of per-thread fragment `s` (`y`) as an operand at
  /// element `i` of a per-thread result: the part's element that element
  /// reads (broadcast as a whole fragment of the part's shape would be), at
  /// its row-major place in y (`acc + s[:, 0]`, `x * t[1, :]`).
  std::optional<std::string> thread_part(SymbolId s, ByteRange at, const FragShape& y, const std::vector<IndexItem>& items,
                                         const FragShape& result, const std::string& i);
  /// The row-major index into a per-thread fragment of `dims` of the
  /// element at `coordinates` (a C++ expression a dim): the one home of a
  /// per-thread fragment's element order (thread_part(), element_of()).
  static std::string row_major(const std::vector<int64_t>& dims, const std::vector<std::string>& coordinates);
  /// A fragment operand at `at` (shape `y`, `items` its part, none for the
  /// whole fragment) read where the result (`result`, its written part
  /// part_items or the whole) has its registers: how far apart the two
  /// starts are, per dim, when the parts have one shape (nullopt: refused).
  std::optional<std::array<int64_t, 2>> part_shift(ByteRange at, const FragShape& y,
                                                   const std::vector<IndexItem>& items, const FragShape& result);
  /// Element (row + shift[0], col + shift[1]) of fragment `s` (as stored),
  /// (row, col) the place of register `i` of `result`, laid out alike: read
  /// from this thread's registers, or fetched from the lane that holds it
  /// by `__shfl_sync` (into fetch->statements; nullopt, refused, without
  /// `fetch` or where another warp holds it).
  std::optional<std::string> other_place(SymbolId s, ByteRange at, const FragShape& y, const FragShape& result,
                                         const std::string& i, const std::array<int64_t, 2>& shift);
  /// Element `items` (each a scalar) of fragment `s` (shape `y`) as a
  /// scalar every register of the result reads (`w = x[0, 0] * 2.0`): a
  /// thread's own, or fetched from the lane that holds it (constant
  /// places; refused for a warpgroup's fragment, which one warp holds),
  /// into fetch->once, so read before the loop writes the fragment.
  std::optional<std::string> element_of(SymbolId s, ByteRange at, const FragShape& y, const std::vector<IndexItem>& items);
  /// The C++ array an operand read of fragment `s` at another place reads:
  /// its own, or the copy of the old registers when the assignment writes
  /// `s` (noted in fetch->reads_target).
  std::string read_array(SymbolId s);
  /// The value index of accumulator fragment `y` (mma_acc, wgmma_acc) at
  /// row `row` and column `col` of a lane's block corner (C++ expressions:
  /// multiples of 8, the column plus its place in the pair).
  std::string acc_value_index(const FragShape& y, const std::string& row, const std::string& col) const;
  /// The lane of an accumulator layout (mma_acc, wgmma_acc and their .row
  /// vectors) that holds row `row`, column `col` of an 8 x 8 block (C++
  /// expressions).
  static std::string acc_lane(const std::string& row, const std::string& col);
  /// The statement (into fetch->statements, or fetch->once when `once`:
  /// slot and lane are the same for every register) that takes slot `slot`
  /// of fragment array `array` from lane `lane` as `name`, which it returns.
  std::string shuffle(const FragShape& y, const std::string& array, const std::string& slot, const std::string& lane,
                      const std::string& name, bool once = false);
  /// Whether `e` computes integers (not pred): element() then computes it
  /// as integer_element() does and converts the result.
  bool integer_valued(ExprId e);
  /// The dtype of value `e` as the verifier types it; Unknown for a literal
  /// (it takes the dtype of what it meets).
  DType value_dtype(ExprId e);
  /// Which register of operand `s` element-wise expressions read at
  /// register `i` of a result of shape `result` (as stored: 16-bit floats
  /// as their bits), or nullopt (refused at `at`).
  std::optional<std::string> operand_slot(SymbolId s, ByteRange at, const FragShape& result, const std::string& i);
  /// Register slot `slot` of symbol `s` as an f32 (or integer) value:
  /// 16-bit floats widened.
  std::string value(SymbolId s, const std::string& slot) const;
  /// Value `i` of fragment `s` as stored (16-bit floats as their bits).
  std::string slot_read(const FragShape& f, SymbolId s, const std::string& i) const;
  /// The same of the C++ array `array` that holds a fragment of shape `f`.
  std::string slot_read(const FragShape& f, const std::string& array, const std::string& i) const;
  /// The C++ type of slot_read()'s value.
  std::string slot_type(const FragShape& f) const;
  /// A statement that stores `stored` (as store_value() gives it) as value
  /// `i` of fragment `s`.
  std::string slot_write(const FragShape& f, SymbolId s, const std::string& i, const std::string& stored) const;
  /// The statement that sets `reg`, a register of packed fragment `f`,
  /// whole from its values' expressions `v` (low bits first): f32 ones
  /// rounded and packed by cvt, or integer ones (8-bit integers) each
  /// masked to its byte.
  std::string pack_register(const FragShape& f, const std::string& reg, const std::vector<std::string>& v) const;
  /// The f32 value of an element of `dtype` whose stored bits are `bits`
  /// (16- and 8-bit floats decoded; others as they are).
  std::string to_f32(DType dtype, const std::string& bits) const;
  /// `*ptr += value` as one red.global.add of the dtype's PTX type
  /// (red_add_type(); the verifier refuses the others).
  std::string red_add(DType dtype, const std::string& ptr, const std::string& value) const;
  /// The value `v` as fragment `f` stores it: an f32 (f64) value as the
  /// float dtype's bits (16- and 8-bit floats rounded), an integer converted
  /// to the fragment's C type. The one home of that choice for every write
  /// of a computed value (assignments, reductions).
  std::string store_value(const FragShape& f, const std::string& v) const;
  /// The C++ name of a symbol (a CAKE name that is a C++ keyword or one of
  /// the lowering's own is renamed).
  std::string name(SymbolId s) const;
  /// The C++ name of a pipeline stage's phase (`s.phase`).
  std::string phase_name(SymbolId stage) const;
  std::string ctype(DType dtype) const;
  /// The C type of a dtype in memory (parameters, shared memory,
  /// addresses): ctype(), or the bits of an 8-bit float, which only copies
  /// and MMAs read (element-wise code refuses it: ctype() is empty).
  std::string memory_type(DType dtype) const;
  /// The C type of a tensor parameter's or shared-memory buffer's
  /// elements: memory_type(), or bytes for the 6- and 4-bit floats, which
  /// a tensor holds packed and shared memory sixteen to 16 bytes (only TMA
  /// and tcgen05.mma move and read them).
  std::string buffer_type(DType dtype) const;
  /// The C++ element type of a fragment's array.
  std::string storage(const FragShape& f) const;
  /// A power of two that provably divides integer expression `e` (1 when
  /// nothing is known): from constants, the kernel's `where` facts on
  /// shape symbols, loop starts and steps, + - and *. What a vector width
  /// or a 16-byte copy needs proven.
  int64_t multiple_of(ExprId e);

  /// The linear element index into tensor or smem `base` of the element
  /// (row, col) of the tile that the index expression `e` selects; refused
  /// forms give nullopt.
  std::optional<std::string> address(ExprId e, const std::string& row, const std::string& col, int tile_rank);
  /// The same for a tile of any rank: `coords` (outermost first) for each
  /// of its dims.
  std::optional<std::string> address(ExprId e, const std::vector<std::string>& coords);
  /// The dims of the tile `e` selects (indices into tile_dims(e)) in its
  /// buffer's memory order, outermost first, when its last is the buffer's
  /// contiguous dim (the tile is made of runs along it); else nullopt.
  std::optional<std::vector<size_t>> tile_runs(ExprId e);
  /// A copy's tile `tile` as rows along the contiguous dim both its ends
  /// share (tile_runs() of each): the runs, the rows and the elements of a
  /// row; nullopt (refused, naming `op`) when the ends do not share one.
  struct CopyRows {
    std::vector<size_t> runs;
    int64_t rows = 1, row = 0;
  };
  std::optional<CopyRows> copy_rows(const Stmt& s, const MoveStmt& mv, const std::vector<int64_t>& tile, const std::string& op);
  /// A tensor's dims as TMA lists them (dims, box and coordinates),
  /// innermost first: the reverse of its memory order.
  static std::vector<size_t> tma_dims(const ValueType& tensor) {
    std::vector<size_t> out = memory_order(tensor);
    std::reverse(out.begin(), out.end());
    return out;
  }
  /// Coordinates (per tile dim) of row `row` (a C++ expression) of a tile
  /// of dims `tile` whose dims in memory order are `runs` (tile_runs()):
  /// its rows are those of the dims before the last, outermost first; the
  /// last dim's coordinate is `column`.
  static std::vector<std::string> row_coordinates(const std::vector<int64_t>& tile, const std::vector<size_t>& runs,
                                                  const std::string& row,
                                                  const std::string& column);
  /// address() of the place `p` as a pointer at the thread's corner and an
  /// offset from it, for an operand in plain memory (a tensor, or
  /// shared memory neither swizzled nor placed apart by stage); nullopt for
  /// the others, which address() serves.
  std::optional<CornerAddress> corner_address(ExprId e, const SplitPlace& p, int tile_rank);
  std::optional<OperandLayout> operand_layout(ExprId e, const std::string& row, const std::string& col, int tile_rank);
  std::optional<OperandLayout> operand_layout(ExprId e, const std::vector<std::string>& coords);
  /// The dims of the tile memory operand `e` selects (slices' extents and
  /// whole dims, folded), or nullopt (refused, when `refusing`).
  std::optional<std::vector<int64_t>> tile_dims(ExprId e, bool refusing = true);
  /// A power of two (elements) that divides the element offset of every
  /// tile element of `e` whose column is a multiple of it: what its slice
  /// starts and row pitches allow. The innermost dim's extent is not
  /// counted: the caller steps columns in pieces.
  int64_t alignment(ExprId e);

  /// The threads that run the current statement together (the role's, or
  /// the block's outside roles), and this thread's rank among them.
  int64_t group_threads = 0;
  std::string group_rank = "(int)threadIdx.x";
  /// The current role's first warp and kind, and whether the code is
  /// inside `elect`.
  int64_t role_first_warp = 0;
  RoleSpec::Kind role_kind = RoleSpec::Kind::All;
  bool elected = false;
  /// The lanes of the warp that run the code being written, as a C
  /// expression of a member mask: every lane (kAllLanes), a ballot's
  /// variable inside an `if` or a loop whose condition or bounds read
  /// `lane`, or empty where the lanes need not meet (such a block whose
  /// accesses need no order across lanes).
  static constexpr std::string_view kAllLanes = "0xffffffffu";
  std::string lane_mask{kAllLanes};
  /// True for an `if` or a loop whose condition or bounds read `lane`
  /// (directly or through a `let`): some lanes may skip its body.
  bool lane_split(const Stmt& s) const;
  /// Whether the lanes that run `body` (of a block some lanes skip) must
  /// meet inside it to keep its memory accesses in program order across
  /// them: it has a thread's own write and another access, or (`loop`)
  /// runs more than once.
  bool lanes_meet_inside(const std::vector<StmtId>& body, bool loop) const;
  /// Whether the lanes of the warp meet (`__syncwarp`) before and after
  /// statement `id`, so that the warp's memory accesses keep program order
  /// across its lanes, where no plan decides (inside code some lanes skip;
  /// around such code that holds a thread's write) (sync.cpp).
  bool warp_ordered(StmtId id) const;
  /// `__syncwarp` of the lanes that run the code (lane_mask).
  void warp_meet(ByteRange at);
  /// In code every lane of the warp runs, the statements before which the
  /// lanes meet: where one touches a buffer that an access since the last
  /// meet or barrier touched, and one of the two writes (meets.cpp).
  void plan_warp_meets();
  std::set<StmtId> meet_before;
  /// False where the plan gave up (a nest of loops too deep to walk): the
  /// lanes then meet around each statement warp_ordered() names.
  bool meets_planned = false;

  // Section - statements (statements.cpp)

  void statements(const std::vector<StmtId>& body);
  void statement(StmtId id);

  // Section - Ampere's tensor-core data path (mma_sync.cpp)

  void cp_async(const Stmt& s, const MoveStmt& mv);
  void ldmatrix(const Stmt& s, const MoveStmt& mv);
  void stmatrix(const Stmt& s, const MoveStmt& mv);
  void mma_sync(const Stmt& s, const MmaStmt& n);
  /// What an ldmatrix/stmatrix (`op`) of packed fragment `reg` and tile
  /// `smem` moves per warp: an mma_acc fragment's registers, or a
  /// wgmma_acc [64, N]'s as the mma_acc [16, N] of the warp's rows, placed
  /// `row_offset` (C++, ending in " + ") down the tile; nullopt (refused)
  /// for another fragment, a tile not its shape, or a `trans` the
  /// fragment's order cannot take.
  struct MatrixView {
    FragShape warp;
    SymbolId symbol = kNone;
    std::string row_offset;
    /// Row `r` of the warp's view as a row of the tile.
    std::string tile_row(const std::string& r) const { return row_offset.empty() ? r : "(" + row_offset + r + ")"; }
  };
  std::optional<MatrixView> matrix_view(const Stmt& s, const MoveStmt& mv, ExprId reg, ExprId smem, const std::string& op);
  /// stmatrix of an 8-bit fragment (matrix_view()'s): its registers in
  /// ldmatrix's operand order, gathered unless already so.
  void stmatrix_8bit(const Stmt& s, const MoveStmt& mv, const MatrixView& view);
  /// ldmatrix of an 8-bit or tf32 tile into an operand-order fragment.
  void ldmatrix_operand_order(const Stmt& s, const MoveStmt& mv, const FragShape& f, const std::vector<int64_t>& tile);
  /// The ldmatrix/stmatrix call `with(count, first)` gives (count "4", "2"
  /// or "1"; its registers from the C++ expression `first`) for each four
  /// registers of `f`, then for a pair as .x2 and a last one as .x1;
  /// nothing once a call is nullopt (refused).
  void matrix_quads(const Stmt& s, const FragShape& f,
                    const std::function<std::optional<std::string>(const std::string&, const std::string&)>& with);
  /// mma.sync whose operands take 32 bits of a row per register and
  /// k-step: m16n8k32 over 8-bit float fragments into f32 or 8-bit integer
  /// ones into s32, m16n8k8 over tf32 ones into f32 (acc, a, b: shapes and
  /// symbols), their operands gathered per k-step (CAKE_F8_OPERAND, which
  /// moves bytes, or CAKE_TF32_OPERAND) unless ldmatrix left them in
  /// operand order.
  void mma_sync_gathered(const Stmt& s, const MmaStmt& n, const std::array<FragShape, 3>& f,
                         const std::array<SymbolId, 3>& sym);
  /// The prelude macro that gathers one k-step's four operand registers
  /// from an accumulator-layout fragment whose operand takes 32 bits of a
  /// row per register: CAKE_F8_OPERAND (8-bit values), CAKE_TF32_OPERAND
  /// (tf32); "" where the accumulator layout is the operand layout (16-bit).
  static std::string operand_gather(DType dtype);
  /// Zeroes mma accumulator `acc` (named `c`) where the statement starts
  /// from zero: `=`, or `+=` whose `accumulate(P)` fails.
  void zero_accumulator(const Stmt& s, const MmaStmt& n, const FragShape& acc, const std::string& c);
  /// The kernel's register-order facts (cake/fragment_order.h).
  const FragmentOrder order;
  /// A fragment `ldmatrix ... trans` fills (FragmentOrder::transposed):
  /// its registers hold a [K, N] tile in the order an [N, K] mma_acc
  /// fragment of its transpose would (the mma.sync B operand of `a @ b`).
  /// The verifier (E0509) leaves no other use of one to lower.
  bool transposed(SymbolId s) const { return order.transposed.count(s) > 0; }
  /// An 8-bit or tf32 fragment a plain ldmatrix fills: its registers are
  /// ldmatrix's, per 16-row tile i and 32-byte k-step k (k32 of 8-bit, k8
  /// of tf32) the four registers 4 (i steps + k) .. of the m16n8k32 or
  /// m16n8k8 operand (CAKE_F8_OPERAND's and CAKE_TF32_OPERAND's order), which
  /// mma (and, 8-bit, stmatrix) reads as they are; nothing else reads it
  /// (cake/fragment_order.h).
  bool operand_order(SymbolId s) const { return order.operand_order.count(s) > 0; }

  // Section - Hopper's warpgroup MMA (wgmma.cpp)

  void wgmma(const Stmt& s, const MmaStmt& n);
  /// The instruction macro of m64`n`k16 for 16-bit `dtype` (A from four
  /// registers when `a_in_registers`, else a descriptor; A or B MN-major
  /// where `trans_a` or `trans_b`), its definition added to definitions_
  /// once per translation unit.
  std::string wgmma_macro(int64_t n, DType dtype, bool a_in_registers, bool trans_a, bool trans_b);

  /// A swizzled shared-memory operand of wgmma, tcgen05.mma or tcgen05.cp
  /// whose tile rows are one swizzle span: K-major (an [MN, K] tile) or,
  /// where `mn_major` is asked for, MN-major (a [K, MN] tile, which the
  /// MMA reads transposed). Its rows (M or N) and K, a pointer to its first
  /// element, its swizzle and dtype, and how far one instruction's k-step
  /// moves the descriptor's start: 32 bytes along a K-major row, or the 32
  /// bytes' worth of K rows of an MN-major tile. Refused (naming `op`)
  /// otherwise.
  struct MmaSmemOperand {
    int64_t rows = 0, k = 0;
    std::string base;
    Swizzle swizzle = Swizzle::None;
    DType dtype = DType::Unknown;
    bool mn_major = false;
    int64_t step_bytes = 32;
  };
  /// The columns (first, count) that `e`, an index of register fragment
  /// `f`, takes: `x[:, c : w]` (every row, constant c and w, or `x[:, :]`)
  /// in whole k-steps of `step` columns; nullopt (refused) otherwise.
  std::optional<std::pair<int64_t, int64_t>> register_columns(ExprId e, const FragShape& f, int64_t step);
  /// Which operand `mma_smem_operand()` reads: an MMA's A (an [M, K] tile,
  /// or a [K, M] one used as `.T`: MN-major), its B (an [N, K] tile used
  /// as `.T`, or a [K, N] one: MN-major), or a copy's source (as written,
  /// K-major).
  enum class MmaSide { A, B, Copy };
  std::optional<MmaSmemOperand> mma_smem_operand(ExprId written, Op op, MmaSide side);
  /// Whether the tile `e` selects of smem `buffer` is the buffer's whole
  /// rows from a multiple of 8 rows in: what an MMA or tcgen05.cp
  /// descriptor (8-row groups from a swizzle pattern's start) can name.
  bool whole_row_groups(ExprId e, const Symbol& buffer);

  // Section - Blackwell's tensor memory and MMA (tcgen05.cpp)

  /// Whether the kernel declares tensor memory.
  bool uses_tmem() const;
  /// Warp 0 allocates every `tmem` buffer; every thread reads the addresses.
  void tmem_prologue();
  /// After every thread's last tcgen05 op, warp 0 frees the allocations.
  void tmem_epilogue();
  void tcgen05_mma(const Stmt& s, const MmaStmt& n);
  void tcgen05_commit(const Stmt& s, const CommitStmt& c);
  /// `tcgen05.ld r <- t[...]` and `tcgen05.st t[...] <- r`.
  void tcgen05_move(const Stmt& s, const MoveStmt& mv, bool load);
  /// `tcgen05.cp T <- S`: 128x256b copies, 8 columns each.
  void tcgen05_cp(const Stmt& s, const MoveStmt& mv);
  /// The load or store macro of data-movement shape `shape` (32x32b,
  /// 16x256b, 16x128b), .x`n`, of `regs` registers, defined once per unit.
  std::string tcgen05_move_macro(std::string_view shape, int64_t n, int64_t regs, bool load, bool f32);
  /// `tcgen05.ld/st` of an `mma_acc` fragment: 16 lanes at a time.
  void tcgen05_move_16(const Stmt& s, const MoveStmt& mv, bool load);
  /// The 32-bit tensor-memory address (lane << 16 | column) of the first
  /// cell of the tmem tile operand `e` selects.
  std::optional<std::string> tmem_address(ExprId e);

  // Section - TMA and bulk copies (tma.cpp)

  void tma_load(const Stmt& s, const MoveStmt& mv);
  void tma_store(const Stmt& s, const MoveStmt& mv);
  void bulk_load(const Stmt& s, const MoveStmt& mv);
  /// The rank-`rank` TMA macro (load, multicast load or store), defined
  /// once per unit.
  std::string tma_macro(int64_t rank, bool load, bool multicast = false, bool pair = false);

  /// Adds `text` to definitions_ the first time `name` is asked for.
  bool define_once(const std::string& name);
  /// The instruction macros the kernel uses (their operand lists depend
  /// on a shape or rank), placed after the prelude.
  std::string definitions_;

  // Section - synchronisation (sync.cpp)

  /// One thread initialises every mbarrier, then a fence and a barrier.
  void mbarrier_prologue();
  /// A generic pointer to the mbarrier an operand names (`full[s]`).
  std::optional<std::string> barrier_address(ExprId e);
  void arrive(const Stmt& s, const ArriveStmt& a);
  void wait(const Stmt& s, const WaitStmt& w);
  void named_sync(const Stmt& s, const SyncStmt& n);
  /// "ID, THREADS" of named barrier `b` for bar.sync / bar.arrive; refuses
  /// (nullopt) when either is not a constant.
  std::optional<std::string> named_barrier_args(SymbolId b);
  void elect(const Stmt& s, const ElectStmt& e);
  void fence_proxy_async(const Stmt& s);
  /// Whether the kernel runs in clusters of more than one CTA.
  bool clustered() const;
  /// `cluster.sync`: every thread of every CTA of the cluster.
  void cluster_sync(ByteRange at);
  /// A thread synchronisation of the kernel's statements (`syncthreads`,
  /// `sync`, `cluster.sync`, an arrive; `waits`: it blocks until others
  /// arrive): in a kernel with tensor memory, between tcgen05 fences.
  void thread_sync(ByteRange at, bool waits, const std::function<void()>& sync);
  /// `maxnreg(R)`: setmaxnreg from the launch's registers per thread.
  void set_max_registers(StmtId id, const RoleStmt& r);

 private:
  ByteRange current_{};
  std::map<SymbolId, int64_t> symbol_multiple_;
  std::map<ExprId, DType> value_dtype_;  // value_dtype(), by expression
  std::set<std::string> defined_;
};

std::string cxx_int(int64_t v);
/// A dtype's name after "a" or "an", as it is read aloud: "an f64", "an
/// i8", "a bf16", "a u16".
std::string dtype_with_article(DType dtype);

/// E0801 for the first error of a file, which nothing of it lowers past.
std::optional<Diagnostic> file_error(const Analysis& analysis);

}  // namespace cake::codegen
