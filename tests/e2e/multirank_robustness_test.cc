// Multi-rank mode where tlscope goes beyond tlparse (README "Deliberate
// differences", REPORT_FEATURES part J items 14, 22, 27, 28, 30): missing,
// empty and corrupt rank logs are named instead of aborting; duplicate rank
// logs keep the first by name; rank order is numeric; compressed rank logs;
// the command-line errors; `tlscope summary DIR` and `tlscope check DIR`.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
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

class MultiRankRobust : public ::testing::Test {
 protected:
  RunResult run(const std::vector<std::string>& args) { return run_tlscope(args, tmp_.path()); }
  RunResult run_ranks(const fs::path& dir, const std::vector<std::string>& extra = {}) {
    return run_all_ranks(dir, out(), tmp_.path(), extra);
  }
  std::string landing() const { return read_file(out() / "index.html"); }
  fs::path in() const { return tmp_ / "in"; }
  fs::path out() const { return tmp_ / "out"; }
  TempDir tmp_;
};
// The tests that read the corpus.
class CorpusMultiRankRobust : public MultiRankRobust {};

// The `<li>` texts of the landing page's problems box.
std::vector<std::string> problems(const std::string& html) {
  std::string box = section(html, "Problems with the rank logs:", "</ul>");
  std::vector<std::string> out;
  static const std::regex li("<li>([^<]*)</li>");
  for (std::sregex_iterator it(box.begin(), box.end(), li), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

// Four lines of 200 random bytes (fixed seed), without newlines or tabs.
std::string corrupt_log() {
  std::string s;
  for (uint32_t line = 0; line < 4; ++line) {
    std::string b = random_bytes(200, 1234 + line);
    for (char& c : b)
      if (c == '\n' || c == '\t' || c == '\r') c = 'x';
    s += b + "\n";
  }
  return s;
}

// Our own a: rank 2 missing, rank 1 empty, rank 3 corrupt.
TEST_F(CorpusMultiRankRobust, MissingEmptyAndCorruptRanksAreNamed) {
  copy_as(simple_log(), in(), rank_log_name(0));
  write_file(in() / rank_log_name(1), "");
  write_file(in() / rank_log_name(3), corrupt_log());
  RunResult r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.error_lines().empty()) << r.err;
  for (int k : {0, 1, 3})
    EXPECT_TRUE(fs::is_regular_file(out() / ("rank_" + std::to_string(k)) / "index.html")) << k;
  EXPECT_FALSE(fs::exists(out() / "rank_2"));
  std::string page = landing();
  EXPECT_EQ(problems(page),
            (std::vector<std::string>{
                "no log in the folder for rank 2",
                "rank 1: the log has no readable records (no line read)",
                "rank 3: the log has no readable records (4 lines that are not trace records)"}))
      << page;
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 1, 3}));
  // The same lines on stderr.
  EXPECT_TRUE(has(r.err, "no log in the folder for rank 2\n")) << r.err;
  EXPECT_TRUE(has(r.err, "rank 1: the log has no readable records")) << r.err;
  EXPECT_TRUE(has(r.err, "rank 3: the log has no readable records")) << r.err;

  // --strict: the report is still written, one error line, exit 1.
  r = run_ranks(in(), {"--strict"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_EQ(r.error_lines()[0],
            "Error: --strict: 4 log lines could not be used across the "
            "ranks; the report was written to " +
                out().string());
  EXPECT_TRUE(fs::is_regular_file(out() / "index.html"));
  EXPECT_TRUE(fs::is_regular_file(out() / "rank_3" / "index.html"));
}

// --strict passes when every line of every rank was used.
TEST_F(CorpusMultiRankRobust, StrictPassesOnCleanRanks) {
  copy_as(simple_log(), in(), rank_log_name(0));
  copy_as(simple_log(), in(), rank_log_name(1));
  RunResult r = run_ranks(in(), {"--strict"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.error_lines().empty()) << r.err;
  EXPECT_TRUE(problems(landing()).empty());
}

// Our own b: the first log by name wins; the other and non-rank files are named.
TEST_F(CorpusMultiRankRobust, DuplicateRankKeepsTheFirstByName) {
  copy_as(cache_hit_miss_log(), in(), "dedicated_log_torch_trace_rank_0_b.log");
  copy_as(simple_log(), in(), "dedicated_log_torch_trace_rank_0_a.log");
  copy_as(simple_log(), in(), "dedicated_log_torch_trace_rank_0_c.log.gz");
  copy_as(simple_log(), in(), rank_log_name(1));
  write_file(in() / "notes.txt", "hello");
  RunResult r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "dedicated_log_torch_trace_rank_0_b.log (another log for rank 0)"))
      << r.err;
  EXPECT_TRUE(has(r.err, "dedicated_log_torch_trace_rank_0_c.log.gz (another log for rank 0)"))
      << r.err;
  EXPECT_FALSE(has(r.err, "rank_0_a.log")) << r.err;
  EXPECT_TRUE(has(r.err, "notes.txt")) << r.err;
  EXPECT_EQ(count_of(r.out, "Processing rank 0 "), 1u) << r.out;
  EXPECT_EQ(read_file(out() / "rank_0" / "raw.log"), read_file(simple_log()));
  std::string page = landing();
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 1}));
  // simple.log twice: nothing diverges (the cache_hit_miss copy was not used).
  EXPECT_FALSE(has(page, "Diverging"));
}

