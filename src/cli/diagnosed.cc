#include "cli/diagnosed.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "analysis/summary.h"
#include "base/parallel.h"
#include "cli/checks.h"
#include "io/rank_logs.h"
#include "model/ingest/read_log.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/content.h"

namespace tlscope::cli {

namespace {

std::optional<Diagnosed> diagnose_text(const std::string& log) {
  auto read = ingest::read_text_log(log);
  if (!read.ok) {
    error(read.error);
    return std::nullopt;
  }
  return diagnose_models(read.models, log);
}

}  // namespace

Diagnosed diagnose_models(const std::vector<model::ReportModel>& models, const std::string& log) {
  Diagnosed d;
  if (models.size() == 1) {
    d.one = analysis::diagnose(models.front());
    return d;
  }
  for (const auto& m : models) d.ranks.push_back(analysis::diagnose_rank(*m.rank, log, m));
  return d;
}

// Reads the log into the model, a TORCH_TRACE log or TORCH_LOGS text; nullopt
// (with a message printed) on failure or when it is neither.
std::optional<Diagnosed> diagnose_input(const std::string& log) {
  if (log == "-") return diagnose_text(log);
  trace::Content c = trace::sniff_content(log);
  if (c == trace::Content::kText) return diagnose_text(log);
  if (c == trace::Content::kNeither) {
    error(trace::neither_message(log));
    return std::nullopt;
  }
  analysis::DoctorFold fold;
  ingest::IngestOptions opts = ingest::doctor_options(false);
  opts.feed = &fold;  // the records are folded as they are read, not kept
  auto result = ingest::read_log(log, opts);
  if (!result.ok) {
    error(result.error);
    return std::nullopt;
  }
  if (auto w = not_a_trace_log(log, result.model.stats); !w.empty()) warning(w);
  Diagnosed d;
  d.one = fold.finish(result.model);
  return d;
}

namespace {

// Every rank log read and diagnosed, `jobs` at a time; only the diagnoses
// are kept.
std::vector<analysis::RankDiagnosis> diagnose_ranks(const std::vector<io::RankLog>& logs,
                                                    unsigned jobs) {
  std::vector<analysis::RankDiagnosis> out(logs.size());
  base::in_parallel(0, logs.size(), jobs, [&](size_t i) {
    analysis::DoctorFold fold;
    ingest::IngestOptions opts = ingest::doctor_options(true);
    opts.feed = &fold;
    // Two or more logs at once keep the cores busy: no thread reading ahead.
    opts.plain_read_ahead = std::min<size_t>(jobs, logs.size()) < 2;
    opts.message_prefix = fmt::format("rank {}: ", logs[i].rank);
    auto run = ingest::read_log(logs[i].path, opts);
    if (run.ok) out[i] = analysis::diagnose_rank(logs[i].rank, logs[i].path, run.model, &fold);
    out[i].log = logs[i];
    if (!run.ok) out[i].error = run.error;
  });
  return out;
}

}  // namespace

// A folder of rank logs: every rank diagnosed, in parallel.
std::optional<std::vector<analysis::RankDiagnosis>> diagnose_dir(const std::string& dir) {
  std::vector<io::RankLog> logs;
  std::vector<std::string> ignored;
  std::string error;
  if (!io::discover_rank_logs(dir, &logs, &ignored, &error)) {
    cli::error(error);
    return std::nullopt;
  }
  return diagnose_ranks(logs, std::max(1u, std::thread::hardware_concurrency()));
}

std::vector<analysis::RankSummary> summaries_of(const std::vector<analysis::RankDiagnosis>& ranks) {
  std::vector<analysis::RankSummary> out;
  for (const auto& r : ranks) {
    out.push_back(r.summary);
    out.back().rank = r.log.rank;
    out.back().error = r.error;
  }
  return out;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

analysis::Totals sum_of(const std::vector<analysis::RankDiagnosis>& ranks) {
  analysis::Totals sum;
  for (const auto& r : ranks) analysis::add_totals(&sum, r.doctor.totals);
  return sum;
}

bool is_dir(const std::string& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p, ec);
}

std::string summary_output(const Diagnosed& d, const std::string& log, const SummaryFormat& f) {
  if (!d.one) {
    auto a = analysis::analyze_ranks(summaries_of(d.ranks));
    return f.json ? analysis::ranks_summary_json(d.ranks, a, f.command_line)
                  : analysis::ranks_summary_text(d.ranks, a, f.color);
  }
  return f.json ? analysis::summary_json(*d.one, log, f.command_line)
                : analysis::summary_text(*d.one, log, f.color, 100, f.all);
}

void print_summary(const Diagnosed& d, const std::string& log, const SummaryFormat& f) {
  if (d.one && f.json) {
    analysis::write_summary_json(stdout, *d.one, log, f.command_line);
    return;
  }
  std::string out = summary_output(d, log, f);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace tlscope::cli
