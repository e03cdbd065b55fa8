// The index of draft-export mode (REPORT_FEATURES F41-F45): the issues
// export met, each linked to its symbolic-guard page or to the fake-kernel
// guide, and the exported program.
#include <fmt/format.h>

#include "report/export_index_page.h"
#include "report/page_frame.h"
#include "report/template.h"

namespace tlscope::report {
namespace {

constexpr const char* kFakeKernelGuide =
    "https://pytorch.org/docs/stable/library.html#torch.library.register_fake";

}  // namespace

void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  Html body;
  if (m.export_issues.empty()) {
    body = Markup(
        "<p>No issues were found during export: the program exported soundly, and "
        "<code>torch.export.export()</code> can be used on it again.</p>");
  } else {
    body = html_format(
        "<p><b>{} issue(s) were found during export</b>. Each row says what export "
        "met and where to read more.</p>\n<table><tr><th>Failure Type</th>"
        "<th>Reason</th><th>Additional Info</th></tr>\n",
        m.export_issues.size());
    for (const auto& i : m.export_issues) {
      Html type, reason;
      switch (i.kind) {
        case model::ExportIssue::kGuardEvaluated:
          type = Markup("Guard Evaluated");
          reason = html_format(
              "The guard <code>{}</code> was evaluated during export; it may have "
              "caused a constraint violation.",
              i.expr);
          break;
        case model::ExportIssue::kDataDependent:
          type = Markup("Data Dependent Error");
          reason = html_format(
              "Could not decide <code>{}</code>; it was specialised to <code>{}"
              "</code> and runtime asserts were added.",
              i.expr, i.result);
          break;
        case model::ExportIssue::kMissingFakeKernel:
          type = Markup("Missing Fake Kernel");
          reason = html_format("<code>torch.ops.{}</code> has no fake kernel.", i.op);
          break;
        case model::ExportIssue::kMismatchedFakeKernel:
          type = Markup("Mismatched Fake Kernel");
          reason = html_format(
              "The fake kernel of <code>torch.ops.{}</code> does not match its real "
              "kernel: {}",
              i.op, i.reason);
          break;
      }
      Html info = i.page.empty() ? link(kFakeKernelGuide, "How to write a fake kernel")
                                 : link(i.page, "Symbolic guard information");
      body += html_format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", type, reason, info);
    }
    body += "</table>\n";
  }
  std::string program;
  for (const auto& e : m.index.entries())
    for (const auto& o : e.outputs)
      if (program.empty() && o.url.find("exported_program") != std::string::npos) program = o.url;
  auto w = open_page(out, "index.html");
  begin_page(*w, "Draft Export Report", "");
  render(*w, "export_index.html",
         {{"custom_header", user_supplied_html(opts.custom_header_html)},
          {"body", body},
          {"program", program.empty() ? text("(none in the log)") : link(program, program)}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
