// `tlscope summary LOG|- --follow` (issue 29). A writer feeds each TORCH_LOGS
// fixture to standard input, or appends each recorded trace to a log, in
// random pieces with pauses, cutting lines in the middle. Text must come out
// unchanged; each recompile, failure, limit hit and graph break be said as
// it happens; and the summary at the end be the one of the whole input.
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "follow_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

using nlohmann::json;

// With `probe`: once its first `bytes` are written, waits (up to 20 s) for
// standard error to hold `text`, and says whether it did before the input ended.
struct Probe {
  size_t bytes = 0;
  std::string text;
  bool seen = false;
};

// Runs `tlscope args...` with `input` written to its standard input in
// pieces of 1 to 200 bytes, a pause of up to 3 ms after some of them.
RunResult run_fed(const std::vector<std::string>& args, const std::string& input,
                  const fs::path& scratch, unsigned seed, Probe* probe = nullptr) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe");
  std::vector<std::string> argv_s = {kBin};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  fs::path out = scratch / "follow.out", err = scratch / "follow.err";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipe_fds[0], 0);
  posix_spawn_file_actions_addclose(&fa, pipe_fds[1]);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, kBin.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(pipe_fds[0]);
  if (rc != 0) throw std::runtime_error("cannot start " + kBin);
  std::mt19937 rng(seed);
  for (size_t at = 0; at < input.size();) {
    if (probe && at == probe->bytes) probe->seen = appears(err, probe->text);
    size_t n = std::min<size_t>(input.size() - at, 1 + rng() % 200);
    if (probe && at < probe->bytes) n = std::min(n, probe->bytes - at);
    if (::write(pipe_fds[1], input.data() + at, n) != static_cast<ssize_t>(n))
      throw std::runtime_error("write");
    at += n;
    if (rng() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
  }
  ::close(pipe_fds[1]);
  return wait_for(pid, out, err);
}

size_t count_lines(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (const auto& l : split_lines(text))
    if (l.rfind("tlscope: ", 0) == 0 && l.find(part) != std::string::npos) ++n;
  return n;
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(kData / "torch_logs")) v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

TEST(FollowText, OutputPassesThroughAndEventsAndSummaryMatchTheWholeText) {
  TempDir tmp;
  ASSERT_GE(fixtures().size(), 5u);
  unsigned seed = 1;
  for (const auto& f : fixtures()) {
    SCOPED_TRACE(f.string());
    std::string text = read_file(f);
    auto r = run_fed({"summary", "-", "--follow"}, text, tmp.path(), seed++);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, text);  // byte for byte, \r and all

    // The summary at the end: that of the whole text read at once.
    auto whole = run_fed({"summary", "-"}, text, tmp.path(), 99);
    ASSERT_EQ(whole.exit_code, 0);
    ASSERT_FALSE(whole.out.empty());
    ASSERT_GE(r.err.size(), whole.out.size());
    EXPECT_EQ(r.err.substr(r.err.size() - whole.out.size()), whole.out);

    // One line per recompile and per graph break the doctor counts; a line
    // per limit hit (a frame may hit it on several ranks or limits).
    json j = json::parse(run_fed({"summary", "-", "--json"}, text, tmp.path(), 7).out);
    std::vector<json> sums;
    if (j.contains("ranks"))
      for (const auto& rank : j["ranks"]) sums.push_back(rank["summary"]);
    else
      sums.push_back(j);
    size_t recompiles = 0, breaks = 0, hits = 0;
    for (const auto& s : sums) {
      recompiles += s["totals"]["recompiles"].get<size_t>();
      breaks += s["graph_breaks"].size();
      hits += s["totals"]["recompile_limit_hits"].get<size_t>();
    }
    EXPECT_EQ(count_lines(r.err, "recompile of "), recompiles);
    EXPECT_EQ(count_lines(r.err, "graph break in "), breaks);
    EXPECT_GE(count_lines(r.err, "runs eagerly from now on"), hits);
    if (hits > 0) {
      EXPECT_GT(count_lines(r.err, "runs eagerly from now on"), 0u);
    }
  }
}

