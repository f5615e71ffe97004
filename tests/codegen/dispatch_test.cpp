// A `dispatch` lowered to a host-side selector (codegen::lower_dispatch):
// the C++ it writes is compiled with the host compiler and, over a grid of
// shapes, picks the case the guards pick when the analysis's evaluator
// reads them in order (the first that holds, else the `else` case, else -1).
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/codegen/lower.h"
#include "cake/eval.h"
#include "support/test_files.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace cake;

/// The case the guards pick at `shape` (name -> value), read by the analysis.
int reference_pick(const Module& m, const Dispatch& d, const std::map<std::string, int64_t>& shape) {
  Evaluator eval(m);
  Env env;
  for (SymbolId s = 0; s < m.symbols.size(); ++s)
    if (m.symbols[s].kind == SymbolKind::ShapeSymbol)
      if (auto it = shape.find(std::string(m.symbols[s].name)); it != shape.end()) env.values[s] = it->second;
  for (size_t i = 0; i < d.cases.size(); ++i) {
    if (d.cases[i].guard == kNone) return static_cast<int>(i);
    if (eval.eval(d.cases[i].guard, &env).value_or(0) != 0) return static_cast<int>(i);
  }
  return -1;
}

/// Compiles `sel` as a shared object and returns its selector.
void* build(const codegen::DispatchSelector& sel, const fs::path& work) {
  fs::path source = work / (sel.name + ".cpp"), object = work / (sel.name + ".so");
  std::ofstream(source) << sel.cpp << "extern \"C\" int cake_entry(const long long* v) {\n  return " << sel.function
                        << "(" << [&] {
                             std::string args;
                             for (size_t i = 0; i < sel.inputs.size(); ++i)
                               args += (i ? ", v[" : "v[") + std::to_string(i) + "]";
                             return args;
                           }() << ");\n}\n";
  std::string command = std::string(CAKE_HOST_CXX) + " -std=c++20 -O1 -fPIC -shared " + source.string() + " -o " +
                        object.string();
  INFO(command << "\n" << sel.cpp);
  REQUIRE(std::system(command.c_str()) == 0);
  void* so = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(so != nullptr);
  return so;
}

void check_grid(const std::string& text, const fs::path& work, int expected_cases) {
  auto a = analyze(text);
  REQUIRE(count(a->diagnostics).errors == 0);
  const Module& m = a->module;
  REQUIRE(!m.dispatches.empty());
  codegen::DispatchSelector sel = codegen::lower_dispatch(*a, 0);
  REQUIRE(sel.ok());
  CHECK(static_cast<int>(sel.kernels.size()) == expected_cases);
  void* so = build(sel, work);
  using Entry = int (*)(const long long*);
  auto entry = reinterpret_cast<Entry>(dlsym(so, "cake_entry"));
  REQUIRE(entry != nullptr);
  std::set<int> picked;
  int shapes = 0;
  // Two symbols at most in these dispatches: a grid over both.
  std::vector<int64_t> values = {1, 2, 64, 127, 128, 129, 200, 256, 257, 384, 512, 1024, 1536};
  for (int64_t x : values)
    for (int64_t y : values) {
      std::map<std::string, int64_t> shape;
      std::vector<long long> args;
      for (size_t i = 0; i < sel.inputs.size(); ++i) {
        int64_t v = i == 0 ? x : y;
        shape[sel.inputs[i].name] = v;
        args.push_back(v);
      }
      int want = reference_pick(m, m.dispatches[0], shape);
      int got = entry(args.data());
      INFO(sel.cpp << "at " << x << ", " << y);
      CHECK(got == want);
      picked.insert(got);
      ++shapes;
    }
  dlclose(so);
  CHECK(shapes == 169);
  // Every case is picked somewhere on the grid.
  for (int c = 0; c < expected_cases; ++c) CHECK(picked.count(c) == 1);
}

}  // namespace

TEST_CASE("a dispatch's selector picks the case its guards pick") {
  fs::path work = fs::temp_directory_path() / ("cake-dispatch-" + std::to_string(::getpid()));
  fs::create_directories(work);
  SECTION("kmeans_dispatch: three cases and else, over N and K") {
    std::string text = cake::test::read_file(fs::path(CAKE_EXAMPLES_DIR) / "kmeans_dispatch.cake").value_or("");
    check_grid(text, work, 3);
    auto a = analyze(text);
    codegen::DispatchSelector sel = codegen::lower_dispatch(*a, 0);
    REQUIRE(sel.inputs.size() == 2);
    // N is X's dim 0, K is C's dim 0: where the first case kernel writes them.
    CHECK(sel.inputs[0].name == "N");
    CHECK(sel.params.at(sel.inputs[0].param) == "X");
    CHECK(sel.inputs[0].dim == 0);
    CHECK(sel.inputs[1].name == "K");
    CHECK(sel.params.at(sel.inputs[1].param) == "C");
  }
  SECTION("a guard with a constant and an else case") {
    std::string head = R"(target sm_80
const TILE = 128
kernel wide(X: global f32[N, M]) where N % TILE == 0 grid (N / TILE) block 128 { }
kernel any(X: global f32[N, M]) grid (cdiv(N, 128)) block 128 { }
)";
    check_grid(head + "dispatch pick(X) {\n  when N % TILE == 0 && M > 2 * TILE -> wide\n  else -> any\n}\n", work, 2);
    // Without the else, a shape no case takes is E0122: the file has an
    // error, and no selector is made.
    auto a = analyze(head + "dispatch pick(X) {\n  when N % TILE == 0 && M > 2 * TILE -> wide\n  when N <= 512 -> any\n}\n");
    REQUIRE(count(a->diagnostics).errors == 1);
    codegen::DispatchSelector sel = codegen::lower_dispatch(*a, 0);
    REQUIRE_FALSE(sel.ok());
    CHECK(sel.diagnostics[0].message.starts_with("a file with errors cannot be lowered"));
  }
  fs::remove_all(work);
}
