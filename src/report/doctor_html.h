// The compile doctor's section of index.html.
#pragma once

#include "analysis/doctor.h"
#include "report/html.h"

namespace tlscope::report {

// `charts` (the compile-time pictures) go before the slowest compiles.
Html doctor_html(const analysis::DoctorReport& d, const Html& charts = Html());

}  // namespace tlscope::report
