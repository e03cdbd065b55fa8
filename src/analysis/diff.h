// What changed between two logs (issue 13): a before and an after run, or
// two ranks of one job. Pure function of the two models and their doctors:
// compile ids only in one, per-frame changes, recompile and graph-break
// reasons that appeared or disappeared, and the artifacts of compile ids in
// both whose payloads differ (by MD5).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/doctor.h"
#include "model/report_model.h"
#include "model/spill_store.h"

namespace tlscope::analysis {

// One side's figures of a frame (zero when the frame is not in that log).
struct FrameFigures {
  bool present = false;
  std::string name;
  uint32_t compiles = 0, recompiles = 0, graph_breaks = 0, failures = 0;
  double compile_time_s = 0;
  bool operator==(const FrameFigures&) const = default;
};

struct FrameChange {
  uint32_t run = 1, frame_id = 0;
  FrameFigures a, b;
};

// A recompile-reason or graph-break pattern, with how often each side has it.
struct PatternChange {
  Category category = Category::kUnclassified;
  std::string pattern;  // the reason as PyTorch wrote it (first occurrence)
  std::string where;    // graph breaks: user code location, when known
  uint32_t count_a = 0, count_b = 0;
};

// An operator whose count differs between the two sides' graph. Its name is
// that of the graph's operator list (model::CompileIndex::operators), which must
// outlive it: 250,000 of them for an unrelated pair of 1 GB logs (24 bytes
// each).
struct OperatorDelta {
  std::string_view name;  // "aten.mm"
  uint32_t a = 0, b = 0;
};

// The same in a compile's summary, with the artifact where it was counted.
struct CountedOperator : OperatorDelta {
  std::string_view artifact;  // "aot_forward_graph", in the DiffReport's store
};

// What the changes of one diff view: each compile id and artifact name
// once, and the operator deltas of all changed artifacts in one list (with
// a limit, most of it in a temporary file: 250,000 deltas for an unrelated
// pair of 1 GB logs). Shared by the DiffReport and its copies.
class DiffStore {
 public:
  using Deltas = model::SpillStore<OperatorDelta, 4096>;  // 96 KB a chunk
  std::string_view text(std::string_view s);
  // At most `resident_chunks` chunks of deltas in memory from here on;
  // before the first is added.
  void spill_deltas(size_t resident_chunks) { deltas_ = Deltas(resident_chunks); }
  // Adds one; the number of the first is deltas_added() before.
  void add_delta(const OperatorDelta& d) { deltas_.add(d); }
  size_t deltas_added() const { return deltas_.size(); }
  // `n` of them from the `first`, copies.
  std::vector<OperatorDelta> deltas(size_t first, size_t n) const;

 private:
  std::deque<std::string> texts_;
  std::unordered_set<std::string_view> known_;  // views of texts_
  Deltas deltas_;
};

// An artifact of a compile id that both logs have. It names its payload
// file in each model's index (kNoFile on the side that lacks it) and points
// at that index, which must outlive it, as must the DiffReport's store its
// texts and deltas are in: an unrelated pair of 1 GB logs has 64,000 of
// them (80 bytes each), held in a ChangeList (below).
struct ArtifactChange {
  static constexpr uint32_t kNoFile = UINT32_MAX;
  std::string_view compile_id;  // "[0/1]"
  std::string_view
      artifact;  // "dynamo_output_graph", "inductor_output_code_cabc" (#2 when repeated)
  uint32_t a = kNoFile, b = kNoFile;  // model::CompileIndex::payload_file
  const model::CompileIndex* index_a = nullptr;
  const model::CompileIndex* index_b = nullptr;
  // Graphs: the operators whose count differs, in the store (copies).
  const DiffStore* store = nullptr;
  uint32_t operators_at = 0, operators_n = 0;
  std::vector<OperatorDelta> operators() const {
    return operators_n ? store->deltas(operators_at, operators_n) : std::vector<OperatorDelta>();
  }
  enum Kind : uint8_t { kChanged, kOnlyA, kOnlyB } kind = kChanged;
  // The files themselves (none on a side without one).
  std::optional<model::PayloadFile> payload_a() const { return file_of(a, index_a); }
  std::optional<model::PayloadFile> payload_b() const { return file_of(b, index_b); }
  // Report-relative paths of the files ("" on a side without one).
  std::string file_a() const { return url_of(payload_a(), index_a); }
  std::string file_b() const { return url_of(payload_b(), index_b); }
  // Where the payload as text is in each report: the file itself when it
  // holds the payload, else its copy under payloads/ (F14).
  std::string text_a() const { return text_of(payload_a(), index_a); }
  std::string text_b() const { return text_of(payload_b(), index_b); }
  std::string md5_a() const { return md5_of(payload_a(), index_a); }
  std::string md5_b() const { return md5_of(payload_b(), index_b); }
  // file_a() to md5_b() at once, each file taken from its index once.
  struct Files {
    std::string file_a, file_b, md5_a, md5_b;
  };
  Files files() const;

