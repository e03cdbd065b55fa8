// index.html (REPORT_FEATURES F35-F40).
#include <fmt/format.h>

#include <fstream>
#include <map>

#include "report/index_page.h"
#include "report/page_frame.h"
#include "report/provenance_pages.h"
#include "report/stack_html.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

// Tries of up to this many frames are shown open.
constexpr size_t kOpenTrieFrames = 40;

void write_products(const model::ReportModel& m, PageWriter& p) {
  p.put("<ul class=\"products\">\n");
  for (const auto& e : m.index.entries()) {
    std::string label = e.label();
    p.put("<li><a id=\"");
    p.put_escaped(label);
    p.put("\">");
    p.put_escaped(label);
    p.put("</a>\n<ul>\n");
    // K9: a run of files from one subgraph_name is headed by its name; the
    // run back to no name by an empty line.
    std::string_view subgraph;
    for (const auto& o : e.outputs) {
      if (o.subgraph != subgraph) {
        subgraph = o.subgraph;
        p.put(html_format("<li style=\"margin-top: 8px;\">{}</li>\n",
                          subgraph.empty() ? Html() : html_format("Subgraph Name: {}", subgraph)));
      }
      p.put("<li>");
      p.put(link(o.url, o.name));
      if (o.readable_url && !o.readable_url->empty()) {
        p.put(" (");
        p.put(link(*o.readable_url, "readable_html"));
        p.put(")");
      }
      p.put(" ");
      p.put_escaped(o.suffix);
      p.put(html_format(" ({})</li>\n", o.number));
    }
    p.put("</ul></li>\n");
  }
  p.put("</ul>\n");
}

Html stats_html(const model::ReportModel& m) {
  Html s = Markup("<table class=\"stats\">");
  for (auto [name, v] : m.stats.nonzero()) {
    bool bad = std::string_view(name) != "ok";
    s += html_format("<tr><th>{}</th><td{}>{}</td></tr>", name,
                     bad ? Markup(" class=\"bad\"") : Markup(""), v);
  }
  s += "</table>";
  if (!m.stats.unknown_names.empty()) {
    s += "<p>Unknown envelope keys (not rendered): ";
    bool first = true;
    for (const auto& [k, n] : m.stats.unknown_names) {
      if (!first) s += ", ";
      first = false;
      s += html_format("<code>{}</code> ({})", k, n);
    }
    s += "</p>";
  }
  return s;
}

}  // namespace

void write_index(const model::ReportModel& m, OutputDir& out, const Options& opts,
                 const Html& doctor, const std::string& name) {
  auto w = open_page(out, name);
  if (!w) return;
  begin_page(*w, "tlscope report", "");
  std::string source = "Log: " + m.input_path;
  if (m.rank) source += fmt::format(" (rank {})", *m.rank);
  if (!m.torch_version.empty()) source += ", PyTorch " + m.torch_version;
  Html failures;
  if (!m.failures.empty())
    failures = html_format(
        "<h2>Failures and restarts</h2><p>See <a href=\"failures_and_restarts.html\">{} restart(s) "
        "and/or compilation failure(s)</a>.</p>",
        m.failures.size());
  Html chromium;
  if (m.chromium.events > 0)
    chromium = Markup(
        "<h2>Chromium events</h2><p>Compile-time events are in <a href=\"chromium_events.json\">"
        "chromium_events.json</a>. <a class=\"perfetto\" href=\"https://ui.perfetto.dev/\" "
        "target=\"_blank\" rel=\"noopener\">Open Perfetto</a> to look at them as a "
        "timeline.</p>\n<details class=\"perfetto-help\"><summary>How to load "
        "chromium_events.json in Perfetto</summary><ol><li>Open <a "
        "href=\"https://ui.perfetto.dev/\" target=\"_blank\" "
        "rel=\"noopener\">ui.perfetto.dev</a> (the link above). Perfetto runs in the browser: "
        "the file is read on your machine and not uploaded.</li><li>Choose <em>Open trace "
        "file</em> in its menu, or drag the file onto its page.</li><li>Pick "
        "<code>chromium_events.json</code> from this report's folder (beside this "
        "<code>index.html</code>).</li></ol><p>Each compile is a track of nested phases (dynamo, "
        "AOT autograd, Inductor, code generation); click one for its compile id and times. A "
        "page opened from file:// cannot hand the file to Perfetto itself, which is why it is "
        "picked by hand.</p></details>");
  Html unknown;
  if (!m.unknown_trie.empty()) {
    unknown = Markup("<h2>Unknown stacks</h2><p>Stacks logged outside any compilation:</p>");
    unknown += stack_trie_html(m.unknown_trie, m.strings, &m, false);
  }
  render(*w, "index.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},  // raw by design (F7)
          {"source_line", text(source)},
          {"doctor", doctor},
          // A small trie is open at once; a large one waits for a click.
          {"trie", stack_trie_html(m.trie, m.strings, &m, m.trie.size() <= kOpenTrieFrames)},
          {"failures", failures},
          {"chromium", chromium},
          {"products", [&](PageWriter& p) { write_products(m, p); }},
          {"unknown_stacks", unknown},
          {"provenance", opts.provenance ? provenance_links_html(m) : Html()},
          {"stats", stats_html(m)}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
