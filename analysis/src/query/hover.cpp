// Hover descriptions (cake/query_hover.h), as labelled facts: buffers with dtype, shape,
// space, swizzle or layout and byte size, and shared-memory buffers and
// mbarriers where the kernel's layout places them (KernelFacts, the layout
// E0301 checks and the occupancy fits); kernels with that layout's total;
// barriers with counts and stages;
// roles with warps, threads, maxnreg and register budget; ops with their
// form, semantics and target support; params and consts with folded values;
// and the rules of the diagnostics under the cursor.
#include "cake/query_hover.h"

#include "cake/arch.h"
#include "cake/ops.h"
#include "cake/query_ops.h"
#include "cake/registry.h"
#include "cake/kernel_facts.h"
#include "cake/eval.h"
#include "cake/typing.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace cake {
namespace {

HoverFact fact(std::string_view label, HoverFact::Kind kind, std::string text = {}, std::optional<int64_t> number = {}) {
  HoverFact f;
  f.label = label;
  f.kind = kind;
  f.text = std::move(text);
  f.number = number;
  return f;
}

class Describer {
 public:
  Describer(const Module& m, std::string_view text) : m_(m), text_(text), typer_(m, nullptr) {}

  HoverSubject symbol(const Symbol& s) {
    HoverSubject out;
    out.kind = HoverSubject::Kind::Symbol;
    out.name = std::string(s.name);
    out.what = symbol_kind_name(s.kind);
    std::vector<HoverFact>& facts = out.facts;
    switch (s.kind) {
      case SymbolKind::Smem:
      case SymbolKind::Tmem:
      case SymbolKind::Reg:
      case SymbolKind::TensorParam: buffer(s.type, facts); break;
      case SymbolKind::Dsmem:
        // A view of a peer's buffer, or of its mbarrier (a pair's copies).
        if (s.tensor != kNone && m_.symbols[s.tensor].kind == SymbolKind::Mbarrier) {
          facts.push_back(fact("mbarrier", HoverFact::Kind::Code, std::string(m_.symbols[s.tensor].name)));
        } else {
          buffer(s.type, facts);
          if (s.tensor != kNone) facts.push_back(fact("buffer", HoverFact::Kind::Code, std::string(m_.symbols[s.tensor].name)));
        }
        facts.push_back(value("cta", s.value));
        break;
      case SymbolKind::Mbarrier: mbarrier(s, facts); break;
      case SymbolKind::Kernel: break;
      case SymbolKind::NamedBarrier:
        facts.push_back(value("threads", s.count));
        facts.push_back(value("id", s.id));
        break;
      case SymbolKind::Role: role(s, facts); break;
      case SymbolKind::Tensormap:
        facts.push_back(fact("box", HoverFact::Kind::Shape, typer_.shape_text(s.box)));
        facts.push_back(fact("dtype", HoverFact::Kind::Code, std::string(dtype_name(s.type.dtype))));
        if (s.type.swizzle != Swizzle::None)
          facts.push_back(fact("swizzle", HoverFact::Kind::Swizzle, {}, swizzle_bytes(s.type.swizzle)));
        break;
      case SymbolKind::Const:
      case SymbolKind::Let: facts.push_back(value("value", s.value)); break;
      case SymbolKind::ScalarParam:
        facts.push_back(fact("type", HoverFact::Kind::Code, std::string(dtype_name(s.type.dtype))));
        break;
      case SymbolKind::ShapeSymbol:
      case SymbolKind::LoopVar:
      case SymbolKind::StageVar:
      case SymbolKind::Dispatch:
      case SymbolKind::DispatchParam:
      case SymbolKind::Builtin: break;
    }
    if (s.kind == SymbolKind::Smem || s.kind == SymbolKind::Mbarrier || s.kind == SymbolKind::Kernel)
      placement(static_cast<SymbolId>(&s - m_.symbols.data()), s.kind == SymbolKind::Kernel, facts);
    return out;
  }

  HoverSubject op(Op op) {
    HoverSubject out;
    out.kind = HoverSubject::Kind::Op;
    out.name = std::string(op_spelling(op));
    out.form = op_form(op);
    out.summary = op_info(op).summary;
    std::optional<Feature> f = op_feature(op);
    if (!f) return out;
    out.feature = feature_name(*f);
    for (const Target& t : m_.targets) {
      const TargetInfo* info = find_target(t.name);
      if (!info) continue;
      (info->has(*f) ? out.supported : out.unsupported).push_back(t.name);
    }
    return out;
  }

