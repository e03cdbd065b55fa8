// One log in, one report folder out: the whole single-log run.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

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

// Reads `log` (plain, .gz or .zst) and writes the report into `out_dir`
// (already prepared). `progress(done, total)` is called now and then.
RunResult build_report(const std::string& log, const std::string& out_dir, const Options& opts,
                       const std::function<void(uint64_t, uint64_t)>& progress = {});

// What ingest needs of the report's options.
ingest::IngestOptions ingest_options(const Options& opts);

}  // namespace tlscope::jobs
