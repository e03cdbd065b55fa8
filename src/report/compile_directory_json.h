// compile_directory.json: every compile id with its files, as the reference
// writes it (multi-rank mode and scripts read it).
#pragma once

#include "model/report_model.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_compile_directory(const model::ReportModel& m, OutputDir& out);

}  // namespace tlscope::report
