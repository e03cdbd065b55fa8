#include "report/text_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "analysis/classify.h"
#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "analysis/summary.h"
#include "model/ingest/torch_logs_model.h"
#include "report/doctor_html.h"
#include "report/page_writer.h"
#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/text_report.html");

Html where_cell(const std::string& file, std::optional<int64_t> line) {
  if (file.empty()) return part("no_where");
  std::string full = line ? file + ":" + std::to_string(*line) : file;
  size_t slash = file.find_last_of("/\\");
  std::string shown = slash == std::string::npos ? full : full.substr(slash + 1);
  return part("where", {{"full", text(full)}, {"shown", breakable(shown)}});
}

size_t count_lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

// The first line of a graph break's text that gives its reason.
std::string break_reason(std::string_view t) {
  size_t at = t.find("Graph Break Reason: ");
  if (at == std::string_view::npos) return std::string(t.substr(0, t.find('\n')));
  at += 20;
  return std::string(t.substr(at, t.find('\n', at) - at));
}

// What the text says of each compile, in compile-id order.
struct CompileRow {
  const model::MetricsRecord* metrics = nullptr;
  const model::RecompileReasons* recompile = nullptr;
  std::vector<const model::GraphBreakNote*> breaks;
  std::vector<size_t> guards;  // indexes into text_guards
};

struct ById {
  bool operator()(const trace::CompileId& a, const trace::CompileId& b) const {
    return std::tie(a.autograd_id, a.frame_id, a.frame_compile_id, a.attempt) <
           std::tie(b.autograd_id, b.frame_id, b.frame_compile_id, b.attempt);
  }
};

// What the text says of one compile: recompiled (with the guards that
// failed), compiled first, a limit hit, graph breaks, guard dumps.
Html compile_events(const model::ReportModel& m, const trace::CompileId& id, const CompileRow& row) {
  Html events;
  if (row.recompile) {
    Html guards;
    for (const auto& g : row.recompile->reasons)
      guards += part("failed_guard",
                     {{"category", text(analysis::category_name(analysis::classify_recompile(g)))},
                      {"guard", text(g)}});
    events += part("recompiled", {{"guards", guards}});
  } else if (id.frame_compile_id && *id.frame_compile_id == 0 && row.breaks.empty() &&
             !(row.metrics && row.metrics->fail_type)) {
    events += part("first_compile");
  }
  if (row.metrics && row.metrics->fail_reason)
    events += part("limit_hit", {{"reason", text(*row.metrics->fail_reason)}});
  if (!row.breaks.empty()) {
    uint64_t n = 0;
    std::string reasons;
    for (const auto* b : row.breaks) {
      n += b->count;
      std::string r = break_reason(b->text);
      if (reasons.find(r) == std::string::npos) reasons += (reasons.empty() ? "" : "; ") + r;
    }
    events += part("breaks", {{"count", html_format("{}", n)}, {"reasons", text(reasons)}});
  }
  for (size_t g : row.guards)
    events += part("guard_link", {{"n", html_format("{}", g)},
                                  {"lines", html_format("{}", count_lines(m.text_guards[g].text))}});
  return events;
}

Html compiles_html(const model::ReportModel& m) {
  std::map<trace::CompileId, CompileRow, ById> rows;
  std::map<uint32_t, const model::MetricsRecord*> frames;  // the first record of each frame
  for (const auto& r : m.metrics) {
    if (!r.id) continue;
    rows[*r.id].metrics = &r;
    if (r.id->frame_id) frames.try_emplace(*r.id->frame_id, &r);
  }
  for (const auto& r : m.recompile_reasons)
    if (r.id) rows[*r.id].recompile = &r;
  for (const auto& b : m.graph_break_notes)
    if (b.id) rows[*b.id].breaks.push_back(&b);
  for (size_t i = 0; i < m.text_guards.size(); ++i)
    if (m.text_guards[i].id) rows[*m.text_guards[i].id].guards.push_back(i);
  if (rows.empty()) return Html();
  Html body;
  for (const auto& [id, row] : rows) {
    // A compile the text names only in a graph break: its frame's name.
    const model::MetricsRecord* named = row.metrics;
    if (!named && id.frame_id)
      if (auto f = frames.find(*id.frame_id); f != frames.end()) named = f->second;
    std::string name, file;
    std::optional<int64_t> line;
    if (named) {
      name = named->co_name;
      file = named->co_filename;
      line = named->co_firstlineno;
    }
    body += part("compile", {{"id", text(id.display())},
                             {"name", breakable(name)},
                             {"where", where_cell(file, line)},
                             {"events", compile_events(m, id, row)}});
  }
  return part("compiles", {{"rows", body}});
}

