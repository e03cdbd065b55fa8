// Cross-rank analyses (src/analysis/ranks.h, collectives.h): rank ranges, the
// ms rounding of F62, collective-name normalisation and counting (F64), the
// execution-order analysis (F69, REPORT_FEATURES part I item 39) and the
// grouping / runtime rules of analyze_ranks (F62, F66-F68, README
// "Deliberate differences": groups listed by lowest rank).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/ranks.h"
#include "model/collectives.h"

namespace tlscope::analysis {
namespace {

using model::count_code_collectives;
using model::normalize_collective;
using Ranks = std::vector<uint32_t>;
using Orders = std::map<uint32_t, std::vector<std::string>>;
using Schedules = std::map<std::pair<uint32_t, std::string>, std::vector<std::string>>;
using Cache = std::map<std::pair<uint32_t, std::string>, std::string>;

TEST(RankRanges, CollapsesConsecutiveRuns) {
  EXPECT_EQ(rank_ranges({0, 1, 2, 3, 5}), "0-3, 5");
  EXPECT_EQ(rank_ranges({}), "");
  EXPECT_EQ(rank_ranges({7}), "7");
  EXPECT_EQ(rank_ranges({1, 2}), "1-2");
  EXPECT_EQ(rank_ranges({0, 2, 4}), "0, 2, 4");
  EXPECT_EQ(rank_ranges({0, 1, 3, 4, 5, 9, 10}), "0-1, 3-5, 9-10");
  EXPECT_EQ(rank_ranges({4294967294u, 4294967295u}), "4294967294-4294967295");
}

TEST(RankList, JoinsWithCommaSpace) {
  EXPECT_EQ(rank_list({0, 2}), "0, 2");
  EXPECT_EQ(rank_list({1}), "1");
  EXPECT_EQ(rank_list({}), "");
  EXPECT_EQ(rank_list({5, 6, 7}), "5, 6, 7");
}

TEST(NsToMs, RoundsToThreeDecimalsHalfAwayFromZero) {
  EXPECT_DOUBLE_EQ(ns_to_ms(0), 0.0);
  EXPECT_DOUBLE_EQ(ns_to_ms(13806088.656527853), 13.806);  // multi_rank_runtime rank 0, -_0_0_0
  EXPECT_DOUBLE_EQ(ns_to_ms(15877001.955129309), 15.877);
  EXPECT_DOUBLE_EQ(ns_to_ms(15877001.955129309 - 13806088.656527853), 2.071);
  // Exact halves (x.5 thousandths of a ms) go away from zero, not to even.
  EXPECT_DOUBLE_EQ(ns_to_ms(500), 0.001);
  EXPECT_DOUBLE_EQ(ns_to_ms(1500), 0.002);
  EXPECT_DOUBLE_EQ(ns_to_ms(2500), 0.003);
  EXPECT_DOUBLE_EQ(ns_to_ms(-500), -0.001);
  EXPECT_DOUBLE_EQ(ns_to_ms(-2500), -0.003);
  // Below a half rounds down.
  EXPECT_DOUBLE_EQ(ns_to_ms(499), 0.0);
  EXPECT_DOUBLE_EQ(ns_to_ms(999.5), 0.001);
  EXPECT_DOUBLE_EQ(ns_to_ms(1e9), 1000.0);
  EXPECT_DOUBLE_EQ(ns_to_ms(123456789), 123.457);
}

TEST(NormalizeCollective, MapsToTheFirstContainedKind) {
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.all_reduce_.default"), "all_reduce");
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.all_reduce.default"), "all_reduce");
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.all_gather_into_tensor.default"),
            "all_gather");
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.reduce_scatter_tensor.default"),
            "reduce_scatter");
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.broadcast_.default"), "broadcast");
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.all_to_all_single.default"),
            "all_to_all");
  EXPECT_EQ(normalize_collective("torch.ops.c10d_functional.all_reduce.default"), "all_reduce");
  // Bare op names, as the code scanner passes them.
  EXPECT_EQ(normalize_collective("all_reduce_"), "all_reduce");
  EXPECT_EQ(normalize_collective("all_gather_into_tensor_coalesced"), "all_gather");
  EXPECT_EQ(normalize_collective("reduce_scatter_tensor_coalesced"), "reduce_scatter");
  EXPECT_EQ(normalize_collective("reduce_"), "reduce");
  EXPECT_EQ(normalize_collective("my_reduce_op"), "reduce");
  // Not compared.
  EXPECT_EQ(normalize_collective("torch.ops._c10d_functional.wait_tensor.default"), "");
  EXPECT_EQ(normalize_collective("wait_tensor"), "");
  EXPECT_EQ(normalize_collective("aten.mm.default"), "");
  EXPECT_EQ(normalize_collective(""), "");
}

