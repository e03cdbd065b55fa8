#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include <fmt/format.h>

#include "analysis/classify.h"
#include "analysis/graph_breaks.h"
#include "cli/checks.h"
#include "cli/follow.h"
#include "io/follow_source.h"
#include "io/line_reader.h"
#include "model/ingest/options.h"
#include "model/ingest/read_log.h"

namespace tlscope::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop.store(true); }

// Ctrl+C (and SIGTERM) end the following, not the process: the summary of
// what was read still comes.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

// What the model gained since the last look, said once each; and the status
// line of the totals so far (on a terminal).
class TraceEvents {
 public:
  TraceEvents(const model::ReportModel& m, bool quiet)
      : m_(m), quiet_(quiet), status_(::isatty(STDERR_FILENO) != 0) {}

  void after_record() {
    for (; metrics_ < m_.metrics.size(); ++metrics_) on_metrics(m_.metrics[metrics_]);
    for (; breaks_ < m_.graph_break_notes.size(); ++breaks_) on_break(m_.graph_break_notes[breaks_]);
    status(false);
  }
  void waiting() { status(false); }
  void done() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }

 private:
  static std::string id_of(const std::optional<trace::CompileId>& id) {
    return id ? " " + id->display() : std::string();
  }
  // "of forward [0/1]", or " [0/4]" where PyTorch logged no name.
  static std::string of(const std::string& prefix, const model::MetricsRecord& r) {
    return (r.co_name.empty() ? std::string() : " " + prefix + " " + r.co_name) + id_of(r.id);
  }

  void say(const std::string& text) {
    if (quiet_) return;
    if (shown_) std::fputs("\r\033[K", stderr);
    shown_ = false;
    say_event(text);
  }

  void on_metrics(const model::MetricsRecord& r) {
    ++compiles_;
    if (r.entire_frame_s) seconds_ += *r.entire_frame_s;
    size_t n = r.id && r.id->frame_compile_id ? *r.id->frame_compile_id : 0;
    if (n > 0) ++recompiles_;  // a failed recompile is one too, as the doctor counts
    if (r.fail_type) {
      ++failures_;
      std::string reason = r.fail_reason ? event_text(*r.fail_reason) : std::string();
      say(fmt::format("failure{}{}: {}{}", of("in", r),
                      n > 0 ? fmt::format(" (recompile {})", n) : std::string(), *r.fail_type,
                      reason.empty() ? std::string() : ": " + reason.substr(0, 300)));
      return;
    }
    if (n == 0) return;
    std::string reason =
        r.recompile_reason ? event_text(*r.recompile_reason) : std::string("(no reason logged)");
    std::string near = near_limit(n);
    say(fmt::format("recompile{}: {} ({}){}", of("of", r), reason.substr(0, 300),
                    analysis::category_name(analysis::classify_recompile(reason)), near));
  }

  void on_break(const model::GraphBreakNote& b) {
    ++graph_breaks_;
    say(fmt::format("graph break{}: {} ({})", id_of(b.id),
                    event_text(analysis::graph_break_cause_text(b.text)).substr(0, 300),
                    analysis::category_name(analysis::classify_graph_break(b.text))));
  }

  // At most four times a second, rewritten in place.
  void status(bool force) {
    if (!status_) return;
    auto now = std::chrono::steady_clock::now();
    if (!force && now - last_status_ < std::chrono::milliseconds(250)) return;
    last_status_ = now;
    std::fprintf(stderr, "\r\033[Ktlscope: following: %s, %s, %s, %s, %.1f s compiling",
                 plural(compiles_, "compile", "compiles").c_str(),
                 plural(recompiles_, "recompile", "recompiles").c_str(),
                 plural(graph_breaks_, "graph break", "graph breaks").c_str(),
                 plural(failures_, "failure", "failures").c_str(), seconds_);
    std::fflush(stderr);
    shown_ = true;
  }

  const model::ReportModel& m_;
  bool quiet_, status_, shown_ = false;
  size_t metrics_ = 0, breaks_ = 0;
  size_t compiles_ = 0, recompiles_ = 0, graph_breaks_ = 0, failures_ = 0;
  double seconds_ = 0;
  std::chrono::steady_clock::time_point last_status_{};
};

}  // namespace

int follow_trace(const FollowTrace& f, const SummaryFormat& format) {
  catch_stop_signals();
  model::ReportModel model;
  model.input_path = f.log;
  TraceEvents events(model, f.quiet);
  io::FollowOptions opts;
  opts.idle_s = f.idle_s;
  opts.stop = &g_stop;
  opts.on_wait = [&] { events.waiting(); };
  std::string why;
  auto source = io::follow_file(f.log, opts, &why);
  if (!source) return error(why);
  io::LineReader lines(std::move(source));
  ingest::ReadOptions ropts;
  ropts.ingest = ingest::doctor_options(false);
  ropts.after_record = [&] { events.after_record(); };
  ingest::read_records(lines, &model, ropts);
  events.done();
  Diagnosed d;
  d.one = analysis::diagnose(model);
  std::string out = summary_output(d, f.log, format);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace tlscope::cli
