// Evaluator: integer evaluation with overflow checks; see eval.h.
#include "cake/eval.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>

namespace cake {
namespace {

constexpr int kMaxEvalDepth = 64;

/// An operator's one or two characters as one number, to switch on: the
/// evaluator runs for every corner point the bounds prover tries.
constexpr uint32_t op_code(std::string_view op) {
  return op.size() == 1 ? uint8_t(op[0]) : op.size() == 2 ? uint32_t(uint8_t(op[0])) << 8 | uint8_t(op[1]) : 0;
}

}  // namespace

std::optional<int64_t> Evaluator::eval(ExprId e, const Env* env) const { return eval_depth(e, env, 0); }

std::optional<int64_t> Evaluator::eval_depth(ExprId id, const Env* env, int depth) const {
  if (id == kNone || id >= m_.exprs.size() || depth > kMaxEvalDepth) return std::nullopt;
  const Expr& e = m_.exprs[id];
  auto sub = [&](ExprId x) { return eval_depth(x, env, depth + 1); };
  switch (e.kind) {
    case Expr::Kind::Int:
    case Expr::Kind::Bool:
      return e.int_value;
    case Expr::Kind::Name: {
      if (e.symbol == kNone) return std::nullopt;
      if (env) {
        auto it = env->values.find(e.symbol);
        if (it != env->values.end()) return it->second;
      }
      const Symbol& s = m_.symbols[e.symbol];
      if (s.kind == SymbolKind::Const || s.kind == SymbolKind::Let) return sub(s.value);
      return std::nullopt;
    }
    case Expr::Kind::Field: {
      if (!env || e.lhs == kNone) return std::nullopt;
      const Expr& base = m_.exprs[e.lhs];
      if (base.kind != Expr::Kind::Name || base.symbol == kNone) return std::nullopt;
      auto it = env->fields.find(base.symbol);
      if (it == env->fields.end()) return std::nullopt;
      auto f = it->second.find(e.text);
      if (f == it->second.end()) return std::nullopt;
      return f->second;
    }
    case Expr::Kind::Unary: {
      auto v = sub(e.lhs);
      if (!v) return std::nullopt;
      // Not checked(*v == INT64_MIN, -*v): the argument is computed, and
      // overflows, before the check can refuse it.
      if (e.text == "-") return *v == INT64_MIN ? std::nullopt : std::optional<int64_t>(-*v);
      if (e.text == "!") return int64_t(*v == 0);
      return v;
    }
    case Expr::Kind::Binary: {
      auto l = sub(e.lhs);
      if (!l) {
        // `false && x`, `true || x` are known without x.
        return std::nullopt;
      }
      if (e.text == "&&" && *l == 0) return 0;
      if (e.text == "||" && *l != 0) return 1;
      auto r = sub(e.rhs);
      if (!r) return std::nullopt;
      int64_t a = *l, b = *r, out = 0;
      std::string_view op = e.text;
      // The overflow test must run before `out` is read: function arguments
      // have no evaluation order.
      switch (op_code(op)) {
        case op_code("+"): return __builtin_add_overflow(a, b, &out) ? std::nullopt : std::optional<int64_t>(out);
        case op_code("-"): return __builtin_sub_overflow(a, b, &out) ? std::nullopt : std::optional<int64_t>(out);
        case op_code("*"): return __builtin_mul_overflow(a, b, &out) ? std::nullopt : std::optional<int64_t>(out);
        case op_code("/"): return b == 0 || (a == INT64_MIN && b == -1) ? std::nullopt : std::optional<int64_t>(a / b);
        case op_code("%"): return b == 0 || (a == INT64_MIN && b == -1) ? std::nullopt : std::optional<int64_t>(a % b);
        case op_code("=="): return int64_t(a == b);
        case op_code("!="): return int64_t(a != b);
        case op_code("<"): return int64_t(a < b);
        case op_code("<="): return int64_t(a <= b);
        case op_code(">"): return int64_t(a > b);
        case op_code(">="): return int64_t(a >= b);
        case op_code("&&"): return int64_t(a != 0 && b != 0);
        case op_code("||"): return int64_t(a != 0 || b != 0);
        case op_code("&"): return a & b;
        case op_code("|"): return a | b;
        case op_code("^"): return a ^ b;
        case op_code("<<"):
          return b < 0 || b > 62 || a < 0 || a > (INT64_MAX >> b) ? std::nullopt : std::optional<int64_t>(a << b);
        case op_code(">>"): return b < 0 || b > 63 ? std::nullopt : std::optional<int64_t>(a >> b);
      }
      return std::nullopt;
    }
    case Expr::Kind::Call: {
      if (e.text == "bytes" && e.args.size() == 1) {
        const Expr& arg = m_.exprs[e.args[0]];
        // bytes(buf), bytes(buf[s]) (one stage of a ring) and bytes of a
        // slice (buf[s][0 : 64, :]): the elements the operand selects (a
        // scalar index selects one along its dim, a slice its extent, a dim
        // left whole all of it) times the element's bytes.
        if (arg.kind == Expr::Kind::Name && arg.symbol != kNone) return bytes_of(m_.symbols[arg.symbol].type);
        std::vector<IndexItem> items;
        const Expr* x = &arg;
        while (x->kind == Expr::Kind::Index && x->lhs != kNone) {
          items.insert(items.begin(), x->items.begin(), x->items.end());
          x = &m_.exprs[x->lhs];
        }
        if (x == &arg || x->kind != Expr::Kind::Name || x->symbol == kNone) return std::nullopt;
        const ValueType& t = m_.symbols[x->symbol].type;
        std::vector<ExprId> dims(t.stage_dims.begin(), t.stage_dims.end());
        dims.insert(dims.end(), t.dims.begin(), t.dims.end());
        if (items.size() > dims.size()) return std::nullopt;
        int64_t elements = 1;
        for (size_t d = 0; d < dims.size(); ++d) {
          IndexItem::Kind kind = d < items.size() ? items[d].kind : IndexItem::Kind::Full;
          if (kind == IndexItem::Kind::Scalar) continue;
          auto n = sub(kind == IndexItem::Kind::Slice ? items[d].extent : dims[d]);
          if (!n || *n < 0 || __builtin_mul_overflow(elements, *n, &elements)) return std::nullopt;
        }
        int64_t bits = static_cast<int64_t>(dtype_bits(t.dtype));
        // bits × elements / 8, rounded up (docs/language.md, Types).
        if (bits <= 0 || __builtin_mul_overflow(elements, bits, &elements) || elements > INT64_MAX - 7) return std::nullopt;
        return (elements + 7) / 8;
      }
      std::vector<int64_t> args;
      for (ExprId a : e.args) {
        auto v = sub(a);
        if (!v) return std::nullopt;
        args.push_back(*v);
      }
      if (e.text == "cdiv" && args.size() == 2 && args[1] > 0) {
        int64_t out;
        if (__builtin_add_overflow(args[0], args[1] - 1, &out)) return std::nullopt;
        return out / args[1];
      }
      if (e.text == "max" && args.size() == 2) return std::max(args[0], args[1]);
      if (e.text == "min" && args.size() == 2) return std::min(args[0], args[1]);
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<int64_t> Evaluator::trips(ExprId start, ExprId end, ExprId step, const Env* env) const {
  auto a = eval(start, env), b = eval(end, env);
  auto s = step == kNone ? std::optional<int64_t>(1) : eval(step, env);
  if (!a || !b || !s || *s <= 0) return std::nullopt;
  if (*b <= *a) return 0;
  // end - start can overflow (a = INT64_MIN), and so can the rounding up.
  int64_t span = 0;
  if (__builtin_sub_overflow(*b, *a, &span)) return std::nullopt;
  return span / *s + (span % *s != 0);
}

std::optional<int64_t> Evaluator::bytes_of(const ValueType& type, size_t skip_dims) const {
  return bits_times_elements(type, skip_dims, dtype_bits(type.dtype));
}

std::optional<int64_t> Evaluator::stored_bytes_of(const ValueType& type, size_t skip_dims) const {
  bool stored = type.space == Space::Smem || type.space == Space::Tmem;
  return bits_times_elements(type, skip_dims, stored ? stored_bits(type.dtype) : dtype_bits(type.dtype));
}

std::optional<int64_t> Evaluator::bits_times_elements(const ValueType& type, size_t skip_dims, unsigned bits) const {
  if (bits == 0) return std::nullopt;
  int64_t elements = 1;
  size_t index = 0;
  auto mul = [&](ExprId d) -> bool {
    if (index++ < skip_dims) return true;
    auto v = fold(d);
    if (!v || *v < 0) return false;
    return !__builtin_mul_overflow(elements, *v, &elements);
  };
  for (ExprId d : type.stage_dims)
    if (!mul(d)) return std::nullopt;
  for (ExprId d : type.dims)
    if (!mul(d)) return std::nullopt;
  int64_t total_bits;
  if (__builtin_mul_overflow(elements, int64_t(bits), &total_bits)) return std::nullopt;
  return (total_bits + 7) / 8;
}

void Evaluator::free_symbols(ExprId id, std::vector<SymbolId>& out) const {
  // Iterative: expressions can be deep.
  llvm::SmallVector<std::pair<ExprId, int>, 32> work{{id, 0}};
  while (!work.empty()) {
    auto [x, depth] = work.back();
    work.pop_back();
    if (x == kNone || x >= m_.exprs.size() || depth > kMaxEvalDepth) continue;
    const Expr& e = m_.exprs[x];
    if (e.kind == Expr::Kind::Name && e.symbol != kNone) {
      if (std::find(out.begin(), out.end(), e.symbol) == out.end()) {
        out.push_back(e.symbol);
        const Symbol& s = m_.symbols[e.symbol];
        if (s.kind == SymbolKind::Let || s.kind == SymbolKind::Const) work.push_back({s.value, depth + 1});
      }
      continue;
    }
    work.push_back({e.lhs, depth + 1});
    work.push_back({e.rhs, depth + 1});
    for (ExprId a : e.args) work.push_back({a, depth + 1});
    for (const IndexItem& i : e.items) {
      work.push_back({i.start, depth + 1});
      work.push_back({i.extent, depth + 1});
    }
  }
}

}  // namespace cake
