#include "analysis/rank_summary_json.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace tlscope::analysis {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "tlscope rank summary";

ordered_json number(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

template <typename Container>
ordered_json string_array(const Container& c) {
  ordered_json a = ordered_json::array();
  for (const auto& s : c) a.push_back(s);
  return a;
}

// What is wrong with the file, with the path to the field ("doctor.compiles").
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json& at(const json& obj, const char* key, const std::string& where) {
  if (!obj.is_object()) throw Bad(where + ": not an object");
  auto it = obj.find(key);
  if (it == obj.end())
    throw Bad(fmt::format("{}{}{}: missing", where, where.empty() ? "" : ".", key));
  return *it;
}

std::string path_of(const std::string& where, const char* key) {
  return where.empty() ? key : where + "." + key;
}

std::string str(const json& obj, const char* key, const std::string& where = "") {
  const json& v = at(obj, key, where);
  if (!v.is_string()) throw Bad(path_of(where, key) + ": not a string");
  return v.get<std::string>();
}

uint64_t count(const json& obj, const char* key, const std::string& where = "",
               uint64_t max = std::numeric_limits<uint64_t>::max()) {
  const json& v = at(obj, key, where);
  if (!v.is_number_unsigned() || v.get<uint64_t>() > max)
    throw Bad(path_of(where, key) + fmt::format(": not a whole number from 0 to {}", max));
  return v.get<uint64_t>();
}

double real(const json& v, const std::string& what) {
  if (v.is_number()) return v.get<double>();
  if (v == "inf") return std::numeric_limits<double>::infinity();
  if (v == "-inf") return -std::numeric_limits<double>::infinity();
  if (v == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw Bad(what + ": not a number");
}

bool flag(const json& obj, const char* key) {
  const json& v = at(obj, key, "");
  if (!v.is_boolean()) throw Bad(std::string(key) + ": not true or false");
  return v.get<bool>();
}

const json& array(const json& obj, const char* key, const std::string& where = "") {
  const json& v = at(obj, key, where);
  if (!v.is_array()) throw Bad(path_of(where, key) + ": not an array");
  return v;
}

std::vector<std::string> strings(const json& a, const std::string& what) {
  if (!a.is_array()) throw Bad(what + ": not an array");
  std::vector<std::string> out;
  out.reserve(a.size());
  for (const auto& v : a) {
    if (!v.is_string()) throw Bad(what + ": holds a value that is not a string");
    out.push_back(v.get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> string_map(const json& obj, const char* key,
                                              const std::string& where) {
  const json& v = at(obj, key, where);
  if (!v.is_object()) throw Bad(path_of(where, key) + ": not an object");
  std::map<std::string, std::string> out;
  for (const auto& [k, s] : v.items()) {
    if (!s.is_string()) throw Bad(path_of(where, key) + "." + k + ": not a string");
    out.emplace(k, s.get<std::string>());
  }
  return out;
}

void read_folders(const json& j, RankSummary* s) {
  const json& folders = at(j, "folders", "");
  if (!folders.is_object()) throw Bad("folders: not an object");
  for (const auto& [folder, f] : folders.items()) {
    std::string where = "folders." + folder;
    s->folder_to_id[folder] = str(f, "compile_id", where);
    if (f.contains("cache")) s->folder_cache[folder] = str(f, "cache", where);
  }
}

void read_graphs(const json& j, RankSummary* s) {
  for (const auto& g : array(j, "collective_schedules"))
    s->schedules.emplace_back(
        str(g, "graph", "collective_schedules[]"),
        strings(at(g, "ops", "collective_schedules[]"), "collective_schedules[].ops"));
  for (const auto& g : array(j, "runtime_estimations")) {
    const std::string where = "runtime_estimations[]";
    RankGraphRuntime r;
    r.graph = str(g, "graph", where);
    r.fingerprint = str(g, "tensor_meta", where);
    for (const auto& op : array(g, "ops", where))
      r.ops.push_back(
          {str(op, "name", where + ".ops[]"), real(at(op, "estimated_runtime_ns", where + ".ops[]"),
                                                   where + ".ops[].estimated_runtime_ns")});
    s->runtimes.push_back(std::move(r));
  }
  for (const auto& p : array(j, "collectives_parity")) {
    const std::string where = "collectives_parity[]";
    auto small = [&](const char* key) {
      return static_cast<int>(count(p, key, where, std::numeric_limits<int>::max()));
    };
    s->parity.push_back({str(p, "graph", where), str(p, "compile_id", where), small("offset"),
                         small("missing_waits")});
  }
  const json& order = at(j, "graph_execution_order", "");
  if (!order.is_null()) s->execution_order = strings(order, "graph_execution_order");
}

void read_doctor(const json& j, RankSummary* s) {
  const json& d = at(j, "doctor", "");
  Totals& t = s->totals;
  t.frames = count(d, "frames", "doctor");
  t.compiles = count(d, "compiles", "doctor");
  t.recompiles = count(d, "recompiles", "doctor");
  t.graph_breaks = count(d, "graph_breaks", "doctor");
  t.failures = count(d, "failures", "doctor");
  t.compile_time_s = real(at(d, "compile_time_s", "doctor"), "doctor.compile_time_s");
  t.runs = static_cast<uint32_t>(count(d, "runs", "doctor", std::numeric_limits<uint32_t>::max()));
  s->recompile_categories = string_map(d, "recompile_categories", "doctor");
  s->graph_break_keys = strings(at(d, "graph_break_keys", "doctor"), "doctor.graph_break_keys");
}

RankSummary read(const json& j) {
  if (!j.is_object()) throw Bad("not a JSON object");
  if (!j.contains("format") || j["format"] != kFormat)
    throw Bad(fmt::format("not a rank summary (no \"format\": \"{}\")", kFormat));
  if (count(j, "version") != kRankSummaryVersion)
    throw Bad(fmt::format("version {} (this tlscope reads version {})", j["version"].dump(),
                          kRankSummaryVersion));
  RankSummary s;
  s.rank = static_cast<uint32_t>(count(j, "rank", "", std::numeric_limits<uint32_t>::max()));
  s.log = str(j, "log");
  s.error = str(j, "error");
  s.problem = str(j, "problem");
  s.strict_failures = count(j, "strict_failures");
  s.no_records = flag(j, "no_records");
  for (auto& id : strings(at(j, "compile_ids", ""), "compile_ids")) s.compile_ids.insert(id);
  s.cache_sequence = str(j, "cache_sequence");
  read_folders(j, &s);
  read_graphs(j, &s);
  read_doctor(j, &s);
  const json& c = at(j, "chromium_events", "");
  s.chromium_events = count(c, "events", "chromium_events");
  return s;
}

// The runtime estimations of a rank's graphs.
ordered_json runtimes_json(const std::vector<RankGraphRuntime>& runtimes) {
  ordered_json out = ordered_json::array();
  for (const auto& g : runtimes) {
    ordered_json ops = ordered_json::array();
    for (const auto& op : g.ops)
      ops.push_back({{"name", op.name}, {"estimated_runtime_ns", number(op.estimated_runtime_ns)}});
    out.push_back({{"graph", g.graph}, {"tensor_meta", g.fingerprint}, {"ops", ops}});
  }
  return out;
}

// One top-level field a line, each value compact: a rank's summary can hold
// thousands of ops, and the merge reads thousands of summaries.
std::string field_per_line(const ordered_json& j) {
  std::string text = "{\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    text += "  " + ordered_json(it.key()).dump() + ": ";
    text += it.value().dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    text += std::next(it) == j.end() ? "\n" : ",\n";
  }
  return text + "}\n";
}

}  // namespace

std::string rank_summary_json(const RankSummary& s) {
  ordered_json j;
  j["format"] = kFormat;
  j["version"] = kRankSummaryVersion;
  j["tlscope"] = TLSCOPE_VERSION;
  j["rank"] = s.rank;
  j["log"] = s.log;
  j["error"] = s.error;
  j["problem"] = s.problem;
  j["strict_failures"] = s.strict_failures;
  j["no_records"] = s.no_records;
  j["compile_ids"] = string_array(s.compile_ids);
  j["cache_sequence"] = s.cache_sequence;
  ordered_json folders = ordered_json::object();
  for (const auto& [folder, id] : s.folder_to_id) {
    ordered_json f = {{"compile_id", id}};
    if (auto c = s.folder_cache.find(folder); c != s.folder_cache.end()) f["cache"] = c->second;
    folders[folder] = std::move(f);
  }
  j["folders"] = std::move(folders);
  ordered_json schedules = ordered_json::array();
  for (const auto& [graph, ops] : s.schedules)
    schedules.push_back({{"graph", graph}, {"ops", string_array(ops)}});
  j["collective_schedules"] = std::move(schedules);
  j["runtime_estimations"] = runtimes_json(s.runtimes);
  ordered_json parity = ordered_json::array();
  for (const auto& p : s.parity)
    parity.push_back({{"graph", p.graph},
                      {"compile_id", p.compile_id},
                      {"offset", p.offset},
                      {"missing_waits", p.missing_waits}});
  j["collectives_parity"] = std::move(parity);
  j["graph_execution_order"] =
      s.execution_order ? string_array(*s.execution_order) : ordered_json();
  const Totals& t = s.totals;
  j["doctor"] = {{"frames", t.frames},
                 {"compiles", t.compiles},
                 {"recompiles", t.recompiles},
                 {"graph_breaks", t.graph_breaks},
                 {"failures", t.failures},
                 {"compile_time_s", number(t.compile_time_s)},
                 {"runs", t.runs},
                 {"recompile_categories", s.recompile_categories},
                 {"graph_break_keys", string_array(s.graph_break_keys)}};
  j["chromium_events"] = {{"file", "chromium_events.json"}, {"events", s.chromium_events}};
  return field_per_line(j);
}

std::optional<RankSummary> parse_rank_summary(const std::string& text, std::string* error) {
  try {
    return read(json::parse(text));
  } catch (const json::exception& e) {
    // nlohmann's messages start with "[json.exception.parse_error.101] ".
    std::string what = e.what();
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    *error = "not valid JSON: " + what;
  } catch (const Bad& e) {
    *error = e.what();
  }
  return std::nullopt;
}

}  // namespace tlscope::analysis