// Rank numbers: the first `_` piece after the prefix, as u32; numeric order.
TEST_F(CorpusMultiRankRobust, RankFileNamesAndNumericOrder) {
  copy_as(simple_log(), in(), "dedicated_log_torch_trace_rank_10_zz.log");
  copy_as(simple_log(), in(), "dedicated_log_torch_trace_rank_2.log");
  copy_as(simple_log(), in(), "dedicated_log_torch_trace_rank_01_x.log");  // rank 1
  gzip_file(read_file(simple_log()), in() / "dedicated_log_torch_trace_rank_3.log.gz");
  for (const char* bad :
       {"dedicated_log_torch_trace_rank_.log", "dedicated_log_torch_trace_rank_x1.log",
        "dedicated_log_torch_trace_rank_1.txt", "dedicated_log_torch_trace_rank_99999999999.log",
        "dedicated_log_torch_trace_rank_-4.log", "dedicated_log_torch_trace_rank_+4.log",
        "dedicated_log_torch_trace_rank_4.log.bak", "dedicated_log_torch_trace_rank_4.LOG",
        "Dedicated_log_torch_trace_rank_4.log"})
    write_file(in() / bad, "");
  fs::create_directories(in() / "dedicated_log_torch_trace_rank_5.log");  // a folder
  RunResult r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{1, 2, 3, 10}));
  std::set<std::string> dirs;
  for (const auto& e : fs::directory_iterator(out()))
    if (e.is_directory() && e.path().filename() != "static")
      dirs.insert(e.path().filename().string());
  EXPECT_EQ(dirs, (std::set<std::string>{"rank_1", "rank_2", "rank_3", "rank_10"}));
  EXPECT_EQ(problems(page), (std::vector<std::string>{"no log in the folder for ranks 0, 4-9"}));
  EXPECT_TRUE(has(page, "4 ranks (1-3, 10)")) << page;
  EXPECT_EQ(read_file(out() / "rank_3" / "raw.log"), read_file(simple_log()));  // decompressed
  EXPECT_TRUE(has(r.err, "dedicated_log_torch_trace_rank_99999999999.log")) << r.err;
  EXPECT_TRUE(has(r.err, "Dedicated_log_torch_trace_rank_4.log")) << r.err;
}

