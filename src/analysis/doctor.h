// The compile doctor: per-frame compiles, recompile reasons, graph breaks,
// failures and compile time, with advice (issue 3). Pure functions of the model.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/classify.h"
#include "model/record_feed.h"
#include "model/report_model.h"

namespace tlscope::analysis {

using model::CompileRef;

// "0/1", or "0/1 (run 2)" when `show_run` (a log of several runs).
std::string ref_label(const CompileRef& ref, bool show_run);
// Compile ids for a line of text: "0/1 0/2", or "0/1; run 2: 0/0 0/1" in a
// log of several runs; at most `max` of them, then "...".
std::string refs_text(const std::vector<CompileRef>& refs, bool show_run, size_t max = 8);

struct RecompileReason {
  CompileRef compile_id;  // the recompile this reason led to
  std::string failed_id;  // the cached entry whose guard failed ("0/0"), if named
  std::string reason;     // as PyTorch wrote it (first line)
  Category category = Category::kUnclassified;
};

// Recompile reasons of one pattern (class and normalised reason, as
// group_reasons() groups them): the first as PyTorch wrote it, and how many
// recompiles list it.
struct ReasonPattern {
  Category category = Category::kUnclassified;
  std::string reason;
  uint32_t compiles = 0;
};

// A frame's figures: what every doctor's answer has of it (a diff reads
// these: DoctorFold::Detail::kFigures keeps only them).
struct FrameFacts {
  uint32_t run = 1;  // frames of different runs are different frames
  uint32_t frame_id = 0;
  std::string name;
  int64_t line = 0;
  uint32_t compiles = 0, recompiles = 0, restarts = 0, failures = 0;
  double compile_time_s = 0;
  uint64_t max_graph_ops = 0;
  bool recompile_limit_hit = false;
};

// What only the whole answer has of a frame.
struct FrameDetail {
  std::string filename;
  std::vector<CompileRef> compile_ids;  // metrics buckets, in log order
  std::vector<RecompileReason> recompile_reasons;
};

struct FrameReport : FrameFacts, FrameDetail {};

struct GraphBreakGroup {
  std::string reason;        // first line as PyTorch wrote it (of the first occurrence)
  std::string normalized;    // grouping key
  std::string user_frame;    // "file:line" when known
  std::string detail;        // full text of the first occurrence
  std::string explanation;   // PyTorch's explanation (structured form), "" if none
  std::string registry_id;   // "GB0059" where the log links PyTorch's page on it
  std::string registry_url;  // that page
  Category category = Category::kUnclassified;
  uint32_t count = 0;
  std::vector<CompileRef> compile_ids;
};

struct FailureReport {
  std::optional<CompileRef> compile_id;  // nullopt outside any frame
  std::string fail_type, reason, user_frame, page;
  std::string root_cause;  // root_exception(reason): the line a summary shows
  // The artifacts that recorded a failure outside any frame (export,
  // make_fx): "fx_interpreter_error", "make_fx_fail_partial".
  std::vector<std::string> artifacts;
  Category category = Category::kCompileError;  // or kDataDependent
  bool ran_eagerly = false;
  bool outside_frame = false;
};

struct Advice {
  Category category = Category::kUnclassified;
  std::string message;  // ends with `page_note` when there is one
  std::vector<CompileRef> compile_ids;
  std::string page_note, page_id, page_url;  // PyTorch's page on a graph break
};

// A compiler phase of one compile, in the order the phases began; `depth`
// says how deeply it is nested in the others.
struct PhaseTime {
  std::string name;
  uint32_t depth = 0;
  double seconds = 0;
};

struct SlowCompile {
  CompileRef compile_id;
  std::string frame_name, page;
  double seconds = 0;                    // entire frame compile time
  std::map<std::string, double> phases;  // backend, inductor, code gen, chromium phases
  std::vector<PhaseTime> phase_tree;     // the same, nested, in time order
};

struct Totals {
  uint64_t frames = 0, compiles = 0, recompiles = 0, graph_breaks = 0, failures = 0;
  double compile_time_s = 0;
  uint64_t recompile_limit_hits = 0;  // frames that reached their recompile limit
  uint32_t runs = 1;                  // several when Dynamo was reset and compiled again in one log
  bool timed = true;                  // false for TORCH_LOGS text: it has no compile times
  // Frames are then per run: a compile id is named with its run.
  bool several_runs() const { return runs > 1; }
  // Nothing was compiled: no frame, graph break or failure (a run that
  // stopped before compiling, a log of other records).
  bool empty() const { return frames == 0 && compiles == 0 && graph_breaks == 0 && failures == 0; }
};

// Adds the counts and compile time of `t` to `sum` (the ranks of a job).
void add_totals(Totals* sum, const Totals& t);

// What happened and is expected (one recompile on train()/eval()): said,
// not advised.
struct Expected {
  Category category = Category::kUnclassified;
  std::string message;
  std::vector<CompileRef> compile_ids;
};

struct DoctorReport {
  Totals totals;
  bool several_runs() const { return totals.several_runs(); }
  std::vector<FrameReport> frames;            // ranked: recompiles, then compile time
  std::vector<GraphBreakGroup> graph_breaks;  // most frequent first
  std::vector<FailureReport> failures;
  std::vector<Advice> advice;
  std::vector<Expected> expected;
  std::vector<SlowCompile> slowest;  // slowest first, at most 20
  // DoctorFold::Detail::kFigures: the frames' recompile reasons by pattern
  // instead, each pattern once: its reason that of the first frame above
  // to list it (the frame's first), its count that of all frames.
  std::vector<ReasonPattern> recompile_patterns;
  std::string torch_version;
  // "torch_trace", or "torch_logs" for TORCH_LOGS text, with what its reader
  // counted.
  std::string source_kind = "torch_trace";
  uint64_t text_lines = 0, text_unknown_lines = 0, text_guard_dumps = 0;
};

DoctorReport diagnose(const model::ReportModel& model);

// The doctor fed a log's records one at a time: as they are read
// (ingest::IngestOptions::feed; the model then keeps none of them), or from
// a model that kept them (diagnose()). What it holds grows with what it
// will say (frames, recompile reasons, graph breaks, failures), not with
// the log's compiles; the answer is the same either way.
class DoctorFold : public model::RecordFeed {
 public:
  // kFigures: for figures_of() only (what a diff reads, analysis/diff.h),
  // in less memory. Its answer's frames list no compile ids, file names
  // nor recompile reasons, which are given by pattern for the whole log
  // instead (DoctorReport::recompile_patterns); there is no advice, and
  // failures are counted (Totals::failures), not listed.
  enum class Detail : uint8_t { kAnswer, kFigures };
  explicit DoctorFold(Detail detail = Detail::kAnswer);
  ~DoctorFold() override;
  DoctorFold(const DoctorFold&) = delete;
  DoctorFold& operator=(const DoctorFold&) = delete;

  void on_metrics(const model::MetricsRecord& r) override;
  void on_recompile_reasons(const model::RecompileReasons& r) override;
  void on_graph_break(const model::GraphBreakNote& n) override;
  void on_loose_failure(const model::LooseFailureNote& n) override;
  void on_frame_start(const model::FrameStarts::Start& s,
                      const trace::StringTable& strings) override;

  // The answer, once the whole log is read: `m`'s own lists of records and
  // frame starts (when it kept them) are fed first; the rest of the model
  // (phases, runs) is read here. Once.
  DoctorReport finish(const model::ReportModel& m);

 private:
  class State;
  std::unique_ptr<State> s_;
};

// A frame's recompile reasons with the same class and pattern (numbers
// ignored): each recompile lists every cached entry whose guard failed, so a
// frame that recompiled 14 times has 105 reasons but only a few patterns.
struct ReasonGroup {
  Category category = Category::kUnclassified;
  std::string reason;                   // the first one as PyTorch wrote it
  std::vector<CompileRef> compile_ids;  // the recompiles that list it, in order
};
std::vector<ReasonGroup> group_reasons(const std::vector<RecompileReason>& reasons);

}  // namespace tlscope::analysis
