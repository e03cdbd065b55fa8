// Writes the report as the log is read: the sink of the model builder. Each
// record's pages and payload files are written at once (REPORT_FEATURES F12,
// F14, F17, F19), raw.jsonl and chromium_events.json are streamed, and
// finish() writes the pages that need the whole log.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "model/ingest/pages.h"
#include "model/report_model.h"
#include "report/options.h"
#include "report/output_dir.h"

namespace tlscope::report {

class ReportWriter : public ingest::RecordSink {
 public:
  // `model` is the one the builder fills; pages read it as it grows.
  // `check_md5`: payload digests are checked here, on the writer thread.
  ReportWriter(model::ReportModel* model, OutputDir* out, const Options& opts, bool check_md5);
  ~ReportWriter() override;

  void on_page(const ingest::RecordView& rec, ingest::Page&& page) override;
  void on_record_end(const ingest::RecordFiles& files) override;
  bool checks_md5() const override { return check_md5_; }
  // index.html, compile_directory.json, failures, raw.jsonl's string table ...
  void finish();

  // --- for page writers ---
  const model::ReportModel& model() const { return *model_; }
  OutputDir& out() { return *out_; }
  const Options& options() const { return opts_; }
  void append_chromium_event(std::string_view json);

 private:
  void assemble_raw_jsonl();

  model::ReportModel* model_;
  OutputDir* out_;
  Options opts_;
  bool check_md5_;
  FILE* raw_jsonl_part_ = nullptr;
  FILE* chromium_ = nullptr;
  bool chromium_first_ = true;
  std::string line_;  // reused buffer
  static constexpr size_t kStreamBuffer = 1u << 20;
  std::unique_ptr<char[]> raw_jsonl_buf_, chromium_buf_;  // outlive their FILEs
};

}  // namespace tlscope::report