TEST(CountCodeCollectives, CountsCallsAndWaits) {
  const std::string code =
      "def call(args):\n"
      "    buf0 = torch.ops._c10d_functional.all_reduce_.default(arg0_1, 'sum', '0')\n"
      "    buf1 = torch.ops._c10d_functional.all_gather_into_tensor.default(buf0, 2, '0')\n"
      "    torch.ops._c10d_functional.wait_tensor.default(buf0)\n"
      "    buf2 = torch.ops._c10d_functional.reduce_scatter_tensor.default(buf1, 'sum', 2, '0')\n"
      "    torch.ops._c10d_functional.wait_tensor.default(buf2)\n";
  auto c = count_code_collectives(code);
  EXPECT_EQ(c.counts, (std::map<std::string, int>{
                          {"all_reduce", 1}, {"all_gather", 1}, {"reduce_scatter", 1}}));
  EXPECT_EQ(c.waits, 2);
}

TEST(CountCodeCollectives, IgnoresComments) {
  const std::string py =
      "# torch.ops._c10d_functional.all_reduce_.default(x)\n"
      "x = 1  # torch.ops._c10d_functional.broadcast_.default(y)\n"
      "y = torch.ops._c10d_functional.all_reduce_.default(x)\n"
      "# torch.ops._c10d_functional.wait_tensor.default(y)\n";
  auto c = count_code_collectives(py);
  EXPECT_EQ(c.counts, (std::map<std::string, int>{{"all_reduce", 1}}));
  EXPECT_EQ(c.waits, 0);

  const std::string cpp =
      "// torch.ops._c10d_functional.all_gather_into_tensor.default(x);\n"
      "/* torch.ops._c10d_functional.all_reduce_.default(x);\n"
      "   torch.ops._c10d_functional.wait_tensor.default(x); */\n"
      "auto b = torch.ops._c10d_functional.broadcast_.default(x, 0, \"0\");\n"
      "torch.ops._c10d_functional.wait_tensor.default(b);\n";
  c = count_code_collectives(cpp);
  EXPECT_EQ(c.counts, (std::map<std::string, int>{{"broadcast", 1}}));
  EXPECT_EQ(c.waits, 1);

  // An unterminated block comment hides the rest.
  c = count_code_collectives(
      "torch.ops._c10d_functional.all_reduce_.default(x)\n/* "
      "torch.ops._c10d_functional.all_reduce_.default(x)\n");
  EXPECT_EQ(c.counts, (std::map<std::string, int>{{"all_reduce", 1}}));
}

TEST(CountCodeCollectives, MatchesSpacedCallsAndBothNamespaces) {
  auto c = count_code_collectives(
      "a = torch . ops . _c10d_functional . all_reduce_ . default (x)\n"
      "b = torch.ops.c10d_functional.all_gather_into_tensor.default(x)\n"
      "torch\n.ops\t._c10d_functional.\nwait_tensor . default\n(a)\n");
  EXPECT_EQ(c.counts, (std::map<std::string, int>{{"all_reduce", 1}, {"all_gather", 1}}));
  EXPECT_EQ(c.waits, 1);
}

TEST(CountCodeCollectives, NeedsTheFullCallForm) {
  // No call parenthesis, no `.default`, wrong prefixes, two underscores: nothing.
  auto c = count_code_collectives(
      "ops = [torch.ops._c10d_functional.all_reduce_.default]\n"
      "torch.ops._c10d_functional.all_reduce_(x)\n"
      "torch.xops._c10d_functional.all_reduce_.default(x)\n"
      "torch.ops.__c10d_functional.all_reduce_.default(x)\n"
      "ops._c10d_functional.all_reduce_.default(x)\n"
      "torch.ops._c10d_functional.all_reduce_.overload(x)\n");
  EXPECT_TRUE(c.counts.empty());
  EXPECT_EQ(c.waits, 0);
  // Non-collective ops are not counted.
  c = count_code_collectives("torch.ops._c10d_functional.mystery_op.default(x)\n");
  EXPECT_TRUE(c.counts.empty());
  EXPECT_EQ(count_code_collectives("").waits, 0);
}

