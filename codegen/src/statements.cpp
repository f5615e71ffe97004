// Statements: one C++ block per `.cake` statement, its text as a comment
// above it and every line under the statement's `#line`. One switch per op
// family, a case per op and no `default:` (an op added to ops.def fails the
// build here until it is lowered or refused). See docs/lowering.md.
#include "emitter.h"

#include "cake/roles.h"

#include <functional>
#include <variant>

namespace cake::codegen {
namespace {

struct Lowerer {
  Emitter& x;
  StmtId id;
  const Stmt& s;

  void line(const std::string& text) { x.line(text, s.range); }

  /// A loop whose trip count is not a constant stays a loop (`#pragma
  /// unroll 1`): its body, barriers and waits included, is in the code once,
  /// as the IR says, and compiles faster. Constant loops are left to the
  /// compiler.
  void keep_rolled(ExprId end) {
    if (!x.eval.fold(end)) line("#pragma unroll 1");
  }

  /// `#pragma unroll` loop over the values a fragment holds per thread,
  /// `body` using `cake_i`, after the statements `before` (a line each).
  void each_register(const FragShape& f, const std::string& body, const std::vector<std::string>& before = {}) {
    int64_t n = f.values();
    if (n == 1) return loop("{ const int cake_i = 0;", before, body, " }");
    line("#pragma unroll");
    loop("for (int cake_i = 0; cake_i < " + std::to_string(n) + "; ++cake_i)", before, body, "");
  }

  /// `head`, the statements `before`, `body` and `tail`: one line, or
  /// with `before`, a block of a line each.
  void loop(const std::string& head, const std::vector<std::string>& before, const std::string& body, const std::string& tail) {
    if (before.empty()) return line(head + " " + body + tail);
    line(head + (tail.empty() ? " {" : ""));
    for (const std::string& b : before) line("  " + b);
    line("  " + body);
    line("}");
  }

  /// A packed fragment written whole, a register at a time: its two (16-bit)
  /// or four (8-bit) values (`value` of an index expression gives that
  /// value's f32 expression) rounded and packed by cvt. Far fewer statements
  /// than a value-by-value read-modify-write of each part, which NVRTC and
  /// ptxas take much longer over (docs/lowering.md).
  void each_register_packed(const FragShape& f, SymbolId s, const std::function<std::string(const std::string&)>& value) {
    int64_t n = f.per_register();
    std::vector<std::string> values;
    Emitter::Fetch fetch{s};
    fetching(fetch, [&] {
      for (int64_t k = 0; k < n; ++k)
        values.push_back(value("(" + std::to_string(n) + " * cake_j" + (k ? " + " + std::to_string(k) : "") + ")"));
    });
    register_loop(f, fetch, [&] {
      line("#pragma unroll");
      loop("for (int cake_j = 0; cake_j < " + std::to_string(f.slots()) + "; ++cake_j)", fetch.statements,
           x.pack_register(f, x.name(s) + "[cake_j]", values), "");
    });
  }

  /// Runs `lower` (which lowers an assignment's value) with x.fetch
  /// collecting what other lanes' values it reads.
  void fetching(Emitter::Fetch& fetch, const std::function<void()>& lower) {
    x.fetch = &fetch;
    lower();
    x.fetch = nullptr;
  }

  /// Emits the register loop (`emit`) of an assignment to fragment `f`
  /// (fetch.target), in a block after what it needs first: a copy of the
  /// fragment's old registers when the value reads them at other places
  /// (`x[0 : 8, :] = x[8 : 8, :]`), which the loop would otherwise
  /// overwrite before it reads them, and the fetches of elements every
  /// register reads alike (`x = x - x[15, 14]`: one shuffle, not one a
  /// register).
  void register_loop(const FragShape& f, const Emitter::Fetch& fetch, const std::function<void()>& emit) {
    if (!fetch.reads_target && fetch.once.empty()) return emit();
    line("{");
    ++x.indent;
    if (fetch.reads_target) {
      std::string name = x.name(fetch.target), slots = std::to_string(f.slots());
      line(x.storage(f) + " " + name + "_was[" + slots + "];");
      line("#pragma unroll");
      line("for (int cake_k = 0; cake_k < " + slots + "; ++cake_k) " + name + "_was[cake_k] = " + name + "[cake_k];");
    }
    for (const std::string& statement : fetch.once) line(statement);
    emit();
    --x.indent;
    line("}");
  }

  /// Fragment `f`'s value at `i` of `e` in f32, before storing rounds it
  /// (`cvt<bf16>(acc)` into a bf16 fragment rounds once, when stored).
  std::string f32_value(const FragShape& f, ExprId e, const std::string& i) {
    const Expr& v = x.m.exprs[e];
    if (v.kind == Expr::Kind::Cast && v.cast_type == f.dtype) e = v.lhs;
    return x.element(e, f, i, f.dtype);
  }

  /// The value at register `i` of `e` as computed for fragment `f`, before
  /// it is stored (Emitter::store_value(), or packed by pack_register()):
  /// f32 (f64) arithmetic for floats, integer arithmetic for integers.
  std::string computed_value(const FragShape& f, ExprId e, const std::string& i) {
    return is_float(f.dtype) ? f32_value(f, e, i) : x.integer_element(e, f, i);
  }

  /// The same of `target op value`: `=` the value, `a op= v` `a op v`.
  std::string computed(const FragShape& f, SymbolId target, const std::string& op, ExprId value, const std::string& i) {
    if (op == "=") return computed_value(f, value, i);
    std::string now = x.value(target, x.slot_read(f, target, i));
    std::string v = is_float(f.dtype) ? x.element(value, f, i, f.dtype) : x.integer_element(value, f, i);
    return "(" + now + " " + op.substr(0, 1) + " " + v + ")";
  }

  /// What `target op value` stores at register cake_i of fragment `f`.
  std::string stored_value(const FragShape& f, SymbolId target, const std::string& op, ExprId value) {
    return x.store_value(f, computed(f, target, op, value, "cake_i"));
  }

