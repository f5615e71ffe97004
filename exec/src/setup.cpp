// The shape and inputs of a run; see cake/exec/setup.h.
#include "cake/exec/setup.h"

#include "cake/exec/numeric.h"
#include "facts/samples.h"
#include "cake/eval.h"

namespace cake::exec {

std::vector<size_t> kernel_benches(const Module& m, uint32_t kernel) {
  std::vector<size_t> out;
  for (size_t i = 0; i < m.benches.size(); ++i) {
    SymbolId k = m.benches[i].kernel_symbol;
    if (k != kNone && m.symbols[k].kernel == kernel) out.push_back(i);
  }
  return out;
}

NamedShape named_shape(const Module& m, const Shape& shape) {
  NamedShape out;
  for (const auto& [symbol, value] : shape) out.emplace_back(std::string(m.symbols[symbol].name), value);
  return out;
}

ShapeChoice choose_shape(const Module& m, uint32_t kernel, int64_t bench, const NamedShape& overrides) {
  ShapeChoice out;
  const Kernel& k = m.kernels[kernel];
  Evaluator eval(m);
  Env env;
  if (bench >= 0) {
    for (const BenchBinding& b : m.benches[static_cast<size_t>(bench)].bindings)
      if (b.symbol != kNone)
        if (auto v = eval.fold(b.value)) env.values[b.symbol] = *v;
  } else if (auto smallest = bounded_shape(m, eval, kernel, 0)) {
    env = std::move(*smallest);
  }
  for (const auto& [name, value] : overrides) {
    SymbolId sym = kNone;
    for (SymbolId s : k.shape_symbols)
      if (m.symbols[s].name == name) sym = s;
    if (sym == kNone) {
      out.error = "`" + name + "` is not a shape symbol of `" + std::string(m.symbols[k.symbol].name) + "`";
      return out;
    }
    env.values[sym] = value;
  }
  for (SymbolId s : k.shape_symbols) {
    auto it = env.values.find(s);
    if (it == env.values.end()) {
      out.error = "no value for `" + std::string(m.symbols[s].name) + "` (give one with --shape " +
                  std::string(m.symbols[s].name) + "=...)";
      return out;
    }
    out.values.push_back({s, it->second});
  }
  for (ExprId f : k.facts) {
    auto v = eval.eval(f, &env);
    if (v && *v == 0) {
      out.error = "the shape breaks the kernel's fact `" + std::string(m.written(m.exprs[f].range)) + "`";
      return out;
    }
  }
  out.text = describe(m, env, k.shape_symbols);
  return out;
}

bool make_inputs(const Module& m, uint32_t kernel, const Shape& shape, uint64_t seed, std::vector<TensorData>& out,
                 std::string& error, int64_t max_elements) {
  const Kernel& k = m.kernels[kernel];
  Evaluator eval(m);
  Env env;
  for (const auto& [s, v] : shape) env.values[s] = v;
  out.clear();
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Symbol& s = m.symbols[k.params[i]];
    TensorData t;
    t.param = k.params[i];
    t.name = std::string(s.name);
    t.dtype = s.type.dtype;
    t.order = s.type.order;
    if (s.kind == SymbolKind::ScalarParam) {
      auto it = env.values.find(k.params[i]);
      t.values = {it == env.values.end() ? 1.0 : static_cast<double>(it->second)};
      out.push_back(std::move(t));
      continue;
    }
    int64_t n = 1;
    for (ExprId d : s.type.dims) {
      auto v = eval.eval(d, &env);
      if (!v || *v < 0) {
        error = "the shape of `" + t.name + "` is not known";
        return false;
      }
      t.dims.push_back(*v);
      if (__builtin_mul_overflow(n, *v, &n) || n > max_elements) {
        error = "`" + t.name + "` is larger than the CPU executor holds (" + std::to_string(max_elements) +
                " elements): give a smaller shape";
        return false;
      }
    }
    t.values.assign(static_cast<size_t>(n), 0.0);
    fill_random(t.dtype, t.values, seed * 1000003u + i);
    out.push_back(std::move(t));
  }
  return true;
}

}  // namespace cake::exec
