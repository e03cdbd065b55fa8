// The numbers behind the report's charts (src/analysis/charts.h): the
// compile timeline of a log written here, and how each slow compile's time
// splits into Dynamo, AOT, Inductor, code generation and cache.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis_log.h"
#include "analysis/charts.h"
#include "analysis/doctor.h"
#include "model/report_model.h"

namespace tlscope::analysis {
namespace {

using namespace analysis_log;  // the log builder (analysis_log.h)
using nlohmann::json;

// A compile of `frame` that began at `t` seconds since the epoch (none when
// negative) and took `seconds`.
std::string compile(int frame, int n, const std::string& name, double t, double seconds,
                    json extra = json::object()) {
  json m = {{"co_name", name},
            {"entire_frame_compile_time_s", seconds},
            {"graph_op_count", 3},
            {"restart_reasons", json::array()}};
  if (t >= 0) m["start_time"] = t;
  m.update(extra);
  return at(frame, n, start()) + at(frame, n, {{"compilation_metrics", m}});
}

const std::string kBreak =
    "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted "
    "graph break.";

TEST(CompileTimeline, FramesOnRowsCompilesAsBarsFromTheFirstStart) {
  std::string log = compile(0, 0, "forward", 1000.0, 2.0) +
                    compile(1, 0, "step", 1003.0, 1.0, {{"restart_reasons", {kBreak}}}) +
                    compile(0, 1, "forward", 1005.0, 0.5) +
                    compile(2, 0, "fails", 1006.0, 0.25, {{"fail_type", "BackendCompilerFailed"}}) +
                    compile(3, 0, "nothing", 1001.5, 0.1, {{"graph_op_count", 0}});
  model::ReportModel m = read_text(log);
  DoctorReport d = diagnose(m);
  Timeline t = compile_timeline(m, d);

  EXPECT_TRUE(t.measured_starts);
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[0].name, "forward");
  EXPECT_EQ(t.rows[0].frame_id, 0u);
  EXPECT_EQ(t.rows[1].name, "step");
  EXPECT_EQ(t.rows[2].name, "fails");
  EXPECT_EQ(t.rows[3].name, "nothing");
  ASSERT_EQ(t.bars.size(), 5u);

  const TimelineBar& first = t.bars[0];
  EXPECT_EQ(first.compile_id.id.bare(), "0/0");
  EXPECT_EQ(first.row, 0u);
  EXPECT_DOUBLE_EQ(first.start_s, 0.0);
  EXPECT_DOUBLE_EQ(first.seconds, 2.0);
  EXPECT_EQ(first.status, model::Status::kOk);
  EXPECT_FALSE(first.recompile);
  EXPECT_FALSE(first.graph_break);
  EXPECT_FALSE(first.page.empty());

  const TimelineBar& step = t.bars[1];
  EXPECT_EQ(step.row, 1u);
  EXPECT_DOUBLE_EQ(step.start_s, 3.0);
  EXPECT_EQ(step.status, model::Status::kBreak);
  EXPECT_TRUE(step.graph_break);

  const TimelineBar& again = t.bars[2];
  EXPECT_EQ(again.compile_id.id.bare(), "0/1");
  EXPECT_EQ(again.row, 0u);  // its frame's row
  EXPECT_TRUE(again.recompile);
  EXPECT_DOUBLE_EQ(again.start_s, 5.0);

  EXPECT_EQ(t.bars[3].status, model::Status::kError);
  EXPECT_EQ(t.bars[4].status, model::Status::kEmpty);
  EXPECT_DOUBLE_EQ(t.bars[4].start_s, 1.5);  // in log order, not time order
  // From the first start to the last end (6.0 + 0.25).
  EXPECT_DOUBLE_EQ(t.span_s, 6.25);
}

// Without start times the compiles are laid end to end in log order.
TEST(CompileTimeline, WithoutStartTimesCompilesFollowEachOther) {
  std::string log = compile(0, 0, "forward", 1000.0, 2.0) + compile(1, 0, "step", -1, 1.0) +
                    compile(0, 1, "forward", -1, 0.5);
  model::ReportModel m = read_text(log);
  Timeline t = compile_timeline(m, diagnose(m));
  EXPECT_FALSE(t.measured_starts);
  ASSERT_EQ(t.bars.size(), 3u);
  EXPECT_DOUBLE_EQ(t.bars[0].start_s, 0.0);
  EXPECT_DOUBLE_EQ(t.bars[1].start_s, 2.0);
  EXPECT_DOUBLE_EQ(t.bars[2].start_s, 3.0);
  EXPECT_DOUBLE_EQ(t.span_s, 3.5);
  ASSERT_EQ(t.rows.size(), 2u);
}

TEST(CompileTimeline, EmptyModelHasNoBars) {
  model::ReportModel m;
  Timeline t = compile_timeline(m, diagnose(m));
  EXPECT_TRUE(t.rows.empty());
  EXPECT_TRUE(t.bars.empty());
  EXPECT_DOUBLE_EQ(t.span_s, 0.0);
  EXPECT_FALSE(t.measured_starts);
}

// Frames of a second run get rows of their own.
TEST(CompileTimeline, SecondRunHasItsOwnRows) {
  std::string run = compile(0, 0, "forward", 1000.0, 1.0);
  model::ReportModel m = read_text(run + compile(0, 0, "forward", 1010.0, 1.0));
  Timeline t = compile_timeline(m, diagnose(m));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].run, 1u);
  EXPECT_EQ(t.rows[1].run, 2u);
  ASSERT_EQ(t.bars.size(), 2u);
  EXPECT_EQ(t.bars[1].row, 1u);
  EXPECT_EQ(t.bars[1].compile_id.run, 2u);
  EXPECT_DOUBLE_EQ(t.bars[1].start_s, 10.0);
}