  void declaration(const DeclStmt& d) {
    const Symbol& sym = x.m.symbols[d.symbol];
    switch (sym.kind) {
      case SymbolKind::Reg: {
        auto f = x.fragment(d.symbol, sym.decl);
        if (!f) return;
        line(x.storage(*f) + " " + x.name(d.symbol) + "[" + std::to_string(f->slots()) + "];");
        if (sym.value == kNone) return;
        if (f->packed()) return each_register_packed(*f, d.symbol, [&](const std::string& i) { return computed_value(*f, sym.value, i); });
        Emitter::Fetch fetch{d.symbol};
        std::string value;
        fetching(fetch, [&] { value = stored_value(*f, d.symbol, "=", sym.value); });
        register_loop(*f, fetch, [&] { each_register(*f, x.slot_write(*f, d.symbol, "cake_i", value), fetch.statements); });
        return;
      }
      case SymbolKind::Dsmem: {
        // The viewed buffer's address in the peer CTA (mapa), typed as the
        // buffer's pointer: address() indexes it as it indexes the buffer.
        if (sym.tensor == kNone) return;
        // A peer's mbarrier (a CTA pair's copies complete on it): its bytes.
        bool barrier = x.m.symbols[sym.tensor].kind == SymbolKind::Mbarrier;
        std::string at = x.name(d.symbol) + "_at", type = barrier ? "unsigned char" : x.memory_type(sym.type.dtype);
        line("unsigned long long " + at + ";");
        line("CAKE_MAPA(" + at + ", " + x.name(sym.tensor) + ", " + x.index(sym.value) + ");");
        line(type + "* const " + x.name(d.symbol) + " = (" + type + "*)" + at + ";");
        return;
      }
      // Shared memory, barriers and tensor maps are placed in the prologue
      // (lower.cpp); nothing is left to do where they are declared.
      // Tensor memory is allocated there too (tcgen05.cpp).
      case SymbolKind::Smem: case SymbolKind::Mbarrier: case SymbolKind::NamedBarrier: case SymbolKind::Tensormap:
      case SymbolKind::Tmem:
        return;
      case SymbolKind::Const: case SymbolKind::ShapeSymbol: case SymbolKind::TensorParam: case SymbolKind::ScalarParam:
      case SymbolKind::Let: case SymbolKind::LoopVar: case SymbolKind::StageVar: case SymbolKind::Role:
      case SymbolKind::Kernel: case SymbolKind::Dispatch: case SymbolKind::DispatchParam: case SymbolKind::Builtin:
        return;
    }
  }

  /// `dims` without its dims of extent 1.
  static std::vector<int64_t> squeezed(const std::vector<int64_t>& dims) {
    std::vector<int64_t> out;
    for (int64_t d : dims)
      if (d != 1) out.push_back(d);
    return out;
  }

  /// `load r <- mem` and `store mem <- r` for a register fragment `r`.
  /// `load`, `store`, or (`add`) `store.add`: each value one red.global.add.
  void load_store(const MoveStmt& mv, bool load, bool add = false) {
    ExprId reg = load ? mv.dst : mv.src, mem = load ? mv.src : mv.dst;
    const Expr& r = x.m.exprs[reg];
    if (r.kind == Expr::Kind::Index) return load_store_part(reg, mem, load, add);
    if (r.kind != Expr::Kind::Name || r.symbol == kNone) return x.refuse(r.range, "a register operand that is not a name");
    auto f = x.fragment(r.symbol, r.range);
    if (!f) return;
    // A thread's fragment holds its values in row-major order whatever its
    // unit dims: `load g <- G[c * 64 : 64]` into a [1, 64] fragment, or
    // `load v <- X[i, j : 4]` (a row's run) into [1, 4], moves the tile's
    // values in order. Addressed as a fragment of the tile's shape.
    if (auto tile = x.tile_dims(mem, false); f->layout == FragLayout::None && tile && *tile != f->dims && squeezed(*tile) == squeezed(f->dims))
      f->dims = *tile;
    int rank = static_cast<int>(f->dims.size());
    if (is_sub_byte_float(x.m.symbols[root_symbol(x.m, mem)].type.dtype)) return load_packed(*f, r.symbol, mem, rank, load, add);
    // In plain memory the thread's corner is addressed once (cake_corner) and
    // each register from it by a constant (emitter.h, SplitPlace).
    SplitPlace split = x.split_place(*f, "cake_i");
    std::optional<CornerAddress> corner = f->dims.empty() ? std::nullopt : x.corner_address(mem, split, rank);
    ElementPlace at = x.place(*f, "cake_i");
    auto addr = corner ? std::optional<std::string>("cake_corner[" + corner->offset + "]") : x.address(mem, at.row, at.col, rank);
    if (!addr) return;
    if (!add && load_store_pairs(*f, r.symbol, mem, corner, rank, load)) return;
    if (!add && load_store_words(*f, r.symbol, mem, corner, load)) return;
    std::string body = load  ? x.slot_write(*f, r.symbol, "cake_i", *addr)
                       : add ? x.red_add(f->dtype, "&" + *addr, x.slot_read(*f, r.symbol, "cake_i"))
                             : *addr + " = " + x.slot_read(*f, r.symbol, "cake_i") + ";";
    if (f->dims.empty()) {
      // One value: i is 0.
      line("{ const int cake_i = 0; " + body + " }");
      return;
    }
    bool one_lane = !load && (f->layout == FragLayout::MmaAccRow || f->layout == FragLayout::WgmmaAccRow);
    if (one_lane) {
      // Each row is held by the 4 lanes of a quad alike: one writes it.
      line("if (cake_lane % 4 == 0) {");
      ++x.indent;
    }
    if (corner) {
      line("{");
      ++x.indent;
      line("auto* const cake_corner = " + corner->pointer + ";");
    }
    each_register(*f, body);
    if (corner) {
      --x.indent;
      line("}");
    }
    if (one_lane) {
      --x.indent;
      line("}");
    }
  }

  /// `store mem <- r[items]`, `load r[items] <- mem`: part of a fragment
  /// (of the owner's tile, as the whole is). Each register whose place lies
  /// in the items moves, at the tile coordinate it has there: its place less
  /// a slice's start, a scalar item's dim dropped. A `.row` vector's values,
  /// which the four lanes of a quad hold alike, are stored by one of them.
  void load_store_part(ExprId reg, ExprId mem, bool load, bool add) {
    const Expr& r = x.m.exprs[reg];
    Operand op = operand_of(x.m, reg);
    if (op.base == kNone || x.m.symbols[op.base].kind != SymbolKind::Reg)
      return x.refuse(r.range, "a register operand that is not a fragment or part of one");
    auto f = x.fragment(op.base, r.range);
    if (!f) return;
    whole_past(op, f->dims.size());
    if (is_sub_byte_float(x.m.symbols[root_symbol(x.m, mem)].type.dtype))
      return x.refuse(r.range, "part of a fragment of 6- or 4-bit floats");
    std::vector<std::string> tile;
    auto when = x.part_guard(*f, op, "cake_i", tile);
    if (!when) return x.refuse(r.range, "this part of a fragment");
    auto addr = x.address(mem, tile);
    if (!addr) return;
    std::string body = load  ? x.slot_write(*f, op.base, "cake_i", *addr)
                       : add ? x.red_add(f->dtype, "&" + *addr, x.slot_read(*f, op.base, "cake_i"))
                             : *addr + " = " + x.slot_read(*f, op.base, "cake_i") + ";";
    if (!load && (f->layout == FragLayout::MmaAccRow || f->layout == FragLayout::WgmmaAccRow))
      *when = "cake_lane % 4 == 0" + std::string(when->empty() ? "" : " && " + *when);
    each_register(*f, when->empty() ? "{ " + body + " }" : "if (" + *when + ") { " + body + " }");
  }

