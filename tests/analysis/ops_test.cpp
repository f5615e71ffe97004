// The op table (cake/ops.h, from ops.def) against the grammar and itself:
// the op tokens of every statement form in the grammar are exactly the
// spellings ops.def gives that family, the generated parser knows each
// spelling as a token, and the table's columns are consistent with the
// families' forms. grammar.json is what the tree-sitter CLI generated from
// grammar.js (the grammar.hash test ties the two), so its `op` fields are
// grammar.js's op tokens.
#include <catch2/catch.hpp>

#include "cake/ops.h"
#include "cake/syntax.h"

#include <nlohmann/json.hpp>
#include <tree_sitter/api.h>

#include <fstream>
#include <map>
#include <set>
#include <string>

using namespace cake;

namespace {

/// The string tokens under every field named `op` of `node`.
void op_tokens(const nlohmann::json& node, bool in_op, std::set<std::string>& out) {
  if (node.is_object()) {
    if (node.value("type", "") == "FIELD") {
      op_tokens(node["content"], node.value("name", "") == "op", out);
      return;
    }
    if (in_op && node.value("type", "") == "STRING") out.insert(node["value"].get<std::string>());
    for (const auto& [key, value] : node.items()) op_tokens(value, in_op, out);
  } else if (node.is_array()) {
    for (const auto& value : node) op_tokens(value, in_op, out);
  }
}

/// The grammar rule of each family's statement form.
std::string_view rule_of(OpFamily family) {
  switch (family) {
    case OpFamily::Move: return "move_statement";
    case OpFamily::Mma: return "mma_statement";
    case OpFamily::Plain: return "plain_statement";
    case OpFamily::GroupWait: return "group_wait_statement";
    case OpFamily::Arrive: return "arrive_statement";
    case OpFamily::Commit: return "commit_statement";
    case OpFamily::ArgReduce: return "arg_reduce_statement";
  }
  return "";
}

nlohmann::json grammar() {
  std::ifstream in(std::string(CAKE_GRAMMAR_DIR) + "/src/grammar.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the grammar's op tokens are exactly ops.def's spellings, form by form") {
  nlohmann::json g = grammar();
  std::map<std::string, std::set<std::string>> by_rule;  // grammar rule -> its op tokens
  std::set<std::string> in_grammar;
  for (const auto& [rule, body] : g["rules"].items()) {
    std::set<std::string> tokens;
    op_tokens(body, false, tokens);
    if (tokens.empty()) continue;
    by_rule[rule] = tokens;
    in_grammar.insert(tokens.begin(), tokens.end());
  }
  std::map<std::string, std::set<std::string>> expected;
  std::set<std::string> in_table;
  for (const OpInfo& op : all_ops()) {
    expected[std::string(rule_of(op.family))].insert(std::string(op.spelling));
    in_table.insert(std::string(op.spelling));
  }
  CHECK(in_grammar == in_table);
  CHECK(by_rule == expected);
}

TEST_CASE("the generated parser has every op spelling as a token") {
  const TSLanguage* lang = tree_sitter_cake();
  for (const OpInfo& op : all_ops()) {
    INFO(op.spelling);
    CHECK(ts_language_symbol_for_name(lang, op.spelling.data(), static_cast<uint32_t>(op.spelling.size()), false) != 0);
  }
}

TEST_CASE("spellings look up their op and nothing else") {
  std::set<std::string_view> seen;
  for (const OpInfo& op : all_ops()) {
    INFO(op.spelling);
    CHECK(seen.insert(op.spelling).second);
    CHECK(parse_op(op.spelling) == op.op);
    CHECK(op_spelling(op.op) == op.spelling);
    CHECK(op_family(op.op) == op.family);
    CHECK(op_feature(op.op) == op.feature);
    CHECK(&op_info(op.op) == &op);
    CHECK(!op.summary.empty());
  }
  CHECK(!parse_op("tma.prefetch"));
  CHECK(!parse_op(""));
  CHECK(!parse_op("Load"));
}

TEST_CASE("operand spaces follow each family's form") {
  for (const OpInfo& op : all_ops()) {
    INFO(op.spelling);
    switch (op.family) {
      case OpFamily::Move:
        // dst and src; TMA names a tensormap box on its global side.
        CHECK((!op.operands[0].empty() || !op.operands[1].empty()));
        CHECK(op.operands[2].empty());
        if (op.operands[0].empty() || op.operands[1].empty()) CHECK(op.engine == OpEngine::CopyEngine);
        break;
      case OpFamily::Mma:
        for (SpaceSet s : op.operands) CHECK(!s.empty());
        CHECK(op.engine == OpEngine::TensorCore);
        break;
      case OpFamily::Plain:
      case OpFamily::GroupWait:
      case OpFamily::Arrive:
      case OpFamily::Commit:
      case OpFamily::ArgReduce:
        for (SpaceSet s : op.operands) CHECK(s.empty());
        break;
    }
    // A group wait blocks; what completes by a group is committed by an op of the same feature.
    if (op.family == OpFamily::GroupWait) CHECK(op.completion == OpCompletion::Blocking);
  }
  CHECK(spaces_text(op_info(Op::Load).operands[1]) == "global, const, smem or dsmem");
  CHECK(spaces_text(op_info(Op::Wgmma).operands[1]) == "smem or reg");
  CHECK(spaces_text(SpaceSet{}).empty());
}
