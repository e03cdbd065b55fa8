// The index of draft-export mode (--export).
#pragma once

#include "model/report_model.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts);

}  // namespace tlscope::report
