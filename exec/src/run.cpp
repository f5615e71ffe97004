// run_kernel(): the grid, cluster by cluster; see cake/exec/run.h.
#include "cake/exec/run.h"

#include "world.h"

#include "cake/ops.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace cake::exec {

std::string_view problem_kind_name(RunProblem::Kind kind) {
  switch (kind) {
    case RunProblem::Kind::Deadlock: return "deadlock";
    case RunProblem::Kind::Race: return "race";
    case RunProblem::Kind::Unsupported: return "unsupported";
    case RunProblem::Kind::OutOfBounds: return "out-of-bounds";
    case RunProblem::Kind::StepLimit: return "step-limit";
  }
  return "";
}

bool RunResult::completed() const {
  for (const RunProblem& p : problems)
    if (p.kind != RunProblem::Kind::Race) return false;
  return true;
}

namespace {

/// The loop and stage variables of a kernel whose loop's range reads `lane`
/// or such a variable (RunContext::lane_vars): reaches() visits statements
/// in program order, an outer loop before its body, so an inner loop's
/// range sees an outer loop's variable.
void collect_lane_vars(RunContext& ctx, const Kernel& k) {
  auto reads = [&](std::initializer_list<ExprId> es) {
    std::vector<SymbolId> free;
    for (ExprId e : es)
      if (e != kNone) ctx.eval.free_symbols(e, free);
    return std::any_of(free.begin(), free.end(), [&](SymbolId s) { return s == ctx.lane || ctx.lane_vars.count(s); });
  };
  auto note = [&](const Stmt& s) {
    if (const auto* f = std::get_if<ForStmt>(&s.node); f && reads({f->start, f->end, f->step}))
      ctx.lane_vars.insert(f->variable);
    if (const auto* p = std::get_if<PipelineStmt>(&s.node); p && reads({p->start, p->end, p->step}))
      ctx.lane_vars.insert({p->variable, p->stage});
    return false;
  };
  for (StmtId id : k.body) {
    const auto* r = std::get_if<RoleStmt>(&ctx.m.stmts[id].node);
    reaches(ctx.m, r ? r->body : std::vector<StmtId>{id}, note);
  }
}

/// The buffers some statement of `k` writes (the roots of move destinations).
std::set<SymbolId> written_symbols(const Module& m, const Kernel& k) {
  std::set<SymbolId> out;
  for (const Stmt& s : m.stmts) {
    if (s.range.begin < k.range.begin || s.range.end > k.range.end) continue;
    const auto* mv = std::get_if<MoveStmt>(&s.node);
    if (!mv) continue;
    // A `tma.store` writes the tensor its tensormap describes.
    SymbolId root = root_symbol(m, mv->dst);
    if (root != kNone && m.symbols[root].kind == SymbolKind::Tensormap) root = m.symbols[root].tensor;
    out.insert(root);
  }
  return out;
}

/// The fragments an async op writes (a wgmma accumulator, a tcgen05.ld
/// destination): the only fragments that can race, since every other is
/// touched by its owner alone, in program order.
std::set<SymbolId> async_fragments(const Module& m, const Kernel& k) {
  std::set<SymbolId> out;
  auto add = [&](Op op, ExprId dst) {
    SymbolId root = root_symbol(m, dst);
    if (op_info(op).completion != OpCompletion::Immediate && root != kNone && m.symbols[root].kind == SymbolKind::Reg)
      out.insert(root);
  };
  for (const Stmt& s : m.stmts) {
    if (s.range.begin < k.range.begin || s.range.end > k.range.end) continue;
    if (const auto* mv = std::get_if<MoveStmt>(&s.node)) add(mv->op, mv->dst);
    if (const auto* mm = std::get_if<MmaStmt>(&s.node)) add(mm->op, mm->acc);
  }
  return out;
}

}  // namespace

