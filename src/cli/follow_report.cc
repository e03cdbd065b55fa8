// `tlscope LOG|TRACE_DIR --follow [-o OUT] [--serve]`: the report of a log
// while its program writes it (issue 29).
#include "cli/follow_report.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cli/checks.h"
#include "cli/trace_events.h"
#include "io/follow_source.h"
#include "io/input_path.h"
#include "io/rank_logs.h"
#include "jobs/pipeline.h"
#include "serve/serve.h"
#include "trace/content.h"

namespace tlscope::cli {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool stopped() { return follow_stop_flag()->load(); }

// The log to follow in a TORCH_TRACE folder: its newest file, waited for
// when there is none yet (the program has not started writing). Several
// rank logs are refused: one report follows one log.
bool log_in_folder(const FollowReport& f, std::string* log) {
  auto start = Clock::now();
  bool said = false;
  for (;;) {
    std::vector<io::RankLog> ranks;
    std::vector<std::string> ignored;
    std::string error;
    if (io::discover_rank_logs(f.path, &ranks, &ignored, &error) && ranks.size() > 1) {
      cli::error(fmt::format("{} holds the logs of {} ranks: --follow follows one log; name "
                             "one (tlscope {} --follow)",
                             f.path, ranks.size(), ranks.front().path));
      return false;
    }
    if (io::resolve_input(f.path, true, log, &error)) {
      std::fprintf(stderr, "Following the newest file in %s: %s\n", f.path.c_str(), log->c_str());
      return true;
    }
    if (!said) std::fprintf(stderr, "Waiting for a log in %s\n", f.path.c_str());
    said = true;
    if (stopped() ||
        (f.idle_s > 0 && Clock::now() - start > std::chrono::duration<double>(f.idle_s))) {
      cli::error("No log appeared in " + f.path);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// TORCH_LOGS text has its own way to be followed; a log still empty is
// taken on trust.
int refuse_text(const std::string& log) {
  std::error_code ec;
  if (fs::file_size(log, ec) == 0 || ec) return 0;
  if (trace::sniff_content(log) != trace::Content::kText) return 0;
  return error(log + " is TORCH_LOGS text: follow it as the program prints it, with "
                     "`python train.py 2>&1 | tlscope summary - --follow`",
               kExitUsage);
}

// After the report is complete: served on until Ctrl+C.
void serve_until_stopped(const std::string& out) {
  clear_follow_stop();
  std::fprintf(stderr, "The report in %s is complete; still serving it: press Ctrl+C to stop\n",
               out.c_str());
  while (!stopped()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace

std::string report_command_line(int argc, char** argv) {
  std::string s = "tlscope";
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--follow" || a == "--quiet" || a.starts_with("--idle=")) continue;
    if (a == "--idle") {
      ++i;
      continue;
    }
    s += " ";
    s += a;
  }
  return s;
}

int follow_report(const FollowReport& f, const report::Options& opts) {
  catch_follow_signals();
  std::string log = f.path, why;
  std::error_code ec;
  if (fs::is_directory(f.path, ec) && !log_in_folder(f, &log)) return 1;
  if (int rc = refuse_text(log)) return rc;

  TraceEvents events(f.quiet);
  jobs::Follow follow;
  io::FollowOptions fo;
  fo.idle_s = f.idle_s;
  fo.stop = follow_stop_flag();
  fo.on_wait = [&] {
    events.waiting();
    if (follow.while_waiting) follow.while_waiting();
  };
  follow.source = io::follow_file(log, fo, &why);
  if (!follow.source) return error(why);
  if (!jobs::prepare_output_dir(f.out, f.overwrite, &why)) return error(why);
  follow.after_record = [&](const model::ReportModel& m) { events.after_record(m); };

  serve::BackgroundServer server;
  if (f.serve && !server.start({f.out, f.host, f.port})) return 1;
  std::fprintf(stderr, "Writing the report into %s as %s grows (index.html updates itself); "
                       "Ctrl+C ends it\n",
               f.out.c_str(), log.c_str());
  auto result = jobs::build_report(log, f.out, opts, {}, &follow);
  events.done();
  std::fprintf(stderr, "%s\n", result.model.stats.to_string().c_str());
  if (!result.ok) return error(result.error);
  std::fprintf(stderr, "Report written to %s\n",
               (fs::path(f.out) / "index.html").string().c_str());
  if (f.serve) serve_until_stopped(f.out);
  return 0;
}

}  // namespace tlscope::cli
