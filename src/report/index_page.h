// index.html: the compile doctor, the stack trie, the build products and
// the line statistics.
#pragma once

#include <string>

#include "model/report_model.h"
#include "report/html.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

// `doctor`: the doctor's section (report/doctor_html.h).
void write_index(const model::ReportModel& m, OutputDir& out, const Options& opts,
                 const Html& doctor, const std::string& name = "index.html");

}  // namespace tlscope::report
