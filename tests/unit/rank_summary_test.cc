// rank_summary.json (analysis/rank_summary_json): every field of a rank
// summary survives the file, numbers exactly, and a broken file is refused
// with a message that names the field.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/rank_summary_json.h"

namespace tlscope::analysis {
namespace {

using nlohmann::json;

RankSummary full() {
  RankSummary s;
  s.rank = 4000000000u;
  s.log = "/logs/dedicated_log_torch_trace_rank_7_x.log";
  s.compile_ids = {"0/0", "0/1", "1/0_1"};
  s.cache_sequence = "_miss_hit";
  s.folder_to_id = {{"-_0_0_0", "[0/0]"}, {"-_0_1_0", "[0/1]"}, {"-_1_0_1", "[1/0_1]"}};
  s.folder_cache = {{"-_0_0_0", "miss"}, {"-_0_1_0", "hit"}};  // -_1_0_1: none
  s.schedules = {{"-_0_1_0", {"all_reduce", "wait"}}, {"-_0_0_0", {}}};
  s.runtimes = {{"-_0_0_0", {{"mm", 0.1}, {"add", 1e300}, {"x", 5e-324}}, "f32[2,3]"},
                {"-_0_1_0", {{"inf_op", std::numeric_limits<double>::infinity()}}, ""}};
  s.parity = {{"-_0_1_0", "[0/1]", 2, 1}};
  s.execution_order = std::vector<std::string>{"[0/0]", "[0/1]", "[0/0]"};
  s.totals = {3, 5, 2, 7, 1, 12.345678901234567, 2};
  s.recompile_categories = {{"0/1", "shape "}, {"1/0_1", "constant shape "}};
  s.graph_break_keys = {"print|print()|3", "numpy|np.x|1"};
  s.chromium_events = 18446744073709551615ull;
  s.no_records = false;
  s.problem = "rank 7: 2 line(s) could not be used (Stats { ok: 3 })";
  s.strict_failures = 2;
  return s;
}

void expect_same(const RankSummary& a, const RankSummary& b) {
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.log, b.log);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.compile_ids, b.compile_ids);
  EXPECT_EQ(a.cache_sequence, b.cache_sequence);
  EXPECT_EQ(a.folder_to_id, b.folder_to_id);
  EXPECT_EQ(a.folder_cache, b.folder_cache);
  EXPECT_EQ(a.schedules, b.schedules);
  ASSERT_EQ(a.runtimes.size(), b.runtimes.size());
  for (size_t i = 0; i < a.runtimes.size(); ++i) {
    EXPECT_EQ(a.runtimes[i].graph, b.runtimes[i].graph);
    EXPECT_EQ(a.runtimes[i].fingerprint, b.runtimes[i].fingerprint);
    ASSERT_EQ(a.runtimes[i].ops.size(), b.runtimes[i].ops.size());
    for (size_t j = 0; j < a.runtimes[i].ops.size(); ++j) {
      EXPECT_EQ(a.runtimes[i].ops[j].name, b.runtimes[i].ops[j].name);
      EXPECT_EQ(a.runtimes[i].ops[j].estimated_runtime_ns,
                b.runtimes[i].ops[j].estimated_runtime_ns);
    }
  }
  ASSERT_EQ(a.parity.size(), b.parity.size());
  for (size_t i = 0; i < a.parity.size(); ++i) {
    EXPECT_EQ(a.parity[i].graph, b.parity[i].graph);
    EXPECT_EQ(a.parity[i].compile_id, b.parity[i].compile_id);
    EXPECT_EQ(a.parity[i].offset, b.parity[i].offset);
    EXPECT_EQ(a.parity[i].missing_waits, b.parity[i].missing_waits);
  }
  EXPECT_EQ(a.execution_order, b.execution_order);
  EXPECT_EQ(a.totals.frames, b.totals.frames);
  EXPECT_EQ(a.totals.compiles, b.totals.compiles);
  EXPECT_EQ(a.totals.recompiles, b.totals.recompiles);
  EXPECT_EQ(a.totals.graph_breaks, b.totals.graph_breaks);
  EXPECT_EQ(a.totals.failures, b.totals.failures);
  EXPECT_EQ(a.totals.runs, b.totals.runs);
  if (std::isnan(a.totals.compile_time_s))
    EXPECT_TRUE(std::isnan(b.totals.compile_time_s));
  else
    EXPECT_EQ(a.totals.compile_time_s, b.totals.compile_time_s);
  EXPECT_EQ(a.recompile_categories, b.recompile_categories);
  EXPECT_EQ(a.graph_break_keys, b.graph_break_keys);
  EXPECT_EQ(a.chromium_events, b.chromium_events);
  EXPECT_EQ(a.no_records, b.no_records);
  EXPECT_EQ(a.problem, b.problem);
  EXPECT_EQ(a.strict_failures, b.strict_failures);
}

