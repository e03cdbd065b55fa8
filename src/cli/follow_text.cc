#include "analysis/text.h"
#include "cli/follow.h"

#include <csignal>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "analysis/classify.h"
#include "analysis/graph_breaks.h"
#include "cli/checks.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "model/ingest/torch_logs_model.h"
#include "trace/torch_logs.h"

namespace tlscope::cli {
namespace {

namespace tl = trace::torch_logs;


std::string where(const std::string& function, const std::string& file, int64_t line) {
  if (function.empty() && file.empty()) return "a frame";
  if (file.empty()) return function;
  return fmt::format("{} ({}:{})", function.empty() ? "?" : function, file, line);
}

std::string rank_prefix(const std::optional<uint32_t>& rank) {
  return rank ? fmt::format("rank {}: ", *rank) : std::string();
}

// Says the events the reader has closed since the last call, once each.
class EventLines {
 public:
  explicit EventLines(const tl::Events& events) : events_(events) {}

  void say_new() {
    for (; recompiles_ < events_.recompiles.size(); ++recompiles_)
      say_recompile(events_.recompiles[recompiles_]);
    for (; limits_ < events_.limit_hits.size(); ++limits_) say_limit(events_.limit_hits[limits_]);
    for (; breaks_ < events_.graph_breaks.size(); ++breaks_) say_break(events_.graph_breaks[breaks_]);
  }

 private:
  void say(const std::string& text) { say_event(text); }

  void say_recompile(const tl::Recompile& r) {
    size_t n = ++per_frame_[{r.rank, r.function, r.file, r.line}];
    std::string guard = r.reasons.empty() ? std::string("(no reason printed)") : event_text(r.reasons.front());
    auto category = analysis::classify_recompile(guard);
    std::string id = r.compile_id.empty() ? std::string() : " [" + r.compile_id + "]";
    std::string near = near_limit(n);
    say(fmt::format("{}recompile of {}{}: {} ({}){}", rank_prefix(r.rank),
                    where(r.function, r.file, r.line), id, guard,
                    analysis::category_name(category), near));
  }

  void say_limit(const tl::LimitHit& h) {
    say(fmt::format("{}{} hit {} ({}): it runs eagerly from now on{}", rank_prefix(h.rank),
                    where(h.function, h.file, h.line), h.limit_name, h.limit,
                    h.last_reason.empty() ? std::string() : "; last reason: " + event_text(h.last_reason)));
  }

  void say_break(const tl::GraphBreak& b) {
    if (b.duplicate) return;
    auto category = analysis::classify_graph_break(b.text);
    say(fmt::format("{}graph break in {}: {} ({})", rank_prefix(b.rank),
                    where(b.function, b.file, b.line), event_text(analysis::graph_break_cause_text(b.text)),
                    analysis::category_name(category)));
  }

  const tl::Events& events_;
  size_t recompiles_ = 0, limits_ = 0, breaks_ = 0;
  std::map<std::tuple<std::optional<uint32_t>, std::string, std::string, int64_t>, size_t>
      per_frame_;
};

}  // namespace

std::string near_limit(size_t recompiles) {
  size_t compiles = recompiles + 1;
  if (compiles * 2 < kDefaultRecompileLimit) return "";
  return fmt::format("; compile {} of {} before it runs eagerly (the default recompile_limit)",
                     compiles, kDefaultRecompileLimit);
}

std::string shown(const std::string& path) { return analysis::terminal_safe(path, false); }

void say_event(const std::string& text) {
  std::string line = analysis::terminal_safe(text, false);
  for (char& c : line)
    if (c == '\n') c = '?';
  std::fprintf(stderr, "tlscope: %s\n", line.c_str());
  std::fflush(stderr);
}

std::string event_text(std::string_view text) {
  size_t colon = text.find(": ");
  if (colon != std::string_view::npos && colon < 12 &&
      text.substr(0, colon).find_first_not_of("0123456789/_") == std::string_view::npos)
    text.remove_prefix(colon + 2);
  constexpr std::string_view kLabel = "Graph Break Reason: ";
  if (text.substr(0, kLabel.size()) == kLabel) text.remove_prefix(kLabel.size());
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

int follow_text(const SummaryFormat& format, bool quiet) {
  std::string why;
  auto source = io::open_source("/dev/stdin", &why);
  if (!source) return error(why);
  io::LineReader lines(std::move(source));
  // The program's output goes on as it comes, partial lines included. When
  // standard output goes away (`| head`), tlscope must not die and take the
  // program down with its pipe: it stops passing output on and reads on.
  ::signal(SIGPIPE, SIG_IGN);
  bool passing = true;
  lines.set_tee([&passing](const char* p, size_t n) {
    if (!passing) return;
    if (std::fwrite(p, 1, n, stdout) != n || std::fflush(stdout) != 0) passing = false;
  });
  tl::Reader reader;
  EventLines events(reader.events());
  io::Line line;
  while (lines.next(&line)) {
    reader.feed(line.text);
    if (!quiet) events.say_new();
  }
  reader.finish();
  if (!quiet) events.say_new();
  if (!lines.error().empty()) return error("standard input: " + lines.error());
  Diagnosed d = diagnose_models(ingest::text_models(reader.events(), "-"), "-");
  std::string out = summary_output(d, "-", format);
  std::fwrite(out.data(), 1, out.size(), stderr);
  return 0;
}

}  // namespace tlscope::cli
