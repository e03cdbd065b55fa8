#include "analysis/doctor.h"

#include "analysis/doctor_parts.h"
#include "analysis/graph_breaks.h"
#include "base/flat_set.h"
#include "base/keyed_deque.h"
#include "model/spill_store.h"
#include "model/spilled_texts.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tlscope::analysis {
namespace {

using detail::is_frame_compile;
using detail::ref_of;
using trace::CompileId;

// "0/1: reason" -> ("0/1", "reason").
std::pair<std::string, std::string> split_reason(std::string_view text) {
  size_t colon = text.find(": ");
  if (colon != std::string_view::npos && colon < 24 &&
      trace::parse_bare_compile_id(text.substr(0, colon)))
    return {std::string(text.substr(0, colon)), std::string(text.substr(colon + 2))};
  return {"", std::string(text)};
}

// "Graph break in user code at file.py:12" -> "file.py:12".
std::string user_frame_of(std::string_view text) {
  static constexpr std::string_view kAt = "Graph break in user code at ";
  size_t p = text.find(kAt);
  if (p == std::string_view::npos) return "";
  size_t e = text.find('\n', p);
  return std::string(
      text.substr(p + kAt.size(), e == std::string_view::npos ? e : e - p - kAt.size()));
}

// The short reason of a graph-break artifact: the "Graph Break Reason:" line.
std::string break_reason_of(std::string_view text) {
  static constexpr std::string_view kReason = "Graph Break Reason: ";
  size_t p = text.find(kReason);
  if (p == std::string_view::npos) return first_line(text);
  return first_line(text.substr(p + kReason.size()));
}

// The reason part of a graph-break artifact, without the user location,
// the traceback and file paths, so that a path such as ".../loggers/x.py"
// does not decide the class.
std::string reason_section(std::string_view text) {
  static constexpr std::string_view kReason = "Graph Break Reason: ";
  size_t p = text.find(kReason);
  std::string_view rest(text);
  if (p != std::string_view::npos) rest.remove_prefix(p + kReason.size());
  std::string out;
  size_t start = 0;
  while (start < rest.size()) {
    size_t nl = rest.find('\n', start);
    std::string_view line =
        rest.substr(start, nl == std::string_view::npos ? rest.npos : nl - start);
    start = nl == std::string_view::npos ? rest.size() : nl + 1;
    if (line.find("User code traceback") != std::string_view::npos ||
        line.find("Traceback") != std::string_view::npos)
      break;
    if (line.find("File \"") != std::string_view::npos) continue;
    out.append(line);
    out += '\n';
  }
  return out;
}

}  // namespace

using detail::add_id;
using detail::names_recompile_limit;
using detail::RefSet;

class DoctorFold::State {
 public:
  explicit State(Detail detail)
      : figures_only_(detail == Detail::kFigures),
        artifact_reasons_(0, ReasonHash{figures_only_}, ReasonEq{figures_only_}),
        candidate_reasons_(0, ReasonHash{figures_only_}, ReasonEq{figures_only_}),
        failures_(figures_only_) {}

  void on_metrics(const model::MetricsRecord& r) {
    ++metrics_;
    failures_.on_metrics(r);
    slowest_.on_metrics(r);
    if (!r.id) return;
    CompileRef ref = ref_of(r.run, *r.id);
    fold_frame(r, ref);
    if (r.recompile_reason && !with_artifact_.count(ref)) candidate_reason(r, ref);
    fold_restarts(r, ref);
  }

  void on_recompile_reasons(const model::RecompileReasons& rr) {
    if (!rr.id) return;
    CompileRef ref = ref_of(rr.run, *rr.id);
    with_artifact_.insert(ref);
    for (const auto& r : rr.reasons) artifact_reason(ref, *rr.id, r);
  }

  void on_graph_break(const model::GraphBreakNote& n) {
    if (!n.id) return;
    CompileRef ref = ref_of(n.run, *n.id);
    if (!where_.contains(ref)) {
      std::string at = user_frame_of(n.text);
      where_.add(ref, at.empty() ? kNoText : texts_.append(at));
    }
    notes_.push_back({n.id, n.run, texts_.append(n.text), n.count});
  }