// A gap larger than 100000 ranks is still reported exactly.
TEST_F(CorpusMultiRankRobust, LargeRankGapIsReportedExactly) {
  copy_as(simple_log(), in(), rank_log_name(0));
  copy_as(simple_log(), in(), rank_log_name(200000));
  RunResult r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 200000}));
  EXPECT_EQ(problems(page), (std::vector<std::string>{"no log in the folder for ranks 1-199999"}))
      << page;
}

// A rank whose report cannot be written is named on the landing page; with
// --strict that must fail the run, as a write failure does in single-log mode.
// Here the output folder's path is 4092 bytes long: the landing page's files
// are created relative to the open folder and fit, but "<folder>/rank_0" is
// over PATH_MAX (4095 bytes), so no rank folder can be made.
TEST_F(CorpusMultiRankRobust, StrictFailsWhenARankHasNoReport) {
  copy_as(simple_log(), in(), rank_log_name(0));
  copy_as(simple_log(), in(), rank_log_name(1));
  fs::path deep = tmp_.path();
  const size_t target = 4092;
  while (deep.string().size() < target) {
    size_t room = target - deep.string().size() - 1;
    if (room == 0) break;
    deep /= std::string(std::min<size_t>(room, 200), 'd');
  }
  ASSERT_EQ(deep.string().size(), target);
  fs::create_directories(deep.parent_path());
  RunResult r = run_all_ranks(in(), deep, tmp_.path(), {"--strict"});
  // deep/index.html is itself too long a path: read it relative to the folder.
  std::string page;
  int dir = ::open(deep.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dir, 0) << r.err;
  int fd = ::openat(dir, "index.html", O_RDONLY);
  ::close(dir);
  ASSERT_GE(fd, 0) << r.err;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) page.append(buf, static_cast<size_t>(n));
  ::close(fd);
  EXPECT_TRUE(has(page, "rank 0: no report (")) << r.err;
  EXPECT_EQ(r.exit_code, 1) << "src/cli/main.cc run_all_ranks: --strict only counts unusable "
                               "lines; a rank without a report leaves the exit status 0\n"
                            << r.err;
}

// Our own c.
TEST_F(MultiRankRobust, PathMustBeADirectory) {
  RunResult r = run_ranks(kExample);
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_EQ(r.error_lines()[0], "Error: Input path " + kExample.string() +
                                    " must be a directory when using --all-ranks-html");
  EXPECT_FALSE(fs::exists(out()));
  r = run_ranks(tmp_ / "does_not_exist");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.error_lines(),
      std::vector<std::string>{"Error: " + (tmp_ / "does_not_exist").string() + ": no such folder"})
      << r.err;
  EXPECT_FALSE(fs::exists(out()));
}

// F8 still applies in multi-rank mode; --overwrite replaces only a report.
TEST_F(CorpusMultiRankRobust, ExistingOutputNeedsOverwrite) {
  copy_as(simple_log(), in(), rank_log_name(0));
  fs::create_directories(out());
  write_file(out() / "old.txt", "x");
  RunResult r = run({in().string(), "--all-ranks-html", "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "already exists")) << r.err;
  EXPECT_EQ(list_files(out()), (std::vector<std::string>{"old.txt"}));
  // Not a report: even --overwrite leaves it alone.
  r = run_ranks(in());
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_EQ(list_files(out()), (std::vector<std::string>{"old.txt"}));

  // A multi-rank report is replaced with --overwrite, and only with it.
  fs::remove_all(out());
  ASSERT_EQ(run_ranks(in()).exit_code, 0);
  write_file(out() / "old.txt", "x");
  r = run({in().string(), "--all-ranks-html", "-o", out().string(), "--no-browser"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "already exists")) << r.err;
  EXPECT_TRUE(fs::exists(out() / "old.txt"));
  r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out() / "old.txt"));
  EXPECT_TRUE(fs::exists(out() / "rank_0" / "index.html"));
}

