// REPORT_FEATURES Part I items 1-7: the reference's integration tests, ported
// to the tlscope binary, with assertions on content.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

// Runs tlscope on corpus input `name` into <tmp>/out; expects exit 0.
class CorpusReferenceTest : public ::testing::Test {
 protected:
  void run(const std::string& name, bool strict) {
    std::vector<std::string> args = {(corpus_inputs() / name).string(), "-o", out().string(),
                                     "--no-browser"};
    if (strict) args.push_back("--strict");
    result_ = run_tlscope(args, tmp_.path());
    ASSERT_EQ(result_.exit_code, 0) << result_.err;
    files_ = list_files(out());
  }
  fs::path out() const { return tmp_ / "out"; }
  // Some output path starts with `prefix` ("has X" of Part I).
  bool has(const std::string& prefix) const {
    for (auto& f : files_)
      if (f.rfind(prefix, 0) == 0) return true;
    return false;
  }
  void expect_has(const std::vector<std::string>& prefixes) const {
    for (auto& p : prefixes) EXPECT_TRUE(has(p)) << "no output starts with " << p;
  }
  std::vector<std::string> raw_jsonl() const { return split_lines(read_file(out() / "raw.jsonl")); }
  json compile_directory() const {
    return json::parse(read_file(out() / "compile_directory.json"));
  }
  std::vector<std::string> payload_hashes() const {
    std::vector<std::string> v;
    for (auto& f : files_)
      if (f.rfind("payloads/", 0) == 0 && f.size() > 13 && f.substr(f.size() - 4) == ".txt")
        v.push_back(f.substr(9, f.size() - 13));
    return v;
  }

  TempDir tmp_;
  RunResult result_;
  std::vector<std::string> files_;
};

const std::vector<std::string> kSimpleFiles = {"-_0_0_0/aot_forward_graph",
                                               "-_0_0_0/dynamo_output_graph",
                                               "index.html",
                                               "compile_directory.json",
                                               "failures_and_restarts.html",
                                               "-_0_0_0/inductor_post_grad_graph",
                                               "-_0_0_0/inductor_output_code"};

// Item 1.
TEST_F(CorpusReferenceTest, ParseSimple) {
  run("simple.log", /*strict=*/true);
  expect_has(kSimpleFiles);
  auto lines = raw_jsonl();
  ASSERT_EQ(lines.size(), 15u);
  EXPECT_EQ(lines[0].rfind("{\"string_table\":", 0), 0u) << lines[0].substr(0, 80);
  EXPECT_EQ(parse_stats(result_.err), (std::map<std::string, long long>{{"ok", 64}}));
  EXPECT_EQ(json_keys(compile_directory()), (std::set<std::string>{"[-/-]", "[0/0]"}));
  // All 50 chromium events have valid JSON payloads.
  EXPECT_EQ(json::parse(read_file(out() / "chromium_events.json")).size(), 50u);
  // raw.log is a verbatim copy.
  EXPECT_EQ(read_file(out() / "raw.log"), read_file(corpus_inputs() / "simple.log"));
}

// Item 2: one chromium payload is broken JSON (and its MD5 is stale).
TEST_F(CorpusReferenceTest, ParseSimpleCorruptedJson) {
  run("simple_corrupted_json.log", /*strict=*/false);
  expect_has(kSimpleFiles);
  auto lines = raw_jsonl();
  ASSERT_EQ(lines.size(), 15u);
  EXPECT_EQ(lines[0].rfind("{\"string_table\":", 0), 0u);
  EXPECT_EQ(parse_stats(result_.err),
            (std::map<std::string, long long>{{"ok", 64}, {"fail_payload_md5", 1}}));
  // The unparsable event is dropped, the other 49 kept.
  EXPECT_EQ(json::parse(read_file(out() / "chromium_events.json")).size(), 49u);
}

