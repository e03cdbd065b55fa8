// Multi-rank mode on small synthetic rank logs (valid MD5s, built with
// log_oracle.h): the reference bugs tlscope fixes (REPORT_FEATURES part J
// items 14, 22, 28, 30) and the analyses' edge cases (F64, F69).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "log_oracle.h"
#include "multirank_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

const std::string kAR = "torch.ops._c10d_functional.all_reduce_.default";
const std::string kAG = "torch.ops._c10d_functional.all_gather_into_tensor.default";
const std::string kWT = "torch.ops._c10d_functional.wait_tensor.default";

// Builds one rank's log record by record.
class RankLog {
 public:
  explicit RankLog(std::optional<int> rank) : rank_(rank) {}

  json ids(int frame, int compile) const {
    json j = {{"frame_id", frame}, {"frame_compile_id", compile}, {"attempt", 0}};
    if (rank_) j["rank"] = *rank_;
    return j;
  }
  RankLog& start(int frame, int compile) {
    json j = ids(frame, compile);
    j["dynamo_start"] = {{"stack", json::array()}};
    text_ += record(j);
    return *this;
  }
  RankLog& artifact(int frame, int compile, const std::string& name, const std::string& payload,
                    const std::string& encoding = "json") {
    json j = ids(frame, compile);
    j["artifact"] = {{"name", name}, {"encoding", encoding}};
    text_ += record(j, payload);
    return *this;
  }
  // (The payload's MD5 covers its lines joined by '\n': no trailing newline.)
  RankLog& output_code(int frame, int compile, const std::string& code) {
    json j = ids(frame, compile);
    j["inductor_output_code"] = {{"filename", "/tmp/torchinductor/out.py"}};
    text_ += record(j, code.back() == '\n' ? code.substr(0, code.size() - 1) : code);
    return *this;
  }
  // An artifact without compile id (graph_execution is logged that way).
  RankLog& global_artifact(const std::string& name, const std::string& payload) {
    json j = {{"artifact", {{"name", name}, {"encoding", "json"}}}};
    if (rank_) j["rank"] = *rank_;
    text_ += record(j, payload);
    return *this;
  }
  RankLog& raw(const std::string& s) {
    text_ += s;
    return *this;
  }
  const std::string& text() const { return text_; }

 private:
  std::optional<int> rank_;
  std::string text_;
};

std::string order_payload(const std::vector<std::string>& ids) {
  json j = {{"graph_execution_order", json::array()}};
  for (const auto& id : ids) j["graph_execution_order"].push_back({{"compile_id", id}});
  return j.dump(1);
}

class MultiRankSynthetic : public ::testing::Test {
 protected:
  void put(int rank, const RankLog& log) {
    fs::create_directories(in());
    write_file(in() / rank_log_name(static_cast<uint32_t>(rank)), log.text());
  }
  RunResult run(const std::vector<std::string>& extra = {}) {
    return run_all_ranks(in(), out(), tmp_.path(), extra);
  }
  std::string landing() const { return read_file(out() / "index.html"); }
  json load(const std::string& rel) const { return json::parse(read_file(out() / rel)); }
  fs::path in() const { return tmp_ / "in"; }
  fs::path out() const { return tmp_ / "out"; }
  TempDir tmp_;
};