// Item 34's layout: the output folder inside the input folder (on copies),
// run twice; the output folder is not taken for a rank log.
TEST_F(CorpusMultiRankRobust, OutputInsideTheInputFolder) {
  for (int k = 0; k < 2; ++k) copy_as(runtime_ranks() / rank_log_name(k), in(), rank_log_name(k));
  fs::path nested = in() / "out";
  for (int pass = 0; pass < 2; ++pass) {
    RunResult r = run_all_ranks(in(), nested, tmp_.path());
    ASSERT_EQ(r.exit_code, 0) << pass << r.err;
    json est = json::parse(read_file(nested / "runtime_estimations.json"));
    std::set<int> ranks;
    for (const auto& e : est) ranks.insert(e["rank"].get<int>());
    EXPECT_EQ(ranks, (std::set<int>{0, 1}));
    EXPECT_EQ(rank_links(read_file(nested / "index.html")), (std::vector<uint32_t>{0, 1}));
    EXPECT_FALSE(fs::exists(nested / "out"));
  }
}

// Our own e: the landing page, and compressed rank logs.
TEST_F(CorpusMultiRankRobust, LandingPageDoctorSection) {
  const auto& r = multirank_run(multi_rank_logs());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(has(r.landing, "<h2>Compile doctor across ranks</h2>"));
  EXPECT_FALSE(has(r.landing, "collectives_parity.json"));
  // One row per rank: compiles, recompiles, graph breaks, failures.
  EXPECT_TRUE(has(r.landing,
                  "<tr><td><a href=\"rank_1/index.html\">1</a></td><td>15</td><td>14</td>"
                  "<td>0</td><td>0</td><td>4.57</td></tr>"))
      << r.landing;
  EXPECT_TRUE(has(r.landing,
                  "<tr><td><a href=\"rank_3/index.html\">3</a></td><td>7</td><td>6</td>"
                  "<td>0</td><td>0</td><td>10.52</td></tr>"));
  EXPECT_TRUE(has(r.landing,
                  "<tr><td><a href=\"rank_0/index.html\">0</a></td><td>1</td><td>0</td>"
                  "<td>0</td><td>1</td><td>0.16</td></tr>"));  // from microseconds
  EXPECT_TRUE(has(r.landing,
                  "<li>Ranks differ in <strong>recompiles</strong> (first at 0/1): "
                  "ranks 0, 2; ranks 1; ranks 3</li>"))
      << r.landing;
  EXPECT_TRUE(
      has(r.landing, "<li>Ranks differ in <strong>failures</strong>: ranks 0, 2; ranks 1, 3</li>"));
  EXPECT_FALSE(has(r.landing, "All ranks compiled alike"));
  EXPECT_TRUE(has(r.landing, "4 ranks (0-3)"));
}

TEST_F(CorpusMultiRankRobust, CompressedRankLogsGiveTheSameSchedules) {
  const auto& plain = multirank_run(schedule_ranks());
  ASSERT_EQ(plain.result.exit_code, 0) << plain.result.err;
  fs::create_directories(in());
  for (const auto& e : fs::directory_iterator(schedule_ranks()))
    gzip_file(read_file(e.path()), in() / (e.path().filename().string() + ".gz"));
  RunResult r = run_ranks(in());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(out() / "collective_schedules.json"),
            plain.text("collective_schedules.json"));
  EXPECT_EQ(rank_links(landing()), (std::vector<uint32_t>{0, 1, 2}));
  auto box = section(landing(), "Diverging collective operation sequences", "</ul>");
  EXPECT_EQ(rank_groups(box), (std::vector<std::string>{"0, 2", "1"}));

  // zstd-compressed rank logs (scripts/setup installs zstd).
  ASSERT_EQ(run_shell("command -v zstd > /dev/null 2>&1"), 0)
      << "zstd is installed by scripts/setup";
  fs::path zin = tmp_ / "zin";
  fs::create_directories(zin);
  for (const auto& e : fs::directory_iterator(schedule_ranks()))
    ASSERT_EQ(run_shell("zstd -q -o '" + (zin / (e.path().filename().string() + ".zst")).string() +
                        "' '" + e.path().string() + "'"),
              0);
  r = run_all_ranks(zin, tmp_ / "zout", tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(tmp_ / "zout" / "collective_schedules.json"),
            plain.text("collective_schedules.json"));
}