  void on_loose_failure(const model::LooseFailureNote& n) { failures_.on_loose_failure(n); }

  // A frame's first start names it where no metrics do, and places it
  // (place_frames).
  void on_frame_start(const model::FrameStarts::Start& start, const trace::StringTable& strings) {
    FrameState& s = frame(start.key.first, start.key.second);
    if (s.started) return;
    s.started = true;
    if (!s.named) {
      s.name = start.name;
      if (!figures_only_) s.details().filename = start.display_filename(strings);
    }
    if (!s.line_known) s.line = start.line;
  }

  DoctorReport finish(const model::ReportModel& m) {
    out_.torch_version = m.torch_version;
    out_.source_kind = m.source_kind;
    out_.totals.timed = m.source_kind != "torch_logs";
    out_.text_lines = m.text_lines;
    out_.text_unknown_lines = m.text_unknown_lines;
    out_.text_guard_dumps = m.text_guard_dumps;
    out_.totals.runs = m.runs.count();
    place_frames();
    finish_recompile_reasons();
    finish_patterns();
    // The frames' list made at its size: both doctors finish at the diff's
    // peak, where a list that doubled held 2 MB more for a pair of 2 GB logs
    // (bench/README.md, twenty-fourth pass).
    out_.frames.reserve(order_.size());
    for (const auto& key : order_) out_.frames.push_back(find_frame(key)->take_report());
    frames_.clear();
    frame_compiles_.clear();
    finish_graph_breaks();
    out_.failures = failures_.finish(&out_.totals.failures);
    out_.slowest = slowest_.finish(m.chromium);
    if (!figures_only_) detail::build_advice(&out_);
    std::stable_sort(out_.frames.begin(), out_.frames.end(), listed_before);
    return std::move(out_);
  }

 private:
  // The answer's order of frames: most recompiles, then most compile time
  // (ties keep order_, the frames' place in the log: a stable sort).
  static bool listed_before(const FrameFacts& a, const FrameFacts& b) {
    if (a.recompiles != b.recompiles) return a.recompiles > b.recompiles;
    return a.compile_time_s > b.compile_time_s;
  }
  static constexpr uint64_t kNever = ~uint64_t{0};
  static constexpr uint32_t kNoText = UINT32_MAX;  // in texts_: ""
  using FrameKey = model::FrameKey;

  // A frame as the records met it. The answer lists the frames the
  // dynamo_start stacks name first (by run and id), then the others in the
  // order of their first compilation metrics, then of their first
  // recompile_reasons artifact, then of the first recompile reason only
  // the metrics gave.
  // A frame's facts, and its detail apart: made only where the whole answer
  // is (112 bytes a frame, where a FrameReport takes 168).
  struct FrameState : FrameFacts {
    // (The flags first: they take the facts' last bytes of padding.)
    bool named = false, line_known = false;  // by the metrics' co_name, co_firstlineno
    bool started = false;                    // a dynamo_start stack named it
    bool placed = false;                     // in order_
    uint64_t first_metrics = kNever, first_artifact = kNever;
    // Without kFigures. Its recompile reasons stay where they are as frames
    // come (ReasonAt points at them).
    std::unique_ptr<FrameDetail> detail;

    FrameKey key() const { return {run, frame_id}; }
    FrameDetail& details() {
      if (!detail) detail = std::make_unique<FrameDetail>();
      return *detail;
    }
    FrameReport take_report() {
      FrameReport f;
      static_cast<FrameFacts&>(f) = std::move(*this);
      if (detail) static_cast<FrameDetail&>(f) = std::move(*detail);
      return f;
    }
  };
  static_assert(sizeof(FrameState) <= 112, "a frame's state grew (see FrameState)");

  FrameState* find_frame(FrameKey key) { return frames_.find(key); }
  FrameState& frame(uint32_t run, uint32_t id) {
    return *frames_
                .find_or_add({run, id},
                             [&] {
                               FrameState s;
                               s.run = run;
                               s.frame_id = id;
                               return s;
                             })
                .first;
  }
  // Whether (run, frame id, frame compile id) is met for the first time.
  bool first_compile(uint32_t run, uint32_t frame_id, uint32_t id) {
    return frame_compiles_.insert({run, CompileId{std::nullopt, frame_id, id, std::nullopt}});
  }

