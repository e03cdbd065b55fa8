// rank_summary.json: what the landing page needs of one rank, written by the
// map step (`tlscope rank`) and read by the reduce (`tlscope merge`), so that
// the merge never reads a rank log. The format is in docs/cluster.md.
#pragma once

#include <optional>
#include <string>

#include "analysis/ranks.h"

namespace tlscope::analysis {

inline constexpr int kRankSummaryVersion = 1;

// The file's text (pretty JSON, ending in a newline). Numbers round-trip:
// doubles are written in their shortest exact form, and the non-finite ones
// (a sum that overflowed) as the strings "inf", "-inf" or "nan".
std::string rank_summary_json(const RankSummary& s);

// Parses what rank_summary_json wrote. On any error (not JSON, another
// format or version, a field missing or of the wrong type) returns nullopt
// and says what in `error`.
std::optional<RankSummary> parse_rank_summary(const std::string& text, std::string* error);

}  // namespace tlscope::analysis
