// The terminal summary (its JSON is summary_json.cc).
#include <algorithm>
#include <memory>
#include <fmt/format.h>

#include "analysis/summary.h"
#include "analysis/text.h"

namespace tlscope::analysis {

std::string totals_line(const Totals& t) {
  if (!t.timed)  // TORCH_LOGS text: limit hits instead of the times it has not
    return fmt::format("{}, {}, {}, {}, {}, {}", count_of(t.frames, "frame", "frames"),
                       count_of(t.compiles, "compile", "compiles"),
                       count_of(t.recompiles, "recompile", "recompiles"),
                       count_of(t.graph_breaks, "graph break", "graph breaks"),
                       count_of(t.failures, "failure", "failures"),
                       count_of(t.recompile_limit_hits, "recompile limit hit",
                                "recompile limit hits"));
  return fmt::format("{}, {}, {}, {}, {}, {:.2f} s compiling",
                     count_of(t.frames, "frame", "frames"),
                     count_of(t.compiles, "compile", "compiles"),
                     count_of(t.recompiles, "recompile", "recompiles"),
                     count_of(t.graph_breaks, "graph break", "graph breaks"),
                     count_of(t.failures, "failure", "failures"), t.compile_time_s);
}

namespace {

// The log as the header names it: the whole path when it fits, else its
// file name after "...", so that the name is never what gets cut.
std::string log_label(const std::string& log, size_t n) {
  if (log.size() <= n) return log;
  size_t slash = log.rfind('/');
  std::string name = slash == std::string::npos ? log : log.substr(slash + 1);
  if (name.size() + 4 > n) return clip(name, n);
  return ".../" + name;
}

}  // namespace

namespace {

// The terminal's summary, section by section.
struct SummaryText {
  const DoctorReport& d;
  size_t width;
  bool color;
  std::string o;

  std::string bold(const std::string& s) const { return color ? "\033[1m" + s + "\033[0m" : s; }
  std::string warn(const std::string& s) const { return color ? "\033[33m" + s + "\033[0m" : s; }

  void header(const std::string& log) {
    const auto& t = d.totals;
    o = bold("tlscope summary") + ": " + log_label(log, width - 17) + "\n";
    if (!d.torch_version.empty()) o += "PyTorch " + d.torch_version + "\n";
    if (d.source_kind == "torch_logs")
      o += wrap(fmt::format("TORCH_LOGS text: {} lines, {} of them not TORCH_LOGS messages. Text "
                            "has no compile times, graphs or generated code, and names compile "
                            "ids only where its prefix prints them; a TORCH_TRACE log "
                            "(TORCH_TRACE=/tmp/trace python ...) has them all.",
                            d.text_lines, d.text_unknown_lines),
                width, 0) +
           "\n";
    o += totals_line(t) + "\n";
    if (t.empty()) o += "Nothing was compiled: the log holds no frame, graph break or failure.\n";
    if (d.several_runs())
      o += wrap(fmt::format("This log holds {} runs: Dynamo was reset and compiled again, so "
                            "compile ids repeat; each run's frames and compiles are counted.",
                            t.runs),
                width, 0) +
           "\n";
  }

  // A frame's row and a line per pattern of its recompile reasons (not one
  // per cached entry).
  void frame_row(const FrameReport& f, size_t name_w) {
    bool runs = d.several_runs();
    std::string rec = std::to_string(f.recompiles) + (f.recompile_limit_hit ? "!" : "");
    std::string run_cell = runs ? fmt::format("{:>3} ", f.run) : "";
    std::string time = d.totals.timed ? fmt::format("{:.3f}", f.compile_time_s) : "-";
    o += fmt::format("  {}{:>5} {:<{}} {:>8} {:>10} {:>9} {:>9}\n", run_cell, f.frame_id,
                     clip(f.name, name_w), name_w, f.compiles,
                     f.recompile_limit_hit ? warn(rec) : rec, f.restarts, time);
    for (const auto& g : group_reasons(f.recompile_reasons))
      o += "        " +
           clip(fmt::format("{}x [{}] ({}) {}", g.compile_ids.size(), category_name(g.category),
                            refs_text(g.compile_ids, false, 6), g.reason),
                width - 8) +
           "\n";
  }

