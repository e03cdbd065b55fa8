#include "report/diff_page.h"

#include <fmt/format.h>

#include "io/read_file.h"
#include "report/diff_html.h"
#include "report/page_writer.h"
#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr Parts part("parts/diff_report.html");

// A file of one of the two reports (paths there are ours, made of safe segments).
std::string read_report_file(const std::string& dir, const std::string& rel) {
  std::string text, error;
  io::read_file(dir + "/" + rel, &text, &error);  // a missing file reads as empty
  return text;
}

Html change_of(double a, double b, bool seconds) {
  if (a == b) return Html();
  if (seconds) return html_format("{:+.2f} s", b - a);
  return html_format("{:+}", int64_t(b) - int64_t(a));
}

Html totals_html(const analysis::DiffReport& d) {
  Html rows;
  auto row = [&](Markup label, double a, double b, bool seconds) {
    Html fa = seconds ? html_format("{:.2f}", a) : html_format("{}", uint64_t(a));
    Html fb = seconds ? html_format("{:.2f}", b) : html_format("{}", uint64_t(b));
    rows += part("total", {{"label", label},
                           {"a", fa},
                           {"b", fb},
                           {"class", b > a   ? Markup("worse")
                                     : b < a ? Markup("better")
                                             : Markup("")},
                           {"change", change_of(a, b, seconds)}});
  };
  row("Frames", d.a.frames, d.b.frames, false);
  row("Compiles", d.a.compiles, d.b.compiles, false);
  row("Recompiles", d.a.recompiles, d.b.recompiles, false);
  row("Graph breaks", d.a.graph_breaks, d.b.graph_breaks, false);
  row("Failures", d.a.failures, d.b.failures, false);
  row("Compile time (s)", d.a.compile_time_s, d.b.compile_time_s, true);
  return rows;
}

Html ids_html(Markup side, const std::vector<std::string>& ids, const char* report) {
  if (ids.empty()) return Html();
  Html links;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) links += " ";
    links += link(std::string(report) + "/index.html#" + ids[i],
                  ids[i] == "[-/-]" ? "[-/-] (records outside any compile)" : ids[i]);
  }
  return part("ids", {{"side", side}, {"count", html_format("{}", ids.size())}, {"ids", links}});
}

Html line_stats_html(const analysis::DiffReport& d) {
  if (d.stats.empty()) return Html();
  Html rows;
  for (const auto& s : d.stats)
    rows += part("line_stat", {{"name", text(s.name)},
                               {"a", html_format("{}", s.a)},
                               {"b", html_format("{}", s.b)}});
  return part("line_stats", {{"rows", rows}});
}

Html count_change(uint32_t a, uint32_t b) {
  return a == b ? html_format("{}", a)
                : part("change", {{"a", html_format("{}", a)}, {"b", html_format("{}", b)}});
}

Html frames_html(const analysis::DiffReport& d) {
  if (d.frames.empty()) return Html();
  Html rows;
  for (const auto& f : d.frames) {
    std::string name = f.b.present ? f.b.name : f.a.name;
    if (!f.a.present) name += " (new)";
    if (!f.b.present) name += " (gone)";
    rows += part(
        "frame",
        {{"run", html_format("{}", f.run)},
         {"frame", html_format("{}", f.frame_id)},
         {"name", text(name)},
         {"compiles", count_change(f.a.compiles, f.b.compiles)},
         {"recompiles", count_change(f.a.recompiles, f.b.recompiles)},
         {"breaks", count_change(f.a.graph_breaks, f.b.graph_breaks)},
         {"failures", count_change(f.a.failures, f.b.failures)},
         {"seconds", part("change", {{"a", html_format("{:.2f}", f.a.compile_time_s)},
                                     {"b", html_format("{:.2f}", f.b.compile_time_s)}})}});
  }
  return part("frames", {{"rows", rows}});
}

Html patterns_html(Markup heading, const std::vector<analysis::PatternChange>& v) {
  if (v.empty()) return Html();
  Html rows;
  for (const auto& p : v)
    rows += part("pattern", {{"a", html_format("{}", p.count_a)},
                             {"b", html_format("{}", p.count_b)},
                             {"category", text(analysis::category_name(p.category))},
                             {"first_line", text(analysis::first_line(p.pattern))},
                             {"reason", text(p.pattern)},
                             {"where", text(p.where)}});
  return part("patterns", {{"heading", heading}, {"rows", rows}});
}

