#include "analysis/doctor.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

namespace tlscope::analysis {
namespace {

using trace::CompileId;

bool is_frame_compile(const std::optional<CompileId>& id) {
  return id && id->frame_id && id->frame_compile_id;
}

// "0/1: reason" -> ("0/1", "reason").
std::pair<std::string, std::string> split_reason(const std::string& text) {
  size_t colon = text.find(": ");
  if (colon != std::string::npos && colon < 24 && trace::parse_bare_compile_id(text.substr(0, colon)))
    return {text.substr(0, colon), text.substr(colon + 2)};
  return {"", text};
}

// "Graph break in user code at file.py:12" -> "file.py:12".
std::string user_frame_of(const std::string& text) {
  static const std::string kAt = "Graph break in user code at ";
  size_t p = text.find(kAt);
  if (p == std::string::npos) return "";
  size_t e = text.find('\n', p);
  return text.substr(p + kAt.size(), e == std::string::npos ? std::string::npos : e - p - kAt.size());
}

// The short reason of a graph-break artifact: the "Graph Break Reason:" line.
std::string break_reason_of(const std::string& text) {
  static const std::string kReason = "Graph Break Reason: ";
  size_t p = text.find(kReason);
  if (p == std::string::npos) return first_line(text);
  return first_line(text.substr(p + kReason.size()));
}

// The reason part of a graph-break artifact, without the user location,
// the traceback and file paths, so that a path such as ".../loggers/x.py"
// does not decide the class.
std::string reason_section(const std::string& text) {
  static const std::string kReason = "Graph Break Reason: ";
  size_t p = text.find(kReason);
  std::string_view rest(text);
  if (p != std::string::npos) rest.remove_prefix(p + kReason.size());
  std::string out;
  size_t start = 0;
  while (start < rest.size()) {
    size_t nl = rest.find('\n', start);
    std::string_view line = rest.substr(start, nl == std::string_view::npos ? rest.npos : nl - start);
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
bool names_recompile_limit(const std::string& text) {
  return classify_recompile(text) == Category::kRecompileLimit ||
         text.find("recompile limit") != std::string::npos;
}

void add_id(std::vector<CompileId>* ids, const CompileId& id) {
  if (std::find(ids->begin(), ids->end(), id) == ids->end()) ids->push_back(id);
}

class Diagnoser {
 public:
  explicit Diagnoser(const model::ReportModel& m) : m_(m) {}

  DoctorReport run() {
    out_.torch_version = m_.torch_version;
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
  FrameReport& frame(uint32_t id) {
    auto [it, inserted] = frame_index_.try_emplace(id, out_.frames.size());
    if (inserted) {
      out_.frames.emplace_back();
      out_.frames.back().frame_id = id;
    }
    return out_.frames[it->second];
  }

  void collect_frames() {
    // Name and place from the dynamo_start stack (its last frame is the one compiled).
    for (const auto& [id, stack] : m_.start_stacks) {
      if (!id.frame_id || id.autograd_id || stack.empty()) continue;
      FrameReport& f = frame(*id.frame_id);
      if (f.name.empty()) {
        f.name = stack.back().name;
        f.filename = stack.back().display_filename(m_.strings);
        f.line = stack.back().line;
      }
    }
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (const auto& r : m_.metrics) {
      if (!is_frame_compile(r.id) || r.id->autograd_id) continue;
      FrameReport& f = frame(*r.id->frame_id);
      if (!r.co_name.empty()) {
        f.name = r.co_name;
        f.filename = r.co_filename;
        if (r.co_firstlineno) f.line = *r.co_firstlineno;
      }
      CompileId bucket = r.id->metrics_bucket();
      if (seen.insert({*r.id->frame_id, *r.id->frame_compile_id}).second) {
        ++f.compiles;
        if (*r.id->frame_compile_id >= 1) ++f.recompiles;
        add_id(&f.compile_ids, bucket);
      }
      if (r.id->attempt && *r.id->attempt >= 1) ++f.restarts;
      if (r.fail_type) ++f.failures;
      f.compile_time_s += r.entire_frame_s.value_or(0);
      f.max_graph_ops = std::max<uint64_t>(f.max_graph_ops, r.graph_op_count.value_or(0));
      if (names_recompile_limit(r.fail_reason.value_or("")) ||
          names_recompile_limit(first_line(r.recompile_reason.value_or(""))))
        f.recompile_limit_hit = true;
    }
    for (auto& f : out_.frames) {
      // Only a failure or reason that names the limit says it was hit: a frame
      // may compile more often when the user raised the limit.
      out_.totals.compiles += f.compiles;
      out_.totals.recompiles += f.recompiles;
      out_.totals.compile_time_s += f.compile_time_s;
    }
    out_.totals.frames = out_.frames.size();
  }

  void collect_recompile_reasons() {
    // The artifact is preferred; the metrics' recompile_reason fills gaps.
    std::set<std::string> done;
    auto add = [&](const CompileId& id, const std::string& text) {
      if (!id.frame_id || id.autograd_id) return;
      auto [failed, reason] = split_reason(text);
      std::string line = first_line(reason);
      if (!done.insert(id.metrics_bucket().folder() + "|" + failed + "|" + line).second) return;
      frame(*id.frame_id).recompile_reasons.push_back(
          {id.metrics_bucket(), failed, line, classify_recompile(reason)});
    };
    std::set<std::string> with_artifact;
    for (const auto& rr : m_.recompile_reasons) {
      if (!rr.id) continue;
      with_artifact.insert(rr.id->metrics_bucket().folder());
      for (const auto& r : rr.reasons) add(*rr.id, r);
    }
    for (const auto& r : m_.metrics)
      if (r.id && r.recompile_reason && !with_artifact.count(r.id->metrics_bucket().folder()))
        add(*r.id, *r.recompile_reason);
  }

  void add_break(const CompileId& id, const std::string& reason, const std::string& user_frame,
                 const std::string& detail, Category cat) {
    std::string key = normalize_reason(reason) + "|" + user_frame;
    auto [it, inserted] = break_index_.try_emplace(key, out_.graph_breaks.size());
    if (inserted) {
      GraphBreakGroup g;
      g.reason = reason;
      g.normalized = normalize_reason(reason);
      g.user_frame = user_frame;
      g.detail = detail;
      g.category = cat;
      out_.graph_breaks.push_back(std::move(g));
    }
    GraphBreakGroup& g = out_.graph_breaks[it->second];
    ++g.count;
    add_id(&g.compile_ids, id);
    ++out_.totals.graph_breaks;
  }

  void collect_graph_breaks() {
    // User locations from the artifacts, by compile.
    std::unordered_map<CompileId, std::string, trace::CompileIdHash> where;
    for (const auto& n : m_.graph_break_notes)
      if (n.id) where.try_emplace(n.id->metrics_bucket(), user_frame_of(n.text));
    std::set<std::string> from_metrics;
    for (const auto& r : m_.metrics) {
      if (!r.id || r.restart_reasons.empty()) continue;
      CompileId b = r.id->metrics_bucket();
      from_metrics.insert(b.folder());
      auto w = where.find(b);
      for (const auto& reason : r.restart_reasons) {
        Category cat = classify_graph_break(reason);
        // Dynamo restarting its own analysis is not a graph break.
        if (cat == Category::kInternalRestart) continue;
        add_break(b, first_line(reason), w == where.end() ? "" : w->second, reason, cat);
      }
    }
    for (const auto& n : m_.graph_break_notes) {
      if (!n.id || from_metrics.count(n.id->metrics_bucket().folder())) continue;
      add_break(n.id->metrics_bucket(), break_reason_of(n.text), user_frame_of(n.text), n.text,
                classify_graph_break(reason_section(n.text)));
    }
    std::stable_sort(out_.graph_breaks.begin(), out_.graph_breaks.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
  }

  void collect_failures() {
    for (size_t i = 0; i < m_.metrics.size(); ++i) {
      const auto& r = m_.metrics[i];
      if (!r.fail_type) continue;
      FailureReport f;
      f.compile_id = r.id ? std::optional<CompileId>(r.id->metrics_bucket()) : std::nullopt;
      f.fail_type = *r.fail_type;
      f.reason = r.fail_reason.value_or("(no reason given)");
      if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
      f.page = r.page;
      // Eager fallback: no later successful compile of the same bucket.
      f.ran_eagerly = true;
      for (size_t j = i + 1; j < m_.metrics.size(); ++j) {
        const auto& later = m_.metrics[j];
        if (later.id && r.id && later.id->metrics_bucket() == r.id->metrics_bucket() &&
            !later.fail_type) {
          f.ran_eagerly = false;
          break;
        }
      }
      out_.failures.push_back(std::move(f));
    }
    out_.totals.failures = out_.failures.size();
  }

  void collect_slowest() {
    for (const auto& r : m_.metrics) {
      if (!r.id || !r.entire_frame_s) continue;
      SlowCompile s;
      s.compile_id = r.id->metrics_bucket();
      s.frame_name = r.co_name;
      s.page = r.page;
      s.seconds = *r.entire_frame_s;
      if (r.backend_s) s.phases["backend"] = *r.backend_s;
      if (r.inductor_s) s.phases["inductor"] = *r.inductor_s;
      if (r.code_gen_s) s.phases["code_gen"] = *r.code_gen_s;
      auto ph = m_.chromium.phases.find(s.compile_id);
      if (ph != m_.chromium.phases.end())
        for (const auto& [name, secs] : ph->second) s.phases.try_emplace(name, secs);
      out_.slowest.push_back(std::move(s));
    }
    std::stable_sort(out_.slowest.begin(), out_.slowest.end(),
                     [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
    if (out_.slowest.size() > 20) out_.slowest.resize(20);
  }

  void advise(Category c, const std::string& message, const std::vector<CompileId>& ids) {
    for (auto& a : out_.advice)
      if (a.category == c && a.message == message) {
        for (const auto& id : ids) add_id(&a.compile_ids, id);
        return;
      }
    out_.advice.push_back({c, message, ids});
  }

  void build_advice() {
    for (const auto& f : out_.frames) {
      for (const auto& r : f.recompile_reasons) {
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
      std::string msg = advice_text(g.category);
      std::string flags = config_flags_named(g.detail);
      if (!flags.empty()) msg += " The reason names " + flags + ".";
      advise(g.category, msg, g.compile_ids);
    }
    for (const auto& f : out_.failures) {
      if (names_recompile_limit(f.reason)) continue;  // advised as recompile_limit above
      std::vector<CompileId> ids;
      if (f.compile_id) ids.push_back(*f.compile_id);
      advise(Category::kCompileError, advice_text(Category::kCompileError), ids);
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
  std::unordered_map<uint32_t, size_t> frame_index_;
  std::unordered_map<std::string, size_t> break_index_;
};

}  // namespace

DoctorReport diagnose(const model::ReportModel& model) { return Diagnoser(model).run(); }

}  // namespace tlscope::analysis
