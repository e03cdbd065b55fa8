#include "cli/subcommands.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
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
#include "base/parallel.h"
#include "cli/checks.h"
#include "cli/read_pair.h"
#include "cli/show_text.h"
#include "io/rank_logs.h"
#include "model/ingest/read_log.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/compile_id.h"
#include "trace/content.h"
#include "trace/show.h"
#include "trace/torch_logs.h"

namespace tlscope::cli {

std::string command_line(int argc, char** argv) {
  std::string s = "tlscope";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

namespace {

// TORCH_LOGS text read into the model ("-": standard input, streaming):
// one diagnosis, or one per rank when the text names several.
struct Diagnosed {
  std::optional<analysis::DoctorReport> one;
  std::vector<analysis::RankDiagnosis> ranks;
};

std::optional<Diagnosed> diagnose_text(const std::string& log) {
  auto read = ingest::read_text_log(log);
  if (!read.ok) {
    error(read.error);
    return std::nullopt;
  }
  Diagnosed d;
  if (read.models.size() == 1) {
    d.one = analysis::diagnose(read.models.front());
    return d;
  }
  for (const auto& m : read.models) d.ranks.push_back(analysis::diagnose_rank(*m.rank, log, m));
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
  auto result = ingest::read_log(log, {});
  if (!result.ok) {
    error(result.error);
    return std::nullopt;
  }
  if (auto w = not_a_trace_log(log, result.model.stats); !w.empty()) warning(w);
  Diagnosed d;
  d.one = analysis::diagnose(result.model);
  return d;
}

// Every rank log read and diagnosed, `jobs` at a time; only the diagnoses
// are kept.
std::vector<analysis::RankDiagnosis> diagnose_ranks(const std::vector<io::RankLog>& logs,
                                                    unsigned jobs) {
  std::vector<analysis::RankDiagnosis> out(logs.size());
  base::in_parallel(0, logs.size(), jobs, [&](size_t i) {
    ingest::IngestOptions opts;
    opts.message_prefix = fmt::format("rank {}: ", logs[i].rank);
    auto run = ingest::read_log(logs[i].path, opts);
    if (run.ok) out[i] = analysis::diagnose_rank(logs[i].rank, logs[i].path, run.model);
    out[i].log = logs[i];
    if (!run.ok) out[i].error = run.error;
  });
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

std::string plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

void add_totals(analysis::Totals* sum, const analysis::Totals& t) {
  sum->recompiles += t.recompiles;
  sum->graph_breaks += t.graph_breaks;
  sum->failures += t.failures;
  sum->recompile_limit_hits += t.recompile_limit_hits;
  sum->compile_time_s += t.compile_time_s;
}

analysis::Totals sum_of(const std::vector<analysis::RankDiagnosis>& ranks) {
  analysis::Totals sum;
  for (const auto& r : ranks) add_totals(&sum, r.doctor.totals);
  return sum;
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
  bool all = false;
  app.add_flag("--all", all,
               "List every frame (by default: those that recompiled, restarted or failed, and "
               "the slowest few of the others)");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  std::optional<std::vector<analysis::RankDiagnosis>> ranks;
  std::optional<analysis::DoctorReport> one;
  if (is_dir(log)) {
    ranks = diagnose_dir(log);
    if (!ranks) return 1;
  } else {
    auto d = diagnose_input(log);
    if (!d) return 1;
    if (d->one)
      one = std::move(d->one);
    else
      ranks = std::move(d->ranks);
  }
  std::string out;
  if (ranks) {
    auto a = analysis::analyze_ranks(summaries_of(*ranks));
    out = json ? analysis::ranks_summary_json(*ranks, a, command_line(argc, argv))
               : analysis::ranks_summary_text(*ranks, a, ::isatty(STDOUT_FILENO) != 0);
  } else {
    out = json ? analysis::summary_json(*one, log, command_line(argc, argv))
               : analysis::summary_text(*one, log, ::isatty(STDOUT_FILENO) != 0, 100, all);
  }
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
  bool allow_empty = false;
  app.add_flag("--allow-empty", allow_empty,
               "Pass when nothing was compiled (an empty log, or one without a compile); "
               "without it, that fails");
  std::string baseline;
  std::optional<double> max_ratio;
  app.add_option("--baseline", baseline,
                 "A log to compare with: fail when LOG has more recompiles, graph breaks or "
                 "failures than it");
  app.add_option("--max-compile-ratio", max_ratio,
                 "With --baseline: most compile time allowed, as a multiple of the baseline's")
      ->check(non_negative_number());
  bool same_artifacts = false;
  app.add_flag("--same-artifacts", same_artifacts,
               "With --baseline: fail when an artifact of a compile both have (a graph, guards, "
               "output code) differs apart from run-to-run noise (docs/diff.md)");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (max_ratio && baseline.empty())
    return error("--max-compile-ratio needs --baseline", kExitUsage);
  if (same_artifacts && baseline.empty())
    return error("--same-artifacts needs --baseline", kExitUsage);
  if (!baseline.empty()) {
    if (int rc = check_log_path(baseline, LogArg::kFile)) return rc;
    if (int rc = check_log_path(log, LogArg::kFile)) return rc;
  }
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  std::optional<analysis::Totals> base;
  if (!baseline.empty()) {
    auto d = diagnose_input(baseline);
    if (!d) return 1;
    base = d->one ? d->one->totals : sum_of(d->ranks);
  }
  // An empty file holds nothing to check: it fails, unless that is allowed.
  if (allow_empty && log != "-" && !is_dir(log)) {
    std::error_code ec;
    if (std::filesystem::file_size(log, ec) == 0 && !ec) {
      std::printf("tlscope check: ok (nothing compiled: %s is empty; --allow-empty)\n",
                  log.c_str());
      return 0;
    }
  }
  // (label, totals) per log: one for a file, one per rank for a folder or
  // text that names ranks.
  std::vector<std::pair<std::string, analysis::Totals>> logs;
  std::optional<std::vector<analysis::RankDiagnosis>> ranks;
  if (is_dir(log)) {
    ranks = diagnose_dir(log);
    if (!ranks) return 1;
  } else {
    auto d = diagnose_input(log);
    if (!d) return 1;
    if (d->one)
      logs.emplace_back("", d->one->totals);
    else
      ranks = std::move(d->ranks);
  }
  if (ranks) {
    for (const auto& r : *ranks) {
      if (!r.error.empty()) {
        std::printf("tlscope check: rank %u: %s\n", r.log.rank, r.error.c_str());
        return 1;
      }
      logs.emplace_back(fmt::format("rank {}: ", r.log.rank), r.doctor.totals);
    }
  }
  std::vector<std::string> over;
  size_t empty = 0;
  for (const auto& entry : logs) {
    const std::string& label = entry.first;  // (a structured binding cannot be captured in C++20)
    const auto& t = entry.second;
    // Nothing compiled: no limit can be checked, which a gate must not
    // take for a pass.
    if (t.empty()) {
      ++empty;
      if (!allow_empty)
        over.push_back(fmt::format("{}nothing was compiled (no frame, graph break or failure in "
                                   "{}); pass --allow-empty if that is expected",
                                   label, log == "-" ? "standard input" : log));
      continue;
    }
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
  if (same_artifacts && empty == 0) {
    auto changes = artifact_changes(baseline, log);
    if (!changes) return 1;
    for (const auto& c : *changes) over.push_back("artifact differs from the baseline: " + c);
  }
  for (const auto& line : over) std::printf("tlscope check: %s\n", line.c_str());
  if (over.empty()) {
    analysis::Totals sum;
    for (const auto& [label, t] : logs) add_totals(&sum, t);
    std::string extra;
    if (logs.size() > 1) extra += fmt::format(", {} ranks", logs.size());
    if (empty > 0)
      extra += logs.size() > 1 ? fmt::format(", {} of them compiled nothing", empty)
                               : std::string(", nothing compiled");
    if (same_artifacts && empty == 0) extra += ", artifacts as in the baseline";
    std::printf("tlscope check: ok (%s, %s, %s, %.2f s%s)\n",
                plural(sum.recompiles, "recompile", "recompiles").c_str(),
                plural(sum.graph_breaks, "graph break", "graph breaks").c_str(),
                plural(sum.failures, "failure", "failures").c_str(), sum.compile_time_s,
                extra.c_str());
  }
  return over.empty() ? 0 : 1;
}

int show(int argc, char** argv) {
  CLI::App app{"Print one artifact of one compile, e.g. `tlscope show trace.log 0/1 guards`",
               "tlscope show"};
  std::string log, id, artifact;
  app.add_option("log", log, "Trace log or TORCH_LOGS text")->required();
  app.add_option("compile_id", id, "Compile id, e.g. 0/1 (all attempts) or 0/1_1")->required();
  app.add_option("artifact", artifact,
                 "Envelope key or artifact name, or a TORCH_LOGS name: graph_code, guards, "
                 "output_code, recompiles, graph_breaks, aot_graphs; omit to list");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  // The compile id first: a usage error, before the log is read.
  if (!trace::parse_bare_compile_id(id))
    return error(id + " is not a compile id: write it as PyTorch prints it, e.g. 0/1 (frame 0, "
                      "its first recompile), 0/1_1 (attempt 1 of it) or !0/0/0 (compiled "
                      "autograd)",
                 kExitUsage);
  if (int rc = check_log_path(log, LogArg::kFile)) return rc;
  std::string why;
  if (auto c = trace::sniff_content(log); c != trace::Content::kTrace) {
    int rc = c == trace::Content::kText ? show_text(log, id, artifact, stdout, &why) : 1;
    if (c == trace::Content::kNeither) why = trace::neither_message(log);
    if (rc != 0) error(why);
    return rc;
  }
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
