// Multi-rank analyses (REPORT_FEATURES F60-F69, F72; part I items 31-41):
// collective schedules, runtime estimations and their trace, the runtime and
// tensor-metadata comparisons, collectives parity, execution order; plus our
// recorded two-rank gloo job. Expected values were computed from the logs
// with a separate script (python), not from tlscope's output.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "multirank_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

const std::string kAllReduce = "torch.ops._c10d_functional.all_reduce_.default";
const std::string kWait = "torch.ops._c10d_functional.wait_tensor.default";
const std::string kAllGather = "torch.ops._c10d_functional.all_gather_into_tensor.default";
const std::string kReduceScatter = "torch.ops._c10d_functional.reduce_scatter_tensor.default";

class MultiRankAnalyses : public ::testing::Test {
 protected:
  fs::path in() const { return tmp_ / "in"; }
  fs::path out() const { return tmp_ / "out"; }
  TempDir tmp_;
};
// The tests that read the corpus.
class CorpusMultiRankAnalyses : public MultiRankAnalyses {};

// Item 31.
TEST_F(CorpusMultiRankAnalyses, CollectiveScheduleParsing) {
  const auto& r = multirank_run(schedule_ranks());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  for (int k = 0; k < 3; ++k)
    EXPECT_TRUE(fs::is_regular_file(r.out / ("rank_" + std::to_string(k)) / "index.html")) << k;
  EXPECT_FALSE(r.landing.empty());
  EXPECT_TRUE(has(r.result.out, "Collective schedules: " +
                                    (r.out / "collective_schedules.json").string() + "\n"));
  json s = r.load("collective_schedules.json");
  const std::vector<std::string> six = {kAllReduce,     kWait, kAllGather,
                                        kReduceScatter, kWait, kWait};
  const std::vector<std::string> four = {kAllReduce, kWait, kAllGather, kWait};
  const std::vector<std::string> two = {kAllReduce, kWait};
  json expected = json::array();
  for (int rank = 0; rank < 3; ++rank) {
    expected.push_back({{"rank", rank}, {"graph", "-_0_0_0"}, {"ops", rank == 1 ? four : six}});
    expected.push_back({{"rank", rank}, {"graph", "-_1_0_0"}, {"ops", two}});
  }
  EXPECT_EQ(s, expected) << s.dump(1);
  // Field order as F63 gives it (nlohmann::json sorts keys, so check the text).
  std::string raw = r.text("collective_schedules.json");
  EXPECT_TRUE(has(raw, "{\n    \"rank\": 0,\n    \"graph\": \"-_0_0_0\",\n    \"ops\": [")) << raw;
}

// Item 32: only ranks 0 and 2, renamed.
TEST_F(CorpusMultiRankAnalyses, CollectiveScheduleNoDivergence) {
  copy_as(schedule_ranks() / "dedicated_log_torch_trace_rank_0_6u3fubwl.log", in(),
          rank_log_name(0));
  copy_as(schedule_ranks() / "dedicated_log_torch_trace_rank_2.log", in(), rank_log_name(2));
  RunResult r = run_all_ranks(in(), out(), tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = read_file(out() / "index.html");
  EXPECT_FALSE(has(page, "Warning:</strong> Diverging collective operation sequences"));
  EXPECT_FALSE(has(page, "Diverging"));
  EXPECT_TRUE(has(page, "All ranks compiled alike"));
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 2}));
  // Rank 1 is a gap in the numbers.
  EXPECT_TRUE(has(page, "<li>no log in the folder for rank 1</li>")) << page;
}

// Item 33.
TEST_F(CorpusMultiRankAnalyses, CollectiveScheduleWithDivergence) {
  const auto& r = multirank_run(schedule_ranks());
  EXPECT_TRUE(has(r.landing, "<strong>Warning:</strong> Diverging collective operation sequences"));
  auto box = section(r.landing, "Diverging collective operation sequences", "</ul>");
  EXPECT_EQ(rank_groups(box), (std::vector<std::string>{"0, 2", "1"})) << box;
  EXPECT_TRUE(has(r.landing, "Ranks: 0, 2"));
  EXPECT_TRUE(has(r.landing, "Ranks: 1"));
  EXPECT_FALSE(has(r.landing, "Diverging Compilation IDs"));
  EXPECT_FALSE(has(r.landing, "Diverging Cache hit/miss"));
}

