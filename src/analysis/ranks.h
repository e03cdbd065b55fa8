// Cross-rank analyses of a distributed job (REPORT_FEATURES F57-F70) and the
// compile doctor across ranks. Pure functions over per-rank summaries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "io/rank_logs.h"
#include "model/report_model.h"

namespace tlscope::analysis {

struct RankGraphRuntime {
  std::string graph;  // compile folder, e.g. "-_0_0_0"
  std::vector<model::RuntimeOp> ops;
  std::string fingerprint;  // MD5 of the tensor metadata artifact ("" when none): ranks compare it
};

struct ParityGraph {
  std::string graph, compile_id;
  int offset = 0, missing_waits = 0;
};

// What the comparisons need of a rank's op lists: small enough to keep for
// thousands of ranks once the lists themselves are dropped (drop_ops).
struct OpDigests {
  std::string collectives;  // MD5 of all scheduled collectives, in folder order
  // compile id (the folder where it has none) -> MD5 of its scheduled collectives
  std::map<std::string, std::string> schedule_by_id;
  std::vector<double> runtime_totals;  // per runtimes[i]: the sum of its ops' estimates
};

// What the landing page needs of one rank; the rank's model can then go.
struct RankSummary {
  uint32_t rank = 0;
  std::string log, error;                           // error: the rank's report could not be made
  std::set<std::string> compile_ids;                // display forms, without the unknown group
  std::string cache_sequence;                       // F57: suffixes by output number
  std::map<std::string, std::string> folder_to_id;  // F64 folder -> index key
  std::map<std::string, std::string> folder_cache;  // folder -> "miss"/"hit"/"bypass"
  std::vector<std::pair<std::string, std::vector<std::string>>> schedules;  // folder order
  std::vector<RankGraphRuntime> runtimes;
  std::vector<ParityGraph> parity;
  std::optional<std::vector<std::string>> execution_order;  // "[0/1]" forms
  Totals totals;
  std::map<std::string, std::string> recompile_categories;  // compile id -> categories
  std::vector<std::string> graph_break_keys;                // "category|reason" per break group
  uint64_t chromium_events = 0;
  bool no_records = false;  // no line of the log was a readable record: not compared
  // Set by the map step (report/rank_map): what the landing page lists for
  // this rank under "problems" ("" when none), and the lines --strict counts.
  std::string problem;
  uint64_t strict_failures = 0;
  // Set by drop_ops: the op lists of `schedules` and `runtimes` are empty.
  std::optional<OpDigests> digests;
};

// The digests of `r`'s op lists (r.digests when they were dropped).
OpDigests op_digests(const RankSummary& r);
// Keeps the digests and empties the op lists (graph names, fingerprints and
// everything else stay): what the merge holds of each rank.
void drop_ops(RankSummary* r);

RankSummary summarize_rank(uint32_t rank, const std::string& log, const model::ReportModel& m,
                           const DoctorReport& doctor);

struct RuntimeRow {
  size_t graph_index = 0;
  std::string graph_id;
  double delta_ms = 0;
  uint32_t fastest_rank = 0, slowest_rank = 0;
  double fastest_ms = 0, slowest_ms = 0;
};

struct ExecOrderResult {
  bool available = false, order_differs = false;
  std::string why_unavailable;  // a sentence, when not available
  std::vector<uint32_t> schedule_mismatch_ranks, cache_mismatch_ranks;
};

struct DoctorDivergence {
  std::string what;  // "recompiles", "graph breaks", "failures", "compile ids"
  std::vector<std::vector<uint32_t>> groups;  // ranks that agree
  std::string first_compile_id;               // first compile id where they differ, if any
};

struct MultiRankAnalysis {
  // Ascending. Only ranks with a report and at least one readable record
  // take part in the comparisons; the others are `left_out`.
  std::vector<uint32_t> ranks, left_out;
  bool compile_id_divergence = false;
  std::vector<std::vector<uint32_t>> cache_groups, collective_groups, tensor_meta_groups;
  bool has_schedules = false, has_runtimes = false;
  bool runtime_mismatched_counts = false;
  std::vector<RuntimeRow> runtime_rows;
  ExecOrderResult exec_order;
  std::vector<DoctorDivergence> doctor;
  bool desync() const {
    return compile_id_divergence || cache_groups.size() > 1 || collective_groups.size() > 1 ||
           tensor_meta_groups.size() > 1;
  }
};

MultiRankAnalysis analyze_ranks(const std::vector<RankSummary>& ranks);

// One rank log diagnosed (for `summary DIR` and `check DIR`).
struct RankDiagnosis {
  io::RankLog log;
  std::string error;  // the log could not be read
  DoctorReport doctor;
  RankSummary summary;
};

// One rank's model diagnosed and summarised (a rank log, or one rank of
// TORCH_LOGS text).
RankDiagnosis diagnose_rank(uint32_t rank, const std::string& log, const model::ReportModel& m);
// The same for a model read with `fold` fed its records (IngestOptions::feed).
RankDiagnosis diagnose_rank(uint32_t rank, const std::string& log, const model::ReportModel& m,
                            DoctorFold* fold);

// F69 on its own (also unit-tested with the reference's case).
ExecOrderResult analyze_execution_order(
    const std::map<uint32_t, std::vector<std::string>>& orders,
    const std::map<std::pair<uint32_t, std::string>, std::vector<std::string>>& schedules,
    const std::map<std::pair<uint32_t, std::string>, std::string>& cache_status);

// "0-3, 5" for {0,1,2,3,5}.
std::string rank_ranges(const std::vector<uint32_t>& ranks);
// "0, 2" (the reference's form inside "Ranks: ...").
std::string rank_list(const std::vector<uint32_t>& ranks);

// F62: ns -> ms rounded to 3 decimals, half away from zero.
double ns_to_ms(double ns);

}  // namespace tlscope::analysis
