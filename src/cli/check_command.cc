#include "cli/check_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/summary.h"
#include "cli/checks.h"
#include "cli/diagnosed.h"
#include "cli/read_pair.h"

namespace tlscope::cli {
namespace {

struct Limits {
  std::optional<uint64_t> max_recompiles, max_breaks, max_failures;
  std::optional<double> max_seconds;
  bool allow_empty = false;
  std::string baseline;
  std::optional<double> max_ratio;
  bool same_artifacts = false;
  bool json = false;
};

void add_options(CLI::App& app, std::string* log, Limits* l) {
  app.add_option("log", *log,
                 "Trace log, TORCH_LOGS text (- for standard input), or a folder of rank logs")
      ->required();
  app.add_option("--max-recompiles", l->max_recompiles, "Most recompiles allowed")
      ->check(whole_number());
  app.add_option("--max-graph-breaks", l->max_breaks, "Most graph breaks allowed")
      ->check(whole_number());
  app.add_option("--max-failures", l->max_failures, "Most failed compiles allowed")
      ->check(whole_number());
  app.add_option("--max-compile-seconds", l->max_seconds, "Most total compile time allowed")
      ->check(non_negative_number());
  app.add_flag("--allow-empty", l->allow_empty,
               "Pass when nothing was compiled (an empty log, or one without a compile); "
               "without it, that fails");
  app.add_option("--baseline", l->baseline,
                 "A log to compare with: fail when LOG has more recompiles, graph breaks or "
                 "failures than it");
  app.add_option("--max-compile-ratio", l->max_ratio,
                 "With --baseline: most compile time allowed, as a multiple of the baseline's")
      ->check(non_negative_number());
  app.add_flag("--same-artifacts", l->same_artifacts,
               "With --baseline: fail when an artifact of a compile both have (a graph, guards, "
               "output code) differs apart from run-to-run noise (docs/diff.md)");
  app.add_flag("--json", l->json,
               "Print the verdict as JSON: passed, the limits broken, the totals (docs/summary.md); "
               "the exit status is the same");
}

// (label, totals) per log: one for a file, one per rank for a folder or
// text that names ranks; nullopt when it cannot be read (said).
using Labelled = std::vector<std::pair<std::string, analysis::Totals>>;
std::optional<Labelled> totals_of(const std::string& log, bool json) {
  Labelled logs;
  std::optional<std::vector<analysis::RankDiagnosis>> ranks;
  if (is_dir(log)) {
    ranks = diagnose_dir(log);
    if (!ranks) return std::nullopt;
  } else {
    auto d = diagnose_input(log);
    if (!d) return std::nullopt;
    if (d->one)
      logs.emplace_back("", d->one->totals);
    else
      ranks = std::move(d->ranks);
  }
  for (const auto& r : ranks ? *ranks : std::vector<analysis::RankDiagnosis>{}) {
    if (!r.error.empty()) {
      // With --json, standard output holds JSON or nothing.
      std::fprintf(json ? stderr : stdout, "tlscope check: rank %u: %s\n", r.log.rank,
                   r.error.c_str());
      return std::nullopt;
    }
    logs.emplace_back(fmt::format("rank {}: ", r.log.rank), r.doctor.totals);
  }
  return logs;
}

// What one log's totals exceed: the limits, and what the baseline had.
void over_limits(const std::string& label, const analysis::Totals& t, const Limits& l,
                 const std::optional<analysis::Totals>& base, std::vector<std::string>* over) {
  auto limit = [&](const char* what, uint64_t value, const std::optional<uint64_t>& max) {
    if (max && value > *max) over->push_back(fmt::format("{}{}: {} > {}", label, what, value, *max));
  };
  limit("recompiles", t.recompiles, l.max_recompiles);
  limit("graph breaks", t.graph_breaks, l.max_breaks);
  limit("failures", t.failures, l.max_failures);
  if (l.max_seconds && t.compile_time_s > *l.max_seconds)
    over->push_back(
        fmt::format("{}compile seconds: {:.2f} > {}", label, t.compile_time_s, *l.max_seconds));
  if (!base) return;
  // Against the baseline: no more than it had (the CI gate for regressions).
  auto more = [&](const char* what, uint64_t now, uint64_t before) {
    if (now > before) over->push_back(fmt::format("{}: {} > {} in the baseline", what, now, before));
  };
  more("recompiles", t.recompiles, base->recompiles);
  more("graph breaks", t.graph_breaks, base->graph_breaks);
  more("failures", t.failures, base->failures);
  if (l.max_ratio && t.compile_time_s > *l.max_ratio * base->compile_time_s)
    over->push_back(fmt::format("compile seconds: {:.2f} > {} x {:.2f} of the baseline",
                                t.compile_time_s, *l.max_ratio, base->compile_time_s));
}

// "tlscope check: ok (2 recompiles, 0 graph breaks, 0 failures, 1.30 s, ...)"
void print_ok(const Labelled& logs, size_t empty, bool same_artifacts) {
  analysis::Totals sum;
  for (const auto& [label, t] : logs) analysis::add_totals(&sum, t);
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

// What a program reads (the Python module's tlscope.check).
void print_json(const Labelled& logs, const std::vector<std::string>& over) {
  analysis::Totals sum;
  size_t ranks = 0;  // ranks are labelled ("rank 3: "); one log is not
  for (const auto& [label, t] : logs) {
    analysis::add_totals(&sum, t);
    ranks += label.empty() ? 0 : 1;
  }
  std::string out = analysis::check_json(over, sum, ranks);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

// The paths and flags that must agree before anything is read; 0 when they do.
int check_arguments(const std::string& log, const Limits& l) {
  if (l.max_ratio && l.baseline.empty())
    return error("--max-compile-ratio needs --baseline", kExitUsage);
  if (l.same_artifacts && l.baseline.empty())
    return error("--same-artifacts needs --baseline", kExitUsage);
  if (!l.baseline.empty()) {
    if (int rc = check_log_path(l.baseline, LogArg::kFile)) return rc;
    if (int rc = check_log_path(log, LogArg::kFile)) return rc;
  }
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  return 0;
}

}  // namespace

int check_command(int argc, char** argv) {
  CLI::App app{"Fail (exit 1) when a trace exceeds compile limits; for CI", "tlscope check"};
  std::string log;
  Limits l;
  add_options(app, &log, &l);
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (int rc = check_arguments(log, l)) return rc;
  // An empty file holds nothing to check: it fails, unless that is allowed.
  std::error_code ec;
  bool allowed_empty = l.allow_empty && log != "-" && !is_dir(log) &&
                       std::filesystem::file_size(log, ec) == 0 && !ec;
  Side a, b;  // with --same-artifacts: both logs, read once for totals and artifacts
  bool pair = l.same_artifacts && !allowed_empty;
  if (pair && !read_pair(l.baseline, log, &a, &b)) return 1;
  std::optional<analysis::Totals> base;
  if (pair) {
    base = a.figures.totals;
  } else if (!l.baseline.empty()) {
    auto d = diagnose_input(l.baseline);
    if (!d) return 1;
    base = d->one ? d->one->totals : sum_of(d->ranks);
  }
  if (allowed_empty) {
    if (l.json)
      print_json(Labelled{{"", analysis::Totals{}}}, {});
    else
      std::printf("tlscope check: ok (nothing compiled: %s is empty; --allow-empty)\n",
                  log.c_str());
    return 0;
  }
  auto logs =
      pair ? std::optional<Labelled>(Labelled{{"", b.figures.totals}}) : totals_of(log, l.json);
  if (!logs) return 1;
  std::vector<std::string> over;
  size_t empty = 0;
  for (const auto& [label, t] : *logs) {
    // Nothing compiled: no limit can be checked, which a gate must not
    // take for a pass.
    if (t.empty()) {
      ++empty;
      if (!l.allow_empty)
        over.push_back(fmt::format("{}nothing was compiled (no frame, graph break or failure in "
                                   "{}); pass --allow-empty if that is expected",
                                   label, log == "-" ? "standard input" : log));
      continue;
    }
    over_limits(label, t, l, base, &over);
  }
  if (pair && empty == 0)
    for (const auto& c : artifact_changes(a, b))
      over.push_back("artifact differs from the baseline: " + c);
  if (l.json) {
    print_json(*logs, over);
  } else {
    for (const auto& line : over) std::printf("tlscope check: %s\n", line.c_str());
    if (over.empty()) print_ok(*logs, empty, l.same_artifacts);
  }
  return over.empty() ? 0 : 1;
}

}  // namespace tlscope::cli