// Item 34 (output to a temp folder: the corpus is read-only).
TEST_F(CorpusMultiRankAnalyses, RuntimeEstimationParsing) {
  const auto& r = multirank_run(runtime_ranks());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(has(r.result.out,
                  "Runtime estimations: " + (r.out / "runtime_estimations.json").string() + "\n"));
  json est = r.load("runtime_estimations.json");
  ASSERT_TRUE(est.is_array());
  // (rank, graph, op count, total ns) per record, ranks ascending then graph.
  struct Rec {
    int rank;
    std::string graph;
    size_t ops;
    double total_ns;
  };
  const double g0[] = {13806088.656527853, 14496393.089465443, 15186697.522297116,
                       15877001.955129309};
  const double g1[] = {13859314.55187109, 14552280.276577098, 15245246.004033152,
                       15938211.731489202};
  std::vector<Rec> want;
  for (int k = 0; k < 4; ++k) {
    want.push_back({k, "-_0_0_0", 6, g0[k]});
    for (const char* g : {"-_0_1_0", "-_0_2_0", "-_0_3_0"}) want.push_back({k, g, 11, g1[k]});
  }
  for (const char* g : {"-_0_1_0", "-_0_2_0", "-_0_3_0"})
    want.push_back({4, g, 11, 16631177.458945258});
  for (int k : {5, 6}) {
    want.push_back({k, "-_0_0_0", 6, 13806088.656527853});
    want.push_back({k, "-_0_1_0", 11, 13859314.549121048});
  }
  ASSERT_EQ(est.size(), want.size()) << est.dump(1).substr(0, 2000);
  std::set<int> ranks;
  for (size_t i = 0; i < want.size(); ++i) {
    const json& e = est[i];
    EXPECT_EQ(json_keys(e), (std::set<std::string>{"rank", "graph", "ops"}));
    EXPECT_EQ(e["rank"], want[i].rank) << i;
    EXPECT_EQ(e["graph"], want[i].graph) << i;
    ASSERT_EQ(e["ops"].size(), want[i].ops) << i;
    double total = 0;
    for (const auto& op : e["ops"]) {
      EXPECT_TRUE(op["name"].is_string());
      EXPECT_TRUE(op["estimated_runtime_ns"].is_number());
      EXPECT_FALSE(op.contains("type"));
      EXPECT_EQ(json_keys(op), (std::set<std::string>{"name", "estimated_runtime_ns"}));
      total += op["estimated_runtime_ns"].get<double>();
    }
    EXPECT_NEAR(total, want[i].total_ns, 1e-6) << i;
    ranks.insert(e["rank"].get<int>());
  }
  EXPECT_TRUE(ranks.count(0) && ranks.count(1));
  EXPECT_EQ(est[0]["ops"][0]["name"], "extern_kernels.mm");
}