  /// A per-thread fragment of 6- or 4-bit floats and a tensor, which holds
  /// them packed (value i at bits i x width). Loaded: each value's code
  /// extracted from its byte or two (CAKE_PACKED_LD). Stored: only a run of
  /// whole bytes that the thread owns (a 1-D fragment along the tensor's
  /// contiguous dim, its start and length whole bytes of bits: an even
  /// number of 4-bit values from an even element, 6-bit ones by fours),
  /// packed and written a byte at a time (CAKE_PACKED_ST_RUN); elsewhere two
  /// threads' values may share a byte. Shared memory holds them in 16-byte
  /// chunks that only TMA writes and tcgen05.mma reads.
  void load_packed(const FragShape& f, SymbolId reg, ExprId mem, int rank, bool load, bool add) {
    const Expr& e = x.m.exprs[mem];
    SymbolId base = root_symbol(x.m, mem);
    int64_t bits = dtype_bits(x.m.symbols[base].type.dtype);
    if (add) return x.refuse(e.range, "a store.add of 6- or 4-bit floats");
    if (x.m.symbols[base].kind != SymbolKind::TensorParam)
      return x.refuse(e.range, std::string(load ? "a load" : "a store") +
                                   " of 6- or 4-bit floats other than with a tensor (shared memory holds them as tcgen05.mma reads them)");
    ElementPlace at = x.place(f, "cake_i");
    auto l = x.operand_layout(mem, at.row, at.col, rank);
    if (!l) return;
    if (!l->plain) return x.refuse(e.range, std::string(load ? "this load" : "this store") + " of 6- or 4-bit floats");
    if (!load) {
      int64_t count = f.dims.size() == 1 ? f.dims[0] : 0;
      bool run = count > 0 && l->tile_dims.size() == 1 && !l->order.empty() && l->tile_dims.back() == l->order.back();
      if (!run || (count * bits) % 8 != 0 || (x.alignment(mem) * bits) % 8 != 0)
        return x.refuse(e.range, "a store of 6- or 4-bit floats other than a run of whole bytes along the tensor's rows "
                                 "(a thread's 1-D fragment of an even number of 4-bit values, or 6-bit ones by fours, "
                                 "from an element proven to start a byte): neighbouring values share a byte");
      ElementPlace zero = x.place(f, "0");
      auto first = x.operand_layout(mem, zero.row, zero.col, rank);
      if (!first) return;
      return line("CAKE_PACKED_ST_RUN(" + x.name(l->base) + ", " + first->linear(0, first->dims.size()) + ", " +
                  x.name(reg) + ", " + std::to_string(count) + ", " + std::to_string(bits) + ");");
    }
    std::string code = "CAKE_PACKED_LD(" + x.name(l->base) + ", " + l->linear(0, l->dims.size()) + ", " +
                       std::to_string(bits) + ")";
    std::string body = x.slot_write(f, reg, "cake_i", code);
    if (f.dims.empty()) return line("{ const int cake_i = 0; " + body + " }");
    each_register(f, body);
  }

  /// Values 2k and 2k + 1 of an accumulator layout are neighbours in a row
  /// (mma_acc, wgmma_acc: columns 2t, 2t + 1; tcgen05_acc: columns 2k,
  /// 2k + 1). Where the tile starts at an even element of a row of even
  /// pitch (alignment()), each pair is one access: a packed 16-bit register
  /// as 32 bits, two f32 values as a float2, and a packed 8-bit register
  /// (values 4j .. 4j + 3: two pairs, its low and high halves) as two
  /// 16-bit accesses (half the memory instructions, and quicker to
  /// compile). In plain memory from the thread's corner (`corner`); in
  /// swizzled or staged shared memory at each pair's own address, which
  /// holds the pair together because a swizzle moves whole 16-byte chunks
  /// and a pair is at most 8 bytes at a multiple of its size. False: not
  /// such a case.
  bool load_store_pairs(const FragShape& f, SymbolId reg, ExprId mem, const std::optional<CornerAddress>& corner,
                        int rank, bool load) {
    bool adjacent = f.layout == FragLayout::MmaAcc || f.layout == FragLayout::WgmmaAcc || f.layout == FragLayout::Tcgen05Acc;
    const Symbol& buffer = x.m.symbols[root_symbol(x.m, mem)];
    bool bytes = f.packed() && f.per_register() == 4;
    if (!adjacent || rank != 2 || buffer.type.dtype != f.dtype ||
        (f.packed() ? f.per_register() != 2 && !bytes : x.ctype(f.dtype) != "float") ||
        f.values() % (bytes ? 4 : 2) != 0 || x.alignment(mem) % 2 != 0)
      return false;
    if (!column_innermost(mem, f, rank, corner)) return false;
    auto pair_at = [&](const std::string& i) { return value_pointer(mem, f, i, rank, corner); };
    std::string body, r = x.name(reg);
    if (bytes) {
      auto lo = pair_at("(4 * cake_j)"), hi = pair_at("(4 * cake_j + 2)");
      if (!lo || !hi) return false;
      body = load ? r + "[cake_j] = (unsigned)CAKE_LD_B16(" + *lo + ") | ((unsigned)CAKE_LD_B16(" + *hi + ") << 16);"
                  : "{ CAKE_ST_B16(" + *lo + ", " + r + "[cake_j] & 0xffffu); CAKE_ST_B16(" + *hi + ", " + r +
                        "[cake_j] >> 16); }";
    } else {
      auto at = pair_at("(2 * cake_j)");
      if (!at) return false;
      body = f.packed() ? (load ? r + "[cake_j] = CAKE_LD_B32(" + *at + ");" : "CAKE_ST_B32(" + *at + ", " + r + "[cake_j]);")
                        : std::string(load ? "CAKE_LD_PAIR_F32(" : "CAKE_ST_PAIR_F32(") + *at + ", " + r + "[2 * cake_j], " +
                              r + "[2 * cake_j + 1]);";
    }
    line("{");
    ++x.indent;
    if (corner) line("auto* const cake_corner = " + corner->pointer + ";");
    line("#pragma unroll");
    line("for (int cake_j = 0; cake_j < " + std::to_string(f.values() / (bytes ? 4 : 2)) + "; ++cake_j) " + body);
    --x.indent;
    line("}");
    return true;
  }

  /// Whether the tile `mem` has its columns (its last dim) along its
  /// buffer's contiguous dim, so that a row's neighbours are neighbours in
  /// memory: the corner's answer in plain memory, else the operand's layout.
  bool column_innermost(ExprId mem, const FragShape& f, int rank, const std::optional<CornerAddress>& corner) {
    if (corner) return corner->column_innermost;
    ElementPlace p = x.place(f, "0");
    auto l = x.operand_layout(mem, p.row, p.col, rank);
    return l && !l->tile_dims.empty() && l->tile_dims.back() == l->order.back();
  }