 private:
  /// An expression as written with its folded value; "-" when absent.
  HoverFact value(std::string_view label, ExprId e) {
    if (e == kNone) return fact(label, HoverFact::Kind::Text, "-");
    std::string written(text_.substr(m_.expr(e).range.begin, m_.expr(e).range.end - m_.expr(e).range.begin));
    std::optional<int64_t> v = typer_.evaluator().fold(e);
    if (v && std::to_string(*v) == written) v.reset();
    return fact(label, HoverFact::Kind::Expr, std::move(written), v);
  }

  void buffer(const ValueType& t, std::vector<HoverFact>& out) {
    out.push_back(fact("type", HoverFact::Kind::Code, std::string(dtype_name(t.dtype))));
    HoverFact shape = fact("shape", HoverFact::Kind::Shape, typer_.shape_text(t.dims));
    if (!t.stage_dims.empty()) shape.stages = typer_.shape_text(t.stage_dims);
    out.push_back(std::move(shape));
    out.push_back(fact("space", HoverFact::Kind::Text, std::string(space_name(t.space))));
    if (is_col_major(t))
      out.push_back(fact("order", HoverFact::Kind::Text, "col_major (the first dim contiguous)"));
    if (t.space == Space::Tmem && !t.dims.empty())
      if (std::optional<int64_t> lanes = typer_.evaluator().fold(t.dims[0]); lanes && tmem_rows_per_quarter(*lanes) != kTmemQuarterLanes)
        out.push_back(fact("lanes", HoverFact::Kind::Text,
                           "rows 16 q .. 16 q + 15 in the first 16 lanes of quarter q (an M = 64 MMA's accumulator)"));
    if (t.swizzle != Swizzle::None) out.push_back(fact("swizzle", HoverFact::Kind::Swizzle, {}, swizzle_bytes(t.swizzle)));
    if (t.layout != FragLayout::None) out.push_back(fact("layout", HoverFact::Kind::Text, std::string(frag_layout_name(t.layout))));
    // What the buffer takes where it lives (a byte per 6- or 4-bit float in
    // shared and tensor memory).
    if (std::optional<int64_t> b = typer_.evaluator().stored_bytes_of(t)) {
      HoverFact size = fact("size", HoverFact::Kind::Bytes, {}, *b);
      if (!t.stage_dims.empty()) size.per_stage = typer_.evaluator().stored_bytes_of(t, t.stage_dims.size());
      out.push_back(std::move(size));
    }
  }

  void mbarrier(const Symbol& s, std::vector<HoverFact>& out) {
    out.push_back(s.count == kNone ? fact("arrival count", HoverFact::Kind::Count, {}, 1) : value("arrival count", s.count));
    if (s.value != kNone) out.push_back(value("stages (array size)", s.value));
  }

  void role(const Symbol& s, std::vector<HoverFact>& out) {
    if (s.stmt == kNone) return;
    const auto* r = std::get_if<RoleStmt>(&m_.stmt(s.stmt).node);
    if (!r) return;
    // The role's warps, when every entry folds to a constant.
    int64_t count = 0;
    bool known = true;
    unsigned per_unit = r->spec.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (const RoleSpec::Entry& e : r->spec.entries) {
      std::optional<int64_t> first = typer_.evaluator().fold(e.first);
      std::optional<int64_t> end = e.end == kNone ? (first ? std::optional<int64_t>(*first + 1) : std::nullopt)
                                                  : typer_.evaluator().fold(e.end);
      if (!first || !end) known = false;
      else count += (*end - *first) * per_unit;
    }
    if (r->spec.kind == RoleSpec::Kind::All) {
      out.push_back(fact("warps", HoverFact::Kind::Text, "all of the block"));
    } else if (known) {
      out.push_back(fact("warps", HoverFact::Kind::Count, {}, count));
      out.push_back(fact("threads", HoverFact::Kind::Count, {}, count * 32));
    }
    if (r->maxnreg == kNone) {
      out.push_back(fact("maxnreg", HoverFact::Kind::Text, "not set"));
      return;
    }
    out.push_back(value("maxnreg", r->maxnreg));
    std::optional<int64_t> regs = typer_.evaluator().fold(r->maxnreg);
    if (regs && known && r->spec.kind != RoleSpec::Kind::All)
      out.push_back(fact("register budget", HoverFact::Kind::Count, "registers", *regs * count * 32));
  }

