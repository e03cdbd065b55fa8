// `tlscope LOG|TRACE_DIR --follow [-o OUT] [--serve]` (issue 29): the report
// written while the program writes its log. Each compile's pages are written
// as its records come; index.html (which reloads itself and marks what is
// new), summary.json, the failures page and compile_directory.json are
// rewritten every few seconds, every file replaced atomically; the terminal
// shows the events and a status line. Ctrl+C or --idle ends it, and the
// report is then the one a run on the log as read writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/report_outcome.h"
#include "report/options.h"

namespace tlscope::cli {

struct FollowReport {
  std::string path;  // a log, or a TORCH_TRACE folder (its newest file, waited for)
  std::string out;
  bool overwrite = false;
  double idle_s = 0;  // end after this long without a new byte; 0: at Ctrl+C only
  bool quiet = false;
  bool serve = false;  // served while written, and after until Ctrl+C
  std::string host;
  std::optional<uint16_t> port;
  Strictness strictness;  // the exit status a run on the finished log would have
};
int follow_report(const FollowReport& f, const report::Options& opts);

// The command line the report shows: the one of a run on the finished log
// (without --follow, --idle and --quiet), so that both write the same pages.
std::string report_command_line(int argc, char** argv);

}  // namespace tlscope::cli
