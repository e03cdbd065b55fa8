// The charts of index.html (issue 13) on real logs: one timeline bar per
// compilation_metrics record of a frame, one recompile mark per record with
// frame_compile_id > 0, counted here from the log itself; and the table
// beside each chart lists the same compiles.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

// compilation_metrics records with a frame id, and those that are recompiles.
std::pair<size_t, size_t> metrics_records(const std::string& log) {
  size_t all = 0, recompiles = 0;
  for (const auto& line : split_lines(log)) {
    size_t brace = line.find("] {");
    if (brace == std::string::npos || line.find("\"compilation_metrics\"") == std::string::npos)
      continue;
    auto j = nlohmann::json::parse(line.substr(brace + 2), nullptr, false);
    if (!j.is_object() || !j.contains("compilation_metrics") ||
        !j["compilation_metrics"].is_object() || !j.contains("frame_id") ||
        !j["frame_id"].is_number_unsigned())
      continue;
    ++all;
    if (j.value("frame_compile_id", 0) > 0) ++recompiles;
  }
  return {all, recompiles};
}

struct ChartLog {
  std::string name;
  fs::path path;
};

class Charts : public ::testing::TestWithParam<ChartLog> {
 protected:
  TempDir tmp_;
};

TEST_P(Charts, OneBarPerCompileAndOneMarkPerRecompile) {
  RunResult r = run_tlscope({GetParam().path.string(), "-o", (tmp_ / "r").string(), "--no-browser"},
                            tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = read_file(tmp_ / "r/index.html");
  auto [compiles, recompiles] = metrics_records(load_log(GetParam().path));
  ASSERT_GT(compiles, 0u);
  std::string timeline = index.substr(index.find("id=\"timeline-chart\""));
  timeline = timeline.substr(0, timeline.find("</figure>"));
  EXPECT_EQ(count(timeline, "<rect class=\"mark status-"), compiles);
  EXPECT_EQ(count(timeline, "class=\"recompile-mark\""), recompiles);
  std::string table = timeline.substr(timeline.find("timeline-table"));
  EXPECT_EQ(count(table, "<tr><td>"), compiles);
  // Where compile time went: a row per slow compile (at most 10).
  size_t split = index.find("id=\"time-split-chart\"");
  ASSERT_NE(split, std::string::npos);
  std::string s = index.substr(split, index.find("</figure>", split) - split);
  EXPECT_EQ(count(s, "<tr><td>"), std::min<size_t>(compiles, 10));
  EXPECT_GE(count(s, "<rect class=\"mark seg part-"), 1u);
}

std::vector<ChartLog> chart_logs(bool corpus) {
  std::vector<ChartLog> v;
  if (!corpus) {
    for (const auto& e : fs::directory_iterator(kRecorded))
      if (e.path().extension() == ".gz")
        v.push_back({param_name(e.path().stem().stem().string()), e.path()});
  } else if (corpus_present()) {
    for (const char* f : {"comp_metrics.log", "chromium_events.log", "cache_hit_miss.log",
                          "comp_failure.log", "simple.log"})
      if (fs::exists(kCorpusRoot / "tlparse/inputs" / f))
        v.push_back({param_name(f), kCorpusRoot / "tlparse/inputs" / f});
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

// The landing page of a job: one bar per rank that has records, the
// rank's compile time in its label as in the table above it.
class RankCharts : public ::testing::TestWithParam<ChartLog> {
 protected:
  TempDir tmp_;
};

TEST_P(RankCharts, OneBarPerRankWithRecords) {
  RunResult r = run_tlscope({GetParam().path.string(), "--all-ranks-html", "-o",
                             (tmp_ / "r").string(), "--no-browser"},
                            tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = read_file(tmp_ / "r/index.html");
  size_t ranks = 0;
  for (const auto& e : fs::directory_iterator(tmp_ / "r"))
    if (e.is_directory() && e.path().filename().string().rfind("rank_", 0) == 0) ++ranks;
  size_t empty = count(index, "no readable records: not compared");
  ASSERT_GT(ranks, empty);
  EXPECT_EQ(count(index, "<rect class=\"mark rank-bar\""), ranks - empty);
  // Each label starts with the compile time the table gives for that rank.
  static const std::regex row(R"(<tr><td><a href="rank_\d+/index.html">\d+</a></td>(?:<td>[^<]*</td>){4}<td>([0-9.]+)</td></tr>)");
  std::vector<std::string> table, labels;
  for (std::sregex_iterator it(index.begin(), index.end(), row), end; it != end; ++it)
    table.push_back((*it)[1]);
  static const std::regex label(R"(<text class="total-label"[^>]*>([0-9.]+) s: )");
  for (std::sregex_iterator it(index.begin(), index.end(), label), end; it != end; ++it)
    labels.push_back((*it)[1]);
  EXPECT_EQ(labels, table);
}

std::vector<ChartLog> job_logs(bool corpus) {
  if (!corpus) return {{"two_ranks_aborted", kRecorded / "two_ranks_aborted"}};
  std::vector<ChartLog> v;
  if (corpus_present())
    for (const char* d : {"multi_rank_logs", "multi_rank_messy_input", "multi_rank_runtime"})
      if (fs::is_directory(kCorpusRoot / "tlparse/inputs" / d))
        v.push_back({d, kCorpusRoot / "tlparse/inputs" / d});
  return v;
}

std::string chart_name(const ::testing::TestParamInfo<ChartLog>& i) { return i.param.name; }
INSTANTIATE_TEST_SUITE_P(Recorded, Charts, ::testing::ValuesIn(chart_logs(false)), chart_name);
INSTANTIATE_TEST_SUITE_P(Corpus, Charts, ::testing::ValuesIn(chart_logs(true)), chart_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Charts);
INSTANTIATE_TEST_SUITE_P(Recorded, RankCharts, ::testing::ValuesIn(job_logs(false)), chart_name);
INSTANTIATE_TEST_SUITE_P(Corpus, RankCharts, ::testing::ValuesIn(job_logs(true)), chart_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RankCharts);

}  // namespace
}  // namespace tlscope_test