  /// Where the kernel's shared-memory layout places `id` (a buffer or an
  /// mbarrier array), or the layout's total for a kernel, per listed target
  /// (targets with the same numbers share a fact).
  void placement(SymbolId id, bool kernel, std::vector<HoverFact>& out) {
    uint32_t k = 0;
    for (; k < m_.kernels.size(); ++k) {
      const Kernel& kk = m_.kernels[k];
      if (kernel ? kk.symbol == id : kk.range.contains(m_.symbols[id].def.begin)) break;
    }
    if (k == m_.kernels.size()) return;
    KernelFacts facts(m_, k);
    size_t first = out.size();
    for (const Target& t : m_.targets) {
      const TargetInfo* info = find_target(t.name);
      if (!info) continue;
      const SmemLayout& layout = facts.on(*info).smem;
      HoverFact f;
      if (kernel) {
        if (layout.slots.empty() || !layout.complete) continue;
        f = fact("shared memory", HoverFact::Kind::LayoutTotal, {}, layout.total);
      } else if (const SmemSlot* slot = layout.find(id)) {
        f = fact("placed", HoverFact::Kind::Placement);
        f.slot = {slot->bytes, slot->count, slot->stride, slot->align, slot->offset, slot->barrier};
        f.total = layout.total;
      } else {
        continue;
      }
      auto same = std::find_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), [&](const HoverFact& o) {
        return o.kind == f.kind && o.number == f.number && o.slot == f.slot && o.total == f.total;
      });
      if (same == out.end()) {
        f.targets.push_back(t.name);
        out.push_back(std::move(f));
      } else {
        same->targets.push_back(t.name);
      }
    }
  }

  const Module& m_;
  std::string_view text_;
  Typer typer_;
};

/// The identifier-ish word around `offset` (letters, digits, `_`).
ByteRange word_at(std::string_view text, uint32_t offset) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  uint32_t b = offset, e = offset;
  while (b > 0 && word(text[b - 1])) --b;
  while (e < text.size() && word(text[e])) ++e;
  return {b, e};
}

}  // namespace

std::optional<HoverInfo> hover_at(const Module& m, std::string_view text, const std::vector<Diagnostic>& diagnostics,
                                  uint32_t offset) {
  if (offset > text.size()) return std::nullopt;
  Describer describe(m, text);
  HoverInfo h;
  SymbolId id = m.symbol_at(offset);
  if (id != kNone) {
    const Symbol& s = m.symbol(id);
    h.subject = describe.symbol(s);
    h.range = s.def.contains(offset) ? s.def : word_at(text, offset);
    for (ByteRange u : s.uses)
      if (u.contains(offset)) h.range = u;
  } else {
    for (const Stmt& st : m.stmts) {
      std::optional<Op> op = op_of(st);
      if (op && st.keyword.contains(offset)) {
        h.subject = describe.op(*op);
        h.range = st.keyword;
        break;
      }
    }
  }
  if (!h.subject) {
    ByteRange w = word_at(text, offset);
    std::string_view word = text.substr(w.begin, w.end - w.begin);
    if (std::optional<DType> d = parse_dtype(word)) {
      h.subject.emplace();
      h.subject->kind = HoverSubject::Kind::DType;
      h.subject->name = std::string(word);
      h.subject->bits = dtype_bits(*d);
      h.range = w;
    } else if (const TargetInfo* t = find_target(word)) {
      h.subject.emplace();
      h.subject->kind = HoverSubject::Kind::Target;
      h.subject->name = std::string(word);
      h.subject->what = t->family;
      h.range = w;
    }
  }
  for (const Diagnostic& d : diagnostics) {
    if (!(d.range.contains(offset) || (d.range.begin == d.range.end && d.range.begin == offset))) continue;
    const RuleInfo& rule = rule_info(d.id);
    if (!h.subject && h.diagnostics.empty()) h.range = d.range;
    bool listed = std::any_of(h.diagnostics.begin(), h.diagnostics.end(),
                              [&](const HoverDiagnostic& o) { return o.code == rule.code; });
    if (!listed) h.diagnostics.push_back({rule.code, rule.summary});  // each rule once
  }
  if (!h.subject && h.diagnostics.empty()) return std::nullopt;
  return h;
}

}  // namespace cake