  /// A pointer to value `i` (a C++ expression) of fragment `f` in `mem`:
  /// from the thread's corner in plain memory, else at its own (swizzled,
  /// staged) address. For the pair and word accesses, which take several
  /// neighbouring values at once.
  std::optional<std::string> value_pointer(ExprId mem, const FragShape& f, const std::string& i, int rank,
                                           const std::optional<CornerAddress>& corner) {
    if (corner) {
      auto at = x.corner_address(mem, x.split_place(f, i), rank);
      return at ? std::optional<std::string>("&cake_corner[" + at->offset + "]") : std::nullopt;
    }
    ElementPlace p = x.place(f, i);
    auto at = x.address(mem, p.row, p.col, rank);
    return at ? std::optional<std::string>("&" + *at) : std::nullopt;
  }

  /// A per-thread fragment of 8- or 16-bit values holds each row of its
  /// tile in order. Where the tile's rows run along the buffer's last dim,
  /// each row's bytes are a multiple of W (16, 8 or 4) and its start is
  /// W-aligned (alignment(); tensor bases are 16-byte aligned), each W
  /// bytes are one access of 32-bit words (CAKE_LD_B128 ...), unpacked or
  /// packed by shifts: a 16-byte run of i8 is one ld.v4.b32, not 16 byte
  /// loads. False: not such a case.
  bool load_store_words(const FragShape& f, SymbolId reg, ExprId mem, const std::optional<CornerAddress>& corner,
                        bool load) {
    const Symbol& buffer = x.m.symbols[root_symbol(x.m, mem)];
    int64_t bytes = dtype_bits(f.dtype) / 8;
    int rank = static_cast<int>(f.dims.size());
    if (f.layout != FragLayout::None || f.dims.empty() || buffer.type.dtype != f.dtype ||
        (dtype_bits(f.dtype) != 8 && dtype_bits(f.dtype) != 16))
      return false;
    if (!column_innermost(mem, f, rank, corner)) return false;
    int64_t row = f.dims.back() * bytes, start = x.alignment(mem) * bytes, width = 0;
    for (int64_t w : {16, 8, 4})
      if (row % w == 0 && start % w == 0) {
        width = w;
        break;
      }
    if (width == 0) return false;
    int64_t per_access = width / bytes, per_word = 4 / bytes, words = width / 4;
    // In swizzled or staged shared memory each access at its own address:
    // at most 16 bytes at a multiple of its width, it stays inside one of
    // the 16-byte chunks a swizzle moves.
    auto at = value_pointer(mem, f, "(" + std::to_string(per_access) + " * cake_j)", rank, corner);
    if (!at) return false;
    std::string ptr = *at, r = x.name(reg), n = std::to_string(per_access);
    std::string value = r + "[" + n + " * cake_j + cake_e]", shift = std::to_string(8 * bytes) + " * (cake_e % " + std::to_string(per_word) + ")";
    std::string word = "cake_w[cake_e / " + std::to_string(per_word) + "]";
    std::string ld = words == 4 ? "CAKE_LD_B128(" + ptr + ", cake_w);" : words == 2 ? "CAKE_LD_B64(" + ptr + ", cake_w);" : "cake_w[0] = CAKE_LD_B32(" + ptr + ");";
    std::string st = words == 4 ? "CAKE_ST_B128(" + ptr + ", cake_w);" : words == 2 ? "CAKE_ST_B64(" + ptr + ", cake_w);" : "CAKE_ST_B32(" + ptr + ", cake_w[0]);";
    std::string unsigned_type = bytes == 1 ? "unsigned char" : "unsigned short";
    line("{");
    ++x.indent;
    if (corner) line("auto* const cake_corner = " + corner->pointer + ";");
    line("#pragma unroll");
    line("for (int cake_j = 0; cake_j < " + std::to_string(f.values() / per_access) + "; ++cake_j) {");
    ++x.indent;
    line(std::string("unsigned cake_w[") + std::to_string(words) + "]" + (load ? ";" : " = {};"));
    if (load) line(ld);
    line("#pragma unroll");
    if (load)
      line("for (int cake_e = 0; cake_e < " + n + "; ++cake_e) " + value + " = (" + x.storage(f) + ")(" + word + " >> (" + shift + "));");
    else
      line("for (int cake_e = 0; cake_e < " + n + "; ++cake_e) " + word + " |= (unsigned)(" + unsigned_type + ")" + value + " << (" + shift + ");");
    if (!load) line(st);
    --x.indent;
    line("}");
    --x.indent;
    line("}");
    return true;
  }

  bool kept_in_accumulator_order(const MoveStmt& mv) const {
    const Expr& r = x.m.exprs[mv.dst];
    if (mv.trans || r.kind != Expr::Kind::Name || r.symbol == kNone || x.m.symbols[r.symbol].kind != SymbolKind::Reg)
      return false;
    return ldmatrix_fills_operand_order(x.m.symbols[r.symbol].type.dtype) && !x.operand_order(r.symbol);
  }

  void move(const MoveStmt& mv) {
    switch (mv.op) {
      case Op::Load: return load_store(mv, true);
      case Op::Store: return load_store(mv, false);
      case Op::StoreAdd: return load_store(mv, false, true);
      case Op::CpAsync: return x.cp_async(s, mv);
      // An 8-bit or tf32 fragment that ldmatrix would leave in operand
      // order but that is read otherwise keeps the accumulator layout: it is
      // loaded as `load` loads it (cake/fragment_order.h).
      case Op::Ldmatrix: return kept_in_accumulator_order(mv) ? load_store(mv, true) : x.ldmatrix(s, mv);
      case Op::TmaLoad: return x.tma_load(s, mv);
      case Op::TmaStore: return x.tma_store(s, mv);
      case Op::BulkLoad: return x.bulk_load(s, mv);
      case Op::Tcgen05Ld: return x.tcgen05_move(s, mv, true);
      case Op::Tcgen05St: return x.tcgen05_move(s, mv, false);
      case Op::Stmatrix: return x.stmatrix(s, mv);
      case Op::Tcgen05Cp: return x.tcgen05_cp(s, mv);
      case Op::Mma: case Op::Wgmma: case Op::Tcgen05Mma: case Op::CpAsyncCommit: case Op::WgmmaFence:
      case Op::WgmmaCommit: case Op::TmaStoreCommit: case Op::Tcgen05WaitLd: case Op::Tcgen05WaitSt:
      case Op::Syncthreads: case Op::ClusterSync: case Op::FenceProxyAsync: case Op::CpAsyncWait:
      case Op::WgmmaWait: case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx:
      case Op::Tcgen05Commit: case Op::ArgminRow: case Op::ArgmaxRow:
        return x.refuse(s.keyword, "`" + std::string(op_spelling(mv.op)) + "`");
    }
  }