// Item 35: ranks 0-3 of multi_rank_runtime.
TEST_F(CorpusMultiRankAnalyses, RuntimeAnalysisWorking) {
  for (int k = 0; k < 4; ++k) copy_as(runtime_ranks() / rank_log_name(k), in(), rank_log_name(k));
  RunResult r = run_all_ranks(in(), out(), tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = read_file(out() / "index.html");
  EXPECT_TRUE(has(page, "<h2>Graph Runtime Analysis</h2>"));
  EXPECT_FALSE(has(page, "Runtime analysis not available"));
  EXPECT_EQ(count_of(page, " ms delta "), 4u);
  // F62 values: totals summed per graph, ms rounded half away from zero.
  EXPECT_TRUE(has(page,
                  "<p><strong>Graph -_0_0_0:</strong> 2.071 ms delta (Fastest: Rank 0 - "
                  "13.806 ms, Slowest: Rank 3 - 15.877 ms)</p>"))
      << page;
  for (const char* g : {"-_0_1_0", "-_0_2_0", "-_0_3_0"})
    EXPECT_TRUE(has(page, std::string("<p><strong>Graph ") + g +
                              ":</strong> 2.079 ms delta (Fastest: Rank 0 - 13.859 ms, Slowest: "
                              "Rank 3 - 15.938 ms)</p>"))
        << g;
  // Rows sorted by graph id.
  EXPECT_LT(page.find("Graph -_0_0_0:"), page.find("Graph -_0_1_0:"));
  EXPECT_LT(page.find("Graph -_0_2_0:"), page.find("Graph -_0_3_0:"));
}

// Item 36: all 7 ranks; rank 4 lacks a graph, ranks 5 and 6 have two.
TEST_F(CorpusMultiRankAnalyses, RuntimeAnalysisMismatchedGraphs) {
  const auto& r = multirank_run(runtime_ranks());
  EXPECT_TRUE(has(r.landing, "<h2>Graph Runtime Analysis</h2>"));
  EXPECT_TRUE(has(r.landing, "Runtime analysis not available"));
  EXPECT_FALSE(has(r.landing, "ms delta"));
}

// Item 37.
TEST_F(CorpusMultiRankAnalyses, ChromiumTraceWithRuntime) {
  const auto& r = multirank_run(runtime_ranks());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(has(r.landing, "href=\"chromium_trace_with_runtime.json\""));
  json trace = r.load("chromium_trace_with_runtime.json");
  json est = r.load("runtime_estimations.json");
  ASSERT_TRUE(trace.is_array());
  ASSERT_FALSE(trace.empty());
  std::set<int64_t> pids;
  std::vector<const json*> runtime;
  for (const auto& e : trace) {
    if (e["ph"] == "X" && e.value("cat", "") == "runtime") runtime.push_back(&e);
  }
  ASSERT_EQ(runtime.size(), 223u);  // 4 x (6 + 3 x 11) + 3 x 11 + 2 x (6 + 11) ops
  for (const json* p : runtime) {
    const json& e = *p;
    EXPECT_TRUE(e["name"].is_string());
    ASSERT_TRUE(e["dur"].is_number_integer()) << e;
    EXPECT_GT(e["dur"].get<int64_t>(), 0);
    EXPECT_TRUE(e["ts"].is_number_integer());
    EXPECT_TRUE(e["pid"].is_number_integer());
    EXPECT_TRUE(e["tid"].is_number_integer());
    EXPECT_TRUE(e["args"]["runtime_ns"].is_number());
    EXPECT_TRUE(e["args"]["graph"].is_string());
    EXPECT_EQ(e["pid"], e["args"]["rank"]);
    pids.insert(e["pid"].get<int64_t>());
  }
  // The rank numbers of the input file names.
  EXPECT_EQ(pids, (std::set<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  // F61: ops back to back from ts 0 per record, dur = max(1, ceil(ns / 1000)).
  size_t i = 0;
  for (const auto& rec : est) {
    int64_t ts = 0;
    std::set<int64_t> tids;
    for (const auto& op : rec["ops"]) {
      ASSERT_LT(i, runtime.size());
      const json& e = *runtime[i++];
      double ns = op["estimated_runtime_ns"].get<double>();
      EXPECT_EQ(e["name"], op["name"]);
      EXPECT_EQ(e["args"]["graph"], rec["graph"]);
      EXPECT_EQ(e["args"]["rank"], rec["rank"]);
      EXPECT_EQ(e["args"]["runtime_ns"].get<int64_t>(), static_cast<int64_t>(ns));
      EXPECT_EQ(e["ts"].get<int64_t>(), ts);
      int64_t dur = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(ns / 1000.0)));
      EXPECT_EQ(e["dur"].get<int64_t>(), dur);
      ts += dur;
      tids.insert(e["tid"].get<int64_t>());
    }
    EXPECT_EQ(tids.size(), 1u);  // one thread per (rank, graph)
  }
  // Metadata: a process name per rank and a thread name per (rank, graph).
  std::set<std::string> procs, threads;
  for (const auto& e : trace) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") {
      EXPECT_EQ(e["args"]["name"], "Rank " + std::to_string(e["pid"].get<int64_t>()));
      procs.insert(e["args"]["name"]);
    }
    if (e["name"] == "thread_name")
      threads.insert(std::to_string(e["pid"].get<int64_t>()) + " " +
                     e["args"]["name"].get<std::string>());
  }
  EXPECT_EQ(procs.size(), 7u);
  EXPECT_EQ(threads.size(), est.size());
  // Thread sort indices are deterministic (J27): a rank's graphs in the order
  // of runtime_estimations.json.
  std::map<std::pair<int64_t, int64_t>, std::string> tid_graph;
  std::map<std::pair<int64_t, int64_t>, int64_t> tid_index;
  for (const auto& e : trace) {
    if (e["ph"] != "M" || !e.contains("tid")) continue;
    std::pair<int64_t, int64_t> key{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()};
    if (e["name"] == "thread_name") tid_graph[key] = e["args"]["name"].get<std::string>();
    if (e["name"] == "thread_sort_index") tid_index[key] = e["args"]["sort_index"].get<int64_t>();
  }
  std::map<std::pair<int64_t, std::string>, int64_t> want_index;
  std::map<int64_t, int64_t> next;
  for (const auto& rec : est) {
    int64_t rank = rec["rank"].get<int64_t>();
    want_index[{rank, "graph " + rec["graph"].get<std::string>()}] = next[rank]++;
  }
  ASSERT_EQ(tid_index.size(), est.size());
  for (const auto& [key, graph] : tid_graph)
    EXPECT_EQ(tid_index[key], (want_index[{key.first, graph}])) << key.first << " " << graph;
  EXPECT_TRUE(threads.count("4 graph -_0_1_0"));
  EXPECT_FALSE(threads.count("4 graph -_0_0_0"));
}