Html operators_html(const analysis::DiffReport& d) {
  if (d.operators.empty()) return Html();
  auto names = [](const std::vector<std::string_view>& v) {
    Html h;
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) h += Markup(", ");
      h += part("op_name", {{"name", text(v[i])}});
    }
    return h;
  };
  Html rows;
  for (const auto& c : d.operators) {
    Html counts;
    for (const auto& n : c.counts)
      counts += part("op_count", {{"name", text(n.name)},
                                  {"a", html_format("{}", n.a)},
                                  {"b", html_format("{}", n.b)},
                                  {"artifact", text(n.artifact)}});
    rows += part("operator", {{"compile_id", text(c.compile_id)},
                              {"added", names(c.added)},
                              {"removed", names(c.removed)},
                              {"counts", counts}});
  }
  return part("operators", {{"rows", rows}});
}

// The side-by-side page of an artifact in both logs, diffs/N.html.
void write_artifact_page(OutputDir& out, const std::string& out_dir, const std::string& page,
                         const analysis::ArtifactChange& c, const Options& opts) {
  std::string ta = read_report_file(out_dir + "/a", c.text_a());
  std::string tb = read_report_file(out_dir + "/b", c.text_b());
  auto w = open_page(out, page, ta.size() + tb.size() + (64u << 10));
  if (!w) return;
  std::string fa = c.file_a(), fb = c.file_b();  // each read from its store once
  begin_page(*w, fmt::format("{} {}", c.artifact, c.compile_id), "../");
  render(*w, "artifact_diff.html",
         {{"artifact", text(c.artifact)},
          {"compile_id", text(c.compile_id)},
          {"file_a", link("../a/" + fa, fa)},
          {"file_b", link("../b/" + fb, fb)},
          {"legend", opts.noise_digests ? part("noise_legend") : Html()},
          {"diff", side_by_side(ta, tb, opts.noise_digests)}});
  end_page(*w, "../", opts);
}

Html artifact_row(const analysis::ArtifactChange& c, Html change) {
  std::string fa = c.file_a(), fb = c.file_b();
  return part("artifact", {{"compile_id", text(c.compile_id)},
                           {"name", text(c.artifact)},
                           {"change", change},
                           {"a", fa.empty() ? Html() : link("a/" + fa, "A")},
                           {"b", fb.empty() ? Html() : link("b/" + fb, "B")}});
}

}  // namespace

bool write_diff_pages(const analysis::DiffReport& d, const std::string& out_dir,
                      const std::string& a_name, const std::string& b_name, const Options& opts) {
  OutputDir out(out_dir, 1);
  Html artifacts, noise;
  size_t changed = 0, only_a = 0, only_b = 0, pages = 0;
  for (const auto& c : d.artifacts) {
    (c.kind == analysis::ArtifactChange::kChanged ? changed
     : c.kind == analysis::ArtifactChange::kOnlyA ? only_a
                                                  : only_b)++;
    Html change = c.kind == analysis::ArtifactChange::kOnlyA ? Html(Markup("only in A"))
                                                             : Html(Markup("only in B"));
    if (c.kind == analysis::ArtifactChange::kChanged) {
      std::string page = fmt::format("diffs/{}.html", ++pages);
      write_artifact_page(out, out_dir, page, c, opts);
      change = link(page, "side by side");
    }
    artifacts += artifact_row(c, change);
  }
  for (const auto& c : d.noise_only) {
    std::string page = fmt::format("diffs/{}.html", ++pages);
    write_artifact_page(out, out_dir, page, c, opts);
    noise += artifact_row(c, link(page, "side by side (dimmed)"));
  }
  Html artifacts_section =
      d.same() ? part("same", {{"compared", html_format("{}", d.artifacts_compared)}})
      : artifacts.empty()
          ? Html()
          : part("artifacts", {{"changed", html_format("{}", changed)},
                               {"compared", html_format("{}", d.artifacts_compared)},
                               {"only_a", html_format("{}", only_a)},
                               {"only_b", html_format("{}", only_b)},
                               {"rows", artifacts}});
  if (auto w = open_page(out, "diff.html")) {
    begin_page(*w, "tlscope diff", "");
    render(*w, "diff.html",
           {{"a", text(a_name)},
            {"b", text(b_name)},
            {"totals", totals_html(d)},
            {"line_stats", line_stats_html(d)},
            {"compile_ids",
             ids_html("A", d.compile_ids_only_a, "a") + ids_html("B", d.compile_ids_only_b, "b")},
            {"frames", frames_html(d)},
            {"recompile_reasons",
             patterns_html("Recompile reasons that changed", d.recompile_reasons)},
            {"graph_breaks", patterns_html("Graph breaks that changed", d.graph_breaks)},
            {"operators", operators_html(d)},
            {"artifacts", artifacts_section},
            {"noise", d.noise_only.empty()
                          ? Html()
                          : part("noise", {{"count", html_format("{}", d.noise_only.size())},
                                           {"rows", noise}})}});
    end_page(*w, "", opts);
  }
  write_static_assets(out);
  out.drain();
  return out.errors() == 0;
}

}  // namespace tlscope::report