// The events say what the text says: the frame, the guard without its
// cache entry, its class; near the limit, how near.
TEST(FollowText, EventLinesNameFrameGuardAndClass) {
  TempDir tmp;
  std::string text = read_file(kData / "torch_logs" / "glog_2024.txt");
  auto r = run_fed({"summary", "-", "--follow"}, text, tmp.path(), 3);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(r.err);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0],
            "tlscope: recompile of forward (/home/ann/proj/model.py:12) [0/1]: tensor 'L['x']' size "
            "mismatch at index 0. expected 8, actual 9 (shape)");
  EXPECT_NE(r.err.find("tlscope: forward (/home/ann/proj/model.py:12) hit recompile_limit (8): it "
                       "runs eagerly from now on"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tlscope: graph break in step (/home/ann/proj/model.py:20): Unsupported: "
                       "builtin: print"),
            std::string::npos)
      << r.err;
}

// When standard output goes away (`| head`), tlscope reads on and ends with
// the summary: it must not die of SIGPIPE and take the program's pipe down.
TEST(FollowText, AClosedStandardOutputDoesNotEndIt) {
  TempDir tmp;
  std::string text = read_file(kData / "torch_logs" / "glog_2024.txt");
  std::string big;
  for (int i = 0; i < 300; ++i) big += text;  // more than a pipe holds
  write_file(tmp / "in.txt", big);
  std::string cmd = "bash -c 'cat \"" + (tmp / "in.txt").string() + "\" | \"" + kBin +
                    "\" summary - --follow --quiet 2>\"" + (tmp / "err").string() +
                    "\" | head -c 10 >/dev/null; echo ${PIPESTATUS[1]} >\"" +
                    (tmp / "rc").string() + "\"'";
  ASSERT_EQ(run_shell(cmd), 0);
  EXPECT_EQ(read_file(tmp / "rc"), "0\n");
  // The summary of all of it: every line was read after stdout closed.
  EXPECT_EQ(read_file(tmp / "err"), run_fed({"summary", "-"}, big, tmp.path(), 2).out);
  EXPECT_NE(read_file(tmp / "err").find("600 graph breaks"), std::string::npos);
}

// An event is said while the program still runs: once the line that starts
// the next record has come (a record ends where the next begins), before the
// input ends.
TEST(FollowText, AnEventIsSaidBeforeTheInputEnds) {
  TempDir tmp;
  std::string text = read_file(kData / "torch_logs" / "glog_2024.txt");
  size_t first = text.find("Recompiling function");
  ASSERT_NE(first, std::string::npos);
  size_t next = text.find("Recompiling function", first + 1);
  ASSERT_NE(next, std::string::npos);
  Probe probe{text.find('\n', next) + 1, "tlscope: recompile of forward"};
  auto r = run_fed({"summary", "-", "--follow"}, text, tmp.path(), 4, &probe);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(probe.seen) << r.err;
  EXPECT_EQ(r.out, text);
}

// Control bytes of the log (an escape sequence in a function name or a
// guard) reach the event lines as '?'.
TEST(FollowText, EventLinesCarryNoControlBytesOfTheLog) {
  TempDir tmp;
  std::string text =
      "V0102 03:04:05.678000 4242 torch/_dynamo/guards.py:3001] [0/1] [__recompiles] Recompiling "
      "function f\x1b[31m in /a.py:1\n    triggered by the following guard failure(s):\n"
      "    - 0/0: L['x'] == 1\x1b]0;pwn\x07\n"
      "V0102 03:04:06.000000 4242 torch/_dynamo/guards.py:3001] done\n";
  auto r = run_fed({"summary", "-", "--follow"}, text, tmp.path(), 8);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, text);
  size_t events = 0;
  for (const auto& l : split_lines(r.err)) {
    if (l.rfind("tlscope: ", 0) != 0) continue;
    ++events;
    for (char c : l) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << l;
  }
  EXPECT_EQ(events, 1u);
  EXPECT_NE(r.err.find("tlscope: recompile of f?[31m (/a.py:1) [0/1]: L['x'] == 1?]0;pwn? (constant)"),
            std::string::npos)
      << r.err;
}

