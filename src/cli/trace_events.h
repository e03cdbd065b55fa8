// What a followed TORCH_TRACE log gained, said as it comes (`summary LOG
// --follow` and the report's `--follow`): one line per recompile, failure
// and graph break, and on a terminal a status line of the totals so far.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>

#include "model/report_model.h"

namespace tlscope::cli {

// Ctrl+C (and SIGTERM) end the following, not the process: what was read is
// still summarised or reported (a second one, before that is done, ends the
// process). The flag they set, for io::FollowOptions::stop.
void catch_follow_signals();
const std::atomic<bool>* follow_stop_flag();
// Lowers the flag again (to wait for the next Ctrl+C).
void clear_follow_stop();

class TraceEvents {
 public:
  // `prefix` starts each event line ("rank 3: "); `status`: the status line
  // on a terminal (one follower of several has none). `quiet`: neither.
  explicit TraceEvents(bool quiet, std::string prefix = "", bool status = true);
  // After each record: what the model gained since the last call.
  void after_record(const model::ReportModel& m);
  // While the log is quiet (the status line, at most four times a second).
  void waiting() { status(false); }
  // Clears the status line.
  void done();

 private:
  void say(const std::string& text);
  void on_metrics(const model::MetricsRecord& r);
  void on_break(const model::GraphBreakNote& b);
  void status(bool force);

  bool quiet_;
  std::string prefix_;
  bool status_, shown_ = false;
  size_t metrics_ = 0, breaks_ = 0;
  size_t compiles_ = 0, recompiles_ = 0, graph_breaks_ = 0, failures_ = 0;
  double seconds_ = 0;
  std::chrono::steady_clock::time_point last_status_{};
};

}  // namespace tlscope::cli
