// Command line (REPORT_FEATURES Part B): exit codes, output-folder rules,
// --latest, --strict-compile-id, compressed inputs and --plain-text.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

fs::path simple_log() { return corpus_inputs() / "simple.log"; }

bool contains(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}
std::string lower_copy(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

class Cli : public ::testing::Test {
 protected:
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  fs::path out() const { return tmp_ / "out"; }
  TempDir tmp_;
};
// The tests that read the corpus.
class CorpusCli : public Cli {};

TEST_F(Cli, UsageErrorsExitTwo) {
  RunResult r = run({kExample.string(), "-o", out().string(), "--no-browser", "--bogus-flag"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "bogus-flag")) << r.err;
  EXPECT_FALSE(fs::exists(out()));

  r = run({});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(lower_copy(r.err), "path")) << r.err;

  r = run({"-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(out()));
}

TEST_F(Cli, VersionIsPrinted) {
  RunResult r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(tlscope \d+\.\d+\.\d+)"))) << r.out;
  EXPECT_TRUE(contains(r.out, TLSCOPE_VERSION)) << r.out;
}

TEST_F(Cli, MissingInputIsAnError) {
  RunResult r = run({(tmp_ / "nope.log").string(), "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_EQ(r.error_lines()[0], "Error: " + (tmp_ / "nope.log").string() + ": no such file")
      << r.err;
}

TEST_F(Cli, ExistingOutputFolderNeedsOverwrite) {
  fs::create_directory(out());
  RunResult r = run({kExample.string(), "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(contains(r.error_lines()[0], "already exists")) << r.err;
  EXPECT_TRUE(fs::is_empty(out()));
}

TEST_F(Cli, OverwriteRefusesAFolderThatIsNotAReport) {
  fs::create_directory(out());
  write_file(out() / "keep.txt", "precious");
  RunResult r = run({kExample.string(), "-o", out().string(), "--no-browser", "--overwrite"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines().size(), 1u) << r.err;
  ASSERT_TRUE(fs::exists(out() / "keep.txt"));
  EXPECT_EQ(read_file(out() / "keep.txt"), "precious");
  EXPECT_FALSE(fs::exists(out() / "index.html"));
}

TEST_F(CorpusCli, OverwriteReplacesAPreviousReport) {
  RunResult r =
      run({(corpus_inputs() / "comp_metrics.log").string(), "-o", out().string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_file(out() / "stale.txt", "old");
  ASSERT_TRUE(fs::exists(out() / "-_1_0_1"));
  r = run({simple_log().string(), "-o", out().string(), "--no-browser", "--overwrite"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out() / "stale.txt"));
  EXPECT_FALSE(fs::exists(out() / "-_1_0_1"));
  EXPECT_EQ(json_keys(json::parse(read_file(out() / "compile_directory.json"))),
            (std::set<std::string>{"[-/-]", "[0/0]"}));
}

TEST_F(CorpusCli, LatestPicksTheNewestFile) {
  fs::path dir = tmp_ / "logs";
  fs::create_directory(dir);
  fs::copy_file(corpus_inputs() / "comp_metrics.log", dir / "a.log");
  fs::copy_file(simple_log(), dir / "b.log");
  fs::copy_file(corpus_inputs() / "artifacts.log", dir / "c.log");
  fs::create_directory(dir / "newer_subdir");  // folders are not candidates
  auto now = fs::file_time_type::clock::now();
  fs::last_write_time(dir / "a.log", now - std::chrono::hours(3));
  fs::last_write_time(dir / "b.log", now - std::chrono::hours(1));
  fs::last_write_time(dir / "c.log", now - std::chrono::hours(2));
  fs::last_write_time(dir / "newer_subdir", now);
  RunResult r = run({dir.string(), "--latest", "-o", out().string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out() / "raw.log"), read_file(simple_log()));

  // Make c.log the newest: the choice follows.
  fs::last_write_time(dir / "c.log", now + std::chrono::minutes(1));
  r = run({dir.string(), "--latest", "-o", out().string(), "--no-browser", "--overwrite"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out() / "raw.log"), read_file(corpus_inputs() / "artifacts.log"));
}

TEST_F(Cli, LatestErrors) {
  RunResult r = run({kExample.string(), "--latest", "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(contains(r.error_lines()[0], "is not a directory")) << r.err;

  fs::create_directory(tmp_ / "empty");
  r = run({(tmp_ / "empty").string(), "--latest", "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(contains(r.error_lines()[0], "No files found")) << r.err;

  r = run({(tmp_ / "empty").string(), "--latest", "--all-ranks-html", "-o", out().string(),
           "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "--latest cannot be used with --all-ranks-html")) << r.err;
}

TEST_F(Cli, StrictCompileIdFailsOnlyOnInvalidIds) {
  write_file(tmp_ / "bad_id.log",
             marker_record(0) +
                 record({{"link", {{"name", "l"}, {"url", "http://x"}}}, {"frame_id", -1}}));
  RunResult r = run({(tmp_ / "bad_id.log").string(), "-o", out().string(), "--no-browser",
                     "--strict-compile-id"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(contains(r.error_lines()[0], "Some log entries did not have compile id")) << r.err;

  // Without the flag the record is listed under "unknown".
  r = run({(tmp_ / "bad_id.log").string(), "-o", (tmp_ / "o2").string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json dir = json::parse(read_file(tmp_ / "o2" / "compile_directory.json"));
  EXPECT_EQ(json_keys(dir), (std::set<std::string>{"[0/0]", "unknown"}));
  ASSERT_EQ(dir["unknown"]["artifacts"].size(), 1u);
  EXPECT_EQ(dir["unknown"]["artifacts"][0]["url"], "http://x");

  // Records with no id keys at all do not trigger it.
  write_file(tmp_ / "no_id.log", record({{"link", {{"name", "l"}, {"url", "http://x"}}}}));
  r = run({(tmp_ / "no_id.log").string(), "-o", (tmp_ / "o3").string(), "--no-browser",
           "--strict-compile-id", "--strict"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_keys(json::parse(read_file(tmp_ / "o3" / "compile_directory.json"))),
            (std::set<std::string>{"[-/-]"}));
}

TEST_F(CorpusCli, CompressedInputsGiveTheSameReport) {
  RunResult r =
      run({simple_log().string(), "-o", (tmp_ / "plain").string(), "--no-browser", "--strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json want = json::parse(read_file(tmp_ / "plain" / "compile_directory.json"));
  std::string want_jsonl = read_file(tmp_ / "plain" / "raw.jsonl");

  gzip_file(read_file(simple_log()), tmp_ / "simple.log.gz");
  ASSERT_EQ(run_shell("zstd -q -f -o '" + (tmp_ / "simple.log.zst").string() + "' '" +
                      simple_log().string() + "'"),
            0);
  // The format is told by the magic bytes, not the name.
  fs::copy_file(tmp_ / "simple.log.zst", tmp_ / "zstd_named.log");
  for (auto name : {"simple.log.gz", "simple.log.zst", "zstd_named.log"}) {
    SCOPED_TRACE(name);
    fs::path o = tmp_ / (std::string("o_") + name);
    r = run({(tmp_ / name).string(), "-o", o.string(), "--no-browser", "--strict"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(read_file(o / "compile_directory.json")), want);
    EXPECT_EQ(read_file(o / "raw.jsonl"), want_jsonl);
    EXPECT_EQ(read_file(o / "raw.log"), read_file(simple_log()));
  }
}

TEST_F(CorpusCli, PlainTextWritesOutputCodeAsTxt) {
  RunResult r = run({simple_log().string(), "-o", out().string(), "--no-browser", "-p"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json dir = json::parse(read_file(out() / "compile_directory.json"));
  int txt = 0;
  for (auto& a : dir["[0/0]"]["artifacts"]) {
    std::string url = a["url"];
    if (url.find("inductor_output_code") == std::string::npos) continue;
    EXPECT_TRUE(
        std::regex_match(url, std::regex(R"(-_0_0_0/inductor_output_code_[a-z0-9]+_\d+\.txt)")))
        << url;
    std::string code = read_file(out() / url);
    EXPECT_EQ(code.rfind("# AOT ID: ['0_inference']\n", 0), 0u) << code.substr(0, 100);
    EXPECT_EQ(code.find("<pre"), std::string::npos);
    ++txt;
  }
  EXPECT_EQ(txt, 1);
  // raw.jsonl points at the .txt as the record's payload file (F7, F17).
  bool found = false;
  for (auto& line : split_lines(read_file(out() / "raw.jsonl"))) {
    json j = json::parse(line);
    if (!j.contains("inductor_output_code")) continue;
    found = true;
    std::string pf = j["payload_filename"];
    EXPECT_EQ(pf.substr(pf.size() - 4), ".txt") << pf;
    EXPECT_EQ(md5_hex(read_file(out() / pf)), j["has_payload"]);
  }
  EXPECT_TRUE(found);
  // Without -p the same record is an .html page.
  r = run({simple_log().string(), "-o", (tmp_ / "html").string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json hdir = json::parse(read_file(tmp_ / "html" / "compile_directory.json"));
  int html = 0;
  for (auto& a : hdir["[0/0]"]["artifacts"])
    if (a["url"].get<std::string>().find("inductor_output_code") != std::string::npos)
      html += std::regex_match(a["url"].get<std::string>(), std::regex(R"(.*_\d+\.html)"));
  EXPECT_EQ(html, 1);
}

}  // namespace
}  // namespace tlscope_test
