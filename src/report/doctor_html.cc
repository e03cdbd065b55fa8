// "Compile doctor" section at the top of index.html.
#include <fmt/format.h>

#include "report/doctor_html.h"

#include "analysis/summary.h"

namespace tlscope::report {
using analysis::totals_line;
namespace {

using analysis::category_name;
using model::CompileRef;

// Links to the index entries of compiles. The index has one entry per compile
// id whatever the run, so a log of several runs names the run in the text.
std::string id_links(const std::vector<CompileRef>& ids, bool runs, size_t max = 12) {
  std::string s;
  uint32_t run = 0;
  for (size_t i = 0; i < ids.size() && i < max; ++i) {
    if (runs && ids[i].run != run) {
      run = ids[i].run;
      s += fmt::format("{}run {}: ", i ? "; " : "", run);
    } else if (i) {
      s += ' ';
    }
    s += link("#" + ids[i].id.display(), ids[i].id.display()).str();
  }
  if (ids.size() > max) s += fmt::format(" and {} more", ids.size() - max);
  return s;
}

std::string cell(std::string_view v) {
  std::string s = "<td>";
  append_escaped(&s, v);
  return s + "</td>";
}

// A source place: its file name and line, the whole path in the title, so
// that long paths do not widen the table.
std::string where_cell(const std::string& filename, int64_t line) {
  if (filename.empty()) return "<td></td>";
  std::string full = fmt::format("{}:{}", filename, line);
  size_t slash = filename.rfind('/');
  std::string shown = slash == std::string::npos ? full : full.substr(slash + 1);
  std::string s = "<td class=\"where\"><span title=\"";
  append_escaped(&s, full);
  s += "\">";
  append_escaped(&s, shown);
  return s + "</span></td>";
}

// A frame's recompile reasons, one line per pattern; more than three lines
// are folded behind their count.
std::string reasons_html(const analysis::FrameReport& f, bool runs) {
  auto groups = analysis::group_reasons(f.recompile_reasons);
  std::string lines;
  for (const auto& g : groups) {
    lines += fmt::format("<div class=\"reason\"><em>{}</em> &times;{} (", category_name(g.category),
                         g.compile_ids.size());
    lines += id_links(g.compile_ids, runs, 6) + "): ";
    append_escaped(&lines, g.reason);
    lines += "</div>";
  }
  if (groups.size() <= 3) return lines;
  return fmt::format("<details><summary>{} reasons in {} patterns</summary>",
                     f.recompile_reasons.size(), groups.size()) +
         lines + "</details>";
}

std::string phases_html(const analysis::SlowCompile& c) {
  std::string s;
  for (const auto& p : c.phase_tree) {
    s += fmt::format("<div class=\"phase\" style=\"padding-left:{}em\">", 1.2 * p.depth);
    append_escaped(&s, p.name);
    s += fmt::format(" {:.3f}</div>", p.seconds);
  }
  return s;
}

void frames_table(std::string& s, const analysis::DoctorReport& d) {
  const bool runs = d.several_runs();
  s += "<h3>Frames</h3>\n<table class=\"frames\"><tr>";
  if (runs) s += "<th>Run</th>";
  s += "<th>Frame</th><th>Function</th><th>Where</th><th>Compiles</th><th>Recompiles</th>"
       "<th>Restarts</th><th>Failures</th><th>Compile time (s)</th><th>Recompile reasons</th>"
       "</tr>\n";
  for (const auto& f : d.frames) {
    s += "<tr>";
    if (runs) s += fmt::format("<td>{}</td>", f.run);
    s += fmt::format("<td>{}</td>", f.frame_id) + cell(f.name) + where_cell(f.filename, f.line);
    s += fmt::format("<td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>",
                     f.compiles, f.recompiles, f.recompile_limit_hit ? " (limit)" : "",
                     f.restarts, f.failures, f.compile_time_s);
    s += reasons_html(f, runs) + "</td></tr>\n";
  }
  s += "</table>\n";
}

void failures_table(std::string& s, const analysis::DoctorReport& d) {
  const bool runs = d.several_runs();
  s += "<h3>Failures</h3>\n<table class=\"failures\"><tr><th>Compile id</th><th>Type</th>"
       "<th>Reason</th><th>User code</th><th>Then</th></tr>\n";
  for (const auto& f : d.failures) {
    std::string label = f.compile_id ? f.compile_id->id.display() : "(no frame)";
    if (f.compile_id && runs) label += fmt::format(" (run {})", f.compile_id->run);
    s += "<tr><td>" + (f.page.empty() ? text(label).str() : link(f.page, label).str()) + "</td>";
    s += cell(f.fail_type) + "<td><details><summary>";
    append_escaped(&s, analysis::first_line(f.reason));
    s += "</summary><pre>";
    append_escaped(&s, f.reason);
    s += "</pre></details></td>" + cell(f.user_frame) +
         cell(f.outside_frame ? "outside any frame (export or make_fx)"
              : f.ran_eagerly ? "ran eagerly"
                              : "recompiled") +
         "</tr>\n";
  }
  s += "</table>\n";
}

}  // namespace

Html doctor_html(const analysis::DoctorReport& d) {
  const auto& t = d.totals;
  const bool runs = d.several_runs();
  std::string s = "<section class=\"doctor\"><h2>Compile doctor</h2>\n";
  s += "<p class=\"totals\">" + totals_line(t) + ".</p>\n";
  if (runs)
    s += fmt::format("<p class=\"runs\">This log holds {} runs: Dynamo was reset and compiled "
                     "again, so compile ids repeat. Each run's frames and compiles are counted; "
                     "the index below lists a compile id once with the files of every run.</p>\n",
                     t.runs);
  if (!d.advice.empty()) {
    s += "<h3>What to do</h3>\n<ul class=\"advice\">\n";
    for (const auto& a : d.advice) {
      s += fmt::format("<li><strong>{}</strong>: ", category_name(a.category));
      append_escaped(&s, a.message);
      if (!a.compile_ids.empty())
        s += " <span class=\"ids\">(" + id_links(a.compile_ids, runs) + ")</span>";
      s += "</li>\n";
    }
    s += "</ul>\n";
  } else {
    s += "<p>Nothing to fix: no recompiles, graph breaks or failures.</p>\n";
  }
  if (!d.frames.empty()) frames_table(s, d);
  if (!d.graph_breaks.empty()) {
    s += "<h3>Graph breaks</h3>\n<table class=\"graph-breaks\"><tr><th>Count</th><th>Reason</th>"
         "<th>Class</th><th>User code</th><th>Compile ids</th></tr>\n";
    for (const auto& g : d.graph_breaks) {
      s += fmt::format("<tr><td>{}</td><td><details><summary>", g.count);
      append_escaped(&s, g.reason);
      s += "</summary><pre>";
      append_escaped(&s, g.detail);
      s += "</pre></details></td>";
      s += fmt::format("<td>{}</td>", category_name(g.category)) + cell(g.user_frame) + "<td>" +
           id_links(g.compile_ids, runs) + "</td></tr>\n";
    }
    s += "</table>\n";
  }
  if (!d.failures.empty()) failures_table(s, d);
  if (!d.slowest.empty()) {
    s += "<h3>Slowest compiles</h3>\n<table class=\"slowest\"><tr><th>Compile id</th>"
         "<th>Function</th><th>Seconds</th><th>Phases (s), nested, in the order they began</th>"
         "</tr>\n";
    for (const auto& c : d.slowest) {
      std::string label = c.compile_id.id.display();
      if (runs) label += fmt::format(" (run {})", c.compile_id.run);
      s += "<tr><td>" + link(c.page, label).str() + "</td>" + cell(c.frame_name) +
           fmt::format("<td>{:.3f}</td><td>", c.seconds) + phases_html(c) + "</td></tr>\n";
    }
    s += "</table>\n";
  }
  s += "</section>\n";
  return Html::trusted(std::move(s));
}

}  // namespace tlscope::report
