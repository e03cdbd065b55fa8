#include "analysis/charts.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <unordered_set>

namespace tlscope::analysis {
namespace {

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// The part a phase's name says it belongs to; none for phases that only
// group others (entire_frame_compile, compile_attempt_0) or are Dynamo's own.
std::optional<TimePart> part_of(std::string_view name) {
  std::string low(name);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (has(low, "cache")) return TimePart::kCache;
  if (has(low, "codegen") || has(low, "code_gen")) return TimePart::kCodegen;
  if (has(low, "compile_fx") || low.rfind("inductor", 0) == 0 || low.rfind("pass.", 0) == 0 ||
      has(low, "grad_passes") || has(low, "post_grad") || has(low, "pre_grad"))
    return TimePart::kInductor;
  if (low == "backend" || has(low, "backend_compile") || has(low, "aot")) return TimePart::kAot;
  return std::nullopt;
}

}  // namespace

const char* time_part_name(TimePart p) {
  switch (p) {
    case TimePart::kDynamo:
      return "dynamo";
    case TimePart::kAot:
      return "aot";
    case TimePart::kInductor:
      return "inductor";
    case TimePart::kCodegen:
      return "codegen";
    case TimePart::kCache:
      return "cache";
  }
  return "";
}

Timeline compile_timeline(const model::ReportModel& m, const DoctorReport& d) {
  Timeline t;
  std::unordered_set<CompileRef, model::CompileRefHash> breaks;
  for (const auto& g : d.graph_breaks) breaks.insert(g.compile_ids.begin(), g.compile_ids.end());
  double first = 0;
  bool any = false;
  for (const auto& r : m.metrics) {
    if (!r.id || !r.id->frame_id) continue;
    if (!r.start_time || *r.start_time <= 0) {
      t.measured_starts = false;
    } else if (!any || *r.start_time < first) {
      first = *r.start_time;
      any = true;
    }
  }
  if (!any) t.measured_starts = false;
  std::map<model::FrameKey, size_t> row_of;
  double cursor = 0;
  for (const auto& r : m.metrics) {
    if (!r.id || !r.id->frame_id) continue;
    auto key = std::pair{r.run, *r.id->frame_id};
    auto [it, added] = row_of.emplace(key, t.rows.size());
    if (added) t.rows.push_back({r.run, *r.id->frame_id, std::string(r.co_name)});
    TimelineBar b;
    b.compile_id = {r.run, r.id->metrics_bucket()};
    b.row = it->second;
    b.seconds = std::max(0.0, r.entire_frame_s.value_or(0));
    b.start_s = t.measured_starts ? *r.start_time - first : cursor;
    cursor += b.seconds;
    b.status = m.status_of(r.id);
    b.recompile = r.id->frame_compile_id.value_or(0) > 0;
    b.graph_break = breaks.count(b.compile_id) > 0;
    b.page = r.page;
    t.span_s = std::max(t.span_s, b.start_s + b.seconds);
    t.bars.push_back(std::move(b));
  }
  return t;
}

std::vector<TimeSplit> time_splits(const DoctorReport& d) {
  std::vector<TimeSplit> out;
  for (const auto& s : d.slowest) {
    TimeSplit ts;
    ts.compile = &s;
    const auto& tree = s.phase_tree;  // depth first, with depths
    double roots = 0;
    std::vector<TimePart> part_at;  // by depth, along the current path
    for (size_t i = 0; i < tree.size(); ++i) {
      double children = 0;
      for (size_t j = i + 1; j < tree.size() && tree[j].depth > tree[i].depth; ++j)
        if (tree[j].depth == tree[i].depth + 1) children += tree[j].seconds;
      uint32_t depth = tree[i].depth;
      if (part_at.size() <= depth) part_at.resize(depth + 1, TimePart::kDynamo);
      TimePart inherited = depth > 0 ? part_at[depth - 1] : TimePart::kDynamo;
      TimePart part = part_of(tree[i].name).value_or(inherited);
      part_at[depth] = part;
      ts.seconds[static_cast<size_t>(part)] += std::max(0.0, tree[i].seconds - children);
      if (depth == 0) roots += tree[i].seconds;
    }
    // What the phases do not cover is Dynamo's (tracing, guards).
    if (s.seconds > roots) ts.seconds[static_cast<size_t>(TimePart::kDynamo)] += s.seconds - roots;
    for (double v : ts.seconds) ts.total_s += v;
    out.push_back(ts);
  }
  return out;
}

}  // namespace tlscope::analysis
