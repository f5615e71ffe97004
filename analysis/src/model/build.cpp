// build_model(): CST -> typed model, resolving every name into the def-use
// table as it goes. It never fails: ERROR nodes and anything malformed are
// skipped (syntax_diagnostics() reports them), so the rest of a broken file
// still has a model for hover and completion. Diagnostics raised here are the
// ones only name resolution can see: undefined names (E0101), duplicates
// (E0102), misplaced declarations (E0113) and nesting depth (E0005).
//
// Scoping: file scope holds consts, kernels, dispatches and builtins, all
// visible everywhere (collected first). A kernel's scope holds its shape
// symbols, parameters and resources; every block opens a scope. Names are
// visible after their declaration; shadowing is not allowed (E0102), since a
// line should mean the same wherever an agent pastes it.
#include "model/build.h"

#include "diag_builder.h"
#include "model/cst.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <unordered_map>

namespace cake {
namespace {

constexpr int kMaxDepth = 256;

constexpr std::string_view kBuiltinNames[] = {"block", "cluster", "role", "warp", "lane", "inf", "nan"};

class Builder {
 public:
  Builder(std::string_view text, Module& m, std::vector<Diagnostic>& diags, const ItemSelection* selection)
      : text_(text), m_(m), diags_(diags), c_(Cst::get()), selection_(selection) {}

  void build(const SyntaxTree& tree) {
    // One expression per ~6 bytes, one statement per ~40: fewer regrowths.
    size_t bytes = selection_ ? selection_->bytes : text_.size();
    m_.exprs.reserve(bytes / 6 + 16);
    m_.stmts.reserve(bytes / 40 + 16);
    for (std::string_view name : kBuiltinNames) {
      Symbol s;
      s.kind = SymbolKind::Builtin;
      s.name = name;
      globals_[name] = add_symbol(std::move(s));
    }
    collect_globals(tree);
    for_each_item(tree, [&](TSNode n) { item(n); });
    for (Symbol& s : m_.symbols) {
      std::sort(s.uses.begin(), s.uses.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
      auto by_offset = [&](ExprId a, ExprId b) { return m_.exprs[a].range.begin < m_.exprs[b].range.begin; };
      if (!std::is_sorted(s.refs.begin(), s.refs.end(), by_offset)) std::sort(s.refs.begin(), s.refs.end(), by_offset);
    }
  }

 private:
  // Section - helpers

  TSNode field(TSNode node, TSFieldId f) const {
    return ts_node_is_null(node) ? TSNode{} : ts_node_child_by_field_id(node, f);
  }

  template <typename Fn>
  void each_field(TSNode node, TSFieldId f, Fn&& fn) const {
    if (!ts_node_is_null(node)) for_each_field(node, f, std::forward<Fn>(fn));
  }

  std::string_view text(TSNode n) const { return node_text(n, text_); }
  bool is(TSNode n, TSSymbol sym) const { return !ts_node_is_null(n) && ts_node_symbol(n) == sym; }

  SymbolId add_symbol(Symbol s) {
    m_.symbols.push_back(std::move(s));
    return static_cast<SymbolId>(m_.symbols.size() - 1);
  }

  SymbolId lookup(std::string_view name) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return it->second;
    auto g = globals_.find(name);
    if (g != globals_.end()) return g->second;
    return unbuilt_global(name, UINT32_MAX);
  }

  /// In a build of some items: the symbol of an item left out that declares
  /// `name` before byte `before`, made on first reference.
  SymbolId unbuilt_global(std::string_view name, uint32_t before) {
    if (!selection_ || !selection_->names) return kNone;
    auto t = selection_->names->find(name);
    if (t == selection_->names->end() || ts_node_start_byte(t->second.item) >= before) return kNone;
    TSNode item = t->second.item;
    SymbolKind kind = is(item, c_.const_item) ? SymbolKind::Const
                      : is(item, c_.kernel_item) ? SymbolKind::Kernel : SymbolKind::Dispatch;
    uint32_t saved = kernel_;
    kernel_ = kNone;
    Symbol s = make_symbol(kind, t->second.name, item);
    kernel_ = saved;
    SymbolId id = add_symbol(std::move(s));
    globals_[m_.symbols[id].name] = id;
    global_of_node_[ts_node_start_byte(item)] = id;
    return id;
  }

  /// Declares a symbol in the current scope, reporting a clash with any
  /// visible name.
  SymbolId declare(Symbol s) {
    SymbolId prev = lookup(s.name);
    SymbolId id = add_symbol(std::move(s));
    const Symbol& sym = m_.symbols[id];
    if (prev != kNone) duplicate(sym, m_.symbols[prev]);
    scope_.emplace_back(sym.name, id);
    return id;
  }

  void duplicate(const Symbol& now, const Symbol& before) {
    if (before.kind == SymbolKind::Builtin) {
      diags_.push_back(make_diagnostic(DiagId::DuplicateName, now.def, now.name, std::string(" (a builtin)")));
      return;
    }
    Diagnostic d = make_diagnostic(DiagId::DuplicateName, now.def, now.name, std::string());
    d.related.push_back({before.def, "first defined here"});
    diags_.push_back(std::move(d));
  }

  Symbol make_symbol(SymbolKind kind, TSNode name, TSNode decl) {
    Symbol s;
    s.kind = kind;
    s.name = text(name);
    s.def = node_range(name);
    s.decl = node_range(decl);
    s.kernel = kernel_;
    return s;
  }

  /// Sets the `parent` of `id`'s operands (built before it, still in cache).
  void adopt_operands(ExprId id) {
    const Expr& e = m_.exprs[id];
    auto adopt = [&](ExprId child) {
      if (child != kNone && child < m_.exprs.size()) m_.exprs[child].parent = id;
    };
    adopt(e.lhs);
    adopt(e.rhs);
    for (ExprId a : e.args) adopt(a);
    for (const IndexItem& item : e.items) {
      adopt(item.start);
      adopt(item.extent);
    }
  }

