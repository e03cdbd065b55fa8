// The log builder of the analysis unit tests (analysis_log.h).
#include "analysis_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "analysis/diff.h"
#include "analysis/summary.h"
#include "figures_text.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "model/ingest/read_log.h"
#include "trace/md5.h"

namespace tlscope::analysis_log {
using nlohmann::json;

namespace {

// A log held in memory, read as if it were a file.
class StringSource : public io::ByteSource {
 public:
  explicit StringSource(std::string text) : text_(std::move(text)) {}
  long read(char* buf, size_t n) override {
    size_t k = std::min(n, text_.size() - at_);
    std::memcpy(buf, text_.data() + at_, k);
    at_ += k;
    return static_cast<long>(k);
  }
  uint64_t file_offset() const override { return at_; }

 private:
  std::string text_;
  size_t at_ = 0;
};

}  // namespace

// One trace record: a glog prefix, the envelope, and the payload (with its
// MD5 in has_payload) on TAB-led lines.
std::string rec(json env, const std::optional<std::string>& payload) {
  if (payload) {
    std::string_view v = *payload;
    trace::Md5Digest d;
    trace::md5_many(&v, 1, &d);
    env["has_payload"] = trace::to_hex(d);
  }
  std::string s = "V1201 10:00:00.000000 4242 torch/_dynamo/x.py:10] " + env.dump() + "\n";
  if (payload) {
    size_t start = 0;
    for (;;) {
      size_t nl = payload->find('\n', start);
      s += "\t" + payload->substr(start, nl == std::string::npos ? nl : nl - start) + "\n";
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
  }
  return s;
}

// A record of compile [frame/compile_attempt]: `body` is its one key.
std::string at(int frame, int compile, json body, const std::optional<std::string>& payload,
               int attempt) {
  body["frame_id"] = frame;
  body["frame_compile_id"] = compile;
  body["attempt"] = attempt;
  return rec(std::move(body), payload);
}

model::ReportModel read_text(const std::string& log, bool noise_digests) {
  io::LineReader lines(std::make_unique<StringSource>(log));
  model::ReportModel m;
  m.input_path = "test.log";
  ingest::ReadOptions opts;
  opts.ingest.payload_files = true;  // diff-able
  opts.ingest.noise_digests = noise_digests;
  ingest::read_records(lines, &m, opts);
  // A test log that does not read cleanly would test nothing.
  EXPECT_EQ(m.stats.strict_failures(), 0u) << m.stats.to_string();
  EXPECT_EQ(m.stats.unknown, 0u) << m.stats.to_string();
  return m;
}

analysis::DoctorReport diagnose_log(const std::string& log) {
  model::ReportModel whole = read_text(log);
  analysis::DoctorReport d = analysis::diagnose(whole);
  std::string want = analysis::summary_json(d, "test.log", "x");

  auto [streamed, folded] = fold_log(log, true);
  EXPECT_TRUE(streamed.metrics.empty() && streamed.recompile_reasons.empty() &&
              streamed.graph_break_notes.empty() && streamed.loose_failures.empty() &&
              streamed.frame_starts.size() == 0 && streamed.texts.size() == 0);
  EXPECT_EQ(analysis::summary_json(folded, "test.log", "x"), want);

  analysis::DoctorFold reversed;  // metrics first, the artifacts after them
  for (const auto& r : whole.metrics) reversed.on_metrics(r);
  for (const auto& n : whole.loose_failures) reversed.on_loose_failure(n);
  for (const auto& n : whole.graph_break_notes) reversed.on_graph_break(n);
  for (const auto& r : whole.recompile_reasons) reversed.on_recompile_reasons(r);
  model::ReportModel rest;  // what the model has besides the records
  rest.frame_starts = whole.frame_starts;
  rest.strings = whole.strings;
  rest.chromium = whole.chromium;
  rest.runs = whole.runs;
  rest.torch_version = whole.torch_version;
  EXPECT_EQ(analysis::summary_json(reversed.finish(rest), "test.log", "x"), want);

  // What a diff reads, by the doctor that keeps only that: the same.
  analysis::DoctorFold light(analysis::DoctorFold::Detail::kFigures);
  io::LineReader lines(std::make_unique<StringSource>(log));
  model::ReportModel m;
  m.input_path = "test.log";
  ingest::ReadOptions opts;
  opts.ingest.feed = &light;
  ingest::read_records(lines, &m, opts);
  analysis::DoctorReport figured = light.finish(m);
  EXPECT_EQ(tlscope_test::figures_text(analysis::figures_of(figured)),
            tlscope_test::figures_text(analysis::figures_of(d)));
  // Each frame once, in either answer (DoctorFigures::frames).
  EXPECT_EQ(tlscope_test::frames_listed_twice(d), std::vector<std::string>());
  EXPECT_EQ(tlscope_test::frames_listed_twice(figured), std::vector<std::string>());
  return d;
}

std::pair<model::ReportModel, analysis::DoctorReport> fold_log(const std::string& log,
                                                               bool phases) {
  analysis::DoctorFold fold;
  io::LineReader lines(std::make_unique<StringSource>(log));
  model::ReportModel m;
  m.input_path = "test.log";
  ingest::ReadOptions opts;
  opts.ingest.feed = &fold;
  opts.ingest.phases = phases;
  ingest::read_records(lines, &m, opts);
  analysis::DoctorReport d = fold.finish(m);
  return {std::move(m), std::move(d)};
}

}  // namespace tlscope::analysis_log

