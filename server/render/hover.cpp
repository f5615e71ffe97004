// The hover's markdown (render.h): a subject's title and facts, an op's
// form and support, and the diagnostics under the cursor.
#include "render.h"
#include "units.h"

namespace cake::render {
namespace {

/// "`sm_90a`, `sm_100a`".
std::string code_list(const std::vector<std::string_view>& names) {
  std::string s;
  for (std::string_view n : names) s += (s.empty() ? "`" : ", `") + std::string(n) + "`";
  return s;
}

std::string fact_value(const HoverFact& f) {
  switch (f.kind) {
    case HoverFact::Kind::Text: return f.text;
    case HoverFact::Kind::Code: return "`" + f.text + "`";
    case HoverFact::Kind::Expr: return "`" + f.text + "`" + (f.number ? " = " + std::to_string(*f.number) : "");
    case HoverFact::Kind::Count: return std::to_string(f.number.value_or(0)) + (f.text.empty() ? "" : " " + f.text);
    case HoverFact::Kind::Shape: return f.stages.empty() ? f.text : f.stages + " stages of " + f.text;
    case HoverFact::Kind::Swizzle: return std::to_string(f.number.value_or(0)) + "B";
    case HoverFact::Kind::Bytes: {
      std::string s = bytes(f.number.value_or(0));
      if (f.per_stage) s += ", " + bytes(*f.per_stage) + " per stage";
      return s;
    }
    case HoverFact::Kind::Placement: {
      const HoverFact::Slot& slot = f.slot;
      std::string s = bytes(slot.bytes);
      if (slot.count > 1)
        s += " (" + std::to_string(slot.count) + (slot.barrier ? " barriers" : " stages") + " of " +
             std::to_string(slot.stride) + " B)";
      s += ", " + std::to_string(slot.align) + "-byte aligned, at offset " + std::to_string(slot.offset) +
           " of the kernel's " + std::to_string(f.total) + " B";
      return s + " on " + code_list(f.targets);
    }
    case HoverFact::Kind::LayoutTotal:
      return bytes(f.number.value_or(0)) + " of buffers and mbarriers, aligned on " + code_list(f.targets);
  }
  return f.text;
}

std::string subject_markdown(const HoverSubject& s) {
  switch (s.kind) {
    case HoverSubject::Kind::Symbol: {
      std::string out = "**" + s.name + "**: " + std::string(s.what);
      for (size_t i = 0; i < s.facts.size(); ++i)
        out += (i == 0 ? "\n\n- " : "\n- ") + std::string(s.facts[i].label) + ": " + fact_value(s.facts[i]);
      return out;
    }
    case HoverSubject::Kind::Op: {
      std::string out = "**" + s.name + "**";
      if (!s.form.empty()) out += " `" + std::string(s.form) + "`";
      out += "\n\n" + std::string(s.summary);
      if (!s.feature) return out + "\n\nAvailable on every target.";
      out += "\n\nNeeds " + std::string(*s.feature) + ".";
      if (!s.supported.empty()) out += " Supported on " + code_list(s.supported) + ".";
      if (!s.unsupported.empty()) out += " **Not supported** on " + code_list(s.unsupported) + ".";
      return out;
    }
    case HoverSubject::Kind::DType: return "**" + s.name + "**: element type, " + std::to_string(s.bits) + " bits";
    case HoverSubject::Kind::Target: return "**" + s.name + "**: " + std::string(s.what);
  }
  return {};
}

}  // namespace

std::string hover_markdown(const HoverInfo& h, const std::function<RuleText(std::string_view code)>& rule) {
  std::string out = h.subject ? subject_markdown(*h.subject) : std::string();
  for (const HoverDiagnostic& d : h.diagnostics) {
    if (!out.empty()) out += "\n\n---\n\n";
    out += "**" + std::string(d.code) + "**: " + std::string(d.summary);
    RuleText text = rule ? rule(d.code) : RuleText{};
    if (!text.meaning.empty()) out += "\n\n" + std::string(text.meaning);
    if (!text.link.empty()) out += "\n\n[The rule's page](" + text.link + ")";
  }
  return out;
}

}  // namespace cake::render
