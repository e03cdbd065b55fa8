#include "analysis/doctor.h"

#include "analysis/doctor_parts.h"
#include "analysis/graph_breaks.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace tlscope::analysis {
namespace {

using trace::CompileId;

CompileRef ref_of(uint32_t run, const CompileId& raw) { return {run, raw.metrics_bucket()}; }

bool is_frame_compile(const std::optional<CompileId>& id) {
  return id && id->frame_id && id->frame_compile_id;
}

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

// Phases as a tree walked depth first, each level in the order it began; a
// phase whose parent never ended is shown at the top.
std::vector<std::pair<const model::Phase*, uint32_t>> tree_order(
    const std::vector<model::Phase>& phases, const model::ChromiumSummary& chromium) {
  std::vector<const model::Phase*> sorted;
  for (const auto& p : phases) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->start_us < b->start_us; });
  auto path_of = [&](const model::Phase* p) -> const std::string& { return chromium.text(p->path); };
  std::set<std::string> paths;
  for (const auto* p : sorted) paths.insert(path_of(p));
  auto parent_of = [](const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
  };
  std::vector<std::pair<const model::Phase*, uint32_t>> out;
  std::function<void(const std::string&, uint32_t)> walk = [&](const std::string& parent,
                                                               uint32_t depth) {
    for (const auto* p : sorted) {
      std::string up = parent_of(path_of(p));
      bool top = parent.empty() && (up.empty() || !paths.count(up));
      if ((parent.empty() ? top : up == parent) && out.size() < phases.size()) {
        out.emplace_back(p, depth);
        walk(path_of(p), depth + 1);
      }
    }
  };
  walk("", 0);
  return out;
}

// A metrics record kept past its feed call: its page is a view that lasts
// only that long (model::RecordFeed).
struct KeptRecord {
  model::MetricsRecord record;
  std::string page;
  explicit KeptRecord(const model::MetricsRecord& r) : record(r), page(r.page) { record.page = {}; }
};

// One failure outside any frame, from the records of one group (below).
template <class Items>
FailureReport outside_failure(const Items& group) {
  FailureReport f;
  f.outside_frame = true;
  const model::LooseFailureNote *interp = nullptr, *partial = nullptr;
  const KeptRecord* metrics = nullptr;
  for (const auto& it : group) {
    if (it.metrics)
      metrics = it.metrics;
    else if (it.note->kind == "fx_interpreter_error")
      interp = it.note;
    else
      partial = it.note;
    if (it.note) f.artifacts.push_back(it.note->kind);
  }
  if (metrics) {
    const model::MetricsRecord& r = metrics->record;
    f.fail_type = *r.fail_type;
    f.reason = r.fail_reason.value_or("");
    if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
    f.page = metrics->page;
  }
  if (interp) {
    if (f.fail_type.empty()) f.fail_type = interp->kind;
    if (f.reason.empty()) f.reason = interp->text.substr(0, interp->text.find("\nGraphModule:"));
    if (f.user_frame.empty()) f.user_frame = traceback_user_frame(interp->text);
    if (f.page.empty()) f.page = interp->page;
  }
  if (partial) {
    if (f.fail_type.empty()) f.fail_type = partial->kind;
    if (f.reason.empty())
      f.reason = "make_fx could not trace the function; the graph traced until then is in " +
                 partial->page;
    if (f.page.empty()) f.page = partial->page;
  }
  if (f.reason.empty()) f.reason = "(no reason given)";
  std::string all = f.reason;
  if (interp) all += "\n" + interp->text;
  f.category = classify_failure(f.fail_type, all);
  return f;
}

// A compile of the longest, with its phases.
SlowCompile slow_compile(const model::MetricsRecord& r, const model::ChromiumSummary& chromium) {
  SlowCompile s;
  s.compile_id = ref_of(r.run, *r.id);
  s.frame_name = r.co_name;
  s.page = r.page;
  s.seconds = *r.entire_frame_s;
  // The metrics' own times nest: AOT autograd > Inductor > code generation.
  uint32_t depth = 0;
  for (auto [name, v] : {std::pair{"backend", r.backend_s}, std::pair{"inductor", r.inductor_s},
                         std::pair{"code_gen", r.code_gen_s}})
    if (v) {
      s.phases[name] = *v;
      s.phase_tree.push_back({name, depth++, *v});
    }
  auto ph = chromium.phases.find(s.compile_id);
  if (ph == chromium.phases.end()) return s;
  // Chromium events time every phase and its nesting: their tree replaces
  // the one above; the flat list keeps the metrics' names.
  s.phase_tree.clear();
  for (const auto& [p, depth] : tree_order(ph->second, chromium)) {
    s.phase_tree.push_back({chromium.text(p->name), depth, p->seconds});
    s.phases.try_emplace(chromium.text(p->name), 0.0);
  }
  std::map<std::string, double> sums;
  for (const auto& p : ph->second) sums[chromium.text(p.name)] += p.seconds;
  for (const auto& [name, secs] : sums)
    if (auto it = s.phases.find(name); it != s.phases.end() && it->second == 0.0) it->second = secs;
  return s;
}

}  // namespace

