// --all-ranks-html: the map step over every rank log of a folder, in
// parallel, then the merge (REPORT_FEATURES part H). The same steps as
// `tlscope rank` and `tlscope merge`, in one process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/rank_logs.h"
#include "report/options.h"
#include "jobs/rank_map.h"
#include "jobs/rank_merge.h"

namespace tlscope::jobs {

using io::RankLog;
using report::Options;

struct MultiRankResult {
  bool ok = false;
  std::string error;
  std::vector<std::string> problems;  // per-rank problems named on the landing page
  std::vector<std::string> notes;     // what the merge ignored in the folder
  uint64_t strict_failures = 0;
};

// Writes out_dir/rank_<N> for each of `logs`, `jobs` at a time, printing
// "Processing rank N → ..." for each first, in rank order; their messages
// start with "rank N: ". out_dir exists.
std::vector<RankMapResult> map_ranks(const std::vector<RankLog>& logs, const std::string& out_dir,
                                     const Options& opts, unsigned jobs);

// The whole multi-rank report of the rank logs found in `source_dir` into
// `out_dir` (already prepared): rank_logs.json, map_ranks, merge_ranks.
// The merge's outcome into `result` (ok only when every rank has a report).
void add_merge(MergeResult&& merged, const std::string& out_dir, MultiRankResult* result);

MultiRankResult build_multirank_report(const std::string& source_dir,
                                       const std::vector<RankLog>& logs, const std::string& out_dir,
                                       const Options& opts, unsigned jobs);

}  // namespace tlscope::jobs
