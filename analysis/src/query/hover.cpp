// Hover descriptions (cake/query_hover.h): buffers with dtype, shape,
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
#include "facts/kernel_facts.h"
#include "semantics/eval.h"
#include "semantics/typing.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace cake {
namespace {

std::string bytes_text(int64_t bytes) {
  std::string s = std::to_string(bytes) + " B";
  if (bytes >= 1024 && bytes % 1024 == 0) s += " (" + std::to_string(bytes / 1024) + " KB)";
  return s;
}

class Describer {
 public:
  Describer(const Module& m, std::string_view text) : m_(m), text_(text), typer_(m, nullptr) {}

  std::string symbol(const Symbol& s) {
    std::string out = "**" + std::string(s.name) + "**: " + std::string(symbol_kind_name(s.kind));
    switch (s.kind) {
      case SymbolKind::Smem:
      case SymbolKind::Tmem:
      case SymbolKind::Reg:
      case SymbolKind::TensorParam: out += buffer(s.type); break;
      case SymbolKind::Mbarrier: out += mbarrier(s); break;
      case SymbolKind::Kernel: break;
      case SymbolKind::NamedBarrier:
        out += "\n\n- threads: " + value(s.count) + "\n- id: " + value(s.id);
        break;
      case SymbolKind::Role: out += role(s); break;
      case SymbolKind::Tensormap:
        out += "\n\n- box: " + typer_.shape_text(s.box) + "\n- dtype: `" + std::string(dtype_name(s.type.dtype)) + "`";
        if (s.type.swizzle != Swizzle::None) out += "\n- swizzle: " + std::to_string(swizzle_bytes(s.type.swizzle)) + "B";
        break;
      case SymbolKind::Const:
      case SymbolKind::Let: out += "\n\n- value: " + value(s.value); break;
      case SymbolKind::ScalarParam: out += "\n\n- type: `" + std::string(dtype_name(s.type.dtype)) + "`"; break;
      case SymbolKind::ShapeSymbol:
      case SymbolKind::LoopVar:
      case SymbolKind::StageVar:
      case SymbolKind::Dispatch:
      case SymbolKind::DispatchParam:
      case SymbolKind::Builtin: break;
    }
    if (s.kind == SymbolKind::Smem || s.kind == SymbolKind::Mbarrier || s.kind == SymbolKind::Kernel)
      out += placement(static_cast<SymbolId>(&s - m_.symbols.data()), s.kind == SymbolKind::Kernel);
    return out;
  }

  std::string op(Op op) {
    std::string out = "**" + std::string(op_spelling(op)) + "**";
    if (!op_form(op).empty()) out += " `" + std::string(op_form(op)) + "`";
    out += "\n\n" + std::string(op_info(op).summary);
    std::optional<Feature> f = op_feature(op);
    if (!f) return out + "\n\nAvailable on every target.";
    std::string yes, no;
    for (const Target& t : m_.targets) {
      const TargetInfo* info = find_target(t.name);
      if (!info) continue;
      std::string& list = info->has(*f) ? yes : no;
      list += (list.empty() ? "`" : ", `") + std::string(t.name) + "`";
    }
    out += "\n\nNeeds " + std::string(feature_name(*f)) + ".";
    if (!yes.empty()) out += " Supported on " + yes + ".";
    if (!no.empty()) out += " **Not supported** on " + no + ".";
    return out;
  }

 private:
  std::string value(ExprId e) {
    if (e == kNone) return "-";
    std::optional<int64_t> v = typer_.evaluator().fold(e);
    std::string written(text_.substr(m_.expr(e).range.begin, m_.expr(e).range.end - m_.expr(e).range.begin));
    if (!v) return "`" + written + "`";
    return std::to_string(*v) == written ? "`" + written + "`" : "`" + written + "` = " + std::to_string(*v);
  }

  std::string buffer(const ValueType& t) {
    std::vector<ExprId> all = t.stage_dims;
    all.insert(all.end(), t.dims.begin(), t.dims.end());
    std::string out = "\n\n- type: `" + std::string(dtype_name(t.dtype)) + "`";
    out += "\n- shape: " + (t.stage_dims.empty() ? "" : typer_.shape_text(t.stage_dims) + " stages of ") +
           typer_.shape_text(t.dims);
    out += "\n- space: " + std::string(space_name(t.space));
    if (t.swizzle != Swizzle::None) out += "\n- swizzle: " + std::to_string(swizzle_bytes(t.swizzle)) + "B";
    if (t.layout != FragLayout::None) out += "\n- layout: " + std::string(frag_layout_name(t.layout));
    if (std::optional<int64_t> b = typer_.evaluator().bytes_of(t)) {
      out += "\n- size: " + bytes_text(*b);
      if (!t.stage_dims.empty())
        if (std::optional<int64_t> one = typer_.evaluator().bytes_of(t, t.stage_dims.size()))
          out += ", " + bytes_text(*one) + " per stage";
    }
    return out;
  }

  std::string mbarrier(const Symbol& s) {
    std::string out = "\n\n- arrival count: " + (s.count == kNone ? std::string("1") : value(s.count));
    if (s.value != kNone) out += "\n- stages (array size): " + value(s.value);
    return out;
  }