TEST(FollowText, QuietSaysOnlyTheSummary) {
  TempDir tmp;
  std::string text = read_file(kData / "torch_logs" / "ranks.txt");
  auto r = run_fed({"summary", "-", "--follow", "--quiet"}, text, tmp.path(), 5);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, text);
  EXPECT_EQ(count_lines(r.err, ""), 0u) << r.err;
  EXPECT_EQ(r.err, run_fed({"summary", "-"}, text, tmp.path(), 6).out);
}

TEST(FollowText, QuietNeedsFollow) {
  TempDir tmp;
  auto quiet = run_tlscope({"summary", (kData / "torch_logs" / "ranks.txt").string(), "--quiet"},
                           tmp.path());
  EXPECT_EQ(quiet.exit_code, 2);
  EXPECT_NE(quiet.err.find("--quiet and --idle go with --follow"), std::string::npos) << quiet.err;
}

// Every recorded trace written while followed: the summary equals that of
// the finished log; a line per recompile, failure and graph break the
// doctor counts.
TEST(FollowTrace, ALogWrittenWhileFollowedGivesTheSummaryOfTheWholeLog) {
  TempDir tmp;
  ASSERT_GE(recorded_logs().size(), 9u);
  unsigned seed = 1;
  for (const auto& rec : recorded_logs()) {
    SCOPED_TRACE(rec.string());
    fs::path log = tmp / (rec.stem().string());  // x.log
    write_file(log, "");
    // Unpacked before the follower starts: its --idle counts from there.
    std::string data = gunzip_file(rec);
    pid_t pid = spawn_tlscope({"summary", log.string(), "--follow", "--idle", "2"}, tmp / "o",
                              tmp / "e");
    append_in_pieces(log, data, seed++);
    auto r = wait_for(pid, tmp / "o", tmp / "e");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto whole = run_tlscope({"summary", log.string()}, tmp.path());
    ASSERT_EQ(whole.exit_code, 0);
    EXPECT_EQ(r.out, whole.out);

    json j = json::parse(run_tlscope({"summary", log.string(), "--json"}, tmp.path()).out);
    const auto& t = j["totals"];
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: (recompile|failure.*\\(recompile [0-9]+\\))")),
              t["recompiles"].get<size_t>())
        << r.err;
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: failure")), t["failures"].get<size_t>());
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: graph break")),
              j["graph_breaks"].size());
  }
}

// The lines say the frame, the compile id, the reason and its class.
TEST(FollowTrace, EventLinesNameTheCompileTheReasonAndTheClass) {
  TempDir tmp;
  fs::path log = tmp / "limit.log";
  write_file(log, gunzip_file(kData / "recorded" / "recompile_limit.log.gz"));
  auto r = run_tlscope({"summary", log.string(), "--follow", "--idle", "0.2"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("tlscope: recompile of f [0/1]: tensor 'x' size mismatch at index 0. "
                       "expected 2, actual 3 (shape)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tlscope: failure [0/4] (recompile 4): Unsupported: Dynamo recompile limit "
                       "exceeded"),
            std::string::npos)
      << r.err;
}

// Ctrl+C ends the following: exit 0, the summary of what was read.
TEST(FollowTrace, InterruptEndsWithTheSummary) {
  TempDir tmp;
  fs::path log = tmp / "shape.log";
  write_file(log, gunzip_file(kData / "recorded" / "shape_change.log.gz"));
  pid_t pid = spawn_tlscope({"summary", log.string(), "--follow"}, tmp / "o", tmp / "e");
  ASSERT_TRUE(appears(tmp / "e", "tlscope: recompile of"));
  ::kill(pid, SIGINT);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, run_tlscope({"summary", log.string()}, tmp.path()).out);
}

