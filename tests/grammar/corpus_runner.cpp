// Runs the tree-sitter corpus (grammar/test/corpus/*.txt) against the grammar
// linked into cake, without the tree-sitter CLI. Each file holds cases in the
// CLI's format: a `===` header with the title, the input, a line of `---`, and
// the expected S-expression. The input is parsed with the runtime
// (tree_sitter_cake()), rendered with ts_node_string() exactly as the 0.20 CLI
// renders it (named nodes, `field: (node)`, `(MISSING "]")`, `(ERROR ...)`),
// and compared after the same whitespace normalisation the CLI applies. A
// mismatch prints the file, the case title, the expected and the actual tree.
//
// With --coverage it also fails when some visible node type of the grammar
// (a named node, a keyword, an op or a punctuation token) appears in no input
// of the corpus, so a construct added to grammar.js needs a corpus case.
//
// Usage: cake-corpus-runner [--coverage] FILE...   (no FILE: the whole corpus)
// Expected trees are regenerated with `tree-sitter test --update` in grammar/
// and reviewed as a diff; never edit them by hand.

#include "../support/test_files.h"

#include <tree_sitter/api.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

extern "C" const TSLanguage* tree_sitter_cake(void);

namespace {

namespace fs = std::filesystem;

struct CorpusCase {
  std::string title;
  std::string input;
  std::string expected;  // normalised
  unsigned line = 0;     // 1-based line of the header in the file
};

bool is_rule_line(std::string_view line, char c) {
  if (line.size() < 3) return false;
  for (char ch : line)
    if (ch != c) return false;
  return true;
}

/// Collapses whitespace runs to one space, trims, and writes `x )` as `x)`,
/// as the CLI does; with `strip_comments` also drops `;` comment lines.
std::string normalise_sexp(std::string_view text, bool strip_comments) {
  std::string kept;
  for (std::string_view line : cake::test::split_lines(text)) {
    size_t first = line.find_first_not_of(" \t");
    if (strip_comments && first != std::string_view::npos && line[first] == ';') continue;
    kept.append(line);
    kept.push_back('\n');
  }
  std::string out;
  bool pending_space = false;
  for (char c : kept) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space && c != ')') out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

/// The length of the `name: ` of a field label ` name: (` starting with the
/// space at `i`, or 0 if there is none there.
size_t field_label_at(std::string_view sexp, size_t i) {
  if (sexp[i] != ' ') return 0;
  size_t j = i + 1;
  while (j < sexp.size() && (std::isalnum(static_cast<unsigned char>(sexp[j])) || sexp[j] == '_')) ++j;
  if (j == i + 1 || j + 2 >= sexp.size() || sexp[j] != ':' || sexp[j + 1] != ' ' || sexp[j + 2] != '(')
    return 0;
  return j + 2 - (i + 1);
}

bool has_fields(std::string_view sexp) {
  for (size_t i = 0; i < sexp.size(); ++i)
    if (field_label_at(sexp, i) != 0) return true;
  return false;
}

/// Removes `name: ` before child nodes, for expectations written without
/// fields (the CLI then ignores fields too).
std::string strip_fields(std::string_view sexp) {
  std::string out;
  for (size_t i = 0; i < sexp.size(); ++i) {
    out.push_back(sexp[i]);
    i += field_label_at(sexp, i);
  }
  return out;
}

/// Indents a one-line S-expression one node per line (as `tree-sitter test`
/// prints it), for failure reports.
std::string format_sexp(std::string_view sexp) {
  std::string out, label;
  int depth = 0;
  size_t i = 0;
  while (i < sexp.size()) {
    char c = sexp[i];
    if (c == ' ') {
      ++i;
    } else if (c == '(') {
      if (!out.empty()) out += '\n';
      out += std::string(2 * depth + 4, ' ') + label + "(";
      label.clear();
      ++depth;
      ++i;
    } else if (c == ')') {
      out += ')';
      --depth;
      ++i;
    } else {
      size_t end = i;
      if (c == '"') {
        end = sexp.find('"', i + 1);
        end = end == std::string_view::npos ? sexp.size() : end + 1;
      } else {
        while (end < sexp.size() && sexp[end] != ' ' && sexp[end] != '(' && sexp[end] != ')') ++end;
      }
      std::string_view atom = sexp.substr(i, end - i);
      if (atom.back() == ':' && atom.front() != '"') {
        label = std::string(atom) + " ";
      } else {
        if (!out.empty() && out.back() != '(') out += ' ';
        out += atom;
      }
      i = end;
    }
  }
  return out;
}

/// Splits a corpus file into cases (the CLI's rules: a header is a line of
/// 3+ `=`, title lines, and another line of 3+ `=`; the longest line of 3+ `-`
/// after the header separates input from expected output).
std::vector<CorpusCase> parse_corpus(const std::string& text, std::string& error) {
  std::vector<std::string_view> lines = cake::test::split_lines(text);
  // Byte offset of each line start, to slice the input exactly.
  std::vector<size_t> starts;
  for (std::string_view line : lines) starts.push_back(static_cast<size_t>(line.data() - text.data()));
  starts.push_back(text.size());
  struct Header { size_t first_line, end_line; std::string title; };
  std::vector<Header> headers;
  for (size_t i = 0; i + 2 < lines.size(); ++i) {
    if (!is_rule_line(lines[i], '=')) continue;
    size_t j = i + 1;
    std::string title;
    while (j < lines.size() && !is_rule_line(lines[j], '=')) {
      if (!title.empty()) title += ' ';
      title += std::string(lines[j]);
      ++j;
    }
    if (j >= lines.size() || j == i + 1) continue;
    headers.push_back({i, j + 1, title});
    i = j;
  }
  std::vector<CorpusCase> cases;
  for (size_t h = 0; h < headers.size(); ++h) {
    size_t body_begin = headers[h].end_line;
    size_t body_end = h + 1 < headers.size() ? headers[h + 1].first_line : lines.size();
    size_t divider = SIZE_MAX, divider_len = 0;
    for (size_t i = body_begin; i < body_end; ++i)
      if (is_rule_line(lines[i], '-') && lines[i].size() > divider_len) {
        divider = i;
        divider_len = lines[i].size();
      }
    if (divider == SIZE_MAX) {
      error = "case `" + headers[h].title + "` (line " + std::to_string(headers[h].first_line + 1) +
              ") has no `---` divider";
      return {};
    }
    size_t input_begin = starts[body_begin];
    size_t input_end = starts[divider];
    std::string input = text.substr(input_begin, input_end - input_begin);
    // The CLI drops the newline before the divider.
    if (!input.empty() && input.back() == '\n') input.pop_back();
    if (!input.empty() && input.back() == '\r') input.pop_back();
    size_t out_begin = starts[divider + 1];
    size_t out_end = starts[body_end];
    std::string expected = normalise_sexp(text.substr(out_begin, out_end - out_begin), true);
    cases.push_back({headers[h].title, std::move(input), std::move(expected),
                     static_cast<unsigned>(headers[h].first_line + 1)});
  }
  return cases;
}

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};