// Our own f: `tlscope summary DIR` and `tlscope check DIR`.
TEST_F(CorpusMultiRankRobust, SummaryOfAFolderMatchesPerRankSummaries) {
  RunResult r = run({"summary", multi_rank_logs().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json all = json::parse(r.out);
  ASSERT_TRUE(all["ranks"].is_array());
  ASSERT_EQ(all["ranks"].size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    const json& rank = all["ranks"][k];
    EXPECT_EQ(rank["rank"], k);
    fs::path log = multi_rank_logs() / rank_log_name(static_cast<uint32_t>(k));
    EXPECT_EQ(rank["log"], log.string());
    RunResult one = run({"summary", log.string(), "--json"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    json single = json::parse(one.out);
    EXPECT_EQ(rank["summary"]["totals"], single["totals"]) << k;
    json a = rank["summary"], b = single;
    a.erase("source");
    b.erase("source");
    EXPECT_EQ(a, b) << k;
  }
  // Totals computed from the logs: compiles / recompiles / failures per rank.
  const int want[4][3] = {{1, 0, 1}, {15, 14, 0}, {1, 0, 1}, {7, 6, 0}};
  for (int k = 0; k < 4; ++k) {
    const json& t = all["ranks"][k]["summary"]["totals"];
    EXPECT_EQ(t["compiles"], want[k][0]) << k;
    EXPECT_EQ(t["recompiles"], want[k][1]) << k;
    EXPECT_EQ(t["failures"], want[k][2]) << k;
  }
  ASSERT_TRUE(all["divergence"].is_array());
  ASSERT_FALSE(all["divergence"].empty());
  std::map<std::string, json> by_what;
  for (const auto& d : all["divergence"]) by_what[d["what"]] = d;
  EXPECT_EQ(json_keys(json(by_what)),
            (std::set<std::string>{"compile ids", "recompiles", "failures"}));
  EXPECT_EQ(by_what["recompiles"]["groups"], json::parse("[[0,2],[1],[3]]"));
  EXPECT_EQ(by_what["recompiles"]["first_compile_id"], "0/1");
  EXPECT_EQ(by_what["compile ids"]["groups"], json::parse("[[0,2],[1],[3]]"));
  EXPECT_EQ(by_what["failures"]["groups"], json::parse("[[0,2],[1,3]]"));

  r = run({"summary", multi_rank_logs().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "4 rank logs")) << r.out;
  EXPECT_TRUE(has(r.out, "recompiles (first at 0/1): ranks 0, 2; ranks 1; ranks 3")) << r.out;
}

TEST_F(CorpusMultiRankRobust, CheckOfAFolderNamesOffendingRanks) {
  RunResult r = run({"check", multi_rank_logs().string(), "--max-recompiles", "0"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(split_lines(r.out),
            (std::vector<std::string>{"tlscope check: rank 1: recompiles: 14 > 0",
                                      "tlscope check: rank 3: recompiles: 6 > 0"}))
      << r.out;
  r = run({"check", multi_rank_logs().string(), "--max-recompiles", "14", "--max-failures", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(split_lines(r.out),
            (std::vector<std::string>{"tlscope check: rank 0: failures: 1 > 0",
                                      "tlscope check: rank 2: failures: 1 > 0"}))
      << r.out;
  r = run({"check", multi_rank_logs().string(), "--max-recompiles", "1000"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "tlscope check: ok (20 recompiles, 0 graph breaks, 2 failures, 15.41 s, 4 ranks)\n");

  fs::create_directories(in());
  r = run({"check", in().string(), "--max-recompiles", "0"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "No rank log files found")) << r.err;
  r = run({"summary", in().string(), "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "No rank log files found")) << r.err;
}

}  // namespace
}  // namespace tlscope_test