RunResult run_kernel(const Module& m, uint32_t kernel, const std::vector<std::pair<SymbolId, int64_t>>& shape,
                     std::vector<TensorData> inputs, const RunOptions& options) {
  RunResult result;
  RunContext ctx(m, kernel);
  ctx.max_steps = options.max_steps;
  ctx.max_elements = options.max_elements;
  ctx.schedule = options.schedule;
  for (const auto& [sym, v] : shape) ctx.shape.values[sym] = v;
  const Kernel& k = m.kernels[kernel];
  auto fail = [&](std::string message) {
    RunProblem p;
    p.kind = RunProblem::Kind::Unsupported;
    p.at = k.range;
    p.message = std::move(message);
    result.problems.push_back(std::move(p));
    result.tensors = std::move(inputs);
    return std::move(result);
  };

  // A kernel that reads `lane` runs lane-serial (world.h).
  for (SymbolId id = 0; id < m.symbols.size() && m.symbols[id].kind == SymbolKind::Builtin; ++id)
    if (m.symbols[id].name == "lane") {
      ctx.lane = id;
      for (ByteRange use : m.symbols[id].uses)
        if (use.begin >= k.range.begin && use.end <= k.range.end) ctx.lane_mode = true;
    }
  if (ctx.lane_mode) collect_lane_vars(ctx, k);
  auto roles = kernel_roles(m, ctx.eval, kernel);
  if (!roles) return fail("the kernel's roles or block size are not known constants");
  ctx.roles = std::move(*roles);
  if (inputs.size() != k.params.size()) return fail("one input per parameter is needed");
  std::set<SymbolId> written = written_symbols(m, k);
  ctx.async_fragments = async_fragments(m, k);
  for (size_t i = 0; i < k.params.size(); ++i) {
    SymbolId p = k.params[i];
    const Symbol& s = m.symbols[p];
    TensorData& in = inputs[i];
    if (s.kind == SymbolKind::ScalarParam) {
      double v = in.values.empty() ? 0.0 : in.values[0];
      ctx.scalars[p] = v;
      if (!is_float(s.type.dtype)) ctx.shape.values[p] = static_cast<int64_t>(v);
      continue;
    }
    Storage st;
    st.symbol = p;
    st.name = s.name;
    st.dtype = s.type.dtype;
    st.space = s.type.space;
    st.order = s.type.order;
    std::vector<int64_t> dims;
    for (ExprId d : s.type.dims) {
      auto v = ctx.eval.eval(d, &ctx.shape);
      if (!v || *v < 0) return fail("the shape of `" + std::string(s.name) + "` is not known under this shape");
      dims.push_back(*v);
    }
    if (!st.shape(dims, 0.0, options.max_elements))
      return fail("`" + std::string(s.name) + "` is larger than the CPU executor holds (" +
                  std::to_string(options.max_elements) + " elements): give a smaller shape");
    if (in.values.size() != st.data.size())
      return fail("`" + std::string(s.name) + "` needs " + std::to_string(st.data.size()) + " values, got " +
                  std::to_string(in.values.size()));
    st.data = in.values;
    st.writers.assign(st.data.size(), kNone);
    st.tracked = written.count(p) != 0;
    ctx.globals.emplace(p, std::move(st));
  }

  // The grid and the cluster, x fastest.
  int64_t grid[3] = {1, 1, 1}, cluster[3] = {1, 1, 1};
  for (size_t d = 0; d < k.grid.size() && d < 3; ++d) {
    auto v = ctx.eval.eval(k.grid[d], &ctx.shape);
    if (!v || *v <= 0) return fail("the grid is not known under this shape");
    grid[d] = *v;
  }
  for (size_t d = 0; d < k.cluster.size() && d < 3; ++d) {
    auto v = ctx.eval.eval(k.cluster[d], &ctx.shape);
    if (!v || *v <= 0 || grid[d] % *v != 0) return fail("the cluster does not divide the grid");
    cluster[d] = *v;
  }
  int64_t total = grid[0] * grid[1] * grid[2];
  int64_t done = 0;
  uint64_t seed = options.schedule;
  for (int64_t z = 0; z < grid[2] && !ctx.stop; z += cluster[2])
    for (int64_t y = 0; y < grid[1] && !ctx.stop; y += cluster[1])
      for (int64_t x = 0; x < grid[0] && !ctx.stop; x += cluster[0]) {
        std::vector<std::array<int64_t, 3>> blocks;
        for (int64_t dz = 0; dz < cluster[2]; ++dz)
          for (int64_t dy = 0; dy < cluster[1]; ++dy)
            for (int64_t dx = 0; dx < cluster[0]; ++dx) blocks.push_back({x + dx, y + dy, z + dz});
        // Entities are numbered per cluster: what another cluster did is
        // never ordered with this one's accesses, and never races with them
        // in shared memory, so global memory's history starts afresh.
        for (auto& [sym, st] : ctx.globals) st.history.clear();
        World world(ctx, std::move(blocks), seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(done));
        world.run();
        done += cluster[0] * cluster[1] * cluster[2];
        if (options.progress) options.progress(done, total);
      }

  result.ctas = done;
  result.statements = ctx.statements;
  result.problems = std::move(ctx.problems);
  for (size_t i = 0; i < k.params.size(); ++i) {
    auto it = ctx.globals.find(k.params[i]);
    if (it == ctx.globals.end()) continue;
    inputs[i].values = std::move(it->second.data);
    inputs[i].writers = std::move(it->second.writers);
  }
  result.tensors = std::move(inputs);
  return result;
}

}  // namespace cake::exec