Html guards_html(const model::ReportModel& m) {
  if (m.text_guards.empty() && m.text_guard_dumps == 0) return Html();
  Html items;
  for (size_t i = 0; i < m.text_guards.size(); ++i) {
    const auto& g = m.text_guards[i];
    std::string title = g.id ? "Guards of " + g.id->display() : "Guards (the text names no compile)";
    items += part("guard_dump", {{"n", html_format("{}", i)},
                                 {"title", text(title)},
                                 {"lines", html_format("{}", count_lines(g.text))},
                                 {"text", text(g.text)}});
  }
  Html dropped;
  if (m.text_guard_dumps > m.text_guards.size())
    dropped = part("dropped", {{"n", html_format("{}", m.text_guard_dumps - m.text_guards.size())},
                               {"mb", html_format("{}", trace::torch_logs::Events::kMaxGuardText >> 20)}});
  return part("guards", {{"count", html_format("{}", m.text_guard_dumps)},
                         {"dropped", dropped},
                         {"items", items}});
}

Html lines_html(const model::ReportModel& m) {
  return part("lines", {{"lines", html_format("{}", m.text_lines)},
                        {"messages", html_format("{}", m.text_lines - m.text_unknown_lines)},
                        {"other", html_format("{}", m.text_unknown_lines)},
                        {"dumps", html_format("{}", m.text_guard_dumps)}});
}

std::string source_line(const model::ReportModel& m) {
  std::string s = "TORCH_LOGS text: " + m.input_path;
  if (m.rank) s += fmt::format(" (rank {})", *m.rank);
  return s;
}

void write_page(OutputDir& out, const Options& opts, const std::string& source, const Html& doctor,
                const Html& compiles, const Html& guards, const Html& lines) {
  auto w = open_page(out, "index.html");
  if (!w) return;
  begin_page(*w, "tlscope report", "");
  render(*w, "text_index.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},  // raw by design (F7)
          {"source_line", text(source)},
          {"trace_note", part("trace_note")},
          {"doctor", doctor},
          {"compiles", compiles},
          {"guards", guards},
          {"lines", lines}});
  end_page(*w, "", opts);
}

// One model's report into `dir`: its page and summary.json.
bool write_one(const model::ReportModel& m, const analysis::DoctorReport& d,
               const std::string& dir, const Options& opts) {
  OutputDir out(dir);
  write_static_assets(out);
  out.write_file("summary.json", analysis::summary_json(d, m.input_path, opts.command_line));
  write_page(out, opts, source_line(m), doctor_html(d), compiles_html(m), guards_html(m),
             lines_html(m));
  out.drain();
  return out.errors() == 0;
}

Html ranks_html(const std::vector<analysis::RankDiagnosis>& ranks,
                const analysis::MultiRankAnalysis& a) {
  Html rows;
  for (const auto& r : ranks) {
    const auto& t = r.doctor.totals;
    rows += part("rank_row", {{"rank", html_format("{}", r.log.rank)},
                              {"compiles", html_format("{}", t.compiles)},
                              {"recompiles", html_format("{}", t.recompiles)},
                              {"graph_breaks", html_format("{}", t.graph_breaks)},
                              {"limit_hits", html_format("{}", t.recompile_limit_hits)}});
  }
  Html verdict;
  if (a.doctor.empty()) {
    verdict = part("alike");
  } else {
    Html items;
    for (const auto& d : a.doctor) {
      std::string groups;
      for (size_t i = 0; i < d.groups.size(); ++i)
        groups += (i ? "; " : "") + std::string("ranks ") + analysis::rank_ranges(d.groups[i]);
      items += part("differ_item",
                    {{"what", text(d.what)},
                     {"first", text(d.first_compile_id.empty()
                                        ? ""
                                        : " (first at " + d.first_compile_id + ")")},
                     {"groups", text(groups)}});
    }
    verdict = part("differ", {{"items", items}});
  }
  return part("rank_index",
              {{"count", html_format("{}", ranks.size())}, {"rows", rows}, {"verdict", verdict}});
}

}  // namespace

TextRunResult build_text_report(const std::string& log, const std::string& out_dir,
                                const Options& opts) {
  TextRunResult result;
  auto read = ingest::read_text_log(log);
  if (!read.ok) {
    result.error = read.error;
    return result;
  }
  const auto& first = read.models.front();
  result.lines = first.text_lines;
  result.other_lines = first.text_unknown_lines;
  bool ok = true;
  if (read.models.size() == 1) {
    ok = write_one(first, analysis::diagnose(first), out_dir, opts);
  } else {
    std::vector<analysis::RankDiagnosis> ranks;
    for (const auto& m : read.models) {
      const auto& r = ranks.emplace_back(analysis::diagnose_rank(*m.rank, log, m));
      result.ranks.push_back(*m.rank);
      std::string dir = (std::filesystem::path(out_dir) / fmt::format("rank_{}", *m.rank)).string();
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      ok = write_one(m, r.doctor, dir, opts) && ok;
    }
    std::vector<analysis::RankSummary> summaries;
    for (const auto& r : ranks) summaries.push_back(r.summary);
    auto a = analysis::analyze_ranks(summaries);
    OutputDir out(out_dir);
    write_static_assets(out);
    out.write_file("summary.json", analysis::ranks_summary_json(ranks, a, opts.command_line));
    write_page(out, opts, "TORCH_LOGS text: " + log, ranks_html(ranks, a), Html(), Html(),
               lines_html(first));
    out.drain();
    ok = ok && out.errors() == 0;
  }
  result.ok = ok;
  if (!ok) result.error = "some report files could not be written";
  return result;
}

}  // namespace tlscope::report