  /// The bytes from the start of `from` to the end of `to`.
  static ByteRange span(TSNode from, TSNode to) {
    return {ts_node_start_byte(from), ts_node_end_byte(to)};
  }

  void use(SymbolId id, ByteRange range) {
    if (id != kNone) m_.symbols[id].uses.push_back(range);
  }

  void undefined(std::string_view what, std::string_view name, ByteRange range) {
    Diagnostic d = make_diagnostic(DiagId::UndefinedName, range, what, name);
    // Offer the closest visible name as a fix.
    std::string_view best;
    // Short names have too many near neighbours for a guess to help.
    unsigned best_distance = name.size() >= 3 ? static_cast<unsigned>(name.size() / 3) + 1 : 0;
    auto consider = [&](std::string_view candidate) {
      if (candidate.empty()) return;
      unsigned dist = llvm::StringRef(candidate).edit_distance(llvm::StringRef(name), true, best_distance);
      // Ties go to the first in alphabetical order: the same in every build.
      if (dist < best_distance || (dist == best_distance && dist > 0 && !best.empty() && candidate < best))
        best = candidate, best_distance = dist;
    };
    if (best_distance > 0) {
      for (auto& [n, id] : scope_) consider(n);
      for (auto& [n, id] : globals_) consider(n);
      if (selection_ && selection_->names)
        for (auto& [n, g] : *selection_->names) consider(n);
    }
    if (!best.empty())
      d.fixes.push_back({"replace with `" + std::string(best) + "`", {{range, std::string(best)}}, true});
    diags_.push_back(std::move(d));
  }

  bool enter() {
    if (++depth_ <= kMaxDepth) return true;
    if (!too_deep_reported_) {
      too_deep_reported_ = true;
      diags_.push_back(make_diagnostic(DiagId::NestingTooDeep, current_range_, kMaxDepth));
    }
    return false;
  }
  void leave() { --depth_; }

  struct ScopeGuard {
    Builder& b;
    size_t mark;
    explicit ScopeGuard(Builder& builder) : b(builder), mark(builder.scope_.size()) {}
    ~ScopeGuard() { b.scope_.resize(mark); }
  };

  // Section - file scope

  /// The top-level items to build, in order, with how much of each.
  template <typename Fn>
  void for_each_item(const SyntaxTree& tree, Fn&& fn) {
    if (!selection_) {
      tree.for_each_root([&](TSNode root) { for_each_named_child(root, [&](TSNode n) { fn(n); }); });
      return;
    }
    for (auto [n, part] : selection_->items) {
      header_only_ = part == ItemPart::Header;
      fn(n);
    }
    header_only_ = false;
  }

  // Every item's name is declared, built or not, so that names resolve as
  // in a build of the whole file: items left out of a partial build are
  // declared on demand (unbuilt_global).
  void collect_globals(const SyntaxTree& tree) {
    for_each_item(tree, [&](TSNode item) {
      SymbolKind kind;
      if (is(item, c_.const_item)) kind = SymbolKind::Const;
      else if (is(item, c_.kernel_item)) kind = SymbolKind::Kernel;
      else if (is(item, c_.dispatch_item)) kind = SymbolKind::Dispatch;
      else return;
      TSNode name = field(item, c_.f.name);
      if (ts_node_is_null(name) || ts_node_is_missing(name)) return;
      Symbol s = make_symbol(kind, name, item);
      auto prev = globals_.find(s.name);
      SymbolId earlier = prev != globals_.end() ? prev->second : unbuilt_global(s.name, ts_node_start_byte(item));
      SymbolId id = add_symbol(std::move(s));
      if (earlier != kNone) {
        duplicate(m_.symbols[id], m_.symbols[earlier]);
        return;
      }
      globals_[m_.symbols[id].name] = id;
      global_of_node_[ts_node_start_byte(item)] = id;
    });
  }

  SymbolId global_for(TSNode item) const {
    auto it = global_of_node_.find(ts_node_start_byte(item));
    return it == global_of_node_.end() ? kNone : it->second;
  }

  void item(TSNode node) {
    current_range_ = node_range(node);
    TSSymbol sym = ts_node_symbol(node);
    if (sym == c_.target_item) target(node);
    else if (sym == c_.const_item) const_item(node);
    else if (sym == c_.kernel_item) kernel(node);
    else if (sym == c_.dispatch_item) dispatch(node);
    else if (sym == c_.bench_item) bench(node);
  }

  void target(TSNode node) {
    bool first_item = m_.target_range.end == 0 && m_.extra_target_items.empty();
    if (first_item) m_.target_range = node_range(node);
    else m_.extra_target_items.push_back(node_range(node));
    uint32_t previous_end = 0;
    each_field(node, c_.f.name, [&](TSNode name) {
      if (ts_node_is_missing(name)) return;
      Target t{text(name), node_range(name)};
      auto listed = std::find_if(m_.targets.begin(), m_.targets.end(), [&](const Target& o) { return o.name == t.name; });
      if (listed == m_.targets.end()) m_.targets.push_back(t);
      else if (first_item) m_.repeated_targets.push_back({t.range, listed->range, {previous_end, t.range.end}});
      previous_end = t.range.end;
    });
    if (!m_.items_before_target && m_.first_item_range.end == 0) m_.first_item_range = node_range(node);
  }

  void note_item(TSNode node) {
    if (m_.targets.empty() && m_.first_item_range.end == 0) {
      m_.first_item_range = node_range(node);
      m_.items_before_target = true;
    }
  }

  void const_item(TSNode node) {
    note_item(node);
    SymbolId id = global_for(node);
    ExprId value = expr(field(node, c_.f.value));
    if (id == kNone) return;
    m_.symbols[id].value = value;
    m_.symbols[id].type.space = Space::Scalar;
    m_.consts.push_back({id});
  }

  // Section - kernels

