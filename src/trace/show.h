// `tlscope show LOG COMPILE_ID [ARTIFACT]`: one artifact of one compile to
// stdout, streamed from the log without writing a report.
#pragma once

#include <cstdio>
#include <string>

#include "trace/stats.h"

namespace tlscope::trace {

// Prints the matching payloads (or, with an empty `artifact`, the list of
// what the compile has). Returns 0, or 1 with a message in `error` when the
// compile id or the artifact is not in the log. `stats` (optional) receives
// the log's line statistics.
int show_artifact(const std::string& log, const std::string& compile_id,
                  const std::string& artifact, FILE* out, std::string* error,
                  Stats* stats = nullptr);

}  // namespace tlscope::trace
