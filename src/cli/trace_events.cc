#include "cli/trace_events.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "analysis/classify.h"
#include "analysis/graph_breaks.h"
#include "cli/diagnosed.h"
#include "cli/follow.h"

namespace tlscope::cli {
namespace {

std::atomic<bool> g_stop{false};
// A second Ctrl+C while the first is still being acted on ends the process
// at once (the default action).
extern "C" void on_stop_signal(int sig) {
  if (g_stop.exchange(true)) {
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}

std::string id_of(const std::optional<trace::CompileId>& id) {
  return id ? " " + id->display() : std::string();
}
// "of forward [0/1]", or " [0/4]" where PyTorch logged no name.
std::string of(const std::string& prefix, const model::MetricsRecord& r) {
  return (r.co_name.empty() ? std::string() : fmt::format(" {} {}", prefix, r.co_name)) +
         id_of(r.id);
}

}  // namespace

void catch_follow_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

const std::atomic<bool>* follow_stop_flag() { return &g_stop; }
void clear_follow_stop() { g_stop.store(false); }

TraceEvents::TraceEvents(bool quiet, std::string prefix, bool status)
    : quiet_(quiet),
      prefix_(std::move(prefix)),
      status_(status && !quiet && ::isatty(STDERR_FILENO) != 0) {}

void TraceEvents::after_record(const model::ReportModel& m) {
  for (; metrics_ < m.metrics.size(); ++metrics_) on_metrics(m.metrics[metrics_]);
  for (; breaks_ < m.graph_break_notes.size(); ++breaks_) on_break(m.graph_break_notes[breaks_]);
  status(false);
}

void TraceEvents::done() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void TraceEvents::say(const std::string& text) {
  if (quiet_) return;
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
  say_event(prefix_ + text);
}

void TraceEvents::on_metrics(const model::MetricsRecord& r) {
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

void TraceEvents::on_break(const model::GraphBreakNote& b) {
  ++graph_breaks_;
  say(fmt::format("graph break{}: {} ({})", id_of(b.id),
                  event_text(analysis::graph_break_cause_text(b.text)).substr(0, 300),
                  analysis::category_name(analysis::classify_graph_break(b.text))));
}

void TraceEvents::status(bool force) {
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

}  // namespace tlscope::cli
