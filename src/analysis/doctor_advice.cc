#include "analysis/doctor_parts.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analysis/graph_breaks.h"

namespace tlscope::analysis {
namespace detail {

void add_id(std::vector<CompileRef>* ids, RefSet* seen, const CompileRef& id) {
  if (seen->insert(id)) ids->push_back(id);
}

bool names_recompile_limit(std::string_view text) {
  return classify_recompile(text) == Category::kRecompileLimit ||
         text.find("recompile limit") != std::string_view::npos;
}

namespace {

// Those of `more` that `ids` lacks, in order: looked for one by one while
// that is cheap, else through a set.
void add_ids(std::vector<CompileRef>* ids, const std::vector<CompileRef>& more) {
  if (ids->size() * more.size() <= 4096) {
    for (const auto& id : more)
      if (std::find(ids->begin(), ids->end(), id) == ids->end()) ids->push_back(id);
    return;
  }
  RefSet seen;
  for (const auto& id : *ids) seen.insert(id);
  for (const auto& id : more) add_id(ids, &seen, id);
}

void advise(DoctorReport* out, Category c, const std::string& message,
            const std::vector<CompileRef>& ids) {
  for (auto& a : out->advice)
    if (a.category == c && a.message == message) {
      add_ids(&a.compile_ids, ids);
      return;
    }
  out->advice.push_back({c, message, ids, {}, {}, {}});
}

}  // namespace

void build_advice(DoctorReport* out) {
  for (const auto& f : out->frames) {
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
        for (const auto& e : out->expected) said = said || e.message == msg;
        if (!said) out->expected.push_back({r.category, msg, {r.compile_id}});
        continue;
      }
      std::string msg = advice_text(r.category, f.name);
      std::string flags = config_flags_named(r.reason);
      if (!flags.empty()) msg += " The reason names " + flags + ".";
      advise(out, r.category, msg, {r.compile_id});
    }
    if (f.recompile_limit_hit)
      advise(out, Category::kRecompileLimit, advice_text(Category::kRecompileLimit, f.name),
             f.compile_ids);
    if (f.recompiles >= 3 && f.max_graph_ops >= 50)
      advise(out, Category::kLargeFrame,
             advice_text(Category::kLargeFrame, f.name) +
                 fmt::format(" ({} ops, {} recompiles)", f.max_graph_ops, f.recompiles),
             f.compile_ids);
  }
  for (const auto& g : out->graph_breaks) {
    GraphBreakParts parts{g.reason, g.explanation, g.registry_id, g.registry_url};
    std::string msg = graph_break_advice(g.category, parts, g.user_frame);
    std::string flags = config_flags_named(g.detail);
    if (!flags.empty()) msg += " The reason names " + flags + ".";
    std::string page = registry_note(parts);
    if (!page.empty()) msg += " " + page;
    advise(out, g.category, msg, g.compile_ids);
    if (!page.empty()) {
      for (auto& a : out->advice)
        if (a.category == g.category && a.message == msg)
          std::tie(a.page_note, a.page_id, a.page_url) =
              std::tie(page, g.registry_id, g.registry_url);
    }
  }
  for (const auto& f : out->failures) {
    if (names_recompile_limit(f.reason)) continue;  // advised as recompile_limit above
    std::vector<CompileRef> ids;
    if (f.compile_id) ids.push_back(*f.compile_id);
    advise(out, f.category, failure_advice_text(f.category), ids);
  }
}

}  // namespace detail

using detail::add_id;
using detail::RefSet;

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
    std::string key = reason_pattern_key(r.category, r.reason);
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
