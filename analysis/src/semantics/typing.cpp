// Typer: inference over model expressions; see typing.h. Every error is
// reported once, at the innermost expression that is wrong, and the result
// is then Unknown so that enclosing expressions stay quiet.
#include "cake/typing.h"

#include "cake/broadcast.h"
#include "cake/builtins.h"
#include "diag_builder.h"

#include <algorithm>
#include <string>

namespace cake {
namespace {

constexpr int kMaxTypeDepth = 256;

bool is_row_layout(FragLayout l) { return l == FragLayout::MmaAccRow || l == FragLayout::WgmmaAccRow; }

bool is_comparison(std::string_view op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "&&" || op == "||";
}

}  // namespace

bool is_bitwise_operator(std::string_view op) { return op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>"; }

void Typer::report(Diagnostic d) {
  if (diags_) diags_->push_back(std::move(d));
}

std::string Typer::dim_text(ExprId d) const {
  if (auto v = eval_.fold(d)) return std::to_string(*v);
  if (d == kNone || d >= m_.exprs.size()) return "?";
  const Expr& e = m_.exprs[d];
  if (e.kind == Expr::Kind::Name) return std::string(e.text);
  return "?";
}

std::string Typer::shape_text(const std::vector<ExprId>& dims, size_t from) const {
  std::string s = "[";
  for (size_t i = from; i < dims.size(); ++i) {
    if (i > from) s += ", ";
    s += dim_text(dims[i]);
  }
  return s + "]";
}

bool Typer::dims_may_equal(ExprId a, ExprId b) const {
  auto va = eval_.fold(a), vb = eval_.fold(b);
  if (va && vb) return *va == *vb;
  if (a != kNone && b != kNone) {
    const Expr& x = m_.exprs[a];
    const Expr& y = m_.exprs[b];
    if (x.kind == Expr::Kind::Name && y.kind == Expr::Kind::Name && x.symbol != kNone && y.symbol != kNone &&
        (va || vb))
      return false;  // a known number against a symbol: the symbol may differ
  }
  return true;
}

Spread Typer::spread(const Typed& operand, const std::vector<ExprId>& onto) const {
  return spread_of(
      operand.dims.size(), is_row_layout(operand.layout), onto.size(),
      [&](size_t i, size_t j) { return dims_may_equal(operand.dims[i], onto[j]); },
      [&](size_t i) { return eval_.fold(operand.dims[i]) == std::optional<int64_t>(1); });
}

Typed Typer::type_of(ExprId e) { return type_depth(e, 0); }

Typed Typer::type_depth(ExprId id, int depth) {
  Typed t;
  if (id == kNone || id >= m_.exprs.size() || depth > kMaxTypeDepth) return t;
  const Expr& e = m_.exprs[id];
  switch (e.kind) {
    case Expr::Kind::Int:
    case Expr::Kind::Bool:
      t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.literal = true;
      return t;
    case Expr::Kind::Float:
      t.kind = Typed::Kind::Scalar, t.dtype = DType::F32, t.literal = true;
      return t;
    case Expr::Kind::Error:
      return t;
    case Expr::Kind::Name: {
      if (e.symbol == kNone) return t;
      const Symbol& s = m_.symbols[e.symbol];
      t.root = e.symbol;
      switch (s.kind) {
        case SymbolKind::Dsmem:
          // A view of a peer's mbarrier is a barrier in the dsmem space.
          if (s.tensor != kNone && m_.symbols[s.tensor].kind == SymbolKind::Mbarrier) {
            t.kind = m_.symbols[s.tensor].value != kNone ? Typed::Kind::BarrierArray : Typed::Kind::Barrier;
            t.space = Space::Dsmem;
            return t;
          }
          [[fallthrough]];
        case SymbolKind::TensorParam:
        case SymbolKind::Smem:
        case SymbolKind::Tmem:
        case SymbolKind::Reg:
          t.kind = Typed::Kind::Buffer;
          t.dtype = s.type.dtype;
          t.space = s.type.space;
          t.dims = s.type.stage_dims;
          t.dims.insert(t.dims.end(), s.type.dims.begin(), s.type.dims.end());
          t.stage_dims = s.type.stage_dims.size();
          t.layout = s.type.layout;
          return t;
        case SymbolKind::Mbarrier:
          t.kind = s.value != kNone ? Typed::Kind::BarrierArray : Typed::Kind::Barrier;
          return t;
        case SymbolKind::NamedBarrier:
          t.kind = Typed::Kind::NamedBarrier;
          return t;
        case SymbolKind::Tensormap:
          t.kind = Typed::Kind::Tensormap;
          t.dtype = s.type.dtype;
          t.dims = s.box;
          return t;
        case SymbolKind::Const:
        case SymbolKind::ShapeSymbol:
        case SymbolKind::LoopVar:
        case SymbolKind::StageVar:
          t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.space = Space::Scalar;
          return t;
        case SymbolKind::ScalarParam:
          t.kind = Typed::Kind::Scalar, t.dtype = s.type.dtype, t.space = Space::Scalar;
          return t;
        case SymbolKind::Let: {
          Typed v = type_depth(s.value, depth + 1);
          t.kind = Typed::Kind::Scalar, t.dtype = v.dtype, t.space = Space::Scalar, t.literal = v.literal;
          return t;
        }
        case SymbolKind::Builtin:
          if (s.name == "inf" || s.name == "nan") {
            t.kind = Typed::Kind::Scalar, t.dtype = DType::F32, t.literal = true;
          } else if (s.name == "lane") {
            t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.space = Space::Scalar;
          } else {
            t.kind = Typed::Kind::Other;
          }
          return t;
        case SymbolKind::Role:
        case SymbolKind::Kernel:
        case SymbolKind::Dispatch:
        case SymbolKind::DispatchParam:
          t.kind = Typed::Kind::Other;
          return t;
      }
      return t;
    }
    case Expr::Kind::Field: {
      const Expr* base = e.lhs == kNone ? nullptr : &m_.exprs[e.lhs];
      if (!base || base->kind != Expr::Kind::Name || base->symbol == kNone) return t;
      const Symbol& s = m_.symbols[base->symbol];
      static const std::pair<std::string_view, std::string_view> kFields[] = {
          {"block", "x"}, {"block", "y"}, {"block", "z"}, {"cluster", "rank"},
          {"role", "rank"}, {"warp", "id"}};
      bool ok = s.kind == SymbolKind::StageVar ? e.text == "phase" : false;
      if (s.kind == SymbolKind::Builtin)
        for (auto& [obj, field] : kFields) ok = ok || (obj == s.name && field == e.text);
      if (!ok) {
        report(make_diagnostic(DiagId::UndefinedName, e.range, "field",
                               std::string(base->text) + "." + std::string(e.text)));
        return t;
      }
      t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.space = Space::Scalar;
      return t;
    }
    case Expr::Kind::Index:
      return index(e, depth);
    case Expr::Kind::Transpose: {
      Typed b = type_depth(e.lhs, depth + 1);
      if (!b.is_buffer()) return b.kind == Typed::Kind::Unknown ? b : Typed{};
      if (b.dims.size() - b.stage_dims < 2) {
        report(make_diagnostic(DiagId::ShapeMismatch, e.range,
                               "`.T` needs a 2-D view; this one is " + shape_text(b.dims, b.stage_dims)));
        return {};
      }
      std::swap(b.dims[b.dims.size() - 1], b.dims[b.dims.size() - 2]);
      return b;
    }
    case Expr::Kind::Unary: {
      Typed v = type_depth(e.lhs, depth + 1);
      if (e.text == "!" && v.is_scalar()) v.dtype = DType::Pred;
      return v;
    }
    case Expr::Kind::Binary: {
      Typed l = type_depth(e.lhs, depth + 1);
      Typed r = type_depth(e.rhs, depth + 1);
      if (l.kind == Typed::Kind::Unknown || r.kind == Typed::Kind::Unknown) return {};
      if ((e.text == "<<" || e.text == ">>") && !l.literal && !is_float(l.dtype) && dtype_bits(l.dtype) > 1) {
        auto amount = eval_.fold(e.rhs);
        int64_t bits = dtype_bits(l.dtype);
        if (amount && (*amount < 0 || *amount >= bits)) {
          report(make_diagnostic(DiagId::ShiftOutOfRange, m_.exprs[e.rhs].range, m_.written(e.range), dtype_name(l.dtype),
                                 std::to_string(*amount), std::to_string(bits - 1)));
          return {};
        }
      }
      if (l.is_scalar() && r.is_scalar()) {
        Typed out = l.literal ? r : l;
        out.literal = l.literal && r.literal;
        if (is_comparison(e.text)) out.dtype = DType::Pred, out.literal = false;
        return out;
      }
      Typed out = elementwise(e, {l, r}, {e.lhs, e.rhs});
      if (out.is_buffer() && is_comparison(e.text)) out.dtype = DType::Pred;
      if (out.is_buffer() && is_bitwise_operator(e.text) && is_float(out.dtype)) {
        report(make_diagnostic(DiagId::DtypeMismatch, e.range,
                               "`" + std::string(e.text) + "` takes integers, and its operands are " +
                                   std::string(dtype_name(out.dtype)) + ": convert them with cvt<i32>(...) first"));
        return {};
      }
      return out;
    }
    case Expr::Kind::Call:
      return call(e, depth);
    case Expr::Kind::Cast: {
      Typed v = type_depth(e.lhs, depth + 1);
      if (v.kind == Typed::Kind::Unknown) return v;
      if (!v.is_buffer() && !v.is_scalar()) {
        report(make_diagnostic(DiagForm::CvtOperand, e.range));
        return {};
      }
      v.dtype = e.cast_type;
      v.literal = false;
      if (v.is_buffer()) v.space = Space::Reg;
      return v;
    }
  }
  return t;
}

Typed Typer::index(const Expr& e, int depth) {
  Typed b = type_depth(e.lhs, depth + 1);
  for (const IndexItem& item : e.items) {
    // Index expressions are scalars; type them for their own diagnostics.
    Typed s = type_depth(item.start, depth + 1);
    Typed x = type_depth(item.extent, depth + 1);
    for (const Typed* v : {&s, &x})
      if (v->is_buffer()) {
        std::string_view what = v->root != kNone ? m_.symbols[v->root].name : std::string_view("index");
        report(make_diagnostic(DiagId::WrongKind, item.range, what, "a buffer", "an integer index"));
      }
  }
  const std::string_view name = e.lhs != kNone ? m_.exprs[e.lhs].text : std::string_view("value");
  auto rank_error = [&](size_t dims) {
    report(make_diagnostic(DiagId::RankMismatch, e.range, name.empty() ? "value" : name, dims, e.items.size()));
    return Typed{};
  };
  switch (b.kind) {
    case Typed::Kind::Unknown:
      return b;
    case Typed::Kind::BarrierArray:
      if (e.items.size() != 1 || e.items[0].kind != IndexItem::Kind::Scalar) return rank_error(1);
      b.kind = Typed::Kind::Barrier;
      return b;
    case Typed::Kind::Barrier:
      report(make_diagnostic(DiagId::RankMismatch, e.range, name, 0, e.items.size()));
      return {};
    case Typed::Kind::Tensormap: {
      if (e.items.size() != b.dims.size()) {
        Diagnostic d = make_diagnostic(DiagId::RankMismatch, e.range, name, b.dims.size(), e.items.size());
        d.message += ": a tensormap takes one coordinate per box dim";
        if (b.root != kNone) d.related.push_back({m_.symbols[b.root].decl, "tensormap declared here"});
        report(std::move(d));
        return {};
      }
      for (const IndexItem& item : e.items)
        if (item.kind != IndexItem::Kind::Scalar) {
          report(make_diagnostic(DiagId::WrongKind, item.range, "slice", "a slice",
                                 "a coordinate (tensormap coordinates are element offsets)"));
          return {};
        }
      b.kind = Typed::Kind::TensormapTile;
      b.space = Space::Global;
      return b;
    }
    case Typed::Kind::Buffer: {
      if (e.items.size() > b.dims.size()) {
        Diagnostic d = make_diagnostic(DiagId::RankMismatch, e.range, name, b.dims.size(), e.items.size());
        if (b.root != kNone) d.related.push_back({m_.symbols[b.root].decl, "declared here"});
        report(std::move(d));
        return {};
      }
      std::vector<ExprId> dims;
      size_t stages = b.stage_dims;
      for (size_t i = 0; i < b.dims.size(); ++i) {
        if (i >= e.items.size()) {
          dims.push_back(b.dims[i]);
          continue;
        }
        const IndexItem& item = e.items[i];
        if (item.kind == IndexItem::Kind::Scalar) {
          if (i < b.stage_dims) --stages;
        } else {
          if (i < b.stage_dims) {
            report(make_diagnostic(DiagId::WrongKind, item.range, "slice", "a slice",
                                   "a stage index (the leading dims of a ring select one stage)"));
            return {};
          }
          dims.push_back(item.kind == IndexItem::Kind::Slice ? item.extent : b.dims[i]);
        }
      }
      b.dims = std::move(dims);
      b.stage_dims = stages;
      return b;
    }
    case Typed::Kind::Scalar:
    case Typed::Kind::NamedBarrier:
    case Typed::Kind::TensormapTile:
    case Typed::Kind::Other: {
      std::string_view what = b.kind == Typed::Kind::Scalar          ? "a scalar"
                              : b.kind == Typed::Kind::NamedBarrier ? "a named barrier"
                              : b.kind == Typed::Kind::TensormapTile ? "an indexed tensormap"
                                                                     : "not a value";
      if (b.root != kNone) what = symbol_kind_name(m_.symbols[b.root].kind);
      report(make_diagnostic(DiagId::WrongKind, m_.exprs[e.lhs].range, name, what, "a buffer that can be indexed"));
      return {};
    }
  }
  return {};
}

Typed Typer::elementwise(const Expr& e, std::vector<Typed> operands, const std::vector<ExprId>& ids) {
  Typed out;
  const Typed* widest = nullptr;
  for (const Typed& o : operands) {
    if (o.kind == Typed::Kind::Unknown) return {};
    if (!o.is_buffer() && !o.is_scalar()) {
      report(make_diagnostic(DiagId::WrongKind, e.range, "operand", "not a value", "a fragment or scalar"));
      return {};
    }
    if (o.is_buffer() && (o.space == Space::Global || o.space == Space::Const || o.space == Space::Tmem)) {
      std::string_view name = o.root != kNone ? m_.symbols[o.root].name : "operand";
      report(make_diagnostic(DiagId::WrongSpace, e.range,
                             "element-wise operand `" + std::string(name) + "` is in " +
                                 std::string(space_name(o.space)) +
                                 " memory: load it into registers first (only register fragments and smem are read "
                                 "directly)"));
      return {};
    }
    if (o.is_buffer() && o.stage_dims > 0) {
      std::string_view name = o.root != kNone ? m_.symbols[o.root].name : "operand";
      report(make_diagnostic(DiagId::RankMismatch, e.range, name, o.dims.size(), 0));
      return {};
    }
    if (o.is_buffer() && (!widest || o.dims.size() > widest->dims.size())) widest = &o;
  }
  // dtypes: non-literal operands, fragments and scalars, agree (no
  // implicit conversions).
  const Typed* typed = nullptr;
  size_t first = 0;
  for (size_t k = 0; k < operands.size(); ++k) {
    const Typed& o = operands[k];
    if (o.literal) continue;
    if (typed && typed->dtype != o.dtype && typed->dtype != DType::Unknown && o.dtype != DType::Unknown) {
      // On the operand that differs from the first, which it names.
      std::string want(dtype_name(typed->dtype)), cvt = "cvt<" + want + ">(";
      ByteRange at = m_.exprs[ids[k]].range, other = m_.exprs[ids[first]].range;
      Diagnostic d = make_diagnostic(DiagId::DtypeMismatch, at,
                                     "element-wise operands differ in dtype: " + want + " and " +
                                         std::string(dtype_name(o.dtype)) + "; convert one with " + cvt + "...)");
      d.related.push_back({other, "`" + std::string(m_.written(other)) + "` is " + want});
      d.fixes.push_back({"convert with " + cvt + "...)", {{{at.begin, at.begin}, cvt}, {{at.end, at.end}, ")"}}, true});
      report(std::move(d));
      return {};
    }
    if (!typed) typed = &o, first = k;
  }
  if (!widest) {  // only scalars
    out.kind = Typed::Kind::Scalar;
    out.dtype = operands[0].dtype;
    return out;
  }
  // Shapes (cake/broadcast.h): the result is the first operand of the most
  // dims that every other operand spreads over.
  auto spreads = [&](const Typed& o, const Typed& onto) {
    if (&o == &onto || !o.is_buffer()) return true;
    return spread(o, onto.dims) != Spread::None;
  };
  const Typed* onto = nullptr;
  for (const Typed& c : operands) {
    if (!c.is_buffer() || c.dims.size() != widest->dims.size()) continue;
    if (std::all_of(operands.begin(), operands.end(), [&](const Typed& o) { return spreads(o, c); })) {
      onto = &c;
      break;
    }
  }
  if (!onto) {
    const Typed* other = widest;
    for (const Typed& o : operands)
      if (o.is_buffer() && !spreads(o, *widest)) other = &o;
    if (other == widest)
      for (const Typed& o : operands)
        if (o.is_buffer() && &o != widest) other = &o;
    report(make_diagnostic(DiagId::ShapeMismatch, e.range,
                           "element-wise shapes " + shape_text(widest->dims) + " and " + shape_text(other->dims) +
                               " do not broadcast (dims align from the last; each must be equal or 1, and a `.row` "
                               "vector of length M spreads across the columns of [M, N])"));
    return {};
  }
  widest = onto;
  out = *widest;
  out.space = Space::Reg;
  out.root = kNone;
  out.literal = false;
  if (typed) out.dtype = typed->dtype;
  return out;
}

Typed Typer::call(const Expr& e, int depth) {
  std::string_view f = e.text;
  const BuiltinFunction* fn = find_builtin_function(f);
  if (!fn) {
    report(make_diagnostic(DiagId::BadCall, e.range, f));
    return {};
  }
  if (e.args.size() != static_cast<size_t>(fn->arity)) {
    report(make_diagnostic(DiagForm::CallArity, e.range, f, fn->arity, e.args.size()));
    return {};
  }
  if (f == "bytes") {
    Typed a = type_depth(e.args[0], depth + 1);
    if (a.kind == Typed::Kind::Unknown) return {};
    if (!a.is_buffer()) {
      report(make_diagnostic(DiagForm::BytesOperand, m_.exprs[e.args[0]].range));
      return {};
    }
    Typed t;
    t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.space = Space::Scalar;
    return t;
  }
  if (f == "cdiv") {
    for (ExprId a : e.args) {
      Typed v = type_depth(a, depth + 1);
      if (v.kind == Typed::Kind::Unknown) return {};
      if (!v.is_scalar()) {
        report(make_diagnostic(DiagForm::CdivOperand, m_.exprs[a].range));
        return {};
      }
    }
    Typed t;
    t.kind = Typed::Kind::Scalar, t.dtype = DType::I32, t.space = Space::Scalar;
    return t;
  }
  if (f == "row" || f == "col") {
    // Where each element of a whole 2-D fragment sits in its owner's tile.
    const Expr& x = m_.exprs[e.args[0]];
    Typed t = type_depth(e.args[0], depth + 1);
    if (t.kind == Typed::Kind::Unknown) return {};
    if (x.kind != Expr::Kind::Name || !t.is_buffer() || t.space != Space::Reg || t.dims.size() != 2) {
      report(make_diagnostic(DiagForm::PlaceOperand, x.range, f));
      return {};
    }
    t.dtype = DType::I32;
    t.root = kNone;
    t.literal = false;
    return t;
  }
  std::vector<Typed> args;
  for (ExprId a : e.args) args.push_back(type_depth(a, depth + 1));
  if (f == "select") {
    // The predicate only lends its shape; a and b give the dtype.
    Typed& c = args[0];
    if (c.kind == Typed::Kind::Unknown) return {};
    if ((c.is_buffer() || c.is_scalar()) && c.dtype != DType::Pred) {
      report(make_diagnostic(DiagForm::SelectCondition, m_.exprs[e.args[0]].range, dtype_name(c.dtype)));
      return {};
    }
    c.literal = true;
  }
  bool all_scalar = std::all_of(args.begin(), args.end(), [](const Typed& t) { return t.is_scalar(); });
  if (all_scalar) {
    Typed out = args.back();
    for (const Typed& t : args)
      if (!t.literal) out.dtype = t.dtype, out.literal = false;
    return out;
  }
  // `select(c, 2.0, 4.0)` over a pred fragment c: c lends only its shape,
  // so the value is a literal's, taking the dtype of what it meets.
  bool literal_values = f == "select" && args[1].literal && args[2].literal;
  DType literal_dtype = literal_values ? args[1].dtype : DType::Unknown;
  Typed out = elementwise(e, std::move(args), e.args);
  if (literal_values && out.kind != Typed::Kind::Unknown) out.dtype = literal_dtype, out.literal = true;
  return out;
}

}  // namespace cake
