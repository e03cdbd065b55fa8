// --all-ranks-html: one report per rank, made in parallel, and the landing
// page with the cross-rank analyses (REPORT_FEATURES part H).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "report/options.h"

namespace tlscope::report {

struct RankLog {
  uint32_t rank = 0;
  std::string path;
};

// Rank logs in `dir` (dedicated_log_torch_trace_rank_<N>[_*].log, also .gz
// and .zst), sorted by rank. Other files are listed in `ignored`.
bool discover_rank_logs(const std::string& dir, std::vector<RankLog>* logs,
                        std::vector<std::string>* ignored, std::string* error);

struct MultiRankResult {
  bool ok = false;
  std::string error;
  std::vector<std::string> problems;  // per-rank problems named on the landing page
  uint64_t strict_failures = 0;
};

struct RankDiagnosis {
  RankLog log;
  std::string error;
  analysis::DoctorReport doctor;
  analysis::RankSummary summary;
};

// Reads every rank log (in parallel, nothing written) for `summary DIR` and
// `check DIR`.
std::vector<RankDiagnosis> diagnose_ranks(const std::vector<RankLog>& logs, const Options& opts,
                                          unsigned jobs);

// Writes `out_dir` (already prepared). `jobs`: ranks parsed at once.
MultiRankResult build_multirank_report(const std::vector<RankLog>& logs, const std::string& out_dir,
                                       const Options& opts, unsigned jobs);

}  // namespace tlscope::report
