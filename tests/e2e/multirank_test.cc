// Multi-rank mode, basics (REPORT_FEATURES F54-F59, F67, F70-F73; part I items
// 19-30): rank discovery, per-rank pages, the landing page's links and
// warnings, the combined chromium trace. Inputs are the read-only corpus
// folders; tests that need other rank sets copy files into a temp folder.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "multirank_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

fs::path simple_log() { return corpus_inputs() / "simple.log"; }
fs::path cache_hit_miss_log() { return corpus_inputs() / "cache_hit_miss.log"; }
fs::path chromium_log() { return corpus_inputs() / "chromium_events.log"; }

class MultiRank : public ::testing::Test {
 protected:
  RunResult run(const fs::path& dir, const std::vector<std::string>& extra = {}) {
    return run_all_ranks(dir, out(), tmp_.path(), extra);
  }
  std::string landing() const { return read_file(out() / "index.html"); }
  fs::path out() const { return tmp_ / "out"; }
  fs::path in() const { return tmp_ / "in"; }
  TempDir tmp_;
};
// The tests that read the corpus.
class CorpusMultiRank : public MultiRank {};

// Item 19.
TEST_F(CorpusMultiRank, BasicPagesAndLinks) {
  const auto& r = multirank_run(multi_rank_logs());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(r.result.error_lines().empty()) << r.result.err;
  for (int k = 0; k < 4; ++k)
    EXPECT_TRUE(fs::is_regular_file(r.out / ("rank_" + std::to_string(k)) / "index.html")) << k;
  ASSERT_FALSE(r.landing.empty());
  EXPECT_TRUE(has(r.landing, "href=\"rank_0/index.html\""));
  EXPECT_TRUE(has(r.landing, "href=\"rank_1/index.html\""));
  EXPECT_EQ(rank_links(r.landing), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_FALSE(has(r.landing, "collectives_parity.json"));
  EXPECT_TRUE(has(r.text("rank_0/index.html"), "collectives_parity.json"));
  // F64: every rank folder has its parity file; these logs have no collectives.
  for (int k = 0; k < 4; ++k) {
    json p = r.load("rank_" + std::to_string(k) + "/collectives_parity.json");
    EXPECT_TRUE(p["description"].is_string());
    EXPECT_EQ(p["graphs"], json::array()) << k;
  }
  // F73: only the files the inputs call for.
  EXPECT_TRUE(fs::exists(r.out / "chromium_events.json"));
  EXPECT_FALSE(fs::exists(r.out / "runtime_estimations.json"));
  EXPECT_FALSE(fs::exists(r.out / "chromium_trace_with_runtime.json"));
  EXPECT_FALSE(fs::exists(r.out / "collective_schedules.json"));
  // Titled for tlscope (tlparse: "Multi-Rank TLParse Report"), the warnings
  // under the title, the cross-rank doctor before the list of ranks.
  EXPECT_TRUE(has(r.landing, "<h1>tlscope multi-rank report</h1>"));
  EXPECT_LT(r.landing.find("<h1>"), r.landing.find("Compile doctor across ranks"));
  EXPECT_LT(r.landing.find("Compile doctor across ranks"), r.landing.find("<ul class=\"ranks\">"));
  EXPECT_TRUE(has(r.landing, "Graph Execution-Order Diagnostics"));
  EXPECT_TRUE(has(r.landing, "Execution-order analysis unavailable."));
  EXPECT_TRUE(has(r.landing, "Tensor Metadata Analysis"));
  EXPECT_TRUE(has(r.landing, "All ranks have matching tensor meta signatures across graphs."));
  EXPECT_FALSE(has(r.landing, "Graph Runtime Analysis"));
}

// Item 20 (and our own b: the other files are named on stderr).
TEST_F(CorpusMultiRank, MessyInputIgnoresOtherFiles) {
  RunResult r = run(messy_input());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out() / "rank_0" / "index.html"));
  EXPECT_TRUE(fs::is_regular_file(out() / "rank_1" / "index.html"));
  EXPECT_EQ(rank_links(landing()), (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(has(r.err, "another.log")) << r.err;
  EXPECT_TRUE(has(r.err, "some_other_file.txt")) << r.err;
  EXPECT_FALSE(has(r.out, "another.log")) << r.out;
  std::set<std::string> top;
  for (const auto& e : fs::directory_iterator(out()))
    if (e.is_directory() && e.path().filename().string().rfind("rank_", 0) == 0)
      top.insert(e.path().filename().string());
  EXPECT_EQ(top, (std::set<std::string>{"rank_0", "rank_1"}));
  // Identical logs: no desync warning.
  EXPECT_FALSE(has(landing(), "Diverging"));
}

// Item 21 (and our own d).
TEST_F(CorpusMultiRank, StdoutNamesTheOutput) {
  const auto& r = multirank_run(multi_rank_logs());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(has(r.result.out, "Multi-rank report generated under " + r.out.string() + "\n"))
      << r.result.out;
  EXPECT_TRUE(has(r.result.out, "Individual pages: rank_*/index.html")) << r.result.out;
  for (int k = 0; k < 4; ++k)
    EXPECT_TRUE(has(r.result.out, "Processing rank " + std::to_string(k) + " \u2192 " +
                                      (r.out / ("rank_" + std::to_string(k))).string() + "\n"))
        << r.result.out;
  EXPECT_EQ(count_of(r.result.out, "Processing rank "), 4u);
  // The summary comes after every rank was processed.
  EXPECT_GT(r.result.out.find("Multi-rank report generated"),
            r.result.out.rfind("Processing rank "));
}

// Item 22.
TEST_F(CorpusMultiRank, LatestIsRejected) {
  RunResult r = run(multi_rank_logs(), {"--latest"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "--latest cannot be used with --all-ranks-html")) << r.err;
  EXPECT_FALSE(fs::exists(out()));
}

// Item 23; our fix: the output folder is not touched.
TEST_F(MultiRank, NoRankLogsIsAnErrorAndLeavesTheOutputAlone) {
  fs::create_directories(in());
  RunResult r = run(in());
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "No rank log files found in directory " + in().string())) << r.err;
  EXPECT_FALSE(fs::exists(out()));

  // An existing output folder keeps its contents, even with --overwrite.
  fs::create_directories(out());
  write_file(out() / "keep.txt", "x");
  write_file(in() / "another.log", "");
  write_file(in() / "dedicated_log_torch_trace_rank_x.log", "");
  write_file(in() / "dedicated_log_torch_trace_rank_0.txt", "");
  fs::create_directories(in() / "dedicated_log_torch_trace_rank_1.log");  // a folder
  r = run(in());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "No rank log files found")) << r.err;
  EXPECT_EQ(list_files(out()), (std::vector<std::string>{"keep.txt"}));

  // Item 23 exactly: no -o. The default ./tl_out is not created (the reference
  // wipes and recreates it before looking for rank logs).
  fs::path cwd = fs::current_path();
  fs::path work = tmp_ / "cwd";
  fs::create_directories(work);
  fs::current_path(work);
  r = run_tlscope({in().string(), "--all-ranks-html", "--overwrite", "--no-browser"}, tmp_.path());
  fs::current_path(cwd);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "No rank log files found")) << r.err;
  EXPECT_FALSE(fs::exists(work / "tl_out"));
}

