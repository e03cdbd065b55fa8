// --all-ranks-html: one report per rank, made in parallel, and the landing
// page with the cross-rank analyses (REPORT_FEATURES part H).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "io/rank_logs.h"
#include "report/options.h"

namespace tlscope::report {

using io::RankLog;

struct MultiRankResult {
  bool ok = false;
  std::string error;
  std::vector<std::string> problems;  // per-rank problems named on the landing page
  uint64_t strict_failures = 0;
};

// Writes `out_dir` (already prepared). `jobs`: ranks parsed at once.
MultiRankResult build_multirank_report(const std::vector<RankLog>& logs, const std::string& out_dir,
                                       const Options& opts, unsigned jobs);

}  // namespace tlscope::report
