// Turns every record of a log into model data, once (model/ingest/): the
// trace reader's visitor. Each record goes through the ingest functions of
// its keys (the table in trace/events.def, in table order); what they make
// of it goes into the model, and, when there is a sink, the typed records of
// its pages and its files go on to the sink as they are made. The builder
// owns what is pending between records (shape notes and graph inputs waiting
// for their compile's metrics, the file counter, open chromium phases).
#pragma once

#include <cstddef>

#include "model/ingest/ingest_context.h"

namespace tlscope::ingest {

class ModelBuilder : public trace::RecordVisitor, public IngestState {
 public:
  // `sink` (optional) receives pages and files; without one only the model is built.
  ModelBuilder(model::ReportModel* model, const IngestOptions& opts, RecordSink* sink);

  void on_record(const trace::Record& rec) override;
  void on_rejected(const trace::Record& rec, trace::Rejection why) override;

 private:
  void dispatch(IngestContext& ctx, trace::KeyRole role);
  void note_provenance_sources(const IngestContext& ctx, size_t first_output);
  void end_record(const trace::Record& rec, IngestContext* ctx, bool to_jsonl);
  // A record's entry when the model keeps no index (IngestOptions::index).
  model::IndexEntry& scratch_entry(const std::optional<trace::CompileId>& grouping);

  model::IndexEntry scratch_entry_;
};

}  // namespace tlscope::ingest