// Item 3.
TEST_F(CorpusReferenceTest, ParseCompilationMetrics) {
  run("comp_metrics.log", /*strict=*/true);
  for (auto dir : {"-_0_0_1/", "-_1_0_1/", "-_2_0_0/"}) {
    expect_has(
        {std::string(dir) + "dynamo_output_graph", std::string(dir) + "compilation_metrics"});
  }
  expect_has({"index.html", "compile_directory.json", "failures_and_restarts.html"});
  EXPECT_EQ(json_keys(compile_directory()),
            (std::set<std::string>{"[0/0]", "[0/0_1]", "[1/0]", "[1/0_1]", "[2/0]"}));

  auto lines = raw_jsonl();
  ASSERT_EQ(lines.size(), 13u);
  int with_payload = 0, with_log_fields = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE("raw.jsonl line " + std::to_string(i + 1));
    json j = json::parse(lines[i], nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << lines[i].substr(0, 200);
    ASSERT_TRUE(j.is_object());
    if (i == 0) {
      EXPECT_TRUE(j.contains("string_table"));
      continue;
    }
    ++with_log_fields;
    ASSERT_TRUE(j.contains("timestamp") && j["timestamp"].is_string());
    EXPECT_TRUE(std::regex_match(j["timestamp"].get<std::string>(),
                                 std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)")))
        << j["timestamp"];
    ASSERT_TRUE(j.contains("thread") && j["thread"].is_number_integer());
    ASSERT_TRUE(j.contains("pathname") && j["pathname"].is_string());
    EXPECT_EQ(j["pathname"].get<std::string>().rfind(" ", 0), 0u)
        << "pathname keeps its leading space";
    ASSERT_TRUE(j.contains("lineno") && j["lineno"].is_number_integer());
    if (j.contains("payload_filename")) {
      ++with_payload;
      ASSERT_TRUE(j["payload_filename"].is_string());
      EXPECT_TRUE(fs::is_regular_file(out() / j["payload_filename"].get<std::string>()))
          << j["payload_filename"];
    }
  }
  EXPECT_EQ(with_log_fields, 12);
  EXPECT_GE(with_payload, 3);

  auto hashes = payload_hashes();
  EXPECT_EQ(
      std::set<std::string>(hashes.begin(), hashes.end()),
      (std::set<std::string>{"11726d08889974e57b12edee2812504e", "29e35548d59d0e446f0c8a3f3010cc72",
                             "e18e1bcb67140c0a67427a6119556f7a"}));
  EXPECT_EQ(hashes.size(), 3u);
  // Each payloads/ file is the dynamo_guards payload whose MD5 names it.
  for (auto& h : hashes) EXPECT_EQ(md5_hex(read_file(out() / "payloads" / (h + ".txt"))), h);

  // Two restarts ([0/0] and [1/0]) are listed on the failures page.
  std::string failures = read_file(out() / "failures_and_restarts.html");
  EXPECT_NE(failures.find("RestartAnalysis"), std::string::npos);
  EXPECT_NE(read_file(out() / "index.html").find("2 restart(s) and/or compilation failure(s)"),
            std::string::npos);
}

// Item 4.
TEST_F(CorpusReferenceTest, ParseCompilationFailures) {
  run("comp_failure.log", /*strict=*/true);
  expect_has({"-_0_0_0/dynamo_output_graph", "-_0_0_0/compilation_metrics", "index.html",
              "compile_directory.json", "failures_and_restarts.html"});
  std::string failures = read_file(out() / "failures_and_restarts.html");
  EXPECT_NE(failures.find("BackendCompilerFailed"), std::string::npos);
  EXPECT_NE(failures.find("RuntimeError: broken backend"), std::string::npos);
  EXPECT_NE(failures.find("backend=&#39;broken_backend&#39; raised:"), std::string::npos);
  EXPECT_NE(failures.find("-_0_0_0/compilation_metrics_"), std::string::npos);
  // The failed compile is coloured "error" in the stack trie.
  EXPECT_NE(read_file(out() / "index.html").find("class='status-error'>[0/0]</a>"),
            std::string::npos);
}

// Item 5.
TEST_F(CorpusReferenceTest, ParseArtifact) {
  run("artifacts.log", /*strict=*/true);
  expect_has({"-_0_0_0/fx_graph_cache_hash", "index.html"});
  // The JSON artifact is re-emitted as valid JSON.
  for (auto& f : files_)
    if (f.rfind("-_0_0_0/fx_graph_cache_hash", 0) == 0) {
      EXPECT_EQ(f.substr(f.size() - 5), ".json");
      EXPECT_FALSE(json::parse(read_file(out() / f), nullptr, false).is_discarded()) << f;
    }
}

// Item 6.
TEST_F(CorpusReferenceTest, ParseChromiumEvent) {
  run("chromium_events.log", /*strict=*/true);
  expect_has({"chromium_events.json", "index.html"});
  json events = json::parse(read_file(out() / "chromium_events.json"));
  ASSERT_TRUE(events.is_array());
  EXPECT_EQ(events.size(), 6u);
  for (auto& e : events) {
    EXPECT_TRUE(e.contains("ph") && e["ph"].is_string()) << e.dump();
    EXPECT_TRUE(e.contains("name") && e["name"].is_string()) << e.dump();
  }
  EXPECT_NE(read_file(out() / "index.html").find("href=\"chromium_events.json\""),
            std::string::npos);
}

// Item 7.
TEST_F(CorpusReferenceTest, CacheHitMiss) {
  run("cache_hit_miss.log", /*strict=*/true);
  expect_has({"-_1_0_0/fx_graph_cache_miss_33.json", "-_1_0_0/fx_graph_cache_miss_9.json",
              "-_1_0_0/fx_graph_cache_hit_20.json", "compile_directory.json", "index.html"});
  json dir = compile_directory();
  ASSERT_TRUE(dir.contains("[1/0]"));
  std::map<std::string, std::string> suffix;
  std::map<std::string, long long> number;
  for (auto& a : dir["[1/0]"]["artifacts"]) {
    suffix[a["url"]] = a["suffix"];
    number[a["url"]] = a["number"];
  }
  EXPECT_EQ(suffix["-_1_0_0/fx_graph_cache_miss_33.json"], "\u274C");
  EXPECT_EQ(suffix["-_1_0_0/fx_graph_cache_miss_9.json"], "\u274C");
  EXPECT_EQ(suffix["-_1_0_0/fx_graph_cache_hit_20.json"], "\u2705");
  EXPECT_EQ(number["-_1_0_0/fx_graph_cache_miss_33.json"], 33);
  EXPECT_EQ(number["-_1_0_0/fx_graph_cache_miss_9.json"], 9);
  EXPECT_EQ(number["-_1_0_0/fx_graph_cache_hit_20.json"], 20);
  // Files without a cache marker have an empty suffix.
  for (auto& [url, s] : suffix) {
    if (url.find("cache_") == std::string::npos) {
      EXPECT_EQ(s, "") << url;
    }
  }
  // The index shows the marks after the links.
  std::string index = read_file(out() / "index.html");
  EXPECT_NE(index.find("fx_graph_cache_hit_20.json</a> \u2705 (20)"), std::string::npos);
  EXPECT_NE(index.find("fx_graph_cache_miss_9.json</a> \u274C (9)"), std::string::npos);
}

// F1/F14/F27: when two outputs share a path, the later one wins; payload files
// match their records even when many are written.
TEST(OutputOrder, LaterWriteToTheSamePathWins) {
  TempDir tmp;
  std::string log;
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    std::string v = "version " + std::to_string(i) + "\n" + std::string(2000 + i, 'a' + i % 26);
    log += record({{"dump_file", {{"name", "same_name"}}},
                   {"frame_id", 0},
                   {"frame_compile_id", 0},
                   {"attempt", 0}},
                  v);
    // The same (deliberately wrong) hash for different payloads: one payloads/ file.
    log +=
        envelope_line(json({{"unclaimed", json::object()}, {"has_payload", "deadbeef"}}).dump()) +
        "\n";
    for (auto& line : split_lines(v)) log += "\t" + line + "\n";
    log += record({{"artifact", {{"name", "art"}, {"encoding", "string"}}},
                   {"frame_id", 1},
                   {"frame_compile_id", 0},
                   {"attempt", 0}},
                  v);
  }
  write_file(tmp / "dup.log", log);
  RunResult r = run_tlscope(
      {(tmp / "dup.log").string(), "-o", (tmp / "out").string(), "--no-browser"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string last = "version " + std::to_string(n - 1) + "\n";
  std::string page = read_file(tmp / "out" / "dump_file" / "same_name.html");
  EXPECT_NE(page.find("version " + std::to_string(n - 1) + "</span>"), std::string::npos);
  EXPECT_EQ(page.find("version " + std::to_string(n - 2) + "<"), std::string::npos);
  EXPECT_EQ(read_file(tmp / "out" / "payloads" / "deadbeef.txt"),
            last + std::string(2000 + n - 1, 'a' + (n - 1) % 26));
  // Every numbered artifact holds its own record's payload.
  json dir = json::parse(read_file(tmp / "out" / "compile_directory.json"));
  ASSERT_EQ(dir["[1/0]"]["artifacts"].size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    std::string url = dir["[1/0]"]["artifacts"][i]["url"];
    std::string v = "version " + std::to_string(i) + "\n" + std::string(2000 + i, 'a' + i % 26);
    EXPECT_EQ(read_file(tmp / "out" / url), v) << url;
  }
}

}  // namespace
}  // namespace tlscope_test
