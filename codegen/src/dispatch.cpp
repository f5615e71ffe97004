// A `dispatch` lowered to a host-side selector (cake/codegen/lower.h): the
// guards, in order, as C++ over the shape symbols they read, each symbol
// located at the dispatch parameter and dim where its kernel first writes
// it. See docs/lowering.md, "Dispatch".
#include "emitter.h"

#include <set>

namespace cake::codegen {
namespace {

struct Printer {
  const Module& m;
  DispatchSelector& out;
  std::set<SymbolId> symbols;  // shape symbols read, by the names they print as

  void refuse(ByteRange at, const std::string& what) {
    Diagnostic d;
    d.id = DiagId::NotLowered;
    d.severity = Severity::Error;
    d.range = at;
    d.message = what + " cannot be lowered to CUDA yet";
    out.diagnostics.push_back(std::move(d));
  }

  std::string expr(ExprId id) {
    const Expr& e = m.exprs[id];
    switch (e.kind) {
      case Expr::Kind::Int: return std::to_string(e.int_value) + "LL";
      case Expr::Kind::Bool: return e.int_value ? "true" : "false";
      case Expr::Kind::Name: {
        if (e.symbol == kNone) break;
        const Symbol& s = m.symbols[e.symbol];
        if (s.kind == SymbolKind::Const && s.value != kNone) return "(" + expr(s.value) + ")";
        if (s.kind != SymbolKind::ShapeSymbol) break;
        symbols.insert(e.symbol);
        return std::string(s.name);
      }
      case Expr::Kind::Unary: case Expr::Kind::Binary: case Expr::Kind::Call:
        if (auto c = composite_integer(e, [&](ExprId o) { return expr(o); })) return *c;
        break;
      case Expr::Kind::Float: case Expr::Kind::Field: case Expr::Kind::Cast: case Expr::Kind::Index:
      case Expr::Kind::Transpose: case Expr::Kind::Error:
        break;
    }
    refuse(e.range, "the guard expression `" + std::string(m.written(e.range)) + "`");
    return "0";
  }
};

/// Where kernel `k` first writes shape symbol `s`: (parameter, dim).
std::optional<std::pair<size_t, size_t>> first_write(const Module& m, uint32_t k, SymbolId s) {
  const Kernel& kernel = m.kernels[k];
  for (size_t p = 0; p < kernel.params.size(); ++p) {
    const std::vector<ExprId>& dims = m.symbols[kernel.params[p]].type.dims;
    for (size_t d = 0; d < dims.size(); ++d)
      if (m.exprs[dims[d]].kind == Expr::Kind::Name && m.exprs[dims[d]].symbol == s) return std::pair{p, d};
  }
  return std::nullopt;
}

}  // namespace

DispatchSelector lower_dispatch(const Analysis& a, uint32_t index) {
  DispatchSelector out;
  const Module& m = a.module;
  const Dispatch& d = m.dispatches.at(index);
  out.name = std::string(m.symbols[d.symbol].name);
  out.function = "cake_select_" + out.name;
  for (SymbolId p : d.params) out.params.push_back(std::string(m.symbols[p].name));
  if (auto e = file_error(a)) {
    out.diagnostics.push_back(std::move(*e));
    return out;
  }
  Printer print{m, out, {}};
  for (const DispatchCase& c : d.cases) {
    out.kernels.push_back(std::string(c.kernel));
    out.guards.push_back(c.guard == kNone ? "" : print.expr(c.guard));
  }
  // The selector's arguments: each name once, at its first write.
  std::set<std::string> named;
  for (SymbolId s : print.symbols) {
    std::string name(m.symbols[s].name);
    if (!named.insert(name).second) continue;
    auto at = first_write(m, m.symbols[s].kernel, s);
    if (!at) {
      print.refuse(m.symbols[s].def, "a shape symbol that no parameter's dim writes");
      continue;
    }
    out.inputs.push_back({name, at->first, at->second});
  }
  std::string signature, where;
  for (const DispatchInput& in : out.inputs) {
    signature += (signature.empty() ? "" : ", ") + std::string("long long ") + in.name;
    where += "// " + in.name + ": dim " + std::to_string(in.dim) + " of " + out.params.at(in.param) + "\n";
  }
  std::string& cpp = out.cpp;
  cpp += "// dispatch " + out.name + ": the index of the first case whose guard holds.\n" + where;
  cpp += "static inline int " + out.function + "(" + signature + ") {\n";
  bool has_else = false;
  for (size_t i = 0; i < d.cases.size(); ++i) {
    if (out.guards[i].empty()) {
      cpp += "  return " + std::to_string(i) + ";  // else: " + out.kernels[i] + "\n";
      has_else = true;
      break;
    }
    cpp += "  if (" + out.guards[i] + ") return " + std::to_string(i) + ";  // " + out.kernels[i] + "\n";
  }
  if (!has_else) cpp += "  return -1;  // no case takes this shape\n";
  cpp += "}\n";
  return out;
}

}  // namespace cake::codegen