// F69 compat case (REPORT_FEATURES part I item 39).
struct ExecCase {
  Orders orders{{0, {"[0/0]", "[0/1]", "[0/2]"}}, {1, {"[0/1]", "[0/0]", "[0/2]"}}};
  Schedules schedules{{{0, "[0/0]"}, {"all_reduce"}},
                      {{0, "[0/1]"}, {"all_gather"}},
                      {{1, "[0/0]"}, {"all_reduce"}},
                      {{1, "[0/1]"}, {"broadcast"}}};
  Cache cache{{{0, "[0/0]"}, "\u2705"},
              {{0, "[0/1]"}, "\u274c"},
              {{1, "[0/0]"}, "\u2705"},
              {{1, "[0/1]"}, "\u2705"}};
  // The orders cut down to one index (one row of the reference's table).
  Orders row(size_t i) const {
    Orders o;
    for (const auto& [r, ids] : orders) o[r] = {ids[i]};
    return o;
  }
};

TEST(ExecutionOrder, ReferenceCaseAsAWhole) {
  ExecCase c;
  auto r = analyze_execution_order(c.orders, c.schedules, c.cache);
  EXPECT_TRUE(r.available);
  EXPECT_TRUE(r.order_differs);
  EXPECT_EQ(r.schedule_mismatch_ranks, (Ranks{0, 1}));
  EXPECT_EQ(r.cache_mismatch_ranks, (Ranks{0, 1}));
}

TEST(ExecutionOrder, ReferenceCaseRowByRow) {
  ExecCase c;
  // Row 0: [0/0] on rank 0 (all_reduce, hit) vs [0/1] on rank 1 (broadcast, hit).
  auto r0 = analyze_execution_order(c.row(0), c.schedules, c.cache);
  EXPECT_TRUE(r0.available);
  EXPECT_TRUE(r0.order_differs);
  EXPECT_EQ(r0.schedule_mismatch_ranks, (Ranks{0, 1}));
  EXPECT_TRUE(r0.cache_mismatch_ranks.empty());
  // Row 1: [0/1] on rank 0 (all_gather, miss) vs [0/0] on rank 1 (all_reduce, hit).
  auto r1 = analyze_execution_order(c.row(1), c.schedules, c.cache);
  EXPECT_TRUE(r1.order_differs);
  EXPECT_EQ(r1.cache_mismatch_ranks, (Ranks{0, 1}));
  EXPECT_EQ(r1.schedule_mismatch_ranks, (Ranks{0, 1}));
  // Row 2: [0/2] everywhere, no schedules or cache entries: no issue.
  auto r2 = analyze_execution_order(c.row(2), c.schedules, c.cache);
  EXPECT_TRUE(r2.available);
  EXPECT_FALSE(r2.order_differs);
  EXPECT_TRUE(r2.schedule_mismatch_ranks.empty());
  EXPECT_TRUE(r2.cache_mismatch_ranks.empty());
}

TEST(ExecutionOrder, NeedsTwoRanks) {
  ExecCase c;
  auto r = analyze_execution_order({{0, {"[0/0]"}}}, c.schedules, c.cache);
  EXPECT_FALSE(r.available);
  EXPECT_FALSE(r.order_differs);
  EXPECT_TRUE(r.schedule_mismatch_ranks.empty());
  EXPECT_FALSE(analyze_execution_order({}, {}, {}).available);
}

