#include "analysis/doctor.h"

#include "analysis/graph_breaks.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>
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

// A failure that is the recompile limit being hit.
bool names_recompile_limit(std::string_view text) {
  return classify_recompile(text) == Category::kRecompileLimit ||
         text.find("recompile limit") != std::string_view::npos;
}

// Compile ids in the order first met, each once: `seen` holds those of
// `ids` (a group can have thousands; looking through them was quadratic).
using RefSet = std::unordered_set<CompileRef, model::CompileRefHash>;
void add_id(std::vector<CompileRef>* ids, RefSet* seen, const CompileRef& id) {
  if (seen->insert(id).second) ids->push_back(id);
}
// Those of `more` that `ids` lacks, in order: looked for one by one while
// that is cheap, else through a set.
void add_ids(std::vector<CompileRef>* ids, const std::vector<CompileRef>& more) {
  if (ids->size() * more.size() <= 4096) {
    for (const auto& id : more)
      if (std::find(ids->begin(), ids->end(), id) == ids->end()) ids->push_back(id);
    return;
  }
  RefSet seen(ids->begin(), ids->end());
  for (const auto& id : more) add_id(ids, &seen, id);
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

class Diagnoser {
 public:
  explicit Diagnoser(const model::ReportModel& m) : m_(m) {}

  DoctorReport run() {
    out_.torch_version = m_.torch_version;
    out_.source_kind = m_.source_kind;
    out_.totals.timed = m_.source_kind != "torch_logs";
    out_.text_lines = m_.text_lines;
    out_.text_unknown_lines = m_.text_unknown_lines;
    out_.text_guard_dumps = m_.text_guard_dumps;
    collect_frames();
    collect_recompile_reasons();
    collect_graph_breaks();
    collect_failures();
    collect_slowest();
    build_advice();
    rank();
    return std::move(out_);
  }

 private:
  FrameReport& frame(uint32_t run, uint32_t id) {
    auto [it, inserted] = frame_index_.try_emplace({run, id}, out_.frames.size());
    if (inserted) {
      out_.frames.emplace_back();
      out_.frames.back().run = run;
      out_.frames.back().frame_id = id;
    }
    return out_.frames[it->second];
  }

  void collect_frames() {
    // Name and place from the dynamo_start stack (its last frame is the one compiled).
    for (const auto& [key, head] : m_.frame_starts) {
      FrameReport& f = frame(key.first, key.second);
      f.name = head.name;
      f.filename = head.display_filename(m_.strings);
      f.line = head.line;
    }
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
    for (const auto& r : m_.metrics) {
      if (!is_frame_compile(r.id) || r.id->autograd_id) continue;
      FrameReport& f = frame(r.run, *r.id->frame_id);
      if (!r.co_name.empty()) {
        f.name = r.co_name;
        f.filename = r.co_filename;
        if (r.co_firstlineno) f.line = *r.co_firstlineno;
      }
      if (seen.insert({r.run, *r.id->frame_id, *r.id->frame_compile_id}).second) {
        ++f.compiles;
        if (*r.id->frame_compile_id >= 1) ++f.recompiles;
        f.compile_ids.push_back(ref_of(r.run, *r.id));  // new: `seen` says so
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
    for (auto& f : out_.frames) {
      out_.totals.recompile_limit_hits += f.recompile_limit_hit ? 1 : 0;
      out_.totals.compiles += f.compiles;
      out_.totals.recompiles += f.recompiles;
      out_.totals.compile_time_s += f.compile_time_s;
    }
    out_.totals.frames = out_.frames.size();
    out_.totals.runs = m_.runs.count();
  }

  void collect_recompile_reasons() {
    // The artifact is preferred; the metrics' recompile_reason fills gaps.
    std::set<std::string> done;
    auto add = [&](uint32_t run, const CompileId& id, std::string_view text) {
      if (!id.frame_id || id.autograd_id) return;
      auto [failed, reason] = split_reason(text);
      std::string line = first_line(reason);
      CompileRef ref = ref_of(run, id);
      if (!done.insert(fmt::format("{}|{}|{}|{}", run, ref.id.folder(), failed, line)).second)
        return;
      frame(run, *id.frame_id)
          .recompile_reasons.push_back({ref, failed, line, classify_recompile(reason)});
    };
    std::unordered_set<CompileRef, model::CompileRefHash> with_artifact;
    for (const auto& rr : m_.recompile_reasons) {
      if (!rr.id) continue;
      with_artifact.insert(ref_of(rr.run, *rr.id));
      for (const auto& r : rr.reasons) add(rr.run, *rr.id, r);
    }
    for (const auto& r : m_.metrics)
      if (r.id && r.recompile_reason && !with_artifact.count(ref_of(r.run, *r.id)))
        add(r.run, *r.id, *r.recompile_reason);
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

  void collect_graph_breaks() {
    // User locations from the artifacts, by compile.
    std::unordered_map<CompileRef, std::string, model::CompileRefHash> where;
    for (const auto& n : m_.graph_break_notes)
      if (n.id) where.try_emplace(ref_of(n.run, *n.id), user_frame_of(n.text));
    std::unordered_set<CompileRef, model::CompileRefHash> from_metrics;
    for (const auto& r : m_.metrics) {
      if (!r.id || r.restart_reasons.empty()) continue;
      CompileRef b = ref_of(r.run, *r.id);
      auto w = where.find(b);
      for (const auto& reason : r.restart_reasons) {
        Category cat = classify_graph_break(reason);
        // Dynamo restarting its own analysis is not a graph break; a compile
        // whose metrics list only such restarts keeps its break artifacts.
        if (cat == Category::kInternalRestart) continue;
        from_metrics.insert(b);
        add_break(b, first_line(reason), w == where.end() ? "" : w->second, std::string(reason),
                  cat);
      }
    }
    for (const auto& n : m_.graph_break_notes) {
      if (!n.id || from_metrics.count(ref_of(n.run, *n.id))) continue;
      Category cat = classify_graph_break(reason_section(n.text));
      if (cat == Category::kInternalRestart) continue;
      add_break(ref_of(n.run, *n.id), break_reason_of(n.text), user_frame_of(n.text), n.text, cat,
                n.count);
    }
    std::stable_sort(out_.graph_breaks.begin(), out_.graph_breaks.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
    break_ids_.clear();  // by the order before
  }

  void collect_failures() {
    for (size_t i = 0; i < m_.metrics.size(); ++i) {
      const auto& r = m_.metrics[i];
      if (!r.fail_type) continue;
      if (!is_frame_compile(r.id)) continue;  // outside any frame: below
      FailureReport f;
      f.compile_id = ref_of(r.run, *r.id);
      f.fail_type = *r.fail_type;
      f.reason = r.fail_reason.value_or("(no reason given)");
      if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
      f.page = r.page;
      f.category = classify_failure(f.fail_type, f.reason);
      // Eager fallback: no later successful compile of the same bucket.
      f.ran_eagerly = true;
      for (size_t j = i + 1; j < m_.metrics.size(); ++j) {
        const auto& later = m_.metrics[j];
        if (later.id && later.run == r.run &&
            later.id->metrics_bucket() == r.id->metrics_bucket() && !later.fail_type) {
          f.ran_eagerly = false;
          break;
        }
      }
      out_.failures.push_back(std::move(f));
    }
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
      const model::MetricsRecord* metrics;
      std::string kind() const { return note ? note->kind : "compilation_metrics"; }
    };
    std::vector<Item> items;
    std::vector<uint64_t> framed;  // lines of compilation metrics of frames
    for (const auto& n : m_.loose_failures) items.push_back({n.lineno, &n, nullptr});
    for (const auto& r : m_.metrics) {
      if (is_frame_compile(r.id))
        framed.push_back(r.lineno);
      else if (r.fail_type)
        items.push_back({r.lineno, nullptr, &r});
    }
    std::sort(items.begin(), items.end(),
              [](const Item& a, const Item& b) { return a.lineno < b.lineno; });
    std::sort(framed.begin(), framed.end());
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

  template <class Items>
  FailureReport outside_failure(const Items& group) {
    FailureReport f;
    f.outside_frame = true;
    const model::LooseFailureNote *interp = nullptr, *partial = nullptr;
    const model::MetricsRecord* metrics = nullptr;
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
      f.fail_type = *metrics->fail_type;
      f.reason = metrics->fail_reason.value_or("");
      if (metrics->fail_file)
        f.user_frame = fmt::format("{}:{}", *metrics->fail_file, metrics->fail_line.value_or(0));
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

  // The longest compiles (the first of equal ones first), with their phases.
  void collect_slowest() {
    std::vector<const model::MetricsRecord*> timed;
    for (const auto& r : m_.metrics)
      if (r.id && r.entire_frame_s) timed.push_back(&r);
    std::stable_sort(timed.begin(), timed.end(), [](const auto* a, const auto* b) {
      return *a->entire_frame_s > *b->entire_frame_s;
    });
    if (timed.size() > model::kSlowestCompiles) timed.resize(model::kSlowestCompiles);
    for (const auto* r : timed) out_.slowest.push_back(slow_compile(*r));
  }

  SlowCompile slow_compile(const model::MetricsRecord& r) const {
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
    auto ph = m_.chromium.phases.find(s.compile_id);
    if (ph == m_.chromium.phases.end()) return s;
    // Chromium events time every phase and its nesting: their tree replaces
    // the one above; the flat list keeps the metrics' names.
    s.phase_tree.clear();
    const auto& chromium = m_.chromium;
    for (const auto& [p, depth] : tree_order(ph->second, chromium)) {
      s.phase_tree.push_back({chromium.text(p->name), depth, p->seconds});
      s.phases.try_emplace(chromium.text(p->name), 0.0);
    }
    std::map<std::string, double> sums;
    for (const auto& p : ph->second) sums[chromium.text(p.name)] += p.seconds;
    for (const auto& [name, secs] : sums)
      if (auto it = s.phases.find(name); it != s.phases.end() && it->second == 0.0)
        it->second = secs;
    return s;
  }

  void advise(Category c, const std::string& message, const std::vector<CompileRef>& ids) {
    for (auto& a : out_.advice)
      if (a.category == c && a.message == message) {
        add_ids(&a.compile_ids, ids);
        return;
      }
    out_.advice.push_back({c, message, ids, {}, {}, {}});
  }

  void build_advice() {
    for (const auto& f : out_.frames) {
      // One train()/eval() switch per frame is expected: said, not advised.
      // (counted by recompile: one recompile lists each cached entry it failed)
      std::set<std::string> train_eval_ids;
      for (const auto& r : f.recompile_reasons)
        if (r.category == Category::kTrainEval)
          train_eval_ids.insert(std::to_string(r.compile_id.run) + "|" + r.compile_id.id.bare());
      size_t train_eval = train_eval_ids.size();
      for (const auto& r : f.recompile_reasons) {
        if (r.category == Category::kTrainEval && train_eval == 1) {
          std::string msg = expected_text(r.category, f.name);
          bool said = false;
          for (const auto& e : out_.expected) said = said || e.message == msg;
          if (!said) out_.expected.push_back({r.category, msg, {r.compile_id}});
          continue;
        }
        std::string msg = advice_text(r.category, f.name);
        std::string flags = config_flags_named(r.reason);
        if (!flags.empty()) msg += " The reason names " + flags + ".";
        advise(r.category, msg, {r.compile_id});
      }
      if (f.recompile_limit_hit)
        advise(Category::kRecompileLimit, advice_text(Category::kRecompileLimit, f.name),
               f.compile_ids);
      if (f.recompiles >= 3 && f.max_graph_ops >= 50)
        advise(Category::kLargeFrame,
               advice_text(Category::kLargeFrame, f.name) +
                   fmt::format(" ({} ops, {} recompiles)", f.max_graph_ops, f.recompiles),
               f.compile_ids);
    }
    for (const auto& g : out_.graph_breaks) {
      GraphBreakParts parts{g.reason, g.explanation, g.registry_id, g.registry_url};
      std::string msg = graph_break_advice(g.category, parts, g.user_frame);
      std::string flags = config_flags_named(g.detail);
      if (!flags.empty()) msg += " The reason names " + flags + ".";
      std::string page = registry_note(parts);
      if (!page.empty()) msg += " " + page;
      advise(g.category, msg, g.compile_ids);
      if (!page.empty()) {
        for (auto& a : out_.advice)
          if (a.category == g.category && a.message == msg)
            std::tie(a.page_note, a.page_id, a.page_url) =
                std::tie(page, g.registry_id, g.registry_url);
      }
    }
    for (const auto& f : out_.failures) {
      if (names_recompile_limit(f.reason)) continue;  // advised as recompile_limit above
      std::vector<CompileRef> ids;
      if (f.compile_id) ids.push_back(*f.compile_id);
      advise(f.category, failure_advice_text(f.category), ids);
    }
  }

  void rank() {
    std::stable_sort(out_.frames.begin(), out_.frames.end(), [](const auto& a, const auto& b) {
      if (a.recompiles != b.recompiles) return a.recompiles > b.recompiles;
      return a.compile_time_s > b.compile_time_s;
    });
  }

  const model::ReportModel& m_;
  DoctorReport out_;
  std::map<std::pair<uint32_t, uint32_t>, size_t> frame_index_;  // (run, frame id)
  std::unordered_map<std::string, size_t> break_index_;
  std::vector<RefSet> break_ids_;  // each group's compile_ids
};

}  // namespace

DoctorReport diagnose(const model::ReportModel& model) { return Diagnoser(model).run(); }

void add_totals(Totals* sum, const Totals& t) {
  sum->frames += t.frames;
  sum->compiles += t.compiles;
  sum->recompiles += t.recompiles;
  sum->graph_breaks += t.graph_breaks;
  sum->failures += t.failures;
  sum->recompile_limit_hits += t.recompile_limit_hits;
  sum->compile_time_s += t.compile_time_s;
}

std::vector<ReasonGroup> group_reasons(const std::vector<RecompileReason>& reasons) {
  std::vector<ReasonGroup> groups;
  std::map<std::string, size_t> index;
  std::vector<RefSet> ids;  // each group's compile_ids
  for (const auto& r : reasons) {
    std::string key = std::string(category_name(r.category)) + "|" + normalize_reason(r.reason);
    auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) {
      groups.push_back({r.category, r.reason, {}});
      ids.emplace_back();
    }
    add_id(&groups[it->second].compile_ids, &ids[it->second], r.compile_id);
  }
  return groups;
}

std::string ref_label(const CompileRef& ref, bool show_run) {
  return show_run ? fmt::format("{} (run {})", ref.id.bare(), ref.run) : ref.id.bare();
}

std::string refs_text(const std::vector<CompileRef>& refs, bool show_run, size_t max) {
  std::string s;
  uint32_t run = 0;
  for (size_t i = 0; i < refs.size() && i < max; ++i) {
    if (show_run && refs[i].run != run) {
      run = refs[i].run;
      s += fmt::format("{}run {}:", i ? "; " : "", run);
    }
    s += (s.empty() ? "" : " ") + refs[i].id.bare();
  }
  if (refs.size() > max) s += " ...";
  return s;
}

}  // namespace tlscope::analysis
