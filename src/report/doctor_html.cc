// "Compile doctor" section at the top of index.html.
#include <fmt/format.h>

#include "report/doctor_writers.h"

namespace tlscope::report {
namespace {

using analysis::category_name;

std::string id_links(const std::vector<trace::CompileId>& ids, size_t max = 12) {
  std::string s;
  for (size_t i = 0; i < ids.size() && i < max; ++i) {
    if (i) s += ' ';
    s += link("#" + ids[i].display(), ids[i].display()).str();
  }
  if (ids.size() > max) s += fmt::format(" and {} more", ids.size() - max);
  return s;
}

std::string cell(std::string_view v) {
  std::string s = "<td>";
  append_escaped(&s, v);
  return s + "</td>";
}

}  // namespace

Html doctor_html(const analysis::DoctorReport& d) {
  const auto& t = d.totals;
  std::string s = "<section class=\"doctor\"><h2>Compile doctor</h2>\n";
  s += fmt::format(
      "<p class=\"totals\">{} frame(s), {} compile(s), {} recompile(s), {} graph break(s), "
      "{} failure(s), {:.2f} s compiling.</p>\n",
      t.frames, t.compiles, t.recompiles, t.graph_breaks, t.failures, t.compile_time_s);
  if (!d.advice.empty()) {
    s += "<h3>What to do</h3>\n<ul class=\"advice\">\n";
    for (const auto& a : d.advice) {
      s += fmt::format("<li><strong>{}</strong>: ", category_name(a.category));
      append_escaped(&s, a.message);
      if (!a.compile_ids.empty()) s += " <span class=\"ids\">(" + id_links(a.compile_ids) + ")</span>";
      s += "</li>\n";
    }
    s += "</ul>\n";
  } else {
    s += "<p>Nothing to fix: no recompiles, graph breaks or failures.</p>\n";
  }
  if (!d.frames.empty()) {
    s += "<h3>Frames</h3>\n<table class=\"frames\"><tr><th>Frame</th><th>Function</th>"
         "<th>Where</th><th>Compiles</th><th>Recompiles</th><th>Restarts</th><th>Failures</th>"
         "<th>Compile time (s)</th><th>Recompile reasons</th></tr>\n";
    for (const auto& f : d.frames) {
      s += fmt::format("<tr><td>{}</td>", f.frame_id) + cell(f.name) +
           cell(f.filename.empty() ? "" : fmt::format("{}:{}", f.filename, f.line));
      s += fmt::format("<td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{:.3f}</td><td>",
                       f.compiles, f.recompiles, f.recompile_limit_hit ? " (limit)" : "",
                       f.restarts, f.failures, f.compile_time_s);
      for (const auto& r : f.recompile_reasons) {
        s += link("#" + r.compile_id.display(), r.compile_id.display()).str() + " ";
        s += fmt::format("<em>{}</em>: ", category_name(r.category));
        append_escaped(&s, r.reason);
        s += "<br>";
      }
      s += "</td></tr>\n";
    }
    s += "</table>\n";
  }
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
           id_links(g.compile_ids) + "</td></tr>\n";
    }
    s += "</table>\n";
  }
  if (!d.failures.empty()) {
    s += "<h3>Failures</h3>\n<table class=\"failures\"><tr><th>Compile id</th><th>Type</th>"
         "<th>Reason</th><th>User code</th><th>Then</th></tr>\n";
    for (const auto& f : d.failures) {
      std::string label = f.compile_id ? f.compile_id->display() : "(unknown)";
      s += "<tr><td>" + (f.page.empty() ? text(label).str() : link(f.page, label).str()) + "</td>";
      s += cell(f.fail_type) + "<td><details><summary>";
      append_escaped(&s, analysis::first_line(f.reason));
      s += "</summary><pre>";
      append_escaped(&s, f.reason);
      s += "</pre></details></td>" + cell(f.user_frame) +
           cell(f.ran_eagerly ? "ran eagerly" : "recompiled") + "</tr>\n";
    }
    s += "</table>\n";
  }
  if (!d.slowest.empty()) {
    s += "<h3>Slowest compiles</h3>\n<table class=\"slowest\"><tr><th>Compile id</th>"
         "<th>Function</th><th>Seconds</th><th>Phases (s)</th></tr>\n";
    for (const auto& c : d.slowest) {
      s += "<tr><td>" + link(c.page, c.compile_id.display()).str() + "</td>" + cell(c.frame_name) +
           fmt::format("<td>{:.3f}</td><td>", c.seconds);
      bool first = true;
      for (const auto& [name, secs] : c.phases) {
        if (!first) s += ", ";
        first = false;
        append_escaped(&s, name);
        s += fmt::format(" {:.3f}", secs);
      }
      s += "</td></tr>\n";
    }
    s += "</table>\n";
  }
  s += "</section>\n";
  return Html::trusted(std::move(s));
}

}  // namespace tlscope::report