// A partly written last line is waited for, not reported as a bad line.
TEST(FollowTrace, APartLineIsWaitedFor) {
  TempDir tmp;
  std::string data = gunzip_file(kData / "recorded" / "float_constant.log.gz");
  fs::path log = tmp / "float.log";
  size_t cut = data.find('\n', data.size() / 2) - 10;  // inside a line
  write_file(log, data.substr(0, cut));
  pid_t pid = spawn_tlscope({"summary", log.string(), "--follow", "--idle", "2"}, tmp / "o",
                            tmp / "e");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  append_in_pieces(log, data.substr(cut), 9);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, run_tlscope({"summary", log.string()}, tmp.path()).out);
  EXPECT_EQ(r.err.find("Warning"), std::string::npos) << r.err;
}

// `j` without its "command_line" keys (a followed run's has --follow).
json without_command_lines(json j) {
  if (j.is_object()) {
    j.erase("command_line");
    for (auto& [k, v] : j.items()) v = without_command_lines(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = without_command_lines(v);
  }
  return j;
}

// A job's folder: rank 1's log comes after rank 0's is written; both are
// followed, their events named by rank, and the summary at the end is the
// one of the folder (text and JSON).
TEST(FollowTrace, AJobFolderIsFollowedRankByRank) {
  TempDir tmp;
  fs::path dir = tmp / "trace";
  fs::create_directories(dir);
  std::vector<fs::path> gz;
  for (const auto& e : fs::directory_iterator(kData / "recorded" / "two_ranks_aborted"))
    gz.push_back(e.path());
  std::sort(gz.begin(), gz.end());
  ASSERT_EQ(gz.size(), 2u);
  // Unpacked before the follower starts: its --idle must not see the pause
  // of unpacking rank 1 between the two (a loaded machine made it 2 s once).
  std::vector<std::string> logs;
  for (const auto& f : gz) logs.push_back(gunzip_file(f));
  for (bool json : {false, true}) {
    SCOPED_TRACE(json ? "--json" : "text");
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<std::string> args = {"summary", dir.string(), "--follow", "--idle", "2"};
    if (json) args.push_back("--json");
    pid_t pid = spawn_tlscope(args, tmp / "o", tmp / "e");
    for (size_t i = 0; i < gz.size(); ++i)
      append_in_pieces(dir / gz[i].stem(), logs[i], 20 + static_cast<unsigned>(i));
    auto r = wait_for(pid, tmp / "o", tmp / "e");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> whole_args = {"summary", dir.string()};
    if (json) whole_args.push_back("--json");
    auto whole = run_tlscope(whole_args, tmp.path());
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    if (json)
      EXPECT_EQ(without_command_lines(json::parse(r.out)), without_command_lines(json::parse(whole.out)));
    else
      EXPECT_EQ(r.out, whole.out);
    EXPECT_NE(r.err.find("Following rank 1: " + (dir / gz[1].stem()).string()), std::string::npos)
        << r.err;
    EXPECT_EQ(count_matching(r.err, std::regex("^tlscope: rank 1: recompile of step \\[0/1\\]")), 1u)
        << r.err;
  }
}

// Runs `tlscope args...` with its standard error on a terminal (a
// pseudo-terminal): its exit status, and what it wrote there.
std::pair<int, std::string> run_on_terminal(const std::vector<std::string>& args,
                                            const fs::path& scratch) {
  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
    throw std::runtime_error("no pseudo-terminal");
  std::string slave = ::ptsname(master);
  int held = ::open(slave.c_str(), O_RDWR | O_NOCTTY);  // reads never fail for want of one
  pid_t pid = spawn_tlscope(args, scratch / "o", slave);
  std::string text;
  int status = 0;
  for (bool exited = false;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buf[4096];
      ssize_t n = ::read(master, buf, sizeof buf);
      if (n > 0) text.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (exited) break;  // and nothing more to read
    exited = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  ::close(held);
  ::close(master);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), text};
}