RankSummary round_trip(const RankSummary& s) {
  std::string error;
  auto back = parse_rank_summary(rank_summary_json(s), &error);
  EXPECT_TRUE(back) << error;
  return back ? *back : RankSummary{};
}

TEST(RankSummaryJson, EveryFieldSurvivesTheFile) {
  RankSummary s = full();
  expect_same(s, round_trip(s));
  // Written again, the text is the same: the merge of a merge is stable.
  EXPECT_EQ(rank_summary_json(round_trip(s)), rank_summary_json(s));
}

TEST(RankSummaryJson, AFailedOrEmptyRankAndNonFiniteNumbers) {
  RankSummary s;
  s.rank = 3;
  s.error = "nope.log: no such file";
  s.problem = "rank 3: no report (nope.log: no such file)";
  s.no_records = true;
  s.totals.compile_time_s = std::numeric_limits<double>::quiet_NaN();
  expect_same(s, round_trip(s));
  json j = json::parse(rank_summary_json(s));
  EXPECT_EQ(j["doctor"]["compile_time_s"], "nan");
  EXPECT_TRUE(j["graph_execution_order"].is_null());
  s.totals.compile_time_s = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(json::parse(rank_summary_json(s))["doctor"]["compile_time_s"], "-inf");
  expect_same(s, round_trip(s));
}

TEST(RankSummaryJson, TheFileNamesItsFormatAndWhatTheMergeNeeds) {
  json j = json::parse(rank_summary_json(full()));
  EXPECT_EQ(j["format"], "tlscope rank summary");
  EXPECT_EQ(j["version"], kRankSummaryVersion);
  EXPECT_EQ(j["rank"], 4000000000u);
  EXPECT_EQ(j["folders"]["-_0_1_0"], json({{"compile_id", "[0/1]"}, {"cache", "hit"}}));
  EXPECT_EQ(j["folders"]["-_1_0_1"], json({{"compile_id", "[1/0_1]"}}));
  EXPECT_EQ(j["runtime_estimations"][0]["tensor_meta"], "f32[2,3]");
  EXPECT_EQ(j["runtime_estimations"][1]["ops"][0]["estimated_runtime_ns"], "inf");
  EXPECT_EQ(j["doctor"]["graph_breaks"], 7);
  EXPECT_EQ(j["chromium_events"]["file"], "chromium_events.json");
}

// Replaces the value at `pointer` (or removes it) and returns the error.
std::string broken(const std::string& pointer, const json& value, bool remove = false) {
  json j = json::parse(rank_summary_json(full()));
  json::json_pointer p(pointer);
  if (remove)
    j[p.parent_pointer()].erase(p.back());
  else
    j[p] = value;
  std::string error;
  EXPECT_FALSE(parse_rank_summary(j.dump(), &error)) << pointer;
  return error;
}

TEST(RankSummaryJson, ABrokenFileIsRefusedWithTheFieldNamed) {
  std::string error;
  EXPECT_FALSE(parse_rank_summary("{\"format\": ", &error));
  EXPECT_EQ(error.rfind("not valid JSON: ", 0), 0u) << error;
  EXPECT_FALSE(parse_rank_summary("[1, 2]", &error));
  EXPECT_EQ(error, "not a JSON object");
  EXPECT_EQ(broken("/format", "tlparse"),
            "not a rank summary (no \"format\": \"tlscope rank summary\")");
  EXPECT_EQ(broken("/version", 2), "version 2 (this tlscope reads version 1)");
  EXPECT_EQ(broken("/rank", -1), "rank: not a whole number from 0 to 4294967295");
  EXPECT_EQ(broken("/rank", 4294967296ull), "rank: not a whole number from 0 to 4294967295");
  EXPECT_EQ(broken("/log", 5), "log: not a string");
  EXPECT_EQ(broken("/compile_ids", {"0/0", 1}), "compile_ids: holds a value that is not a string");
  EXPECT_EQ(broken("/doctor/compiles", "5"),
            "doctor.compiles: not a whole number from 0 to 18446744073709551615");
  EXPECT_EQ(broken("/doctor/compile_time_s", "fast"), "doctor.compile_time_s: not a number");
  EXPECT_EQ(broken("/doctor/runs", 0, true), "doctor.runs: missing");
  EXPECT_EQ(broken("/folders/-_0_0_0/compile_id", 0, true), "folders.-_0_0_0.compile_id: missing");
  EXPECT_EQ(broken("/collectives_parity/0/offset", -2),
            "collectives_parity[].offset: not a whole number from 0 to 2147483647");
  EXPECT_EQ(broken("/graph_execution_order", "0/0"), "graph_execution_order: not an array");
  EXPECT_EQ(broken("/no_records", 0), "no_records: not true or false");
  EXPECT_EQ(broken("/chromium_events", 0, true), "chromium_events: missing");
}

}  // namespace
}  // namespace tlscope::analysis
