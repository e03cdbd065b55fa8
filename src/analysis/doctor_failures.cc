// The doctor's failures and slowest compiles, folded as the records come
// (doctor_parts.h).
#include "analysis/doctor_parts.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/classify.h"

namespace tlscope::analysis::detail {
namespace {

// Phases as a tree walked depth first, each level in the order it began; a
// phase whose parent never ended is shown at the top.
std::vector<std::pair<const model::Phase*, uint32_t>> tree_order(
    const std::vector<model::Phase>& phases, const model::ChromiumSummary& chromium) {
  std::vector<const model::Phase*> sorted;
  for (const auto& p : phases) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return a->start_us < b->start_us; });
  auto path_of = [&](const model::Phase* p) -> const std::string& {
    return chromium.text(p->path);
  };
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
    const model::MetricsRecord& r = metrics->record();
    f.fail_type = *r.fail_type;
    f.reason = r.fail_reason.value_or("");
    if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
    f.page = metrics->record().page;
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

KeptRecord::KeptRecord(const model::MetricsRecord& r) : record_(r) {
  std::vector<std::string_view*> texts{&record_.page, &record_.co_name, &record_.co_filename};
  for (auto* t :
       {&record_.fail_type, &record_.fail_reason, &record_.fail_file, &record_.recompile_reason})
    if (*t) texts.push_back(&**t);
  for (auto& t : record_.restart_reasons) texts.push_back(&t);
  size_t size = 0;
  for (const auto* t : texts) size += t->size();
  bytes_ = std::make_unique<char[]>(size);
  char* at = bytes_.get();
  for (auto* t : texts) {
    if (!t->empty()) std::memcpy(at, t->data(), t->size());
    *t = std::string_view(at, t->size());
    at += t->size();
  }
}

// Failures of frames in the order of their metrics; one ran eagerly when
// no later metrics record of its bucket succeeded.
void FailureFold::on_metrics(const model::MetricsRecord& r) {
  if (r.id && !r.fail_type && !failing_.empty()) {
    if (auto open = failing_.find(ref_of(r.run, *r.id)); open != failing_.end()) {
      for (size_t i : open->second) failures_[i].ran_eagerly = false;
      failing_.erase(open);
    }
  }
  if (!is_frame_compile(r.id)) {  // outside any frame: finish()
    if (r.fail_type) outside_metrics_.emplace_back(r);
    return;
  }
  framed_lines_.push_back(r.lineno);
  if (!r.fail_type) return;
  if (count_only_) {
    ++counted_;
    return;
  }
  FailureReport f;
  f.compile_id = ref_of(r.run, *r.id);
  f.fail_type = *r.fail_type;
  f.reason = r.fail_reason.value_or("(no reason given)");
  if (r.fail_file) f.user_frame = fmt::format("{}:{}", *r.fail_file, r.fail_line.value_or(0));
  f.page = r.page;
  f.category = classify_failure(f.fail_type, f.reason);
  f.ran_eagerly = true;
  failing_[*f.compile_id].push_back(failures_.size());
  failures_.push_back(std::move(f));
}

std::vector<FailureReport> FailureFold::finish(uint64_t* count) {
  collect_outside_failures();
  *count = counted_ + failures_.size();
  if (count_only_) return {};
  for (auto& f : failures_) f.root_cause = root_exception(f.reason);
  return std::move(failures_);
}

// Failures outside any frame (export, make_fx): artifacts without a compile
// id and compilation metrics without a frame id. One failure often leaves
// several of them in a row (the interpreter's error, then make_fx's partial
// graph, then the metrics): records with no frame compile between them and
// of different kinds are one failure.
void FailureFold::collect_outside_failures() {
  struct Item {
    uint64_t lineno;
    const model::LooseFailureNote* note;
    const KeptRecord* metrics;
    std::string kind() const { return note ? note->kind : "compilation_metrics"; }
  };
  std::vector<Item> items;
  for (const auto& n : loose_) items.push_back({n.lineno, &n, nullptr});
  for (const auto& r : outside_metrics_) items.push_back({r.record().lineno, nullptr, &r});
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.lineno < b.lineno; });
  std::sort(framed_lines_.begin(), framed_lines_.end());
  const auto& framed = framed_lines_;
  std::vector<Item> group;
  auto flush = [&] {
    if (!group.empty()) failures_.push_back(outside_failure(group));
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

void SlowestFold::on_metrics(const model::MetricsRecord& r) {
  if (!r.id || !r.entire_frame_s) return;
  double s = *r.entire_frame_s;
  auto at = std::find_if(slowest_.begin(), slowest_.end(),
                         [&](const KeptRecord& q) { return *q.record().entire_frame_s < s; });
  if (at == slowest_.end() && slowest_.size() >= model::kSlowestCompiles) return;
  slowest_.insert(at, KeptRecord(r));
  if (slowest_.size() > model::kSlowestCompiles) slowest_.pop_back();
}

std::vector<SlowCompile> SlowestFold::finish(const model::ChromiumSummary& chromium) const {
  std::vector<SlowCompile> out;
  for (const auto& r : slowest_) {
    out.push_back(slow_compile(r.record(), chromium));
  }
  return out;
}

}  // namespace tlscope::analysis::detail
