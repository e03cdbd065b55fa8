#include "cli/diff_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "analysis/diff.h"
#include "analysis/diff_out.h"
#include "analysis/doctor.h"
#include "cli/checks.h"
#include "cli/read_pair.h"
#include "cli/subcommands.h"
#include "jobs/pipeline.h"
#include "model/ingest/read_any.h"
#include "report/diff_page.h"
#include "report/text_report.h"
#include "trace/content.h"

namespace tlscope::cli {
namespace {

// -o DIR: both reports, then the diff pages beside them.
bool report_both(Side* a, Side* b, const std::string& dir, bool overwrite, bool exact, int argc,
                 char** argv) {
  std::string error;
  if (!jobs::prepare_output_dir(dir, overwrite, &error)) {
    cli::error(error);
    return false;
  }
  report::Options opts;
  opts.command_line = command_line(argc, argv);
  opts.payload_files = true;
  opts.noise_digests = !exact;
  for (auto [side, sub] : {std::pair{a, "a"}, std::pair{b, "b"}}) {
    std::string out = (std::filesystem::path(dir) / sub).string();
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    std::fprintf(stderr, "Report of %s: %s/index.html\n", side->log.c_str(), out.c_str());
    if (trace::sniff_content(side->log) == trace::Content::kText) {
      // TORCH_LOGS text: its report, and the model read once more.
      auto t = report::build_text_report(side->log, out, opts);
      if (!t.ok) {
        side->error = t.error;
        return false;
      }
      auto r = ingest::read_any_log(side->log, {});
      side->ok = r.ok;
      side->error = r.error;
      if (!r.ok) return false;
      side->model = std::move(r.model);
    } else {
      auto r = jobs::build_report(side->log, out, opts);
      side->ok = r.ok;
      side->error = r.error;
      if (!r.ok) return false;
      side->model = std::move(r.model);
    }
    side->figures = analysis::figures_of(analysis::diagnose(side->model));
  }
  return true;
}

}  // namespace

int diff_command(int argc, char** argv) {
  CLI::App app{
      "What changed between two logs: compile ids, frames, recompile and graph-break "
      "reasons, artifacts",
      "tlscope diff"};
  Side a, b;
  bool json = false, overwrite = false, exact = false;
  std::string out;
  app.add_option("a", a.log,
                 "The log before (a trace log or TORCH_LOGS text, plain, .gz or .zst)")
      ->required();
  app.add_option("b", b.log, "The log after")->required();
  app.add_flag("--json", json, "Print the diff as JSON (docs/diff.md) instead of text");
  app.add_option("-o", out, "Also write both reports and diff.html into this folder")
      ->check(non_empty_folder());
  app.add_flag("--overwrite", overwrite, "Replace the -o folder if it holds a report");
  app.add_flag("--exact", exact,
               "Compare artifacts byte for byte (by default object ids, addresses, times and "
               "temporary folders are not differences: docs/diff.md)");
  if (int rc = parse_subcommand(app, argc, argv); rc >= 0) return rc;
  for (const auto* s : {&a, &b})
    if (int rc = check_log_path(s->log, LogArg::kFile)) return rc;
  if (out.empty()) {
    read_both(&a, &b, exact);
  } else if (!report_both(&a, &b, out, overwrite, exact, argc, argv)) {
    if (!a.error.empty() || !b.error.empty()) error(!a.error.empty() ? a.error : b.error);
    return kExitError;
  }
  for (const auto* s : {&a, &b}) {
    if (!s->ok) return error(s->error);
    if (s->model.source_kind != "torch_trace") continue;
    if (auto w = not_a_trace_log(s->log, s->model.stats); !w.empty()) warning(w);
  }
  if (a.model.source_kind != b.model.source_kind)
    warning("one log is a TORCH_TRACE log and the other TORCH_LOGS text: what the text does not "
            "have (compile times, artifacts, compile ids before 2024) shows as a difference");
  // The changed artifacts, their operator deltas and each compile's
  // operator summary: 4 chunks of each list in memory (1.2 MB at most), the
  // rest in a temporary file (an unrelated pair of 1 GB logs has 64,000
  // changes). 16 chunks were no faster on that pair, and held 2 MB more at
  // the peak (bench/README.md, nineteenth pass).
  auto d = analysis::diff_logs(a.model, a.figures, b.model, b.figures, 4);
  report::Options page_opts;
  page_opts.noise_digests = !exact;  // the pages dim noise as the diff ignores it
  if (!out.empty() && !report::write_diff_pages(d, out, a.log, b.log, page_opts))
    return error("some pages of " + out + " could not be written");
  if (json) {
    analysis::write_diff_json(stdout, d, a.log, b.log, command_line(argc, argv));
  } else {
    std::string text = analysis::diff_text(d, a.log, b.log, ::isatty(STDOUT_FILENO) != 0);
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  if (!out.empty()) std::fprintf(stderr, "Diff: %s/diff.html\n", out.c_str());
  return 0;
}

}  // namespace tlscope::cli
