// The reduce step of a multi-rank report (`tlscope merge`, and the end of
// --all-ranks-html): the landing page, the job-wide JSON files and every
// cross-rank analysis, from the ranks' rank_summary.json files alone.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "report/options.h"
#include "jobs/rank_files.h"

namespace tlscope::jobs {

using report::Options;

struct MergeResult {
  bool ok = false;                    // the landing page was written
  std::string error;                  // why not
  std::vector<std::string> problems;  // as listed on the landing page
  std::vector<std::string> notes;     // things in the folder that were ignored, and why
  uint64_t strict_failures = 0;       // lines --strict counts, over all ranks
  size_t failed = 0;                  // ranks without a report
};

// What the process that ran the map already knows (--all-ranks-html): the
// rank logs, and why a rank's folder could not be written.
struct MapOutcome {
  RankListing listing;
  std::map<uint32_t, std::string> errors;
};

// Reads out_dir/rank_<N>/rank_summary.json (and out_dir/rank_logs.json when
// there is one and `known` is null), `jobs` files at a time, and writes the
// job's files into out_dir. A rank whose folder or summary is missing or
// broken is a problem on the page, not an error.
// `landing_only`: only the landing page (a job followed while it runs:
// the ranks' files are not complete yet), without saying so on stdout.
MergeResult merge_ranks(const std::string& out_dir, const Options& opts, unsigned jobs,
                        const MapOutcome* known = nullptr, bool landing_only = false);

}  // namespace tlscope::jobs