  void plain(const PlainStmt& p) {
    switch (p.op) {
      case Op::Syncthreads: return x.thread_sync(s.range, true, [&] { line("__syncthreads();"); });
      case Op::CpAsyncCommit: return line("CAKE_CP_ASYNC_COMMIT();");
      case Op::FenceProxyAsync: return x.fence_proxy_async(s);
      case Op::WgmmaFence: return line("CAKE_WGMMA_FENCE();");
      case Op::WgmmaCommit: return line("CAKE_WGMMA_COMMIT();");
      case Op::TmaStoreCommit: return line("CAKE_TMA_STORE_COMMIT();");
      case Op::Tcgen05WaitLd: return line("CAKE_TCGEN05_WAIT_LD();");
      case Op::Tcgen05WaitSt: return line("CAKE_TCGEN05_WAIT_ST();");
      case Op::ClusterSync: return x.thread_sync(s.range, true, [&] { x.cluster_sync(s.range); });
      case Op::Load: case Op::Store: case Op::StoreAdd: case Op::CpAsync: case Op::TmaLoad: case Op::TmaStore: case Op::BulkLoad:
      case Op::Ldmatrix: case Op::Stmatrix: case Op::Tcgen05Ld: case Op::Tcgen05St: case Op::Tcgen05Cp:
      case Op::Mma: case Op::Wgmma: case Op::Tcgen05Mma:
      case Op::CpAsyncWait: case Op::WgmmaWait:
      case Op::TmaStoreWait: case Op::TmaStoreWaitRead: case Op::Arrive: case Op::ArriveExpectTx: case Op::Tcgen05Commit:
      case Op::ArgminRow: case Op::ArgmaxRow:
        return x.refuse(s.keyword, "`" + std::string(op_spelling(p.op)) + "`");
    }
  }

  /// An accumulator and the `.row` vector of its rows (mma_acc and
  /// mma_acc.row, wgmma_acc and wgmma_acc.row).
  static bool row_pair(const FragShape& src, const FragShape& row) {
    bool mma = src.layout == FragLayout::MmaAcc && row.layout == FragLayout::MmaAccRow;
    bool wgmma = src.layout == FragLayout::WgmmaAcc && row.layout == FragLayout::WgmmaAccRow;
    return (mma || wgmma) && row.dims.size() == 1 && src.dims.size() == 2 && row.dims[0] == src.dims[0];
  }

  /// A per-thread [R, C] fragment and a per-thread vector of its rows:
  /// [R], or [R, 1] (which spreads back across the columns).
  static bool thread_rows(const FragShape& src, const FragShape& row) {
    bool vector = row.dims.size() == 1 || (row.dims.size() == 2 && row.dims[1] == 1);
    return src.layout == FragLayout::None && row.layout == FragLayout::None && src.dims.size() == 2 && vector &&
           row.dims[0] == src.dims[0];
  }

  /// How the reductions hold values of a dtype: in f32 the floats up to
  /// 32 bits (reading widens them), in double f64, integers in 32 or 64
  /// bits of their signedness, and integer sums unsigned, so that they wrap
  /// modulo 2^bits as the language's integers do (the CPU executor sums
  /// exactly, then wraps into the destination's dtype).
  struct Accumulator {
    enum class Kind { F32, F64, Integer } kind;
    std::string type, sum_type, zero, lowest, highest;

    /// `v` (read as f32, double or its own integer type) as `t`.
    std::string as(const std::string& t, const std::string& v) const {
      return kind == Kind::Integer ? "(" + t + ")" + v : v;
    }

    /// `cake_v = max(cake_v, cake_w)` (or min), NaN propagating as the
    /// executor's does.
    std::string fold_into(bool max) const {
      switch (kind) {
        case Kind::F32: return max ? "CAKE_MAX_INTO(cake_v, cake_w);" : "CAKE_MIN_INTO(cake_v, cake_w);";
        case Kind::F64:
          return std::string("cake_v = cake_v != cake_v || cake_w != cake_w ? cake_v + cake_w : cake_w ") +
                 (max ? ">" : "<") + " cake_v ? cake_w : cake_v;";
        case Kind::Integer: return std::string("if (cake_w ") + (max ? ">" : "<") + " cake_v) cake_v = cake_w;";
      }
      return "";
    }
  };
  static std::optional<Accumulator> accumulator(DType dtype) {
    using K = Accumulator::Kind;
    switch (dtype) {
      case DType::F32: case DType::TF32: case DType::F16: case DType::BF16: case DType::F8E4M3: case DType::F8E5M2:
      case DType::F6E3M2: case DType::F6E2M3: case DType::F4E2M1:
        return Accumulator{K::F32, "float", "float", "0.0f", "-CAKE_INF", "CAKE_INF"};
      case DType::F64: return Accumulator{K::F64, "double", "double", "0.0", "-(double)CAKE_INF", "(double)CAKE_INF"};
      case DType::I32: case DType::I16: case DType::I8:
        return Accumulator{K::Integer, "int", "unsigned", "0u", "(-2147483647 - 1)", "2147483647"};
      case DType::U32: case DType::U16: case DType::U8: case DType::B32:
        return Accumulator{K::Integer, "unsigned", "unsigned", "0u", "0u", "0xffffffffu"};
      case DType::I64:
        return Accumulator{K::Integer, "long long", "unsigned long long", "0ull", "(-9223372036854775807LL - 1)",
                           "9223372036854775807LL"};
      case DType::U64: return Accumulator{K::Integer, "unsigned long long", "unsigned long long", "0ull", "0ull", "~0ull"};
      case DType::Pred: case DType::Unknown: return std::nullopt;
    }
    return std::nullopt;
  }

