// The rank logs of a distributed job: the files TORCH_TRACE writes per rank
// into one folder (REPORT_FEATURES F55).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::io {

struct RankLog {
  uint32_t rank = 0;
  std::string path;
};

// The rank of a file named dedicated_log_torch_trace_rank_<N>[_*].log (also
// .gz and .zst); nullopt for any other name.
std::optional<uint32_t> rank_of_log_name(const std::string& name);

// Rank logs in `dir` (dedicated_log_torch_trace_rank_<N>[_*].log, also .gz
// and .zst), sorted by rank. Other files, and a second log of one rank (the
// first by name is kept), are listed in `ignored` with the reason.
bool discover_rank_logs(const std::string& dir, std::vector<RankLog>* logs,
                        std::vector<std::string>* ignored, std::string* error);

}  // namespace tlscope::io
