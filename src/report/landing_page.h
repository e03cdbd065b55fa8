// The multi-rank landing page (REPORT_FEATURES F72) with the compile doctor
// across ranks.
#pragma once

#include <string>
#include <vector>

#include "analysis/ranks.h"
#include "io/rank_logs.h"
#include "report/options.h"

namespace tlscope::report {

void write_landing_page(const std::string& out_dir, const std::vector<io::RankLog>& logs,
                        const std::vector<analysis::RankSummary>& ranks,
                        const analysis::MultiRankAnalysis& a,
                        const std::vector<std::string>& problems, const Options& opts);

}  // namespace tlscope::report
