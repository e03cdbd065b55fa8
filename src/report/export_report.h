// Draft-export mode (--export).
#pragma once

#include "model/report_model.h"
#include "report/options.h"
#include "report/output_dir.h"
#include "report/report_builder.h"

namespace tlscope::report {

// Handles a record in export mode; false when the record is to be dropped
// (a guard that export did not evaluate: no payload fallback either).
bool handle_export_record(ReportBuilder& b, RecordContext& ctx);
void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts);

}  // namespace tlscope::report
