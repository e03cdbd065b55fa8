// Helpers of the multi-rank end-to-end tests (REPORT_FEATURES part H, part I
// items 19-41): corpus folders, `--all-ranks-html` runs whose output is shared
// by the tests of one binary, rank folders assembled from copies, and small
// HTML / JSON look-ups.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {

using nlohmann::json;

// Multi-rank folders of the corpus (tests that read them have "Corpus" in their name).
inline fs::path multi_rank_logs() { return corpus_inputs() / "multi_rank_logs"; }
inline fs::path messy_input() { return corpus_inputs() / "multi_rank_messy_input"; }
inline fs::path runtime_ranks() { return corpus_inputs() / "multi_rank_runtime"; }
inline fs::path schedule_ranks() { return corpus_inputs() / "multi_rank_schedule"; }
inline fs::path parity_ranks() { return corpus_inputs() / "collectives_parity"; }
inline fs::path exec_order_ranks() { return corpus_dir() / "graph_exec_order_tests"; }
inline const fs::path kTwoRanksAborted = kData / "recorded" / "two_ranks_aborted";

inline std::string rank_log_name(uint32_t rank, const std::string& suffix = "") {
  return "dedicated_log_torch_trace_rank_" + std::to_string(rank) + suffix + ".log";
}

inline bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

inline size_t count_of(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

// Runs `tlscope DIR --all-ranks-html -o OUT --overwrite --no-browser [extra]`.
inline RunResult run_all_ranks(const fs::path& dir, const fs::path& out, const fs::path& scratch,
                               const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {dir.string(), "--all-ranks-html", "-o",
                                   out.string(), "--overwrite",      "--no-browser"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_tlscope(args, scratch);
}

// One `--all-ranks-html` run, kept for all tests of the binary that read it.
struct MultiRankRun {
  std::unique_ptr<TempDir> tmp = std::make_unique<TempDir>();
  fs::path out;
  RunResult result;
  std::string landing;  // out/index.html ("" when missing)

  json load(const std::string& rel) const { return json::parse(read_file(out / rel)); }
  std::string text(const std::string& rel) const { return read_file(out / rel); }
};

// The run of `dir` (cached by folder path): the corpus folders are read-only and
// their reports are big, so each is made once per test binary.
inline const MultiRankRun& multirank_run(const fs::path& dir) {
  static std::map<std::string, std::unique_ptr<MultiRankRun>> cache;
  auto& slot = cache[dir.string()];
  if (!slot) {
    slot = std::make_unique<MultiRankRun>();
    slot->out = *slot->tmp / "out";
    slot->result = run_all_ranks(dir, slot->out, slot->tmp->path());
    if (fs::exists(slot->out / "index.html")) slot->landing = read_file(slot->out / "index.html");
  }
  return *slot;
}

// Copies `src` to `dir/name` (creating `dir`), for rank folders made of
// corpus files; the corpus itself is never written.
inline fs::path copy_as(const fs::path& src, const fs::path& dir, const std::string& name) {
  fs::create_directories(dir);
  fs::path dst = dir / name;
  fs::copy_file(src, dst, fs::copy_options::overwrite_existing);
  fs::permissions(dst, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::add);
  return dst;
}

// `n` bytes from a fixed-seed generator: a "corrupt" log that is the same on
// every run. No newline-free guarantee; it is simply not a trace.
inline std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

// The rank numbers of `<a href="rank_<r>/index.html">` links, in page order.
inline std::vector<uint32_t> rank_links(const std::string& html) {
  std::vector<uint32_t> out;
  static const std::regex re(R"re(<li><a href="rank_(\d+)/index\.html">Rank (\d+)</a></li>)re");
  for (std::sregex_iterator it(html.begin(), html.end(), re), end; it != end; ++it) {
    EXPECT_EQ((*it)[1], (*it)[2]);
    out.push_back(static_cast<uint32_t>(std::stoul((*it)[1])));
  }
  return out;
}

// The `<li>Ranks: ...</li>` texts of the page, in order.
inline std::vector<std::string> rank_groups(const std::string& html) {
  std::vector<std::string> out;
  static const std::regex re(R"(<li>Ranks: ([0-9, ]+)</li>)");
  for (std::sregex_iterator it(html.begin(), html.end(), re), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

// The part of `html` from `start` up to the next `end` (or the end).
inline std::string section(const std::string& html, const std::string& start,
                           const std::string& end) {
  size_t a = html.find(start);
  if (a == std::string::npos) return "";
  size_t b = html.find(end, a + start.size());
  return html.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

// Events of a chromium JSON array counted by pid.
inline std::map<int64_t, size_t> events_by_pid(const json& events) {
  std::map<int64_t, size_t> m;
  for (const auto& e : events)
    if (e.is_object() && e.contains("pid")) ++m[e["pid"].get<int64_t>()];
  return m;
}

}  // namespace tlscope_test