TEST(ExecutionOrder, OnlyRanksWithDataAreCompared) {
  // Rank 1 has no schedule for [0/0]: ranks 0 and 2 agree, so no mismatch.
  Orders o{{0, {"[0/0]"}}, {1, {"[0/0]"}}, {2, {"[0/0]"}}};
  Schedules s{{{0, "[0/0]"}, {"all_reduce"}}, {{2, "[0/0]"}, {"all_reduce"}}};
  Cache cache{{{0, "[0/0]"}, "miss"}, {{1, "[0/0]"}, ""}, {{2, "[0/0]"}, "miss"}};
  auto r = analyze_execution_order(o, s, cache);
  EXPECT_TRUE(r.available);
  EXPECT_FALSE(r.order_differs);
  EXPECT_TRUE(r.schedule_mismatch_ranks.empty());
  EXPECT_TRUE(r.cache_mismatch_ranks.empty());

  // Only one rank has a schedule at that index: nothing to compare.
  Schedules one{{{2, "[0/0]"}, {"broadcast"}}};
  EXPECT_TRUE(analyze_execution_order(o, one, {}).schedule_mismatch_ranks.empty());

  // Rank 2 differs: every rank present at the index is named, rank 1 included.
  Schedules diff{{{0, "[0/0]"}, {"all_reduce"}}, {{2, "[0/0]"}, {"broadcast"}}};
  EXPECT_EQ(analyze_execution_order(o, diff, {}).schedule_mismatch_ranks, (Ranks{0, 1, 2}));
}

TEST(ExecutionOrder, UnequalLengths) {
  // Index 1 has only rank 0: it cannot differ.
  Orders o{{0, {"[0/0]", "[0/1]"}}, {3, {"[0/0]"}}};
  Schedules s{{{0, "[0/1]"}, {"all_reduce"}}, {{3, "[0/1]"}, {"broadcast"}}};
  auto r = analyze_execution_order(o, s, {});
  EXPECT_TRUE(r.available);
  EXPECT_FALSE(r.order_differs);
  EXPECT_TRUE(r.schedule_mismatch_ranks.empty());
}

// --- analyze_ranks over hand-made summaries -------------------------------

RankSummary rank_with(uint32_t rank, std::vector<std::pair<std::string, double>> graphs) {
  RankSummary r;
  r.rank = rank;
  r.compile_ids = {"0/0"};
  for (auto& [g, ns] : graphs) r.runtimes.push_back({g, {{"op", ns}}, "fp"});
  return r;
}

TEST(AnalyzeRanks, RuntimeRowsTiesGoToTheLaterRank) {
  std::vector<RankSummary> ranks = {rank_with(2, {{"-_0_0_0", 1000}}),
                                    rank_with(0, {{"-_0_0_0", 1000}}),
                                    rank_with(1, {{"-_0_0_0", 1000}})};
  auto a = analyze_ranks(ranks);
  EXPECT_EQ(a.ranks, (Ranks{0, 1, 2}));
  ASSERT_TRUE(a.has_runtimes);
  EXPECT_FALSE(a.runtime_mismatched_counts);
  ASSERT_EQ(a.runtime_rows.size(), 1u);
  EXPECT_EQ(a.runtime_rows[0].fastest_rank, 2u);
  EXPECT_EQ(a.runtime_rows[0].slowest_rank, 2u);
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].delta_ms, 0.0);
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].fastest_ms, 0.001);
}

TEST(AnalyzeRanks, RuntimeRowsSortedByGraphId) {
  std::vector<RankSummary> ranks = {
      rank_with(0, {{"-_1_0_0", 3e6}, {"-_0_0_0", 1e6}}),
      rank_with(1, {{"-_1_0_0", 2e6}, {"-_0_0_0", 4500500}}),
  };
  auto a = analyze_ranks(ranks);
  ASSERT_EQ(a.runtime_rows.size(), 2u);
  EXPECT_EQ(a.runtime_rows[0].graph_id, "-_0_0_0");
  EXPECT_EQ(a.runtime_rows[0].graph_index, 1u);
  EXPECT_EQ(a.runtime_rows[0].fastest_rank, 0u);
  EXPECT_EQ(a.runtime_rows[0].slowest_rank, 1u);
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].fastest_ms, 1.0);
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].slowest_ms, 4.501);  // 4.5005 half away from zero
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].delta_ms, 3.501);    // 3.5005
  EXPECT_EQ(a.runtime_rows[1].graph_id, "-_1_0_0");
  EXPECT_EQ(a.runtime_rows[1].fastest_rank, 1u);
  EXPECT_EQ(a.runtime_rows[1].slowest_rank, 0u);
  EXPECT_DOUBLE_EQ(a.runtime_rows[1].delta_ms, 1.0);
}

