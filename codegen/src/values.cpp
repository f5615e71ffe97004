// Values: integer and boolean expressions, fragments and where each register
// of a fragment sits (the PTX ISA's mma.sync accumulator layout, "Matrix
// Fragments for mma.m16n8k16 with floating point type"), element-wise expressions over them,
// and addresses into tensors and shared memory. See docs/lowering.md.
#include "emitter.h"

#include "cake/broadcast.h"
#include "cake/builtins.h"
#include "cake/typing.h"
#include "cake/banks.h"
#include "cake/roles.h"
#include "cake/fragments.h"
#include "cake/shape_logic.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

namespace cake::codegen {
namespace {

// C++ keywords and names the generated code declares itself; a CAKE name
// equal to one is renamed with a trailing underscore.
const std::set<std::string_view>& reserved() {
  static const std::set<std::string_view> names = {
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const", "constexpr",
      "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "extern", "false", "float",
      "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr",
      "operator", "private", "protected", "public", "register", "return", "short", "signed", "sizeof", "static",
      "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while", "threadIdx", "blockIdx", "blockDim", "gridDim",
      "warpSize", "min", "max", "isnan", "exp2f", "NAN", "INFINITY"};
  return names;
}

/// `v` as a C++ literal of f32 (%.9g, suffix f: the nearest float) or, with
/// `f64`, a double with every bit of it (%.17g); inf and nan are the
/// prelude's f32 ones, widened for f64.
std::string float_literal(double v, bool f64 = false) {
  std::string widen = f64 ? "(double)" : "";
  if (std::isinf(v)) return v > 0 ? "(" + widen + "CAKE_INF)" : "(-" + widen + "CAKE_INF)";
  if (std::isnan(v)) return "(" + widen + "CAKE_NAN)";
  char buf[64];
  std::snprintf(buf, sizeof buf, f64 ? "%.17g" : "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return f64 ? s : s + "f";
}

}  // namespace

std::string dtype_with_article(DType dtype) {
  std::string name(dtype_name(dtype));
  return (name[0] == 'f' || name[0] == 'i' ? "an " : "a ") + name;
}

std::string cxx_int(int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return std::to_string(v) + "LL";
}

namespace {

/// The prelude's macros for a float narrower than f32, kept as its bits:
/// its f32 value, an f32 rounded to it, and a packed register written from
/// f32 values (2 of 16 bits, 4 of 8, the low bits first). tf32 is an f32
/// whose low 13 mantissa bits are zero: read as it is, rounded when
/// written, never packed.
struct NarrowFloat {
  std::string_view to_f32, from_f32, pack;
};

const NarrowFloat* narrow_float(DType dtype) {
  static constexpr NarrowFloat kBF16{"CAKE_BF16_F32", "CAKE_F32_BF16", "CAKE_PACK_BF16X2"};
  static constexpr NarrowFloat kF16{"CAKE_F16_F32", "CAKE_F32_F16", "CAKE_PACK_F16X2"};
  static constexpr NarrowFloat kE4M3{"CAKE_E4M3_F32", "CAKE_F32_E4M3", "CAKE_PACK_E4M3X4"};
  static constexpr NarrowFloat kE5M2{"CAKE_E5M2_F32", "CAKE_F32_E5M2", "CAKE_PACK_E5M2X4"};
  static constexpr NarrowFloat kTF32{"", "CAKE_ROUND_TF32", ""};
  // A 6- or 4-bit float's code in a byte, per thread only (never packed in
  // a register).
  static constexpr NarrowFloat kE3M2{"CAKE_E3M2_F32", "CAKE_F32_E3M2", ""};
  static constexpr NarrowFloat kE2M3{"CAKE_E2M3_F32", "CAKE_F32_E2M3", ""};
  static constexpr NarrowFloat kE2M1{"CAKE_E2M1_F32", "CAKE_F32_E2M1", ""};
  switch (dtype) {
    case DType::BF16: return &kBF16;
    case DType::F16: return &kF16;
    case DType::F8E4M3: return &kE4M3;
    case DType::F8E5M2: return &kE5M2;
    case DType::TF32: return &kTF32;
    case DType::F6E3M2: return &kE3M2;
    case DType::F6E2M3: return &kE2M3;
    case DType::F4E2M1: return &kE2M1;
    case DType::F64: case DType::F32:
    case DType::I64: case DType::I32: case DType::I16: case DType::I8: case DType::U64: case DType::U32:
    case DType::U16: case DType::U8: case DType::B32: case DType::Pred: case DType::Unknown:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

int64_t FragShape::registers() const {
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  return fragment_registers(layout, elements, dtype_bits(dtype), 32);
}

bool FragShape::packed() const {
  unsigned bits = dtype_bits(dtype);
  return layout != FragLayout::None && (bits == 16 || bits == 8);
}

int64_t FragShape::per_register() const { return packed() ? 32 / dtype_bits(dtype) : 1; }

int64_t FragShape::values() const {
  if (!packed()) return slots();
  // Its elements spread over the owner's threads (a `.row` vector's over a
  // quad each): fewer than its registers hold where a .row vector of 8-bit
  // values leaves part of its one register empty.
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  bool row = layout == FragLayout::MmaAccRow || layout == FragLayout::WgmmaAccRow;
  return elements * (row ? kThreadsPerAccRow : 1) / fragment_owner_threads(layout, 32);
}

int64_t FragShape::slots() const {
  if (layout != FragLayout::None) return registers();
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  return elements;
}

std::string Emitter::name(SymbolId s) const {
  std::string n(m.symbols[s].name);
  if (reserved().count(n) || n.starts_with("cake_")) n += "_";
  return n;
}

std::string Emitter::phase_name(SymbolId stage) const { return "cake_phase_" + name(stage); }

std::string Emitter::ctype(DType dtype) const {
  switch (dtype) {
    // tf32 is an f32 whose low 13 mantissa bits are zero.
    case DType::F32: case DType::TF32: return "float";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::U32: case DType::B32: return "unsigned";
    case DType::I64: return "long long";
    case DType::U64: return "unsigned long long";
    // 16-bit floats are kept as their bits; arithmetic widens them to f32.
    case DType::F16: case DType::BF16: return "unsigned short";
    // 8- and 16-bit integers: C++ widens their arithmetic to int, and a
    // result is narrowed back by the statement that writes it.
    case DType::I16: return "short";
    case DType::U16: return "unsigned short";
    case DType::I8: return "signed char";
    case DType::U8: return "unsigned char";
    case DType::F8E4M3: case DType::F8E5M2:
    case DType::F6E3M2: case DType::F6E2M3: case DType::F4E2M1: case DType::Pred: case DType::Unknown:
      return "";
  }
  return "";
}

std::string Emitter::memory_type(DType dtype) const {
  if (is_fp8(dtype)) return "unsigned char";
  return ctype(dtype);
}

std::string Emitter::buffer_type(DType dtype) const {
  return is_sub_byte_float(dtype) ? "unsigned char" : memory_type(dtype);
}

std::string Emitter::to_f32(DType dtype, const std::string& bits) const {
  const NarrowFloat* n = narrow_float(dtype);
  return n && !n->to_f32.empty() ? std::string(n->to_f32) + "(" + bits + ")" : bits;
}

std::string Emitter::storage(const FragShape& f) const {
  if (f.packed()) return "unsigned";
  return is_sub_byte_float(f.dtype) ? "unsigned char" : memory_type(f.dtype);  // a 6- or 4-bit code a byte
}

std::string Emitter::slot_read(const FragShape& f, SymbolId s, const std::string& i) const {
  return slot_read(f, name(s), i);
}

std::string Emitter::slot_read(const FragShape& f, const std::string& array, const std::string& i) const {
  if (!f.packed()) return array + "[" + i + "]";
  std::string per = std::to_string(f.per_register()), bits = std::to_string(dtype_bits(f.dtype));
  return "((" + slot_type(f) + ")(" + array + "[(" + i + ") / " + per + "] >> (" + bits + " * ((" + i + ") % " + per + "))))";
}

std::string Emitter::slot_type(const FragShape& f) const {
  if (!f.packed()) return storage(f);
  // Floats as their bits; integers as their type (s8 sign-extends).
  return !is_float(f.dtype) ? memory_type(f.dtype) : dtype_bits(f.dtype) == 8 ? "unsigned char" : "unsigned short";
}

std::string Emitter::slot_write(const FragShape& f, SymbolId s, const std::string& i, const std::string& stored) const {
  if (!f.packed()) return name(s) + "[" + i + "] = " + stored + ";";
  std::string per = std::to_string(f.per_register()), bits = std::to_string(dtype_bits(f.dtype));
  std::string mask = dtype_bits(f.dtype) == 8 ? "0xffu" : "0xffffu";
  std::string reg = name(s) + "[(" + i + ") / " + per + "]", shift = "(" + bits + " * ((" + i + ") % " + per + "))";
  // The value masked to its width: a negative s8 must not spill into its neighbours.
  return reg + " = (" + reg + " & ~(" + mask + " << " + shift + ")) | (((unsigned)(" + stored + ") & " + mask + ") << " +
         shift + ");";
}

std::string Emitter::pack_register(const FragShape& f, const std::string& reg, const std::vector<std::string>& v) const {
  if (f.packed() && !is_float(f.dtype)) {
    std::string out;
    for (size_t k = 0; k < v.size(); ++k) {
      std::string byte = "((unsigned)(" + v[k] + ") & 0xffu)";
      out += (k ? " | (" + byte + " << " + std::to_string(k * dtype_bits(f.dtype)) + ")" : byte);
    }
    return reg + " = " + out + ";";
  }
  const NarrowFloat* n = narrow_float(f.dtype);
  if (!n || n->pack.empty()) return "";  // not packed (FragShape::packed())
  std::string out = std::string(n->pack) + "(" + reg;
  for (const std::string& x : v) out += ", " + x;
  return out + ");";
}

std::string Emitter::red_add(DType dtype, const std::string& ptr, const std::string& value) const {
  std::string type(red_add_type(dtype));
  // The value's asm operand constraint: f32 "f", f64 "d", u64 "l", 32-bit integers "r".
  std::string constraint = type == "f32" ? "f" : type == "f64" ? "d" : type == "u64" ? "l" : "r";
  return "CAKE_RED_ADD(\"" + type + "\", \"" + constraint + "\", " + ptr + ", " + value + ");";
}

int64_t Emitter::multiple_of(ExprId id) {
  constexpr int64_t kAny = int64_t(1) << 40;  // what 0 is a multiple of, as far as anyone asks
  auto power_of_two = [](int64_t v) { return v == 0 ? kAny : v & -v; };
  if (auto v = eval.fold(id)) return *v == INT64_MIN ? kAny : power_of_two(*v < 0 ? -*v : *v);
  const Expr& e = m.exprs[id];
  switch (e.kind) {
    case Expr::Kind::Name: {
      if (e.symbol == kNone) return 1;
      const Symbol& s = m.symbols[e.symbol];
      if (s.kind == SymbolKind::Let && s.value != kNone) return multiple_of(s.value);
      if (s.kind == SymbolKind::LoopVar && s.stmt != kNone) {
        const Stmt& loop = m.stmts[s.stmt];
        ExprId start = kNone, step = kNone;
        if (const auto* f = std::get_if<ForStmt>(&loop.node)) start = f->start, step = f->step;
        if (const auto* p = std::get_if<PipelineStmt>(&loop.node)) start = p->start, step = p->step;
        if (start == kNone) return 1;
        return std::gcd(multiple_of(start), step == kNone ? 1 : multiple_of(step));
      }
      if (s.kind != SymbolKind::ShapeSymbol) return 1;
      if (auto it = symbol_multiple_.find(e.symbol); it != symbol_multiple_.end()) return it->second;
      // The largest 2^j (up to 1024) that the kernel's facts make divide it:
      // `facts and S % 2^j != 0` has no solution.
      std::unordered_map<SymbolId, uint32_t> vars;
      for (SymbolId v : kernel.shape_symbols) vars.emplace(v, static_cast<uint32_t>(vars.size()));
      std::vector<logic::Formula> facts;
      for (ExprId f : kernel.facts)
        if (auto formula = logic::to_formula(m, eval, f, vars)) facts.push_back(std::move(*formula));
      int64_t found = 1;
      auto var = vars.find(e.symbol);
      for (int64_t d = 1024; var != vars.end() && d > 1; d /= 2) {
        auto other = logic::modulo(var->second, d, logic::Rel::Ne, 0);
        if (!other) continue;
        std::vector<logic::Formula> all = facts;
        all.push_back(std::move(*other));
        if (logic::solve(logic::Formula::all(std::move(all)), static_cast<uint32_t>(vars.size())).verdict ==
            logic::Verdict::Unsat) {
          found = d;
          break;
        }
      }
      symbol_multiple_[e.symbol] = found;
      return found;
    }
    case Expr::Kind::Unary:
      return e.text == "-" ? multiple_of(e.lhs) : 1;
    case Expr::Kind::Binary:
      if (e.text == "+" || e.text == "-") return std::gcd(multiple_of(e.lhs), multiple_of(e.rhs));
      if (e.text == "*") return std::min(kAny, multiple_of(e.lhs) * multiple_of(e.rhs));
      return 1;
    case Expr::Kind::Int: case Expr::Kind::Bool: case Expr::Kind::Float: case Expr::Kind::Field: case Expr::Kind::Call:
    case Expr::Kind::Cast: case Expr::Kind::Index: case Expr::Kind::Transpose: case Expr::Kind::Error:
      return 1;
  }
  return 1;
}

std::string Emitter::index(ExprId id) {
  const Expr& e = m.exprs[id];
  if (auto v = eval.fold(id)) return cxx_int(*v);
  switch (e.kind) {
    case Expr::Kind::Int: return cxx_int(e.int_value);
    case Expr::Kind::Bool: return e.int_value ? "true" : "false";
    case Expr::Kind::Name: {
      if (e.symbol == kNone) break;
      const Symbol& s = m.symbols[e.symbol];
      switch (s.kind) {
        case SymbolKind::ShapeSymbol: case SymbolKind::ScalarParam: case SymbolKind::Let:
        case SymbolKind::LoopVar: case SymbolKind::StageVar: case SymbolKind::Const:
          return name(e.symbol);
        case SymbolKind::Builtin:
          if (s.name == "lane") return "cake_lane";
          break;
        case SymbolKind::Reg:
          // A per-thread scalar register in a condition (`if dist < best`).
          if (s.type.dims.empty() && s.type.layout == FragLayout::None) return value(e.symbol, name(e.symbol) + "[0]");
          break;
        case SymbolKind::TensorParam: case SymbolKind::Smem: case SymbolKind::Tmem: case SymbolKind::Dsmem:
        case SymbolKind::Mbarrier: case SymbolKind::NamedBarrier: case SymbolKind::Tensormap:
        case SymbolKind::Role: case SymbolKind::Kernel: case SymbolKind::Dispatch: case SymbolKind::DispatchParam:
          break;
      }
      break;
    }
    case Expr::Kind::Field: {
      const Expr& base = m.exprs[e.lhs];
      if (base.kind != Expr::Kind::Name || base.symbol == kNone) break;
      const Symbol& s = m.symbols[base.symbol];
      if (s.kind == SymbolKind::Builtin) {
        if (s.name == "block" && (e.text == "x" || e.text == "y" || e.text == "z"))
          return "(long long)blockIdx." + std::string(e.text);
        if (s.name == "warp" && e.text == "id") return "(long long)cake_warp";
        if (s.name == "role" && e.text == "rank") return "cake_rank";
        if (s.name == "cluster" && e.text == "rank") return clustered() ? "(long long)cake_cluster_rank" : "0LL";
      }
      if (s.kind == SymbolKind::StageVar && e.text == "phase") return phase_name(base.symbol);
      break;
    }
    case Expr::Kind::Unary: case Expr::Kind::Binary: case Expr::Kind::Call:
      if (auto c = composite_integer(e, [&](ExprId o) { return index(o); })) return *c;
      break;
    case Expr::Kind::Float: case Expr::Kind::Cast: case Expr::Kind::Index: case Expr::Kind::Transpose:
    case Expr::Kind::Error:
      break;
  }
  refuse(e.range, "the integer expression `" + std::string(m.written(e.range)) + "`");
  return "0";
}

std::string Emitter::condition(ExprId e) { return index(e); }

std::optional<std::string> composite_integer(const Expr& e, const std::function<std::string(ExprId)>& operand) {
  if (e.kind == Expr::Kind::Unary) return "(" + std::string(e.text) + operand(e.lhs) + ")";
  if (e.kind == Expr::Kind::Binary) {
    std::string op(e.text);
    if (op == "&&" || op == "||" || op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" ||
        op == "+" || op == "-" || op == "*" || op == "/" || op == "%" || op == "&" || op == "|" || op == "^" ||
        op == "<<" || op == ">>")
      return "(" + operand(e.lhs) + " " + op + " " + operand(e.rhs) + ")";
    return std::nullopt;
  }
  if (e.kind != Expr::Kind::Call || e.args.size() != 2) return std::nullopt;
  if (e.text == "cdiv") {
    std::string a = operand(e.args[0]), b = operand(e.args[1]);
    return "((" + a + " + " + b + " - 1) / " + b + ")";
  }
  if (e.text == "min" || e.text == "max") {
    std::string a = operand(e.args[0]), b = operand(e.args[1]);
    return "(" + a + (e.text == "min" ? " < " : " > ") + b + " ? " + a + " : " + b + ")";
  }
  return std::nullopt;
}

std::optional<FragShape> Emitter::fragment(SymbolId s, ByteRange at) {
  const Symbol& sym = m.symbols[s];
  if (sym.kind != SymbolKind::Reg) {
    refuse(at, "`" + std::string(sym.name) + "` as a register operand");
    return std::nullopt;
  }
  FragShape f;
  f.layout = sym.type.layout;
  f.dtype = sym.type.dtype;
  for (ExprId d : sym.type.dims) {
    auto v = eval.fold(d);
    if (!v || *v <= 0) {
      refuse(sym.decl, "a fragment whose shape is not a positive constant");
      return std::nullopt;
    }
    f.dims.push_back(*v);
  }
  bool f8 = is_fp8(f.dtype);
  bool wide = f.dtype == DType::F64 && f.layout == FragLayout::None;  // per thread: a double
  // 8- and 16-bit integers per thread; 8-bit ones in mma_acc and wgmma_acc
  // (and their .row vectors) too, packed four to a register like 8-bit
  // floats.
  bool small_int = !is_float(f.dtype) && dtype_bits(f.dtype) < 32;
  bool small_int_ok = f.layout == FragLayout::None ||
                      (is_int8(f.dtype) && (f.layout == FragLayout::MmaAcc || f.layout == FragLayout::WgmmaAcc ||
                                            f.layout == FragLayout::MmaAccRow || f.layout == FragLayout::WgmmaAccRow));
  // 6- and 4-bit floats per thread, a code a byte.
  bool sub_byte = is_sub_byte_float(f.dtype);
  // 16- and 8-bit floats in any layout (packed in the register layouts).
  if ((memory_type(f.dtype).empty() && !sub_byte) || (sub_byte && f.layout != FragLayout::None) ||
      (dtype_bits(f.dtype) > 32 && !wide) || (small_int && !small_int_ok)) {
    refuse(sym.decl, dtype_with_article(f.dtype) +
                         " fragment in this layout (so far: 32-bit and 16- and 8-bit float types, f64, 6- and 4-bit "
                         "floats and 8- and 16-bit integers per thread, 8-bit integers in mma_acc or wgmma_acc and their .row vectors)");
    return std::nullopt;
  }
  // Its values are converted to and from f32 by cvt's .e4m3x2/.e5m2x2 forms.
  if (f8 && !target.has(Feature::Fp8Convert)) {
    refuse(sym.decl, dtype_with_article(f.dtype) + " fragment on " + std::string(target.name) +
                         " (8-bit float conversions need sm_89 or later)");
    return std::nullopt;
  }
  switch (f.layout) {
    case FragLayout::None: return f;
    // Rows in 16-row tiles and, for an odd multiple of 8, a last half tile
    // (split_place()).
    case FragLayout::MmaAcc:
      if (f.dims.size() == 2 && f.dims[0] % 8 == 0 && f.dims[1] % 8 == 0) return f;
      break;
    case FragLayout::MmaAccRow:
      if (f.dims.size() == 1 && f.dims[0] % 8 == 0) return f;
      break;
    case FragLayout::WgmmaAcc:
      if (f.dims.size() == 2 && f.dims[0] == 64 && f.dims[1] % 8 == 0) return f;
      break;
    case FragLayout::WgmmaAccRow:
      if (f.dims.size() == 1 && f.dims[0] == 64) return f;
      break;
    case FragLayout::Tcgen05Acc:
      if (f.dims.size() == 2 && f.dims[0] == 32) return f;
      break;
  }
  refuse(sym.decl, "this fragment shape for its layout");
  return std::nullopt;
}

namespace {

/// An mma_acc fragment [R, C] holds 16 x 8 tiles in row-major order, 4
/// values each; when R is an odd multiple of 8, a last row of half tiles
/// (rows g only, 2 values each: the m16n8 B operand's rows) after them.
/// `pick(whole_if, full, half)`: the C++ expression `full` where the C++
/// condition `whole_if` (an index falls in the whole tiles) holds, `half`
/// where not; `full` alone for a fragment without half tiles.
struct MmaTiles {
  int64_t rows, tiles_per_row;
  bool half() const { return rows % 16 == 8; }
  /// Values in whole tiles (the first of the half tiles).
  int64_t whole_values() const { return rows / 16 * tiles_per_row * 4; }
  /// The half tiles' 8 x 8 block row.
  int64_t half_block_row() const { return rows / 16 * 2; }
  std::string pick(const std::string& whole_if, const std::string& full, const std::string& half_expr) const {
    if (!half()) return full;
    return "((" + whole_if + ") ? " + full + " : " + half_expr + ")";
  }
};

MmaTiles mma_tiles(const FragShape& f) { return {f.dims[0], f.dims[1] / 8}; }

}  // namespace

SplitPlace Emitter::split_place(const FragShape& f, const std::string& i) {
  switch (f.layout) {
    case FragLayout::MmaAcc: {
      // Tiles of 16 x 8 in row-major order, 4 values each: v0, v1 at row
      // g, columns 2t, 2t+1; v2, v3 at row g + 8 (g = lane / 4, t = lane % 4).
      // Half tiles (MmaTiles) after them: v0, v1 at row g.
      MmaTiles t = mma_tiles(f);
      std::string tiles_per_row = std::to_string(t.tiles_per_row), whole = std::to_string(t.whole_values());
      std::string tile = "((" + i + ") / 4)", in_half = "((" + i + ") - " + whole + ")";
      std::string whole_if = "(" + i + ") < " + whole;
      return {{"cake_lane / 4", "2 * (cake_lane % 4)"},
              {t.pick(whole_if, "(16 * (" + tile + " / " + tiles_per_row + ") + 8 * (((" + i + ") % 4) / 2))",
                      std::to_string(8 * t.half_block_row())),
               t.pick(whole_if, "(8 * (" + tile + " % " + tiles_per_row + ") + ((" + i + ") % 2))",
                      "(8 * (" + in_half + " / 2) + ((" + i + ") % 2))")}};
    }
    case FragLayout::MmaAccRow:
      // The rows of the mma_acc layout: g and g + 8 of each 16-row tile.
      return {{"cake_lane / 4", ""}, {"(16 * ((" + i + ") / 2) + 8 * ((" + i + ") % 2))", ""}};
    case FragLayout::None: {
      if (f.dims.size() == 2) {
        std::string c = std::to_string(f.dims[1]);
        return {{"0", "0"}, {"((" + i + ") / " + c + ")", "((" + i + ") % " + c + ")"}};
      }
      return {{"0", ""}, {"(" + i + ")", ""}};
    }
    case FragLayout::WgmmaAcc:
      // Warp w % 4 of the warpgroup holds rows 16 (w % 4) .. + 15; value i
      // at row g + 8 ((i / 2) % 2), column 8 (i / 4) + 2t + i % 2 (PTX ISA,
      // "Register Fragments and Shared Memory Matrix Layouts", wgmma D).
      return {{"16 * (int)(cake_warp % 4) + cake_lane / 4", "2 * (cake_lane % 4)"},
              {"(8 * (((" + i + ") / 2) % 2))", "(8 * ((" + i + ") / 4) + ((" + i + ") % 2))"}};
    case FragLayout::WgmmaAccRow:
      // The rows of the wgmma_acc layout: g and g + 8 of the warp's 16.
      return {{"16 * (int)(cake_warp % 4) + cake_lane / 4", ""}, {"(8 * (" + i + "))", ""}};
    case FragLayout::Tcgen05Acc:
      // Each warp's 32 TMEM lanes, one per thread: lane l holds row l,
      // value i at column i (what tcgen05.ld .32x32b gives it).
      return {{"(int)cake_lane", "0"}, {"0", "(" + i + ")"}};
  }
  return {{"0", "0"}, {"0", "0"}};
}

ElementPlace Emitter::place(const FragShape& f, const std::string& i) {
  SplitPlace p = split_place(f, i);
  auto sum = [](const std::string& corner, const std::string& offset) {
    if (offset.empty()) return offset;  // a 1-D fragment has no column
    if (corner == "0") return offset;
    if (offset == "0") return "(" + corner + ")";
    return "(" + corner + " + " + offset + ")";
  };
  return {sum(p.thread.row, p.reg.row), sum(p.thread.col, p.reg.col)};
}

namespace {

/// The row slot of a `.row` vector that register `i` of mma_acc fragment
/// `f` reads: tile row (i / 4) / (columns / 8), half (i % 4) / 2; the last
/// slot for a half tile's.
std::string mma_row_slot(const FragShape& f, const std::string& i) {
  MmaTiles t = mma_tiles(f);
  return t.pick("(" + i + ") < " + std::to_string(t.whole_values()),
                "(2 * (((" + i + ") / 4) / " + std::to_string(t.tiles_per_row) + ") + ((" + i + ") % 4) / 2)",
                std::to_string(t.half_block_row()));
}

}  // namespace

std::string Emitter::packed_register(const FragShape& f, const std::string& block_row, const std::string& block_col) const {
  // Block (r, c) is half r % 2 of 16 x 8 tile (r / 2, c); a tile is two
  // registers, v0v1 (rows g) then v2v3 (rows g + 8); a half tile's one
  // register follows the whole tiles'.
  MmaTiles t = mma_tiles(f);
  std::string tiles_per_row = std::to_string(t.tiles_per_row);
  return t.pick("(" + block_row + ") < " + std::to_string(t.half_block_row()),
                "(2 * ((" + block_row + ") / 2 * " + tiles_per_row + " + (" + block_col + ")) + (" + block_row + ") % 2)",
                "(" + std::to_string(t.whole_values() / 2) + " + (" + block_col + "))");
}

ElementPlace Emitter::packed_block(const FragShape& f, const std::string& r) const {
  // The inverse of packed_register(): register r is half r % 2 of tile r / 2.
  MmaTiles t = mma_tiles(f);
  std::string tiles_per_row = std::to_string(t.tiles_per_row), whole = std::to_string(t.whole_values() / 2);
  std::string whole_if = "(" + r + ") < " + whole;
  return {t.pick(whole_if, "(2 * ((" + r + ") / 2 / " + tiles_per_row + ") + (" + r + ") % 2)", std::to_string(t.half_block_row())),
          t.pick(whole_if, "((" + r + ") / 2 % " + tiles_per_row + ")", "((" + r + ") - " + whole + ")")};
}

std::string Emitter::mma_acc_register(const FragShape& f, const std::string& slot, const std::string& k) const {
  // The inverse of mma_row_slot(): row slot j is tile row j / 2, half j % 2;
  // its k-th value is in tile (j / 2, k / 2), register 2 * half + k % 2; in
  // the half tiles' slot, value k follows the whole tiles'.
  MmaTiles t = mma_tiles(f);
  std::string tiles_per_row = std::to_string(t.tiles_per_row);
  return t.pick("(" + slot + ") < " + std::to_string(t.half_block_row()),
                "((((" + slot + ") / 2) * " + tiles_per_row + " + (" + k + ") / 2) * 4 + ((" + slot + ") % 2) * 2 + (" + k +
                    ") % 2)",
                "(" + std::to_string(t.whole_values()) + " + (" + k + "))");
}

std::string Emitter::acc_row_register(const FragShape& f, const std::string& slot, const std::string& k) const {
  // wgmma_acc: value i is at row slot (i / 2) % 2, column 8 (i / 4) + 2t + i % 2.
  if (f.layout == FragLayout::WgmmaAcc) return "(4 * ((" + k + ") / 2) + 2 * (" + slot + ") + (" + k + ") % 2)";
  return mma_acc_register(f, slot, k);
}

std::string Emitter::acc_row_column(const std::string& k) const {
  return "(8 * ((" + k + ") / 2) + 2 * (int)(cake_lane % 4) + (" + k + ") % 2)";
}

std::optional<std::string> Emitter::operand_slot(SymbolId s, ByteRange at, const FragShape& result, const std::string& i) {
  auto f = fragment(s, at);
  if (!f) return std::nullopt;
  if (f->dims.empty()) return name(s) + "[0]";
  if (f->layout == result.layout && f->dims == result.dims) return slot_read(*f, s, i);
  if (f->layout == FragLayout::WgmmaAccRow && result.layout == FragLayout::WgmmaAcc)
    return slot_read(*f, s, "((" + i + ") / 2) % 2");
  if (f->layout == FragLayout::MmaAccRow && result.layout == FragLayout::MmaAcc && f->dims[0] == result.dims[0])
    return slot_read(*f, s, mma_row_slot(result, i));
  // A per-thread operand over a per-thread result (cake/broadcast.h):
  // element i of an [R, C] result is at row i / C, column i % C.
  if (f->layout == FragLayout::None && result.layout == FragLayout::None) {
    std::string columns = std::to_string(result.dims.size() == 2 ? result.dims[1] : 1);
    switch (spread_of_extents(f->dims, false, result.dims)) {
      case Spread::Same: return name(s) + "[" + i + "]";
      case Spread::Scalar: return name(s) + "[0]";
      case Spread::Columns: return name(s) + "[(" + i + ") % " + columns + "]";
      case Spread::Rows: return name(s) + "[(" + i + ") / " + columns + "]";
      case Spread::None: break;
    }
  }
  // A whole fragment of the shape of the part an assignment writes
  // (`x[:, 0 : 8] = y`): y's element as far from its corner as the
  // register is from the part's.
  if (part_items && f->layout == result.layout) {
    auto shift = part_shift(at, *f, {}, result);
    return shift ? other_place(s, at, *f, result, i, *shift) : std::nullopt;
  }
  refuse(at, "`" + std::string(m.symbols[s].name) + "` as an operand of this shape and layout");
  return std::nullopt;
}

std::string Emitter::integer_element(ExprId id, const FragShape& result, const std::string& i) {
  const Expr& e = m.exprs[id];
  if (e.kind == Expr::Kind::Name && e.symbol != kNone && m.symbols[e.symbol].kind == SymbolKind::Reg) {
    if (is_float(m.symbols[e.symbol].type.dtype)) {
      refuse(e.range, "a float operand of an integer fragment's expression");
      return "0";
    }
    return operand_slot(e.symbol, e.range, result, i).value_or("0");
  }
  auto integer = [&](ExprId o) { return integer_element(o, result, i); };
  if (e.kind == Expr::Kind::Index) {
    SymbolId base = root_symbol(m, id);
    if (base != kNone && m.symbols[base].kind == SymbolKind::Reg) return part_operand(id, result, i).value_or("0");
  }
  if (e.kind == Expr::Kind::Call) {
    if ((e.text == "row" || e.text == "col") && e.args.size() == 1) {
      auto p = element_place(e, result, i);
      return p ? "((int)" + *p + ")" : "0";
    }
    if (e.text == "select" && e.args.size() == 3)
      return "(" + element(e.args[0], result, i) + " != 0.0f ? " + integer(e.args[1]) + " : " + integer(e.args[2]) + ")";
    if (e.text == "abs" && e.args.size() == 1) {
      std::string a = integer(e.args[0]);
      return "(" + a + " < 0 ? -" + a + " : " + a + ")";
    }
  }
  if (e.kind == Expr::Kind::Cast && !is_float(e.cast_type)) {
    // To an integer type: of an integer, its value wrapped by the statement
    // (or here, to this width); of a float, truncated toward zero through
    // 64 bits, then wrapped (NaN is 0): the executor's round_integer, and
    // what `cvt.rzi.s64` then a narrowing give on the GPU.
    std::string type = ctype(e.cast_type);
    if (integer_valued(e.lhs)) return "((" + type + ")(" + integer(e.lhs) + "))";
    return "((" + type + ")(long long)(" + element(e.lhs, result, i) + "))";
  }
  if (auto c = composite_integer(e, integer)) {
    // Wrapped to the expression's dtype at every operation, as the
    // executor rounds each result: `(k << 3) / 4` of a u16 k drops the
    // bits the shift carried out, where C++ would have kept them in an int.
    DType t = integer_valued(id) ? value_dtype(id) : DType::Unknown;
    return t == DType::Unknown ? *c : "((" + ctype(t) + ")" + *c + ")";
  }
  return index(id);
}

std::optional<std::string> Emitter::part_guard(const FragShape& f, const IndexedOperand& op, const std::string& i,
                                               std::vector<std::string>& tile) {
  if (f.dims.empty() || op.items.size() != f.dims.size() || f.dims.size() > 2) return std::nullopt;
  ElementPlace p = place(f, i);
  std::vector<std::string> at = {p.row};
  if (f.dims.size() == 2) at.push_back(p.col);
  std::string guard;
  auto both = [&](const std::string& g) { guard += (guard.empty() ? "" : " && ") + g; };
  for (size_t d = 0; d < at.size(); ++d) {
    const IndexItem& item = op.items[d];
    std::string place = "(long long)(" + at[d] + ")";
    switch (item.kind) {
      case IndexItem::Kind::Full: tile.push_back(place); break;
      case IndexItem::Kind::Scalar: both(place + " == " + index(item.start)); break;
      case IndexItem::Kind::Slice: {
        std::string from = "(" + place + " - " + index(item.start) + ")";
        both(from + " >= 0 && " + from + " < " + index(item.extent));
        tile.push_back(from);
        break;
      }
    }
  }
  return guard;
}

std::optional<std::string> Emitter::part_operand(ExprId id, const FragShape& result, const std::string& i) {
  const Expr& e = m.exprs[id];
  IndexedOperand op = operand_of(m, id);
  auto y = fragment(op.base, e.range);
  if (!y) return std::nullopt;
  whole_past(op, y->dims.size());
  auto same_part = [&] {
    if (!part_items || op.items.size() != part_items->size()) return false;
    for (size_t d = 0; d < op.items.size(); ++d)
      if (op.items[d].kind != (*part_items)[d].kind || m.written(op.items[d].range) != m.written((*part_items)[d].range))
        return false;
    return true;
  };
  if (same_part()) return operand_slot(op.base, e.range, result, i);
  // An element: a scalar index for every dim.
  bool element = !op.items.empty() && std::all_of(op.items.begin(), op.items.end(), [](const IndexItem& item) {
    return item.kind == IndexItem::Kind::Scalar;
  });
  if (element) return element_of(op.base, e.range, *y, op.items);
  // Read into a whole result (an assignment to a part places its operands
  // by the part's shift, below).
  if (!part_items && y->layout == FragLayout::None && result.layout == FragLayout::None)
    return thread_part(op.base, e.range, *y, op.items, result, i);
  auto shift = part_shift(e.range, *y, op.items, result);
  if (!shift) return std::nullopt;
  return other_place(op.base, e.range, *y, result, i, *shift);
}

std::optional<std::string> Emitter::thread_part(SymbolId s, ByteRange at, const FragShape& y, const std::vector<IndexItem>& items,
                                                const FragShape& result, const std::string& i) {
  // The part's dims (a scalar item's dropped) and where each of y's dims
  // starts: a scalar item's index, a slice's start, or 0.
  std::vector<int64_t> dims;
  std::vector<std::string> start(y.dims.size(), "0");
  std::vector<int> part_dim(y.dims.size(), -1);
  for (size_t d = 0; d < y.dims.size(); ++d) {
    IndexItem::Kind kind = d < items.size() ? items[d].kind : IndexItem::Kind::Full;
    if (kind != IndexItem::Kind::Full) start[d] = "(long long)(" + index(items[d].start) + ")";
    if (kind == IndexItem::Kind::Scalar) continue;
    auto extent = kind == IndexItem::Kind::Slice ? eval.fold(items[d].extent) : std::optional<int64_t>(y.dims[d]);
    if (!extent) {
      refuse(at, "`" + std::string(m.written(at)) + "`, a part whose extent is not a constant");
      return std::nullopt;
    }
    part_dim[d] = static_cast<int>(dims.size());
    dims.push_back(*extent);
  }
  // Element i of the result reads element p of the part (broadcast as a
  // whole fragment of the part's shape would be), at its row-major place.
  std::string columns = std::to_string(result.dims.size() == 2 ? result.dims[1] : 1), p;
  switch (spread_of_extents(dims, false, result.dims)) {
    case Spread::Same: p = "(" + i + ")"; break;
    case Spread::Scalar: p = "0"; break;
    case Spread::Columns: p = "((" + i + ") % " + columns + ")"; break;
    case Spread::Rows: p = "((" + i + ") / " + columns + ")"; break;
    case Spread::None:
      refuse(at, "`" + std::string(m.written(at)) + "` as an operand of this shape");
      return std::nullopt;
  }
  std::vector<std::string> coordinates = start;
  int64_t below = 1;  // elements of the part's dims after the current one
  for (size_t d = y.dims.size(); d-- > 0;) {
    if (part_dim[d] < 0) continue;
    coordinates[d] = "(" + start[d] + " + " + p + (below > 1 ? " / " + std::to_string(below) : "") + " % " +
                     std::to_string(dims[part_dim[d]]) + ")";
    below *= dims[part_dim[d]];
  }
  return slot_read(y, name(s), row_major(y.dims, coordinates));
}

std::string Emitter::row_major(const std::vector<int64_t>& dims, const std::vector<std::string>& coordinates) {
  std::string flat;
  for (size_t d = 0; d < dims.size() && d < coordinates.size(); ++d) {
    int64_t stride = 1;
    for (size_t e = d + 1; e < dims.size(); ++e) stride *= dims[e];
    flat += (flat.empty() ? "" : " + ") + (stride > 1 ? coordinates[d] + " * " + std::to_string(stride) : coordinates[d]);
  }
  return flat.empty() ? "0" : flat;
}

std::optional<std::array<int64_t, 2>> Emitter::part_shift(ByteRange at, const FragShape& y,
                                                          const std::vector<IndexItem>& items, const FragShape& result) {
  auto refused = [&](const std::string& what) -> std::optional<std::array<int64_t, 2>> {
    refuse(at, what);
    return std::nullopt;
  };
  if (y.layout != result.layout || y.dims.size() != result.dims.size() || y.dims.empty() || y.dims.size() > 2 ||
      (!items.empty() && items.size() != y.dims.size()) || (part_items && part_items->size() != result.dims.size()))
    return refused("`" + std::string(m.written(at)) + "` as an operand of this shape and layout");
  // Each dim's first index and extent (a scalar item is one index of a
  // dim the part drops), of the operand's part and of the written one.
  struct Span {
    int64_t start = 0, extent = 0;
    bool scalar = false;
  };
  auto spans = [&](const std::vector<IndexItem>* part, const std::vector<int64_t>& dims) -> std::optional<std::vector<Span>> {
    std::vector<Span> out;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!part || part->empty()) {
        out.push_back({0, dims[d], false});
        continue;
      }
      const IndexItem& item = (*part)[d];
      switch (item.kind) {
        case IndexItem::Kind::Full: out.push_back({0, dims[d], false}); break;
        case IndexItem::Kind::Scalar: {
          auto v = eval.fold(item.start);
          if (!v) return std::nullopt;
          out.push_back({*v, 1, true});
          break;
        }
        case IndexItem::Kind::Slice: {
          auto v = eval.fold(item.start), n = eval.fold(item.extent);
          if (!v || !n) return std::nullopt;
          out.push_back({*v, *n, false});
          break;
        }
      }
    }
    return out;
  };
  auto from = spans(&items, y.dims), to = spans(part_items, result.dims);
  if (!from || !to) return refused("a part of a fragment read at another place, where the parts do not start at constants");
  std::array<int64_t, 2> shift{0, 0};
  for (size_t d = 0; d < from->size(); ++d) {
    if ((*from)[d].scalar != (*to)[d].scalar || (*from)[d].extent != (*to)[d].extent)
      return refused("`" + std::string(m.written(at)) + "`, which is not of the shape of the part written");
    shift[d] = (*from)[d].start - (*to)[d].start;
  }
  // A warpgroup's fragment: warp w holds rows 16 (w % 4) .. + 15, and a
  // shuffle reaches only the warp's own lanes.
  if (result.layout == FragLayout::WgmmaAcc)
    for (int64_t r = (*to)[0].start; r < (*to)[0].start + (*to)[0].extent; ++r)
      if (r / 16 != (r + shift[0]) / 16)
        return refused("`" + std::string(m.written(at)) + "` across warps (its row " + std::to_string(r + shift[0]) +
                       " into row " + std::to_string(r) + ", which another warp holds)");
  return shift;
}

namespace {

std::string num(int64_t v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }

}  // namespace

std::string Emitter::acc_value_index(const FragShape& y, const std::string& row, const std::string& col) const {
  // wgmma_acc: value i at row 8 ((i / 2) % 2), column 8 (i / 4) + i % 2 of
  // the lane's corner; mma_acc: 16 x 8 tiles in row-major order, 4 values
  // each, then the half tiles' 2 (mma_tiles()).
  if (y.layout == FragLayout::WgmmaAcc) return "(4 * (" + col + " / 8) + 2 * (" + row + " / 8) + " + col + " % 2)";
  MmaTiles tiles = mma_tiles(y);
  return tiles.pick(row + " < " + num(8 * tiles.half_block_row()),
                    "((" + row + " / 16 * " + num(tiles.tiles_per_row) + " + " + col + " / 8) * 4 + " + row + " % 16 / 8 * 2 + " +
                        col + " % 2)",
                    "(" + num(tiles.whole_values()) + " + 2 * (" + col + " / 8) + " + col + " % 2)");
}

std::string Emitter::acc_lane(const std::string& row, const std::string& col) {
  // Lane 4g + t has its corner at row g, column 2t of each 8 x 8 block
  // (split_place()).
  return "4 * ((" + row + ") % 8) + (" + col + ") % 8 / 2";
}

std::string Emitter::shuffle(const FragShape& y, const std::string& array, const std::string& slot, const std::string& lane,
                             const std::string& name, bool once) {
  // __shfl_sync moves 32 bits at least: a 16- or 8-bit value widened
  // (signed ones by sign), and narrowed again.
  std::string v = slot_read(y, array, slot);
  if (dtype_bits(y.dtype) < 32) v = std::string(y.dtype == DType::I8 || y.dtype == DType::I16 ? "(int)" : "(unsigned)") + v;
  (once ? fetch->once : fetch->statements).push_back("const auto " + name + " = __shfl_sync(0xffffffffu, " + v + ", " + lane + ");");
  return name;
}

std::string Emitter::read_array(SymbolId s) {
  if (!fetch || fetch->target != s) return name(s);
  fetch->reads_target = true;
  return name(s) + "_was";
}

std::optional<std::string> Emitter::other_place(SymbolId s, ByteRange at, const FragShape& y, const FragShape& result,
                                                const std::string& i, const std::array<int64_t, 2>& shift) {
  std::string array = read_array(s);
  // Names for this operand's values in the register loop's body.
  std::string tag = fetch ? std::to_string(fetch->statements.size()) : "";
  auto local = [&](const std::string& what, const std::string& type, const std::string& value) {
    if (!fetch) return "(" + value + ")";
    std::string v = "cake_" + what + tag;
    fetch->statements.push_back("const " + type + " " + v + " = " + value + ";");
    return v;
  };
  // A slot for registers outside the part too (their values are not used).
  auto within = [](const std::string& valid, const std::string& slot) { return "(" + valid + " ? " + slot + " : 0)"; };
  SplitPlace p = split_place(result, i);
  switch (result.layout) {
    case FragLayout::None: {
      // The thread's own values: plain indexing.
      ElementPlace q = place(result, i);
      if (y.dims.size() == 1) return slot_read(y, array, "(" + q.row + " + " + num(shift[0]) + ")");
      return slot_read(y, array, "((" + q.row + " + " + num(shift[0]) + ") * " + num(y.dims[1]) + " + " + q.col + " + " +
                                     num(shift[1]) + ")");
    }
    case FragLayout::Tcgen05Acc: {
      // Lane l holds row l, value c at column c.
      std::string column = local("c", "int", "(int)" + p.reg.col + " + " + num(shift[1]));
      std::string slot = local("q", "int", within(column + " >= 0 && " + column + " < " + num(y.dims[1]), column));
      if (shift[0] == 0) return slot_read(y, array, slot);
      if (!fetch) break;
      return "((" + slot_type(y) + ")" + shuffle(y, array, slot, "(int)((cake_lane + " + num(shift[0] + 32) + ") % 32)", "cake_f" + tag) +
             ")";
    }
    case FragLayout::MmaAcc: case FragLayout::WgmmaAcc: {
      // Lane 4g + t holds rows g (+ 8), columns 2t, 2t + 1 of each 8 x 8
      // block (of the warp's 16 rows for wgmma_acc); register i's block is
      // at (R, C) = split_place()'s offsets, its column C % 2 of the pair.
      // Rows and columns move by 8 A + a and 8 D + d (0 <= a, d < 8): the
      // value of row g + R lies in lane row (g + a) % 8 of block row
      // R + 8 A, or the next when g + a carries; of column 2t + C, column
      // (2t + b) % 8 with b = (C + d) % 8 of block column (C + d) / 8 + D,
      // or the next when 2t + b carries.
      auto floor8 = [](int64_t v) { return v >= 0 ? v / 8 : -((7 - v) / 8); };
      int64_t big_a = floor8(shift[0]), a = shift[0] - 8 * big_a, big_d = floor8(shift[1]), d = shift[1] - 8 * big_d;
      auto plus = [&](const std::string& v, int64_t k) { return k == 0 ? v : v + " + " + num(k); };
      std::string r = local("r", "int", "(int)" + p.reg.row), c = local("c", "int", plus("(int)" + p.reg.col, d));
      auto slot_at = [&](int row_carry, int col_carry) {
        // The value of y at the thread's corner of that block, if y has it.
        std::string carries = std::to_string(2 * row_carry + col_carry) + "_";
        std::string row = local("yr" + carries, "int", plus(r, 8 * (big_a + row_carry)));
        std::string col = local("yc" + carries, "int", "8 * " + plus("(" + c + " / 8", big_d + col_carry) + ") + " + c + " % 2");
        std::string valid = row + " >= 0 && " + row + " < " + num(y.layout == FragLayout::WgmmaAcc ? 16 : y.dims[0]) +
                            " && " + col + " >= 0 && " + col + " < " + num(y.dims[1]);
        return within(valid, acc_value_index(y, row, col));
      };
      if (a == 0 && d == 0) return slot_read(y, array, local("q", "int", slot_at(0, 0)));
      if (!fetch) break;
      std::string g = "(int)(cake_lane / 4)", t = "(int)(cake_lane % 4)";
      std::string source = local("s", "int", acc_lane(plus(g, a), "2 * " + t + " + " + c + " % 8"));
      std::string row_carry = a > 0 ? local("rc", "bool", plus(g, a) + " >= 8") : "";
      std::string col_carry = d > 0 ? local("cc", "bool", "2 * " + t + " + " + c + " % 8 >= 8") : "";
      // Every lane sends its value of each block the value may be in; each
      // keeps what its source lane sent of the block that holds it.
      auto candidate = [&](int rc, int cc) {
        std::string k = std::to_string(2 * rc + cc) + "_";
        return shuffle(y, array, local("q" + k, "int", slot_at(rc, cc)), source, "cake_f" + k + tag);
      };
      auto columns = [&](int rc) {
        std::string same = candidate(rc, 0);
        return col_carry.empty() ? same : "(" + col_carry + " ? " + candidate(rc, 1) + " : " + same + ")";
      };
      std::string value = columns(0);
      if (!row_carry.empty()) value = "(" + row_carry + " ? " + columns(1) + " : " + value + ")";
      return "((" + slot_type(y) + ")" + value + ")";
    }
    case FragLayout::MmaAccRow: case FragLayout::WgmmaAccRow: break;
  }
  refuse(at, fetch ? "`" + std::string(m.written(at)) + "` read at another place of a .row vector"
                   : "`" + std::string(m.written(at)) + "`, which other lanes hold, outside an assignment");
  return std::nullopt;
}

std::optional<std::string> Emitter::element_of(SymbolId s, ByteRange at, const FragShape& y, const std::vector<IndexItem>& items) {
  // Read once, before the register loop writes anything: the fragment's
  // own registers even where the assignment writes it.
  std::string array = name(s);
  if (y.layout == FragLayout::None) {
    // The thread's own value, at any index.
    std::vector<std::string> coordinates;
    for (const IndexItem& item : items) coordinates.push_back("(long long)(" + index(item.start) + ")");
    std::string flat = row_major(y.dims, coordinates);
    if (!fetch) return slot_read(y, array, flat);
    std::string v = fetch->next_once();
    fetch->once.push_back("const auto " + v + " = " + slot_read(y, array, flat) + ";");
    return v;
  }
  std::vector<int64_t> place;
  for (const IndexItem& item : items) {
    auto v = eval.fold(item.start);
    if (!v) {
      refuse(at, "`" + std::string(m.written(at)) + "`, an element of a warp's fragment at a place that is not a constant");
      return std::nullopt;
    }
    place.push_back(*v);
  }
  // The lane that holds it and its value there; every lane reads it from
  // that lane.
  std::string lane, slot;
  switch (y.layout) {
    case FragLayout::MmaAcc:
      lane = acc_lane(num(place[0]), num(place[1]));
      slot = acc_value_index(y, num(place[0] / 8 * 8), num(place[1] / 8 * 8 + place[1] % 2));
      break;
    case FragLayout::MmaAccRow:
      // Row r is row slot 2 (r / 16) + (r % 16) / 8 of lanes 4 (r % 8) ...
      lane = acc_lane(num(place[0]), "0");
      slot = num(2 * (place[0] / 16) + place[0] % 16 / 8);
      break;
    case FragLayout::Tcgen05Acc:
      lane = num(place[0]);
      slot = num(place[1]);
      break;
    case FragLayout::WgmmaAcc: case FragLayout::WgmmaAccRow: case FragLayout::None:
      refuse(at, "`" + std::string(m.written(at)) + "`, an element of a warpgroup's fragment, which one of its warps holds");
      return std::nullopt;
  }
  if (!fetch) {
    refuse(at, "`" + std::string(m.written(at)) + "`, which one lane holds, outside an assignment");
    return std::nullopt;
  }
  return "((" + slot_type(y) + ")" + shuffle(y, array, slot, lane, fetch->next_once(), true) + ")";
}

std::optional<std::string> Emitter::element_place(const Expr& call, const FragShape& result, const std::string& i) {
  // The place of element i of the result, which row(x) and col(x) give
  // when x is laid out as the result is.
  const Expr& x = m.exprs[call.args[0]];
  auto f = x.symbol == kNone ? std::nullopt : fragment(x.symbol, x.range);
  if (!f) return std::nullopt;
  if (f->layout != result.layout || f->dims != result.dims || result.dims.size() != 2) {
    refuse(call.range, "`" + std::string(m.written(call.range)) + "` where the result has another shape or layout");
    return std::nullopt;
  }
  ElementPlace p = place(result, i);
  return call.text == "row" ? p.row : p.col;
}

DType Emitter::value_dtype(ExprId id) {
  if (auto it = value_dtype_.find(id); it != value_dtype_.end()) return it->second;
  Typed t = Typer(m, nullptr).type_of(id);
  DType dtype = t.literal ? DType::Unknown : t.dtype;
  value_dtype_.emplace(id, dtype);
  return dtype;
}

bool Emitter::integer_valued(ExprId id) {
  DType t = value_dtype(id);
  return t != DType::Pred && t != DType::Unknown && !is_float(t);
}

std::string Emitter::element(ExprId id, const FragShape& result, const std::string& i, DType context) {
  const Expr& e = m.exprs[id];
  const bool f64 = context == DType::F64;
  // A value that is not a float fragment's, as this context computes it.
  const std::string widen = f64 ? "(double)" : "(float)";
  // The dtype an operand's literal takes beside the other operand `other`.
  auto beside = [&](ExprId other) {
    DType t = value_dtype(other);
    return t != DType::Unknown ? t : context;
  };
  // A 1-D shared-memory or global vector as wide as the result's rows:
  // broadcast over the rows (element (r, c) reads its c).
  if ((e.kind == Expr::Kind::Index || e.kind == Expr::Kind::Name) && result.dims.size() == 2) {
    SymbolId base = root_symbol(m, id);
    if (base != kNone && (m.symbols[base].kind == SymbolKind::Smem || m.symbols[base].kind == SymbolKind::TensorParam)) {
      auto dims = tile_dims(id);
      if (!dims) return "0";
      if (dims->size() != 1 || spread_of_extents(*dims, false, result.dims) != Spread::Columns) {
        refuse(e.range, "`" + std::string(m.written(e.range)) + "` as an operand of this shape");
        return "0";
      }
      const Symbol& b = m.symbols[base];
      if (memory_type(b.type.dtype).empty()) {
        refuse(e.range, dtype_with_article(b.type.dtype) + " operand of an element-wise expression");
        return "0";
      }
      auto at = address(id, place(result, i).col, "", 1);
      if (!at) return "0";
      if (narrow_float(b.type.dtype)) return to_f32(b.type.dtype, *at);
      return (b.type.dtype == DType::F64 ? "(double)" : widen) + *at;
    }
  }
  // Integer arithmetic inside a float expression (`cvt<f32>(k & 3)`, `k * 2
  // > 5`) is computed as integers, as the executor computes it.
  // Bitwise operators take integers only (E0103), literals too (`4 >> 3`).
  bool composite = e.kind == Expr::Kind::Unary || e.kind == Expr::Kind::Binary || e.kind == Expr::Kind::Call ||
                   e.kind == Expr::Kind::Cast;
  bool bitwise = e.kind == Expr::Kind::Binary && is_bitwise_operator(e.text);
  if (composite && (bitwise || integer_valued(id))) return widen + "(" + integer_element(id, result, i) + ")";
  if (e.kind == Expr::Kind::Index) {
    SymbolId base = root_symbol(m, id);
    if (base != kNone && m.symbols[base].kind == SymbolKind::Reg) {
      auto slot = part_operand(id, result, i);
      return slot ? value(base, *slot) : "0";
    }
  }
  switch (e.kind) {
    case Expr::Kind::Int: return float_literal(static_cast<double>(e.int_value), f64);
    case Expr::Kind::Float: return float_literal(e.float_value, f64);
    case Expr::Kind::Name: {
      if (e.symbol == kNone) break;
      const Symbol& s = m.symbols[e.symbol];
      if (s.kind == SymbolKind::Builtin && (s.name == "inf" || s.name == "nan")) return s.name == "inf" ? "CAKE_INF" : "CAKE_NAN";
      if (s.kind != SymbolKind::Reg) return widen + index(id);
      auto slot = operand_slot(e.symbol, e.range, result, i);
      return slot ? value(e.symbol, *slot) : "0";
    }
    case Expr::Kind::Field: return widen + index(id);
    case Expr::Kind::Unary: return "(" + std::string(e.text) + element(e.lhs, result, i, context) + ")";
    case Expr::Kind::Binary: {
      std::string op(e.text);
      if (op == "+" || op == "-" || op == "*" || op == "/")
        return "(" + element(e.lhs, result, i, beside(e.rhs)) + " " + op + " " + element(e.rhs, result, i, beside(e.lhs)) + ")";
      // C's fmod, as the executor's: exact, so f32 and f64 agree.
      if (op == "%")
        return std::string(value_dtype(id) == DType::F64 ? "fmod(" : "fmodf(") +
               element(e.lhs, result, i, beside(e.rhs)) + ", " + element(e.rhs, result, i, beside(e.lhs)) + ")";
      // A comparison is 1 or 0, as the executor has it (exec/src/tile.cpp);
      // of integers, compared as integers (beyond 2^24 an f32 is not exact).
      if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=") {
        bool float_literal_operand = m.exprs[e.lhs].kind == Expr::Kind::Float || m.exprs[e.rhs].kind == Expr::Kind::Float;
        if ((integer_valued(e.lhs) || integer_valued(e.rhs)) && !float_literal_operand)
          return "(float)(" + integer_element(e.lhs, result, i) + " " + op + " " + integer_element(e.rhs, result, i) + ")";
        return "(float)(" + element(e.lhs, result, i, beside(e.rhs)) + " " + op + " " + element(e.rhs, result, i, beside(e.lhs)) +
               ")";
      }
      if (op == "&&" || op == "||")
        return "(float)((" + element(e.lhs, result, i) + " != 0.0f) " + op + " (" + element(e.rhs, result, i) +
               " != 0.0f))";
      break;
    }
    case Expr::Kind::Call: {
      // The executor's semantics (exec/src/tile.cpp): max/min propagate NaN.
      if ((e.text == "max" || e.text == "min") && e.args.size() == 2)
        return std::string(e.text == "max" ? "CAKE_MAX" : "CAKE_MIN") + (value_dtype(id) == DType::F64 ? "_F64(" : "(") +
               element(e.args[0], result, i, beside(e.args[1])) + ", " + element(e.args[1], result, i, beside(e.args[0])) + ")";
      if (e.text == "select" && e.args.size() == 3)
        return "(" + element(e.args[0], result, i) + " != 0.0f ? " + element(e.args[1], result, i, beside(e.args[2])) + " : " +
               element(e.args[2], result, i, beside(e.args[1])) + ")";
      if ((e.text == "row" || e.text == "col") && e.args.size() == 1) {
        auto p = element_place(e, result, i);
        return p ? widen + *p : "0";
      }
      if (const UnaryBuiltin* b = find_unary_builtin(e.text); b && e.args.size() == 1)
        return std::string(value_dtype(id) == DType::F64 ? b->cuda_f64 : b->cuda) + "(" + element(e.args[0], result, i, context) + ")";
      break;
    }
    case Expr::Kind::Cast:
      // Arithmetic is f32: cvt<f32> widens (reading a 16-bit value already
      // does), cvt<bf16>/cvt<f16>/cvt<tf32> round to nearest even and widen again.
      // cvt<f64> makes the operand a double, and C++ then computes what it
      // meets in f64 (a per-thread f64 sum); cvt<f32> of an f64 value rounds.
      if (e.cast_type == DType::F64) return "(double)(" + element(e.lhs, result, i) + ")";
      if (e.cast_type == DType::F32 && value_dtype(e.lhs) == DType::F64)
        return "(float)(" + element(e.lhs, result, i) + ")";
      if (e.cast_type == DType::F32 && integer_valued(e.lhs))
        return "(float)(" + integer_element(e.lhs, result, i) + ")";
      if (e.cast_type == DType::F32) return element(e.lhs, result, i);
      if (e.cast_type == DType::BF16) return "CAKE_ROUND_BF16(" + element(e.lhs, result, i) + ")";
      if (e.cast_type == DType::F16) return "CAKE_ROUND_F16(" + element(e.lhs, result, i) + ")";
      if (e.cast_type == DType::TF32) return "CAKE_ROUND_TF32(" + element(e.lhs, result, i) + ")";
      break;
    case Expr::Kind::Bool: case Expr::Kind::Index: case Expr::Kind::Transpose:
    case Expr::Kind::Error:
      break;
  }
  refuse(e.range, "the element-wise expression `" + std::string(m.written(e.range)) + "`");
  return "0";
}

std::string Emitter::value(SymbolId s, const std::string& slot) const { return to_f32(m.symbols[s].type.dtype, slot); }

std::string Emitter::store_value(const FragShape& f, const std::string& v) const {
  if (!is_float(f.dtype)) return "(" + ctype(f.dtype) + ")(" + v + ")";
  const NarrowFloat* n = narrow_float(f.dtype);
  return n ? std::string(n->from_f32) + "(" + v + ")" : v;
}

namespace {

/// The coordinates of a tile of rank `tile_rank` (at most 2) at (row, col).
std::vector<std::string> coordinates(const std::string& row, const std::string& col, int tile_rank) {
  std::vector<std::string> coords;
  if (tile_rank >= 1) coords.push_back(row);
  if (tile_rank >= 2) coords.push_back(col);
  return coords;
}

}  // namespace

std::vector<std::string> Emitter::row_coordinates(const std::vector<int64_t>& tile, const std::vector<size_t>& runs,
                                                  const std::string& row, const std::string& column) {
  std::vector<std::string> coords(tile.size());
  coords[runs.back()] = column;
  int64_t below = 1;  // rows per step of the outer dim at runs[i]
  for (size_t i = runs.size() - 1; i-- > 0;) {
    size_t d = runs[i];
    std::string c = below == 1 ? row : "(" + row + " / " + std::to_string(below) + ")";
    coords[d] = i == 0 ? c : "(" + c + " % " + std::to_string(tile[d]) + ")";
    below *= tile[d];
  }
  return coords;
}

std::optional<std::vector<size_t>> Emitter::tile_runs(ExprId id) {
  auto t = tile_in_buffer(m, eval, id);
  if (!t || !t->runs) return std::nullopt;
  return t->kept;
}

std::optional<Emitter::CopyRows> Emitter::copy_rows(const Stmt& s, const MoveStmt& mv, const std::vector<int64_t>& tile,
                                                    const std::string& op) {
  auto runs = tile_runs(mv.dst);
  if (!runs || runs != tile_runs(mv.src)) {
    refuse(s.range, "a " + op + " whose tiles do not run along both buffers' contiguous dim");
    return std::nullopt;
  }
  CopyRows out{*runs, 1, tile[runs->back()]};
  for (size_t i = 0; i + 1 < runs->size(); ++i) out.rows *= tile[(*runs)[i]];
  return out;
}

std::optional<OperandLayout> Emitter::operand_layout(ExprId id, const std::string& row, const std::string& col,
                                                    int tile_rank) {
  return operand_layout(id, coordinates(row, col, tile_rank));
}

std::optional<OperandLayout> Emitter::operand_layout(ExprId id, const std::vector<std::string>& tile_coords) {
  const Expr& e = m.exprs[id];
  auto [base, items] = operand_of(m, id);
  if (base == kNone) {
    refuse(e.range, "this operand form");
    return std::nullopt;
  }
  // A `dsmem` view is its buffer's layout at the peer's address (its own
  // pointer, declared where the view is).
  SymbolId storage = m.symbols[base].kind == SymbolKind::Dsmem ? m.symbols[base].tensor : base;
  if (storage == kNone) return std::nullopt;
  const Symbol& s = m.symbols[storage];
  if (s.kind != SymbolKind::TensorParam && s.kind != SymbolKind::Smem) {
    refuse(e.range, "a " + std::string(symbol_kind_name(s.kind)) + " as a memory operand");
    return std::nullopt;
  }
  OperandLayout out;
  out.base = base;
  out.storage = storage;
  // Dims: the stage dims (smem rings) first, then the tile's.
  out.stages = s.type.stage_dims.size();
  out.order = item_order(s.type);
  for (ExprId d : s.type.stage_dims) out.dims.push_back(index(d));
  for (ExprId d : s.type.dims) out.dims.push_back(index(d));
  // Each dim's index: an item's scalar, or a slice's start plus the tile's
  // row (then column), or for a dim left whole the tile's row (column).
  out.coordinate.assign(out.dims.size(), "0");
  for (size_t d = 0; d < out.dims.size(); ++d) {
    IndexItem::Kind kind = d < items.size() ? items[d].kind : IndexItem::Kind::Full;
    if (kind == IndexItem::Kind::Scalar) {
      out.coordinate[d] = index(items[d].start);
      continue;
    }
    if (d < out.stages) {
      refuse(e.range, "a ring buffer used without its stage index");
      return std::nullopt;
    }
    if (out.tile_dims.size() >= tile_coords.size()) {
      refuse(e.range, "an operand with more tile dims than its fragment");
      return std::nullopt;
    }
    const std::string& t = tile_coords[out.tile_dims.size()];
    out.tile_dims.push_back(d);
    out.coordinate[d] = kind == IndexItem::Kind::Slice ? "(" + index(items[d].start) + " + " + t + ")" : t;
  }
  if (out.tile_dims.size() != tile_coords.size()) {
    refuse(e.range, "an operand with fewer tile dims than its fragment");
    return std::nullopt;
  }
  if (s.kind == SymbolKind::Smem)
    for (const SmemSlot& x : facts.on(target).smem.slots)
      if (x.symbol == storage) out.slot = &x;
  // A ring's stages are whole tiles one after another, unless placed
  // apart (padded to a swizzle's repeat), and a swizzled tile's 16-byte
  // chunks move within each row group: both by byte offset from the stage.
  out.plain = !out.slot || (s.type.swizzle == Swizzle::None && out.slot->stride == out.slot->stage_bytes);
  return out;
}

std::string OperandLayout::linear(size_t from, size_t to) const {
  std::string out;
  for (size_t d : order)
    if (d >= from && d < to) out = out.empty() ? coordinate[d] : "(" + out + ") * " + dims[d] + " + " + coordinate[d];
  return out.empty() ? "0" : out;
}

std::string OperandLayout::stride(size_t d) const {
  std::string out;
  bool after = false;
  for (size_t e : order) {
    if (after) out += (out.empty() ? "" : " * ") + dims[e];
    after = after || e == d;
  }
  return out.empty() ? "1" : out;
}

std::optional<std::string> Emitter::address(ExprId id, const std::string& row, const std::string& col, int tile_rank) {
  return address(id, coordinates(row, col, tile_rank));
}

std::optional<std::string> Emitter::address(ExprId id, const std::vector<std::string>& coords) {
  auto l = operand_layout(id, coords);
  if (!l) return std::nullopt;
  if (l->plain) return name(l->base) + "[" + l->linear(0, l->dims.size()) + "]";
  const Symbol& s = m.symbols[l->storage];
  std::string stage = l->stages == 0 ? "0" : l->linear(0, l->stages);
  std::string bytes =
      "((" + l->linear(l->stages, l->dims.size()) + ") * " + std::to_string(stored_bits(s.type.dtype) / 8) + ")";
  if (s.type.swizzle != Swizzle::None) {
    SwizzleBits z = swizzle_bits(s.type.swizzle);
    bytes = "CAKE_SWIZZLE(" + bytes + ", " + std::to_string(z.row_shift) + ", " + std::to_string(z.mask) + ", " +
            std::to_string(z.chunk_shift) + ")";
  }
  return "(*(" + buffer_type(s.type.dtype) + "*)((unsigned char*)" + name(l->base) + " + (" + stage + ") * " +
         std::to_string(l->slot->stride) + " + " + bytes + "))";
}

std::optional<CornerAddress> Emitter::corner_address(ExprId id, const SplitPlace& p, int tile_rank) {
  auto l = operand_layout(id, p.thread.row, p.thread.col, tile_rank);
  if (!l || !l->plain) return std::nullopt;
  // The register's offset is its row times the row dim's stride (the dims
  // after it in memory order) plus its column times the column's.
  const std::string* offsets[2] = {&p.reg.row, &p.reg.col};
  std::string offset;
  for (size_t t = 0; t < l->tile_dims.size(); ++t) {
    std::string stride = l->stride(l->tile_dims[t]);
    std::string term = stride == "1" ? *offsets[t] : "(" + *offsets[t] + ") * " + stride;
    offset += (offset.empty() ? "" : " + ") + term;
  }
  return CornerAddress{"&" + name(l->base) + "[" + l->linear(0, l->dims.size()) + "]", offset.empty() ? "0" : offset,
                       !l->tile_dims.empty() && l->tile_dims.back() == l->order.back()};
}

std::optional<std::vector<int64_t>> Emitter::tile_dims(ExprId id, bool refusing) {
  auto [base, items] = operand_of(m, id);
  if (base == kNone) {
    if (refusing) refuse(m.exprs[id].range, "this operand form");
    return std::nullopt;
  }
  const Symbol& s = m.symbols[base];
  std::vector<ExprId> all(s.type.stage_dims.begin(), s.type.stage_dims.end());
  all.insert(all.end(), s.type.dims.begin(), s.type.dims.end());
  std::vector<int64_t> out;
  for (size_t d = 0; d < all.size(); ++d) {
    IndexItem::Kind kind = d < items.size() ? items[d].kind : IndexItem::Kind::Full;
    if (kind == IndexItem::Kind::Scalar) continue;
    auto v = eval.fold(kind == IndexItem::Kind::Slice ? items[d].extent : all[d]);
    if (!v || *v <= 0) {
      if (refusing) refuse(m.exprs[id].range, "a tile whose extent is not a constant");
      return std::nullopt;
    }
    out.push_back(*v);
  }
  return out;
}

std::optional<std::string> Emitter::tmem_address(ExprId id) {
  auto [base, items] = operand_of(m, id);
  if (base == kNone || m.symbols[base].kind != SymbolKind::Tmem) {
    refuse(m.exprs[id].range, "this tensor-memory operand");
    return std::nullopt;
  }
  const Symbol& s = m.symbols[base];
  const TmemPlan& plan = facts.on(target).tmem;
  const TmemBuffer* buffer = plan.find(base);
  if (!buffer || !buffer->valid || !buffer->two_dims || !buffer->stages || *buffer->stages <= 0) {
    refuse(s.decl, "this tensor-memory buffer");
    return std::nullopt;
  }
  // Items: the stage dims (whole stages, one after another in columns),
  // then lanes and columns (a scalar or a slice's start; 32-bit cells).
  size_t stages = s.type.stage_dims.size();
  if (items.size() != stages && items.size() != stages + 2) {
    refuse(m.exprs[id].range, "a tensor-memory operand that does not pick a stage and, if any, both lanes and columns");
    return std::nullopt;
  }
  int64_t stage_columns = *buffer->allocated / *buffer->stages;
  std::string stage = "0";
  for (size_t d = 0; d < stages; ++d) {
    if (items[d].kind != IndexItem::Kind::Scalar) {
      refuse(m.exprs[id].range, "a tensor-memory ring used without its stage index");
      return std::nullopt;
    }
    stage = "(" + stage + ") * " + index(s.type.stage_dims[d]) + " + " + index(items[d].start);
  }
  std::string address = stages == 0 ? name(base) : name(base) + " + (unsigned)((" + stage + ") * " + std::to_string(stage_columns) + ")";
  if (items.size() == stages) return address;
  auto start = [&](const IndexItem& item) { return item.kind == IndexItem::Kind::Full ? std::string("0") : index(item.start); };
  int64_t cells_per_element = plan.cell_bits / std::max<int64_t>(1, dtype_bits(s.type.dtype));
  std::string column = start(items[stages + 1]);
  if (cells_per_element > 1) column = "(" + column + ") / " + std::to_string(cells_per_element);
  // The first row's lane, where the buffer holds it (tmem_lane(): a
  // 64-lane buffer 16 rows to each quarter of lanes).
  std::string lane = start(items[stages]);
  if (int64_t q = buffer->lanes ? tmem_rows_per_quarter(*buffer->lanes) : kTmemQuarterLanes;
      q != kTmemQuarterLanes && lane != "0")
    lane = std::to_string(kTmemQuarterLanes) + " * ((" + lane + ") / " + std::to_string(q) + ") + (" + lane + ") % " +
           std::to_string(q);
  return address + " + ((unsigned)(" + lane + ") << 16) + (unsigned)(" + column + ")";
}

int64_t Emitter::alignment(ExprId id) {
  auto [base, items] = operand_of(m, id);
  if (base == kNone) return 1;
  const Symbol& s = m.symbols[base];
  // Every dim, outermost in memory first (stage dims, then the tile's in
  // its element order), with its index among the operand's items.
  std::vector<std::pair<ExprId, size_t>> all;
  size_t stages = s.type.stage_dims.size();
  for (size_t d : item_order(s.type)) all.push_back({d < stages ? s.type.stage_dims[d] : s.type.dims[d - stages], d});
  if (all.empty()) return 1;
  // Offset = sum over dims of coordinate × pitch (the product of the dims
  // after it in memory). Every dim but the innermost moves by its pitch;
  // the innermost by its start (a scalar index, a slice start, or 0).
  int64_t a = int64_t(1) << 40;
  for (size_t d = 0; d + 1 < all.size(); ++d) {
    int64_t pitch = 1;
    for (size_t e = d + 1; e < all.size(); ++e) pitch = std::min(int64_t(1) << 40, pitch * multiple_of(all[e].first));
    a = std::gcd(a, pitch);
  }
  size_t last = all.back().second;
  if (last < items.size() && items[last].kind != IndexItem::Kind::Full) a = std::gcd(a, multiple_of(items[last].start));
  return a;
}

}  // namespace cake::codegen