  void fold_frame(const model::MetricsRecord& r, const CompileRef& ref) {
    if (!is_frame_compile(r.id) || r.id->autograd_id) return;
    FrameState& s = frame(r.run, *r.id->frame_id);
    s.first_metrics = std::min(s.first_metrics, metrics_);
    if (!r.co_name.empty()) {  // (named by its start or not)
      s.name = r.co_name;
      if (!figures_only_) s.details().filename = r.co_filename;
      s.named = true;
      if (r.co_firstlineno) {
        s.line = *r.co_firstlineno;
        s.line_known = true;
      }
    }
    if (first_compile(r.run, *r.id->frame_id, *r.id->frame_compile_id)) {
      ++s.compiles;
      if (*r.id->frame_compile_id >= 1) ++s.recompiles;
      if (!figures_only_) s.details().compile_ids.push_back(ref);
    }
    if (r.id->attempt && *r.id->attempt >= 1) ++s.restarts;
    if (r.fail_type) ++s.failures;
    s.compile_time_s += r.entire_frame_s.value_or(0);
    s.max_graph_ops = std::max<uint64_t>(s.max_graph_ops, r.graph_op_count.value_or(0));
    // Only a failure or reason that names the limit says it was hit: a frame
    // may compile more often when the user raised the limit.
    if (names_recompile_limit(r.fail_reason.value_or("")) ||
        names_recompile_limit(first_line(r.recompile_reason.value_or(""))))
      s.recompile_limit_hit = true;
  }

  // The frames in the order of the answer (FrameState), but for those only a
  // metrics' recompile reason names (finish_recompile_reasons adds them);
  // the totals of those with starts or compiles.
  void place_frames() {
    // Those not placed yet with a `when`, by it, then by key.
    auto place = [&](auto when) {
      std::vector<std::pair<uint64_t, FrameKey>> met;
      for (const FrameState& s : frames_)
        if (when(s) != kNever && !s.placed) met.push_back({when(s), s.key()});
      std::sort(met.begin(), met.end());
      for (const auto& [at, key] : met) {
        order_.push_back(key);
        find_frame(key)->placed = true;
      }
    };
    place([](const FrameState& s) { return s.started ? 0 : kNever; });
    place([](const FrameState& s) { return s.first_metrics; });
    for (const auto& key : order_) {
      const FrameState& f = *find_frame(key);
      out_.totals.recompile_limit_hits += f.recompile_limit_hit ? 1 : 0;
      out_.totals.compiles += f.compiles;
      out_.totals.recompiles += f.recompiles;
      out_.totals.compile_time_s += f.compile_time_s;
    }
    out_.totals.frames = order_.size();
    place([](const FrameState& s) { return s.first_artifact; });
  }

  // Recompile reasons: a recompile_reasons artifact's are preferred; the
  // metrics' recompile_reason fills gaps. Each (compile, failed entry,
  // first line) once: the sets below hold where such a reason is kept.
  // For the figures, each (compile, pattern) once: a pattern counts the
  // compiles that list it, and keeps the first reason of the first frame
  // (group_reasons), which the first of each is.
  struct ReasonAt {
    const std::vector<RecompileReason>* list;
    size_t index;
    const RecompileReason& operator*() const { return (*list)[index]; }
  };
  struct ReasonHash {
    bool by_pattern = false;
    size_t operator()(const ReasonAt& at) const {
      const RecompileReason& r = *at;
      size_t h = model::CompileRefHash()(r.compile_id);
      if (by_pattern)
        return (h * 1000003u ^ static_cast<size_t>(r.category)) * 1000003u ^
               std::hash<std::string>()(normalize_reason(r.reason));
      for (const std::string* s : {&r.failed_id, &r.reason})
        h = h * 1000003u ^ std::hash<std::string>()(*s);
      return h;
    }
  };
  struct ReasonEq {
    bool by_pattern = false;
    bool operator()(const ReasonAt& a, const ReasonAt& b) const {
      if ((*a).compile_id != (*b).compile_id) return false;
      if (by_pattern)
        return (*a).category == (*b).category &&
               normalize_reason((*a).reason) == normalize_reason((*b).reason);
      return (*a).failed_id == (*b).failed_id && (*a).reason == (*b).reason;
    }
  };
  using ReasonSet = std::unordered_set<ReasonAt, ReasonHash, ReasonEq>;