  void kernel(TSNode node) {
    note_item(node);
    SymbolId id = global_for(node);
    kernel_ = static_cast<uint32_t>(m_.kernels.size());
    m_.kernels.emplace_back();
    Kernel& k = m_.kernels.back();
    k.symbol = id;
    k.range = node_range(node);
    if (id != kNone) m_.symbols[id].kernel = kernel_;
    ScopeGuard scope(*this);

    TSNode params = field(node, c_.f.parameters);
    if (!ts_node_is_null(params)) {
      for_each_named_child(params, [&](TSNode p) { parameter(p); });
    }
    TSNode facts = field(node, c_.f.facts);
    if (!ts_node_is_null(facts))
      each_field(facts, c_.f.fact, [&](TSNode f) { cur().facts.push_back(expr(f)); });
    each_field(node, c_.f.launch, [&](TSNode clause) { launch(clause); });
    TSNode body = field(node, c_.f.body);
    for (auto [range, what] : {std::pair{cur().grid_range, "grid (X[, Y[, Z]])"}, std::pair{cur().block_range, "block THREADS"}}) {
      if (range.end > 0 || ts_node_is_null(body)) continue;
      ByteRange at{ts_node_start_byte(body), ts_node_start_byte(body)};
      diags_.push_back(
          make_diagnostic(DiagId::LaunchClause, node_range(field(node, c_.f.name)), text(field(node, c_.f.name)), what));
      (void)at;
    }
    if (!ts_node_is_null(body) && !header_only_) cur().body = block_statements(body, kNone);
    kernel_ = kNone;
  }

  Kernel& cur() { return m_.kernels[kernel_]; }

  void parameter(TSNode node) {
    TSNode name = field(node, c_.f.name);
    if (ts_node_is_null(name) || ts_node_is_missing(name)) return;
    if (is(node, c_.tensor_parameter)) {
      Symbol s = make_symbol(SymbolKind::TensorParam, name, node);
      TSNode space = field(node, c_.f.space);
      s.type.space = text(space) == "const" ? Space::Const : Space::Global;
      tensor_type(field(node, c_.f.type), s.type, /*introduce_symbols=*/true);
      attributes(node, s.type, SymbolKind::TensorParam);
      cur().params.push_back(declare(std::move(s)));
    } else if (is(node, c_.scalar_parameter)) {
      Symbol s = make_symbol(SymbolKind::ScalarParam, name, node);
      s.type.space = Space::Scalar;
      if (auto dt = parse_dtype(text(field(node, c_.f.type)))) s.type.dtype = *dt;
      cur().params.push_back(declare(std::move(s)));
    }
  }

  /// Fills dtype and dims from a tensor_type node. In parameter shapes an
  /// unknown name introduces a shape symbol.
  void tensor_type(TSNode node, ValueType& type, bool introduce_symbols) {
    if (ts_node_is_null(node)) return;
    if (is(node, c_.primitive_type)) {
      if (auto dt = parse_dtype(text(node))) type.dtype = *dt;
      return;
    }
    if (auto dt = parse_dtype(text(field(node, c_.f.dtype)))) type.dtype = *dt;
    type.written = node_range(node);
    std::vector<std::vector<ExprId>> shapes;
    each_field(node, c_.f.shape, [&](TSNode shape) {
      std::vector<ExprId> dims;
      each_field(shape, c_.f.dim, [&](TSNode d) {
        if (introduce_symbols && is(d, c_.identifier) && lookup(text(d)) == kNone) {
          Symbol s = make_symbol(SymbolKind::ShapeSymbol, d, d);
          s.type.space = Space::Scalar;
          s.type.dtype = DType::I64;
          SymbolId id = declare(std::move(s));
          cur().shape_symbols.push_back(id);
          dims.push_back(expr(d));
          // The defining occurrence is not a use (a MISSING name records none).
          std::vector<ByteRange>& uses = m_.symbols[id].uses;
          if (!uses.empty() && uses.back() == node_range(d)) uses.pop_back();
          std::vector<ExprId>& refs = m_.symbols[id].refs;
          if (!refs.empty() && refs.back() == dims.back()) refs.pop_back();
          return;
        }
        dims.push_back(expr(d));
      });
      shapes.push_back(std::move(dims));
    });
    if (shapes.empty()) return;
    type.dims = std::move(shapes.back());
    shapes.pop_back();
    for (auto& s : shapes) type.stage_dims.insert(type.stage_dims.end(), s.begin(), s.end());
  }

  void attributes(TSNode decl, ValueType& type, SymbolKind kind) {
    each_field(decl, c_.f.attribute, [&](TSNode a) {
      ByteRange r = node_range(a);
      if (is(a, c_.order_attribute)) {
        type.order = text(a) == "col_major" ? Order::ColMajor : Order::RowMajor;
        type.order_clause = r;
        if (kind != SymbolKind::TensorParam && kind != SymbolKind::Smem)
          diags_.push_back(make_diagnostic(DiagForm::AttributeNotTensor, r, text(a)));
      } else if (is(a, c_.swizzle_attribute)) {
        type.swizzle_clause = r;
        std::string_view mode = text(field(a, c_.f.mode));
        if (mode == "32B") type.swizzle = Swizzle::B32;
        else if (mode == "64B") type.swizzle = Swizzle::B64;
        else if (mode == "128B") type.swizzle = Swizzle::B128;
        else if (mode == "none") type.swizzle = Swizzle::None;
        else {
          Diagnostic d = make_diagnostic(DiagId::InvalidAttribute, node_range(field(a, c_.f.mode)), mode);
          diags_.push_back(std::move(d));
        }
        if (kind != SymbolKind::Smem && kind != SymbolKind::Tensormap)
          diags_.push_back(make_diagnostic(DiagForm::SwizzleNotSmem, r));
      } else if (is(a, c_.layout_attribute)) {
        std::string name(text(field(a, c_.f.name)));
        TSNode part = field(a, c_.f.part);
        if (!ts_node_is_null(part)) name += "." + std::string(text(part));
        FragLayout layout = FragLayout::None;
        for (FragLayout l : {FragLayout::MmaAcc, FragLayout::MmaAccRow, FragLayout::WgmmaAcc,
                             FragLayout::WgmmaAccRow, FragLayout::Tcgen05Acc})
          if (frag_layout_name(l) == name) layout = l;
        if (layout == FragLayout::None)
          diags_.push_back(make_diagnostic(DiagForm::UnknownLayout, r, name));
        type.layout = layout;
        if (kind != SymbolKind::Reg) diags_.push_back(make_diagnostic(DiagForm::LayoutNotReg, r));
      }
    });
  }