// Item 24, on the corpus as it is (rank 1 has chromium events too).
TEST_F(CorpusMultiRank, CombinedChromiumEvents) {
  const auto& r = multirank_run(multi_rank_logs());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  json combined = r.load("chromium_events.json");
  ASSERT_TRUE(combined.is_array());
  ASSERT_FALSE(combined.empty());
  auto by_pid = events_by_pid(combined);
  EXPECT_EQ(by_pid.size(), 4u);
  // Counts = the chromium_event records of each log (python over the corpus).
  EXPECT_EQ(by_pid, (std::map<int64_t, size_t>{{0, 6}, {1, 544}, {2, 6}, {3, 179}}));
  size_t total = 0;
  for (int k = 0; k < 4; ++k) {
    json own = r.load("rank_" + std::to_string(k) + "/chromium_events.json");
    ASSERT_TRUE(own.is_array());
    EXPECT_EQ(own.size(), by_pid[k]) << k;
    total += own.size();
  }
  EXPECT_EQ(total, combined.size());
  // Rank order, every event an object with the rank as pid.
  int64_t last = -1;
  for (const auto& e : combined) {
    ASSERT_TRUE(e.is_object());
    EXPECT_GE(e["pid"].get<int64_t>(), last);
    last = e["pid"].get<int64_t>();
  }
  // The first event of rank 0 is the log's first record, pid replaced (was 0 anyway).
  EXPECT_EQ(combined[0]["name"], "dynamo");
  EXPECT_EQ(combined[0]["ph"], "B");
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(has(r.landing, "rank_" + std::to_string(k)));
  EXPECT_TRUE(has(r.landing, "href=\"chromium_events.json\""));
}

