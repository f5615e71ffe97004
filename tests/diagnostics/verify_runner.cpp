// The annotated-diagnostics runner, in the manner of MLIR's
// -verify-diagnostics. A test file (tests/diagnostics/*.cake) holds cases
// separated by a line `// -----`; each case is analysed on its own by
// cake::analyze (so each carries its own `target` line), with the other
// cases' lines blanked so that line numbers stay those of the file.
// Expectations are comments:
//
//   // expected-error {{substring}}                 on this line
//   // expected-error@+1 {{substring}}              on the next line
//   // expected-warning@-2 {{substring}}            two lines up
//   // expected-error@+1 [CAKE-E0101] {{undefined}} the code must match too
//   // expected-error@+1 [CAKE-E0002]               any message with that code
//   // expected-warning@+1 [CAKE-W0701] {{s}} fix {{ring(4)}}
//   // expected-warning@+1 [CAKE-W0703] {{s}} nofix
//
// `fix {{text}}`: the diagnostic's first fix, applied to the case, changes
// a line so that it contains `text`; the fixed case has no error and no
// diagnostic of the same code on that line any more (a fix must mend what
// it claims to, and leave a valid file). `nofix`: it offers no fix.
// (severities: error, warning, info, hint). Matching goes both ways: every
// expectation must be met by a diagnostic of that severity that starts on
// that line, whose message contains the substring (and whose code is the
// given one); every error and warning produced must be expected. Infos and
// hints are checked only when expected. Mismatches are printed as
// file:line: ..., and the exit status is the verdict.
//
// Usage: cake-verify-diagnostics FILE.cake...

#include "../support/test_files.h"

#include "cake/analyze.h"
#include "cake/registry.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Expected {
  cake::Severity severity;
  unsigned line;          // 1-based, in the file
  unsigned written_on;    // the line of the annotation
  std::string code;       // empty: any
  std::string substring;  // empty: any
  std::optional<std::string> fix;  // `fix {{text}}`
  bool nofix = false;
  bool matched = false;
};

struct Case {
  unsigned first_line = 1, last_line = 0;  // 1-based, inclusive
  std::vector<Expected> expected;
};

const char* severity_word(cake::Severity severity) {
  switch (severity) {
    case cake::Severity::Error: return "error";
    case cake::Severity::Warning: return "warning";
    case cake::Severity::Information: return "info";
    case cake::Severity::Hint: return "hint";
  }
  return "?";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// A line `// -----` (spaces allowed around the parts).
bool is_separator(std::string_view line) {
  line = trim(line);
  return line.starts_with("//") && trim(line.substr(2)) == "-----";
}

/// Reads the annotations of one line into `out`; returns an error message
/// for a malformed one.
std::string parse_annotations(std::string_view line, unsigned line_no, unsigned line_count,
                              std::vector<Expected>& out) {
  static constexpr std::pair<std::string_view, cake::Severity> kWords[] = {
      {"error", cake::Severity::Error},
      {"warning", cake::Severity::Warning},
      {"info", cake::Severity::Information},
      {"hint", cake::Severity::Hint},
  };
  auto skip_spaces = [&](size_t i) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    return i;
  };
  for (size_t at = line.find("expected-"); at != std::string_view::npos; at = line.find("expected-", at + 1)) {
    size_t i = at + 9;
    Expected e{};
    bool known = false;
    for (auto [word, severity] : kWords) {
      if (line.substr(i).starts_with(word)) {
        e.severity = severity;
        i += word.size();
        known = true;
        break;
      }
    }
    if (!known) return "unknown annotation `" + std::string(line.substr(at, 20)) + "`";
    long target = line_no;
    if (i < line.size() && line[i] == '@') {
      ++i;
      char sign = i < line.size() && (line[i] == '+' || line[i] == '-') ? line[i++] : 0;
      size_t digits = i;
      while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
      if (digits == i) return "`@` must be followed by +N, -N or a line number";
      long n = std::stol(std::string(line.substr(digits, i - digits)));
      target = sign == '+' ? target + n : sign == '-' ? target - n : n;
    }
    if (target < 1 || target > static_cast<long>(line_count))
      return "annotation points at line " + std::to_string(target) + ", outside the file";
    e.line = static_cast<unsigned>(target);
    e.written_on = line_no;
    i = skip_spaces(i);
    bool has_code = false, has_message = false;
    if (i < line.size() && line[i] == '[') {
      size_t close = line.find(']', i);
      if (close == std::string_view::npos) return "unclosed `[` in annotation";
      e.code = std::string(trim(line.substr(i + 1, close - i - 1)));
      if (!cake::find_rule(e.code)) return "annotation names unknown code `" + e.code + "`";
      has_code = true;
      i = skip_spaces(close + 1);
    }
    if (line.substr(i).starts_with("{{")) {
      size_t close = line.find("}}", i + 2);
      if (close == std::string_view::npos) return "unclosed `{{` in annotation";
      e.substring = std::string(line.substr(i + 2, close - i - 2));
      has_message = true;
      i = skip_spaces(close + 2);
    }
    if (line.substr(i).starts_with("nofix")) {
      e.nofix = true;
    } else if (line.substr(i).starts_with("fix")) {
      i = skip_spaces(i + 3);
      size_t close = line.find("}}", i);
      if (!line.substr(i).starts_with("{{") || close == std::string_view::npos) return "`fix` needs {{text}}";
      e.fix = std::string(line.substr(i + 2, close - i - 2));
    }
    if (!has_code && !has_message)
      return "annotation needs a {{message substring}} or a [CAKE-Ennnn] code";
    out.push_back(std::move(e));
  }
  return {};
}

