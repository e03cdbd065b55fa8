// summary.json and the terminal summary.
#include <algorithm>
#include <memory>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "analysis/json_stream.h"
#include "analysis/text.h"

namespace tlscope::analysis {
namespace {

using nlohmann::json;

json ids_json(const std::vector<model::CompileRef>& ids) {
  json a = json::array();
  for (const auto& id : ids) a.push_back(id.id.bare());
  return a;
}

// The runs of `ids`, one for one.
json runs_json(const std::vector<model::CompileRef>& ids) {
  json a = json::array();
  for (const auto& id : ids) a.push_back(id.run);
  return a;
}

}  // namespace

namespace {

// summary.json's frames, each with its recompile reasons.
json frames_json(const DoctorReport& d) {
  json frames = json::array();
  for (const auto& f : d.frames) {
    json reasons = json::array();
    for (const auto& r : f.recompile_reasons)
      reasons.push_back({{"compile_id", r.compile_id.id.bare()},
                         {"failed_compile_id", r.failed_id},
                         {"reason", r.reason},
                         {"category", category_name(r.category)}});
    frames.push_back({{"run", f.run},
                      {"frame_id", f.frame_id},
                      {"name", f.name},
                      {"filename", f.filename},
                      {"line", f.line},
                      {"compiles", f.compiles},
                      {"recompiles", f.recompiles},
                      {"restarts", f.restarts},
                      {"failures", f.failures},
                      {"recompile_limit_hit", f.recompile_limit_hit},
                      {"compile_time_s", f.compile_time_s},
                      {"compile_ids", ids_json(f.compile_ids)},
                      {"recompile_reasons", reasons}});
  }
  return frames;
}

// summary.json's graph-break groups.
json graph_breaks_json(const DoctorReport& d) {
  json breaks = json::array();
  for (const auto& g : d.graph_breaks)
    breaks.push_back({{"reason", g.reason},
                      {"category", category_name(g.category)},
                      {"count", g.count},
                      {"compile_ids", ids_json(g.compile_ids)},
                      {"runs", runs_json(g.compile_ids)},
                      {"user_frame", g.user_frame},
                      {"explanation", g.explanation},
                      {"registry_id", g.registry_id},
                      {"registry_url", g.registry_url}});
  return breaks;
}

// summary.json's failures.
json failures_json(const DoctorReport& d) {
  json failures = json::array();
  for (const auto& f : d.failures)
    failures.push_back({{"compile_id", f.compile_id ? json(f.compile_id->id.bare()) : json()},
                        {"run", f.compile_id ? json(f.compile_id->run) : json()},
                        {"fail_type", f.fail_type},
                        {"category", category_name(f.category)},
                        {"reason", f.reason},
                        {"root_cause", f.root_cause},
                        {"user_frame", f.user_frame},
                        {"ran_eagerly", f.ran_eagerly},
                        {"outside_frame", f.outside_frame},
                        {"artifacts", f.artifacts}});
  return failures;
}

// summary.json's slowest compiles with their phases.
json slowest_json(const DoctorReport& d) {
  json slow = json::array();
  for (const auto& c : d.slowest) {
    json tree = json::array();
    for (const auto& p : c.phase_tree)
      tree.push_back({{"name", p.name}, {"depth", p.depth}, {"seconds", p.seconds}});
    slow.push_back({{"compile_id", c.compile_id.id.bare()},
                    {"run", c.compile_id.run},
                    {"name", c.frame_name},
                    {"seconds", c.seconds},
                    {"phases", c.phases},
                    {"phase_tree", tree}});
  }
  return slow;
}

json totals_json(const Totals& t) {
  return {{"frames", t.frames},
          {"compiles", t.compiles},
          {"recompiles", t.recompiles},
          {"graph_breaks", t.graph_breaks},
          {"failures", t.failures},
          {"compile_time_s", t.compile_time_s},
          {"recompile_limit_hits", t.recompile_limit_hits},
          {"runs", t.runs}};
}

json summary_object(const DoctorReport& d, const std::string& log,
                    const std::string& command_line) {
  json j;
  j["tool"] = {{"name", "tlscope"}, {"version", TLSCOPE_VERSION}};
  j["source"] = {{"log", log},
                 {"kind", d.source_kind},
                 {"command_line", command_line},
                 {"pytorch_version", d.torch_version.empty() ? json() : json(d.torch_version)}};
  if (d.source_kind == "torch_logs")
    j["source"]["text"] = {{"lines", d.text_lines},
                           {"other_lines", d.text_unknown_lines},
                           {"guard_dumps", d.text_guard_dumps}};
  j["totals"] = totals_json(d.totals);
  j["empty"] = d.totals.empty();
  j["frames"] = frames_json(d);
  j["graph_breaks"] = graph_breaks_json(d);
  j["failures"] = failures_json(d);
  json advice = json::array();
  for (const auto& a : d.advice)
    advice.push_back({{"category", category_name(a.category)},
                      {"message", a.message},
                      {"compile_ids", ids_json(a.compile_ids)},
                      {"runs", runs_json(a.compile_ids)}});
  j["advice"] = advice;
  json expected = json::array();
  for (const auto& e : d.expected)
    expected.push_back({{"category", category_name(e.category)},
                        {"message", e.message},
                        {"compile_ids", ids_json(e.compile_ids)}});
  j["expected"] = expected;
  j["slowest_compiles"] = slowest_json(d);
  return j;
}
}  // namespace

std::string summary_json(const DoctorReport& d, const std::string& log,
                         const std::string& command_line) {
  return summary_object(d, log, command_line).dump(2, ' ', false, json::error_handler_t::replace) +
         "\n";
}

void write_summary_json(std::FILE* out, const DoctorReport& d, const std::string& log,
                        const std::string& command_line) {
  JsonStream o(out);
  o.value(summary_object(d, log, command_line));
  o.finish();
}

namespace {

// A failure's reason for one line: "backend='x' raised:" is followed by its cause.

}  // namespace

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

namespace {

// The totals summed over the ranks that could be read (a job's
// summary["totals"], like one log's).
json job_totals_json(const std::vector<RankDiagnosis>& ranks) {
  Totals sum;
  sum.runs = 0;
  for (const auto& r : ranks)
    if (r.error.empty()) {
      add_totals(&sum, r.doctor.totals);
      sum.runs = std::max(sum.runs, r.doctor.totals.runs);
    }
  return totals_json(sum);
}

}  // namespace

std::string ranks_summary_json(const std::vector<RankDiagnosis>& ranks, const MultiRankAnalysis& a,
                               const std::string& command_line) {
  json j;
  j["tool"] = {{"name", "tlscope"}, {"version", TLSCOPE_VERSION}};
  json list = json::array();
  for (const auto& r : ranks) {
    json item = {{"rank", r.log.rank}, {"log", r.log.path}};
    if (!r.error.empty())
      item["error"] = r.error;
    else
      item["summary"] = summary_object(r.doctor, r.log.path, command_line);
    list.push_back(item);
  }
  j["ranks"] = list;
  j["totals"] = job_totals_json(ranks);
  json div = json::array();
  for (const auto& d : a.doctor)
    div.push_back(
        {{"what", d.what}, {"groups", d.groups}, {"first_compile_id", d.first_compile_id}});
  j["divergence"] = div;
  j["compared_ranks"] = a.ranks;
  j["left_out_ranks"] = a.left_out;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string check_json(const std::vector<std::string>& broken, const Totals& totals, size_t ranks) {
  json j;
  j["passed"] = broken.empty();
  j["broken"] = broken;
  j["totals"] = totals_json(totals);
  j["ranks"] = ranks;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace tlscope::analysis
