// The compile doctor's outputs: a section of index.html, summary.json, and
// the terminal summary of `tlscope summary`.
#pragma once

#include <string>

#include "analysis/doctor.h"
#include "report/html.h"
#include "report/multirank.h"
#include "report/options.h"

namespace tlscope::report {

Html doctor_html(const analysis::DoctorReport& d);
// "1 frame, 3 compiles, 2 recompiles, 0 graph breaks, 0 failures, 1.25 s compiling"
std::string totals_line(const analysis::Totals& t);
// summary.json (documented in docs/summary.md).
std::string summary_json(const analysis::DoctorReport& d, const std::string& log,
                         const Options& opts);
// Plain text for a terminal, at most `width` columns; ANSI colour if `color`.
std::string summary_text(const analysis::DoctorReport& d, const std::string& log, bool color,
                         size_t width = 100);

// `tlscope summary DIR`: per-rank totals and where the ranks differ.
std::string ranks_summary_text(const std::vector<RankDiagnosis>& ranks,
                               const analysis::MultiRankAnalysis& a, bool color, size_t width = 100);
std::string ranks_summary_json(const std::vector<RankDiagnosis>& ranks,
                               const analysis::MultiRankAnalysis& a, const Options& opts);

}  // namespace tlscope::report
