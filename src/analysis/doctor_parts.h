// What the doctor's files share: doctor.cc folds the records into frames,
// recompile reasons and graph breaks, doctor_failures.cc into failures and
// the slowest compiles, doctor_advice.cc advises on what they found.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::analysis::detail {

// Compile ids in the order first met, each once: `seen` holds those of
// `ids` (a group can have thousands; looking through them was quadratic).
using RefSet = model::CompileSet;
void add_id(std::vector<CompileRef>* ids, RefSet* seen, const CompileRef& id);

// A failure or reason that is the recompile limit being hit.
bool names_recompile_limit(std::string_view text);

// A record's compile, by its metrics bucket (attempts share one).
inline CompileRef ref_of(uint32_t run, const trace::CompileId& raw) {
  return {run, raw.metrics_bucket()};
}

inline bool is_frame_compile(const std::optional<trace::CompileId>& id) {
  return id && id->frame_id && id->frame_compile_id;
}

// A metrics record kept past its feed call, whose views last only that
// long (model::RecordFeed): its texts copied into one block of its own.
class KeptRecord {
 public:
  explicit KeptRecord(const model::MetricsRecord& r);
  const model::MetricsRecord& record() const { return record_; }

 private:
  model::MetricsRecord record_;  // views of bytes_
  std::unique_ptr<char[]> bytes_;
};

// The failures, fed every compilation metrics record and every failure
// outside a frame: those of frames in the order of their metrics, then
// those outside any frame, each with its root cause. `count_only`: their
// number alone (finish() gives none), where each kept a report, its texts
// and an entry of `failing_` (DoctorFold::Detail::kFigures).
class FailureFold {
 public:
  explicit FailureFold(bool count_only = false) : count_only_(count_only) {}
  void on_metrics(const model::MetricsRecord& r);
  void on_loose_failure(const model::LooseFailureNote& n) { loose_.push_back(n); }
  // The failures, and `*count` set to their number (that of those it would
  // give with count_only).
  std::vector<FailureReport> finish(uint64_t* count);

 private:
  void collect_outside_failures();

  const bool count_only_;
  uint64_t counted_ = 0;  // count_only: the frames' failures
  std::vector<FailureReport> failures_;
  // Those of each bucket that no later metrics record has succeeded yet
  // (indexes in failures_).
  std::unordered_map<CompileRef, std::vector<size_t>, model::CompileRefHash> failing_;
  std::vector<KeptRecord> outside_metrics_;
  std::vector<model::LooseFailureNote> loose_;
  std::vector<uint64_t> framed_lines_;  // of the compilation metrics of frames
};

// The longest compiles (the first of equal ones first), with their phases.
class SlowestFold {
 public:
  void on_metrics(const model::MetricsRecord& r);
  std::vector<SlowCompile> finish(const model::ChromiumSummary& chromium) const;

 private:
  std::vector<KeptRecord> slowest_;  // longest first, at most kSlowestCompiles
};

// The advice and what is expected, from the frames (in the order first
// met), the graph-break groups and the failures.
void build_advice(DoctorReport* out);

}  // namespace tlscope::analysis::detail
