// failures_and_restarts.html (REPORT_FEATURES F30).
#include "report/failures_page.h"

#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {

void write_failures_page(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  auto w = open_page(out, "failures_and_restarts.html");
  if (!w) return;
  begin_page(*w, "Failures and restarts", "");
  render(*w, "failures.html", {{"rows", [&](PageWriter& p) {
                                  for (const auto& row : m.failures) {
                                    p.put("<tr><td>");
                                    std::string label = row.id ? row.id->display() : "(unknown)";
                                    if (!row.metrics_page.empty())
                                      p.put(link(row.metrics_page, label));
                                    else
                                      p.put(text(label));
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

}  // namespace tlscope::report