  /// `reduce.row max|min|sum d <- src`. mma_acc into mma_acc.row: each
  /// thread over its values of a row, then across the quad of lanes that
  /// holds the row (shfl xor 1, 2). A per-thread [R, C] into [R]: each
  /// thread over its own rows (into [R] or [R, 1]).
  void reduce(const ReduceStmt& r) {
    const Expr &d = x.m.exprs[r.dst], &src = x.m.exprs[r.src];
    if (d.kind != Expr::Kind::Name || src.kind != Expr::Kind::Name || d.symbol == kNone || src.symbol == kNone)
      return x.refuse(s.range, "a reduction over operands that are not names");
    auto fd = x.fragment(d.symbol, d.range);
    auto fs = x.fragment(src.symbol, src.range);
    if (!fd || !fs) return;
    auto acc = accumulator(fd->dtype);
    if (!acc) return x.refuse(d.range, "a row reduction into " + dtype_with_article(fd->dtype) + " vector");
    std::string type = acc->type, init, combine;
    switch (r.kind) {
      case ReduceStmt::Kind::Max: init = acc->lowest, combine = acc->fold_into(true); break;
      case ReduceStmt::Kind::Min: init = acc->highest, combine = acc->fold_into(false); break;
      case ReduceStmt::Kind::Sum: type = acc->sum_type, init = acc->zero, combine = "cake_v = cake_v + cake_w;"; break;
    }
    std::string dn = x.name(d.symbol), sn = x.name(src.symbol);
    if (thread_rows(*fs, *fd)) {
      std::string columns = std::to_string(fs->dims[1]);
      line("#pragma unroll");
      line("for (int cake_j = 0; cake_j < " + std::to_string(fd->dims[0]) + "; ++cake_j) {");
      ++x.indent;
      line(type + " cake_v = " + init + ";");
      line("#pragma unroll");
      line("for (int cake_c = 0; cake_c < " + columns + "; ++cake_c) {");
      line("  const " + type + " cake_w = " + acc->as(type, x.value(src.symbol, sn + "[cake_j * " + columns + " + cake_c]")) + ";");
      line("  " + combine);
      line("}");
      line(dn + "[cake_j] = " + x.store_value(*fd, "cake_v") + ";");
      --x.indent;
      line("}");
      return;
    }
    if (!row_pair(*fs, *fd))
      return x.refuse(s.range, "a row reduction other than an accumulator into its .row vector, or per-thread [R, C] into [R] or [R, 1]");
    int64_t tiles_per_row = fs->dims[1] / 8;
    line("#pragma unroll");
    line("for (int cake_j = 0; cake_j < " + std::to_string(fd->values()) + "; ++cake_j) {");
    ++x.indent;
    line(type + " cake_v = " + init + ";");
    line("#pragma unroll");
    line("for (int cake_c = 0; cake_c < " + std::to_string(2 * tiles_per_row) + "; ++cake_c) {");
    line("  const " + type + " cake_w = " +
         acc->as(type, x.value(src.symbol, x.slot_read(*fs, src.symbol, x.acc_row_register(*fs, "cake_j", "cake_c")))) + ";");
    line("  " + combine);
    line("}");
    line("for (int cake_o = 1; cake_o < 4; cake_o *= 2) {");
    line("  const " + type + " cake_w = __shfl_xor_sync(0xffffffffu, cake_v, cake_o);");
    line("  " + combine);
    line("}");
    line(x.slot_write(*fd, d.symbol, "cake_j", x.store_value(*fd, "cake_v")));
    --x.indent;
    line("}");
  }

  /// `argmin.row|argmax.row v, i <- src [, base(e)]`: a strictly better
  /// value replaces (the smallest column wins a tie, an earlier call wins
  /// over a later equal one), as the CPU executor does. Per thread over its
  /// own rows, or for mma_acc over a thread's values of a row, then the
  /// quad's (value, column) pairs (shfl xor 1, 2), then against v. Per
  /// thread the vectors are [R] or [R, 1]. Values are compared in their
  /// reductions' accumulator type.
  void arg_reduce(const ArgReduceStmt& r) {
    const Expr &v = x.m.exprs[r.value], &ix = x.m.exprs[r.index], &src = x.m.exprs[r.src];
    for (const Expr* e : {&v, &ix, &src})
      if (e->kind != Expr::Kind::Name || e->symbol == kNone) return x.refuse(e->range, "an arg-reduction operand that is not a fragment");
    auto fv = x.fragment(v.symbol, v.range), fi = x.fragment(ix.symbol, ix.range), fs = x.fragment(src.symbol, src.range);
    if (!fv || !fi || !fs) return;
    auto acc = accumulator(fv->dtype);
    if (!acc || is_float(fi->dtype) || fi->packed() || fv->dims != fi->dims ||
        fv->layout != fi->layout)
      return x.refuse(s.range, "an arg-reduction other than into a value and an integer index of one shape");
    bool min = r.op == Op::ArgminRow;
    std::string better = min ? "<" : ">", init = min ? acc->highest : acc->lowest, type = acc->type;
    std::string base = r.base == kNone ? "0LL" : x.index(r.base);
    std::string in = x.name(ix.symbol), sn = x.name(src.symbol);
    std::string itype = x.ctype(fi->dtype);
    // Value j of the .row vectors (a packed 16- or 8-bit value vector holds
    // two or four to a register; the index vector one).
    std::string take = "if (cake_w " + better + " " + acc->as(type, x.value(v.symbol, x.slot_read(*fv, v.symbol, "cake_j"))) +
                       ") { " + x.slot_write(*fv, v.symbol, "cake_j", x.store_value(*fv, "cake_w")) + " " + in +
                       "[cake_j] = (" + itype + ")(cake_col + " + base + "); }";
    if (thread_rows(*fs, *fv)) {
      std::string columns = std::to_string(fs->dims[1]);
      line("#pragma unroll");
      line("for (int cake_j = 0; cake_j < " + std::to_string(fv->dims[0]) + "; ++cake_j)");
      line("#pragma unroll");
      line("  for (int cake_col = 0; cake_col < " + columns + "; ++cake_col) {");
      line("    const " + type + " cake_w = " + acc->as(type, x.value(src.symbol, sn + "[cake_j * " + columns + " + cake_col]")) + ";");
      line("    " + take);
      line("  }");
      return;
    }
    if (!row_pair(*fs, *fv))
      return x.refuse(s.range, "an arg-reduction other than an accumulator into its .row vectors, or per-thread [R, C] into [R] or [R, 1]");
    int64_t tiles_per_row = fs->dims[1] / 8;
    line("#pragma unroll");
    line("for (int cake_j = 0; cake_j < " + std::to_string(fv->values()) + "; ++cake_j) {");
    ++x.indent;
    line(type + " cake_w = " + init + ";");
    line("int cake_col = -1;");
    line("#pragma unroll");
    line("for (int cake_c = 0; cake_c < " + std::to_string(2 * tiles_per_row) + "; ++cake_c) {");
    line("  const " + type + " cake_u = " +
         acc->as(type, x.value(src.symbol, x.slot_read(*fs, src.symbol, x.acc_row_register(*fs, "cake_j", "cake_c")))) + ";");
    line("  if (cake_u " + better + " cake_w) { cake_w = cake_u; cake_col = " + x.acc_row_column("cake_c") + "; }");
    line("}");
    line("for (int cake_o = 1; cake_o < 4; cake_o *= 2) {");
    line("  const " + type + " cake_u = __shfl_xor_sync(0xffffffffu, cake_w, cake_o);");
    line("  const int cake_k = __shfl_xor_sync(0xffffffffu, cake_col, cake_o);");
    line("  if (cake_u " + better + " cake_w || (cake_u == cake_w && (unsigned)cake_k < (unsigned)cake_col)) { cake_w = cake_u; cake_col = cake_k; }");
    line("}");
    line(take);
    --x.indent;
    line("}");
  }

  /// Whether an assignment `op` lowers: `=` and the arithmetic op= forms;
  /// refused if not.
  bool writable(const std::string& op) {
    if (op != "=" && op != "+=" && op != "-=" && op != "*=" && op != "/=") {
      x.refuse(s.keyword, "`" + op + "`");
      return false;
    }
    return true;
  }