  static std::optional<RecompileReason> reason_of(const CompileRef& ref, const CompileId& id,
                                                  std::string_view text) {
    if (!id.frame_id || id.autograd_id) return std::nullopt;
    auto [failed, reason] = split_reason(text);
    return RecompileReason{ref, failed, first_line(reason), classify_recompile(reason)};
  }

  // Added to `list` unless `set` has it already.
  static bool add_reason(RecompileReason&& r, std::vector<RecompileReason>* list, ReasonSet* set) {
    list->push_back(std::move(r));
    if (set->insert({list, list->size() - 1}).second) return true;
    list->pop_back();
    return false;
  }

  // For the figures, the patterns are numbered, the pattern of each compile
  // is kept once (patterns_met_: 8-byte slots, 10-22 bytes a compile and
  // pattern, where a reason and its place in a set took 260), and each
  // frame's patterns with the number of its compiles that list them and its
  // first reason (frame_patterns_: 16-byte slots, 21-43 bytes a frame and
  // pattern, where a node map took about 56 and a frame's list of reasons
  // 150).
  // Keyed by the frame's number << 32 | the pattern's.
  struct FramePattern {
    uint32_t reason = kNoText;  // in texts_
    uint32_t compiles = 0;
  };

  // `r` counted in its frame's patterns (kFigures) unless its compile
  // listed that pattern before.
  bool add_pattern(const RecompileReason& r, const FrameState& s) {
    std::string key = reason_pattern_key(r.category, r.reason);
    auto [number, added] = pattern_numbers_.try_emplace(
        std::move(key), static_cast<uint32_t>(pattern_numbers_.size()));
    if (added) pattern_categories_.push_back(r.category);
    if (!patterns_met_.insert(r.compile_id, number->second)) return false;
    uint64_t frame = *frames_.number_of(s.key());
    auto [at, first] = frame_patterns_.find_or_add(frame << 32 | number->second);
    if (first && !r.reason.empty()) at->reason = texts_.append(r.reason);
    ++at->compiles;
    return true;
  }

  // kFigures: each pattern over the frames of the answer, with the reason
  // of the first of them in the answer's order (listed_before, then
  // order_) that gave one, as recompile_patterns() in analysis/diff.cc
  // reads a whole answer.
  void finish_patterns() {
    if (frame_patterns_.empty()) return;
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> place(frames_.size(), kNone);
    for (size_t i = 0; i < order_.size(); ++i)
      place[*frames_.number_of(order_[i])] = static_cast<uint32_t>(i);
    auto before = [&](uint32_t f, uint32_t g) {
      const FrameState &a = frames_[f], &b = frames_[g];
      if (listed_before(a, b)) return true;
      return !listed_before(b, a) && place[f] < place[g];
    };
    struct Sum {
      uint32_t frame = kNone, reason = kNoText, compiles = 0;
    };
    std::vector<Sum> sums(pattern_categories_.size());
    // (In any order: a pattern's frame is the first by before(), which
    // orders every two frames.)
    frame_patterns_.for_each([&](uint64_t key, const FramePattern& p) {
      auto frame = static_cast<uint32_t>(key >> 32);
      if (place[frame] == kNone) return;  // not in the answer
      Sum& sum = sums[static_cast<uint32_t>(key)];
      sum.compiles += p.compiles;
      if (p.reason != kNoText && (sum.frame == kNone || before(frame, sum.frame))) {
        sum.frame = frame;
        sum.reason = p.reason;
      }
    });
    for (size_t n = 0; n < sums.size(); ++n) {
      if (!sums[n].compiles) continue;
      std::string reason;
      if (sums[n].reason != kNoText) reason = texts_.text(sums[n].reason);
      out_.recompile_patterns.push_back(
          {pattern_categories_[n], std::move(reason), sums[n].compiles});
    }
    frame_patterns_.clear();
  }

