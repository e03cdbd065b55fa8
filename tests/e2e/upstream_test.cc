// What newer tlparse does after 0.4.3 (UPSTREAM_AFTER_0.4.3.md): its tests
// marked [compat], ported to the tlscope binary (CorpusUpstream: they read
// the corpus, tlparse_upstream/ included), and our own cases of the K items
// that have no upstream test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

class Upstream : public ::testing::Test {
 protected:
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  // Writes `log`, runs tlscope on it into <tmp>/out; expects exit 0.
  RunResult report(const std::string& log, std::vector<std::string> extra = {}) {
    write_file(tmp_ / "in.log", log);
    std::vector<std::string> args = {(tmp_ / "in.log").string(), "-o", out().string(),
                                     "--no-browser", "--overwrite"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  }
  fs::path out() const { return tmp_ / "out"; }
  std::string page_with(const std::string& part) {
    for (auto& f : list_files(out()))
      if (has(f, part)) return read_file(out() / f);
    ADD_FAILURE() << "no output named like " << part;
    return "";
  }
  TempDir tmp_;
};
class CorpusUpstream : public Upstream {};

// Rank `k`'s log in the corpus folder multi_rank_logs/.
fs::path multi_rank_log(int k) {
  std::string stem = "dedicated_log_torch_trace_rank_" + std::to_string(k);
  for (auto& e : fs::directory_iterator(corpus_inputs() / "multi_rank_logs")) {
    std::string name = e.path().filename().string();
    if (name == stem + ".log" || name.rfind(stem + "_", 0) == 0) return e.path();
  }
  ADD_FAILURE() << "no rank " << k << " in multi_rank_logs";
  return {};
}

json frame0() { return {{"frame_id", 0}, {"frame_compile_id", 0}, {"attempt", 0}}; }
json with(json a, const json& b) {
  a.update(b);
  return a;
}

// K9, test_subgraph_name_grouping.
TEST_F(CorpusUpstream, SubgraphNameGrouping) {
  RunResult r = run({(upstream_inputs() / "subgraph_name.log").string(), "-o", out().string(),
                     "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto files = list_files(out());
  EXPECT_EQ(std::count(files.begin(), files.end(), "-_0_0_0/dynamo_output_graph_0.txt"), 1);
  EXPECT_EQ(std::count(files.begin(), files.end(), "-_0_0_0/fx_graph_runnable_1.txt"), 1);
  EXPECT_EQ(std::count(files.begin(), files.end(), "-_0_0_0/fx_graph_runnable_2.txt"), 1);
  for (auto& f : files) EXPECT_FALSE(has(f, "repeated_subgraph0/")) << f;
  std::string index = read_file(out() / "index.html");
  // Each run of one subgraph's files is headed by its name, in order.
  size_t a = index.find("<li style=\"margin-top: 8px;\">Subgraph Name: repeated_subgraph0</li>\n"
                        "<li><a href=\"-_0_0_0/fx_graph_runnable_1.txt\">");
  size_t b = index.find("<li style=\"margin-top: 8px;\">Subgraph Name: partitioned_bw_subgraph_1_0</li>\n"
                        "<li><a href=\"-_0_0_0/fx_graph_runnable_2.txt\">");
  EXPECT_NE(a, std::string::npos) << index;
  EXPECT_NE(b, std::string::npos) << index;
  EXPECT_LT(a, b);
  // No longer an unknown key.
  EXPECT_EQ(parse_stats(r.err).count("unknown"), 0u) << r.err;
}

// K10, test_compilation_metrics_extra_fields.
TEST_F(CorpusUpstream, CompilationMetricsExtraFields) {
  RunResult r = run({(corpus_inputs() / "cache_hit_miss.log").string(), "-o", out().string(),
                     "--no-browser", "--strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = page_with("compilation_metrics");
  EXPECT_TRUE(has(page, "<h2>Other Metrics</h2>"));
  for (const char* key : {"aot_autograd_cumulative_compile_time_us", "config_inline_inbuilt_nn_modules",
                          "config_suppress_errors", "dynamo_compile_time_before_restart_us",
                          "dynamo_config", "dynamo_cumulative_compile_time_us", "frame_key",
                          "has_guarded_code", "is_forward", "specialize_float"})
    EXPECT_TRUE(has(page, std::string("<tr><td><code>") + key + "</code></td>")) << key;
  // Sorted by key; long values folded; fields shown elsewhere are not repeated.
  EXPECT_LT(page.find("<code>config_suppress_errors<"), page.find("<code>frame_key<"));
  EXPECT_TRUE(has(page, "<code>dynamo_config</code></td><td><details><summary>(click to expand)</summary><pre>"));
  EXPECT_FALSE(has(page, "<code>co_name</code>"));
  EXPECT_FALSE(has(page, "<code>graph_op_count</code>"));
}

// K3: gzip input, raw.log and raw.log.gz (test_parse_gzip_input,
// test_gzip_cli_raw_log_copy, test_cli_single_file_basic,
// test_all_ranks_gzip_input), and zstd input, which upstream does not read.
TEST_F(CorpusUpstream, RawLogGzBesideRawLog) {
  std::string simple = read_file(corpus_inputs() / "simple.log");
  write_file(tmp_ / "simple.log", simple);
  gzip_file(simple, tmp_ / "simple.log.gz");
  ASSERT_EQ(run_shell("zstd -q -f -o '" + (tmp_ / "simple.log.zst").string() + "' '" +
                      (tmp_ / "simple.log").string() + "'"),
            0);
  for (const char* name : {"simple.log", "simple.log.gz", "simple.log.zst"}) {
    SCOPED_TRACE(name);
    fs::path o = tmp_ / (std::string("o_") + name);
    RunResult r = run({(tmp_ / name).string(), "-o", o.string(), "--no-browser", "--strict"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(o / "raw.log"), simple);
    EXPECT_EQ(gunzip_file(o / "raw.log.gz"), simple);
    for (const char* f : {"index.html", "raw.jsonl", "compile_directory.json", "failures_and_restarts.html"})
      EXPECT_TRUE(fs::is_regular_file(o / f)) << f;
    bool aot = false, post_grad = false, code = false;
    for (auto& f : list_files(o)) {
      aot |= f.rfind("-_0_0_0/aot_forward_graph", 0) == 0;
      post_grad |= f.rfind("-_0_0_0/inductor_post_grad_graph", 0) == 0;
      code |= f.rfind("-_0_0_0/inductor_output_code", 0) == 0;
    }
    EXPECT_TRUE(aot && post_grad && code);
  }
  // A gzip log is copied as it is.
  EXPECT_EQ(read_file(tmp_ / "o_simple.log.gz" / "raw.log.gz"), read_file(tmp_ / "simple.log.gz"));
  // --no-raw-log-gz leaves it out, for every kind of input.
  for (const char* name : {"simple.log", "simple.log.gz", "simple.log.zst"}) {
    fs::path o = tmp_ / (std::string("n_") + name);
    RunResult r = run({(tmp_ / name).string(), "-o", o.string(), "--no-browser", "--no-raw-log-gz"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::is_regular_file(o / "raw.log")) << name;
    EXPECT_FALSE(fs::exists(o / "raw.log.gz")) << name;
  }

  fs::create_directories(tmp_ / "ranks");
  for (int k : {0, 1}) {
    auto rank_log = multi_rank_log(k);
    gzip_file(read_file(rank_log), tmp_ / "ranks" / ("dedicated_log_torch_trace_rank_" + std::to_string(k) + ".log.gz"));
  }
  RunResult r = run({(tmp_ / "ranks").string(), "--all-ranks-html", "-o", (tmp_ / "m").string(),
                     "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string landing = read_file(tmp_ / "m" / "index.html");
  for (int k : {0, 1}) {
    std::string rank = "rank_" + std::to_string(k);
    EXPECT_TRUE(fs::is_regular_file(tmp_ / "m" / rank / "index.html"));
    EXPECT_EQ(gunzip_file(tmp_ / "m" / rank / "raw.log.gz"), read_file(multi_rank_log(k)));
    EXPECT_TRUE(has(landing, "<a href=\"" + rank + "/index.html\">"));
  }
}

// K18's command-line tests.
TEST_F(CorpusUpstream, CommandLineFlags) {
  auto in = [](const char* name) { return (corpus_inputs() / name).string(); };
  RunResult r = run({in("simple.log"), "-o", out().string(), "--no-browser", "--strict"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // test_cli_strict_flag
  r = run({in("export.log"), "-o", (tmp_ / "e").string(), "--no-browser", "--export"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = read_file(tmp_ / "e" / "index.html");
  EXPECT_TRUE(has(index, "exported_program") || has(index, "symbolic_guard_information"));
  r = run({in("inductor_provenance_aot_cuda_log.txt"), "-o", (tmp_ / "p").string(), "--no-browser",
           "--inductor-provenance"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool provenance = false;
  for (auto& e : fs::directory_iterator(tmp_ / "p"))
    provenance |= has(e.path().filename().string(), "provenance_tracking");
  EXPECT_TRUE(provenance);
  r = run({in("simple.log"), "-o", (tmp_ / "t").string(), "--no-browser", "--plain-text"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(tmp_ / "t" / "index.html"));
  r = run({in("simple.log"), "-o", (tmp_ / "h").string(), "--no-browser", "--custom-header-html",
           "<div class='custom-banner'>Test Banner</div>"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(read_file(tmp_ / "h" / "index.html"), "<div class='custom-banner'>Test Banner</div>"));
  write_file(tmp_ / "h" / "sentinel.txt", "x");
  r = run({in("simple.log"), "-o", (tmp_ / "h").string(), "--no-browser"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(has(r.err, "already exists")) << r.err;
  r = run({in("simple.log"), "-o", (tmp_ / "h").string(), "--no-browser", "--overwrite"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(tmp_ / "h" / "sentinel.txt"));
}

// K11: created and unbacked symbols on the metrics page of their compile.
TEST_F(Upstream, CreatedAndUnbackedSymbols) {
  std::string log =
      record(with({{"create_symbol", {{"symbol", "s0"}, {"val", "8"}, {"vr", "[2, int_oo]"},
                                      {"source", "L['x'].size()[0]"}}}},
                  frame0())) +
      record(with({{"create_unbacked_symbol", {{"symbol", "u0"}, {"vr", "[-int_oo, int_oo]"}}}}, frame0())) +
      record(with({{"create_unbacked_symbol", {{"symbol", "u1"}}}}, frame0())) +
      record(with({{"compilation_metrics", {{"co_name", "forward"}}}}, frame0()));
  report(log);
  std::string page = page_with("compilation_metrics");
  EXPECT_TRUE(has(page, "<h2>Created Symbols</h2><table><tr><th>Symbol</th><th>Value</th><th>Range</th>"
                        "<th>Source</th>"));
  EXPECT_TRUE(has(page, "<tr><td>s0</td><td>8</td><td>[2, int_oo]</td><td>L[&#39;x&#39;].size()[0]</td>"))
      << page;
  EXPECT_TRUE(has(page, "<h2>Unbacked Symbols</h2>"));
  EXPECT_TRUE(has(page, "<tr><td>u0</td><td>[-int_oo, int_oo]</td>"));
  EXPECT_TRUE(has(page, "<tr><td>u1</td><td></td>"));
  EXPECT_LT(page.find("Created Symbols"), page.find("Unbacked Symbols"));
  // A compile without them shows neither table.
  report(record(with({{"compilation_metrics", {{"co_name", "forward"}}}}, frame0())));
  EXPECT_FALSE(has(page_with("compilation_metrics"), "Symbols</h2>"));
}

// K12: thread ids and line numbers too large for int64 stay exact, as strings.
TEST_F(Upstream, HugeThreadIdsAndLineNumbersAreStrings) {
  std::string big = "V1206 15:18:15.925000 99999999999999999999 torch/x.py:9223372036854775808] " +
                    json(with({{"dynamo_start", {{"stack", json::array()}}}}, frame0())).dump() + "\n";
  report(big + envelope_line(json(with({{"dynamo_start", {{"stack", json::array()}}}},
                                       {{"frame_id", 1}, {"frame_compile_id", 0}, {"attempt", 0}}))
                                 .dump()) +
         "\n");
  auto lines = split_lines(read_file(out() / "raw.jsonl"));
  ASSERT_EQ(lines.size(), 3u);
  json a = json::parse(lines[1]), b = json::parse(lines[2]);
  EXPECT_EQ(a["thread"], "99999999999999999999");
  EXPECT_EQ(a["lineno"], "9223372036854775808");
  EXPECT_EQ(b["thread"], 1500233);
  EXPECT_EQ(b["lineno"], 100);
}

// K15: memoizer_artifacts is known; its payload goes to payloads/.
TEST_F(Upstream, MemoizerArtifactsIsKnown) {
  RunResult r = report(record(with({{"memoizer_artifacts", {{"aggregated", true}, {"sub_key", "k"}}}}, frame0()),
                              std::string("{\"a\": 1}")));
  EXPECT_EQ(parse_stats(r.err).count("unknown"), 0u) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out() / "payloads" / (md5_hex("{\"a\": 1}") + ".txt")));
  r = report(record(with({{"memoizer_artifacts", {{"aggregated", "yes"}}}}, frame0())));
  EXPECT_EQ(parse_stats(r.err)["fail_json"], 1) << r.err;
}

// K16: bytecode dumps named by code object and kind, listed on the index.
TEST_F(Upstream, BytecodeDumpFiles) {
  RunResult r = report(record(with({{"dynamo_output_graph", json::object()}}, frame0()), std::string("g")) +
                       record(with({{"bytecode_dump", {{"co_name", "forward"}, {"bytecode_type", "modified"}}}},
                                   frame0()),
                              std::string("  0 LOAD_FAST x")) +
                       record(with({{"bytecode_dump", {{"co_name", "forward"}}}}, frame0()), std::string("?")));
  EXPECT_EQ(read_file(out() / "-_0_0_0" / "forward_modified_1.txt"), "  0 LOAD_FAST x");
  EXPECT_TRUE(has(read_file(out() / "index.html"), "<a href=\"-_0_0_0/forward_modified_1.txt\">"));
  // Both fields are required.
  EXPECT_EQ(parse_stats(r.err)["fail_json"], 1) << r.err;
}

}  // namespace
}  // namespace tlscope_test
