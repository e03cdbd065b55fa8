#include "cli/show_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

#include "model/ingest/read_any.h"
#include "trace/compile_id.h"

namespace tlscope::cli {
namespace {

// Text has no attempts: 0/1 and 0/1_0 name the same compile.
bool same(const std::optional<trace::CompileId>& a, const trace::CompileId& b) {
  return a && a->autograd_id == b.autograd_id && a->frame_id == b.frame_id &&
         a->frame_compile_id == b.frame_compile_id;
}

// What TORCH_LOGS text holds of one compile.
struct Held {
  const model::MetricsRecord* frame = nullptr;
  std::vector<std::string> recompiles, breaks, guards;
};

Held held_of(const model::ReportModel& m, const trace::CompileId& id) {
  Held h;
  for (const auto& r : m.metrics)
    if (same(r.id, id)) h.frame = &r;
  const model::MetricsRecord* frame = h.frame;
  for (const auto& r : m.recompile_reasons) {
    if (!same(r.id, id)) continue;
    std::string s = "Recompiling function ";
    s += frame ? frame->co_name : std::string_view("?");
    if (frame && !frame->co_filename.empty())
      s += fmt::format(" in {}", frame->co_filename) +
           (frame->co_firstlineno ? fmt::format(":{}", *frame->co_firstlineno) : "");
    s += "\n    triggered by the following guard failure(s):\n";
    for (const auto& g : r.reasons) s += "    - " + g + "\n";
    h.recompiles.push_back(s);
  }
  for (const auto& b : m.graph_break_notes)
    if (same(b.id, id))
      h.breaks.push_back(std::string(b.text) +
                         (b.text.empty() || b.text.back() == '\n' ? "" : "\n") +
                         (b.count > 1 ? fmt::format("(printed {} times)\n", b.count) : ""));
  for (const auto& g : m.text_guards)
    if (same(g.id, id)) h.guards.push_back(g.text);
  return h;
}

}  // namespace

int show_text(const std::string& log, const std::string& compile_id, const std::string& artifact,
              std::FILE* out, std::string* error) {
  auto read = ingest::read_any_log(log, {});
  if (!read.ok) {
    *error = read.error;
    return 1;
  }
  const model::ReportModel& m = read.model;
  auto id = trace::parse_bare_compile_id(compile_id);
  if (!id) {
    *error = "not a compile id: " + compile_id + " (write it as 0/1)";
    return 1;
  }
  // What the text holds of the compile, by the TORCH_LOGS names.
  Held held = held_of(m, *id);
  const model::MetricsRecord* frame = held.frame;
  const auto& recompiles = held.recompiles;
  const auto& breaks = held.breaks;
  const auto& guards = held.guards;
  if (!frame && recompiles.empty() && breaks.empty() && guards.empty()) {
    std::set<std::string> known;
    for (const auto& r : m.metrics)
      if (r.id) known.insert(r.id->bare());
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    *error = "compile id " + compile_id + " does not occur in " + log +
             (list.empty() ? "" : " (TORCH_LOGS text; its compile ids: " + list + ")");
    return 1;
  }
  const std::vector<std::pair<std::string, const std::vector<std::string>*>> kinds = {
      {"recompiles", &recompiles}, {"graph_breaks", &breaks}, {"guards", &guards}};
  if (artifact.empty()) {
    for (const auto& [name, items] : kinds)
      if (!items->empty()) std::fprintf(out, "%s\t%s\t%zu\n", name.c_str(), id->bare().c_str(), items->size());
    if (recompiles.empty() && breaks.empty() && guards.empty())
      std::fprintf(out, "(the text names %s but prints nothing of it)\n", id->bare().c_str());
    return 0;
  }
  for (const auto& [name, items] : kinds) {
    if (name != artifact) continue;
    if (items->empty()) {
      *error = "the text holds no " + artifact + " of " + compile_id;
      return 1;
    }
    for (const auto& s : *items) std::fwrite(s.data(), 1, s.size(), out);
    return 0;
  }
  *error = artifact + ": TORCH_LOGS text holds recompiles, graph_breaks and guards of a compile; "
           "graphs, generated code and metrics are in a TORCH_TRACE log";
  return 1;
}

}  // namespace tlscope::cli