/// Node types seen in the corpus inputs: (type, named).
using SeenTypes = std::set<std::pair<std::string, bool>>;

void record_types(TSNode root, SeenTypes& seen) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (!ts_node_is_missing(node)) seen.insert({ts_node_type(node), ts_node_is_named(node)});
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

/// The CLI's rendering of the parse of `input`; records its node types.
std::string render(TSParser* parser, const std::string& input, SeenTypes& seen) {
  std::unique_ptr<TSTree, TreeDeleter> tree(
      ts_parser_parse_string(parser, nullptr, input.data(), static_cast<uint32_t>(input.size())));
  if (!tree) return "<parse failed>";
  record_types(ts_tree_root_node(tree.get()), seen);
  char* raw = ts_node_string(ts_tree_root_node(tree.get()));
  std::string sexp = raw;
  std::free(raw);
  return normalise_sexp(sexp, false);
}

/// Runs every case of one corpus file; returns the number of failures, or -1
/// when the file cannot be read or holds no case.
int run_file(TSParser* parser, const fs::path& path, unsigned& passed, SeenTypes& seen) {
  std::optional<std::string> text = cake::test::read_file(path);
  if (!text) {
    std::printf("%s: cannot read\n", path.c_str());
    return -1;
  }
  std::string error;
  std::vector<CorpusCase> cases = parse_corpus(*text, error);
  if (!error.empty()) {
    std::printf("%s: %s\n", path.c_str(), error.c_str());
    return -1;
  }
  if (cases.empty()) {
    std::printf("%s: no corpus case found (a header is a line of ===, a title, a line of ===)\n",
                path.c_str());
    return -1;
  }
  int failures = 0;
  for (const CorpusCase& c : cases) {
    std::string actual = render(parser, c.input, seen);
    if (!has_fields(c.expected)) actual = strip_fields(actual);
    if (actual == c.expected) {
      ++passed;
      continue;
    }
    ++failures;
    std::printf("FAIL %s:%u: %s\n  input:\n", path.c_str(), c.line, c.title.c_str());
    for (std::string_view line : cake::test::split_lines(c.input))
      std::printf("    | %.*s\n", static_cast<int>(line.size()), line.data());
    std::printf("  expected:\n%s\n  actual:\n%s\n\n", format_sexp(c.expected).c_str(),
                format_sexp(actual).c_str());
  }
  return failures;
}

}  // namespace

