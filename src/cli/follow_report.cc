// `tlscope LOG|TRACE_DIR --follow [-o OUT] [--serve]`: the report of a log
// while its program writes it (issue 29).
#include "cli/follow_report.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cli/checks.h"
#include "cli/follow.h"
#include "cli/trace_events.h"
#include "io/follow_source.h"
#include "io/input_path.h"
#include "io/rank_logs.h"
#include "jobs/follow_ranks.h"
#include "jobs/pipeline.h"
#include "serve/serve.h"
#include "trace/content.h"

namespace tlscope::cli {
namespace {
namespace fs = std::filesystem;

bool stopped() { return follow_stop_flag()->load(); }

// No port to serve on: the folder just prepared (empty) is not left behind.
int drop_folder(const std::string& out) {
  std::error_code ec;
  fs::remove_all(out, ec);
  return 1;
}

// TORCH_LOGS text has its own way to be followed; a log still empty is
// taken on trust.
int refuse_text(const std::string& log) {
  std::error_code ec;
  if (fs::file_size(log, ec) == 0 || ec) return 0;
  if (trace::sniff_content(log) != trace::Content::kText) return 0;
  return error(log +
                   " is TORCH_LOGS text: follow it as the program prints it, with "
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

namespace {

// After the report is written (`rc`: the exit status a run on the finished
// log would have): where it is, and with --serve the report served until
// the next Ctrl+C.
int finish(const FollowReport& f, int rc) {
  std::fprintf(stderr, "Report written to %s\n", (fs::path(f.out) / "index.html").string().c_str());
  if (f.serve) serve_until_stopped(f.out);
  return rc;
}

// One log into one report.
int follow_log(const FollowReport& f, const std::string& log, const report::Options& opts) {
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
  std::string why;
  follow.source = io::follow_file(log, fo, &why);
  if (!follow.source) return error(why);
  if (!jobs::prepare_output_dir(f.out, f.overwrite, &why)) return error(why);
  follow.after_record = [&](const model::ReportModel& m) { events.after_record(m); };

  serve::BackgroundServer server;
  if (f.serve && !server.start({f.out, f.host, f.port})) return drop_folder(f.out);
  std::fprintf(stderr,
               "Writing the report into %s as %s grows (index.html updates itself); "
               "Ctrl+C ends it\n",
               shown(f.out).c_str(), shown(log).c_str());
  auto result = jobs::build_report(log, f.out, opts, {}, &follow);
  events.done();
  int rc = report_outcome(log, f.out, result, f.strictness);
  return result.ok ? finish(f, rc) : rc;
}

// A job's folder of rank logs into a multi-rank report.
int follow_job(const FollowReport& f, const report::Options& opts) {
  std::string why;
  if (!jobs::prepare_output_dir(f.out, f.overwrite, &why)) return error(why);
  std::mutex mu;
  std::map<uint32_t, std::unique_ptr<TraceEvents>> events;
  jobs::FollowRanks job;
  job.dir = f.path;
  job.out_dir = f.out;
  job.opts = opts;
  job.idle_s = f.idle_s;
  job.stop = follow_stop_flag();
  job.on_new_rank = [&](const io::RankLog& log) {
    std::lock_guard<std::mutex> lock(mu);
    events[log.rank] = std::make_unique<TraceEvents>(f.quiet, fmt::format("rank {}: ", log.rank),
                                                     /*status=*/false);
    std::fprintf(stderr, "Following rank %u: %s\n", log.rank, shown(log.path).c_str());
  };
  job.after_record = [&](uint32_t rank, const model::ReportModel& m) {
    std::lock_guard<std::mutex> lock(mu);
    events.at(rank)->after_record(m);
  };
  serve::BackgroundServer server;
  if (f.serve && !server.start({f.out, f.host, f.port})) return drop_folder(f.out);
  std::fprintf(stderr,
               "Writing the job's report into %s as its ranks write %s (index.html "
               "updates itself); Ctrl+C ends it\n",
               shown(f.out).c_str(), shown(f.path).c_str());
  auto result = jobs::follow_ranks(job);
  for (const auto& n : result.notes) std::fprintf(stderr, "%s\n", n.c_str());
  for (const auto& p : result.problems) std::fprintf(stderr, "%s\n", p.c_str());
  if (!result.ok) return error(result.error);
  return finish(f, ranks_outcome(f.out, result.strict_failures, f.strictness));
}

}  // namespace

int follow_report(const FollowReport& f, const report::Options& opts) {
  catch_follow_signals();
  std::error_code ec;
  if (!fs::is_directory(f.path, ec)) return follow_log(f, f.path, opts);
  std::string log;
  report::Options folder_opts = opts;
  switch (what_to_follow(f.path, f.idle_s, &log)) {
    case FolderKind::kNone:
      return 1;
    case FolderKind::kLog:  // the report `tlscope DIR --latest` writes
      folder_opts.command_line += " --latest";
      return follow_log(f, log, folder_opts);
    case FolderKind::kJob:  // the report `tlscope DIR --all-ranks-html` writes
      folder_opts.command_line += " --all-ranks-html";
      folder_opts.replace_atomically = true;  // the landing page and rank summaries too
      return follow_job(f, folder_opts);
  }
  return 1;
}

}  // namespace tlscope::cli
