// "Compile doctor" section at the top of index.html; its markup is in
// templates/parts/doctor.html.
#include "report/doctor_html.h"

#include "analysis/summary.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

using analysis::category_name;
using model::CompileRef;

constexpr Parts part("parts/doctor.html");

Html seconds(double s) { return html_format("{:.3f}", s); }

// Links to the index entries of compiles. The index has one entry per compile
// id whatever the run, so a log of several runs names the run in the text.
Html id_links(const std::vector<CompileRef>& ids, bool runs, size_t max = 12) {
  Html s;
  uint32_t run = 0;
  for (size_t i = 0; i < ids.size() && i < max; ++i) {
    if (runs && ids[i].run != run) {
      run = ids[i].run;
      s += html_format("{}run {}: ", i ? Markup("; ") : Markup(""), run);
    } else if (i) {
      s += " ";
    }
    s += link("#" + ids[i].id.display(), ids[i].id.display());
  }
  if (ids.size() > max) s += html_format(" and {} more", ids.size() - max);
  return s;
}

// A source place: its file name and line, the whole path in the title, so
// that long paths do not widen the table.
Html where_cell(const std::string& filename, int64_t line) {
  if (filename.empty()) return part("no_where");
  std::string full = filename + ":" + std::to_string(line);
  size_t slash = filename.rfind('/');
  std::string shown = slash == std::string::npos ? full : full.substr(slash + 1);
  return part("where", {{"full", text(full)}, {"shown", breakable(shown)}});
}

// A frame's recompile reasons, one line per pattern; more than three lines
// are folded behind their count.
Html reasons_html(const analysis::FrameReport& f, bool runs) {
  auto groups = analysis::group_reasons(f.recompile_reasons);
  Html lines;
  for (const auto& g : groups)
    lines += part("reason", {{"category", text(category_name(g.category))},
                             {"count", html_format("{}", g.compile_ids.size())},
                             {"ids", id_links(g.compile_ids, runs, 6)},
                             {"reason", breakable(g.reason)}});
  if (groups.size() <= 3) return lines;
  return part("reasons_folded", {{"reasons", html_format("{}", f.recompile_reasons.size())},
                                 {"patterns", html_format("{}", groups.size())},
                                 {"lines", lines}});
}

// Advice text with its `backticked` names as code.
Html with_code(std::string_view s) {
  Html out;
  while (!s.empty()) {
    size_t open = s.find('`');
    size_t close = open == std::string_view::npos ? open : s.find('`', open + 1);
    if (close == std::string_view::npos) {
      out += text(s);
      break;
    }
    out += text(s.substr(0, open));
    out += part("code", {{"text", text(s.substr(open + 1, close - open - 1))}});
    s.remove_prefix(close + 1);
  }
  return out;
}

Html expected_html(const analysis::DoctorReport& d) {
  if (d.expected.empty()) return Html();
  Html items;
  for (const auto& e : d.expected)
    items += part("advice_item",
                  {{"category", text(category_name(e.category))},
                   {"message", with_code(e.message)},
                   {"ids", part("advice_ids", {{"ids", id_links(e.compile_ids, d.several_runs())}})}});
  return part("expected", {{"items", items}});
}

Html advice_html(const analysis::DoctorReport& d) {
  if (d.advice.empty())
    return d.expected.empty() ? part("nothing_to_fix") : expected_html(d);
  Html items;
  for (const auto& a : d.advice) {
    Html ids;
    if (!a.compile_ids.empty())
      ids = part("advice_ids", {{"ids", id_links(a.compile_ids, d.several_runs())}});
    // PyTorch's page on a graph break as a link, not as a URL in the text.
    Html message = with_code(a.message);
    size_t note = a.page_note.empty() ? std::string::npos : a.message.rfind(a.page_note);
    if (note != std::string::npos)
      message = with_code(std::string_view(a.message).substr(0, note)) +
                part("advice_page", {{"link", link(a.page_url, a.page_id)}});
    items +=
        part("advice_item",
             {{"category", text(category_name(a.category))}, {"message", message}, {"ids", ids}});
  }
  return part("advice", {{"items", items}}) + expected_html(d);
}

