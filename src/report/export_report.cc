// The index of draft-export mode (REPORT_FEATURES F41-F45): the issues
// export met, each linked to its symbolic-guard page or to the fake-kernel
// guide, and the exported program.
#include <fmt/format.h>

#include "report/export_report.h"
#include "report/template.h"
#include "report/writers.h"

namespace tlscope::report {
namespace {

constexpr const char* kFakeKernelGuide =
    "https://pytorch.org/docs/stable/library.html#torch.library.register_fake";

}  // namespace

void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  std::string body;
  if (m.export_issues.empty()) {
    body = "<p>No issues were found during export: the program exported soundly, and "
           "<code>torch.export.export()</code> can be used on it again.</p>";
  } else {
    body = fmt::format("<p><b>{} issue(s) were found during export</b>. Each row says what export "
                       "met and where to read more.</p>\n<table><tr><th>Failure Type</th>"
                       "<th>Reason</th><th>Additional Info</th></tr>\n",
                       m.export_issues.size());
    for (const auto& i : m.export_issues) {
      std::string type, reason, info;
      switch (i.kind) {
        case model::ExportIssue::kGuardEvaluated:
          type = "Guard Evaluated";
          reason = "The guard <code>" + text(i.expr).str() +
                   "</code> was evaluated during export; it may have caused a constraint violation.";
          break;
        case model::ExportIssue::kDataDependent:
          type = "Data Dependent Error";
          reason = "Could not decide <code>" + text(i.expr).str() + "</code>; it was specialised "
                   "to <code>" + text(i.result).str() + "</code> and runtime asserts were added.";
          break;
        case model::ExportIssue::kMissingFakeKernel:
          type = "Missing Fake Kernel";
          reason = "<code>torch.ops." + text(i.op).str() + "</code> has no fake kernel.";
          break;
        case model::ExportIssue::kMismatchedFakeKernel:
          type = "Mismatched Fake Kernel";
          reason = "The fake kernel of <code>torch.ops." + text(i.op).str() +
                   "</code> does not match its real kernel: " + text(i.reason).str();
          break;
      }
      info = i.page.empty() ? link(kFakeKernelGuide, "How to write a fake kernel").str()
                            : link(i.page, "Symbolic guard information").str();
      body += "<tr><td>" + type + "</td><td>" + reason + "</td><td>" + info + "</td></tr>\n";
    }
    body += "</table>\n";
  }
  std::string program;
  for (const auto& e : m.index.entries())
    for (const auto& o : e.outputs)
      if (program.empty() && o.url.find("exported_program") != std::string::npos) program = o.url;
  auto w = out.open("index.html");
  begin_page(*w, "Draft Export Report", "");
  render(*w, "export_index.html",
         {{"custom_header", Html::trusted(opts.custom_header_html)},
          {"body", Html::trusted(body)},
          {"program", program.empty() ? text("(none in the log)") : link(program, program)}});
  end_page(*w, "", opts);
}

}  // namespace tlscope::report
