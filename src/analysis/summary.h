// The compile doctor in words: what `tlscope summary` prints, and
// summary.json (documented in docs/summary.md), for one log or for a folder
// of rank logs.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "analysis/ranks.h"

namespace tlscope::analysis {

// "1 frame, 3 compiles, 2 recompiles, 0 graph breaks, 0 failures, 1.25 s compiling"
std::string totals_line(const Totals& t);
// summary.json; `command_line` is the one that produced it.
std::string summary_json(const DoctorReport& d, const std::string& log,
                         const std::string& command_line);
// The same written to `out` as it is made (no copy of the whole text: a
// log of thousands of compiles has megabytes of it).
void write_summary_json(std::FILE* out, const DoctorReport& d, const std::string& log,
                        const std::string& command_line);
// Plain text for a terminal, at most `width` columns; ANSI colour if `color`.
// Frames: those that recompiled, restarted or failed, the slowest few of
// the others and one line for the rest, or every frame with `all_frames`.
std::string summary_text(const DoctorReport& d, const std::string& log, bool color,
                         size_t width = 100, bool all_frames = false);

// `tlscope summary DIR`: per-rank totals and where the ranks differ.
std::string ranks_summary_text(const std::vector<RankDiagnosis>& ranks, const MultiRankAnalysis& a,
                               bool color, size_t width = 100);
std::string ranks_summary_json(const std::vector<RankDiagnosis>& ranks, const MultiRankAnalysis& a,
                               const std::string& command_line);

// `tlscope check --json`: {"passed", "broken": the lines of the limits
// broken, "totals" (summed over `ranks` ranks; 0 for one log), "ranks"}.
std::string check_json(const std::vector<std::string>& broken, const Totals& totals, size_t ranks);

}  // namespace tlscope::analysis
