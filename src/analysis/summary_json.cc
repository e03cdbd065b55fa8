// summary.json, written member by member as it is made. A log of thousands
// of compiles has megabytes of it (its frames' compile ids and recompile
// reasons); made a json tree first, it took three times that in memory
// (bench/README.md, seventeenth pass). The keys of each object are given in
// the order json::dump sorts them, so the text is what dump(2) of the whole
// object would be.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "analysis/json_stream.h"
#include "analysis/summary.h"

namespace tlscope::analysis {
namespace {

using nlohmann::json;

void ids_member(JsonStream& o, std::string_view key, const std::vector<model::CompileRef>& ids) {
  o.key(key);
  o.begin_array();
  for (const auto& id : ids) o.string_value(id.id.bare());
  o.end();
}

// The runs of `ids`, one for one.
void runs_member(JsonStream& o, const std::vector<model::CompileRef>& ids) {
  o.key("runs");
  o.begin_array();
  for (const auto& id : ids) o.count_value(id.run);
  o.end();
}

void category_member(JsonStream& o, Category c) { text_member(o, "category", category_name(c)); }

void recompile_reasons(JsonStream& o, const std::vector<RecompileReason>& reasons) {
  o.key("recompile_reasons");
  o.begin_array();
  for (const auto& r : reasons) {
    o.begin_object();
    category_member(o, r.category);
    text_member(o, "compile_id", r.compile_id.id.bare());
    text_member(o, "failed_compile_id", r.failed_id);
    text_member(o, "reason", r.reason);
    o.end();
  }
  o.end();
}

void frames(JsonStream& o, const DoctorReport& d) {
  o.key("frames");
  o.begin_array();
  for (const auto& f : d.frames) {
    o.begin_object();
    ids_member(o, "compile_ids", f.compile_ids);
    member(o, "compile_time_s", f.compile_time_s);
    count_member(o, "compiles", f.compiles);
    count_member(o, "failures", f.failures);
    text_member(o, "filename", f.filename);
    count_member(o, "frame_id", f.frame_id);
    member(o, "line", f.line);
    text_member(o, "name", f.name);
    member(o, "recompile_limit_hit", f.recompile_limit_hit);
    recompile_reasons(o, f.recompile_reasons);
    count_member(o, "recompiles", f.recompiles);
    count_member(o, "restarts", f.restarts);
    count_member(o, "run", f.run);
    o.end();
  }
  o.end();
}

void graph_breaks(JsonStream& o, const DoctorReport& d) {
  o.key("graph_breaks");
  o.begin_array();
  for (const auto& g : d.graph_breaks) {
    o.begin_object();
    category_member(o, g.category);
    ids_member(o, "compile_ids", g.compile_ids);
    count_member(o, "count", g.count);
    text_member(o, "explanation", g.explanation);
    text_member(o, "reason", g.reason);
    text_member(o, "registry_id", g.registry_id);
    text_member(o, "registry_url", g.registry_url);
    runs_member(o, g.compile_ids);
    text_member(o, "user_frame", g.user_frame);
    o.end();
  }
  o.end();
}

void failures(JsonStream& o, const DoctorReport& d) {
  o.key("failures");
  o.begin_array();
  for (const auto& f : d.failures) {
    o.begin_object();
    member(o, "artifacts", f.artifacts);
    category_member(o, f.category);
    member(o, "compile_id", f.compile_id ? json(f.compile_id->id.bare()) : json());
    text_member(o, "fail_type", f.fail_type);
    member(o, "outside_frame", f.outside_frame);
    member(o, "ran_eagerly", f.ran_eagerly);
    text_member(o, "reason", f.reason);
    text_member(o, "root_cause", f.root_cause);
    member(o, "run", f.compile_id ? json(f.compile_id->run) : json());
    text_member(o, "user_frame", f.user_frame);
    o.end();
  }
  o.end();
}

void advice(JsonStream& o, const DoctorReport& d) {
  o.key("advice");
  o.begin_array();
  for (const auto& a : d.advice) {
    o.begin_object();
    category_member(o, a.category);
    ids_member(o, "compile_ids", a.compile_ids);
    text_member(o, "message", a.message);
    runs_member(o, a.compile_ids);
    o.end();
  }
  o.end();
}

void expected(JsonStream& o, const DoctorReport& d) {
  o.key("expected");
  o.begin_array();
  for (const auto& e : d.expected) {
    o.begin_object();
    category_member(o, e.category);
    ids_member(o, "compile_ids", e.compile_ids);
    text_member(o, "message", e.message);
    o.end();
  }
  o.end();
}

// The slowest compiles with their phases: at most 20, so made as values.
json slowest_json(const DoctorReport& d) {
  json slow = json::array();
  for (const auto& c : d.slowest) {
    json tree = json::array();
    for (const auto& p : c.phase_tree)
      tree.push_back({{"name", p.name}, {"depth", p.depth}, {"seconds", p.seconds}});
    slow.push_back({{"compile_id", c.compile_id.id.bare()},
                    {"run", c.compile_id.run},
                    {"name", c.frame_name},
                    {"seconds", c.seconds},
                    {"phases", c.phases},
                    {"phase_tree", tree}});
  }
  return slow;
}

json source_json(const DoctorReport& d, const std::string& log, const std::string& command_line) {
  json s = {{"log", log},
            {"kind", d.source_kind},
            {"command_line", command_line},
            {"pytorch_version", d.torch_version.empty() ? json() : json(d.torch_version)}};
  if (d.source_kind == "torch_logs")
    s["text"] = {{"lines", d.text_lines},
                 {"other_lines", d.text_unknown_lines},
                 {"guard_dumps", d.text_guard_dumps}};
  return s;
}

json totals_json(const Totals& t) {
  return {{"frames", t.frames},
          {"compiles", t.compiles},
          {"recompiles", t.recompiles},
          {"graph_breaks", t.graph_breaks},
          {"failures", t.failures},
          {"compile_time_s", t.compile_time_s},
          {"recompile_limit_hits", t.recompile_limit_hits},
          {"runs", t.runs}};
}

void stream_summary(JsonStream& o, const DoctorReport& d, const std::string& log,
                    const std::string& command_line) {
  o.begin_object();
  advice(o, d);
  member(o, "empty", d.totals.empty());
  expected(o, d);
  failures(o, d);
  frames(o, d);
  graph_breaks(o, d);
  member(o, "slowest_compiles", slowest_json(d));
  member(o, "source", source_json(d, log, command_line));
  member(o, "tool", {{"name", "tlscope"}, {"version", TLSCOPE_VERSION}});
  member(o, "totals", totals_json(d.totals));
  o.end();
}

// The totals summed over the ranks that could be read (a job's
// summary["totals"], like one log's).
json job_totals_json(const std::vector<RankDiagnosis>& ranks) {
  Totals sum;
  sum.runs = 0;
  for (const auto& r : ranks)
    if (r.error.empty()) {
      add_totals(&sum, r.doctor.totals);
      sum.runs = std::max(sum.runs, r.doctor.totals.runs);
    }
  return totals_json(sum);
}

void stream_ranks_summary(JsonStream& o, const std::vector<RankDiagnosis>& ranks,
                          const MultiRankAnalysis& a, const std::string& command_line) {
  o.begin_object();
  member(o, "compared_ranks", a.ranks);
  json div = json::array();
  for (const auto& d : a.doctor)
    div.push_back(
        {{"what", d.what}, {"groups", d.groups}, {"first_compile_id", d.first_compile_id}});
  member(o, "divergence", div);
  member(o, "left_out_ranks", a.left_out);
  o.key("ranks");
  o.begin_array();
  for (const auto& r : ranks) {
    o.begin_object();
    if (!r.error.empty()) text_member(o, "error", r.error);
    text_member(o, "log", r.log.path);
    member(o, "rank", r.log.rank);
    if (r.error.empty()) {
      o.key("summary");
      stream_summary(o, r.doctor, r.log.path, command_line);
    }
    o.end();
  }
  o.end();
  member(o, "tool", {{"name", "tlscope"}, {"version", TLSCOPE_VERSION}});
  member(o, "totals", job_totals_json(ranks));
  o.end();
}

}  // namespace

std::string summary_json(const DoctorReport& d, const std::string& log,
                         const std::string& command_line) {
  std::string out;
  {
    JsonStream o(&out);
    stream_summary(o, d, log, command_line);
    o.finish();
  }
  return out;
}

void write_summary_json(std::FILE* out, const DoctorReport& d, const std::string& log,
                        const std::string& command_line) {
  JsonStream o(out);
  stream_summary(o, d, log, command_line);
  o.finish();
}

std::string ranks_summary_json(const std::vector<RankDiagnosis>& ranks, const MultiRankAnalysis& a,
                               const std::string& command_line) {
  std::string out;
  {
    JsonStream o(&out);
    stream_ranks_summary(o, ranks, a, command_line);
    o.finish();
  }
  return out;
}

std::string check_json(const std::vector<std::string>& broken, const Totals& totals, size_t ranks) {
  json j;
  j["passed"] = broken.empty();
  j["broken"] = broken;
  j["totals"] = totals_json(totals);
  j["ranks"] = ranks;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace tlscope::analysis
