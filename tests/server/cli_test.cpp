// End-to-end tests of the `cake` binary (CAKE_BINARY), run as a subprocess
// without a shell on files written to a fresh temporary directory: exit
// codes 0/1/2, the JSON and SARIF documents, stdin, directories, --jobs
// ordering, I/O errors that do not stop the other files, and bytes that are
// not text. The checked sources are tiny and lean only on rules that every
// version of the analysis reports (syntax errors, duplicate names).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::literals;
using nlohmann::json;

const char* kClean = "target sm_90a\nconst T = 128\n";
const char* kBroken = "target sm_90a\nconst T = 1\nconst T = 2\n";

struct Run {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& path, std::string_view bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// A fresh directory for one test case, removed afterwards.
struct TempDir {
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "cake-cli-test-XXXXXX").string();
    path = mkdtemp(pattern.data()) ? fs::path(pattern) : fs::path();
    REQUIRE(!path.empty());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

/// Runs `cake args...` in `cwd`, stdin from `stdin_file` (or /dev/null).
Run cake(const TempDir& dir, std::vector<std::string> args, const fs::path& stdin_file = "/dev/null") {
  fs::path out = dir.path / ".out", err = dir.path / ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, stdin_file.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&actions, dir.path.c_str());
  args.insert(args.begin(), CAKE_BINARY);
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  Run run;
  if (posix_spawn(&pid, CAKE_BINARY, &actions, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  run.out = slurp(out);
  run.err = slurp(err);
  return run;
}

json parse(const Run& run) {
  json doc = json::parse(run.out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

TEST_CASE("exit codes: 0 clean, 1 errors, 2 usage or I/O") {
  TempDir dir;
  write(dir.path / "clean.cake", kClean);
  write(dir.path / "broken.cake", kBroken);
  CHECK(cake(dir, {"check", "clean.cake"}).code == 0);
  CHECK(cake(dir, {"check", "broken.cake"}).code == 1);
  CHECK(cake(dir, {"check", "--quiet", "clean.cake", "broken.cake"}).code == 1);
  CHECK(cake(dir, {"check", "--bogus", "clean.cake"}).code == 2);
  CHECK(cake(dir, {"check", "--format", "xml", "clean.cake"}).code == 2);
  CHECK(cake(dir, {"check", "--jobs"}).code == 2);
  CHECK(cake(dir, {"check"}).code == 2);
  CHECK(cake(dir, {"frobnicate"}).code == 2);
  CHECK(cake(dir, {}).code == 2);
  CHECK(cake(dir, {"--version"}).code == 0);
  CHECK(cake(dir, {"--help"}).code == 0);
  CHECK(cake(dir, {"help", "check"}).code == 0);
  CHECK(cake(dir, {"check", "--help"}).code == 0);
}

TEST_CASE("text output: diagnostics, per-file table and summary") {
  TempDir dir;
  write(dir.path / "clean.cake", kClean);
  write(dir.path / "broken.cake", kBroken);
  Run one = cake(dir, {"check", "broken.cake"});
  CHECK(one.out.find("broken.cake:3:7: error[CAKE-E0102]") == 0);
  CHECK(one.out.find("note: ") != std::string::npos);
  CHECK(one.out.ends_with("checked 1 file: 1 error, 0 warnings\n"));
  CHECK(one.out.find("\x1b[") == std::string::npos);  // not a terminal: no colour
  Run two = cake(dir, {"check", "clean.cake", "broken.cake"});
  CHECK(two.out.find("  OK       clean.cake\n  1 error  broken.cake\n") != std::string::npos);
  CHECK(two.out.ends_with("checked 2 files: 1 error, 0 warnings\n"));
  CHECK(cake(dir, {"check", "--quiet", "clean.cake"}).out.empty());
  CHECK(cake(dir, {"check", "--color", "always", "broken.cake"}).out.find("\x1b[") != std::string::npos);
}

TEST_CASE("JSON output follows the documented schema") {
  TempDir dir;
  write(dir.path / "broken.cake", kBroken);
  Run run = cake(dir, {"check", "--format", "json", "broken.cake"});
  CHECK(run.code == 1);
  json doc = parse(run);
  CHECK(doc["version"] == 1);
  REQUIRE(doc["files"].size() == 1);
  json file = doc["files"][0];
  CHECK(file["path"] == "broken.cake");
  CHECK(file["uri"].get<std::string>().starts_with("file:///"));
  REQUIRE(file["diagnostics"].size() >= 1);
  json d = file["diagnostics"][0];
  CHECK(d["code"] == "CAKE-E0102");
  CHECK(d["severity"] == 1);
  CHECK(d["source"] == "cake");
  CHECK(d["range"]["start"] == json({{"line", 2}, {"character", 6}}));
  CHECK(d["codeDescription"]["href"].get<std::string>().ends_with("/rules/CAKE-E0102.md"));
  CHECK(d["data"]["targets"] == json::array({"sm_90a"}));
  CHECK(d["data"]["fixes"].is_array());
  CHECK(doc["summary"] == json({{"files", 1}, {"errors", 1}, {"warnings", 0}, {"unreadable", 0}}));
}

TEST_CASE("SARIF output is one run with rules, results and UTF-16 columns") {
  TempDir dir;
  write(dir.path / "broken.cake", kBroken);
  Run run = cake(dir, {"check", "--format=sarif", "broken.cake"});
  CHECK(run.code == 1);
  json log = parse(run);
  CHECK(log["version"] == "2.1.0");
  json sarif_run = log["runs"][0];
  CHECK(sarif_run["columnKind"] == "utf16CodeUnits");
  CHECK(sarif_run["tool"]["driver"]["name"] == "cake");
  CHECK(sarif_run["tool"]["driver"]["rules"].size() > 0);
  json result = sarif_run["results"][0];
  CHECK(result["ruleId"] == "CAKE-E0102");
  CHECK(result["level"] == "error");
  json location = result["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "broken.cake");
  CHECK(location["region"]["startLine"] == 3);
  CHECK(location["region"]["startColumn"] == 7);
}

TEST_CASE("directories are searched recursively in sorted order; --jobs keeps it") {
  TempDir dir;
  write(dir.path / "d/b.cake", kBroken);
  write(dir.path / "d/a.cake", kClean);
  write(dir.path / "d/sub/c.cake", kClean);
  write(dir.path / "d/notes.txt", "not cake");
  write(dir.path / "empty/readme.md", "");
  for (const char* jobs : {"1", "4", "0"}) {
    Run run = cake(dir, {"check", "--format", "json", "--jobs", jobs, "d", "empty"});
    CHECK(run.code == 1);
    json doc = parse(run);
    REQUIRE(doc["files"].size() == 3);
    CHECK(doc["files"][0]["path"] == "d/a.cake");
    CHECK(doc["files"][1]["path"] == "d/b.cake");
    CHECK(doc["files"][2]["path"] == "d/sub/c.cake");
  }
  Run none = cake(dir, {"check", "empty"});
  CHECK(none.code == 0);
  CHECK(none.out == "checked 0 files: 0 errors, 0 warnings\n");
}

TEST_CASE("stdin is checked as <stdin>") {
  TempDir dir;
  write(dir.path / "in.cake", kBroken);
  Run run = cake(dir, {"check", "--format", "json", "-"}, dir.path / "in.cake");
  CHECK(run.code == 1);
  CHECK(parse(run)["files"][0]["path"] == "<stdin>");
  CHECK(cake(dir, {"check", "-"}, dir.path / "in.cake").out.find("<stdin>:3:7:") == 0);
}

TEST_CASE("an unreadable input is reported, the others are still checked, exit 2") {
  TempDir dir;
  write(dir.path / "broken.cake", kBroken);
  Run run = cake(dir, {"check", "--format", "json", "missing.cake", "broken.cake"});
  CHECK(run.code == 2);
  CHECK(run.err.find("cake: cannot read 'missing.cake': No such file or directory") != std::string::npos);
  json doc = parse(run);
  CHECK(doc["files"][0]["error"].is_string());
  CHECK(doc["files"][1]["diagnostics"].size() >= 1);
  Run text = cake(dir, {"check", "missing.cake", "broken.cake"});
  CHECK(text.code == 2);
  CHECK(text.out.find("broken.cake:3:7:") != std::string::npos);
}

TEST_CASE("files over 64 MiB are refused") {
  TempDir dir;
  {
    std::ofstream big(dir.path / "big.cake", std::ios::binary);
    big.seekp((64 << 20) + 10);
    big.put('\n');
  }
  Run run = cake(dir, {"check", "big.cake"});
  CHECK(run.code == 2);
  CHECK(run.err.find("larger than 64 MiB") != std::string::npos);
}

TEST_CASE("any bytes: NUL, invalid UTF-8, binary noise never crash") {
  TempDir dir;
  std::string noise;
  for (int i = 0; i < 4096; ++i) noise += static_cast<char>((i * 7919 + 13) % 256);
  write(dir.path / "noise.cake", noise);
  write(dir.path / "nul.cake", std::string("target sm_90a\n\0\0\xFF\xC0\xED\xA0\x80 kernel"sv));
  for (const char* format : {"text", "json", "sarif"}) {
    Run run = cake(dir, {"check", "--format", format, "noise.cake", "nul.cake"});
    CAPTURE(format, run.err);
    CHECK((run.code == 0 || run.code == 1));
    if (std::string_view(format) != "text") parse(run);
  }
}

}  // namespace

TEST_CASE("cake fmt: print, --check, --write, syntax errors and exit codes") {
  TempDir dir;
  const char* messy = "target sm_90a\nconst T = 1   \n\n\n\nconst U = 2";
  const char* canonical = "target sm_90a\nconst T = 1\n\nconst U = 2\n";
  write(dir.path / "messy.cake", messy);
  write(dir.path / "ok.cake", canonical);
  write(dir.path / "broken.cake", "target sm_90a\nkernel k( {\n");
  Run printed = cake(dir, {"fmt", "messy.cake"});
  CHECK(printed.code == 0);
  CHECK(printed.out == canonical);
  Run checked = cake(dir, {"fmt", "--check", "messy.cake", "ok.cake"});
  CHECK(checked.code == 1);
  CHECK(checked.out == "messy.cake\n");
  CHECK(cake(dir, {"fmt", "--check", "ok.cake"}).code == 0);
  CHECK(cake(dir, {"fmt", "--write", "messy.cake"}).code == 0);
  CHECK(slurp(dir.path / "messy.cake") == canonical);
  Run broken = cake(dir, {"fmt", "--write", "broken.cake"});
  CHECK(broken.code == 1);
  CHECK(broken.err.find("syntax errors") != std::string::npos);
  CHECK(slurp(dir.path / "broken.cake") == "target sm_90a\nkernel k( {\n");
  CHECK(cake(dir, {"fmt", "missing.cake"}).code == 2);
  CHECK(cake(dir, {"fmt"}).code == 2);
  CHECK(cake(dir, {"fmt", "--bogus", "ok.cake"}).code == 2);
  CHECK(cake(dir, {"help", "fmt"}).code == 0);
}

TEST_CASE("cake estimate: exit codes, JSON shape, and every example estimated") {
  TempDir dir;
  write(dir.path / "clean.cake", kClean);
  write(dir.path / "broken.cake", kBroken);
  fs::path examples = CAKE_EXAMPLES_DIR;
  std::string row_softmax = (examples / "row_softmax.cake").string();
  CHECK(cake(dir, {"estimate", row_softmax}).code == 0);
  CHECK(cake(dir, {"estimate", "clean.cake"}).code == 0);  // no kernel: nothing to estimate
  Run broken = cake(dir, {"estimate", "broken.cake", row_softmax});
  CHECK(broken.code == 1);
  CHECK(broken.err.find("broken.cake: 1 error(s); not estimated") != std::string::npos);
  CHECK(broken.out.find("row_softmax") != std::string::npos);  // the other file still estimated
  CHECK(cake(dir, {"estimate"}).code == 2);
  CHECK(cake(dir, {"estimate", "missing.cake"}).code == 2);
  CHECK(cake(dir, {"estimate", "--device", "v100", row_softmax}).code == 2);
  CHECK(cake(dir, {"estimate", "--target", "sm_70", row_softmax}).code == 2);
  CHECK(cake(dir, {"estimate", "--format", "xml", row_softmax}).code == 2);
  CHECK(cake(dir, {"estimate", "--kernel", "nope", row_softmax}).code == 2);
  CHECK(cake(dir, {"estimate", "--help"}).code == 0);
  CHECK(cake(dir, {"help", "estimate"}).code == 0);
  CHECK(cake(dir, {"--help"}).out.find("estimate") != std::string::npos);

  Run text = cake(dir, {"estimate", "--device", "h100", row_softmax});
  CHECK(text.out.find("row_softmax, sm_80 on H100-SXM5-80GB (table ") != std::string::npos);
  CHECK(text.out.find("us, hbm-bound") != std::string::npos);

  Run run = cake(dir, {"estimate", "--format", "json", "--kernel", "row_softmax", row_softmax});
  REQUIRE(run.code == 0);
  json doc = parse(run);
  CHECK(doc["tool"] == "cake estimate");
  REQUIRE(doc["estimates"].size() == 2);  // two benches
  const json& e = doc["estimates"][0];
  CHECK(e["kernel"] == "row_softmax");
  CHECK(e["target"] == "sm_80");
  CHECK(e["device"]["id"] == "A100-SXM4-80GB");
  CHECK(e["device"]["table_version"].is_string());
  CHECK(e["bench"]["shape"]["R"] == 65536);
  CHECK(e["ok"] == true);
  CHECK(e["time_us"].get<double>() > 0);
  CHECK(e["bound"] == "hbm");
  for (const char* r : {"hbm", "l2", "smem", "tensor", "cuda_core", "issue"})
    for (const char* k : {"demand", "unit", "throughput_per_s", "peak_per_s", "time_us", "utilisation"})
      CHECK(e["resources"][r].contains(k));
  for (const char* k : {"ctas_per_sm", "limiter", "smem_per_cta", "regs_per_cta", "threads"})
    CHECK(e["occupancy"].contains(k));
  CHECK(e["cta"].contains("iterations_us"));
  CHECK(e["cta"].contains("prologue_epilogue_us"));
  for (const char* k : {"ctas", "waves", "full_waves", "tail_fill", "tail_us", "latency_us", "launch_us", "rings"})
    CHECK(e.contains(k));
  REQUIRE(e["lines"].is_array());
  REQUIRE_FALSE(e["lines"].empty());
  for (const char* k : {"line", "op", "resource", "time_us", "demand"}) CHECK(e["lines"][0].contains(k));

  // Every example: a time and a bound for every bench and every target it lists.
  for (const auto& entry : fs::directory_iterator(examples)) {
    if (entry.path().extension() != ".cake") continue;
    INFO(entry.path().string());
    Run ex = cake(dir, {"estimate", "--format", "json", entry.path().string()});
    CHECK(ex.code == 0);
    json all = parse(ex);
    std::set<std::string> targets;
    for (const json& x : all["estimates"]) {
      INFO(x.dump());
      CHECK(x["ok"] == true);
      CHECK(x["time_us"].get<double>() > 0);
      CHECK(x["bound"].is_string());
      CHECK(x["device"]["id"].is_string());
      targets.insert(x["target"].get<std::string>());
    }
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);  // "target sm_80, sm_86, sm_89"
    size_t listed = std::count(first.begin(), first.end(), ',') + 1;
    CHECK(targets.size() == listed);
  }
}
