// Writes the report as the log is read: the sink of the model builder. Each
// record's pages and payload files are written at once (REPORT_FEATURES F12,
// F14, F17, F19), raw.jsonl and chromium_events.json are streamed, and the
// files and pages that need the whole log are written at the end, in two
// steps (finish_files, finish_pages) between which the caller counts the
// payload checks into the model's statistics: the writer only reads the model.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "analysis/doctor.h"

#include "model/ingest/pages.h"
#include "model/report_model.h"
#include "report/options.h"
#include "report/page_context.h"

namespace tlscope::report {

class ReportWriter : public ingest::RecordSink, public PageContext {
 public:
  // `model` is the one the builder fills; pages read it as it grows.
  // `check_md5`: payload digests are checked by the output folder's writers.
  ReportWriter(const model::ReportModel& model, OutputDir* out, const Options& opts,
               bool check_md5);
  ~ReportWriter() override;

  void on_page(const ingest::RecordView& rec, ingest::Page&& page) override;
  void on_record_end(const ingest::RecordFiles& files) override;
  bool checks_md5() const override { return check_md5_; }
  // compile_directory.json, failures, raw.jsonl's string table ..., the
  // diagnosis started; then waits until every file is written and every
  // payload checked (OutputDir::take_md5_failures has them all).
  void finish_files();
  // summary.json, index.html and the other pages that show the statistics.
  void finish_pages();
  // While the log is still read (--follow): index.html (marked live: it
  // reloads itself when a newer one is written), summary.json, the failures
  // page and compile_directory.json of what was read so far. Called between
  // records, on the reading thread.
  void write_snapshot();

  // PageContext, for the page writers.
  const model::ReportModel& model() const override { return *model_; }
  OutputDir& out() override { return *out_; }
  const Options& options() const override { return opts_; }
  void append_chromium_event(std::string_view json) override;

 private:
  void assemble_raw_jsonl();
  void write_index_pages(const Options& opts, const Html& doctor_page);

  const model::ReportModel* model_;
  // The diagnosis runs beside finish_files() and is shown by finish_pages().
  std::thread diagnosis_;
  analysis::DoctorReport doctor_;
  std::string summary_;
  Html doctor_page_;
  OutputDir* out_;
  Options opts_;
  bool check_md5_;
  FILE* raw_jsonl_part_ = nullptr;
  FILE* chromium_ = nullptr;
  bool chromium_first_ = true;
  uint64_t snapshots_ = 0;
  std::string line_;  // reused buffer
  static constexpr size_t kStreamBuffer = 1u << 20;
  std::unique_ptr<char[]> raw_jsonl_buf_, chromium_buf_;  // outlive their FILEs
};

}  // namespace tlscope::report
