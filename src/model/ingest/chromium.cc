// Chromium events (REPORT_FEATURES F15): counted, their B/E pairs turned into
// the compile phases of the model, and each passed on for
// chromium_events.json.
#include <algorithm>

#include "model/ingest/ingest_functions.h"
#include "trace/json_dom.h"
#include "trace/json_types.h"

namespace tlscope::ingest {

std::optional<ChromiumEvent> ingest_chromium_event(IngestContext& ctx) {
  if (!ctx.rec.has_payload) return std::nullopt;
  simdjson::dom::element e;
  if (!ctx.b.parse_payload_json(ctx.rec.payload(), &e)) return std::nullopt;  // dropped (F15)
  ++ctx.b.model().chromium.events;
  if (ctx.b.options().phases) ctx.b.note_phase(e);
  if (!ctx.b.wants_pages()) return std::nullopt;
  std::string& s = ctx.b.scratch();
  s.clear();
  trace::append_json(&s, e, true, 1);
  return ChromiumEvent{s};
}

// B/E pairs with args.compile_id give the time of each compiler phase,
// nested as the pairs were open. Bounded: a log cannot make a compile's
// nesting or its list of phases grow without end.
void IngestState::note_phase(simdjson::dom::element e) {
  namespace tj = trace::json;
  constexpr size_t kMaxOpen = 64, kMaxPhases = 512;
  if (e.type() != simdjson::dom::element_type::OBJECT) return;
  simdjson::dom::object o(e);
  auto ph = tj::str_field(o, "ph");
  auto name = tj::str_field(o, "name");
  auto ts = tj::f64_field(o, "ts");
  auto args = tj::field(o, "args");
  if (!ph || !name || !ts || !args || args->type() != simdjson::dom::element_type::OBJECT) return;
  auto cid = tj::str_field(simdjson::dom::object(*args), "compile_id");
  if (!cid || (*ph != "B" && *ph != "E")) return;
  auto id = trace::parse_bare_compile_id(*cid);
  if (!id) return;
  trace::CompileId bucket = id->metrics_bucket();
  if (*ph == "B") {
    auto& open = open_phases_[bucket];
    if (open.size() >= kMaxOpen) return;
    std::string path;
    for (const auto& p : open) path += p.name + "/";
    path += *name;
    open.push_back({std::string(*name), std::move(path), *ts});
    return;
  }
  auto it = open_phases_.find(bucket);
  if (it == open_phases_.end()) return;
  auto& open = it->second;
  for (size_t i = open.size(); i-- > 0;) {
    if (open[i].name != *name) continue;
    double secs = (*ts - open[i].ts) / 1e6;
    // The run at the end of a pair: a new run's first pairs begin before
    // its dynamo_start says that it is a new run.
    auto& chromium = model_->chromium;
    auto& phases = chromium.phases[{model_->runs.current(), bucket}];
    uint32_t path = chromium.intern(open[i].path);
    auto p = std::find_if(phases.begin(), phases.end(),
                          [&](const model::Phase& q) { return q.path == path; });
    if (secs >= 0 && p != phases.end()) {
      p->seconds += secs;
    } else if (secs >= 0 && phases.size() < kMaxPhases) {
      if (phases.empty()) phases.reserve(4);  // a compile has a few (growing 1, 2, 4 wastes)
      uint32_t depth =
          static_cast<uint32_t>(std::count(open[i].path.begin(), open[i].path.end(), '/'));
      phases.push_back({chromium.intern(open[i].name), path, depth, open[i].ts, secs});
    }
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
    if (open.empty()) open_phases_.erase(it);
    return;
  }
}

}  // namespace tlscope::ingest
