// The job-wide JSON files of a multi-rank report, written by the merge step
// from the rank summaries alone (and each rank folder's chromium_events.json).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/ranks.h"

namespace tlscope::report {

// chromium_events.json: every listed rank's events with pid = rank, in rank
// order, streamed from out_dir/rank_<N>/chromium_events.json (F59).
void write_combined_chromium(const std::vector<uint32_t>& ranks, const std::string& out_dir);

// runtime_estimations.json and chromium_trace_with_runtime.json, when a rank
// has runtime estimates (F61-F62). `ranks` in rank order.
void write_runtime_files(const std::vector<analysis::RankSummary>& ranks,
                         const std::string& out_dir);

// collective_schedules.json, when a rank has a collective schedule (F60).
void write_schedules(const std::vector<analysis::RankSummary>& ranks, const std::string& out_dir);

}  // namespace tlscope::report
