// The compile doctor's section of index.html.
#pragma once

#include "analysis/doctor.h"
#include "report/html.h"

namespace tlscope::report {

Html doctor_html(const analysis::DoctorReport& d);

}  // namespace tlscope::report
