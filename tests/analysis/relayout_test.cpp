// The metamorphic layout test: the diagnostics of a file do not depend on
// its layout. Every case of tests/diagnostics/*.cake (split at `// -----`,
// the other cases' lines blanked, as the annotated runner does) and every
// docs/examples/*.cake file is re-laid out two ways:
//
//   newline   a line break at every boundary between two tokens;
//   comment   ` /*x*/ ` at every boundary between two tokens;
//
// and analysed again. The relaid text must give the same codes on the same
// tokens: each original diagnostic's range, mapped through the insertions,
// is the range of a relaid diagnostic of the same code, and none is left
// over. Each fix must give the same result: applying a diagnostic's first
// fix to the relaid text gives the same tokens (comments aside) and the same
// codes as re-laying out the original text with the fix applied.
//
// Tokens are the tree's leaves (comments included), so nothing is inserted
// inside a token or a comment. Boundaries that are skipped, and why:
//   - after a `//` comment (comment mode): the insertion would join the
//     comment, which runs to the end of its line;
//   - cases with a syntax error (E00xx) are left out: tree-sitter's error
//     recovery weighs skipped bytes and lines, so which tokens an ERROR
//     node swallows may legitimately change with the layout;
//   - cases with a `// cake: allow(...)` suppression are left out of the
//     newline mode: a suppression covers its own line and the next one by
//     design, so moving tokens to other lines changes what it covers.
// The grammar has no other adjacency: whitespace and comments are extras
// everywhere (grammar.js), and no token is `token.immediate`.
//
// Usage: cake-relayout-test DIR... (default: tests/diagnostics and
// docs/examples). Exits 77 when it finds no file.

#include "support/test_files.h"

#include "cake/analyze.h"
#include "cake/registry.h"
#include "cake/syntax.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

enum class Mode { Newline, Comment };

const char* mode_name(Mode m) { return m == Mode::Newline ? "newline" : "comment"; }

struct Insertion {
  uint32_t at;     // an offset of the original text
  uint32_t bytes;  // inserted before the original byte at `at`
};

struct Relaid {
  std::string text;
  std::vector<Insertion> insertions;  // ascending

  /// Where the original byte at `offset` is now (inserted text at the same
  /// offset comes before it).
  uint32_t begin(uint32_t offset) const { return offset + inserted(offset, true); }
  /// Where the end of an original range ending at `offset` is now (text
  /// inserted at `offset` comes after it).
  uint32_t end(uint32_t offset) const { return offset + inserted(offset, false); }
  cake::ByteRange map(cake::ByteRange r) const {
    if (r.begin == r.end) return {begin(r.begin), begin(r.begin)};
    return {begin(r.begin), end(r.end)};
  }

 private:
  uint32_t inserted(uint32_t offset, bool at_too) const {
    uint32_t n = 0;
    for (const Insertion& i : insertions)
      if (i.at < offset || (at_too && i.at == offset)) n += i.bytes;
    return n;
  }
};

/// The leaves of the tree of `text`: its tokens and comments, in order.
std::vector<cake::ByteRange> leaves(std::string_view text) {
  cake::SyntaxTree tree = cake::parse(text);
  std::vector<cake::ByteRange> out;
  tree.for_each_root([&](TSNode root) {
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    for (bool more = true; more;) {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      if (ts_node_child_count(n) > 0) {
        ts_tree_cursor_goto_first_child(&cursor);
        continue;
      }
      cake::ByteRange r = cake::node_range(n);
      if (r.end > r.begin && (out.empty() || out.back().end <= r.begin)) out.push_back(r);
      while (more && !ts_tree_cursor_goto_next_sibling(&cursor)) more = ts_tree_cursor_goto_parent(&cursor);
    }
    ts_tree_cursor_delete(&cursor);
  });
  return out;
}

Relaid relayout(std::string_view text, Mode mode) {
  Relaid out;
  std::string_view insert = mode == Mode::Newline ? "\n" : " /*x*/ ";
  std::vector<cake::ByteRange> tokens = leaves(text);
  uint32_t copied = 0;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    cake::ByteRange t = tokens[i];
    std::string_view spelled = text.substr(t.begin, t.end - t.begin);
    if (mode == Mode::Comment && spelled.starts_with("//")) continue;
    out.text.append(text.substr(copied, t.end - copied));
    out.text.append(insert);
    out.insertions.push_back({t.end, static_cast<uint32_t>(insert.size())});
    copied = t.end;
  }
  out.text.append(text.substr(copied));
  return out;
}

std::string apply_fix(std::string_view text, const cake::Fix& fix) {
  std::vector<cake::TextEdit> edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](const auto& x, const auto& y) { return x.range.begin > y.range.begin; });
  std::string out(text);
  for (const cake::TextEdit& e : edits)
    if (e.range.begin <= e.range.end && e.range.end <= out.size())
      out.replace(e.range.begin, e.range.end - e.range.begin, e.new_text);
  return out;
}

/// The spellings of `text`'s tokens, comments left out: the text up to layout.
std::vector<std::string> spellings(std::string_view text) {
  std::vector<std::string> out;
  for (cake::ByteRange r : leaves(text)) {
    std::string_view t = text.substr(r.begin, r.end - r.begin);
    if (!t.starts_with("//") && !t.starts_with("/*")) out.emplace_back(t);
  }
  return out;
}

std::string_view code_of(const cake::Diagnostic& d) { return cake::rule_info(d.id).code; }