using detail::add_id;
using detail::names_recompile_limit;
using detail::RefSet;

class DoctorFold::State {
 public:
  void on_metrics(const model::MetricsRecord& r) {
    ++metrics_;
    fold_frame(r);
    fold_failure(r);
    if (r.id && r.recompile_reason && !with_artifact_.count(ref_of(r.run, *r.id)))
      candidate_reason(r.run, *r.id, *r.recompile_reason);
    if (r.id) fold_restarts(r);
    if (r.id && r.entire_frame_s) fold_slowest(r);
  }

  void on_recompile_reasons(const model::RecompileReasons& rr) {
    if (!rr.id) return;
    with_artifact_.insert(ref_of(rr.run, *rr.id));
    for (const auto& r : rr.reasons) artifact_reason(rr.run, *rr.id, r);
  }

  void on_graph_break(const model::GraphBreakNote& n) {
    if (!n.id) return;
    where_.try_emplace(ref_of(n.run, *n.id), user_frame_of(n.text));
    notes_.push_back(n);
  }

  void on_loose_failure(const model::LooseFailureNote& n) { loose_.push_back(n); }

  DoctorReport finish(const model::ReportModel& m) {
    out_.torch_version = m.torch_version;
    out_.source_kind = m.source_kind;
    out_.totals.timed = m.source_kind != "torch_logs";
    out_.text_lines = m.text_lines;
    out_.text_unknown_lines = m.text_unknown_lines;
    out_.text_guard_dumps = m.text_guard_dumps;
    out_.totals.runs = m.runs.count();
    place_frames(m);
    finish_recompile_reasons();
    for (const auto& key : order_) out_.frames.push_back(std::move(frames_[key].report));
    frames_.clear();
    finish_graph_breaks();
    finish_failures();
    for (const auto& r : slowest_) {
      out_.slowest.push_back(slow_compile(r.record, m.chromium));
      out_.slowest.back().page = r.page;
    }
    detail::build_advice(&out_);
    std::stable_sort(out_.frames.begin(), out_.frames.end(), [](const auto& a, const auto& b) {
      if (a.recompiles != b.recompiles) return a.recompiles > b.recompiles;
      return a.compile_time_s > b.compile_time_s;
    });
    return std::move(out_);
  }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  using FrameKey = std::pair<uint32_t, uint32_t>;  // (run, frame id)

  // A frame as the records met it. The answer lists the frames the model's
  // dynamo_start stacks name first (by run and id), then the others in the
  // order of their first compilation metrics, then of their first
  // recompile_reasons artifact, then of the first recompile reason only
  // the metrics gave.
  struct FrameState {
    FrameReport report;
    uint64_t first_metrics = kNever, first_artifact = kNever;
    bool named = false, line_known = false;  // by the metrics' co_name, co_firstlineno
    // Its frame compile ids met: a bit each (they count from 0), a set for
    // those too large for that.
    std::vector<bool> compiled;
    std::set<uint32_t> compiled_far;
    bool first_compile(uint32_t id) {
      constexpr uint32_t kBits = 1u << 16;
      if (id >= kBits) return compiled_far.insert(id).second;
      if (id >= compiled.size()) compiled.resize(std::max<size_t>(id + 1, compiled.size() * 2));
      if (compiled[id]) return false;
      compiled[id] = true;
      return true;
    }
  };

  FrameState& frame(uint32_t run, uint32_t id) {
    auto [it, inserted] = frames_.try_emplace({run, id});
    if (inserted) {
      it->second.report.run = run;
      it->second.report.frame_id = id;
    }
    return it->second;
  }

