#include "model/ingest/read_log.h"

#include "io/line_reader.h"
#include "io/read_ahead.h"
#include "model/ingest/model_builder.h"
#include "trace/trace_reader.h"

namespace tlscope::ingest {
namespace {

// The builder, with a call after each record it took.
class AfterRecord : public trace::RecordVisitor {
 public:
  AfterRecord(trace::RecordVisitor* inner, const std::function<void()>& after)
      : inner_(inner), after_(after) {}
  void on_record(const trace::Record& rec) override {
    inner_->on_record(rec);
    after_();
  }
  void on_rejected(const trace::Record& rec, trace::Rejection why) override {
    inner_->on_rejected(rec, why);
  }
  void on_string(const trace::Record& rec) override { inner_->on_string(rec); }
  void on_unreadable(const io::Line& line, const trace::GlogPrefix* prefix) override {
    inner_->on_unreadable(line, prefix);
  }

 private:
  trace::RecordVisitor* inner_;
  const std::function<void()>& after_;
};

}  // namespace

void read_records(io::LineReader& lines, model::ReportModel* model, const ReadOptions& opts,
                  RecordSink* sink) {
  trace::ReaderOptions ropts;
  ropts.verbose = opts.ingest.verbose;
  ropts.message_prefix = opts.ingest.message_prefix;
  // A sink that writes payloads may check their digests on its copies.
  ropts.verify_md5 = opts.ingest.payload_md5 && !(sink && sink->checks_md5());
  // No one here asks which record failed its check; only how many did.
  ropts.batch_md5 = true;
  ropts.shared_md5 = opts.ingest.shared_md5;
  ropts.md5_reader = opts.ingest.md5_reader;
  ropts.md5_batch_bytes = opts.ingest.md5_batch_bytes;
  ropts.progress = opts.progress;
  // Without a sink (the doctor's commands) most payloads are not read at all.
  ropts.payload_on_demand = sink == nullptr;
  ModelBuilder builder(model, opts.ingest, sink);
  trace::TraceReader reader(&lines, &model->stats, &model->strings, ropts);
  if (!opts.after_record) {
    reader.run(&builder);
  } else {
    AfterRecord notify(&builder, opts.after_record);
    reader.run(&notify);
  }
  // What another thread still digests is filled by the owner of the shared digests.
  if (opts.ingest.noise_digests) model->index.fill_noise_digests(builder.noise_digests());
  model->rank = reader.detected_rank();
}

ReadResult read_log(const std::string& log, const IngestOptions& opts) {
  ReadResult result;
  auto source = io::open_source(log, &result.error);
  if (!source) return result;
  // Reading (and decoding) on a thread of its own, beside the parsing.
  if (source->compressed() ? opts.compressed_read_ahead : opts.plain_read_ahead)
    source = io::read_ahead(std::move(source));
  io::LineReader lines(std::move(source), opts.line_buffer_bytes
                                              ? opts.line_buffer_bytes
                                              : io::LineReader::kDefaultCapacity);
  result.model.input_path = log;
  ReadOptions ropts;
  ropts.ingest = opts;
  read_records(lines, &result.model, ropts);
  result.ok = true;
  return result;
}

}  // namespace tlscope::ingest