TEST(TimeParts, Names) {
  std::vector<std::string> names;
  for (TimePart p : kTimeParts) names.push_back(time_part_name(p));
  EXPECT_EQ(names, (std::vector<std::string>{"dynamo", "aot", "inductor", "codegen", "cache"}));
}

double part(const TimeSplit& s, TimePart p) { return s.seconds[static_cast<size_t>(p)]; }

SlowCompile slow(double seconds, std::vector<PhaseTime> tree) {
  SlowCompile s;
  s.compile_id = {1, *trace::parse_bare_compile_id("0/0")};
  s.seconds = seconds;
  s.phase_tree = std::move(tree);
  return s;
}

// The metrics' own times nest backend > inductor > code_gen: each part gets
// a phase's time without its sub-phases, and Dynamo what no phase covers.
TEST(TimeSplits, MetricsPhasesSplitWithoutDoubleCounting) {
  DoctorReport d;
  d.slowest = {slow(10.0, {{"backend", 0, 6.0}, {"inductor", 1, 4.0}, {"code_gen", 2, 1.0}})};
  auto splits = time_splits(d);
  ASSERT_EQ(splits.size(), 1u);
  const TimeSplit& s = splits[0];
  EXPECT_EQ(s.compile, &d.slowest[0]);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kDynamo), 4.0);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kAot), 2.0);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kInductor), 3.0);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kCodegen), 1.0);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kCache), 0.0);
  EXPECT_DOUBLE_EQ(s.total_s, 10.0);
}

// Chromium phase names: a name that says no part takes its parent's.
TEST(TimeSplits, ChromiumPhasesByTheirNames) {
  DoctorReport d;
  d.slowest = {slow(10.0, {{"entire_frame_compile", 0, 10.0},
                           {"backend_compile", 1, 5.0},
                           {"compile_fx_inner", 2, 3.0},
                           {"fx_codegen_and_compile", 3, 1.5},
                           {"some_pass", 3, 0.5},
                           {"fx_graph_cache_miss", 3, 0.25},
                           {"aot_collect_metadata", 2, 1.0},
                           {"bytecode_tracing", 1, 2.0}})};
  auto s = time_splits(d)[0];
  // entire_frame_compile: 10 - 5 - 2 of its own; bytecode_tracing inherits.
  EXPECT_DOUBLE_EQ(part(s, TimePart::kDynamo), 3.0 + 2.0);
  // backend_compile: 5 - 3 - 1 own, aot_collect_metadata 1.
  EXPECT_DOUBLE_EQ(part(s, TimePart::kAot), 1.0 + 1.0);
  // compile_fx_inner: 3 - 1.5 - 0.5 - 0.25 own, some_pass inherits 0.5.
  EXPECT_DOUBLE_EQ(part(s, TimePart::kInductor), 0.75 + 0.5);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kCodegen), 1.5);
  EXPECT_DOUBLE_EQ(part(s, TimePart::kCache), 0.25);
  EXPECT_DOUBLE_EQ(s.total_s, 10.0);
}

TEST(TimeSplits, UncoveredTimeIsDynamoAndOverlongChildrenClamp) {
  DoctorReport d;
  // Sub-phases longer than their parent (overlapping events): no negative time.
  d.slowest = {slow(3.0, {{"backend_compile", 0, 1.0}, {"inductor_compile", 1, 1.5}}),
               slow(2.0, {})};
  auto splits = time_splits(d);
  ASSERT_EQ(splits.size(), 2u);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kAot), 0.0);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kInductor), 1.5);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kDynamo), 2.0);
  for (TimePart p : kTimeParts) EXPECT_GE(part(splits[0], p), 0.0);
  // No phases: all of it is Dynamo's.
  EXPECT_DOUBLE_EQ(part(splits[1], TimePart::kDynamo), 2.0);
  EXPECT_DOUBLE_EQ(splits[1].total_s, 2.0);
  EXPECT_TRUE(time_splits(DoctorReport{}).empty());
}

// From a log: the doctor's phases of each compile, split.
TEST(TimeSplits, FromTheDoctorOfALog) {
  std::string log = compile(0, 0, "forward", 1000.0, 8.0,
                            {{"backend_compile_time_s", 5.0},
                             {"inductor_compile_time_s", 4.0},
                             {"code_gen_time_s", 0.5}});
  DoctorReport d = diagnose(read_text(log));
  auto splits = time_splits(d);
  ASSERT_EQ(splits.size(), 1u);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kDynamo), 3.0);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kAot), 1.0);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kInductor), 3.5);
  EXPECT_DOUBLE_EQ(part(splits[0], TimePart::kCodegen), 0.5);
  EXPECT_DOUBLE_EQ(splits[0].total_s, 8.0);
}

}  // namespace
}  // namespace tlscope::analysis