  void fold_frame(const model::MetricsRecord& r) {
    if (!is_frame_compile(r.id) || r.id->autograd_id) return;
    FrameState& s = frame(r.run, *r.id->frame_id);
    FrameReport& f = s.report;
    s.first_metrics = std::min(s.first_metrics, metrics_);
    if (!r.co_name.empty()) {
      f.name = r.co_name;
      f.filename = r.co_filename;
      s.named = true;
      if (r.co_firstlineno) {
        f.line = *r.co_firstlineno;
        s.line_known = true;
      }
    }
    if (s.first_compile(*r.id->frame_compile_id)) {
      ++f.compiles;
      if (*r.id->frame_compile_id >= 1) ++f.recompiles;
      f.compile_ids.push_back(ref_of(r.run, *r.id));
    }
    if (r.id->attempt && *r.id->attempt >= 1) ++f.restarts;
    if (r.fail_type) ++f.failures;
    f.compile_time_s += r.entire_frame_s.value_or(0);
    f.max_graph_ops = std::max<uint64_t>(f.max_graph_ops, r.graph_op_count.value_or(0));
    // Only a failure or reason that names the limit says it was hit: a frame
    // may compile more often when the user raised the limit.
    if (names_recompile_limit(r.fail_reason.value_or("")) ||
        names_recompile_limit(first_line(r.recompile_reason.value_or(""))))
      f.recompile_limit_hit = true;
  }

  // The frames in the order of the answer (FrameState), but for those only a
  // metrics' recompile reason names (finish_recompile_reasons adds them);
  // the totals of those with starts or compiles.
  void place_frames(const model::ReportModel& m) {
    std::set<FrameKey> placed;
    for (const auto& [key, head] : m.frame_starts) {
      FrameState& s = frame(key.first, key.second);
      if (!s.named) {
        s.report.name = head.name;
        s.report.filename = head.display_filename(m.strings);
      }
      if (!s.line_known) s.report.line = head.line;
      order_.push_back(key);
      placed.insert(key);
    }
    auto place = [&](uint64_t FrameState::*first) {
      std::vector<std::pair<uint64_t, FrameKey>> met;
      for (const auto& [key, s] : frames_)
        if (s.*first != kNever && !placed.count(key)) met.push_back({s.*first, key});
      std::sort(met.begin(), met.end());
      for (const auto& [when, key] : met) {
        order_.push_back(key);
        placed.insert(key);
      }
    };
    place(&FrameState::first_metrics);
    for (const auto& key : order_) {
      const FrameReport& f = frames_[key].report;
      out_.totals.recompile_limit_hits += f.recompile_limit_hit ? 1 : 0;
      out_.totals.compiles += f.compiles;
      out_.totals.recompiles += f.recompiles;
      out_.totals.compile_time_s += f.compile_time_s;
    }
    out_.totals.frames = order_.size();
    place(&FrameState::first_artifact);
  }

  // Recompile reasons: a recompile_reasons artifact's are preferred; the
  // metrics' recompile_reason fills gaps. Each (compile, failed entry,
  // first line) once: the sets below hold where such a reason is kept.
  struct ReasonAt {
    const std::vector<RecompileReason>* list;
    size_t index;
    const RecompileReason& operator*() const { return (*list)[index]; }
  };
  struct ReasonHash {
    size_t operator()(const ReasonAt& at) const {
      const RecompileReason& r = *at;
      size_t h = model::CompileRefHash()(r.compile_id);
      for (const std::string* s : {&r.failed_id, &r.reason})
        h = h * 1000003u ^ std::hash<std::string>()(*s);
      return h;
    }
  };
  struct ReasonEq {
    bool operator()(const ReasonAt& a, const ReasonAt& b) const {
      return (*a).compile_id == (*b).compile_id && (*a).failed_id == (*b).failed_id &&
             (*a).reason == (*b).reason;
    }
  };
  using ReasonSet = std::unordered_set<ReasonAt, ReasonHash, ReasonEq>;

  static std::optional<RecompileReason> reason_of(uint32_t run, const CompileId& id,
                                                  std::string_view text) {
    if (!id.frame_id || id.autograd_id) return std::nullopt;
    auto [failed, reason] = split_reason(text);
    return RecompileReason{ref_of(run, id), failed, first_line(reason), classify_recompile(reason)};
  }

  // Added to `list` unless `set` has it already.
  static bool add_reason(RecompileReason&& r, std::vector<RecompileReason>* list, ReasonSet* set) {
    list->push_back(std::move(r));
    if (set->insert({list, list->size() - 1}).second) return true;
    list->pop_back();
    return false;
  }

