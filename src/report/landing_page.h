// The multi-rank landing page (REPORT_FEATURES F72) with the compile doctor
// across ranks.
#pragma once

#include <string>
#include <vector>

#include "analysis/ranks.h"
#include "report/multirank.h"
#include "report/options.h"

namespace tlscope::report {

void write_landing_page(const std::string& out_dir, const std::vector<RankLog>& logs,
                        const std::vector<analysis::RankSummary>& ranks,
                        const analysis::MultiRankAnalysis& a,
                        const std::vector<std::string>& problems, const Options& opts);

}  // namespace tlscope::report