// Item 38.
TEST_F(CorpusMultiRankAnalyses, TensorMetaDivergenceGroups) {
  const auto& r = multirank_run(runtime_ranks());
  EXPECT_TRUE(has(r.landing, "<h2>Tensor Metadata Analysis</h2>"));
  EXPECT_TRUE(has(r.landing, "Ranks exhibit divergent inductor tensor meta"));
  EXPECT_TRUE(has(r.landing, "Ranks: 5, 6"));
  // Ranks 0-4 each have their own estimates; 5 and 6 are identical.
  auto meta = section(r.landing, "Ranks exhibit divergent inductor tensor meta", "</ul>");
  EXPECT_EQ(rank_groups(meta), (std::vector<std::string>{"0", "1", "2", "3", "4", "5, 6"})) << meta;
  // F70: tensor-meta divergence alone turns the box on; here there is more.
  EXPECT_TRUE(has(r.landing, "Diverging Compilation IDs detected"));
  auto coll = section(r.landing, "Diverging collective operation sequences", "</ul>");
  EXPECT_EQ(rank_groups(coll), (std::vector<std::string>{"0, 1, 2, 3, 4", "5, 6"})) << coll;
}

// Item 40.
TEST_F(CorpusMultiRankAnalyses, CollectivesParityDetectsMismatch) {
  const auto& r = multirank_run(parity_ranks());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  json p = r.load("rank_0/collectives_parity.json");
  ASSERT_TRUE(p["description"].is_string());
  EXPECT_FALSE(p["description"].get<std::string>().empty());
  using Row = std::tuple<std::string, std::string, int, int>;
  std::set<Row> got;
  for (const auto& g : p["graphs"]) {
    EXPECT_EQ(json_keys(g),
              (std::set<std::string>{"graph", "compile_id", "offset", "missing_waits"}));
    got.insert({g["graph"].get<std::string>(), g["compile_id"].get<std::string>(),
                g["offset"].get<int>(), g["missing_waits"].get<int>()});
  }
  EXPECT_EQ(p["graphs"].size(), 2u);
  EXPECT_EQ(got, (std::set<Row>{{"-_0_1_0", "[0/1]", 0, 3}, {"-_0_0_0", "[0/0]", 0, 1}}));
  // One rank: no cross-rank comparison, the landing page still exists.
  EXPECT_EQ(rank_links(r.landing), (std::vector<uint32_t>{0}));
  EXPECT_TRUE(has(r.landing, "Execution-order analysis unavailable."));
  EXPECT_FALSE(has(r.landing, "collectives_parity.json"));
}