// J28: only `graph_execution` gives the order; later `inductor_graph_execution`
// artifacts (higher numbers) do not hide it.
TEST_F(MultiRankSynthetic, ExecutionOrderIgnoresInductorGraphExecution) {
  for (int r = 0; r < 2; ++r) {
    RankLog log(r);
    log.start(0, 0).start(0, 1);
    log.global_artifact("graph_execution",
                        order_payload(r == 0 ? std::vector<std::string>{"0/0", "0/1"}
                                             : std::vector<std::string>{"0/1", "0/0"}));
    log.global_artifact("inductor_graph_execution", "{\"graph\": \"graph_0\"}");
    log.global_artifact("inductor_graph_execution", "{\"graph\": \"graph_1\"}");
    put(r, log);
  }
  RunResult r = run({"--strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_FALSE(has(page, "Execution-order analysis unavailable")) << page;
  EXPECT_TRUE(has(page, "Graph execution order differs across ranks."));
  EXPECT_TRUE(has(page, "Collectives Schedule: Consistent across ranks."));
  EXPECT_TRUE(has(page, "Cache hit/miss sequence: Consistent across ranks."));
}

TEST_F(MultiRankSynthetic, ExecutionOrderNeedsTwoRanksWithAnOrder) {
  RankLog a(0), b(1);
  a.start(0, 0).global_artifact("graph_execution", order_payload({"0/0"}));
  b.start(0, 0).global_artifact("inductor_graph_execution", "{\"graph\": \"graph_0\"}");
  put(0, a);
  put(1, b);
  RunResult r = run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(landing(), "Execution-order analysis unavailable."));
}

// F69: same order, different cache outcome for [0/0] -> cache mismatch; the
// cache-pattern warning (F67) fires too.
TEST_F(MultiRankSynthetic, ExecutionOrderCacheMismatch) {
  for (int r = 0; r < 2; ++r) {
    RankLog log(r);
    log.start(0, 0);
    log.artifact(0, 0, r == 0 ? "fx_graph_cache_miss" : "fx_graph_cache_hit", "{\"key\": \"k\"}");
    log.artifact(0, 0, "inductor_collective_schedule", json::array({kAR, kWT}).dump(1));
    log.global_artifact("graph_execution", order_payload({"0/0", "0/0"}));
    put(r, log);
  }
  RunResult r = run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = landing();
  EXPECT_TRUE(has(page, "Graph execution order: consistent across ranks."));
  EXPECT_TRUE(has(page, "Collectives Schedule: Consistent across ranks."));
  EXPECT_TRUE(
      has(page, "<strong>Warning:</strong> Cache hit/miss mismatch across ranks: Rank 0, Rank 1"))
      << page;
  EXPECT_TRUE(has(page, "Diverging Cache hit/miss patterns detected"));
  EXPECT_FALSE(has(page, "Diverging collective operation sequences"));
}

// F64 parity, J30: counted in the plain code, so quotes before a call on the
// same line do not matter; schedules and code compared per op kind.
TEST_F(MultiRankSynthetic, CollectivesParity) {
  RankLog log(0);
  log.start(0, 0).start(0, 1).start(0, 2).start(0, 3);
  // [0/0]: one all_reduce, never waited for.
  log.artifact(0, 0, "inductor_collective_schedule", json::array({kAR}).dump(1));
  log.output_code(
      0, 0, "def call(args):\n    x = f('a'); y = " + kAR + "(x, 'sum', '0')\n    return y\n");
  // [0/1]: the schedule has an all_gather the code does not launch.
  log.artifact(0, 1, "inductor_collective_schedule", json::array({kAR, kAG, kWT}).dump(1));
  log.output_code(0, 1,
                  "def call(args):\n    y = " + kAR + "(x)\n    " + kWT +
                      "(y)\n"
                      "    # " +
                      kAG + "(y)\n");
  // [0/2]: matches.
  log.artifact(0, 2, "inductor_collective_schedule", json::array({kAR, kWT}).dump(1));
  log.output_code(0, 2, "y = " + kAR + "(x)\n" + kWT + "(y)\n");
  // [0/3]: code only, no schedule: not compared.
  log.output_code(0, 3, "y = " + kAR + "(x)\n");
  put(0, log);
  RunResult r = run({"--strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json p = load("rank_0/collectives_parity.json");
  using Row = std::tuple<std::string, std::string, int, int>;
  std::set<Row> got;
  for (const auto& g : p["graphs"])
    got.insert({g["graph"].get<std::string>(), g["compile_id"].get<std::string>(),
                g["offset"].get<int>(), g["missing_waits"].get<int>()});
  EXPECT_EQ(got, (std::set<Row>{{"-_0_0_0", "[0/0]", 0, 1}, {"-_0_1_0", "[0/1]", 1, 0}}))
      << p.dump(1);
}

// J14: a broken runtime or schedule artifact does not abort the run.
TEST_F(MultiRankSynthetic, BrokenAnalysisArtifactsDoNotAbort) {
  RankLog a(0), b(1);
  json ok_runtime = {{"ops", {{{"name", "mm"}, {"estimated_runtime_ns", 2500.0}}}}};
  a.start(0, 0).start(0, 1).start(0, 2);
  a.artifact(0, 0, "inductor_runtime_and_tensor_meta", ok_runtime.dump(1));
  a.artifact(0, 1, "inductor_runtime_and_tensor_meta", "{\"ops\": \"not a list\"}");
  a.artifact(0, 2, "inductor_runtime_and_tensor_meta", "{not json");
  a.artifact(0, 0, "inductor_collective_schedule", json::array({kAR}).dump(1));
  a.artifact(0, 1, "inductor_collective_schedule", "[1, 2]");
  a.artifact(0, 2, "inductor_collective_schedule", "{\"a\": 1}");
  b.start(0, 0);
  b.artifact(0, 0, "inductor_runtime_and_tensor_meta", ok_runtime.dump(1));
  b.artifact(0, 0, "inductor_collective_schedule", json::array({kAR}).dump(1));
  put(0, a);
  put(1, b);
  RunResult r = run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(out() / "rank_0" / "index.html"));
  json est = load("runtime_estimations.json");
  ASSERT_EQ(est.size(), 2u) << est.dump(1);
  EXPECT_EQ(est[0], json({{"rank", 0},
                          {"graph", "-_0_0_0"},
                          {"ops", {{{"name", "mm"}, {"estimated_runtime_ns", 2500.0}}}}}));
  EXPECT_EQ(est[1]["rank"], 1);
  json sched = load("collective_schedules.json");
  ASSERT_EQ(sched.size(), 2u) << sched.dump(1);
  EXPECT_EQ(sched[0], json({{"rank", 0}, {"graph", "-_0_0_0"}, {"ops", {kAR}}}));
  EXPECT_EQ(sched[1], json({{"rank", 1}, {"graph", "-_0_0_0"}, {"ops", {kAR}}}));
  std::string page = landing();
  EXPECT_FALSE(has(page, "Diverging collective operation sequences"));
  // Same single graph on both ranks: one row, ties go to rank 1.
  EXPECT_TRUE(has(page,
                  "<p><strong>Graph -_0_0_0:</strong> 0.0 ms delta (Fastest: Rank 1 - "
                  "0.003 ms, Slowest: Rank 1 - 0.003 ms)</p>"))
      << page;
  // The trace: dur = ceil(2500 / 1000) = 3 us.
  json trace = load("chromium_trace_with_runtime.json");
  size_t x = 0;
  for (const auto& e : trace)
    if (e["ph"] == "X") {
      ++x;
      EXPECT_EQ(e["dur"], 3);
      EXPECT_EQ(e["args"]["runtime_ns"], 2500);
    }
  EXPECT_EQ(x, 2u);
}

// J22: records without a rank after ranked ones are kept.
TEST_F(MultiRankSynthetic, RanklessRecordsAreKept) {
  RankLog ranked(0), rankless(std::nullopt);
  ranked.start(0, 0);
  rankless.start(1, 0);
  put(0, RankLog(0).raw(ranked.text() + rankless.text()));
  RankLog other(1);
  other.start(0, 0).start(1, 0);
  put(1, other);
  RunResult r = run({"--strict"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json dir = load("rank_0/compile_directory.json");
  EXPECT_EQ(json_keys(dir), (std::set<std::string>{"[0/0]", "[1/0]"}));
  EXPECT_FALSE(has(landing(), "Diverging Compilation IDs"));
}

}  // namespace
}  // namespace tlscope_test