  void artifact_reason(uint32_t run, const CompileId& id, std::string_view text) {
    auto r = reason_of(run, id, text);
    if (!r) return;
    FrameState& s = frame(run, *id.frame_id);  // a reason met again: the frame was met
    if (add_reason(std::move(*r), &s.report.recompile_reasons, &artifact_reasons_))
      s.first_artifact = std::min(s.first_artifact, artifacts_++);
  }

  void candidate_reason(uint32_t run, const CompileId& id, std::string_view text) {
    auto r = reason_of(run, id, text);
    // The same reason is the same compile: had it an artifact, so has this one.
    if (r && add_reason(std::move(*r), &candidates_, &candidate_reasons_))
      candidate_frames_.push_back({run, *id.frame_id});
  }

  void finish_recompile_reasons() {
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (with_artifact_.count(candidates_[i].compile_id)) continue;
      FrameKey key = candidate_frames_[i];
      bool met = frames_.count(key);
      FrameState& s = frame(key.first, key.second);
      if (add_reason(std::move(candidates_[i]), &s.report.recompile_reasons, &artifact_reasons_) &&
          !met)
        order_.push_back(key);
    }
    candidates_.clear();
    candidate_frames_.clear();
    candidate_reasons_.clear();
    artifact_reasons_.clear();  // of the frames' lists, which move to the answer
  }

  // Graph breaks: the metrics' restart reasons, with the user location of
  // the compile's first graph-break artifact; the artifacts of compiles
  // whose metrics list none.
  struct RestartReason {
    CompileRef ref;
    std::string_view reason;  // in the model's texts
    Category category;
  };

  void fold_restarts(const model::MetricsRecord& r) {
    for (const auto& reason : r.restart_reasons) {
      Category cat = classify_graph_break(reason);
      // Dynamo restarting its own analysis is not a graph break; a compile
      // whose metrics list only such restarts keeps its break artifacts.
      if (cat == Category::kInternalRestart) continue;
      CompileRef b = ref_of(r.run, *r.id);
      from_metrics_.insert(b);
      restarts_.push_back({b, reason, cat});
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
    for (const auto& r : restarts_) {
      auto w = where_.find(r.ref);
      add_break(r.ref, first_line(r.reason), w == where_.end() ? "" : w->second,
                std::string(r.reason), r.category);
    }
    for (const auto& n : notes_) {
      if (from_metrics_.count(ref_of(n.run, *n.id))) continue;
      Category cat = classify_graph_break(reason_section(n.text));
      if (cat == Category::kInternalRestart) continue;
      add_break(ref_of(n.run, *n.id), break_reason_of(n.text), user_frame_of(n.text), n.text, cat,
                n.count);
    }
    std::stable_sort(out_.graph_breaks.begin(), out_.graph_breaks.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
  }

  // Failures of frames in the order of their metrics; one ran eagerly when
  // no later metrics record of its bucket succeeded.
  void fold_failure(const model::MetricsRecord& r) {
    if (r.id && !r.fail_type) {
      if (auto open = failing_.find(ref_of(r.run, *r.id)); open != failing_.end()) {
        for (size_t i : open->second) out_.failures[i].ran_eagerly = false;
        failing_.erase(open);
      }
    }
    if (!is_frame_compile(r.id)) {  // outside any frame: finish_failures()
      if (r.fail_type) outside_metrics_.emplace_back(r);
      return;
    }
    framed_lines_.push_back(r.lineno);
    if (!r.fail_type) return;
    FailureReport f;
    f.compile_id = ref_of(r.run, *r.id);
    f.fail_type = *r.fail_type;
    f.reason = r.fail_reason.value_or("(no reason given)");
    if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
    f.page = r.page;
    f.category = classify_failure(f.fail_type, f.reason);
    f.ran_eagerly = true;
    failing_[*f.compile_id].push_back(out_.failures.size());
    out_.failures.push_back(std::move(f));
  }

  void finish_failures() {
    collect_outside_failures();
    for (auto& f : out_.failures) f.root_cause = root_exception(f.reason);
    out_.totals.failures = out_.failures.size();
  }

  // Failures outside any frame (export, make_fx): artifacts without a compile
  // id and compilation metrics without a frame id. One failure often leaves
  // several of them in a row (the interpreter's error, then make_fx's partial
  // graph, then the metrics): records with no frame compile between them and
  // of different kinds are one failure.
  void collect_outside_failures() {
    struct Item {
      uint64_t lineno;
      const model::LooseFailureNote* note;
      const KeptRecord* metrics;
      std::string kind() const { return note ? note->kind : "compilation_metrics"; }
    };
    std::vector<Item> items;
    for (const auto& n : loose_) items.push_back({n.lineno, &n, nullptr});
    for (const auto& r : outside_metrics_) items.push_back({r.record.lineno, nullptr, &r});
    std::sort(items.begin(), items.end(),
              [](const Item& a, const Item& b) { return a.lineno < b.lineno; });
    std::sort(framed_lines_.begin(), framed_lines_.end());
    const auto& framed = framed_lines_;
    std::vector<Item> group;
    auto flush = [&] {
      if (!group.empty()) out_.failures.push_back(outside_failure(group));
      group.clear();
    };
    for (const auto& it : items) {
      bool split =
          !group.empty() && (std::any_of(group.begin(), group.end(),
                                         [&](const Item& g) { return g.kind() == it.kind(); }) ||
                             std::upper_bound(framed.begin(), framed.end(), group.back().lineno) !=
                                 std::lower_bound(framed.begin(), framed.end(), it.lineno));
      if (split) flush();
      group.push_back(it);
    }
    flush();
  }

  // The longest compiles (the first of equal ones first).
  void fold_slowest(const model::MetricsRecord& r) {
    double s = *r.entire_frame_s;
    auto at = std::find_if(slowest_.begin(), slowest_.end(),
                           [&](const KeptRecord& q) { return *q.record.entire_frame_s < s; });
    if (at == slowest_.end() && slowest_.size() >= model::kSlowestCompiles) return;
    slowest_.insert(at, KeptRecord(r));
    if (slowest_.size() > model::kSlowestCompiles) slowest_.pop_back();
  }

  DoctorReport out_;
  uint64_t metrics_ = 0, artifacts_ = 0;  // records met
  std::map<FrameKey, FrameState> frames_;
  std::vector<FrameKey> order_;
  // Recompile reasons.
  std::unordered_set<CompileRef, model::CompileRefHash> with_artifact_;
  ReasonSet artifact_reasons_, candidate_reasons_;
  std::vector<RecompileReason> candidates_;  // the metrics' reasons, with their frames
  std::vector<FrameKey> candidate_frames_;
  // Graph breaks.
  std::unordered_map<CompileRef, std::string, model::CompileRefHash> where_;
  std::vector<model::GraphBreakNote> notes_;
  std::vector<RestartReason> restarts_;
  std::unordered_set<CompileRef, model::CompileRefHash> from_metrics_;
  std::unordered_map<std::string, size_t> break_index_;
  std::vector<RefSet> break_ids_;  // each group's compile_ids
  // Failures: those of each bucket that no later metrics record has
  // succeeded yet (indexes in out_.failures); outside any frame.
  std::unordered_map<CompileRef, std::vector<size_t>, model::CompileRefHash> failing_;
  std::vector<KeptRecord> outside_metrics_;
  std::vector<model::LooseFailureNote> loose_;
  std::vector<uint64_t> framed_lines_;         // of the compilation metrics of frames
  std::vector<KeptRecord> slowest_;            // longest first, at most kSlowestCompiles
};

DoctorFold::DoctorFold() : s_(std::make_unique<State>()) {}
DoctorFold::~DoctorFold() = default;
void DoctorFold::on_metrics(const model::MetricsRecord& r) { s_->on_metrics(r); }
void DoctorFold::on_recompile_reasons(const model::RecompileReasons& r) {
  s_->on_recompile_reasons(r);
}
void DoctorFold::on_graph_break(const model::GraphBreakNote& n) { s_->on_graph_break(n); }
void DoctorFold::on_loose_failure(const model::LooseFailureNote& n) { s_->on_loose_failure(n); }

DoctorReport DoctorFold::finish(const model::ReportModel& m) {
  for (const auto& r : m.recompile_reasons) s_->on_recompile_reasons(r);
  for (const auto& n : m.graph_break_notes) s_->on_graph_break(n);
  for (const auto& n : m.loose_failures) s_->on_loose_failure(n);
  for (const auto& r : m.metrics) s_->on_metrics(r);
  return s_->finish(m);
}

DoctorReport diagnose(const model::ReportModel& model) { return DoctorFold().finish(model); }

}  // namespace tlscope::analysis
