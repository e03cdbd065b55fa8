// The options that shape a report, declared once for every command that
// writes one (the main command and `tlscope rank`).
#pragma once

#include <CLI/CLI.hpp>

#include "report/options.h"

namespace tlscope::cli {

struct ReportFlags {
  bool strict = false, verbose = false, plain_text = false, export_mode = false;
  bool provenance = false, no_raw_log_gz = false;
  std::string custom_header;
};

// --strict, --custom-header-html, -v, -p, --no-raw-log-gz, -e, -i.
void add_report_flags(CLI::App& app, ReportFlags* f);

report::Options report_options(const ReportFlags& f, const std::string& command_line);

}  // namespace tlscope::cli
