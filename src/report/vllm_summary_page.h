// index.html of a vLLM log (UPSTREAM K4-K7): its compile calls with their
// configuration, Dynamo's files, the split graph, the pass patterns, and the
// piecewise subgraphs grouped by size or range with their files and pass
// diffs. The usual index is then tlparse_index.html, linked from the top.
#pragma once

#include "model/report_model.h"
#include "report/options.h"
#include "report/page_writer.h"

namespace tlscope::report {

void write_vllm_summary(const model::ReportModel& m, OutputDir& out, const Options& opts);

}  // namespace tlscope::report