  // Kept in its frame unless met before (for its compile).
  bool add_to_frame(RecompileReason&& r, FrameState* s) {
    if (figures_only_) return add_pattern(r, *s);
    return add_reason(std::move(r), &s->details().recompile_reasons, &artifact_reasons_);
  }

  void artifact_reason(const CompileRef& ref, const CompileId& id, std::string_view text) {
    auto r = reason_of(ref, id, text);
    if (!r) return;
    FrameState& s = frame(ref.run, *id.frame_id);  // a reason met again: the frame was met
    if (add_to_frame(std::move(*r), &s))
      s.first_artifact = std::min(s.first_artifact, artifacts_++);
  }

  void candidate_reason(const model::MetricsRecord& m, const CompileRef& ref) {
    auto r = reason_of(ref, *m.id, *m.recompile_reason);
    // The same reason is the same compile: had it an artifact, so has this one.
    if (r && add_reason(std::move(*r), &candidates_, &candidate_reasons_))
      candidate_frames_.push_back({m.run, *m.id->frame_id});
  }

  void finish_recompile_reasons() {
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (with_artifact_.count(candidates_[i].compile_id)) continue;
      FrameKey key = candidate_frames_[i];
      bool met = find_frame(key) != nullptr;
      FrameState& s = frame(key.first, key.second);
      if (add_to_frame(std::move(candidates_[i]), &s) && !met) order_.push_back(key);
    }
    candidates_.clear();
    candidate_frames_.clear();
    candidate_reasons_.clear();
    artifact_reasons_.clear();  // of the frames' lists, which move to the answer
    patterns_met_.clear();
  }

  // Graph breaks: the metrics' restart reasons, with the user location of
  // the compile's first graph-break artifact; the artifacts of compiles
  // whose metrics list none. Their texts in texts_.
  struct RestartReason {
    CompileRef ref;
    uint32_t reason = 0;
    Category category = Category::kUnclassified;
  };
  struct Note {
    std::optional<CompileId> id;
    uint32_t run = 1;
    uint32_t text = 0;
    uint32_t count = 1;
  };

  void fold_restarts(const model::MetricsRecord& r, const CompileRef& b) {
    for (const auto& reason : r.restart_reasons) {
      Category cat = classify_graph_break(reason);
      // Dynamo restarting its own analysis is not a graph break; a compile
      // whose metrics list only such restarts keeps its break artifacts.
      if (cat == Category::kInternalRestart) continue;
      from_metrics_.insert(b);
      restarts_.push_back({b, texts_.append(reason), cat});
    }
  }

  void add_break(const CompileRef& id, const std::string& reason, const std::string& user_frame,
                 std::string_view detail, Category cat, uint32_t times = 1) {
    std::string key = normalize_reason(reason) + "|" + user_frame;
    auto [it, inserted] = break_index_.try_emplace(key, out_.graph_breaks.size());
    if (inserted) {
      break_ids_.emplace_back();
      GraphBreakGroup g;
      GraphBreakParts parts = graph_break_parts(detail);
      g.reason = reason;
      g.normalized = normalize_reason(reason);
      g.user_frame = user_frame;
      g.detail = detail;
      g.explanation = parts.explanation;
      g.registry_id = parts.registry_id;
      g.registry_url = parts.registry_url;
      g.category = cat;
      out_.graph_breaks.push_back(std::move(g));
    }
    GraphBreakGroup& g = out_.graph_breaks[it->second];
    g.count += times;
    add_id(&g.compile_ids, &break_ids_[it->second], id);
    out_.totals.graph_breaks += times;
  }

  void finish_graph_breaks() {
    for (const RestartReason r : restarts_) {
      std::string reason(texts_.text(r.reason));
      auto w = where_.find(r.ref);
      std::string where;
      if (w && *w != kNoText) where = texts_.text(*w);
      add_break(r.ref, first_line(reason), where, reason, r.category);
    }
    for (const Note n : notes_) {
      if (!n.id) continue;  // (a chunk the file lost: none is kept without one)
      if (from_metrics_.count(ref_of(n.run, *n.id))) continue;
      std::string text(texts_.text(n.text));
      Category cat = classify_graph_break(reason_section(text));
      if (cat == Category::kInternalRestart) continue;
      add_break(ref_of(n.run, *n.id), break_reason_of(text), user_frame_of(text), text, cat,
                n.count);
    }
    std::stable_sort(out_.graph_breaks.begin(), out_.graph_breaks.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
  }

  const bool figures_only_;
  DoctorReport out_;
  uint64_t metrics_ = 0, artifacts_ = 0;  // records met
  struct FrameTraits {
    using Key = FrameKey;
    static Key key(const FrameState& s) { return s.key(); }
    static size_t hash(Key key) { return model::frame_key_hash(key); }
  };
  // The frames in the order they were met, each where it was put: where a
  // map's node and a set of each frame's compile ids took about 150 bytes
  // more a frame.
  base::KeyedDeque<FrameState, FrameTraits> frames_;
  model::CompileSet frame_compiles_;  // (run, frame id, frame compile id) met
  std::vector<FrameKey> order_;
  // Recompile reasons.
  model::CompileSet with_artifact_;
  ReasonSet artifact_reasons_, candidate_reasons_;
  std::unordered_map<std::string, uint32_t> pattern_numbers_;  // kFigures: "class|pattern"
  std::vector<Category> pattern_categories_;                   // kFigures: by number
  model::TaggedCompileSet patterns_met_;                       // kFigures: (compile, pattern)
  // kFigures: (frame's number in frames_, pattern)
  base::FlatMap<FramePattern, model::PackedKeys> frame_patterns_;
  std::vector<RecompileReason> candidates_;  // the metrics' reasons, with their frames
  std::vector<FrameKey> candidate_frames_;
  // Graph breaks.
  // The user location of each compile's first graph-break artifact, in
  // texts_ (a string took 60 bytes more a compile).
  model::CompileNumbers where_;
  // Both held until the end, and read once then, in log order: past two
  // chunks of each (32 KB a chunk) and of their texts, in a temporary file.
  static constexpr size_t kResidentChunks = 2;
  model::SpillStore<Note, 512> notes_{kResidentChunks};
  model::SpillStore<RestartReason, 512> restarts_{kResidentChunks};
  model::SpilledTexts texts_{kResidentChunks};
  model::CompileSet from_metrics_;
  std::unordered_map<std::string, size_t> break_index_;
  std::vector<RefSet> break_ids_;  // each group's compile_ids
  detail::FailureFold failures_;
  detail::SlowestFold slowest_;
};