unsigned line_of(std::string_view text, uint32_t offset) {
  unsigned line = 1;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

/// Checks `d`'s fixes against `e`'s `fix`/`nofix`; returns what is wrong.
std::string check_fix(const Expected& e, const cake::Diagnostic& d, const std::string& source) {
  if (e.nofix) return d.fixes.empty() ? "" : "expected no fix, got \"" + d.fixes.front().title + "\"";
  if (!e.fix) return {};
  if (d.fixes.empty()) return "expected a fix, got none";
  // Apply the edits from the last: earlier offsets stay valid.
  std::vector<cake::TextEdit> edits = d.fixes.front().edits;
  std::sort(edits.begin(), edits.end(), [](const auto& x, const auto& y) { return x.range.begin > y.range.begin; });
  std::string fixed = source;
  for (const cake::TextEdit& edit : edits) fixed.replace(edit.range.begin, edit.range.end - edit.range.begin, edit.new_text);
  bool found = false;
  std::vector<std::string_view> lines = cake::test::split_lines(fixed);
  for (const cake::TextEdit& edit : edits) {
    // The lines an edit's text lands on: its first, and one more per line
    // break it inserts (a statement added after another).
    unsigned first = line_of(source, edit.range.begin);
    unsigned last = first + static_cast<unsigned>(std::count(edit.new_text.begin(), edit.new_text.end(), '\n'));
    for (unsigned line = first; line <= last && line <= lines.size(); ++line)
      if (lines[line - 1].find(*e.fix) != std::string_view::npos) found = true;
  }
  if (!found) return "no line the fix changes contains \"" + *e.fix + "\"";
  std::unique_ptr<cake::Analysis> after = cake::analyze(fixed);
  for (const cake::Diagnostic& a : after->diagnostics) {
    if (a.severity == cake::Severity::Error) return "the fixed case has an error: " + a.message;
    if (a.id == d.id && line_of(after->text, a.range.begin) == e.line) return "the fixed case still has it: " + a.message;
  }
  return {};
}

/// Verifies one file; prints every mismatch and returns how many there were.
unsigned verify_file(const fs::path& path) {
  std::optional<std::string> text = cake::test::read_file(path);
  if (!text) {
    std::printf("%s: cannot read\n", path.c_str());
    return 1;
  }
  std::vector<std::string_view> lines = cake::test::split_lines(*text);
  unsigned problems = 0;

  // Split into cases and read the annotations.
  std::vector<Case> cases(1);
  for (unsigned i = 0; i < lines.size(); ++i) {
    unsigned line_no = i + 1;
    if (is_separator(lines[i])) {
      cases.back().last_line = line_no - 1;
      cases.emplace_back().first_line = line_no + 1;
      continue;
    }
    std::string error = parse_annotations(lines[i], line_no, static_cast<unsigned>(lines.size()),
                                          cases.back().expected);
    if (!error.empty()) {
      std::printf("%s:%u: %s\n", path.c_str(), line_no, error.c_str());
      ++problems;
    }
  }
  cases.back().last_line = static_cast<unsigned>(lines.size());

  unsigned expectations = 0;
  for (size_t c = 0; c < cases.size(); ++c) {
    Case& kase = cases[c];
    for (const Expected& e : kase.expected) {
      if (e.line < kase.first_line || e.line > kase.last_line) {
        std::printf("%s:%u: annotation points at line %u, outside its case (lines %u-%u)\n",
                    path.c_str(), e.written_on, e.line, kase.first_line, kase.last_line);
        ++problems;
      }
    }
    // The case's text: its own lines, every other line blank.
    std::string source;
    for (unsigned i = 0; i < lines.size(); ++i) {
      unsigned line_no = i + 1;
      if (line_no >= kase.first_line && line_no <= kase.last_line) source.append(lines[i]);
      source.push_back('\n');
    }
    std::unique_ptr<cake::Analysis> analysis = cake::analyze(source);
    for (const cake::Diagnostic& d : analysis->diagnostics) {
      unsigned line = line_of(analysis->text, d.range.begin);
      std::string_view code = cake::rule_info(d.id).code;
      bool found = false;
      for (Expected& e : kase.expected) {
        if (e.matched || e.severity != d.severity || e.line != line) continue;
        if (!e.code.empty() && e.code != code) continue;
        if (d.message.find(e.substring) == std::string::npos) continue;
        e.matched = found = true;
        if (std::string wrong = check_fix(e, d, source); !wrong.empty()) {
          std::printf("%s:%u: %s (annotation on line %u, case %zu)\n", path.c_str(), e.line, wrong.c_str(),
                      e.written_on, c + 1);
          ++problems;
        }
        break;
      }
      if (!found && (d.severity == cake::Severity::Error || d.severity == cake::Severity::Warning)) {
        std::printf("%s:%u: unexpected %s [%.*s] %s  (case %zu)\n", path.c_str(), line,
                    severity_word(d.severity), static_cast<int>(code.size()), code.data(),
                    d.message.c_str(), c + 1);
        ++problems;
      }
    }
    for (const Expected& e : kase.expected) {
      ++expectations;
      if (e.matched) continue;
      ++problems;
      std::printf("%s:%u: expected %s%s%s%s%s was not produced (annotation on line %u, case %zu)\n",
                  path.c_str(), e.line, severity_word(e.severity), e.code.empty() ? "" : " [",
                  e.code.c_str(), e.code.empty() ? "" : "]",
                  e.substring.empty() ? "" : (" {{" + e.substring + "}}").c_str(), e.written_on, c + 1);
      for (const cake::Diagnostic& d : analysis->diagnostics) {
        if (line_of(analysis->text, d.range.begin) != e.line) continue;
        std::string_view code = cake::rule_info(d.id).code;
        std::printf("    on that line: %s [%.*s] %s\n", severity_word(d.severity),
                    static_cast<int>(code.size()), code.data(), d.message.c_str());
      }
    }
  }
  std::printf("%s: %zu case(s), %u expectation(s), %u problem(s)\n", path.c_str(), cases.size(),
              expectations, problems);
  return problems;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s FILE.cake...\n", argv[0]);
    return 2;
  }
  unsigned problems = 0;
  for (int i = 1; i < argc; ++i) problems += verify_file(argv[i]);
  return problems == 0 ? 0 : 1;
}