  // Every frame with something to say, then the slowest few of those that
  // compiled once and cleanly, then a line for the rest.
  void frames(bool all_frames) {
    if (d.frames.empty()) return;
    constexpr size_t kQuietShown = 5;
    std::vector<const FrameReport*> rows, quiet;
    for (const auto& f : d.frames) {
      bool notable = f.recompiles > 0 || f.restarts > 0 || f.failures > 0 || f.recompile_limit_hit;
      (notable || all_frames ? rows : quiet).push_back(&f);
    }
    std::stable_sort(quiet.begin(), quiet.end(), [](const auto* a, const auto* b) {
      return a->compile_time_s > b->compile_time_s;
    });
    size_t hidden = quiet.size() > kQuietShown + 1 ? quiet.size() - kQuietShown : 0;
    double hidden_s = 0;
    for (size_t i = quiet.size() - hidden; i < quiet.size(); ++i) hidden_s += quiet[i]->compile_time_s;
    quiet.resize(quiet.size() - hidden);
    // Names as long as the terminal allows (at least 28 characters).
    size_t longest = 0;
    for (const auto* f : rows) longest = std::max(longest, f->name.size());
    for (const auto* f : quiet) longest = std::max(longest, f->name.size());
    size_t fixed = 48 + (d.several_runs() ? 4 : 0);  // the other columns of a row
    size_t name_w = std::max<size_t>(28, std::min(longest, width > fixed ? width - fixed : 28));
    o += "\n" + bold("Frames") + " (most recompiled first)\n";
    std::string run_head = d.several_runs() ? fmt::format("{:>3} ", "run") : "";
    o += fmt::format("  {}{:>5} {:<{}} {:>8} {:>10} {:>9} {:>9}\n", run_head, "frame", "function",
                     name_w, "compiles", "recompiles", "restarts", "time (s)");
    rows.insert(rows.end(), quiet.begin(), quiet.end());
    for (const auto* f : rows) frame_row(*f, name_w);
    if (hidden > 0)
      o += d.totals.timed
               ? fmt::format("  ... {} more frames compiled once, {:.2f} s (--all lists them)\n",
                             hidden, hidden_s)
               : fmt::format("  ... {} more frames compiled once (--all lists them)\n", hidden);
  }

  void breaks_and_failures() {
    if (!d.graph_breaks.empty()) {
      o += "\n" + bold("Graph breaks") + "\n";
      for (const auto& g : d.graph_breaks) {
        o += clip(fmt::format("  {:>3}x [{}] {}", g.count, category_name(g.category), g.reason),
                  width) +
             "\n";
        if (!g.user_frame.empty()) o += "       at " + clip(g.user_frame, width - 10) + "\n";
      }
    }
    if (d.failures.empty()) return;
    o += "\n" + bold("Failures") + "\n";
    for (const auto& f : d.failures) {
      std::string id = f.compile_id ? ref_label(*f.compile_id, d.several_runs()) : "(no frame)";
      o += clip(fmt::format("  {} {}: {}", id, f.fail_type, f.root_cause), width) + "\n";
      if (f.outside_frame && !f.user_frame.empty())
        o += "       at " + clip(f.user_frame, width - 10) + "\n";
    }
  }