  /// `x[items] = v` (and op=): each register of x whose place lies in the
  /// part, computed as a whole assignment computes it, value by value. An
  /// operand is a scalar, or the same part of a fragment laid out as x
  /// (`s[:, 0 : 8] = s[:, 0 : 8] * 2.0`), read at the same register.
  void assign_part(const AssignStmt& a) {
    const Expr& t = x.m.exprs[a.target];
    Operand op = operand_of(x.m, a.target);
    if (op.base == kNone || x.m.symbols[op.base].kind != SymbolKind::Reg)
      return x.refuse(t.range, "an assignment to something other than a register");
    auto f = x.fragment(op.base, t.range);
    std::string o(a.op);
    if (!f || !writable(o)) return;
    whole_past(op, f->dims.size());
    std::vector<std::string> tile;
    auto when = x.part_guard(*f, op, "cake_i", tile);
    if (!when) return x.refuse(t.range, "this part of a fragment");
    Emitter::Fetch fetch{op.base};
    std::string value;
    x.part_items = &op.items;
    fetching(fetch, [&] { value = stored_value(*f, op.base, o, a.value); });
    x.part_items = nullptr;
    std::string body = x.slot_write(*f, op.base, "cake_i", value);
    body = when->empty() ? "{ " + body + " }" : "if (" + *when + ") { " + body + " }";
    register_loop(*f, fetch, [&] { each_register(*f, body, fetch.statements); });
  }

  void assign(const AssignStmt& a) {
    const Expr& t = x.m.exprs[a.target];
    if (t.kind == Expr::Kind::Index) return assign_part(a);
    if (t.kind != Expr::Kind::Name || t.symbol == kNone) return x.refuse(t.range, "an assignment to something other than a register");
    auto f = x.fragment(t.symbol, t.range);
    std::string op(a.op);
    if (!f || !writable(op)) return;
    if (f->packed()) {
      // `a op= v` is `a = a op v`, computed as `=` is.
      return each_register_packed(*f, t.symbol, [&](const std::string& i) { return computed(*f, t.symbol, op, a.value, i); });
    }
    Emitter::Fetch fetch{t.symbol};
    std::string value;
    fetching(fetch, [&] { value = stored_value(*f, t.symbol, op, a.value); });
    std::string body = x.slot_write(*f, t.symbol, "cake_i", value);
    register_loop(*f, fetch, [&] { each_register(*f, body, fetch.statements); });
  }

  /// The lanes that run a block (lane_mask) while it is written.
  struct LaneScope {
    Emitter& x;
    std::string outer;
    LaneScope(Emitter& e, std::string mask) : x(e), outer(e.lane_mask) { x.lane_mask = std::move(mask); }
    ~LaneScope() { x.lane_mask = outer; }
  };

  /// Whether the lanes that run a block some of them skip (a lane
  /// condition or loop bound) meet inside it, by a ballot of who runs it:
  /// to order their memory accesses, or for an `elect` among them.
  bool lanes_meet(const std::vector<StmtId>& body, bool loop) {
    if (x.elected || x.lane_mask.empty()) return false;
    return x.lanes_meet_inside(body, loop) ||
           reaches(x.m, body, [](const Stmt& c) { return std::holds_alternative<ElectStmt>(c.node); });
  }

  /// A variable of this statement's code, named for it.
  std::string own(const char* what) const { return std::string(what) + std::to_string(id); }

  /// `if`: where its condition reads `lane` and its lanes meet inside, the
  /// lanes that take the `then` branch meet by a ballot's mask, then those
  /// that take `else` by the rest, after the whole group has met: the
  /// language runs the branches one after the other (docs/run.md), a GPU
  /// in either order.
  void if_stmt(const IfStmt& n) {
    bool split = x.lane_split(s);
    std::vector<StmtId> both = n.then_body;
    both.insert(both.end(), n.else_body.begin(), n.else_body.end());
    if (!split || !lanes_meet(both, false)) {
      LaneScope lanes(x, split ? "" : x.lane_mask);
      line("if (" + x.condition(n.condition) + ") {");
      block(n.then_body);
      if (!n.else_body.empty()) {
        line("} else {");
        block(n.else_body);
      }
      line("}");
      return;
    }
    std::string taken = own("cake_taken"), lanes = own("cake_lanes"), outer = x.lane_mask;
    line("const bool " + taken + " = " + x.condition(n.condition) + ";");
    line("const unsigned " + lanes + " = __ballot_sync(" + outer + ", " + taken + ");");
    line("if (" + taken + ") {");
    {
      LaneScope in(x, lanes);
      block(n.then_body);
    }
    line("}");
    if (n.else_body.empty()) return;
    x.warp_meet(s.range);
    line("if (!" + taken + ") {");
    {
      LaneScope in(x, "(" + outer + " & ~" + lanes + ")");
      block(n.else_body);
    }
    line("}");
  }

  /// `for v in start .. end step`, its body written by `inside`. Where
  /// the bounds read `lane` and the lanes meet inside, the loop runs while
  /// any of its lanes still iterates: each iteration a ballot counts those
  /// that do, which run the body and meet by its mask, so that iteration
  /// k of every lane comes before iteration k + 1 of any, as the
  /// language's lanes run a loop together (docs/run.md).
  void counted_loop(const std::string& v, ExprId start, ExprId end, const std::string& step,
                    const std::vector<StmtId>& body, const std::function<void()>& inside) {
    bool split = x.lane_split(s);
    keep_rolled(end);
    std::string head = "for (long long " + v + " = " + x.index(start) + "; ";
    std::string more = v + " < " + x.index(end), next = "; " + v + " += " + step + ") {";
    if (!split || !lanes_meet(body, true)) {
      LaneScope lanes(x, split ? "" : x.lane_mask);
      line(head + more + next);
      ++x.indent;
      inside();
      --x.indent;
      line("}");
      return;
    }
    std::string in = own("cake_in"), lanes = own("cake_lanes");
    line(head + next);
    ++x.indent;
    line("const bool " + in + " = " + more + ";");
    line("const unsigned " + lanes + " = __ballot_sync(" + x.lane_mask + ", " + in + ");");
    line("if (" + lanes + " == 0u) break;");
    line("if (" + in + ") {");
    ++x.indent;
    {
      LaneScope within(x, lanes);
      inside();
    }
    --x.indent;
    line("}");
    --x.indent;
    line("}");
  }

  void block(const std::vector<StmtId>& body) {
    ++x.indent;
    x.statements(body);
    --x.indent;
  }

