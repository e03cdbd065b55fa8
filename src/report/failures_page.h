// failures_and_restarts.html: every failure and restart of the log.
#pragma once

#include "model/report_model.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_failures_page(const model::ReportModel& m, OutputDir& out, const Options& opts);

}  // namespace tlscope::report
