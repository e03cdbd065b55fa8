// The files of the map/reduce protocol of a multi-rank report: each rank's
// folder (rank_<N>, holding rank_summary.json beside its report), put in
// place atomically so a retried map task never leaves half a folder, and
// rank_logs.json, the list of rank logs the job's folder held.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/rank_logs.h"

namespace tlscope::jobs {

inline constexpr const char* kRankSummaryFile = "rank_summary.json";
inline constexpr const char* kRankListingFile = "rank_logs.json";

// "rank_<N>".
std::string rank_folder_name(uint32_t rank);
// The rank of a folder named rank_<N> (digits only); nullopt otherwise.
std::optional<uint32_t> rank_of_folder_name(const std::string& name);

// Writes `text` to `path` through a temporary file in the same folder and a
// rename, so that readers see the old file or the new one, never a part.
bool write_file_atomically(const std::string& path, const std::string& text, std::string* error);

// A fresh folder beside `final_dir` to build into (`.rank_<N>.partial-<host>-<pid>`),
// and the folder it replaces checked: `final_dir` may be absent, empty or a
// rank report of ours; anything else is refused, with the reason in `error`.
std::optional<std::string> begin_rank_folder(const std::string& final_dir, std::string* error);
// Puts the built folder in place of `final_dir` in one rename (the earlier
// folder, if any, is swapped out and then removed).
bool install_rank_folder(const std::string& built, const std::string& final_dir,
                         std::string* error);

struct RankListing {
  std::string folder;  // the folder of rank logs, as given
  std::vector<io::RankLog> logs;
};
// rank_logs.json in `out_dir`; every map run over a folder writes the same text.
bool write_rank_listing(const std::string& out_dir, const RankListing& listing, std::string* error);
// nullopt with an empty `error` when there is no such file.
std::optional<RankListing> read_rank_listing(const std::string& out_dir, std::string* error);

}  // namespace tlscope::jobs
