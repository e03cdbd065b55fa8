// failures_and_restarts.html (REPORT_FEATURES F30).
#include "report/failures_page.h"

#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {

void write_failures_page(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  auto w = open_page(out, "failures_and_restarts.html");
  if (!w) return;
  begin_page(*w, "Failures and restarts", "");
  static const Fragment row("parts/index.html", "failure"),
      source("parts/index.html", "failure_source"), restart("parts/index.html", "failure_restart");
  render(*w, "failures.html", {{"rows", [&](PageWriter& p) {
                                  for (const auto& r : m.failures) {
                                    std::string label = r.id ? r.id->display() : "(unknown)";
                                    row.write(p, {{"compile_id", r.metrics_page.empty()
                                                                     ? text(label)
                                                                     : link(r.metrics_page, label)},
                                                  {"type", r.type},
                                                  {"description", r.description},
                                                  {"source", r.restart ? restart()
                                                                       : source({{"source", r.source}})}});
                                  }
                                }}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