  void launch(TSNode clause) {
    Kernel& k = cur();
    ByteRange* seen = is(clause, c_.grid_clause)      ? &k.grid_range
                      : is(clause, c_.block_clause)   ? &k.block_range
                      : is(clause, c_.cluster_clause) ? &k.cluster_range
                                                      : &k.cta_group_range;
    if (seen->end > 0) {
      TSNode kw = ts_node_child(clause, 0);
      Diagnostic d = make_diagnostic(DiagForm::LaunchClauseTwice, node_range(kw), text(kw));
      d.related.push_back({*seen, "first given here"});
      d.fixes.push_back({"remove the repeated clause", {{node_range(clause), ""}}, false});
      diags_.push_back(std::move(d));
      return;
    }
    if (is(clause, c_.grid_clause)) {
      k.grid_range = node_range(clause);
      k.grid.clear();
      each_field(field(clause, c_.f.dims), c_.f.dim, [&](TSNode d) { cur().grid.push_back(expr(d)); });
    } else if (is(clause, c_.block_clause)) {
      k.block_range = node_range(clause);
      ExprId e = expr(field(clause, c_.f.threads));
      cur().block = e;
    } else if (is(clause, c_.cluster_clause)) {
      k.cluster_range = node_range(clause);
      k.nonportable = !ts_node_is_null(field(clause, c_.f.nonportable));
      k.cluster.clear();
      each_field(field(clause, c_.f.dims), c_.f.dim, [&](TSNode d) { cur().cluster.push_back(expr(d)); });
    } else if (is(clause, c_.cta_group_clause)) {
      // PTX's .cta_group::1 or ::2: a literal, read by every part that
      // lowers, simulates or costs the kernel.
      k.cta_group_range = node_range(clause);
      TSNode size = field(clause, c_.f.size);
      ExprId e = expr(size);
      std::optional<int64_t> v;
      if (e != kNone && m_.exprs[e].kind == Expr::Kind::Int) v = m_.exprs[e].int_value;
      if (v == 1 || v == 2) cur().cta_group = static_cast<int>(*v);
      else if (!ts_node_is_null(size) && !ts_node_is_missing(size))
        diags_.push_back(make_diagnostic(DiagForm::CtaGroupValue, node_range(size), text(size)));
    }
  }

  // Section - statements

  std::vector<StmtId> block_statements(TSNode block, StmtId parent) {
    std::vector<StmtId> out;
    if (ts_node_is_null(block)) return out;
    if (!enter()) { leave(); return out; }
    ScopeGuard scope(*this);
    for_each_named_child(block, [&](TSNode s) {
      if (is(s, c_.comment) || ts_node_symbol(s) == static_cast<TSSymbol>(-1)) return;
      StmtId id = statement(s, parent);
      if (id != kNone) out.push_back(id);
    });
    leave();
    return out;
  }

  StmtId new_stmt(TSNode node, StmtId parent) {
    Stmt s;
    s.range = node_range(node);
    TSNode first = ts_node_child(node, 0);
    s.keyword = ts_node_is_null(first) ? s.range : node_range(first);
    s.parent = parent;
    m_.stmts.push_back(std::move(s));
    return static_cast<StmtId>(m_.stmts.size() - 1);
  }

  /// The op of a statement: Load for one without an `op` field (never
  /// read), nullopt for an `op` that is not a spelling of ops.def. Such a
  /// statement is left out of the model, never read as some other op. A
  /// missing token was reported by the parser; any other spelling means the
  /// grammar has an op that ops.def lacks (the analysis.ops test guards
  /// against it).
  std::optional<Op> statement_op(TSNode node) {
    TSNode op = field(node, c_.f.op);
    if (ts_node_is_null(op)) return Op::Load;
    if (std::optional<Op> known = parse_op(text(op))) return known;
    if (!ts_node_is_missing(op) && !text(op).empty())
      diags_.push_back(make_diagnostic(DiagId::SyntaxError, node_range(op),
                                       "unknown op `" + std::string(text(op)) + "`"));
    return std::nullopt;
  }

