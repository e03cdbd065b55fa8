// `tlscope summary LOG --follow`: the doctor of a TORCH_TRACE log as it is written.
#include <cstdio>
#include <string>

#include "cli/checks.h"
#include "cli/follow.h"
#include "cli/trace_events.h"
#include "io/follow_source.h"
#include "io/line_reader.h"
#include "model/ingest/options.h"
#include "model/ingest/read_log.h"

namespace tlscope::cli {

int follow_trace(const FollowTrace& f, const SummaryFormat& format) {
  catch_follow_signals();
  model::ReportModel model;
  model.input_path = f.log;
  TraceEvents events(f.quiet);
  io::FollowOptions opts;
  opts.idle_s = f.idle_s;
  opts.stop = follow_stop_flag();
  opts.on_wait = [&] { events.waiting(); };
  std::string why;
  auto source = io::follow_file(f.log, opts, &why);
  if (!source) return error(why);
  io::LineReader lines(std::move(source));
  ingest::ReadOptions ropts;
  ropts.ingest = ingest::doctor_options(false);
  ropts.after_record = [&] { events.after_record(model); };
  ingest::read_records(lines, &model, ropts);
  events.done();
  Diagnosed d;
  d.one = analysis::diagnose(model);
  std::string out = summary_output(d, f.log, format);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace tlscope::cli
