// (e) The multi-rank report from a few small rank logs: the input is split
// at lines "--rank N--" into the logs of ranks N (a gap or a repeat is
// allowed), and --all-ranks-html's map and merge run on them; then the merge
// alone runs again on the output, as `tlscope merge` would. Checked as in
// pipeline_fuzz.cc.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checks.h"
#include "io/rank_logs.h"
#include "jobs/multirank.h"
#include "jobs/pipeline.h"
#include "jobs/rank_merge.h"

namespace {

// "--rank 3--\n..." pieces; text before the first marker belongs to rank 0.
std::map<uint32_t, std::string> split(std::string_view in) {
  std::map<uint32_t, std::string> logs;
  uint32_t rank = 0;
  size_t pos = 0;
  while (pos <= in.size()) {
    size_t marker = in.find("--rank ", pos);
    size_t end = marker == std::string_view::npos ? in.size() : marker;
    logs[rank] += in.substr(pos, end - pos);
    if (marker == std::string_view::npos) break;
    size_t close = in.find("--\n", marker + 7);
    if (close == std::string_view::npos) break;
    rank = 0;
    for (size_t i = marker + 7; i < close && i < marker + 10; ++i)
      rank = rank * 10 + static_cast<uint32_t>(in[i] >= '0' && in[i] <= '9' ? in[i] - '0' : 0);
    pos = close + 3;
    if (logs.size() >= 4) break;
  }
  return logs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlscope::fuzz::Scratch s;
  auto dir = s.root() / "logs";
  std::filesystem::create_directory(dir);
  for (const auto& [rank, text] :
       split(std::string_view(reinterpret_cast<const char*>(data), size)))
    s.write("logs/dedicated_log_torch_trace_rank_" + std::to_string(rank) + "_fz.log", text);
  std::vector<tlscope::io::RankLog> logs;
  std::vector<std::string> ignored;
  std::string error;
  if (!tlscope::io::discover_rank_logs(dir.string(), &logs, &ignored, &error)) return 0;
  auto out = s.root() / "out";
  if (!tlscope::jobs::prepare_output_dir(out.string(), false, &error))
    tlscope::fuzz::fail("prepare_output_dir: " + error);
  tlscope::report::Options opts;
  opts.raw_log_gz = false;
  auto r = tlscope::jobs::build_multirank_report(dir.string(), logs, out.string(), opts, 1);
  if (!r.error.empty() && r.problems.empty()) tlscope::fuzz::fail("no report: " + r.error);
  auto again = tlscope::jobs::merge_ranks(out.string(), opts, 2);
  if (!again.ok) tlscope::fuzz::fail("merge: " + again.error);
  tlscope::fuzz::check_output(s, out, {"logs", "out"});
  return 0;
}