  void role(const RoleStmt& r) {
    const auto& roles = x.facts.roles();
    if (!roles) return x.refuse(s.range, "a role whose warps are not constants");
    for (const RoleView& v : *roles) {
      if (v.stmt != id) continue;
      std::string first = std::to_string(v.first_warp), end = std::to_string(v.first_warp + v.warps);
      bool all = v.first_warp == 0 && x.facts.threads() && v.warps * 32 >= *x.facts.threads();
      line(all                 ? "{"
           : v.first_warp == 0 ? "if (cake_warp < " + end + ") {"
                               : "if (cake_warp >= " + first + " && cake_warp < " + end + ") {");
      ++x.indent;
      std::string per = v.kind == RoleSpec::Kind::Warpgroup ? "4" : "1";
      line("const long long cake_rank = ((long long)cake_warp - " + first + ") / " + per + ";");
      line("(void)cake_rank;");
      if (r.maxnreg != kNone) x.set_max_registers(id, r);
      int64_t outer_threads = x.group_threads, outer_first = x.role_first_warp;
      RoleSpec::Kind outer_kind = x.role_kind;
      std::string outer_rank = x.group_rank;
      x.group_threads = v.warps * 32;
      x.role_first_warp = v.first_warp;
      x.role_kind = v.kind;
      if (!all) x.group_rank = "((int)threadIdx.x - " + std::to_string(v.first_warp * 32) + ")";
      x.statements(r.body);
      x.group_threads = outer_threads;
      x.group_rank = outer_rank;
      x.role_first_warp = outer_first;
      x.role_kind = outer_kind;
      --x.indent;
      line("}");
      return;
    }
    x.refuse(s.range, "this role");
  }

  /// `cp.async.wait n`, `wgmma.wait n`, `tma.store.wait[.read] n`: n is a
  /// constant, as the wait_group instructions need.
  void group_wait(const GroupWaitStmt& w) {
    auto pending = x.eval.fold(w.pending);
    if (!pending || *pending < 0 || *pending > 7) return x.refuse(s.range, "a group wait whose count is not a constant 0 .. 7");
    const char* macro = w.op == Op::CpAsyncWait    ? "CAKE_CP_ASYNC_WAIT("
                        : w.op == Op::WgmmaWait    ? "CAKE_WGMMA_WAIT("
                        : w.op == Op::TmaStoreWait ? "CAKE_TMA_STORE_WAIT("
                                                   : "CAKE_TMA_STORE_WAIT_READ(";
    line(macro + std::to_string(*pending) + ");");
  }

  /// `pipeline s in ring(S) for i in a .. b`: the loop, with s = i % S and
  /// its phase (i / S) % 2 bound in the body (docs/language.md, Pipelines).
  void pipeline(const PipelineStmt& p) {
    auto stages = x.eval.fold(p.stages);
    if (!stages || *stages <= 0) return x.refuse(p.ring, "a ring whose stage count is not a positive constant");
    std::string v = x.name(p.variable), st = x.name(p.stage), ring = std::to_string(*stages);
    std::string step = p.step == kNone ? "1LL" : x.index(p.step);
    counted_loop(v, p.start, p.end, step, p.body, [&] {
      line("const long long " + st + " = " + v + " % " + ring + ";");
      line("const long long " + x.phase_name(p.stage) + " = " + v + " / " + ring + " % 2;");
      line("(void)" + st + "; (void)" + x.phase_name(p.stage) + ";");
      x.statements(p.body);
    });
  }

  void run() {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, DeclStmt>) {
            declaration(n);
          } else if constexpr (std::is_same_v<T, LetStmt>) {
            line("const long long " + x.name(n.symbol) + " = " + x.index(n.value) + ";");
          } else if constexpr (std::is_same_v<T, ForStmt>) {
            std::string step = n.step == kNone ? "1LL" : x.index(n.step);
            counted_loop(x.name(n.variable), n.start, n.end, step, n.body, [&] { x.statements(n.body); });
          } else if constexpr (std::is_same_v<T, IfStmt>) {
            if_stmt(n);
          } else if constexpr (std::is_same_v<T, MoveStmt>) {
            move(n);
          } else if constexpr (std::is_same_v<T, PlainStmt>) {
            plain(n);
          } else if constexpr (std::is_same_v<T, ReduceStmt>) {
            reduce(n);
          } else if constexpr (std::is_same_v<T, AssignStmt>) {
            assign(n);
          } else if constexpr (std::is_same_v<T, RoleStmt>) {
            role(n);
          } else if constexpr (std::is_same_v<T, MmaStmt>) {
            if (n.op == Op::Mma) x.mma_sync(s, n);
            else if (n.op == Op::Wgmma) x.wgmma(s, n);
            else if (n.op == Op::Tcgen05Mma) x.tcgen05_mma(s, n);
            else x.refuse(s.keyword, "`" + std::string(op_spelling(n.op)) + "`");
          } else if constexpr (std::is_same_v<T, GroupWaitStmt>) {
            group_wait(n);
          } else if constexpr (std::is_same_v<T, ArriveStmt>) {
            x.arrive(s, n);
          } else if constexpr (std::is_same_v<T, ArgReduceStmt>) {
            arg_reduce(n);
          } else if constexpr (std::is_same_v<T, CommitStmt>) {
            if (n.op == Op::Tcgen05Commit) x.tcgen05_commit(s, n);
            else x.refuse(s.keyword, "`" + std::string(op_spelling(n.op)) + "`");
          } else if constexpr (std::is_same_v<T, WaitStmt>) {
            x.wait(s, n);
          } else if constexpr (std::is_same_v<T, SyncStmt>) {
            x.named_sync(s, n);
          } else if constexpr (std::is_same_v<T, ElectStmt>) {
            x.elect(s, n);
          } else if constexpr (std::is_same_v<T, PipelineStmt>) {
            pipeline(n);
          } else {
            static_assert(sizeof(T) == 0, "a statement kind the lowering does not handle");
          }
        },
        s.node);
  }
};

}  // namespace

void Emitter::statements(const std::vector<StmtId>& body) {
  for (StmtId id : body) statement(id);
}

void Emitter::statement(StmtId id) {
  const Stmt& s = m.stmts[id];
  // Declarations of buffers placed in the prologue leave no code and no comment.
  if (const auto* d = std::get_if<DeclStmt>(&s.node)) {
    SymbolKind k = m.symbols[d->symbol].kind;
    if (k == SymbolKind::Smem || k == SymbolKind::Mbarrier || k == SymbolKind::NamedBarrier ||
        k == SymbolKind::Tensormap || k == SymbolKind::Tmem)
      return;
  }
  // A statement with a body is quoted by its first line only.
  bool has_body = std::holds_alternative<RoleStmt>(s.node) || std::holds_alternative<ForStmt>(s.node) ||
                  std::holds_alternative<IfStmt>(s.node) || std::holds_alternative<PipelineStmt>(s.node) ||
                  std::holds_alternative<ElectStmt>(s.node);
  comment(s.range, has_body);
  // Where every lane runs the code, the plan says where they meet; code
  // some lanes skip keeps a meet after it where it holds a thread's write
  // (its lanes meet inside by their own mask).
  bool before = warp_ordered(id), after = before;
  if (meets_planned && !elected && lane_mask == kAllLanes) {
    after = after && (std::holds_alternative<ElectStmt>(s.node) || lane_split(s));
    before = meet_before.count(id) > 0;
  }
  if (before) warp_meet(s.range);
  Lowerer{*this, id, s}.run();
  if (after) warp_meet(s.range);
}

}  // namespace cake::codegen
