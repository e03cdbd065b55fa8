#include "jobs/rank_map.h"

#include <filesystem>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/doctor.h"
#include "analysis/rank_summary_json.h"
#include "output/output_dir.h"
#include "jobs/pipeline.h"
#include "jobs/rank_files.h"

namespace tlscope::jobs {
namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace {

// collectives_parity.json of the rank (F63).
void write_parity(const analysis::RankSummary& r, const std::string& rank_dir) {
  ordered_json graphs = ordered_json::array();
  for (const auto& p : r.parity)
    graphs.push_back({{"graph", p.graph},
                      {"compile_id", p.compile_id},
                      {"offset", p.offset},
                      {"missing_waits", p.missing_waits}});
  ordered_json doc = {
      {"description",
       "Per graph: offset = how far the collectives in the Inductor collective schedule differ "
       "from those the output code launches (summed over op kinds); missing_waits = launched "
       "collectives without a matching wait_tensor. Only graphs with a difference are listed."},
      {"graphs", graphs}};
  output::OutputDir(rank_dir, 0).write_file("collectives_parity.json", doc.dump(2));
}

}  // namespace

analysis::RankSummary summarize_run(const io::RankLog& log, const std::string& dir,
                                    const RunResult& run) {
  analysis::RankSummary s;
  if (!run.ok) {
    s.rank = log.rank;
    s.log = log.path;
    s.error = run.error;
    s.problem = fmt::format("rank {}: no report ({})", log.rank, run.error);
    return s;
  }
  auto doctor = analysis::diagnose(run.model);
  s = analysis::summarize_rank(log.rank, log.path, run.model, doctor);
  write_parity(s, dir);
  const auto& st = run.model.stats;
  s.strict_failures = st.strict_failures();
  if (st.ok == 0)
    s.problem =
        fmt::format("rank {}: the log has no readable records ({})", log.rank, st.in_words());
  else if (st.strict_failures() > 0)
    s.problem = fmt::format("rank {}: {} {} could not be used ({})", log.rank,
                            st.strict_failures(), st.strict_failures() == 1 ? "line" : "lines",
                            st.in_words());
  return s;
}

bool write_rank_summary(const std::string& dir, const analysis::RankSummary& s,
                        bool atomically) {
  output::OutputDir out(dir, 0);
  if (atomically) out.replace_atomically();
  out.write_file(kRankSummaryFile, analysis::rank_summary_json(s));
  out.drain();
  return out.errors() == 0;
}

RankMapResult map_rank(const io::RankLog& log, const std::string& rank_dir, const Options& opts) {
  RankMapResult result;
  auto built = begin_rank_folder(rank_dir, &result.error);
  if (!built) return result;
  result.summary = summarize_run(log, *built, build_report(log.path, *built, opts));
  if (!write_rank_summary(*built, result.summary, false)) {
    result.error = "Cannot write " + (fs::path(rank_dir) / kRankSummaryFile).string();
    std::error_code ec;
    fs::remove_all(*built, ec);
    return result;
  }
  result.ok = install_rank_folder(*built, rank_dir, &result.error);
  return result;
}

}  // namespace tlscope::jobs