// On a terminal a status line keeps the totals so far, rewritten in place
// ("\r" and erase to the end of the line), and is cleared at the end; the
// same for the report followed.
TEST(FollowTrace, TheStatusLineOnATerminalShowsTheTotals) {
  TempDir tmp;
  fs::path log = tmp / "limit.log";
  write_file(log, gunzip_file(kData / "recorded" / "recompile_limit.log.gz"));
  json j = json::parse(run_tlscope({"summary", log.string(), "--json"}, tmp.path()).out);
  const auto& t = j["totals"];
  auto n = [&](const char* key) { return t[key].get<size_t>(); };
  char line[200];
  std::snprintf(line, sizeof line,
                "\r\033[Ktlscope: following: %zu compiles, %zu recompiles, %zu graph breaks, "
                "%zu failure, %.1f s compiling",
                n("compiles"), n("recompiles"), n("graph_breaks"), n("failures"),
                t["compile_time_s"].get<double>());
  std::string totals = line;
  ASSERT_EQ(n("failures"), 1u);
  for (auto args : std::vector<std::vector<std::string>>{
           {"summary", log.string(), "--follow", "--idle", "1"},
           {log.string(), "-o", (tmp / "out").string(), "--follow", "--idle", "1"}}) {
    SCOPED_TRACE(args[1]);
    auto [rc, term] = run_on_terminal(args, tmp.path());
    EXPECT_EQ(rc, 0) << term;
    EXPECT_NE(term.find(totals), std::string::npos) << term;
    size_t last = term.rfind(totals);
    EXPECT_NE(term.find("\r\033[K", last + totals.size()), std::string::npos)
        << "the status line is cleared at the end";
    EXPECT_NE(term.find("tlscope: recompile of f [0/1]"), std::string::npos);
  }
}

// A one-process TORCH_TRACE folder (no rank in the log's name): its newest
// file is followed once it appears.
TEST(FollowTrace, AOneProcessFolderFollowsItsLog) {
  TempDir tmp;
  fs::path dir = tmp / "trace";
  fs::create_directories(dir);
  fs::path log = dir / "dedicated_log_torch_trace_abc.log";
  std::string data = gunzip_file(kData / "recorded" / "shape_change.log.gz");
  pid_t pid = spawn_tlscope({"summary", dir.string(), "--follow", "--idle", "2"}, tmp / "o",
                            tmp / "e");
  ASSERT_TRUE(appears(tmp / "e", "Waiting for a log in " + dir.string()));
  append_in_pieces(log, data, 31);
  auto r = wait_for(pid, tmp / "o", tmp / "e");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Following the newest file in " + dir.string() + ": " + log.string()),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, run_tlscope({"summary", log.string()}, tmp.path()).out);
}

TEST(FollowTrace, WhatCannotBeFollowedIsAnError) {
  TempDir tmp;
  auto gz = run_tlscope({"summary", (kData / "recorded" / "shape_change.log.gz").string(),
                         "--follow"},
                        tmp.path());
  EXPECT_EQ(gz.exit_code, 1);
  EXPECT_NE(gz.err.find("is compressed: --follow reads a log as it is written"), std::string::npos)
      << gz.err;
  fs::create_directories(tmp / "empty");
  auto none = run_tlscope({"summary", (tmp / "empty").string(), "--follow", "--idle", "0.3"},
                          tmp.path());
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("No log appeared in " + (tmp / "empty").string()), std::string::npos)
      << none.err;
  auto idle = run_tlscope({"summary", "-", "--follow", "--idle", "1"}, tmp.path());
  EXPECT_EQ(idle.exit_code, 2);
}

}  // namespace
}  // namespace tlscope_test