// Item 25, on copies: ranks 0 and 2 = chromium_events.log, rank 1 empty,
// rank 3 = multi_rank_logs' rank 3.
TEST_F(CorpusMultiRank, SparseChromiumEvents) {
  copy_as(chromium_log(), in(), rank_log_name(0));
  copy_as(chromium_log(), in(), rank_log_name(2));
  write_file(in() / rank_log_name(1), "");
  copy_as(multi_rank_logs() / rank_log_name(3), in(), rank_log_name(3));
  RunResult r = run(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json combined = json::parse(read_file(out() / "chromium_events.json"));
  auto by_pid = events_by_pid(combined);
  EXPECT_EQ(by_pid, (std::map<int64_t, size_t>{{0, 6}, {2, 6}, {3, 179}}));
  for (int k = 0; k < 4; ++k) {
    fs::path own = out() / ("rank_" + std::to_string(k)) / "chromium_events.json";
    ASSERT_TRUE(fs::exists(own)) << k;
    EXPECT_EQ(json::parse(read_file(own)).size(), k == 1 ? 0u : by_pid[k]) << k;
    EXPECT_TRUE(fs::is_regular_file(out() / ("rank_" + std::to_string(k)) / "index.html")) << k;
  }
  std::string page = landing();
  EXPECT_TRUE(has(page, "chromium_events.json"));
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 1, 2, 3}));
  // The empty rank is named as a problem, not dropped.
  EXPECT_TRUE(has(page, "rank 1: the log has no readable records")) << page;
}

// Item 26.
TEST_F(CorpusMultiRank, DivergingCompileIdsWarning) {
  const auto& r = multirank_run(multi_rank_logs());
  EXPECT_TRUE(has(r.landing, "<strong>Warning:</strong> Diverging Compilation IDs detected"));
  EXPECT_EQ(count_of(r.landing, "class=\"warning-box\""), 1u);
}

// Item 27.
TEST_F(CorpusMultiRank, NoCompileIdDivergence) {
  copy_as(simple_log(), in(), rank_log_name(0));
  copy_as(simple_log(), in(), rank_log_name(1));
  RunResult r = run(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_FALSE(has(page, "Diverging Compilation IDs detected"));
  EXPECT_FALSE(has(page, "warning-box"));
  EXPECT_TRUE(has(page, "All ranks compiled alike"));
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 1}));
}

// Item 28.
TEST_F(CorpusMultiRank, DivergingCacheEventsWarning) {
  copy_as(cache_hit_miss_log(), in(), rank_log_name(0));
  copy_as(simple_log(), in(), rank_log_name(1));
  RunResult r = run(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_TRUE(has(page, "<strong>Warning:</strong> Diverging Cache hit/miss patterns detected"));
  auto box = section(page, "Diverging Cache hit/miss", "</ul>");
  EXPECT_TRUE(has(box, "<li>Ranks: 0</li><li>Ranks: 1</li>")) << box;
}

// Item 29.
TEST_F(CorpusMultiRank, NoCacheEventDivergence) {
  copy_as(cache_hit_miss_log(), in(), rank_log_name(0));
  copy_as(cache_hit_miss_log(), in(), rank_log_name(1));
  RunResult r = run(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(landing(), "Diverging Cache hit/miss patterns detected"));
  EXPECT_FALSE(has(landing(), "Diverging"));
}

// Item 30: ranks 0 and 2 have no cache artifacts, 1 and 3 differ.
TEST_F(CorpusMultiRank, DivergingCacheEventsMultipleGroups) {
  const auto& r = multirank_run(multi_rank_logs());
  EXPECT_TRUE(has(r.landing, "Diverging Cache hit/miss patterns detected"));
  auto box = section(r.landing, "Diverging Cache hit/miss", "</ul>");
  EXPECT_EQ(rank_groups(box), (std::vector<std::string>{"0, 2", "1", "3"})) << box;
}

}  // namespace
}  // namespace tlscope_test