/// The codes of `text`'s errors and warnings, sorted.
std::vector<std::string> codes(const std::string& text) {
  std::vector<std::string> out;
  std::unique_ptr<cake::Analysis> a = cake::analyze(text);
  for (const cake::Diagnostic& d : a->diagnostics)
    if (d.severity == cake::Severity::Error || d.severity == cake::Severity::Warning)
      out.emplace_back(code_of(d));
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s.empty() ? "(none)" : s;
}

struct Counts {
  unsigned cases = 0, diagnostics = 0, fixes = 0, problems = 0;
};

/// Checks one text in one mode; `where` names it in messages.
void check(const std::string& where, const std::string& text, Mode mode, Counts& counts) {
  std::unique_ptr<cake::Analysis> original = cake::analyze(text);
  Relaid relaid = relayout(text, mode);
  std::unique_ptr<cake::Analysis> after = cake::analyze(relaid.text);
  auto problem = [&](const std::string& what) {
    std::printf("%s (%s): %s\n", where.c_str(), mode_name(mode), what.c_str());
    ++counts.problems;
  };
  std::vector<bool> used(after->diagnostics.size(), false);
  for (const cake::Diagnostic& d : original->diagnostics) {
    ++counts.diagnostics;
    cake::ByteRange want = relaid.map(d.range);
    size_t match = after->diagnostics.size();
    for (size_t i = 0; i < after->diagnostics.size() && match == after->diagnostics.size(); ++i)
      if (!used[i] && after->diagnostics[i].id == d.id && after->diagnostics[i].range == want) match = i;
    std::string spelled = text.substr(d.range.begin, std::min<size_t>(d.range.end - d.range.begin, 40));
    if (match == after->diagnostics.size()) {
      problem(std::string(code_of(d)) + " on `" + spelled + "` (" + std::to_string(d.range.begin) + ".." +
              std::to_string(d.range.end) + ") is not on the same tokens after the relayout: " + d.message);
      continue;
    }
    used[match] = true;
    const cake::Diagnostic& r = after->diagnostics[match];
    if (d.fixes.empty() != r.fixes.empty()) {
      problem(std::string(code_of(d)) + " on `" + spelled + "` has a fix in one layout only");
      continue;
    }
    if (d.fixes.empty()) continue;
    ++counts.fixes;
    std::string relaid_then_fixed = apply_fix(relaid.text, r.fixes.front());
    std::string fixed_then_relaid = relayout(apply_fix(text, d.fixes.front()), mode).text;
    if (spellings(relaid_then_fixed) != spellings(fixed_then_relaid)) {
      problem("the fix \"" + d.fixes.front().title + "\" of " + std::string(code_of(d)) + " on `" + spelled +
              "` edits other tokens in the relaid text");
      continue;
    }
    std::vector<std::string> relaid_fixed = codes(relaid_then_fixed);
    std::vector<std::string> fixed_relaid = codes(fixed_then_relaid);
    if (relaid_fixed != fixed_relaid)
      problem("the fix \"" + d.fixes.front().title + "\" of " + std::string(code_of(d)) + " on `" + spelled +
              "` gives " + join(relaid_fixed) + " on the relaid text but " + join(fixed_relaid) +
              " on the relaid fixed text");
  }
  for (size_t i = 0; i < after->diagnostics.size(); ++i)
    if (!used[i])
      problem("the relayout adds " + std::string(code_of(after->diagnostics[i])) + ": " + after->diagnostics[i].message);
}

bool has_syntax_error(const std::string& text) {
  std::unique_ptr<cake::Analysis> a = cake::analyze(text);
  for (const cake::Diagnostic& d : a->diagnostics)
    if (code_of(d).starts_with("CAKE-E00")) return true;
  return false;
}

/// The cases of a file: split at `// -----` lines, each with the other
/// cases' lines blanked so that offsets and lines stay those of the file.
std::vector<std::string> cases_of(std::string_view text) {
  std::vector<std::string_view> lines = cake::test::split_lines(text);
  std::vector<std::pair<size_t, size_t>> spans{{0, 0}};
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    if (l == "// -----") {
      spans.back().second = i;
      spans.push_back({i + 1, i + 1});
    }
  }
  spans.back().second = lines.size();
  std::vector<std::string> out;
  for (auto [first, last] : spans) {
    std::string source;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i >= first && i < last) source.append(lines[i]);
      source.push_back('\n');
    }
    out.push_back(std::move(source));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> dirs;
  for (int i = 1; i < argc; ++i) dirs.emplace_back(argv[i]);
  if (dirs.empty()) dirs = {fs::path(CAKE_TESTS_DIR) / "diagnostics", fs::path(CAKE_EXAMPLES_DIR)};
  Counts counts;
  unsigned files = 0;
  for (const fs::path& dir : dirs) {
    for (const fs::path& path : cake::test::list_files(dir, {.extension = ".cake"})) {
      std::optional<std::string> text = cake::test::read_file(path);
      if (!text) continue;
      ++files;
      std::vector<std::string> cases = cases_of(*text);
      for (size_t c = 0; c < cases.size(); ++c) {
        if (has_syntax_error(cases[c])) continue;
        ++counts.cases;
        std::string where = path.filename().string() + (cases.size() > 1 ? " case " + std::to_string(c + 1) : "");
        if (cases[c].find("cake: allow") == std::string::npos) check(where, cases[c], Mode::Newline, counts);
        check(where, cases[c], Mode::Comment, counts);
      }
    }
  }
  std::printf("%u file(s), %u case(s), %u diagnostic(s), %u fix(es), %u problem(s)\n", files, counts.cases,
              counts.diagnostics, counts.fixes, counts.problems);
  if (counts.cases == 0) return 77;
  return counts.problems == 0 ? 0 : 1;
}
