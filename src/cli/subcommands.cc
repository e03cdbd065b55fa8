#include "cli/subcommands.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "analysis/summary.h"
#include "cli/checks.h"
#include "io/rank_logs.h"
#include "model/ingest/read_log.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/glog_prefix.h"
#include "trace/show.h"
#include "trace/torch_logs.h"

namespace tlscope::cli {

std::string command_line(int argc, char** argv) {
  std::string s = "tlscope";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

namespace {

// What a file holds, by content: its first lines are looked at for a trace
// record or a TORCH_LOGS message (a program's output may come first).
enum class Content { kTrace, kText, kNeither };
Content sniff(const std::string& log) {
  std::string err;
  auto source = io::open_source(log, &err);
  if (!source) return Content::kTrace;  // the reader says why
  io::LineReader lines(std::move(source));
  io::Line line;
  bool text = false;
  for (int i = 0; i < 20000 && lines.next(&line); ++i) {
    // A trace record: a glog prefix and a JSON object (TORCH_LOGS text has
    // the same prefix, followed by a compile id or words).
    if (auto p = trace::scan_glog_prefix(line.text); p && !p->json.empty() && p->json[0] == '{')
      return Content::kTrace;
    text = text || trace::torch_logs::is_torch_logs_start(line.text);
  }
  return text ? Content::kText : Content::kNeither;
}

// TORCH_LOGS text read into the model ("-": standard input, streaming).
std::optional<analysis::DoctorReport> diagnose_text(const std::string& log) {
  std::string err;
  auto source = io::open_source(log == "-" ? "/dev/stdin" : log, &err);
  if (!source) {
    error(err);
    return std::nullopt;
  }
  io::LineReader lines(std::move(source));
  model::ReportModel m;
  m.input_path = log;
  ingest::read_text(lines, &m);
  if (!lines.error().empty()) {
    error(lines.error());
    return std::nullopt;
  }
  return analysis::diagnose(m);
}

// Reads the log into the model, a TORCH_TRACE log or TORCH_LOGS text; nullopt
// (with a message printed) on failure or when it is neither.
std::optional<analysis::DoctorReport> diagnose_log(const std::string& log) {
  if (log == "-") return diagnose_text(log);
  Content c = sniff(log);
  if (c == Content::kText) return diagnose_text(log);
  if (c == Content::kNeither) {
    std::error_code ec;
    bool empty = std::filesystem::file_size(log, ec) == 0 && !ec;
    error(log + (empty ? " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text"
                       : " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in it is a "
                         "trace record or a TORCH_LOGS message"));
    return std::nullopt;
  }
  auto result = ingest::read_log(log, {});
  if (!result.ok) {
    error(result.error);
    return std::nullopt;
  }
  if (auto w = not_a_trace_log(log, result.model.stats); !w.empty()) warning(w);
  return analysis::diagnose(result.model);
}

// Every rank log read and diagnosed, `jobs` at a time; only the diagnoses
// are kept.
std::vector<analysis::RankDiagnosis> diagnose_ranks(const std::vector<io::RankLog>& logs,
                                                    unsigned jobs) {
  std::vector<analysis::RankDiagnosis> out(logs.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < logs.size();) {
      out[i].log = logs[i];
      ingest::IngestOptions opts;
      opts.message_prefix = fmt::format("rank {}: ", logs[i].rank);
      auto run = ingest::read_log(logs[i].path, opts);
      if (!run.ok) {
        out[i].error = run.error;
        continue;
      }
      out[i].doctor = analysis::diagnose(run.model);
      out[i].summary =
          analysis::summarize_rank(logs[i].rank, logs[i].path, run.model, out[i].doctor);
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(logs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < n; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  return out;
}

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

bool is_dir(const std::string& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p, ec);
}

int summary(int argc, char** argv) {
  CLI::App app{"Explain recompilations, graph breaks, failures and compile time",
               "tlscope summary"};
  std::string log;
  bool json = false;
  app.add_option("log", log,
                 "Trace log, TORCH_LOGS text (- for standard input), or a folder of rank logs")
      ->required();
  app.add_flag("--json", json, "Print summary.json instead of text");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  if (is_dir(log)) {
    auto ranks = diagnose_dir(log);
    if (!ranks) return 1;
    auto a = analysis::analyze_ranks(summaries_of(*ranks));
    std::string out = json ? analysis::ranks_summary_json(*ranks, a, command_line(argc, argv))
                           : analysis::ranks_summary_text(*ranks, a, ::isatty(STDOUT_FILENO) != 0);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  auto d = diagnose_log(log);
  if (!d) return 1;
  std::string out = json ? analysis::summary_json(*d, log, command_line(argc, argv))
                         : analysis::summary_text(*d, log, ::isatty(STDOUT_FILENO) != 0);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int check(int argc, char** argv) {
  CLI::App app{"Fail (exit 1) when a trace exceeds compile limits; for CI", "tlscope check"};
  std::string log;
  std::optional<uint64_t> max_recompiles, max_breaks, max_failures;
  std::optional<double> max_seconds;
  app.add_option("log", log,
                 "Trace log, TORCH_LOGS text (- for standard input), or a folder of rank logs")
      ->required();
  app.add_option("--max-recompiles", max_recompiles, "Most recompiles allowed")
      ->check(whole_number());
  app.add_option("--max-graph-breaks", max_breaks, "Most graph breaks allowed")
      ->check(whole_number());
  app.add_option("--max-failures", max_failures, "Most failed compiles allowed")
      ->check(whole_number());
  app.add_option("--max-compile-seconds", max_seconds, "Most total compile time allowed")
      ->check(non_negative_number());
  std::string baseline;
  std::optional<double> max_ratio;
  app.add_option("--baseline", baseline,
                 "A log to compare with: fail when LOG has more recompiles, graph breaks or "
                 "failures than it");
  app.add_option("--max-compile-ratio", max_ratio,
                 "With --baseline: most compile time allowed, as a multiple of the baseline's")
      ->check(non_negative_number());
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (max_ratio && baseline.empty())
    return error("--max-compile-ratio needs --baseline", kExitUsage);
  if (!baseline.empty()) {
    if (int rc = check_log_path(baseline, LogArg::kFile)) return rc;
    if (int rc = check_log_path(log, LogArg::kFile)) return rc;
  }
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  std::optional<analysis::Totals> base;
  if (!baseline.empty()) {
    auto d = diagnose_log(baseline);
    if (!d) return 1;
    base = d->totals;
  }
  // (label, totals) per log: one for a file, one per rank for a folder.
  std::vector<std::pair<std::string, analysis::Totals>> logs;
  if (is_dir(log)) {
    auto ranks = diagnose_dir(log);
    if (!ranks) return 1;
    for (const auto& r : *ranks) {
      if (!r.error.empty()) {
        std::printf("tlscope check: rank %u: %s\n", r.log.rank, r.error.c_str());
        return 1;
      }
      logs.emplace_back(fmt::format("rank {}: ", r.log.rank), r.doctor.totals);
    }
  } else {
    auto d = diagnose_log(log);
    if (!d) return 1;
    logs.emplace_back("", d->totals);
  }
  std::vector<std::string> over;
  for (const auto& entry : logs) {
    const std::string& label = entry.first;  // (a structured binding cannot be captured in C++20)
    const auto& t = entry.second;
    auto limit = [&](const char* what, uint64_t value, const std::optional<uint64_t>& max) {
      if (max && value > *max)
        over.push_back(fmt::format("{}{}: {} > {}", label, what, value, *max));
    };
    limit("recompiles", t.recompiles, max_recompiles);
    limit("graph breaks", t.graph_breaks, max_breaks);
    limit("failures", t.failures, max_failures);
    if (max_seconds && t.compile_time_s > *max_seconds)
      over.push_back(
          fmt::format("{}compile seconds: {:.2f} > {}", label, t.compile_time_s, *max_seconds));
    // Against the baseline: no more than it had (the CI gate for regressions).
    if (base) {
      auto more = [&](const char* what, uint64_t now, uint64_t before) {
        if (now > before)
          over.push_back(fmt::format("{}: {} > {} in the baseline", what, now, before));
      };
      more("recompiles", t.recompiles, base->recompiles);
      more("graph breaks", t.graph_breaks, base->graph_breaks);
      more("failures", t.failures, base->failures);
      if (max_ratio && t.compile_time_s > *max_ratio * base->compile_time_s)
        over.push_back(fmt::format("compile seconds: {:.2f} > {} x {:.2f} of the baseline",
                                   t.compile_time_s, *max_ratio, base->compile_time_s));
    }
  }
  for (const auto& line : over) std::printf("tlscope check: %s\n", line.c_str());
  if (over.empty()) {
    analysis::Totals sum;
    for (const auto& [label, t] : logs) {
      sum.recompiles += t.recompiles;
      sum.graph_breaks += t.graph_breaks;
      sum.failures += t.failures;
      sum.compile_time_s += t.compile_time_s;
    }
    std::printf("tlscope check: ok (%llu recompiles, %llu graph breaks, %llu failures, %.2f s%s)\n",
                static_cast<unsigned long long>(sum.recompiles),
                static_cast<unsigned long long>(sum.graph_breaks),
                static_cast<unsigned long long>(sum.failures), sum.compile_time_s,
                logs.size() > 1 ? fmt::format(", {} ranks", logs.size()).c_str() : "");
  }
  return over.empty() ? 0 : 1;
}

int show(int argc, char** argv) {
  CLI::App app{"Print one artifact of one compile, e.g. `tlscope show trace.log 0/1 guards`",
               "tlscope show"};
  std::string log, id, artifact;
  app.add_option("log", log, "Trace log")->required();
  app.add_option("compile_id", id, "Compile id, e.g. 0/1 (all attempts) or 0/1_1")->required();
  app.add_option("artifact", artifact,
                 "Envelope key or artifact name, or a TORCH_LOGS name: graph_code, guards, "
                 "output_code, recompiles, graph_breaks, aot_graphs; omit to list");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (int rc = check_log_path(log, LogArg::kFile)) return rc;
  std::string why;
  trace::Stats stats;
  int rc = trace::show_artifact(log, id, artifact, stdout, &why, &stats);
  if (auto w = not_a_trace_log(log, stats); !w.empty()) warning(w);
  if (rc != 0) error(why);
  return rc;
}

}  // namespace

bool run_subcommand(int argc, char** argv, int* exit_code) {
  if (argc < 2) return false;
  std::string cmd = argv[1];
  if (cmd == "summary")
    *exit_code = summary(argc, argv);
  else if (cmd == "check")
    *exit_code = check(argc, argv);
  else if (cmd == "show")
    *exit_code = show(argc, argv);
  else
    return false;
  return true;
}

}  // namespace tlscope::cli
