// TORCH_LOGS text read into the model the doctor reads (the same model as
// a TORCH_TRACE log's, so that summary, check and the pages need no second
// path): each frame's compiles, its recompiles with the failing guard of
// each cache entry, recompile-limit hits as failed compiles, graph breaks
// as graph-break notes. Compile ids are PyTorch's where the text prints
// them; elsewhere frames are numbered in the order they appear.
#pragma once

#include <string>

#include "io/line_reader.h"
#include "model/report_model.h"
#include "trace/torch_logs.h"

namespace tlscope::ingest {

void add_text_events(const trace::torch_logs::Events& events, model::ReportModel* model);

// Reads every line of `lines` as TORCH_LOGS text into `model`.
void read_text(io::LineReader& lines, model::ReportModel* model);

}  // namespace tlscope::ingest