// Newer tlparse's test_analyze_graph_runtime_deltas_library: two ranks, one
// graph of two ops each.
TEST(AnalyzeRanks, RuntimeDeltasOfTwoOps) {
  RankSummary r0 = rank_with(0, {}), r1 = rank_with(1, {});
  r0.runtimes.push_back({"-_0_0_0", {{"mm", 1000}, {"relu", 2000}}, "fp"});
  r1.runtimes.push_back({"-_0_0_0", {{"mm", 1500}, {"relu", 2500}}, "fp"});
  auto a = analyze_ranks({r0, r1});
  ASSERT_FALSE(a.runtime_mismatched_counts);
  ASSERT_EQ(a.runtime_rows.size(), 1u);
  EXPECT_EQ(a.runtime_rows[0].graph_id, "-_0_0_0");
  EXPECT_GT(a.runtime_rows[0].delta_ms, 0);
  EXPECT_DOUBLE_EQ(a.runtime_rows[0].delta_ms, 0.001);
  EXPECT_EQ(a.runtime_rows[0].fastest_rank, 0u);
}

TEST(AnalyzeRanks, MismatchedGraphCountsGiveNoRows) {
  std::vector<RankSummary> ranks = {rank_with(0, {{"-_0_0_0", 1}, {"-_0_1_0", 1}}),
                                    rank_with(1, {{"-_0_1_0", 1}})};
  auto a = analyze_ranks(ranks);
  EXPECT_TRUE(a.has_runtimes);
  EXPECT_TRUE(a.runtime_mismatched_counts);
  EXPECT_TRUE(a.runtime_rows.empty());
}

TEST(AnalyzeRanks, GroupsAreListedByLowestRank) {
  std::vector<RankSummary> ranks;
  const char* seq[] = {"\u2705", "\u274c", "\u2705", "\u274c\u274c", "\u274c"};
  for (uint32_t r = 0; r < 5; ++r) {
    RankSummary s;
    s.rank = 4 - r;  // given in reverse
    s.compile_ids = {"0/0"};
    s.cache_sequence = seq[4 - r];
    ranks.push_back(s);
  }
  auto a = analyze_ranks(ranks);
  EXPECT_EQ(a.cache_groups, (std::vector<Ranks>{{0, 2}, {1, 4}, {3}}));
  EXPECT_FALSE(a.compile_id_divergence);
  EXPECT_FALSE(a.has_schedules);
  EXPECT_TRUE(a.collective_groups.empty());
  EXPECT_TRUE(a.desync());
}

TEST(AnalyzeRanks, CollectiveGroupsIncludeRanksWithoutSchedules) {
  RankSummary a0, a1, a2;
  a0.rank = 0, a1.rank = 1, a2.rank = 2;
  a0.schedules = {{"-_0_0_0", {"all_reduce", "wait"}}};
  a2.schedules = {{"-_0_0_0", {"all_reduce", "wait"}}};
  auto a = analyze_ranks({a0, a1, a2});
  EXPECT_TRUE(a.has_schedules);
  EXPECT_EQ(a.collective_groups, (std::vector<Ranks>{{0, 2}, {1}}));
}

TEST(AnalyzeRanks, FailedRanksAreLeftOut) {
  RankSummary ok0, bad, ok2;
  ok0.rank = 0, bad.rank = 1, ok2.rank = 2;
  ok0.compile_ids = ok2.compile_ids = {"0/0"};
  bad.error = "cannot read";
  auto a = analyze_ranks({ok0, bad, ok2});
  EXPECT_EQ(a.ranks, (Ranks{0, 2}));
  EXPECT_FALSE(a.desync());
  EXPECT_TRUE(a.doctor.empty());
  EXPECT_TRUE(analyze_ranks({bad}).ranks.empty());
  EXPECT_EQ(analyze_ranks({bad}).left_out, (Ranks{1}));
}