Html frames_html(const analysis::DoctorReport& d) {
  if (d.frames.empty()) return Html();
  const bool runs = d.several_runs();
  Html rows;
  for (const auto& f : d.frames)
    rows += part("frame",
                 {{"run", runs ? part("run_cell", {{"run", html_format("{}", f.run)}}) : Html()},
                  {"frame_id", html_format("{}", f.frame_id)},
                  {"name", breakable(f.name)},
                  {"where", where_cell(f.filename, f.line)},
                  {"compiles", html_format("{}", f.compiles)},
                  {"recompiles", html_format("{}", f.recompiles)},
                  {"limit", f.recompile_limit_hit ? part("limit_hit") : Html()},
                  {"restarts", html_format("{}", f.restarts)},
                  {"failures", html_format("{}", f.failures)},
                  {"seconds", d.totals.timed ? seconds(f.compile_time_s) : part("no_time")},
                  {"reasons", reasons_html(f, runs)}});
  return part("frames", {{"run_heading", runs ? part("run_heading") : Html()}, {"rows", rows}});
}

// The class, and PyTorch's page on the break where the log links one.
Html break_class_cell(const analysis::GraphBreakGroup& g) {
  Html cell = text(category_name(g.category));
  if (!g.registry_url.empty())
    cell += part("registry_link", {{"link", link(g.registry_url, g.registry_id)}});
  return cell;
}

Html graph_breaks_html(const analysis::DoctorReport& d) {
  if (d.graph_breaks.empty()) return Html();
  Html rows;
  for (const auto& g : d.graph_breaks)
    rows += part("graph_break", {{"count", html_format("{}", g.count)},
                                 {"reason", text(g.reason)},
                                 {"detail", text(g.detail)},
                                 {"category", break_class_cell(g)},
                                 {"user_frame", breakable(g.user_frame)},
                                 {"ids", id_links(g.compile_ids, d.several_runs())}});
  return part("graph_breaks", {{"rows", rows}});
}

Html failures_html(const analysis::DoctorReport& d) {
  if (d.failures.empty()) return Html();
  const bool runs = d.several_runs();
  Html rows;
  for (const auto& f : d.failures) {
    std::string label = f.compile_id ? f.compile_id->id.display() : "(no frame)";
    if (f.compile_id && runs) label += " (run " + std::to_string(f.compile_id->run) + ")";
    const char* then = f.outside_frame ? "outside any frame (export or make_fx)"
                       : f.ran_eagerly ? "ran eagerly"
                                       : "recompiled";
    rows += part("failure", {{"compile_id", f.page.empty() ? text(label) : link(f.page, label)},
                             {"type", text(f.fail_type)},
                             {"first_line", text(f.root_cause)},
                             {"reason", text(f.reason)},
                             {"user_frame", breakable(f.user_frame)},
                             {"then", text(then)}});
  }
  return part("failures", {{"rows", rows}});
}

Html slowest_html(const analysis::DoctorReport& d) {
  if (d.slowest.empty()) return Html();
  Html rows;
  for (const auto& c : d.slowest) {
    std::string label = c.compile_id.id.display();
    if (d.several_runs()) label += " (run " + std::to_string(c.compile_id.run) + ")";
    Html phases;
    for (const auto& p : c.phase_tree)
      phases += part("phase", {{"indent", html_format("{}", 1.2 * p.depth)},
                               {"name", text(p.name)},
                               {"seconds", seconds(p.seconds)}});
    rows += part("slow", {{"compile_id", link(c.page, label)},
                          {"name", breakable(c.frame_name)},
                          {"seconds", seconds(c.seconds)},
                          {"phases", phases}});
  }
  return part("slowest", {{"rows", rows}});
}

}  // namespace

Html doctor_html(const analysis::DoctorReport& d, const Html& charts) {
  Html runs;
  if (d.several_runs()) runs = part("runs", {{"count", html_format("{}", d.totals.runs)}});
  return part("section", {{"totals", text(analysis::totals_line(d.totals))},
                          {"runs", runs},
                          {"advice", advice_html(d)},
                          {"frames", frames_html(d)},
                          {"graph_breaks", graph_breaks_html(d)},
                          {"failures", failures_html(d)},
                          {"charts", charts},
                          {"slowest", slowest_html(d)}});
}

}  // namespace tlscope::report
