// What a report run says once its report is written, and its exit status:
// the statistics line, unknown fields, a log that is no trace, and what
// --strict and --strict-compile-id refuse. Shared by a run on a finished log
// and by --follow.
#pragma once

#include <cstdint>
#include <string>

#include "jobs/pipeline.h"

namespace tlscope::cli {

struct Strictness {
  bool strict = false;             // --strict
  bool strict_compile_id = false;  // --strict-compile-id
};

// 0 when the run is a success; else the exit status (the error said).
int report_outcome(const std::string& log, const std::string& out, const jobs::RunResult& result,
                   const Strictness& s);
// The same for a multi-rank report: `strict_failures` over all ranks.
int ranks_outcome(const std::string& out, uint64_t strict_failures, const Strictness& s);

}  // namespace tlscope::cli