  StmtId statement(TSNode node, StmtId parent) {
    current_range_ = node_range(node);
    TSSymbol sym = ts_node_symbol(node);
    auto& f = c_.f;
    if (sym == c_.smem_declaration || sym == c_.tmem_declaration || sym == c_.reg_declaration ||
        sym == c_.mbarrier_declaration || sym == c_.namedbarrier_declaration || sym == c_.tensormap_declaration ||
        sym == c_.dsmem_declaration)
      return declaration(node, parent);
    if (sym == c_.role_declaration) return role(node, parent);
    std::optional<Op> op = statement_op(node);
    if (!op) return kNone;
    StmtId id = new_stmt(node, parent);
    auto set = [&](auto value) { m_.stmts[id].node = std::move(value); };
    if (sym == c_.let_statement) {
      LetStmt s;
      s.value = expr(field(node, f.value));
      TSNode name = field(node, f.name);
      if (!ts_node_is_null(name) && !ts_node_is_missing(name)) {
        Symbol sy = make_symbol(SymbolKind::Let, name, node);
        sy.value = s.value;
        sy.stmt = id;
        sy.type.space = Space::Scalar;
        s.symbol = declare(std::move(sy));
      }
      set(s);
    } else if (sym == c_.assignment_statement) {
      AssignStmt s;
      s.op = text(field(node, f.operator_));
      s.target = expr(field(node, f.target));
      s.value = expr(field(node, f.value));
      set(s);
    } else if (sym == c_.elect_statement) {
      std::string_view kind = text(field(node, f.kind));
      ElectStmt s;
      s.kind = kind == "elect.warp" ? ElectStmt::Kind::PerWarp
               : kind == "elect.warpgroup" ? ElectStmt::Kind::PerWarpgroup
                                           : ElectStmt::Kind::One;
      s.body = block_statements(field(node, f.body), id);
      set(std::move(s));
    } else if (sym == c_.for_statement) {
      ForStmt s;
      TSNode range = field(node, f.range);
      s.start = expr(field(range, f.start));
      s.end = expr(field(range, f.end));
      s.step = expr_opt(field(node, f.step));
      ScopeGuard scope(*this);
      s.variable = loop_symbol(SymbolKind::LoopVar, field(node, f.variable), node, id);
      s.body = block_statements(field(node, f.body), id);
      set(std::move(s));
    } else if (sym == c_.pipeline_statement) {
      PipelineStmt s;
      s.stages = expr(field(node, f.stages));
      s.ring = ring_clause(node, field(node, f.stages));
      TSNode range = field(node, f.range);
      s.start = expr(field(range, f.start));
      s.end = expr(field(range, f.end));
      s.step = expr_opt(field(node, f.step));
      ScopeGuard scope(*this);
      s.stage = loop_symbol(SymbolKind::StageVar, field(node, f.stage), node, id);
      s.variable = loop_symbol(SymbolKind::LoopVar, field(node, f.variable), node, id);
      s.body = block_statements(field(node, f.body), id);
      set(std::move(s));
    } else if (sym == c_.if_statement) {
      IfStmt s;
      s.condition = expr(field(node, f.condition));
      s.then_body = block_statements(field(node, f.consequence), id);
      TSNode alt = field(node, f.alternative);
      if (is(alt, c_.if_statement)) {
        StmtId nested = statement(alt, id);
        if (nested != kNone) s.else_body.push_back(nested);
      } else if (!ts_node_is_null(alt)) {
        s.else_body = block_statements(alt, id);
      }
      set(std::move(s));
    } else if (sym == c_.move_statement) {
      MoveStmt s;
      s.op = *op;
      s.dst = expr(field(node, f.destination));
      s.src = expr(field(node, f.source));
      s.barrier = expr_opt(field(node, f.barrier));
      each_field(node, f.modifier, [&](TSNode mod) {
        if (is(mod, c_.trans_modifier)) s.trans = true;
        else if (is(mod, c_.multicast_modifier)) {
          s.multicast = expr(field(mod, f.mask));
          s.multicast_clause = node_range(mod);
        }
      });
      set(s);
    } else if (sym == c_.mma_statement) {
      MmaStmt s{*op};
      s.acc = expr(field(node, f.accumulator));
      s.accumulate_into = text(field(node, f.operator_)) == "+=";
      s.a = expr(field(node, f.a));
      s.b = expr(field(node, f.b));
      TSNode acc = field(node, f.accumulate);
      if (!ts_node_is_null(acc)) s.accumulate = expr(field(acc, f.condition));
      set(s);
    } else if (sym == c_.plain_statement) {
      set(PlainStmt{*op});
    } else if (sym == c_.group_wait_statement) {
      set(GroupWaitStmt{*op, expr(field(node, f.pending))});
    } else if (sym == c_.arrive_statement) {
      ArriveStmt s;
      s.op = *op;
      s.barrier = expr(field(node, f.barrier));
      s.bytes = expr_opt(field(node, f.bytes));
      TSNode mod = field(node, f.modifier);
      if (!ts_node_is_null(mod)) {
        s.multicast = expr(field(mod, f.mask));
        s.multicast_clause = node_range(mod);
      }
      set(s);
    } else if (sym == c_.wait_statement) {
      set(WaitStmt{expr(field(node, f.barrier)), expr(field(node, f.parity))});
    } else if (sym == c_.sync_statement) {
      set(SyncStmt{expr(field(node, f.barrier))});
    } else if (sym == c_.commit_statement) {
      CommitStmt s;
      s.op = *op;
      s.barrier = expr(field(node, f.barrier));
      TSNode mod = field(node, f.modifier);
      if (!ts_node_is_null(mod)) {
        s.multicast = expr(field(mod, f.mask));
        s.multicast_clause = node_range(mod);
      }
      set(s);
    } else if (sym == c_.reduce_statement) {
      std::string_view kind = text(field(node, f.kind));
      ReduceStmt s{kind == "max" ? ReduceStmt::Kind::Max : kind == "min" ? ReduceStmt::Kind::Min : ReduceStmt::Kind::Sum};
      s.dst = expr(field(node, f.destination));
      s.src = expr(field(node, f.source));
      set(s);
    } else if (sym == c_.arg_reduce_statement) {
      ArgReduceStmt s{*op};
      s.value = expr(field(node, f.value));
      s.index = expr(field(node, f.index));
      s.src = expr(field(node, f.source));
      TSNode base = field(node, f.base);
      if (!ts_node_is_null(base)) s.base = expr(field(base, f.value));
      set(s);
    } else {
      m_.stmts.pop_back();
      return kNone;
    }
    return id;
  }