 private:
  static std::optional<model::PayloadFile> file_of(uint32_t id, const model::CompileIndex* index);
  static std::string url_of(const std::optional<model::PayloadFile>& f,
                            const model::CompileIndex* index) {
    return f ? index->url_of(*f) : std::string();
  }
  static std::string md5_of(const std::optional<model::PayloadFile>& f,
                            const model::CompileIndex* index) {
    return f ? f->md5.text(index->texts()) : std::string();
  }
  static std::string text_of(const std::optional<model::PayloadFile>& f,
                             const model::CompileIndex* index);
};

// The changed artifacts in order, 512 to a chunk (40 KB); with a limit, all
// but that many chunks in a temporary file (model/spill_store.h). Read back
// as copies.
using ChangeList = model::SpillStore<ArtifactChange, 512>;

// The operators of one compile id's graphs (FX graphs and output code,
// trace/graph_ops.h) that one side has and the other lacks, and those both
// have a different number of times (in the first graph that shows it).
struct CompileOperators {
  std::string_view compile_id;  // in the DiffReport's store
  // Views of the names trace::graph_operators keeps for the whole run.
  std::vector<std::string_view> added, removed;
  std::vector<CountedOperator> counts;
};

// The compiles' operator summaries, kept as their parts in three lists
// (with a limit, all but that many chunks of each in a temporary file: a
// 1 GB pair has 4,000 of them, 3.5 MB); read back as copies.
class CompileOperatorsList {
 public:
  CompileOperatorsList() = default;
  explicit CompileOperatorsList(size_t resident_chunks)
      : entries_(resident_chunks), names_(resident_chunks), counts_(resident_chunks) {}
  void push_back(const CompileOperators& c);
  CompileOperators operator[](size_t i) const;
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  using const_iterator = model::CopyIterator<CompileOperatorsList, CompileOperators>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  bool spilled() const { return entries_.spilled() || names_.spilled() || counts_.spilled(); }

 private:
  struct Entry {
    std::string_view compile_id;
    uint32_t names_at = 0, added = 0, removed = 0;  // the added names, then the removed
    uint32_t counts_at = 0, counts = 0;
  };
  model::SpillStore<Entry, 1024> entries_;           // 40 KB a chunk
  model::SpillStore<std::string_view, 2048> names_;  // 32 KB
  model::SpillStore<CountedOperator, 1024> counts_;  // 40 KB
};

// A line statistic of the reader ("ok", "fail_payload_md5", ...) whose count
// differs: a log with a broken line is not the same log.
struct StatChange {
  std::string name;
  uint64_t a = 0, b = 0;
};

struct DiffReport {
  Totals a, b;
  bool several_runs = false;  // either log holds several runs (frames are per run)
  std::vector<std::string> compile_ids_only_a, compile_ids_only_b;
  std::vector<std::string_view> compile_ids_in_both;  // in the store below
  std::vector<FrameChange> frames;  // frames whose figures differ, in (run, frame id) order
  std::vector<PatternChange> recompile_reasons;  // patterns whose count differs
  std::vector<PatternChange> graph_breaks;       // likewise
  ChangeList artifacts;                          // in compile-id order, then log order
  uint64_t artifacts_compared = 0;               // with a payload, in compile ids of both
  std::vector<StatChange> stats;                 // line statistics that differ, by name
  // Artifacts whose bytes differ only in run-to-run noise (object ids,
  // addresses, times, temporary folders: trace/noise.h); not changes.
  ChangeList noise_only;
  // The texts and operator deltas of the two lists above.
  std::shared_ptr<DiffStore> store = std::make_shared<DiffStore>();
  // Compile ids in both whose graphs gained, lost or recount operators.
  CompileOperatorsList operators;
  // Nothing differs (times aside).
  bool same() const {
    return compile_ids_only_a.empty() && compile_ids_only_b.empty() && frames.empty() &&
           recompile_reasons.empty() && graph_breaks.empty() && artifacts.empty() && stats.empty();
  }
};

// What diff_logs reads of a log's doctor: its totals, each frame's figures,
// and its recompile-reason and graph-break patterns (by category and
// normalised reason; a graph break's by normalised reason and location).
// A few hundred bytes a frame, where the doctor's answer lists every compile
// id and reason: a diff keeps these once each log is read.
struct DoctorFigures {
  struct Pattern {
    Category category = Category::kUnclassified;
    std::string reason, where;
    uint32_t count = 0;
  };
  Totals totals;
  // By (run, frame id), ascending, each once (as figures_of() makes them):
  // a list, where a map's node took 40 bytes more a frame for each log of a
  // diff while the other was read.
  std::vector<std::pair<model::FrameKey, FrameFigures>> frames;
  std::map<std::string, Pattern> recompile_reasons, graph_breaks;
  bool several_runs() const { return totals.several_runs(); }
};
DoctorFigures figures_of(const DoctorReport& d);

// With `resident_chunks`, the lists of changed artifacts keep at most that
// many chunks each in memory (ChangeList); 0 for all.
DiffReport diff_logs(const model::ReportModel& a, const DoctorFigures& da,
                     const model::ReportModel& b, const DoctorFigures& db,
                     size_t resident_chunks = 0);
inline DiffReport diff_logs(const model::ReportModel& a, const DoctorReport& da,
                            const model::ReportModel& b, const DoctorReport& db,
                            size_t resident_chunks = 0) {
  return diff_logs(a, figures_of(da), b, figures_of(db), resident_chunks);
}
// (Noise is seen through where both models were read with
// IngestOptions::noise_digests; otherwise artifacts compare byte for byte.)

// The compiles whose payload facts (PayloadFile::noise_only, digest, operators)
// diff_logs() reads, by index in each model's CompileIndex: those of a
// compile id in both logs whose payloads are not the same bytes (where they
// are, the compile has nothing to tell whatever its facts).
struct CompilesToCompare {
  std::vector<size_t> a, b;
  // Their artifacts in both logs whose bytes differ, by file (a's, b's: each
  // index's PayloadFile number) where both files are placed: to be compared
  // with each other (PayloadFile::noise_only). Where one is not, the placed
  // one's digest is wanted: its key in `digest_keys`.
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::unordered_set<uint64_t> digest_keys;
};
CompilesToCompare compiles_to_compare(const model::ReportModel& a, const model::ReportModel& b);

}  // namespace tlscope::analysis
