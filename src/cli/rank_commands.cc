#include "analysis/text.h"
#include "cli/rank_commands.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/checks.h"
#include "cli/report_flags.h"
#include "cli/subcommands.h"
#include "io/rank_logs.h"
#include "io/shard.h"
#include "jobs/multirank.h"
#include "jobs/rank_files.h"
#include "jobs/rank_map.h"
#include "jobs/rank_merge.h"

namespace tlscope::cli {
namespace fs = std::filesystem;

namespace {

struct RankArgs {
  std::string path, out;
  std::optional<uint32_t> rank;
  std::string shard;
  bool from_env = false;
  std::optional<unsigned> jobs;
  ReportFlags report;
};

const char* env(const char* name) { return std::getenv(name); }

// Exit code for the ranks mapped: 1 if one has no report or, with --strict,
// has lines that could not be used.
int outcome(const std::vector<jobs::RankMapResult>& results, bool strict) {
  uint64_t failed = 0, strict_lines = 0;
  for (const auto& r : results) {
    if (!r.ok) {
      ++failed;
      std::fprintf(stderr, "Error: %s\n", r.error.c_str());
      continue;
    }
    const auto& s = r.summary;
    if (!s.error.empty()) {
      ++failed;
      std::fprintf(stderr, "Error: %s\n", s.problem.c_str());
    } else if (!s.problem.empty()) {
      warning(s.problem);
    }
    strict_lines += s.strict_failures;
  }
  if (failed > 0 && results.size() == 1) return kExitError;  // said above
  if (failed > 0)
    return error(fmt::format("{} of the {} {} no report", failed,
                             analysis::count_of(results.size(), "rank", "ranks"),
                             failed == 1 ? "has" : "have"));
  if (strict && strict_lines > 0)
    return error(fmt::format("--strict: {} could not be used",
                             analysis::count_of(strict_lines, "log line", "log lines")));
  return 0;
}

// `tlscope rank LOG -o OUT/rank_<N>`: one log, one rank folder.
int map_one_log(const RankArgs& a, const report::Options& opts) {
  if (!a.shard.empty() || a.from_env)
    return error(a.path + " is a file: --shard and --from-env pick rank logs from a folder",
                 kExitUsage);
  if (int rc = check_log_path(a.path, LogArg::kFile)) return rc;
  std::string out_name = fs::path(a.out).lexically_normal().filename().string();
  if (out_name.empty()) out_name = fs::path(a.out).lexically_normal().parent_path().filename();
  auto from_log = io::rank_of_log_name(fs::path(a.path).filename().string());
  auto from_out = jobs::rank_of_folder_name(out_name);
  std::optional<uint32_t> rank = a.rank ? a.rank : from_log ? from_log : from_out;
  if (!rank)
    return error(
        fmt::format("cannot tell which rank {} is: its name is not "
                    "dedicated_log_torch_trace_rank_<N>..., nor is -o rank_<N>; pass --rank N",
                    a.path),
        kExitUsage);
  if (from_out && *from_out != *rank)
    return error(fmt::format("-o {} names rank {}, but the log is rank {}'s: use -o .../rank_{} "
                             "or --rank {}",
                             a.out, *from_out, *rank, *rank, *from_out),
                 kExitUsage);
  std::printf("Processing rank %u \u2192 %s\n", *rank, a.out.c_str());
  std::fflush(stdout);
  return outcome({jobs::map_rank({*rank, a.path}, a.out, opts)}, a.report.strict);
}

// `tlscope rank DIR -o OUT [--shard I/K | --from-env]`: this task's share of
// the folder's rank logs, each into OUT/rank_<N>.
int map_folder(const RankArgs& a, const report::Options& opts) {
  if (a.rank)
    return error("--rank names the rank of one log; " + a.path + " is a folder", kExitUsage);
  if (!a.shard.empty() && a.from_env)
    return error("give --shard or --from-env, not both", kExitUsage);
  if (int rc = check_log_path(a.path, LogArg::kFolder, "rank")) return rc;
  io::Shard shard{0, 1, "all"};
  std::string why;
  if (!a.shard.empty() || a.from_env) {
    auto s = a.from_env ? io::shard_from_env(env, &why) : io::parse_shard(a.shard, &why);
    if (!s) return error(why, kExitUsage);
    shard = *s;
  }
  std::vector<io::RankLog> logs;
  std::vector<std::string> ignored;
  if (!io::discover_rank_logs(a.path, &logs, &ignored, &why)) return error(why);
  if (shard.index == 0)
    for (const auto& i : ignored) std::fprintf(stderr, "Ignoring %s\n", i.c_str());
  std::error_code ec;
  fs::create_directories(a.out, ec);
  if (!fs::is_directory(a.out, ec)) return error("Cannot create " + a.out);
  if (!jobs::write_rank_listing(a.out, {a.path, logs}, &why)) return error(why);
  auto mine = io::select_shard(logs, shard);
  if (shard.count > 1)
    std::printf("Task %llu of %llu (%s): %zu of the %zu rank logs\n",
                static_cast<unsigned long long>(shard.index),
                static_cast<unsigned long long>(shard.count), shard.source.c_str(), mine.size(),
                logs.size());
  unsigned jobs = a.jobs ? *a.jobs : io::jobs_for_task(env);
  auto results = jobs::map_ranks(mine, a.out, opts, jobs);
  int rc = outcome(results, a.report.strict);
  if (rc == 0) std::printf("When every task is done: tlscope merge %s\n", a.out.c_str());
  return rc;
}

}  // namespace

int rank_command(int argc, char** argv) {
  CLI::App app{
      "The map step of a multi-rank report: the report of one rank log, with the "
      "rank_summary.json that `tlscope merge` reads, put in place atomically. Given a folder of "
      "rank logs, maps this task's share of them (--shard I/K, or --from-env under mpirun, srun "
      "or a Slurm array) into OUT/rank_<N>. See docs/cluster.md.",
      "tlscope rank"};
  RankArgs a;
  app.add_option("path", a.path, "A rank log (plain, .gz or .zst), or a folder of rank logs")
      ->required();
  app.add_option("-o", a.out,
                 "For a log: its rank folder (OUT/rank_<N>); for a folder: the job's output "
                 "folder")
      ->required()
      ->check(non_empty_folder());
  app.add_option("--rank", a.rank, "The log's rank, when its file name does not say")
      ->check(CLI::Range(uint32_t{0}, UINT32_MAX));
  app.add_option("--shard", a.shard, "Take the logs i with i % K == I (I/K, 0 <= I < K)");
  app.add_flag("--from-env", a.from_env,
               "Take I and K from mpirun (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE), a Slurm "
               "array (SLURM_ARRAY_TASK_ID/COUNT) or srun (SLURM_PROCID/NTASKS)");
  app.add_option("--jobs", a.jobs,
                 "Rank logs read at once (default: this task's CPUs, shared with the other "
                 "tasks mpirun started on the machine)")
      ->check(CLI::Range(1u, 4096u));
  add_report_flags(app, &a.report);
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  auto opts = report_options(a.report, command_line(argc, argv));
  std::error_code ec;
  if (fs::is_directory(a.path, ec)) return map_folder(a, opts);
  return map_one_log(a, opts);
}

int merge_command(int argc, char** argv) {
  CLI::App app{
      "The reduce step of a multi-rank report: the landing page, the combined chromium trace "
      "and every cross-rank analysis, from OUT/rank_<N>/rank_summary.json alone (rank logs are "
      "not read). See docs/cluster.md.",
      "tlscope merge"};
  std::string out;
  bool strict = false;
  std::string header;
  std::optional<unsigned> jobs;
  app.add_option("folder", out, "The job's output folder, holding the rank_<N> folders")
      ->required();
  app.add_flag("--strict", strict,
               "Exit 1 if the page lists a problem: a rank without a report, a missing rank, "
               "lines that could not be used");
  app.add_option("--custom-header-html", header,
                 "HTML inserted at the top of index.html (not escaped)");
  app.add_option("--jobs", jobs, "Rank summaries read at once (default: the CPUs)")
      ->check(CLI::Range(1u, 4096u));
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  if (out.empty()) return error("the folder name is empty", kExitUsage);
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(out, ec))) return error(out + ": no such folder");
  if (!fs::is_directory(out, ec)) return error(out + " is not a folder");
  report::Options opts;
  opts.custom_header_html = header;
  opts.command_line = command_line(argc, argv);
  auto r = jobs::merge_ranks(out, opts, jobs ? *jobs : io::jobs_for_task(env));
  for (const auto& n : r.notes) std::fprintf(stderr, "%s\n", n.c_str());
  if (!r.ok) return error(r.error);
  for (const auto& p : r.problems) std::fprintf(stderr, "%s\n", p.c_str());
  std::printf("Report: %s\n", (fs::path(out) / "index.html").c_str());
  if (r.failed > 0)
    warning(fmt::format("{} {} no report; the page lists them",
                        analysis::count_of(r.failed, "rank", "ranks"), r.failed == 1 ? "has" : "have"));
  if (strict && !r.problems.empty())
    return error(fmt::format("--strict: the page lists {} problem(s)", r.problems.size()));
  return 0;
}

}  // namespace tlscope::cli