  /// `ring(N)` of a pipeline, from its `stages` field: the `ring` token
  /// before it and the `)` after it, stepping over comments between them.
  /// One walk over the pipeline's children (a sibling step of tree-sitter
  /// goes through the parent, thousands of instructions each).
  ByteRange ring_clause(TSNode pipeline, TSNode stages) const {
    if (ts_node_is_null(stages)) return {};
    TSNode ring{}, open{}, close{};
    bool after = false, done = false;
    uint32_t at = ts_node_start_byte(stages);
    for_each_child(pipeline, [&](TSNode c, TSFieldId) {
      if (done || is(c, c_.comment)) return;
      if (after) {
        close = c;
        done = true;
      } else if (ts_node_start_byte(c) == at && ts_node_eq(c, stages)) {
        after = true;
      } else {
        ring = open;
        open = c;
      }
    });
    if (ts_node_is_null(ring)) return node_range(stages);
    if (ts_node_is_null(close) || ts_node_is_missing(close)) return span(ring, stages);
    return span(ring, close);
  }

  SymbolId loop_symbol(SymbolKind kind, TSNode name, TSNode decl, StmtId stmt) {
    if (ts_node_is_null(name) || ts_node_is_missing(name)) return kNone;
    Symbol s = make_symbol(kind, name, decl);
    s.stmt = stmt;
    s.type.space = Space::Scalar;
    s.type.dtype = DType::I32;
    return declare(std::move(s));
  }

  /// The symbol a declaration names (a tensormap's tensor, a dsmem view's
  /// buffer), used there; kNone when it is missing, undefined (E0101) or not
  /// of `kind` (E0108, "`X` is ..., not `expected`").
  SymbolId declared_name(TSNode name, SymbolKind kind, std::string_view what, std::string_view expected,
                         std::optional<SymbolKind> also = std::nullopt) {
    if (ts_node_is_null(name) || ts_node_is_missing(name)) return kNone;
    SymbolId id = lookup(text(name));
    if (id == kNone) {
      undefined(what, text(name), node_range(name));
      return kNone;
    }
    use(id, node_range(name));
    if (m_.symbols[id].kind == kind || m_.symbols[id].kind == also) return id;
    diags_.push_back(make_diagnostic(DiagId::WrongKind, node_range(name), text(name),
                                     symbol_kind_name(m_.symbols[id].kind), expected));
    return kNone;
  }

  StmtId declaration(TSNode node, StmtId parent) {
    auto& f = c_.f;
    TSSymbol sym = ts_node_symbol(node);
    SymbolKind kind = sym == c_.smem_declaration         ? SymbolKind::Smem
                      : sym == c_.tmem_declaration       ? SymbolKind::Tmem
                      : sym == c_.reg_declaration        ? SymbolKind::Reg
                      : sym == c_.mbarrier_declaration   ? SymbolKind::Mbarrier
                      : sym == c_.namedbarrier_declaration ? SymbolKind::NamedBarrier
                      : sym == c_.dsmem_declaration        ? SymbolKind::Dsmem
                                                           : SymbolKind::Tensormap;
    StmtId id = new_stmt(node, parent);
    TSNode name = field(node, f.name);
    if (ts_node_is_null(name) || ts_node_is_missing(name)) {
      m_.stmts[id].node = DeclStmt{};
      return id;
    }
    Symbol s = make_symbol(kind, name, node);
    s.stmt = id;
    switch (kind) {
      case SymbolKind::Smem: s.type.space = Space::Smem; break;
      case SymbolKind::Tmem: s.type.space = Space::Tmem; break;
      case SymbolKind::Reg: s.type.space = Space::Reg; break;
      default: s.type.space = Space::None; break;
    }
    if (kind == SymbolKind::Smem || kind == SymbolKind::Tmem || kind == SymbolKind::Reg) {
      tensor_type(field(node, f.type), s.type, false);
      attributes(node, s.type, kind);
      if (kind == SymbolKind::Reg) s.value = expr_opt(field(node, f.init));
    } else if (kind == SymbolKind::Mbarrier) {
      s.value = expr_opt(field(node, f.size));
      TSNode count = field(node, f.count);
      if (!ts_node_is_null(count)) s.count = expr(field(count, f.value));
    } else if (kind == SymbolKind::NamedBarrier) {
      s.id = expr(field(node, f.id));
      s.count = expr(field(node, f.threads));
    } else if (kind == SymbolKind::Tensormap) {
      SymbolId t = declared_name(field(node, f.tensor), SymbolKind::TensorParam, "tensor", "a tensor parameter");
      if (t != kNone) {
        s.tensor = t;
        s.type.dtype = m_.symbols[t].type.dtype;
      }
      each_field(field(node, f.box), f.dim, [&](TSNode d) { s.box.push_back(expr(d)); });
      attributes(node, s.type, kind);
    } else if (kind == SymbolKind::Dsmem) {
      // The peer's copy of an smem buffer (its type, in the dsmem space) or
      // of an mbarrier (typed as a barrier in the dsmem space).
      SymbolId b = declared_name(field(node, f.buffer), SymbolKind::Smem, "buffer",
                                 "a shared-memory buffer or an mbarrier", SymbolKind::Mbarrier);
      if (b != kNone) {
        s.tensor = b;
        s.type = m_.symbols[b].type;
        s.type.space = Space::Dsmem;
      }
      s.value = expr(field(node, f.rank));
    }
    m_.stmts[id].node = DeclStmt{declare(std::move(s))};
    return id;
  }

  StmtId role(TSNode node, StmtId parent) {
    auto& f = c_.f;
    StmtId id = new_stmt(node, parent);
    RoleStmt r;
    TSNode spec = field(node, f.warps);
    if (is(spec, c_.warpgroup_spec) || is(spec, c_.warp_spec)) {
      r.spec.kind = is(spec, c_.warpgroup_spec) ? RoleSpec::Kind::Warpgroup : RoleSpec::Kind::Warp;
      TSFieldId entries = r.spec.kind == RoleSpec::Kind::Warpgroup ? f.group : f.warp;
      each_field(spec, entries, [&](TSNode e) {
        RoleSpec::Entry entry;
        entry.range = node_range(e);
        if (is(e, c_.range)) {
          entry.first = expr(field(e, f.start));
          entry.end = expr(field(e, f.end));
        } else {
          entry.first = expr(e);
        }
        r.spec.entries.push_back(entry);
      });
    }
    TSNode maxnreg = field(node, f.maxnreg);
    if (!ts_node_is_null(maxnreg)) {
      r.maxnreg = expr(field(maxnreg, f.value));
      r.maxnreg_clause = node_range(maxnreg);
    }
    TSNode name = field(node, f.name);
    if (!ts_node_is_null(name) && !ts_node_is_missing(name)) {
      Symbol s = make_symbol(SymbolKind::Role, name, node);
      s.stmt = id;
      r.symbol = declare(std::move(s));
    }
    r.body = block_statements(field(node, f.body), id);
    m_.stmts[id].node = std::move(r);
    return id;
  }

