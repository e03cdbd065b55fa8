// The job-wide JSON files of a multi-rank report, written by the merge step
// from the rank summaries alone (and each rank folder's chromium_events.json).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/ranks.h"

namespace tlscope::jobs {

// chromium_events.json: every listed rank's events with pid = rank, in rank
// order, streamed from out_dir/rank_<N>/chromium_events.json (F59), `jobs`
// files parsed at once.
void write_combined_chromium(const std::vector<uint32_t>& ranks, const std::string& out_dir,
                             unsigned jobs);

// runtime_estimations.json, chromium_trace_with_runtime.json (F61-F62) and
// collective_schedules.json (F60), written one rank at a time so that the
// op lists of thousands of ranks are never in memory together.
class JobFiles {
 public:
  // `lean`: every rank with a report, in rank order, op lists dropped or
  // not; their graph names decide which files there are.
  JobFiles(const std::string& out_dir, const std::vector<analysis::RankSummary>& lean);
  ~JobFiles();
  // True when a file is to be written (a rank has runtimes or a schedule).
  bool wanted() const;
  // The same ranks with their op lists, one by one, in the same order.
  void add(const analysis::RankSummary& full);
  // Closes the files (the trace's metadata events last) and names them on stdout.
  void finish();

 private:
  struct Files;
  std::string out_dir_;
  std::map<uint32_t, std::vector<std::string>> graphs_by_rank_;
  std::unique_ptr<Files> files_;
};

}  // namespace tlscope::jobs