  // What to do, and what happened as expected: a line per item with its ids.
  template <typename List>
  void items(const char* title, const List& list) {
    if (list.empty()) return;
    o += "\n" + bold(title) + "\n";
    for (const auto& a : list) {
      std::string ids = refs_text(a.compile_ids, d.several_runs());
      o += wrap(fmt::format("- [{}] {}{}", category_name(a.category), a.message,
                            ids.empty() ? "" : " (" + ids + ")"),
                width, 2) +
           "\n";
    }
  }
};

}  // namespace

std::string summary_text(const DoctorReport& d, const std::string& log, bool color, size_t width,
                         bool all_frames) {
  SummaryText t{d, width, color, {}};
  t.header(log);
  t.frames(all_frames);
  t.breaks_and_failures();
  t.items("What to do", d.advice);
  t.items("Expected", d.expected);
  return terminal_safe(std::move(t.o), color);
}

namespace {

// A rank's row of the multi-rank summary (limit hits for text, which has no
// times).
std::string rank_row(const RankDiagnosis& r, bool text, size_t width) {
  if (!r.error.empty()) return clip(fmt::format("  {:>5} error: {}", r.log.rank, r.error), width) + "\n";
  if (r.summary.no_records) return fmt::format("  {:>5} no readable records in the log\n", r.log.rank);
  const auto& t = r.doctor.totals;
  if (text)
    return fmt::format("  {:>5} {:>8} {:>10} {:>12} {:>8} {:>10}\n", r.log.rank, t.compiles,
                       t.recompiles, t.graph_breaks, t.failures, t.recompile_limit_hits);
  return fmt::format("  {:>5} {:>8} {:>10} {:>12} {:>8} {:>9.3f}\n", r.log.rank, t.compiles,
                     t.recompiles, t.graph_breaks, t.failures, t.compile_time_s);
}

}  // namespace

std::string ranks_summary_text(const std::vector<RankDiagnosis>& ranks, const MultiRankAnalysis& a,
                               bool color, size_t width) {
  auto bold = [&](const std::string& s) { return color ? "\033[1m" + s + "\033[0m" : s; };
  // TORCH_LOGS text that names several ranks: one file, no compile times.
  bool text = !ranks.empty() && std::all_of(ranks.begin(), ranks.end(), [](const auto& r) {
    return r.error.empty() && r.doctor.source_kind == "torch_logs";
  });
  std::string o = bold("tlscope summary") +
                  (text ? fmt::format(": TORCH_LOGS text of {} ranks ({})\n\n", ranks.size(),
                                      ranks.front().log.path)
                        : ": " + count_of(ranks.size(), "rank log", "rank logs") + "\n\n");
  o += fmt::format("  {:>5} {:>8} {:>10} {:>12} {:>8} {:>9}\n", "rank", "compiles", "recompiles",
                   "graph breaks", "failures", text ? "limit hits" : "time (s)");
  for (const auto& r : ranks) o += rank_row(r, text, width);
  o += "\n";
  if (!a.left_out.empty())
    o += fmt::format("Not compared: {} {} (no report or no readable records).\n",
                     a.left_out.size() == 1 ? "rank" : "ranks", rank_ranges(a.left_out));
  if (a.doctor.empty() && !a.left_out.empty()) {
    o += fmt::format("The {} compared ({}) compiled alike.\n",
                     a.ranks.size() == 1 ? "rank" : "ranks", rank_ranges(a.ranks));
  } else if (a.doctor.empty()) {
    o += "All ranks compiled alike.\n";
  } else {
    o += bold("Where ranks differ") + "\n";
    for (const auto& d : a.doctor) {
      std::string groups;
      for (size_t i = 0; i < d.groups.size(); ++i)
        groups += (i ? "; " : "") + std::string("ranks ") + rank_ranges(d.groups[i]);
      o += wrap(fmt::format(
                    "- {}{}: {}", d.what,
                    d.first_compile_id.empty() ? "" : " (first at " + d.first_compile_id + ")",
                    groups),
                width, 2) +
           "\n";
    }
  }
  // Advice of every rank, with the ranks it concerns.
  std::map<std::string, std::vector<uint32_t>> advice;
  for (const auto& r : ranks)
    for (const auto& ad : r.doctor.advice)
      advice[fmt::format("[{}] {}", category_name(ad.category), ad.message)].push_back(r.log.rank);
  if (!advice.empty()) {
    o += "\n" + bold("What to do") + "\n";
    for (const auto& [msg, rs] : advice)
      o += wrap("- " + msg + " (ranks " + rank_ranges(rs) + ")", width, 2) + "\n";
  }
  return terminal_safe(std::move(o), color);
}

}  // namespace tlscope::analysis
