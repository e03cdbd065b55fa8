// Multi-rank runs with ranks that cannot be compared (issue 10 item 8): an
// empty or unreadable rank log is listed as a problem and takes no part in
// the divergence checks; no sentence claims "all ranks" agree when some were
// not compared; an unavailable execution-order analysis says why; progress
// lines come in rank order and per-line messages name their rank. Built from
// the project's example log: no corpus needed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "multirank_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

class MultiRankLeftOut : public ::testing::Test {
 protected:
  fs::path in() const { return tmp_ / "in"; }
  fs::path out() const { return tmp_ / "out"; }
  void good(uint32_t rank) { copy_as(kExample, in(), rank_log_name(rank)); }
  void put(uint32_t rank, const std::string& content) {
    fs::create_directories(in());
    write_file(in() / rank_log_name(rank), content);
  }
  RunResult run_ranks() { return run_all_ranks(in(), out(), tmp_.path()); }
  std::string landing() const { return read_file(out() / "index.html"); }
  TempDir tmp_;
};

const std::string kNotATrace = "this is not\na trace log\n";

TEST_F(MultiRankLeftOut, EmptyAndUnreadableRanksAreNotCompared) {
  good(0);
  good(1);
  put(2, "");
  put(3, kNotATrace);
  RunResult r = run_ranks();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  // Ranks 0 and 1 are alike; the empty ones would otherwise differ in
  // compile ids, recompiles, graph breaks and failures from them.
  EXPECT_FALSE(has(page, "Diverging")) << page;
  EXPECT_FALSE(has(page, "Ranks differ in")) << page;
  EXPECT_TRUE(has(page, "rank 2: the log has no readable records (no line read)")) << page;
  EXPECT_TRUE(has(page, "rank 3: the log has no readable records (2 lines that are not trace records)"))
      << page;
  // No claim about all ranks.
  EXPECT_FALSE(has(page, "All ranks")) << page;
  const std::string not_compared =
      "Ranks 2-3 were not compared: they have no report or no readable records (see the problems "
      "above).";
  EXPECT_TRUE(has(page,
                  "<p>The ranks compared (0-1) compiled alike: same compile ids, recompiles, "
                  "graph breaks and failures. " +
                      not_compared + "</p>"))
      << page;
  EXPECT_TRUE(has(page,
                  "<p>The ranks compared (0-1) have matching tensor meta signatures across "
                  "graphs. " +
                      not_compared + "</p>"))
      << page;
  EXPECT_TRUE(has(page, "<td colspan=\"5\">no readable records: not compared</td>")) << page;
  EXPECT_EQ(count_of(page, "no readable records: not compared"), 2u);

  // The terminal summary of the folder says the same.
  RunResult s = run_tlscope({"summary", in().string()}, tmp_.path());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_TRUE(has(s.out, "      2 no readable records in the log\n")) << s.out;
  EXPECT_TRUE(has(s.out,
                  "Not compared: ranks 2-3 (no report or no readable records).\n"
                  "The ranks compared (0-1) compiled alike.\n"))
      << s.out;
  EXPECT_FALSE(has(s.out, "All ranks")) << s.out;
  json j = json::parse(run_tlscope({"summary", in().string(), "--json"}, tmp_.path()).out);
  EXPECT_EQ(j["compared_ranks"], json({0, 1}));
  EXPECT_EQ(j["left_out_ranks"], json({2, 3}));
  EXPECT_EQ(j["divergence"], json::array());
}

TEST_F(MultiRankLeftOut, ADifferenceAmongComparedRanksIsStillFound) {
  good(0);
  // Rank 1 compiled only the first record's frame: fewer compile ids.
  std::string log = read_file(kExample);
  put(1, log.substr(0, log.find("\n", log.size() / 3) + 1));
  put(2, "");
  RunResult r = run_ranks();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_TRUE(has(page, "Diverging Compilation IDs detected")) << page;
  EXPECT_TRUE(has(page, "Ranks differ in <strong>compile ids</strong>")) << page;
  // Groups name ranks 0 and 1 only.
  EXPECT_TRUE(has(page, ": ranks 0; ranks 1</li>") || has(page, ": ranks 1; ranks 0</li>")) << page;
  EXPECT_TRUE(has(page,
                  "<p>Rank 2 was not compared: it has no report or no readable records "
                  "(see the problems above).</p>"))
      << page;
}

TEST_F(MultiRankLeftOut, ExecutionOrderUnavailableSaysWhy) {
  good(0);
  good(1);
  ASSERT_EQ(run_ranks().exit_code, 0);
  EXPECT_TRUE(has(landing(),
                  "<p>Execution-order analysis unavailable. No rank logged its graph "
                  "execution order.</p>"));
  fs::remove_all(in());
  good(4);
  put(5, "");
  ASSERT_EQ(run_ranks().exit_code, 0);
  EXPECT_TRUE(has(landing(),
                  "<p>Execution-order analysis unavailable. It compares two or more "
                  "ranks, and only rank 4 has a readable log.</p>"))
      << landing();
  fs::remove_all(in());
  put(0, "");
  put(1, kNotATrace);
  ASSERT_EQ(run_ranks().exit_code, 0);
  std::string page = landing();
  EXPECT_TRUE(has(page,
                  "Execution-order analysis unavailable. No rank has a readable log to "
                  "compare."))
      << page;
  EXPECT_TRUE(has(page, "<p>No rank has a readable log to compare.</p>")) << page;
  EXPECT_FALSE(has(page, "All ranks")) << page;
}

TEST_F(MultiRankLeftOut, TitleNamesTlscope) {
  good(0);
  good(1);
  ASSERT_EQ(run_ranks().exit_code, 0);
  EXPECT_TRUE(has(landing(), "<title>tlscope multi-rank report</title>")) << landing();
  // With every rank compared, the reference's sentences stay (F72).
  EXPECT_TRUE(has(landing(), "All ranks have matching tensor meta signatures across graphs."));
}

TEST_F(MultiRankLeftOut, ProgressInRankOrderAndMessagesNameTheRank) {
  // Twelve ranks: the folder lists rank_10 before rank_2, and the ranks run
  // in parallel; odd ranks hold two lines that are not trace records.
  for (uint32_t k = 0; k < 12; ++k) {
    if (k % 2)
      put(k, read_file(kExample) + kNotATrace);
    else
      good(k);
  }
  RunResult r = run_ranks();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> progress;
  for (auto& l : split_lines(r.out))
    if (l.rfind("Processing rank ", 0) == 0) progress.push_back(l);
  ASSERT_EQ(progress.size(), 12u) << r.out;
  for (uint32_t k = 0; k < 12; ++k)
    EXPECT_EQ(progress[k], "Processing rank " + std::to_string(k) + " \u2192 " +
                               (out() / ("rank_" + std::to_string(k))).string());
  // Every per-line message names its rank; none comes from an even rank.
  size_t named = 0;
  for (auto& l : split_lines(r.err)) {
    if (l.find("Failed to parse glog prefix") == std::string::npos) continue;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(
        l, m, std::regex(R"(rank (\d+): Failed to parse glog prefix on line \d+)")))
        << l;
    EXPECT_EQ(std::stoi(m[1]) % 2, 1) << l;
    ++named;
  }
  EXPECT_EQ(named, 12u) << r.err;
}

}  // namespace
}  // namespace tlscope_test
