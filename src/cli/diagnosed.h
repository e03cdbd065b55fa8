// The doctor's commands' reading of their input: a trace log, TORCH_LOGS
// text ("-": standard input) or a folder of rank logs, read into the model
// and diagnosed; and the sums and words they share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "model/report_model.h"

namespace tlscope::cli {

// A log read and diagnosed: one diagnosis, or one per rank (TORCH_LOGS
// text that names several ranks).
struct Diagnosed {
  std::optional<analysis::DoctorReport> one;
  std::vector<analysis::RankDiagnosis> ranks;
};

// A trace log or TORCH_LOGS text; nullopt (with a message printed) on
// failure or when it is neither.
std::optional<Diagnosed> diagnose_input(const std::string& log);
// How `summary` prints: summary.json or text (colored, every frame or those
// worth a look).
struct SummaryFormat {
  bool json = false, all = false, color = false;
  std::string command_line;
};
std::string summary_output(const Diagnosed& d, const std::string& log, const SummaryFormat& f);
// The same printed on standard output (one log's JSON written as it is made).
void print_summary(const Diagnosed& d, const std::string& log, const SummaryFormat& f);

// The models of TORCH_LOGS text (one, or one per rank) diagnosed.
Diagnosed diagnose_models(const std::vector<model::ReportModel>& models, const std::string& log);
// A folder of rank logs: every rank diagnosed, in parallel.
std::optional<std::vector<analysis::RankDiagnosis>> diagnose_dir(const std::string& dir);
std::vector<analysis::RankSummary> summaries_of(const std::vector<analysis::RankDiagnosis>& ranks);
std::string plural(uint64_t n, const char* one, const char* many);
analysis::Totals sum_of(const std::vector<analysis::RankDiagnosis>& ranks);
bool is_dir(const std::string& p);

}  // namespace tlscope::cli
