// `tlscope LOG|TRACE_DIR --follow -o OUT` (issue 29): the report written
// while a writer appends a recorded trace in random pieces with pauses,
// cutting lines in the middle. Whatever a reader finds in the folder while
// it is written is whole (index.html, summary.json); the index it finds is
// marked live; and the report at the end is byte for byte the one a run on
// the finished log writes.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>

#include "follow_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

using nlohmann::json;

// What a reader saw in the report folder while it was written.
struct Looks {
  size_t live_indexes = 0;    // index.html marked as written while followed
  size_t summaries = 0;       // summary.json read whole (of one log)
  std::vector<std::string> broken;  // files read in part
};

// Reads index.html and summary.json over and over until `done`. Once there,
// neither may be found empty or in part (a file rewritten in place is, for
// a moment, empty).
void watch(const fs::path& out, const std::atomic<bool>& done, Looks* looks) {
  bool index_seen = false, summary_seen = false;
  while (!done.load()) {
    std::string index = read_if_there(out / "index.html");
    if (index_seen || !index.empty()) {
      index_seen = true;
      if (index.size() < 8 || index.substr(index.size() - 8) != "</html>\n")
        looks->broken.push_back("index.html of " + std::to_string(index.size()) + " bytes");
      else if (index.find("data-generation=\"") != std::string::npos)
        ++looks->live_indexes;
    }
    std::string summary = read_if_there(out / "summary.json");
    if (summary_seen || !summary.empty()) {
      summary_seen = true;
      if (json::accept(summary)) ++looks->summaries;
      else looks->broken.push_back("summary.json of " + std::to_string(summary.size()) + " bytes");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Every file of `a` and `b` (names and bytes) the same.
void expect_same_tree(const fs::path& a, const fs::path& b) {
  auto fa = list_files(a), fb = list_files(b);
  ASSERT_EQ(fa, fb);
  for (const auto& f : fa) {
    EXPECT_FALSE(f.ends_with("~")) << f;
    EXPECT_TRUE(read_file(a / f) == read_file(b / f)) << f << " differs";
  }
}

// The report a run on the finished log writes into `out` (moved aside first).
void expect_report_of_whole_log(const fs::path& log, const fs::path& out, const fs::path& tmp) {
  fs::path followed = tmp / "followed";
  fs::remove_all(followed);
  fs::rename(out, followed);
  auto whole = run_tlscope({log.string(), "-o", out.string(), "--no-browser"}, tmp);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  expect_same_tree(out, followed);
}

TEST(FollowReport, ALogWrittenWhileFollowedGivesTheReportOfTheWholeLog) {
  TempDir tmp;
  ASSERT_GE(recorded_logs().size(), 9u);
  unsigned seed = 11;
  for (const auto& rec : recorded_logs()) {
    SCOPED_TRACE(rec.string());
    fs::path log = tmp / rec.stem().string(), out = tmp / "out";
    fs::remove_all(out);
    write_file(log, "");
    std::string data = gunzip_file(rec);  // before the follower's --idle counts
    // --follow and --idle at the end: the pages show the command line without them.
    pid_t pid = spawn_tlscope(
        {log.string(), "-o", out.string(), "--no-browser", "--follow", "--idle", "2"}, tmp / "o",
        tmp / "e");
    std::atomic<bool> done{false};
    Looks looks;
    std::thread reader(watch, out, std::cref(done), &looks);
    append_in_pieces(log, data, seed++);
    auto r = wait_for(pid, tmp / "o", tmp / "e");
    done = true;
    reader.join();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(looks.broken.empty()) << looks.broken.front();
    EXPECT_GT(looks.live_indexes, 0u);
    EXPECT_GT(looks.summaries, 0u);
    EXPECT_EQ(read_file(out / "index.html").find("tl-live"), std::string::npos);

    // One line per recompile, failure and graph break the doctor counts.
    json j = json::parse(read_file(out / "summary.json"));
    const auto& t = j["totals"];
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: (recompile|failure.*\\(recompile [0-9]+\\))")),
              t["recompiles"].get<size_t>())
        << r.err;
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: failure")), t["failures"].get<size_t>());
    EXPECT_NE(r.err.find("Report written to " + (out / "index.html").string()), std::string::npos);
    expect_report_of_whole_log(log, out, tmp.path());
  }
}

// Ctrl+C ends the following: exit 0, the report complete for what was read.
TEST(FollowReport, InterruptEndsWithTheWholeReport) {
  TempDir tmp;
  fs::path log = tmp / "shape.log", out = tmp / "out";
  write_file(log, gunzip_file(kData / "recorded" / "shape_change.log.gz"));
  pid_t pid =
      spawn_tlscope({log.string(), "-o", out.string(), "--no-browser", "--follow"}, tmp / "o",
                    tmp / "e");
  ASSERT_TRUE(appears(tmp / "e", "tlscope: recompile of"));
  ASSERT_TRUE(appears(out / "index.html", "data-generation="));
  ::kill(pid, SIGINT);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_report_of_whole_log(log, out, tmp.path());
}

// A TORCH_TRACE folder of one process: its log is waited for, then
// followed; the report is the one `tlscope DIR --latest` writes.
TEST(FollowReport, AFolderIsFollowedOnceItsLogAppears) {
  TempDir tmp;
  fs::path dir = tmp / "trace", out = tmp / "out";
  fs::create_directories(dir);
  std::string data = gunzip_file(kData / "recorded" / "mlp_training.log.gz");
  pid_t pid = spawn_tlscope(
      {dir.string(), "-o", out.string(), "--no-browser", "--follow", "--idle", "3"}, tmp / "o",
      tmp / "e");
  ASSERT_TRUE(appears(tmp / "e", "Waiting for a log in " + dir.string()));
  fs::path log = dir / "dedicated_log_torch_trace_abc.log";
  append_in_pieces(log, data, 3);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Following the newest file in " + dir.string() + ": " + log.string()),
            std::string::npos)
      << r.err;
  fs::path followed = tmp / "followed";
  fs::rename(out, followed);
  auto latest = run_tlscope({dir.string(), "-o", out.string(), "--no-browser", "--latest"}, tmp.path());
  ASSERT_EQ(latest.exit_code, 0) << latest.err;
  expect_same_tree(out, followed);
}

// A job's folder: rank 0 writes first, rank 1's log appears later; each is
// followed as it comes, the landing page is live while they write, and the
// report at the end is the one --all-ranks-html writes.
TEST(FollowReport, AJobIsFollowedRankByRankAndGivesTheAllRanksReport) {
  TempDir tmp;
  fs::path dir = tmp / "trace", out = tmp / "out";
  fs::create_directories(dir);
  std::vector<std::pair<fs::path, std::string>> ranks;
  for (const auto& e : fs::directory_iterator(kData / "recorded" / "two_ranks_aborted"))
    ranks.push_back({dir / e.path().stem(), gunzip_file(e.path())});
  std::sort(ranks.begin(), ranks.end());
  ASSERT_EQ(ranks.size(), 2u);
  pid_t pid = spawn_tlscope(
      {dir.string(), "-o", out.string(), "--no-browser", "--follow", "--idle", "2"}, tmp / "o",
      tmp / "e");
  std::atomic<bool> done{false};
  Looks looks;
  std::thread reader(watch, out, std::cref(done), &looks);
  append_in_pieces(ranks[0].first, ranks[0].second, 5);
  ASSERT_TRUE(appears(tmp / "e", "Following rank 0"));
  append_in_pieces(ranks[1].first, ranks[1].second, 6);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  done = true;
  reader.join();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(looks.broken.empty()) << looks.broken.front();
  EXPECT_GT(looks.live_indexes, 0u);
  EXPECT_NE(r.err.find("Following rank 1: " + ranks[1].first.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tlscope: rank 1: recompile of step [0/1]"), std::string::npos) << r.err;

  fs::path followed = tmp / "followed";
  fs::rename(out, followed);
  auto all = run_tlscope({dir.string(), "-o", out.string(), "--no-browser", "--all-ranks-html"},
                         tmp.path());
  ASSERT_EQ(all.exit_code, 0) << all.err;
  expect_same_tree(out, followed);
}

// --strict gives the followed run the exit status of a run on the
// finished log: a line that could not be used fails both.
TEST(FollowReport, StrictFailsAsARunOnTheFinishedLogDoes) {
  TempDir tmp;
  fs::path log = tmp / "bad.log";
  std::string data = gunzip_file(kData / "recorded" / "shape_change.log.gz");
  data += "V1203 05:00:00.000000 1 x.py:1] {\"no_such\n";
  write_file(log, data);
  auto followed = run_tlscope({log.string(), "-o", (tmp / "a").string(), "--no-browser",
                               "--strict", "--follow", "--idle", "0.5"},
                              tmp.path());
  auto whole =
      run_tlscope({log.string(), "-o", (tmp / "b").string(), "--no-browser", "--strict"}, tmp.path());
  EXPECT_EQ(whole.exit_code, 1) << whole.err;
  EXPECT_EQ(followed.exit_code, 1) << followed.err;
  EXPECT_NE(followed.err.find("--strict: 1 log line could not be used"), std::string::npos)
      << followed.err;
}

TEST(FollowReport, WhatCannotBeFollowedIsAnError) {
  TempDir tmp;
  auto run = [&](std::vector<std::string> args) {
    args.push_back("--no-browser");
    return run_tlscope(args, tmp.path());
  };
  std::string out = (tmp / "out").string();
  auto gz = run({(kData / "recorded" / "shape_change.log.gz").string(), "-o", out, "--follow"});
  EXPECT_EQ(gz.exit_code, 1);
  EXPECT_NE(gz.err.find("is compressed"), std::string::npos) << gz.err;

  fs::path text = tmp / "logs.txt";
  write_file(text, read_file(kData / "torch_logs" / "ranks.txt"));
  auto t = run({text.string(), "-o", out, "--follow"});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("is TORCH_LOGS text: follow it as the program prints it"),
            std::string::npos)
      << t.err;

  fs::path log = tmp / "x.log";
  write_file(log, "");
  for (auto args : std::vector<std::vector<std::string>>{
           {log.string(), "-o", out, "--idle", "1"},
           {log.string(), "-o", out, "--quiet"},
           {tmp.path().string(), "-o", out, "--follow", "--latest"},
           {tmp.path().string(), "-o", out, "--follow", "--all-ranks-html"}}) {
    auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << ": " << r.err;
  }
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace tlscope_test
