// apply_suppressions(): reads the `// cake: allow(...)` comments and applies
// them; see suppression.h. A comment is a directive when its text, after
// `//`, starts with `cake:` and the word `allow`; any other comment is prose.
// Only line comments are directives. An allow covers its own line and the
// next; it never silences errors.
//
// Unused allows (W0091) may themselves be silenced, by an allow of
// CAKE-W0091 in the same comment or on the line above. Whether an allow is
// used then depends on the W0091 reports of the line below it, so comments
// are settled bottom-up: each one's reports are final before the comment
// above it is looked at. An entry never silences the report about itself.
#include "suppression.h"

#include "diag_builder.h"
#include "model/cst.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>

namespace cake {
namespace {

struct Entry {
  std::string_view code;
  ByteRange range;
  const RuleInfo* rule = nullptr;  // set when the entry can silence something
  bool used = false;
};

struct Allow {
  ByteRange comment;
  uint32_t line = 0;
  std::vector<Entry> entries;
};

bool is_code_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

/// Reads one comment. nullopt: not a directive, or a malformed one
/// (reported as E0092).
std::optional<Allow> read_allow(std::string_view text, ByteRange comment, std::vector<Diagnostic>& out) {
  std::string_view s = text.substr(comment.begin, comment.end - comment.begin);
  if (!s.starts_with("//")) return std::nullopt;
  size_t i = 2;
  auto skip = [&] {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  };
  skip();
  if (!s.substr(i).starts_with("cake:")) return std::nullopt;
  size_t directive = i;
  i += 5;
  skip();
  if (!s.substr(i).starts_with("allow") || (i + 5 < s.size() && is_code_char(s[i + 5]))) return std::nullopt;
  i += 5;
  auto malformed = [&] {
    out.push_back(make_diagnostic(DiagId::InvalidSuppression,
                                  ByteRange{comment.begin + uint32_t(directive), comment.end},
                                  std::string("malformed suppression: expected `// cake: allow(CODE, ...)`")));
    return std::nullopt;
  };
  skip();
  if (i >= s.size() || s[i] != '(') return malformed();
  ++i;
  Allow a;
  a.comment = comment;
  for (;;) {
    skip();
    size_t start = i;
    while (i < s.size() && is_code_char(s[i])) ++i;
    if (i == start) return malformed();
    Entry e;
    e.code = s.substr(start, i - start);
    e.range = {comment.begin + uint32_t(start), comment.begin + uint32_t(i)};
    a.entries.push_back(e);
    skip();
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == ')') break;
    return malformed();
  }
  return a;
}

/// Checks each entry's code: known, and not an error.
void validate(Allow& a, std::vector<Diagnostic>& out) {
  for (Entry& e : a.entries) {
    const RuleInfo* rule = find_rule(e.code);
    if (!rule) {
      Diagnostic d = make_diagnostic(DiagId::InvalidSuppression, e.range,
                                     "unknown code `" + std::string(e.code) + "` in `allow`");
      std::string upper;
      for (char c : e.code) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      for (std::string guess : {upper, "CAKE-" + upper})
        if (const RuleInfo* r = find_rule(guess); r && r->severity != Severity::Error) {
          d.fixes.push_back({"replace with `" + guess + "`", {{e.range, guess}}, true});
          break;
        }
      out.push_back(std::move(d));
      continue;
    }
    if (rule->severity == Severity::Error) {
      out.push_back(make_diagnostic(DiagId::InvalidSuppression, e.range,
                                    "`" + std::string(e.code) + "` is an error: errors cannot be silenced"));
      continue;
    }
    e.rule = rule;
  }
}

/// Deletes the whole comment, with its line when it is alone on it.
ByteRange comment_removal(std::string_view text, ByteRange c) {
  uint32_t b = c.begin, e = c.end;
  while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
  if (b == 0 || text[b - 1] == '\n') {
    if (e < text.size() && text[e] == '\r') ++e;
    if (e < text.size() && text[e] == '\n') ++e;
  }
  return {b, e};
}

Fix removal(std::string_view text, const Allow& a, size_t index, bool whole_comment) {
  if (whole_comment) return {"remove the unused allow", {{comment_removal(text, a.comment), ""}}, true};
  const Entry& e = a.entries[index];
  ByteRange r = index + 1 < a.entries.size() ? ByteRange{e.range.begin, a.entries[index + 1].range.begin}
                                             : ByteRange{a.entries[index - 1].range.end, e.range.end};
  return {"remove `" + std::string(e.code) + "` from the allow", {{r, ""}}, true};
}

}  // namespace

