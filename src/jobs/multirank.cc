#include "analysis/text.h"
#include "jobs/multirank.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include <fmt/format.h>

#include "base/parallel.h"
#include "jobs/rank_files.h"
#include "jobs/rank_merge.h"

namespace tlscope::jobs {
namespace fs = std::filesystem;

std::vector<RankMapResult> map_ranks(const std::vector<RankLog>& logs, const std::string& out_dir,
                                     const Options& opts, unsigned jobs) {
  std::vector<RankMapResult> results(logs.size());
  std::atomic<size_t> done{0};
  std::mutex print_mu;
  bool tty = ::isatty(STDERR_FILENO) != 0;
  auto rank_dir = [&](const RankLog& log) {
    return (fs::path(out_dir) / rank_folder_name(log.rank)).string();
  };
  // In rank order, before the ranks run in parallel; their own messages
  // (bad lines and the like) name the rank.
  for (const auto& log : logs)
    std::printf("Processing rank %u \u2192 %s\n", log.rank, rank_dir(log).c_str());
  std::fflush(stdout);
  base::in_parallel(0, logs.size(), jobs, [&](size_t i) {
    Options rank_opts = opts;
    rank_opts.message_prefix = fmt::format("rank {}: ", logs[i].rank);
    results[i] = map_rank(logs[i], rank_dir(logs[i]), rank_opts);
    size_t finished = ++done;
    if (tty) {
      std::lock_guard<std::mutex> lock(print_mu);
      std::fprintf(stderr, "\r%zu/%zu ranks done ", finished, logs.size());
      if (finished == logs.size()) std::fputc('\n', stderr);
    }
  });
  return results;
}

MultiRankResult build_multirank_report(const std::string& source_dir,
                                       const std::vector<RankLog>& logs, const std::string& out_dir,
                                       const Options& opts, unsigned jobs) {
  MultiRankResult result;
  MapOutcome known{{source_dir, logs}, {}};
  std::string error;
  // Not fatal: the merge below is told the listing.
  if (!write_rank_listing(out_dir, known.listing, &error)) result.notes.push_back(error);
  auto mapped = map_ranks(logs, out_dir, opts, jobs);
  for (size_t i = 0; i < logs.size(); ++i)
    if (!mapped[i].ok) known.errors[logs[i].rank] = mapped[i].error;
  add_merge(merge_ranks(out_dir, opts, jobs, &known), out_dir, &result);
  return result;
}

void add_merge(MergeResult&& merged, const std::string& out_dir, MultiRankResult* result) {
  result->problems = std::move(merged.problems);
  result->notes.insert(result->notes.end(), merged.notes.begin(), merged.notes.end());
  result->strict_failures = merged.strict_failures;
  if (!merged.ok) {
    result->error = merged.error;
    return;
  }
  // The landing page is written either way; a rank without a report fails the run.
  result->ok = merged.failed == 0;
  if (!result->ok)
    result->error =
        fmt::format("{} {} no report; see {}/index.html",
                    analysis::count_of(merged.failed, "rank", "ranks"),
                    merged.failed == 1 ? "has" : "have", out_dir);
}

}  // namespace tlscope::jobs
