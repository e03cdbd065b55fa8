#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "report/assets.h"
#include "trace/json_write.h"
#include "report/template.h"
#include "report/writers.h"

namespace tlscope::report {

void begin_page(PageWriter& w, std::string_view title, Markup root, const Html& head_extra) {
  render(w, "page_head.html", {{"title", text(title)}, {"root", root}, {"head_extra", head_extra}});
}

void end_page(PageWriter& w, Markup root, const Options& opts) {
  Html made = text(fmt::format("Made by tlscope {}", TLSCOPE_VERSION));
  if (!opts.command_line.empty()) made += html_format(": <code>{}</code>", opts.command_line);
  render(w, "page_tail.html", {{"root", root}, {"made_by", made}});
}

void write_static_assets(OutputDir& out) {
  for (const char* name : {"static/tlscope.css", "static/tlscope.js", "static/highlight.min.js",
                           "static/highlight.css", "static/highlight_page.js",
                           "static/provenance.js"})
    out.write_file(name, asset(name));
}

void write_failures_page(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  auto w = out.open("failures_and_restarts.html");
  if (!w) return;
  begin_page(*w, "Failures and restarts", "");
  render(*w, "failures.html", {{"rows", [&](PageWriter& p) {
    for (const auto& row : m.failures) {
      p.put("<tr><td>");
      std::string label = row.id ? row.id->display() : "(unknown)";
      if (!row.metrics_page.empty()) p.put(link(row.metrics_page, label));
      else p.put(text(label));
      p.put("</td><td><pre>");
      p.put_escaped(row.type);
      p.put("</pre></td><td><pre>");
      p.put_escaped(row.description);
      p.put("</pre></td><td>");
      if (row.restart) {
        p.put("<em>Not available for restarts (graph breaks).</em>");
      } else {
        p.put("<pre>");
        p.put_escaped(row.source);
        p.put("</pre>");
      }
      p.put("</td></tr>\n");
    }
  }}});
  end_page(*w, "", opts);
}

std::string string_table_json(const trace::StringTable& strings) {
  std::string out = "{\"string_table\":";
  size_t count = strings.size();
  uint64_t max = strings.max_index();
  // Dense like the reference unless that would mostly be nulls of a huge index.
  bool dense = count == 0 || max < (1u << 20) || max < 8 * count;
  if (dense) {
    out += '[';
    uint64_t n = count == 0 ? 1 : max + 1;
    for (uint64_t i = 0; i < n; ++i) {
      if (i) out += ',';
      const std::string* s = i <= UINT32_MAX ? strings.get(static_cast<uint32_t>(i)) : nullptr;
      if (s) trace::append_json_string(&out, *s);
      else out += "null";
    }
    out += ']';
  } else {
    std::vector<uint32_t> keys = strings.sorted_indices();
    out += '{';
    for (size_t k = 0; k < keys.size(); ++k) {
      if (k) out += ',';
      trace::append_json_string(&out, std::to_string(keys[k]));
      out += ':';
      trace::append_json_string(&out, *strings.get(keys[k]));
    }
    out += '}';
  }
  out += '}';
  return out;
}

}  // namespace tlscope::report