void apply_suppressions(const SyntaxTree& tree, std::string_view text, const LineIndex& lines,
                        std::vector<Diagnostic>& diagnostics) {
  // Only comments holding `cake:` can be directives: find those without
  // walking the whole tree.
  const Cst& cst = Cst::get();
  std::map<uint32_t, Allow> by_line;
  std::vector<Diagnostic> found;
  uint32_t last_comment = UINT32_MAX;
  for (size_t at = text.find("cake:"); at != std::string_view::npos; at = text.find("cake:", at + 1)) {
    TSNode n = ts_node_descendant_for_byte_range(tree.root_at(uint32_t(at)), uint32_t(at), uint32_t(at + 1));
    if (ts_node_is_null(n) || ts_node_symbol(n) != cst.comment) continue;
    ByteRange c = node_range(n);
    if (c.begin == last_comment || c.end > text.size()) continue;
    last_comment = c.begin;
    std::optional<Allow> a = read_allow(text, c, found);
    if (!a) continue;
    validate(*a, found);
    a->line = lines.position(c.begin).line;
    by_line[a->line] = std::move(*a);  // one line comment per line
  }
  if (by_line.empty()) {
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    return;
  }

  // Silence the checks' warnings.
  auto covers = [&](Allow& a, DiagId id) {
    bool any = false;
    for (Entry& e : a.entries)
      if (e.rule && e.rule->id == id) any = e.used = true;
    return any;
  };
  std::erase_if(diagnostics, [&](const Diagnostic& d) {
    if (d.severity == Severity::Error) return false;
    uint32_t line = lines.position(d.range.begin).line;
    bool silenced = false;
    for (uint32_t l : {line, line - 1}) {
      if (l > line) continue;  // line 0 has no line above
      auto it = by_line.find(l);
      if (it != by_line.end() && covers(it->second, d.id)) silenced = true;
    }
    return silenced;
  });

  // Report unused entries, bottom-up (see the file header).
  for (auto it = by_line.rbegin(); it != by_line.rend(); ++it) {
    Allow& a = it->second;
    auto above = by_line.find(a.line - 1);
    Allow* silencer = a.line > 0 && above != by_line.end() ? &above->second : nullptr;
    // Entries of W0091 last: they may silence their siblings' reports.
    std::vector<size_t> order;
    for (size_t i = 0; i < a.entries.size(); ++i)
      if (a.entries[i].rule && a.entries[i].rule->id != DiagId::UnusedSuppression) order.push_back(i);
    for (size_t i = 0; i < a.entries.size(); ++i)
      if (a.entries[i].rule && a.entries[i].rule->id == DiagId::UnusedSuppression) order.push_back(i);
    std::vector<size_t> unused;
    for (size_t i : order) {
      if (a.entries[i].used) continue;
      bool silenced = false;
      for (size_t j = 0; j < a.entries.size(); ++j)
        if (j != i && a.entries[j].rule && a.entries[j].rule->id == DiagId::UnusedSuppression)
          silenced = a.entries[j].used = true;
      if (!silenced && silencer) silenced = covers(*silencer, DiagId::UnusedSuppression);
      if (!silenced) unused.push_back(i);
    }
    bool whole = std::all_of(a.entries.begin(), a.entries.end(), [&](const Entry& e) {
      return !e.rule || std::find(unused.begin(), unused.end(), size_t(&e - a.entries.data())) != unused.end();
    });
    for (size_t i : unused) {
      const Entry& e = a.entries[i];
      Diagnostic d = make_diagnostic(DiagId::UnusedSuppression, e.range,
                                     "`" + std::string(e.code) +
                                         "` is allowed here, but nothing on this line or the next reports it");
      d.fixes.push_back(removal(text, a, i, whole));
      found.push_back(std::move(d));
    }
  }
  diagnostics.insert(diagnostics.end(), found.begin(), found.end());
}

}  // namespace cake
