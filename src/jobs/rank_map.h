// The map step of a multi-rank report (`tlscope rank`, and each rank of
// --all-ranks-html): one rank's report folder with its rank_summary.json.
#pragma once

#include <string>

#include "analysis/ranks.h"
#include "io/rank_logs.h"
#include "jobs/pipeline.h"
#include "report/options.h"

namespace tlscope::jobs {

using report::Options;

struct RankMapResult {
  // The folder is in place. Its report may still have failed (the log could
  // not be read): then summary.error says why, and the merge lists it.
  bool ok = false;
  std::string error;  // why no folder could be put in place
  analysis::RankSummary summary;
};

// Writes the report of `log` into `rank_dir`: built in a fresh folder beside
// it and renamed into place, replacing an earlier run's folder.
RankMapResult map_rank(const io::RankLog& log, const std::string& rank_dir, const Options& opts);

// The rank's summary from its report run into `dir` (and the run's
// collectives_parity.json written there); a failed run's says why.
analysis::RankSummary summarize_run(const io::RankLog& log, const std::string& dir,
                                    const RunResult& run);
// `dir`/rank_summary.json; false when it could not be written.
bool write_rank_summary(const std::string& dir, const analysis::RankSummary& s, bool atomically);

}  // namespace tlscope::jobs
