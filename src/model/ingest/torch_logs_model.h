// TORCH_LOGS text read into the model the doctor reads (the same model as
// a TORCH_TRACE log's, so that summary, check and the pages need no second
// path): each frame's compiles, its recompiles with the failing guard of
// each cache entry, recompile-limit hits as failed compiles, graph breaks
// as graph-break notes. Compile ids are PyTorch's where the text prints
// them; elsewhere frames are numbered in the order they appear.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/line_reader.h"
#include "model/report_model.h"
#include "trace/torch_logs.h"

namespace tlscope::ingest {

// The ranks the text names (`[rankN]:`), ascending; empty when none.
std::vector<uint32_t> text_ranks(const trace::torch_logs::Events& events);

// The events of the text (with `rank`: that rank's alone, and those that
// name no rank when it is the lowest) into `model`.
void add_text_events(const trace::torch_logs::Events& events, model::ReportModel* model,
                     std::optional<uint32_t> rank = std::nullopt);

// TORCH_LOGS text read into one model per rank it names (one model, without
// a rank, when it names none): the ranks are kept apart.
struct TextRead {
  bool ok = false;
  std::string error;
  std::vector<model::ReportModel> models;
};
// `path`: a file (plain, .gz or .zst), or "-" for standard input.
TextRead read_text_log(const std::string& path);
// The models of events already read (`path` names their input).
std::vector<model::ReportModel> text_models(const trace::torch_logs::Events& events,
                                            const std::string& path);

}  // namespace tlscope::ingest
