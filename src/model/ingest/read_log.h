// A log read into the model: the trace reader feeding the model builder.
// What `summary`, `check` and the multi-rank doctor run, and what the report
// runs with itself as the sink.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "io/line_reader.h"
#include "model/ingest/options.h"
#include "model/ingest/pages.h"
#include "model/report_model.h"

namespace tlscope::ingest {

struct ReadOptions {
  IngestOptions ingest;
  // Called with the bytes consumed so far, about every megabyte.
  std::function<void(uint64_t)> progress;
  // Called after each record is in the model (`--follow` says what is new).
  std::function<void()> after_record;
};

// Reads every line of `lines` into `model` (whose input_path the caller
// sets); `sink` (optional) receives pages and files as they are made.
void read_records(io::LineReader& lines, model::ReportModel* model, const ReadOptions& opts,
                  RecordSink* sink = nullptr);

struct ReadResult {
  bool ok = false;  // false: the log could not be opened (see error)
  std::string error;
  model::ReportModel model;
};

// Opens `log` (plain, .gz or .zst) and reads it into a model, writing nothing.
ReadResult read_log(const std::string& log, const IngestOptions& opts);

}  // namespace tlscope::ingest
