#include "jobs/rank_merge.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "analysis/rank_summary_json.h"
#include "analysis/ranks.h"
#include "io/read_file.h"
#include "jobs/job_files.h"
#include "report/landing_page.h"
#include "base/parallel.h"
#include "jobs/rank_files.h"

namespace tlscope::jobs {
namespace fs = std::filesystem;

namespace {

struct Found {
  std::map<uint32_t, std::string> folders;  // rank -> folder name
  std::vector<std::string> notes;
};

Found scan(const std::string& out_dir) {
  Found f;
  std::error_code ec;
  for (fs::directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code e2;
    if (name.rfind('.', 0) == 0 && name.find(".partial-") != std::string::npos) {
      f.notes.push_back(fmt::format("Ignoring {}: the folder of a rank task that did not finish",
                                    it->path().string()));
      continue;
    }
    auto r = rank_of_folder_name(name);
    if (r && it->is_directory(e2)) f.folders.emplace(*r, name);
  }
  return f;
}

// The summary of `rank`, or one that says why there is none.
analysis::RankSummary load(const std::string& out_dir, uint32_t rank, const std::string& log) {
  std::string rel = rank_folder_name(rank) + "/" + kRankSummaryFile;
  std::string why, text;
  std::error_code ec;
  if (!fs::exists(fs::path(out_dir) / rel, ec))
    why = "is missing: the rank's `tlscope rank` task did not finish";
  else if (!io::read_file((fs::path(out_dir) / rel).string(), &text, &why))
    why = "cannot be read: " + why;
  std::optional<analysis::RankSummary> s;
  if (why.empty()) {
    s = analysis::parse_rank_summary(text, &why);
    if (s && s->rank != rank) {
      why = fmt::format("is the summary of rank {}", s->rank);
      s.reset();
    }
  }
  if (s) return *std::move(s);
  analysis::RankSummary bad;
  bad.rank = rank;
  bad.log = log;
  bad.error = fmt::format("{} {}", rel, why);
  bad.problem = fmt::format("rank {}: no report ({})", rank, bad.error);
  return bad;
}

// Gaps in the rank numbers, as ranges ("2, 5-7"); "" when none.
std::string gaps(const std::vector<io::RankLog>& logs) {
  std::string missing;
  uint64_t expect = 0;
  for (const auto& l : logs) {
    if (l.rank > expect) {
      missing += missing.empty() ? "" : ", ";
      missing +=
          l.rank - 1 > expect ? fmt::format("{}-{}", expect, l.rank - 1) : std::to_string(expect);
    }
    expect = uint64_t{l.rank} + 1;
  }
  return missing;
}

// The job-wide files of op lists: the summaries read again, a few at a time
// and in rank order, so that only those few hold their lists.
void write_job_files(const std::string& out_dir, const std::vector<analysis::RankSummary>& lean,
                     unsigned jobs) {
  JobFiles files(out_dir, lean);
  if (!files.wanted()) return;
  size_t batch = std::max<size_t>(1, jobs) * 4;
  std::vector<analysis::RankSummary> full(batch);
  for (size_t start = 0; start < lean.size(); start += batch) {
    size_t end = std::min(lean.size(), start + batch);
    base::in_parallel(start, end, jobs,
                [&](size_t i) { full[i - start] = load(out_dir, lean[i].rank, lean[i].log); });
    for (size_t i = start; i < end; ++i) {
      // Changed since the first read (a task still writing): its lists are left out.
      if (full[i - start].error.empty()) files.add(full[i - start]);
      full[i - start] = {};
    }
  }
  files.finish();
}

// Every rank's summary, its op lists dropped once read: what the analyses
// need. A rank this process's map could not write says why, not that it is
// missing.
std::vector<analysis::RankSummary> load_all(const std::string& out_dir,
                                            const std::vector<io::RankLog>& logs, unsigned jobs,
                                            const MapOutcome* known) {
  std::vector<analysis::RankSummary> summaries(logs.size());
  base::in_parallel(0, logs.size(), jobs, [&](size_t i) {
    summaries[i] = load(out_dir, logs[i].rank, logs[i].path);
    analysis::drop_ops(&summaries[i]);
    if (!known || !summaries[i].error.empty()) return;
    if (auto e = known->errors.find(logs[i].rank); e != known->errors.end()) {
      summaries[i].error = e->second;
      summaries[i].problem = fmt::format("rank {}: no report ({})", logs[i].rank, e->second);
    }
  });
  return summaries;
}

// The problems the landing page names: ranks with no folder or log, and each
// rank's own; the counts of failed ranks and strict failures.
void note_problems(const std::vector<io::RankLog>& logs,
                   const std::vector<analysis::RankSummary>& summaries, bool listed,
                   MergeResult* result) {
  if (std::string missing = gaps(logs); !missing.empty()) {
    // "rank 3" or "ranks 3, 5-7"
    std::string which = (missing.find_first_of(",-") == std::string::npos ? "rank " : "ranks ") +
                        missing;
    result->problems.push_back(listed ? "no log in the folder for " + which
                                      : "no rank_<N> folder for " + which);
  }
  for (const auto& s : summaries) {
    if (!s.problem.empty()) result->problems.push_back(s.problem);
    result->strict_failures += s.strict_failures;
    if (!s.error.empty()) ++result->failed;
  }
}

}  // namespace

MergeResult merge_ranks(const std::string& out_dir, const Options& opts, unsigned jobs,
                        const MapOutcome* known, bool landing_only) {
  MergeResult result;
  Found found = scan(out_dir);
  result.notes = std::move(found.notes);
  std::optional<RankListing> listing;
  if (known) {
    listing = known->listing;
  } else {
    std::string listing_error;
    listing = read_rank_listing(out_dir, &listing_error);
    if (!listing_error.empty()) result.notes.push_back(listing_error);
  }

  std::map<uint32_t, std::string> ranks;  // rank -> its log, where the listing names it
  if (listing)
    for (const auto& l : listing->logs) ranks[l.rank] = l.path;
  for (const auto& [r, name] : found.folders) ranks.try_emplace(r, "");
  if (ranks.empty()) {
    result.error = fmt::format(
        "{} holds no rank_<N> folder: run `tlscope rank` for each rank log first (docs/cluster.md)",
        out_dir);
    return result;
  }

  std::vector<io::RankLog> logs;
  for (const auto& [r, log] : ranks) logs.push_back({r, log});
  // Every summary, its op lists dropped once read: what the analyses need.
  std::vector<analysis::RankSummary> summaries = load_all(out_dir, logs, jobs, known);
  for (size_t i = 0; i < logs.size(); ++i)
    if (logs[i].path.empty()) logs[i].path = summaries[i].log;

  note_problems(logs, summaries, listing.has_value(), &result);
  auto analysis = analysis::analyze_ranks(summaries);
  std::vector<analysis::RankSummary> good;
  for (auto& s : summaries)
    if (s.error.empty()) good.push_back(std::move(s));
  summaries.clear();
  if (!landing_only) {
    write_job_files(out_dir, good, jobs);
    write_combined_chromium(analysis.ranks, out_dir, jobs);
    std::printf("Multi-rank report generated under %s\nIndividual pages: rank_*/index.html\n",
                out_dir.c_str());
  }
  write_landing_page(out_dir, logs, good, analysis, result.problems, opts);
  result.ok = true;
  return result;
}

}  // namespace tlscope::jobs