DoctorFold::DoctorFold(Detail detail) : s_(std::make_unique<State>(detail)) {}
DoctorFold::~DoctorFold() = default;
void DoctorFold::on_metrics(const model::MetricsRecord& r) { s_->on_metrics(r); }
void DoctorFold::on_recompile_reasons(const model::RecompileReasons& r) {
  s_->on_recompile_reasons(r);
}
void DoctorFold::on_graph_break(const model::GraphBreakNote& n) { s_->on_graph_break(n); }
void DoctorFold::on_loose_failure(const model::LooseFailureNote& n) { s_->on_loose_failure(n); }
void DoctorFold::on_frame_start(const model::FrameStarts::Start& s,
                                const trace::StringTable& strings) {
  s_->on_frame_start(s, strings);
}

// The model's lists, fed in any order (RecordFeed allows it): frames are
// placed by class once all are in (place_frames), a metrics' recompile
// reason is weighed against the artifacts at the end (finish_recompile_
// reasons), graph breaks are grouped at the end, and failures outside
// frames are sorted by line.
DoctorReport DoctorFold::finish(const model::ReportModel& m) {
  for (const auto& r : m.recompile_reasons) s_->on_recompile_reasons(r);
  for (const auto& n : m.graph_break_notes) s_->on_graph_break(n);
  for (const auto& n : m.loose_failures) s_->on_loose_failure(n);
  for (const auto* start : m.frame_starts.by_key()) s_->on_frame_start(*start, m.strings);
  for (const auto& r : m.metrics) s_->on_metrics(r);
  return s_->finish(m);
}

DoctorReport diagnose(const model::ReportModel& model) { return DoctorFold().finish(model); }

}  // namespace tlscope::analysis
