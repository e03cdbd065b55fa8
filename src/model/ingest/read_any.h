// A log of either kind read into one model, told by its content: a
// TORCH_TRACE log, or the TORCH_LOGS text of one process. What `diff` and
// `show` read; text that names several ranks is refused here with a message
// that says how to keep one (the commands that compare ranks read them
// apart, see torch_logs_model.h).
#pragma once

#include <string>

#include "model/ingest/options.h"
#include "model/ingest/read_log.h"

namespace tlscope::ingest {

ReadResult read_any_log(const std::string& path, const IngestOptions& opts);

}  // namespace tlscope::ingest
