// The record being ingested, as its ingest functions see it (the functions
// of model/ingest/ingest_functions.h), and the state of the builder they may
// use: none of them sees the builder that dispatches to them.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/ingest/options.h"
#include "model/ingest/pages.h"
#include "model/report_model.h"
#include "trace/record_json.h"
#include "trace/trace_reader.h"

namespace tlscope::ingest {

struct IngestContext;

// What the ingest functions may use of the builder: the model, the options,
// the sink of pages, the payload parser, and what is pending between
// records (shape notes and graph inputs waiting for their compile's
// metrics, the file counter, open chromium phases). ModelBuilder is one.
class IngestState {
 public:
  IngestState(model::ReportModel* model, const IngestOptions& opts, RecordSink* sink)
      : model_(model), opts_(opts), sink_(sink) {}

  model::ReportModel& model() { return *model_; }
  const IngestOptions& options() const { return opts_; }
  // Pages are only made when someone writes them.
  bool wants_pages() const { return sink_ != nullptr; }
  void emit(IngestContext& ctx, Page&& page);
  // Parses a payload as JSON with the builder's own parser (the envelope's
  // DOM stays valid). Fails softly.
  bool parse_payload_json(std::string_view payload, simdjson::dom::element* out);
  void parser_failure(const std::string& parser, const std::string& why);
  // A per-line message, with the options' prefix.
  void message(const std::string& text);
  uint64_t next_number() { return next_number_++; }
  // A buffer for one record's text (pretty JSON), reused.
  std::string& scratch() { return scratch_; }

  // Shape notes and graph inputs of a compile, by metrics bucket, until its
  // compilation_metrics takes them.
  std::vector<model::ShapeNote>& pending_notes(const trace::CompileId& bucket) {
    return pending_notes_[bucket];
  }
  std::vector<model::TensorInput>& pending_inputs(const trace::CompileId& bucket) {
    return pending_inputs_[bucket];
  }
  std::vector<model::ShapeNote> take_notes(const trace::CompileId& bucket);
  std::vector<model::TensorInput> take_inputs(const trace::CompileId& bucket);
  // vLLM's pass graphs are compared with the graph before them (vllm.cc).
  void set_pass_baseline(std::string_view text) { pass_baseline_ = std::string(text); }
  std::optional<std::string> take_pass_baseline() { return std::exchange(pass_baseline_, std::nullopt); }
  void reset_pass_baseline() { pass_baseline_.reset(); }
  // Chromium B/E pairs: the compile phases of the model (see chromium.cc).
  void note_phase(simdjson::dom::element event);
  // With IngestOptions::noise_digests: the digests of payloads (shared with
  // another log read at the same time, or this log's own).
  trace::NoiseDigests& noise_digests();

 protected:
  ~IngestState() = default;

  model::ReportModel* model_;
  IngestOptions opts_;
  RecordSink* sink_;
  simdjson::dom::parser payload_parser_;
  trace::RecordJson record_json_;
  std::string scratch_;
  uint64_t next_number_ = 0;  // F12: one counter for the whole log
  std::optional<std::string> pass_baseline_;
  std::unique_ptr<trace::NoiseDigests> own_noise_digests_;
  std::unordered_map<trace::CompileId, std::vector<model::ShapeNote>, trace::CompileIdHash>
      pending_notes_;
  std::unordered_map<trace::CompileId, std::vector<model::TensorInput>, trace::CompileIdHash>
      pending_inputs_;
  // B events awaiting their E, per metrics bucket, innermost last.
  struct OpenPhase {
    std::string name, path;
    double ts = 0;
  };
  std::unordered_map<trace::CompileId, std::vector<OpenPhase>, trace::CompileIdHash> open_phases_;
};

// The record being ingested, as its ingest functions see it.
struct IngestContext {
  IngestState& b;
  const trace::Record& rec;
  const trace::Envelope& env;
  model::IndexEntry* entry;
  std::string folder;                       // raw compile-id folder or unknown_<line>
  trace::Key key = trace::Key::kCount;      // the key whose function is running
  std::optional<std::string> payload_file;  // the file that holds the payload (raw.jsonl)
  std::vector<std::string> verbatim;        // files to hold the payload as it is
  bool drop = false;                        // export: the record is not reported at all

  simdjson::dom::element value() const { return env.value(key); }
  // The record's subgraph_name, "" if none: every file it adds carries it.
  std::string_view subgraph_name() const;
  // Registers a per-compile file `<folder>/<stem>_<n>.<ext>` (F12) and
  // returns its relative path. `holds_payload`: the payload is the file (F14).
  std::string add_file(std::string_view base_name, bool holds_payload);
  // add_file, and the payload is written to it as it is.
  std::string add_payload_file(std::string_view base_name);
  // Registers a file at a fixed path (dump_file/...), consuming a number.
  void add_global(const std::string& rel);
  // With IngestOptions::payload_files: the file as `tlscope diff` compares it
  // (in `folder`, or at the fixed path `where` without a name), with the
  // payload's facts (IngestOptions::noise_digests) or where it is
  // (noise_later).
  void add_payload_facts(std::string_view where, std::optional<std::string_view> name,
                         uint64_t number, bool holds_payload, trace::NoiseDigests::Graph graph);
  // Its key, and where it is in the log or its facts noted now.
  void note_payload_facts(model::PayloadFile* f);
  void add_link(std::string_view name, std::string_view url);
};

}  // namespace tlscope::ingest
