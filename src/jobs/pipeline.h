// One log in, one report folder out: the whole single-log run.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/byte_source.h"
#include "model/ingest/options.h"
#include "model/report_model.h"
#include "report/options.h"

namespace tlscope::jobs {

using report::Options;

// Makes `dir` ready for a report: creates it, or with `overwrite` replaces it
// if it is empty or holds a previous tlscope/tlparse report. Refuses anything
// else, with the reason in `error`.
bool prepare_output_dir(const std::string& dir, bool overwrite, std::string* error);

struct RunResult {
  bool ok = false;  // false: could not read the input or write the output
  std::string error;
  model::ReportModel model;
};

// A log followed while its program writes it (`tlscope LOG --follow`).
struct Follow {
  std::unique_ptr<io::ByteSource> source;  // the log, read as it grows (io::follow_file)
  // After each record, on the reading thread (the terminal's event lines).
  std::function<void(const model::ReportModel&)> after_record;
  // index.html, summary.json and the other pages of the whole log are
  // rewritten (atomically) at most this often while new records come.
  double snapshot_s = 2;
  // After each rewrite of those pages, on the reading thread.
  std::function<void(const model::ReportModel&)> on_snapshot;
  // Set by build_report while it reads: call it from the source's wait
  // callback, so that the last records are shown while the log is quiet.
  std::function<void()> while_waiting;
};

// Reads `log` (plain, .gz or .zst) and writes the report into `out_dir`
// (already prepared). `progress(done, total)` is called now and then. With
// `follow`, the log is read from its source until that ends; every file is
// then replaced atomically, raw.log is the bytes read, and the report when
// it ends is the one a run on the log as read would write.
RunResult build_report(const std::string& log, const std::string& out_dir, const Options& opts,
                       const std::function<void(uint64_t, uint64_t)>& progress = {},
                       Follow* follow = nullptr);

// What ingest needs of the report's options.
ingest::IngestOptions ingest_options(const Options& opts);

}  // namespace tlscope::jobs