TEST(AnalyzeRanks, RanksWithoutRecordsAreLeftOut) {
  RankSummary ok0, empty, ok2;
  ok0.rank = 0, empty.rank = 1, ok2.rank = 2;
  ok0.compile_ids = ok2.compile_ids = {"[0/0]"};
  ok0.totals.compiles = ok2.totals.compiles = 1;
  empty.no_records = true;
  auto a = analyze_ranks({ok2, empty, ok0});
  EXPECT_EQ(a.ranks, (Ranks{0, 2}));
  EXPECT_EQ(a.left_out, (Ranks{1}));
  EXPECT_FALSE(a.compile_id_divergence);
  EXPECT_TRUE(a.doctor.empty());
  EXPECT_FALSE(a.exec_order.available);
  EXPECT_EQ(a.exec_order.why_unavailable, "No rank logged its graph execution order.");
  // Kept in, the empty rank would differ in compile ids.
  empty.no_records = false;
  EXPECT_TRUE(analyze_ranks({ok2, empty, ok0}).compile_id_divergence);
}

TEST(AnalyzeRanks, DoctorDivergenceNamesFirstDifferingCompileId) {
  // compile_ids hold display forms ("[0/1]"), recompile_categories bare ids.
  RankSummary r0, r1;
  r0.rank = 0, r1.rank = 1;
  r0.compile_ids = {"[0/0]"};
  r1.compile_ids = {"[0/0]", "[0/1]", "[1/0]"};
  r1.totals.recompiles = 1;
  r1.recompile_categories = {{"0/1", "shape "}};
  auto a = analyze_ranks({r0, r1});
  EXPECT_TRUE(a.compile_id_divergence);
  ASSERT_EQ(a.doctor.size(), 2u);
  EXPECT_EQ(a.doctor[0].what, "compile ids");
  EXPECT_EQ(a.doctor[0].first_compile_id, "[0/1]");
  EXPECT_EQ(a.doctor[0].groups, (std::vector<Ranks>{{0}, {1}}));
  EXPECT_EQ(a.doctor[1].what, "recompiles");
  EXPECT_EQ(a.doctor[1].first_compile_id, "0/1");
  EXPECT_EQ(a.doctor[1].groups, (std::vector<Ranks>{{0}, {1}}));
}

TEST(AnalyzeRanks, SameRecompilesDoNotDiverge) {
  RankSummary r0, r1;
  r0.rank = 0, r1.rank = 1;
  r0.compile_ids = r1.compile_ids = {"[0/0]", "[0/1]"};
  r0.totals.recompiles = r1.totals.recompiles = 1;
  r0.recompile_categories = r1.recompile_categories = {{"0/1", "shape "}};
  r0.graph_break_keys = r1.graph_break_keys = {"user|print|2"};
  auto a = analyze_ranks({r0, r1});
  EXPECT_FALSE(a.compile_id_divergence);
  EXPECT_TRUE(a.doctor.empty());
  // A different graph-break count does.
  r1.graph_break_keys = {"user|print|3"};
  a = analyze_ranks({r0, r1});
  ASSERT_EQ(a.doctor.size(), 1u);
  EXPECT_EQ(a.doctor[0].what, "graph breaks");
  EXPECT_EQ(a.doctor[0].first_compile_id, "");
}

// "first at" names the earliest compile id where ranks differ, in compile-id
// order: 0/2 comes before 0/10 (not string order, where "0/10" < "0/2").
TEST(AnalyzeRanks, FirstDifferingCompileIdFollowsCompileIdOrder) {
  RankSummary r0, r1;
  r0.rank = 0, r1.rank = 1;
  r0.compile_ids = {"[0/0]", "[0/1]"};
  r1.compile_ids = {"[0/0]", "[0/1]", "[0/2]", "[0/10]"};
  r1.totals.recompiles = 2;
  r1.recompile_categories = {{"0/2", "shape "}, {"0/10", "shape "}};
  auto a = analyze_ranks({r0, r1});
  ASSERT_EQ(a.doctor.size(), 2u);
  EXPECT_EQ(a.doctor[0].what, "compile ids");
  EXPECT_EQ(a.doctor[0].first_compile_id, "[0/2]");
  EXPECT_EQ(a.doctor[1].what, "recompiles");
  EXPECT_EQ(a.doctor[1].first_compile_id, "0/2");
}

}  // namespace
}  // namespace tlscope::analysis
