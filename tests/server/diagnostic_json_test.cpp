// Tests of server/diagnostic_json and server/sarif: the LSP Diagnostic
// object (UTF-16 ranges, code and docs link, related information, targets,
// fixes) and the SARIF log (rules, results, regions, fixes, notifications).
#include "diagnostic_json.h"
#include "sarif.h"

#include "cake/registry.h"

#include <catch2/catch.hpp>

namespace cake {
namespace {

using json = nlohmann::ordered_json;

struct Doc {
  explicit Doc(std::string s) : text(std::move(s)), lines(text), positions(text, lines) {}
  std::string text;
  LineIndex lines;
  PositionConverter positions;
};

/// `const T = 1` then `const T = 😀2`: a duplicate with a note and a fix.
Diagnostic duplicate() {
  Diagnostic d;
  d.id = DiagId::DuplicateName;
  d.severity = Severity::Error;
  d.range = {22, 23};
  d.message = "`T` is already defined";
  d.related.push_back({{6, 7}, "first defined here"});
  d.fixes.push_back({"rename to `T2`", {{{22, 23}, "T2"}}, true});
  return d;
}

const char* kText = "const T = 1\n\xF0\x9F\x98\x80" "const T = 2\n";

json range(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return {{"start", {{"line", l1}, {"character", c1}}}, {"end", {{"line", l2}, {"character", c2}}}};
}

TEST_CASE("a diagnostic becomes an LSP Diagnostic") {
  Doc doc(kText);
  DocumentContext context{"file:///w/k.cake", &doc.positions, {"sm_90a"}};
  json out = diagnostic_to_json(duplicate(), context, "/opt/cake docs");
  CHECK(out["range"] == range(1, 8, 1, 9));
  CHECK(out["severity"] == 1);
  CHECK(out["code"] == "CAKE-E0102");
  CHECK(out["codeDescription"]["href"] == "file:///opt/cake%20docs/rules/CAKE-E0102.md");
  CHECK(out["source"] == "cake");
  CHECK(out["message"] == "`T` is already defined");
  REQUIRE(out["relatedInformation"].size() == 1);
  CHECK(out["relatedInformation"][0]["location"]["uri"] == "file:///w/k.cake");
  CHECK(out["relatedInformation"][0]["location"]["range"] == range(0, 6, 0, 7));
  CHECK(out["relatedInformation"][0]["message"] == "first defined here");
  CHECK(out["data"]["targets"] == json::array({"sm_90a"}));
  REQUIRE(out["data"]["fixes"].size() == 1);
  json fix = out["data"]["fixes"][0];
  CHECK(fix["title"] == "rename to `T2`");
  CHECK(fix["isPreferred"] == true);
  CHECK(fix["edits"][0]["range"] == range(1, 8, 1, 9));
  CHECK(fix["edits"][0]["newText"] == "T2");
}

TEST_CASE("a diagnostic's own targets win over the file's; no docs, no link") {
  Doc doc(kText);
  Diagnostic d = duplicate();
  d.severity = Severity::Hint;
  d.targets = {"sm_80"};
  d.related.clear();
  DocumentContext context{"file:///w/k.cake", &doc.positions, {"sm_80", "sm_90a"}};
  json out = diagnostic_to_json(d, context, "");
  CHECK(out["severity"] == 4);
  CHECK(out["data"]["targets"] == json::array({"sm_80"}));
  CHECK_FALSE(out.contains("codeDescription"));
  CHECK_FALSE(out.contains("relatedInformation"));
}

TEST_CASE("dump_json replaces invalid UTF-8 instead of throwing") {
  json value = {{"message", "bad \xFF byte"}};
  CHECK(dump_json(value, -1) == "{\"message\":\"bad \xEF\xBF\xBD byte\"}");
}

TEST_CASE("write_diagnostic_json prints what dump_json prints for diagnostic_to_json") {
  // Escapes, non-ASCII text, invalid UTF-8, quotes and control characters;
  // with and without notes, fixes, a docs link and own targets; nested in a
  // document at depth 2 as `cake check --format json` nests them.
  Doc doc(kText);
  Diagnostic plain = duplicate();
  Diagnostic odd = duplicate();
  odd.message = "tab\there, \"quoted\" \\ back, \xC2\xB5s, bad \xFF byte, bell \x07";
  odd.fixes.push_back({"two edits", {{{0, 1}, "a\nb"}, {{2, 3}, ""}}, false});
  odd.related.push_back({{0, 0}, "\xE2\x89\x88 empty"});
  odd.targets = {"sm_80", "sm_90a"};
  Diagnostic bare = duplicate();
  bare.related.clear();
  bare.fixes.clear();
  DocumentContext context{"file:///w/k \xC3\xA9.cake", &doc.positions, {"sm_90a"}};
  for (const char* docs : {"/opt/cake docs", ""}) {
    std::string written, nested;
    JsonWriter single(written), outer(nested);
    json diagnostics = json::array();
    outer.begin_object();
    outer.value("version", 1);
    outer.begin_array("diagnostics");
    for (const Diagnostic* d : {&plain, &odd, &bare}) {
      written.clear();
      write_diagnostic_json(single, *d, context, docs);
      json value = diagnostic_to_json(*d, context, docs);
      CHECK(written == dump_json(value));
      write_diagnostic_json(outer, *d, context, docs);
      diagnostics.push_back(std::move(value));
    }
    outer.end();
    outer.begin_array("empty");
    outer.end();
    outer.end();
    CHECK(nested == dump_json({{"version", 1}, {"diagnostics", diagnostics}, {"empty", json::array()}}));
  }
}

TEST_CASE("SARIF results carry 1-based UTF-16 regions, notes and fixes") {
  Doc doc(kText);
  SarifArtifact artifact{"k.cake", "SRCROOT"};
  json results = sarif_results({duplicate()}, artifact, doc.positions, {"sm_90a"});
  REQUIRE(results.size() == 1);
  json result = results[0];
  CHECK(result["ruleId"] == "CAKE-E0102");
  CHECK(all_rules()[result["ruleIndex"].get<size_t>()].code == "CAKE-E0102");
  CHECK(result["level"] == "error");
  CHECK(result["message"]["text"] == "`T` is already defined");
  json location = result["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"] == json({{"uri", "k.cake"}, {"uriBaseId", "SRCROOT"}}));
  CHECK(location["region"] == json({{"startLine", 2}, {"startColumn", 9}, {"endLine", 2}, {"endColumn", 10}}));
  CHECK(result["relatedLocations"][0]["message"]["text"] == "first defined here");
  CHECK(result["relatedLocations"][0]["physicalLocation"]["region"]["startColumn"] == 7);
  json change = result["fixes"][0]["artifactChanges"][0];
  CHECK(result["fixes"][0]["description"]["text"] == "rename to `T2`");
  CHECK(change["replacements"][0]["deletedRegion"]["startColumn"] == 9);
  CHECK(change["replacements"][0]["insertedContent"]["text"] == "T2");
  CHECK(result["properties"]["targets"] == json::array({"sm_90a"}));
}

TEST_CASE("the SARIF log has one run with every rule and the column kind") {
  SarifOptions options{"1.2.3", "/d", "file:///w/"};
  json log = sarif_log(json::array(), {{"cannot read 'x'", {"x", "SRCROOT"}}}, options);
  CHECK(log["version"] == "2.1.0");
  REQUIRE(log["runs"].size() == 1);
  json run = log["runs"][0];
  CHECK(run["columnKind"] == "utf16CodeUnits");
  CHECK(run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file:///w/");
  json driver = run["tool"]["driver"];
  CHECK(driver["name"] == "cake");
  CHECK(driver["version"] == "1.2.3");
  CHECK(driver["informationUri"] == "file:///d/cli.md");
  REQUIRE(driver["rules"].size() == all_rules().size());
  for (size_t i = 0; i < all_rules().size(); ++i) {
    const RuleInfo& rule = all_rules()[i];
    json entry = driver["rules"][i];
    CHECK(entry["id"] == rule.code);
    CHECK(entry["shortDescription"]["text"] == rule.summary);
    CHECK(entry["helpUri"] == "file:///d/rules/" + std::string(rule.code) + ".md");
    CHECK(entry["defaultConfiguration"]["level"].is_string());
  }
  CHECK(run["invocations"][0]["executionSuccessful"] == false);
  CHECK(run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] == "cannot read 'x'");
}

}  // namespace
}  // namespace cake