/// Prints every visible node type of the grammar that no corpus input
/// contains; returns how many there are.
unsigned report_uncovered(const SeenTypes& seen) {
  const TSLanguage* language = tree_sitter_cake();
  std::set<std::pair<std::string, bool>> missing;
  for (TSSymbol symbol = 1; symbol < ts_language_symbol_count(language); ++symbol) {
    TSSymbolType type = ts_language_symbol_type(language, symbol);
    if (type == TSSymbolTypeAuxiliary) continue;  // hidden rules and supertypes
    std::pair<std::string, bool> key{ts_language_symbol_name(language, symbol), type == TSSymbolTypeRegular};
    if (!seen.contains(key)) missing.insert(key);
  }
  for (const auto& [name, named] : missing)
    std::printf("not covered by any corpus input: %s\n", named ? ("(" + name + ")").c_str() : ("\"" + name + "\"").c_str());
  return static_cast<unsigned>(missing.size());
}

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  bool coverage = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--coverage") coverage = true;
    else files.emplace_back(argv[i]);
  }
  if (files.empty()) files = cake::test::list_files(CAKE_CORPUS_DIR, {.extension = ".txt"});
  if (files.empty()) {
    std::printf("no corpus files in %s\n", CAKE_CORPUS_DIR);
    return 1;
  }
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_cake())) {
    std::printf("the grammar's ABI version %u is not supported by this tree-sitter runtime\n",
                ts_language_version(tree_sitter_cake()));
    return 1;
  }
  unsigned passed = 0;
  int failed = 0;
  bool broken = false;
  SeenTypes seen;
  for (const fs::path& file : files) {
    int f = run_file(parser.get(), file, passed, seen);
    if (f < 0) broken = true;
    else failed += f;
  }
  std::printf("%u passed, %d failed in %zu file(s)\n", passed, failed, files.size());
  if (coverage) {
    unsigned uncovered = report_uncovered(seen);
    std::printf("%zu node type(s) seen, %u of the grammar's not covered\n", seen.size(), uncovered);
    if (uncovered != 0) broken = true;
  }
  return failed == 0 && !broken ? 0 : 1;
}