  std::string role(const Symbol& s) {
    if (s.stmt == kNone) return "";
    const auto* r = std::get_if<RoleStmt>(&m_.stmt(s.stmt).node);
    if (!r) return "";
    std::optional<int64_t> warps = 0;
    unsigned per_unit = r->spec.kind == RoleSpec::Kind::Warpgroup ? 4 : 1;
    for (const RoleSpec::Entry& e : r->spec.entries) {
      std::optional<int64_t> first = typer_.evaluator().fold(e.first);
      std::optional<int64_t> end = e.end == kNone ? (first ? std::optional<int64_t>(*first + 1) : std::nullopt)
                                                  : typer_.evaluator().fold(e.end);
      if (!warps || !first || !end) warps = std::nullopt;
      else *warps += (*end - *first) * per_unit;
    }
    std::string out;
    if (r->spec.kind == RoleSpec::Kind::All) {
      out += "\n\n- warps: all of the block";
    } else if (warps) {
      out += "\n\n- warps: " + std::to_string(*warps) + "\n- threads: " + std::to_string(*warps * 32);
    }
    if (r->maxnreg == kNone) return out + "\n- maxnreg: not set";
    out += "\n- maxnreg: " + value(r->maxnreg);
    std::optional<int64_t> regs = typer_.evaluator().fold(r->maxnreg);
    if (regs && warps && r->spec.kind != RoleSpec::Kind::All)
      out += "\n- register budget: " + std::to_string(*regs * *warps * 32) + " registers";
    return out;
  }

  /// Where the kernel's shared-memory layout places `id` (a buffer or an
  /// mbarrier array), or the layout's total for a kernel, per listed target
  /// (targets with the same numbers share a line).
  std::string placement(SymbolId id, bool kernel) {
    uint32_t k = 0;
    for (; k < m_.kernels.size(); ++k) {
      const Kernel& kk = m_.kernels[k];
      if (kernel ? kk.symbol == id : kk.range.contains(m_.symbols[id].def.begin)) break;
    }
    if (k == m_.kernels.size()) return "";
    KernelFacts facts(m_, k);
    std::vector<std::pair<std::string, std::string>> lines;  // text, targets
    for (const Target& t : m_.targets) {
      const TargetInfo* info = find_target(t.name);
      if (!info) continue;
      const SmemLayout& layout = facts.on(*info).smem;
      std::string line;
      if (kernel) {
        if (layout.slots.empty() || !layout.complete) continue;
        line = "shared memory: " + bytes_text(layout.total) + " of buffers and mbarriers, aligned";
      } else if (const SmemSlot* slot = layout.find(id)) {
        line = "placed: " + bytes_text(slot->bytes);
        if (slot->count > 1)
          line += " (" + std::to_string(slot->count) + (slot->barrier ? " barriers" : " stages") + " of " +
                  std::to_string(slot->stride) + " B)";
        line += ", " + std::to_string(slot->align) + "-byte aligned, at offset " + std::to_string(slot->offset) +
                " of the kernel's " + std::to_string(layout.total) + " B";
      } else {
        continue;
      }
      auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == line; });
      if (same == lines.end()) lines.push_back({line, "`" + std::string(t.name) + "`"});
      else same->second += ", `" + std::string(t.name) + "`";
    }
    std::string out = kernel && !lines.empty() ? "\n" : "";
    for (const auto& [line, targets] : lines) out += "\n- " + line + " on " + targets;
    return out;
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
    h.markdown = describe.symbol(s);
    h.range = s.def.contains(offset) ? s.def : word_at(text, offset);
    for (ByteRange u : s.uses)
      if (u.contains(offset)) h.range = u;
  } else {
    for (const Stmt& st : m.stmts) {
      std::optional<Op> op = op_of(st);
      if (op && st.keyword.contains(offset)) {
        h.markdown = describe.op(*op);
        h.range = st.keyword;
        break;
      }
    }
  }
  if (h.markdown.empty()) {
    ByteRange w = word_at(text, offset);
    std::string_view word = text.substr(w.begin, w.end - w.begin);
    if (std::optional<DType> d = parse_dtype(word)) {
      h.markdown = "**" + std::string(word) + "**: element type, " + std::to_string(dtype_bits(*d)) + " bits";
      h.range = w;
    } else if (const TargetInfo* t = find_target(word)) {
      h.markdown = "**" + std::string(word) + "**: " + std::string(t->family);
      h.range = w;
    }
  }
  for (const Diagnostic& d : diagnostics) {
    if (!(d.range.contains(offset) || (d.range.begin == d.range.end && d.range.begin == offset))) continue;
    const RuleInfo& rule = rule_info(d.id);
    if (!h.markdown.empty()) h.markdown += "\n\n---\n\n";
    else h.range = d.range;
    h.markdown += "**" + std::string(rule.code) + "** (" + std::string(rule.summary) + "): " + d.message;
    h.rules.push_back(rule.code);
  }
  if (h.markdown.empty()) return std::nullopt;
  return h;
}

}  // namespace cake