// Item 41.
TEST_F(CorpusMultiRankAnalyses, GraphExecutionOrderDiagnostics) {
  const auto& r = multirank_run(exec_order_ranks());
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(has(r.landing, "Graph Execution-Order Diagnostics"));
  EXPECT_TRUE(has(r.landing, "Graph execution order differs across ranks"));
  EXPECT_TRUE(has(r.landing, "Cache hit/miss sequence: Consistent across ranks"));
  EXPECT_FALSE(has(r.landing, "Warning:</strong> Cache hit/miss mismatch across ranks"));
  // Rank 0 runs [0/1] first, rank 1 [0/0]; their schedules differ (2 vs 5 ops),
  // and [0/1] differs between the ranks too (5 vs 6 ops).
  EXPECT_TRUE(
      has(r.landing, "<strong>Warning:</strong> Schedule mismatch across ranks: Rank 0, Rank 1"));
  EXPECT_FALSE(has(r.landing, "Collectives Schedule: Consistent across ranks."));
  // Identical estimates on both ranks: ties go to the later rank.
  EXPECT_TRUE(has(r.landing,
                  "<p><strong>Graph -_0_0_0:</strong> 0.0 ms delta (Fastest: Rank 1 - "
                  "13.806 ms, Slowest: Rank 1 - 13.806 ms)</p>"));
  EXPECT_TRUE(has(r.landing, "All ranks have matching tensor meta signatures across graphs."));
}

// Our recorded two-rank job (PyTorch 2.11, gloo): rank 1 recompiled once more.
TEST_F(MultiRankAnalyses, RecordedTwoRanks) {
  const auto& r = multirank_run(kTwoRanksAborted);
  ASSERT_EQ(r.result.exit_code, 0) << r.result.err;
  EXPECT_TRUE(r.result.err.empty()) << r.result.err;
  EXPECT_EQ(rank_links(r.landing), (std::vector<uint32_t>{0, 1}));
  EXPECT_FALSE(has(r.landing, "Problems with the rank logs"));
  EXPECT_TRUE(has(r.landing, "Diverging Compilation IDs detected"));
  auto coll = section(r.landing, "Diverging collective operation sequences", "</ul>");
  EXPECT_EQ(rank_groups(coll), (std::vector<std::string>{"0", "1"})) << coll;
  EXPECT_TRUE(has(r.landing,
                  "<li>Ranks differ in <strong>recompiles</strong> (first at 0/1): "
                  "ranks 0; ranks 1</li>"))
      << r.landing;
  json s = r.load("collective_schedules.json");
  json expected = json::array();
  expected.push_back({{"rank", 0}, {"graph", "-_0_0_0"}, {"ops", {kAllReduce, kWait}}});
  expected.push_back({{"rank", 1}, {"graph", "-_0_0_0"}, {"ops", {kAllReduce, kWait}}});
  expected.push_back({{"rank", 1}, {"graph", "-_0_1_0"}, {"ops", {kAllReduce, kWait}}});
  EXPECT_EQ(s, expected);
  // Every launched all_reduce is waited for and matches the schedule.
  for (int k = 0; k < 2; ++k)
    EXPECT_EQ(r.load("rank_" + std::to_string(k) + "/collectives_parity.json")["graphs"],
              json::array());
  EXPECT_EQ(events_by_pid(r.load("chromium_events.json")),
            (std::map<int64_t, size_t>{{0, 110}, {1, 237}}));
  EXPECT_FALSE(fs::exists(r.out / "runtime_estimations.json"));
}

}  // namespace
}  // namespace tlscope_test
