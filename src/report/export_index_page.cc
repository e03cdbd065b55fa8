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

Html issue_row(const model::ExportIssue& i) {
  constexpr Parts part("parts/export.html");
  Html type, reason;
  switch (i.kind) {
    case model::ExportIssue::kGuardEvaluated:
      type = part("guard_evaluated");
      reason = part("guard_evaluated_reason", {{"expr", text(i.expr)}});
      break;
    case model::ExportIssue::kDataDependent:
      type = part("data_dependent");
      reason = part("data_dependent_reason", {{"expr", text(i.expr)}, {"result", text(i.result)}});
      break;
    case model::ExportIssue::kMissingFakeKernel:
      type = part("missing_fake");
      reason = part("missing_fake_reason", {{"op", text(i.op)}});
      break;
    case model::ExportIssue::kMismatchedFakeKernel:
      type = part("mismatched_fake");
      reason = part("mismatched_fake_reason", {{"op", text(i.op)}, {"reason", text(i.reason)}});
      break;
  }
  Html info = i.page.empty() ? link(kFakeKernelGuide, "How to write a fake kernel")
                             : link(i.page, "Symbolic guard information");
  return part("issue", {{"type", type}, {"reason", reason}, {"info", info}});
}

Html issues_html(const model::ReportModel& m) {
  constexpr Parts part("parts/export.html");
  if (m.export_issues.empty()) return part("no_issues");
  Html rows;
  for (const auto& i : m.export_issues) rows += issue_row(i);
  return part("issues", {{"count", html_format("{}", m.export_issues.size())}, {"rows", rows}});
}

}  // namespace

void write_export_index(const model::ReportModel& m, OutputDir& out, const Options& opts) {
  Html body = issues_html(m);
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