  // Section - dispatch and bench

  void dispatch(TSNode node) {
    note_item(node);
    auto& f = c_.f;
    Dispatch d;
    d.symbol = global_for(node);
    d.range = node_range(node);
    ScopeGuard scope(*this);
    each_field(field(node, f.parameters), f.name, [&](TSNode p) {
      if (ts_node_is_missing(p)) return;
      Symbol s = make_symbol(SymbolKind::DispatchParam, p, p);
      d.params.push_back(declare(std::move(s)));
    });
    // Resolve the kernels first: guards name the shape symbols of the cases' kernels.
    std::vector<TSNode> cases;
    each_field(node, f.case_, [&](TSNode c) { cases.push_back(c); });
    TSNode def = field(node, f.default_);
    if (!ts_node_is_null(def)) cases.push_back(def);
    for (TSNode c : cases) {
      DispatchCase dc;
      dc.range = node_range(c);
      TSNode k = field(c, f.kernel);
      if (!ts_node_is_null(k) && !ts_node_is_missing(k)) {
        dc.kernel = text(k);
        dc.kernel_range = node_range(k);
        dc.kernel_symbol = kernel_ref(k);
      }
      d.cases.push_back(dc);
    }
    for (size_t i = 0; i < cases.size(); ++i) {
      TSNode guard = field(cases[i], f.guard);
      if (ts_node_is_null(guard)) continue;
      guard_kernels_.clear();
      for (const DispatchCase& dc : d.cases)
        if (dc.kernel_symbol != kNone) guard_kernels_.push_back(m_.symbols[dc.kernel_symbol].kernel);
      in_guard_ = true;
      d.cases[i].guard = expr(guard);
      in_guard_ = false;
    }
    m_.dispatches.push_back(std::move(d));
  }

  SymbolId kernel_ref(TSNode name) {
    SymbolId id = lookup(text(name));
    if (id == kNone) {
      undefined("kernel", text(name), node_range(name));
      return kNone;
    }
    use(id, node_range(name));
    if (m_.symbols[id].kind != SymbolKind::Kernel) {
      diags_.push_back(make_diagnostic(DiagId::WrongKind, node_range(name), text(name),
                                       symbol_kind_name(m_.symbols[id].kind), "a kernel"));
      return kNone;
    }
    return id;
  }

  SymbolId shape_symbol_of(uint32_t kernel, std::string_view name) const {
    if (kernel == kNone || kernel >= m_.kernels.size()) return kNone;
    for (SymbolId s : m_.kernels[kernel].shape_symbols)
      if (m_.symbols[s].name == name) return s;
    return kNone;
  }

  void bench(TSNode node) {
    note_item(node);
    auto& f = c_.f;
    Bench b;
    b.range = node_range(node);
    TSNode k = field(node, f.kernel);
    if (!ts_node_is_null(k) && !ts_node_is_missing(k)) {
      b.kernel = text(k);
      b.kernel_range = node_range(k);
      b.kernel_symbol = kernel_ref(k);
    }
    uint32_t kernel = b.kernel_symbol == kNone ? kNone : m_.symbols[b.kernel_symbol].kernel;
    each_field(node, f.binding, [&](TSNode bind) {
      BenchBinding bb;
      TSNode name = field(bind, f.name);
      bb.name = text(name);
      bb.name_range = node_range(name);
      bb.symbol = shape_symbol_of(kernel, bb.name);
      use(bb.symbol, bb.name_range);
      bb.value = expr(field(bind, f.value));
      b.bindings.push_back(bb);
    });
    TSNode r = field(node, f.reference);
    if (!ts_node_is_null(r) && !ts_node_is_missing(r)) {
      b.reference = text(r);
      b.reference_range = node_range(r);
      b.reference_symbol = kernel_ref(r);
    }
    m_.benches.push_back(std::move(b));
  }

  // Section - expressions

  ExprId new_expr(Expr::Kind kind, TSNode node) {
    Expr e;
    e.kind = kind;
    e.range = node_range(node);
    m_.exprs.push_back(std::move(e));
    return static_cast<ExprId>(m_.exprs.size() - 1);
  }

  ExprId expr_opt(TSNode node) { return ts_node_is_null(node) ? kNone : expr(node); }

  ExprId expr(TSNode node) {
    if (ts_node_is_null(node)) return kNone;
    if (!enter()) {
      leave();
      return new_expr(Expr::Kind::Error, node);
    }
    ExprId id = expr_inner(node);
    if (id != kNone) adopt_operands(id);
    leave();
    return id;
  }

