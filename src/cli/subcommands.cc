#include "cli/subcommands.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "analysis/doctor.h"
#include "analysis/summary.h"
#include "cli/checks.h"
#include "cli/check_command.h"
#include "cli/diagnosed.h"
#include "cli/follow.h"
#include "cli/show_text.h"
#include "trace/compile_id.h"
#include "trace/content.h"
#include "trace/show.h"

namespace tlscope::cli {

std::string command_line(int argc, char** argv) {
  std::string s = "tlscope";
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

namespace {

// 0 when --follow, --idle and --quiet go together and with the input.
int check_follow_flags(const std::string& log, bool follow, bool quiet,
                       const std::optional<double>& idle) {
  if (!follow && (quiet || idle)) return error("--quiet and --idle go with --follow", kExitUsage);
  if (!follow) return 0;
  if (log == "-") {
    if (idle) return error("--idle is for a log: standard input ends with its program", kExitUsage);
    return 0;
  }
  if (is_dir(log)) return 0;  // a job's folder: its rank logs, as they come
  return check_log_path(log, LogArg::kFile);
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
  bool follow = false, quiet = false;
  std::optional<double> idle;
  app.add_flag("--follow", follow,
               "Read the log as its program writes it, saying each recompile, failure and graph "
               "break on standard error as it comes (and the totals so far, on a terminal); end "
               "at Ctrl+C or --idle, then print the summary. A folder: each rank log in it, and "
               "each that comes later. With - (TORCH_LOGS text on standard "
               "input): the input goes on to standard output unchanged, the summary to standard "
               "error, at the input's end");
  app.add_option("--idle", idle, "With --follow on a log: end after SECONDS without a new byte")
      ->check(non_negative_number());
  app.add_flag("--quiet", quiet,
               "With --follow: no event or status lines, only the summary at the end");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  SummaryFormat f{json, all, ::isatty(STDOUT_FILENO) != 0, command_line(argc, argv)};
  if (int rc = check_follow_flags(log, follow, quiet, idle)) return rc;
  if (follow && log == "-") {
    f.color = ::isatty(STDERR_FILENO) != 0;
    return follow_text(f, quiet);
  }
  if (follow) return follow_trace({log, idle.value_or(0), quiet}, f);
  if (log != "-")
    if (int rc = check_log_path(log, LogArg::kFileOrRanks)) return rc;
  std::optional<Diagnosed> d;
  if (is_dir(log)) {
    auto ranks = diagnose_dir(log);
    if (!ranks) return 1;
    d = Diagnosed{std::nullopt, std::move(*ranks)};
  } else {
    d = diagnose_input(log);
    if (!d) return 1;
  }
  print_summary(*d, log, f);
  return 0;
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
    *exit_code = check_command(argc, argv);
  else if (cmd == "show")
    *exit_code = show(argc, argv);
  else
    return false;
  return true;
}

}  // namespace tlscope::cli
