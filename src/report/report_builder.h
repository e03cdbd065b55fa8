// Builds the report in one pass: receives each record from the trace reader,
// updates the model, and writes the record's files at once (REPORT_FEATURES
// F12, F14, F17, F19). finish() writes the pages that need the whole log.
#pragma once

#include <simdjson.h>

#include <cstdio>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/report_model.h"
#include "report/options.h"
#include "report/output_dir.h"
#include "trace/trace_reader.h"

namespace tlscope::report {

// The record being dispatched to the handlers.
struct RecordContext {
  const trace::Record& rec;
  const trace::Envelope& env;
  model::IndexEntry* entry;
  std::string folder;                       // raw compile-id folder or unknown_<line>
  std::optional<std::string> payload_file;  // set when a handler wrote the payload
  trace::Key key = trace::Key::kCount;      // the key whose handler is running
  bool md5_checked = false;                 // the payload went out with its MD5 to check
  std::vector<std::string> verbatim;        // files to hold the payload as it is
};

class ReportBuilder : public trace::RecordVisitor {
 public:
  // `check_md5`: the trace reader left payload MD5s to us (they are then
  // checked on the writer thread, on the copy written to disk).
  ReportBuilder(model::ReportModel* model, OutputDir* out, const Options& opts,
                bool check_md5 = false);
  ~ReportBuilder() override;

  void on_record(const trace::Record& rec) override;
  void on_rejected(const trace::Record& rec, trace::Rejection why) override;
  // Writes index.html, compile_directory.json, failures, raw.jsonl etc.
  void finish();

  // --- for handlers ---
  model::ReportModel& model() { return *model_; }
  OutputDir& out() { return *out_; }
  const Options& options() const { return opts_; }
  // Registers a per-compile file `<folder>/<stem>_<n>.<ext>` (F12) and returns
  // its relative path. `payload_file`: the file holds the payload (F14).
  std::string add_file(RecordContext& ctx, std::string_view base_name, bool payload_file);
  // Registers a file at a fixed path (dump_file/...), consuming a number.
  void add_global(RecordContext& ctx, const std::string& rel);
  void add_link(RecordContext& ctx, std::string_view name, std::string_view url);
  // Writes the record's payload as it is to `rel`.
  // Writes the payload verbatim to `rel` (once the handlers are done with it).
  void write_payload(RecordContext& ctx, const std::string& rel);
  // Parses a payload as JSON with the builder's own parser (the envelope's
  // DOM stays valid). Fails softly.
  bool parse_payload_json(std::string_view payload, simdjson::dom::element* out);
  void parser_failure(const std::string& parser, const std::string& why);
  void write_chromium_event(std::string_view payload);

 private:
  void write_verbatim_files(RecordContext& ctx);
  void write_raw_jsonl_line(const trace::Record& rec, const std::optional<std::string>& payload_file);
  void assemble_raw_jsonl();
  void note_phase(simdjson::dom::element event);
  void note_provenance_sources(const RecordContext& ctx, size_t first_output);

  model::ReportModel* model_;
  OutputDir* out_;
  Options opts_;
  bool check_md5_;
  simdjson::dom::parser payload_parser_;
  FILE* raw_jsonl_part_ = nullptr;
  FILE* chromium_ = nullptr;
  bool chromium_first_ = true;
  std::string line_;  // reused buffer
  static constexpr size_t kStreamBuffer = 1u << 20;
  std::unique_ptr<char[]> raw_jsonl_buf_, chromium_buf_;  // outlive their FILEs
  // raw.jsonl: one line's serialised values, and its fields (key, where in values_).
  struct JsonlField {
    std::string_view key;
    size_t at, size;
  };
  std::string values_;
  std::vector<JsonlField> jsonl_fields_;
  int year_ = 1970;
  // B events awaiting their E, per metrics bucket, innermost last.
  struct OpenPhase {
    std::string name, path;
    double ts = 0;
  };
  std::unordered_map<trace::CompileId, std::vector<OpenPhase>, trace::CompileIdHash> open_phases_;
};

}  // namespace tlscope::report
