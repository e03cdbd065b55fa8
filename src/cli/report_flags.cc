#include "cli/report_flags.h"

namespace tlscope::cli {

void add_report_flags(CLI::App& app, ReportFlags* f) {
  app.add_flag("--strict", f->strict, "Exit 1 if any log line could not be used");
  app.add_option("--custom-header-html", f->custom_header,
                 "HTML inserted at the top of index.html (not escaped)");
  app.add_flag("-v,--verbose", f->verbose, "Print every unknown key and every bad line");
  app.add_flag("-p,--plain-text", f->plain_text, "Write output code as plain text");
  app.add_flag("--no-raw-log-gz", f->no_raw_log_gz,
               "Do not write raw.log.gz (compressing the log costs a third of the run on 2 cores)");
  app.add_flag("-e,--export", f->export_mode, "Draft-export report");
  app.add_flag("-i,--inductor-provenance", f->provenance, "Inductor provenance pages");
}

report::Options report_options(const ReportFlags& f, const std::string& command_line) {
  report::Options opts;
  opts.plain_text = f.plain_text;
  opts.raw_log_gz = !f.no_raw_log_gz;
  opts.verbose = f.verbose;
  opts.strict = f.strict;
  opts.export_mode = f.export_mode;
  opts.provenance = f.provenance;
  opts.custom_header_html = f.custom_header;
  opts.command_line = command_line;
  return opts;
}

}  // namespace tlscope::cli