  ExprId expr_inner(TSNode node) {
    auto& f = c_.f;
    TSSymbol sym = ts_node_symbol(node);
    if (ts_node_is_missing(node) || sym == static_cast<TSSymbol>(-1)) return new_expr(Expr::Kind::Error, node);
    if (sym == c_.parenthesized_expression) {
      TSNode inner = ts_node_named_child(node, 0);
      while (!ts_node_is_null(inner) && is(inner, c_.comment)) inner = ts_node_next_named_sibling(inner);
      if (ts_node_is_null(inner)) return new_expr(Expr::Kind::Error, node);
      return expr(inner);
    }
    if (sym == c_.identifier) {
      ExprId id = new_expr(Expr::Kind::Name, node);
      std::string_view name = text(node);
      m_.exprs[id].text = name;
      SymbolId s = resolve(name, node_range(node));
      m_.exprs[id].symbol = s;
      if (s != kNone) m_.symbols[s].refs.push_back(id);
      return id;
    }
    if (sym == c_.integer_literal) {
      ExprId id = new_expr(Expr::Kind::Int, node);
      m_.exprs[id].text = text(node);
      m_.exprs[id].int_value = parse_int(text(node));
      return id;
    }
    if (sym == c_.float_literal) {
      ExprId id = new_expr(Expr::Kind::Float, node);
      std::string s;
      for (char ch : text(node)) if (ch != '_') s += ch;
      m_.exprs[id].text = text(node);
      m_.exprs[id].float_value = std::strtod(s.c_str(), nullptr);
      return id;
    }
    if (sym == c_.boolean_literal) {
      ExprId id = new_expr(Expr::Kind::Bool, node);
      m_.exprs[id].int_value = text(node) == "true";
      return id;
    }
    if (sym == c_.unary_expression) {
      ExprId operand = expr(field(node, f.operand));
      ExprId id = new_expr(Expr::Kind::Unary, node);
      m_.exprs[id].text = text(field(node, f.operator_));
      m_.exprs[id].lhs = operand;
      return id;
    }
    if (sym == c_.binary_expression) {
      ExprId l = expr(field(node, f.left));
      ExprId r = expr(field(node, f.right));
      ExprId id = new_expr(Expr::Kind::Binary, node);
      m_.exprs[id].text = text(field(node, f.operator_));
      m_.exprs[id].lhs = l;
      m_.exprs[id].rhs = r;
      return id;
    }
    if (sym == c_.call_expression) {
      std::vector<ExprId> args;
      each_field(field(node, f.arguments), f.argument, [&](TSNode a) { args.push_back(expr(a)); });
      ExprId id = new_expr(Expr::Kind::Call, node);
      m_.exprs[id].text = text(field(node, f.function));
      m_.exprs[id].args = std::move(args);
      return id;
    }
    if (sym == c_.cast_expression) {
      ExprId v = expr(field(node, f.value));
      ExprId id = new_expr(Expr::Kind::Cast, node);
      m_.exprs[id].lhs = v;
      m_.exprs[id].cast_type = parse_dtype(text(field(node, f.type))).value_or(DType::Unknown);
      return id;
    }
    if (sym == c_.index_expression) {
      ExprId base = expr(field(node, f.value));
      std::vector<IndexItem> items;
      each_field(node, f.index, [&](TSNode i) {
        IndexItem item;
        item.range = node_range(i);
        if (is(i, c_.slice)) {
          item.kind = IndexItem::Kind::Slice;
          item.start = expr(field(i, f.start));
          item.extent = expr(field(i, f.extent));
        } else if (is(i, c_.full_slice)) {
          item.kind = IndexItem::Kind::Full;
        } else {
          item.start = expr(i);
        }
        items.push_back(item);
      });
      ExprId id = new_expr(Expr::Kind::Index, node);
      m_.exprs[id].lhs = base;
      m_.exprs[id].items = std::move(items);
      return id;
    }
    if (sym == c_.field_expression) {
      ExprId base = expr(field(node, f.value));
      ExprId id = new_expr(Expr::Kind::Field, node);
      m_.exprs[id].lhs = base;
      m_.exprs[id].text = text(field(node, f.field));
      return id;
    }
    if (sym == c_.transpose_expression) {
      ExprId base = expr(field(node, f.value));
      ExprId id = new_expr(Expr::Kind::Transpose, node);
      m_.exprs[id].lhs = base;
      return id;
    }
    return new_expr(Expr::Kind::Error, node);
  }

  SymbolId resolve(std::string_view name, ByteRange range) {
    if (in_guard_) {
      for (uint32_t k : guard_kernels_) {
        SymbolId s = shape_symbol_of(k, name);
        if (s != kNone) {
          use(s, range);
          return s;
        }
      }
      SymbolId g = lookup(name);
      if (g != kNone && m_.symbols[g].kind == SymbolKind::Const) {
        use(g, range);
        return g;
      }
      Diagnostic d = make_diagnostic(DiagId::UndefinedName, range, "shape symbol", name);
      d.message += ": a guard may name only the shape symbols of its cases' kernels and constants";
      diags_.push_back(std::move(d));
      return kNone;
    }
    SymbolId id = lookup(name);
    if (id == kNone) {
      undefined("name", name, range);
      return kNone;
    }
    use(id, range);
    return id;
  }

  static int64_t parse_int(std::string_view s) {
    std::string digits;
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.remove_prefix(2);
    else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s.remove_prefix(2);
    for (char ch : s) if (ch != '_') digits += ch;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec != std::errc()) return INT64_MAX;  // out of range: saturate
    return v;
  }

  std::string_view text_;
  Module& m_;
  std::vector<Diagnostic>& diags_;
  const Cst& c_;
  std::vector<std::pair<std::string_view, SymbolId>> scope_;
  std::unordered_map<std::string_view, SymbolId> globals_;
  std::unordered_map<uint32_t, SymbolId> global_of_node_;
  uint32_t kernel_ = kNone;
  int depth_ = 0;
  bool too_deep_reported_ = false;
  ByteRange current_range_;
  bool in_guard_ = false;
  std::vector<uint32_t> guard_kernels_;
  const ItemSelection* selection_ = nullptr;
  bool header_only_ = false;  // building a kernel without its body
};

}  // namespace

void build_model(const SyntaxTree& tree, std::string_view text, Module& module, std::vector<Diagnostic>& diagnostics,
                 const ItemSelection* selection) {
  module.source = text;
  Builder(text, module, diagnostics, selection).build(tree);
}

}  // namespace cake
