// The report's pictures as inline SVG (no script, no network: they work
// from file://), each with its table: the compile timeline and where the
// slowest compiles' time went on index.html, compile time per rank on the
// multi-rank landing page. Markup in templates/parts/charts.html.
#pragma once

#include <vector>

#include "analysis/charts.h"
#include "analysis/ranks.h"
#include "report/html.h"

namespace tlscope::report {

Html timeline_chart(const analysis::Timeline& t, bool several_runs);
Html time_split_chart(const std::vector<analysis::TimeSplit>& splits, bool several_runs);
// Ranks without records are left out.
Html rank_time_chart(const std::vector<analysis::RankSummary>& ranks);

}  // namespace tlscope::report
