// The compile doctor's outputs: a section of index.html, summary.json, and
// the terminal summary of `tlscope summary`.
#pragma once

#include <string>

#include "analysis/doctor.h"
#include "report/html.h"
#include "report/options.h"

namespace tlscope::report {

Html doctor_html(const analysis::DoctorReport& d);
// summary.json (documented in docs/summary.md).
std::string summary_json(const analysis::DoctorReport& d, const std::string& log,
                         const Options& opts);
// Plain text for a terminal, at most `width` columns; ANSI colour if `color`.
std::string summary_text(const analysis::DoctorReport& d, const std::string& log, bool color,
                         size_t width = 100);

}  // namespace tlscope::report
