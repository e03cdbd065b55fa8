// `tlscope summary LOG|DIR --follow`: the doctor of a TORCH_TRACE log, or of
// a job's rank logs, as they are written.
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cli/checks.h"
#include "cli/follow.h"
#include "cli/trace_events.h"
#include "io/follow_source.h"
#include "io/input_path.h"
#include "io/line_reader.h"
#include "io/rank_logs.h"
#include "io/rank_watch.h"
#include "model/ingest/options.h"
#include "model/ingest/read_log.h"

namespace tlscope::cli {

FolderKind what_to_follow(const std::string& dir, double idle_s, std::string* log) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  bool said = false;
  for (;;) {
    std::vector<io::RankLog> ranks;
    std::vector<std::string> ignored;
    std::string error;
    if (io::discover_rank_logs(dir, &ranks, &ignored, &error)) return FolderKind::kJob;
    if (io::resolve_input(dir, true, log, &error)) {
      std::fprintf(stderr, "Following the newest file in %s: %s\n", shown(dir).c_str(),
                   shown(*log).c_str());
      return FolderKind::kLog;
    }
    if (!said) std::fprintf(stderr, "Waiting for a log in %s\n", shown(dir).c_str());
    said = true;
    if (follow_stop_flag()->load() ||
        (idle_s > 0 && Clock::now() - start > std::chrono::duration<double>(idle_s))) {
      cli::error("No log appeared in " + dir);
      return FolderKind::kNone;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

namespace {

// A job's folder: each rank log followed on a thread of its own as it comes
// (io::watch_rank_logs), its events said with "rank N: " first; at the end
// the summary `summary DIR` prints of the logs as read.
int follow_job(const FollowTrace& f, const SummaryFormat& format) {
  std::mutex mu;
  std::map<uint32_t, analysis::RankDiagnosis> done;
  std::map<uint32_t, std::unique_ptr<TraceEvents>> events;
  io::RankWatch w;
  w.dir = f.log;
  w.idle_s = f.idle_s;
  w.stop = follow_stop_flag();
  w.on_new_rank = [&](const io::RankLog& log) {
    std::lock_guard<std::mutex> lock(mu);
    events[log.rank] =
        std::make_unique<TraceEvents>(f.quiet, fmt::format("rank {}: ", log.rank), false);
    std::fprintf(stderr, "Following rank %u: %s\n", log.rank, shown(log.path).c_str());
  };
  w.follow = [&](const io::RankLog& log) {
    TraceEvents* ev;
    {
      std::lock_guard<std::mutex> lock(mu);
      ev = events.at(log.rank).get();
    }
    io::FollowOptions opts;
    opts.idle_s = f.idle_s;
    opts.stop = follow_stop_flag();
    analysis::RankDiagnosis d;
    std::string why;
    if (auto source = io::follow_file(log.path, opts, &why)) {
      io::LineReader lines(std::move(source));
      model::ReportModel model;
      model.input_path = log.path;
      ingest::ReadOptions ropts;
      ropts.ingest = ingest::doctor_options(true);
      ropts.ingest.message_prefix = fmt::format("rank {}: ", log.rank);
      ropts.after_record = [&] {
        std::lock_guard<std::mutex> lock(mu);
        ev->after_record(model);
      };
      ingest::read_records(lines, &model, ropts);
      d = analysis::diagnose_rank(log.rank, log.path, model);
    } else {
      d.error = why;
    }
    d.log = log;
    std::lock_guard<std::mutex> lock(mu);
    done[log.rank] = std::move(d);
  };
  std::fprintf(stderr, "Following the rank logs of %s as they come; Ctrl+C ends it\n",
               shown(f.log).c_str());
  io::watch_rank_logs(w);
  if (done.empty()) return error("No rank log appeared in " + f.log);
  Diagnosed d;
  for (auto& [rank, r] : done) d.ranks.push_back(std::move(r));
  print_summary(d, f.log, format);
  return 0;
}

}  // namespace

int follow_trace(const FollowTrace& f, const SummaryFormat& format) {
  catch_follow_signals();
  if (is_dir(f.log)) {
    std::string log;
    switch (what_to_follow(f.log, f.idle_s, &log)) {
      case FolderKind::kNone:
        return 1;
      case FolderKind::kJob:
        return follow_job(f, format);
      case FolderKind::kLog: {
        FollowTrace one = f;
        one.log = log;
        return follow_trace(one, format);
      }
    }
  }
  model::ReportModel model;
  model.input_path = f.log;
  TraceEvents events(f.quiet);
  io::FollowOptions opts;
  opts.idle_s = f.idle_s;
  opts.stop = follow_stop_flag();
  opts.on_wait = [&] { events.waiting(); };
  std::string why;
  auto source = io::follow_file(f.log, opts, &why);
  if (!source) return error(why);
  io::LineReader lines(std::move(source));
  ingest::ReadOptions ropts;
  ropts.ingest = ingest::doctor_options(false);
  ropts.after_record = [&] { events.after_record(model); };
  ingest::read_records(lines, &model, ropts);
  events.done();
  Diagnosed d;
  d.one = analysis::diagnose(model);
  print_summary(d, f.log, format);
  return 0;
}

}  // namespace tlscope::cli
