// The report of TORCH_LOGS text (docs/torch_logs.md): index.html with the
// compile doctor, each compile the text mentions (its failing guards, limit
// hits, graph breaks, guard dumps) and what a TORCH_TRACE log would add, and
// summary.json. No artifact folders: the text has none. A text that names
// several ranks gets a report per rank in rank_N/ and an index of the ranks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/options.h"

namespace tlscope::report {

struct TextRunResult {
  bool ok = false;
  std::string error;
  uint64_t lines = 0, other_lines = 0;
  std::vector<uint32_t> ranks;  // empty when the text names none (or one)
};

// Reads `log` (a file, plain, .gz or .zst) and writes the report into
// `out_dir` (already prepared).
TextRunResult build_text_report(const std::string& log, const std::string& out_dir,
                                const Options& opts);

}  // namespace tlscope::report
