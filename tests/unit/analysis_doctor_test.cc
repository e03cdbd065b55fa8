// The compile doctor (src/analysis/doctor.h) on models read from small logs
// written here: frames, recompile reasons and their groups, graph breaks,
// failures in and outside frames, train/eval, the recompile limit, runs,
// phases of slow compiles, and the compile-id labels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "analysis/doctor.h"
#include "analysis/doctor_parts.h"
#include "analysis_log.h"
#include "figures_text.h"

namespace tlscope::analysis {
namespace {

using namespace analysis_log;  // the log builder (analysis_log.h)
using nlohmann::json;
using Strings = std::vector<std::string>;

// "0/1 0/2" style list of a vector of refs (bare ids, no runs).
Strings bare(const std::vector<CompileRef>& refs) {
  Strings out;
  for (const auto& r : refs) out.push_back(r.id.bare());
  return out;
}

const FrameReport* frame_named(const DoctorReport& d, const std::string& name) {
  for (const auto& f : d.frames)
    if (f.name == name) return &f;
  return nullptr;
}


CompileRef ref(const char* bare_id, uint32_t run = 1) {
  return {run, *trace::parse_bare_compile_id(bare_id)};
}

// A metrics record kept past its feed call reads its own texts: the views
// it was given (the line's, which the next line overwrites) may go, and
// moving it (a list that grows) keeps them.
TEST(Doctor, AKeptMetricsRecordOwnsItsTexts) {
  std::vector<std::string> line = {"compilation_metrics_7.html",
                                   "forward",
                                   "/src/model.py",
                                   "Unsupported",
                                   "a reason",
                                   "/src/user.py",
                                   "why it recompiled",
                                   "restart one",
                                   "restart two"};
  model::MetricsRecord r;
  r.page = line[0];
  r.co_name = line[1];
  r.co_filename = line[2];
  r.fail_type = line[3];
  r.fail_reason = line[4];
  r.fail_file = line[5];
  r.recompile_reason = line[6];
  r.restart_reasons = {line[7], line[8]};
  std::vector<detail::KeptRecord> kept;
  kept.emplace_back(r);
  for (auto& s : line) s.assign(s.size(), '#');
  for (int i = 0; i < 100; ++i) kept.emplace_back(model::MetricsRecord{});
  const model::MetricsRecord& k = kept.front().record();
  EXPECT_EQ(k.page, "compilation_metrics_7.html");
  EXPECT_EQ(k.co_name, "forward");
  EXPECT_EQ(k.co_filename, "/src/model.py");
  EXPECT_EQ(k.fail_type.value_or(""), "Unsupported");
  EXPECT_EQ(k.fail_reason.value_or(""), "a reason");
  EXPECT_EQ(k.fail_file.value_or(""), "/src/user.py");
  EXPECT_EQ(k.recompile_reason.value_or(""), "why it recompiled");
  EXPECT_EQ(k.restart_reasons, (std::vector<std::string_view>{"restart one", "restart two"}));
  EXPECT_FALSE(kept.back().record().fail_type);
}

TEST(Doctor, EmptyModelHasNothingToSay) {
  model::ReportModel m;
  DoctorReport d = diagnose(m);
  EXPECT_TRUE(d.totals.empty());
  EXPECT_EQ(d.totals.frames, 0u);
  EXPECT_EQ(d.totals.compiles, 0u);
  EXPECT_EQ(d.totals.runs, 1u);
  EXPECT_TRUE(d.totals.timed);
  EXPECT_FALSE(d.several_runs());
  EXPECT_TRUE(d.frames.empty());
  EXPECT_TRUE(d.graph_breaks.empty());
  EXPECT_TRUE(d.failures.empty());
  EXPECT_TRUE(d.advice.empty());
  EXPECT_TRUE(d.expected.empty());
  EXPECT_TRUE(d.slowest.empty());
  EXPECT_EQ(d.source_kind, "torch_trace");
  // A log of records that compile nothing is empty too.
  DoctorReport other = diagnose(read_text(rec({{"str", {"/home/u/model.py", 0}}}, {}), false));
  EXPECT_TRUE(other.totals.empty());
}

// Compiles, recompiles, restarts and time per frame; frames most recompiled
// first, then slowest; names from the metrics or, without them, from the
// dynamo_start stack.
TEST(Doctor, FramesCountCompilesRecompilesRestartsAndTime) {
  std::string log =
      rec({{"str", {"/home/u/helpers.py", 0}}}, {}) +
      // frame 0: three compiles, 3.5 s in all
      at(0, 0, start()) + at(0, 0, metrics("forward", 2.0)) + at(0, 1, start()) +
      at(0, 1, metrics("forward", 1.0)) + at(0, 2, start()) +
      at(0, 2, metrics("forward", 0.5, {{"graph_op_count", 70}})) +
      // frame 1: one compile restarted once (two metrics records), 3.75 s
      at(1, 0, start()) +
      at(1, 0, metrics("step", 3.0, {{"restart_reasons", {"<class 'x.RestartAnalysis'>"}}})) +
      at(1, 0, metrics("step", 0.75), {}, 1) +
      // frame 2: started, never finished: named by its stack
      at(2, 0,
         {{"dynamo_start",
           {{"stack", json::array({{{"line", 7}, {"name", "helper"}, {"filename", 0}}})}}}});
  DoctorReport d = diagnose_log(log);

  ASSERT_EQ(d.frames.size(), 3u);
  // Most recompiled first although frame 1 took longer.
  EXPECT_EQ(d.frames[0].name, "forward");
  EXPECT_EQ(d.frames[1].name, "step");
  EXPECT_EQ(d.frames[2].name, "helper");

  const FrameReport& fwd = d.frames[0];
  EXPECT_EQ(fwd.frame_id, 0u);
  EXPECT_EQ(fwd.filename, "/home/u/model.py");
  EXPECT_EQ(fwd.line, 10);
  EXPECT_EQ(fwd.compiles, 3u);
  EXPECT_EQ(fwd.recompiles, 2u);
  EXPECT_EQ(fwd.restarts, 0u);
  EXPECT_DOUBLE_EQ(fwd.compile_time_s, 3.5);
  EXPECT_EQ(fwd.max_graph_ops, 70u);
  EXPECT_FALSE(fwd.recompile_limit_hit);
  EXPECT_EQ(bare(fwd.compile_ids), (Strings{"0/0", "0/1", "0/2"}));

  const FrameReport& step = d.frames[1];
  EXPECT_EQ(step.compiles, 1u);  // a restart is not another compile
  EXPECT_EQ(step.recompiles, 0u);
  EXPECT_EQ(step.restarts, 1u);
  EXPECT_DOUBLE_EQ(step.compile_time_s, 3.75);
  EXPECT_EQ(bare(step.compile_ids), Strings{"1/0"});

  const FrameReport& helper = d.frames[2];
  EXPECT_EQ(helper.compiles, 0u);
  EXPECT_EQ(helper.filename, "/home/u/helpers.py");
  EXPECT_EQ(helper.line, 7);

  EXPECT_EQ(d.totals.frames, 3u);
  EXPECT_EQ(d.totals.compiles, 4u);
  EXPECT_EQ(d.totals.recompiles, 2u);
  EXPECT_DOUBLE_EQ(d.totals.compile_time_s, 7.25);
  EXPECT_EQ(d.totals.graph_breaks, 0u);  // the restart was Dynamo's own
  EXPECT_EQ(d.totals.failures, 0u);
  EXPECT_FALSE(d.totals.empty());
  // Two recompiles and no big graph: no advice about large frames.
  EXPECT_TRUE(d.advice.empty());
}

// A frame's compile ids are counted once each, small (a bit each) or large
// (kept aside): a restart's second record is not another compile.
TEST(Doctor, FrameCompileIdsCountOnceSmallOrLarge) {
  std::string log = rec({{"str", {"/home/u/model.py", 0}}}, {});
  for (uint32_t id : {0u, 3u, 4095u, 4096u, 70000u, 2000000000u}) {
    log += at(0, static_cast<int>(id), metrics("forward", 1.0));
    log += at(0, static_cast<int>(id), metrics("forward", 0.5), {}, 1);  // a restart: same compile
  }
  DoctorReport d = diagnose_log(log);
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_EQ(d.frames[0].compiles, 6u);
  EXPECT_EQ(d.frames[0].recompiles, 5u);
  EXPECT_EQ(d.frames[0].restarts, 6u);
  EXPECT_EQ(bare(d.frames[0].compile_ids),
            (Strings{"0/0", "0/3", "0/4095", "0/4096", "0/70000", "0/2000000000"}));
  EXPECT_DOUBLE_EQ(d.frames[0].compile_time_s, 9.0);
}

// Recompile reasons: from the artifact (one per cached entry), else from
// the metrics' recompile_reason; "0/0: " split off; classified.
TEST(Doctor, RecompileReasonsAreSplitClassifiedAndGrouped) {
  std::string log =
      at(0, 0, start()) + at(0, 0, metrics("forward", 1.0)) +
      recompile(0, 1, {"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"},
                "forward", 1.0) +
      recompile(0, 2,
                {"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 32",
                 "0/1: tensor 'x' size mismatch at index 0. expected 16, actual 32"},
                "forward", 1.0) +
      // frame 1: its reason only in the metrics
      at(1, 0, start()) + at(1, 0, metrics("scale", 1.0)) + at(1, 1, start()) +
      at(1, 1, metrics("scale", 1.0, {{"recompile_reason", "1/0: L['alpha'] == 0.5"}})) +
      // frame 2: in both: the artifact wins, the metrics' text is not a second reason
      at(2, 0, start()) + at(2, 0, metrics("mode", 1.0)) + at(2, 1, start()) +
      at(2, 1, artifact("recompile_reasons", "json"),
         json(Strings{"2/0: ___check_obj_id(L['fn'], 140234)"}).dump()) +
      at(2, 1, metrics("mode", 1.0, {{"recompile_reason", "2/0: something else"}}));
  DoctorReport d = diagnose_log(log);

  const FrameReport* fwd = frame_named(d, "forward");
  ASSERT_TRUE(fwd);
  ASSERT_EQ(fwd->recompile_reasons.size(), 3u);
  const RecompileReason& r0 = fwd->recompile_reasons[0];
  EXPECT_EQ(r0.compile_id.id.bare(), "0/1");
  EXPECT_EQ(r0.failed_id, "0/0");
  EXPECT_EQ(r0.reason, "tensor 'x' size mismatch at index 0. expected 8, actual 16");
  EXPECT_EQ(r0.category, Category::kShape);
  EXPECT_EQ(fwd->recompile_reasons[2].failed_id, "0/1");
  EXPECT_EQ(fwd->recompile_reasons[2].compile_id.id.bare(), "0/2");

  // One pattern (numbers aside), listed by the two recompiles that had it.
  auto groups = group_reasons(fwd->recompile_reasons);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].category, Category::kShape);
  EXPECT_EQ(groups[0].reason, "tensor 'x' size mismatch at index 0. expected 8, actual 16");
  EXPECT_EQ(bare(groups[0].compile_ids), (Strings{"0/1", "0/2"}));

  const FrameReport* scale = frame_named(d, "scale");
  ASSERT_TRUE(scale);
  ASSERT_EQ(scale->recompile_reasons.size(), 1u);
  EXPECT_EQ(scale->recompile_reasons[0].reason, "L['alpha'] == 0.5");
  EXPECT_EQ(scale->recompile_reasons[0].failed_id, "1/0");
  EXPECT_EQ(scale->recompile_reasons[0].category, Category::kConstant);

  const FrameReport* mode = frame_named(d, "mode");
  ASSERT_TRUE(mode);
  ASSERT_EQ(mode->recompile_reasons.size(), 1u);
  EXPECT_EQ(mode->recompile_reasons[0].reason, "___check_obj_id(L['fn'], 140234)");
  EXPECT_EQ(mode->recompile_reasons[0].category, Category::kObjectIdentity);

  // Advice per class, with the recompiles it concerns; a class once.
  auto advice_of = [&](Category c) -> const Advice* {
    const Advice* found = nullptr;
    for (const auto& a : d.advice)
      if (a.category == c) {
        EXPECT_EQ(found, nullptr) << "advised twice: " << category_name(c);
        found = &a;
      }
    return found;
  };
  const Advice* shape = advice_of(Category::kShape);
  ASSERT_TRUE(shape);
  EXPECT_NE(shape->message.find("`forward`"), std::string::npos) << shape->message;
  EXPECT_EQ(bare(shape->compile_ids), (Strings{"0/1", "0/2"}));
  const Advice* constant = advice_of(Category::kConstant);
  ASSERT_TRUE(constant);
  EXPECT_EQ(bare(constant->compile_ids), Strings{"1/1"});
  ASSERT_TRUE(advice_of(Category::kObjectIdentity));
  EXPECT_TRUE(d.expected.empty());
}

// A pattern several frames list counts the recompiles of all of them, and
// reads as the reason of the first of them in the answer (most recompiles,
// then compile time, then as placed), as the doctor that keeps only a
// diff's figures says too (diagnose_log).
TEST(Doctor, APatternOfSeveralFramesReadsAsTheFirstFrameInTheAnswer) {
  auto size = [](int expected, int actual) {
    return "0/0: tensor 'x' size mismatch at index 0. expected " + std::to_string(expected) +
           ", actual " + std::to_string(actual);
  };
  std::string log;
  // frame: its recompiles' (expected, actual), seconds a compile
  std::vector<std::pair<std::vector<std::pair<int, int>>, double>> frames = {
      {{{8, 16}}, 9.0},
      {{{4, 12}, {4, 20}}, 1.0},
      {{{2, 6}, {2, 10}}, 5.0},
      {{{3, 9}, {3, 7}}, 5.0}};
  for (int f = 0; f < static_cast<int>(frames.size()); ++f) {
    auto [sizes, seconds] = frames[static_cast<size_t>(f)];
    std::string name = "f" + std::to_string(f);
    log += at(f, 0, start()) + at(f, 0, metrics(name, seconds));
    for (int c = 0; c < static_cast<int>(sizes.size()); ++c)
      log += recompile(
          f, c + 1,
          {size(sizes[static_cast<size_t>(c)].first, sizes[static_cast<size_t>(c)].second)}, name,
          seconds);
  }
  DoctorReport d = diagnose_log(log);
  ASSERT_EQ(d.frames.size(), 4u);
  EXPECT_EQ(d.frames[0].name, "f2");  // 2 recompiles, 15 s, placed before f3
  DoctorFigures fig = figures_of(d);
  ASSERT_EQ(fig.recompile_reasons.size(), 1u);
  const DoctorFigures::Pattern& p = fig.recompile_reasons.begin()->second;
  EXPECT_EQ(p.reason, "tensor 'x' size mismatch at index 0. expected 2, actual 6");
  EXPECT_EQ(p.count, 7u);
  EXPECT_EQ(p.category, Category::kShape);
}

TEST(GroupReasons, GroupsByClassAndPatternListingEachRecompileOnce) {
  auto r = [](const char* id, const char* text, Category c) {
    return RecompileReason{ref(id), "0/0", text, c};
  };
  std::vector<RecompileReason> reasons = {
      r("0/1", "L['x'] == 3", Category::kConstant),
      r("0/2", "L['x'] == 4", Category::kConstant),
      r("0/2", "L['x'] == 5", Category::kConstant),           // 0/2 listed again: once
      r("0/3", "L['x'] == 6", Category::kOptimizerConstant),  // same text, other class
      r("0/4", "L['y'] == 7", Category::kConstant),           // other pattern
  };
  auto g = group_reasons(reasons);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0].reason, "L['x'] == 3");
  EXPECT_EQ(g[0].category, Category::kConstant);
  EXPECT_EQ(bare(g[0].compile_ids), (Strings{"0/1", "0/2"}));
  EXPECT_EQ(g[1].category, Category::kOptimizerConstant);
  EXPECT_EQ(bare(g[1].compile_ids), Strings{"0/3"});
  EXPECT_EQ(g[2].reason, "L['y'] == 7");
  EXPECT_TRUE(group_reasons({}).empty());
}

// One switch between train() and eval() per frame is expected: said, not
// advised. Two are advice.
TEST(Doctor, OneTrainEvalSwitchIsExpectedTwoAreAdvice) {
  std::string once = at(0, 0, start()) + at(0, 0, metrics("evaluate", 1.0)) +
                     recompile(0, 1, {"0/0: L['self'].training == True"}, "evaluate", 1.0);
  DoctorReport d = diagnose_log(once);
  ASSERT_EQ(d.frames.size(), 1u);
  ASSERT_EQ(d.frames[0].recompile_reasons.size(), 1u);
  EXPECT_EQ(d.frames[0].recompile_reasons[0].category, Category::kTrainEval);
  ASSERT_EQ(d.expected.size(), 1u);
  EXPECT_EQ(d.expected[0].category, Category::kTrainEval);
  EXPECT_NE(d.expected[0].message.find("`evaluate`"), std::string::npos);
  EXPECT_NE(d.expected[0].message.find("train() and eval()"), std::string::npos);
  EXPECT_EQ(bare(d.expected[0].compile_ids), Strings{"0/1"});
  EXPECT_TRUE(d.advice.empty());

  std::string twice =
      once + recompile(0, 2,
                       {"0/0: L['self'].training == False", "0/1: L['self'].training == True"},
                       "evaluate", 1.0);
  d = diagnose_log(twice);
  EXPECT_TRUE(d.expected.empty());
  ASSERT_EQ(d.advice.size(), 1u);
  EXPECT_EQ(d.advice[0].category, Category::kTrainEval);
  EXPECT_EQ(bare(d.advice[0].compile_ids), (Strings{"0/1", "0/2"}));
}

const std::string kPrintBreak =
    "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin "
    "operator `print` with argument types ['str'] (has_kwargs False)\n  Hint: Avoid calling "
    "builtin `print` with argument types ['str'].";

// Graph breaks: restart reasons of the metrics (user location from the
// artifact of the same compile) or, without them, the artifact; Dynamo's
// own restarts left out; grouped by pattern and place, most frequent first.
// A compile whose metrics name only Dynamo's internal restart still has the
// graph break its artifact tells of (it was lost once: the metrics hid it).
TEST(Doctor, BreakArtifactCountsWhenMetricsListOnlyAnInternalRestart) {
  std::string log =
      at(0, 0, start()) +
      at(0, 0, artifact("dynamo_graph_break_reason", "string"),
         "Graph break in user code at /home/u/model.py:7\nGraph Break Reason: "
         "Call to `torch._dynamo.graph_break()`\nUser code traceback:\n  File \"x.py\", line 1") +
      at(0, 0,
         metrics("forward", 1.0,
                 {{"restart_reasons",
                   {"<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"}}}));
  DoctorReport d = diagnose_log(log);
  EXPECT_EQ(d.totals.graph_breaks, 1u);
  ASSERT_EQ(d.graph_breaks.size(), 1u);
  EXPECT_EQ(d.graph_breaks[0].category, Category::kExplicitBreak);
  EXPECT_EQ(d.graph_breaks[0].user_frame, "/home/u/model.py:7");
}

// A log of more graph-break artifacts and restart reasons than the doctor
// keeps in memory (2 chunks of 512 each: the rest go to a temporary file
// and are read back in order at the end): the same groups, counts and
// compiles as a short log would give.
TEST(Doctor, ManyGraphBreaksAreCountedOnceEachInLogOrder) {
  constexpr int kFrames = 9000;  // 9,000 artifacts, 4,500 restart reasons
  const std::string explicit_break = "Call to `torch._dynamo.graph_break()`";
  std::string log;
  for (int f = 0; f < kFrames; ++f) {
    std::string place = "/home/u/model.py:" + std::to_string(10 + f % 3);
    log += at(f, 0, start()) +
           at(f, 0, artifact("dynamo_graph_break_reason", "string"),
              "Graph break in user code at " + place +
                  "\nGraph Break Reason: " + (f % 2 ? explicit_break : std::string("print")));
    // Even frames: the metrics tell of a print break (the artifact gives its
    // place); odd ones: the artifact alone.
    nlohmann::json extra = nlohmann::json::object();
    if (f % 2 == 0) extra["restart_reasons"] = {kPrintBreak};
    log += at(f, 0, metrics("f" + std::to_string(f), 0.5, extra));
  }
  DoctorReport d = diagnose_log(log);
  EXPECT_EQ(d.totals.graph_breaks, static_cast<uint64_t>(kFrames));
  ASSERT_EQ(d.graph_breaks.size(), 6u);
  // Six groups of 1,500: the metrics' print breaks by place as first met
  // (frames 0, 2, 4: lines 10, 12, 11), then the artifacts' explicit breaks
  // (frames 1, 3, 5: lines 11, 10, 12).
  const std::vector<std::pair<Category, std::string>> want = {
      {Category::kPrintLogging, "10"},  {Category::kPrintLogging, "12"},
      {Category::kPrintLogging, "11"},  {Category::kExplicitBreak, "11"},
      {Category::kExplicitBreak, "10"}, {Category::kExplicitBreak, "12"}};
  for (size_t i = 0; i < want.size(); ++i) {
    const GraphBreakGroup& g = d.graph_breaks[i];
    EXPECT_EQ(g.count, 1500u) << i;
    EXPECT_EQ(g.category, want[i].first) << i;
    EXPECT_EQ(g.user_frame, "/home/u/model.py:" + want[i].second) << i;
    ASSERT_FALSE(g.compile_ids.empty()) << i;
    EXPECT_EQ(g.compile_ids[0].id.bare(), std::to_string(i < 3 ? 2 * i : 2 * (i - 3) + 1) + "/0")
        << i;
  }
}

TEST(Doctor, GraphBreaksAreGroupedClassifiedAndCounted) {
  auto note = [](int frame, const std::string& where, const std::string& reason) {
    return at(frame, 0, artifact("dynamo_graph_break_reason", "string"),
              "Graph break in user code at " + where + "\nGraph Break Reason: " + reason +
                  "\nUser code traceback:\n  File \"/usr/lib/python3/x.py\", line 1");
  };
  const std::string explicit_break =
      "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break.";
  std::string log =
      // frame 0: print, told by the metrics; the artifact gives the place
      at(0, 0, start()) + note(0, "/home/u/model.py:42", "print") +
      at(0, 0,
         metrics("forward", 1.0,
                 {{"restart_reasons",
                   {kPrintBreak, "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>"}}})) +
      // frames 1 and 2: an explicit break at one place, told by artifacts only
      at(1, 0, start()) + note(1, "/home/u/model.py:50", explicit_break) +
      at(1, 0, metrics("a", 1.0)) + at(2, 0, start()) +
      note(2, "/home/u/model.py:50", explicit_break) + at(2, 0, metrics("b", 1.0)) +
      // frame 3: the same explicit break elsewhere is another group
      at(3, 0, start()) + note(3, "/home/u/other.py:5", explicit_break) +
      at(3, 0, metrics("c", 1.0));
  DoctorReport d = diagnose_log(log);

  EXPECT_EQ(d.totals.graph_breaks, 4u);  // the internal restart is not one
  ASSERT_EQ(d.graph_breaks.size(), 3u);
  const GraphBreakGroup& top = d.graph_breaks[0];
  EXPECT_EQ(top.count, 2u);
  EXPECT_EQ(top.category, Category::kExplicitBreak);
  EXPECT_EQ(top.reason, "Call to `torch._dynamo.graph_break()`");
  EXPECT_EQ(top.user_frame, "/home/u/model.py:50");
  EXPECT_EQ(bare(top.compile_ids), (Strings{"1/0", "2/0"}));

  // Then the two of one each, in the order they were met.
  const GraphBreakGroup& print = d.graph_breaks[1];
  EXPECT_EQ(print.count, 1u);
  EXPECT_EQ(print.category, Category::kPrintLogging);
  EXPECT_EQ(print.reason, "Failed to trace builtin operator");
  EXPECT_EQ(print.detail, kPrintBreak);
  EXPECT_EQ(print.user_frame, "/home/u/model.py:42");
  EXPECT_NE(print.explanation.find("builtin operator `print`"), std::string::npos)
      << print.explanation;
  EXPECT_EQ(bare(print.compile_ids), Strings{"0/0"});
  EXPECT_EQ(d.graph_breaks[2].user_frame, "/home/u/other.py:5");
  EXPECT_EQ(d.graph_breaks[2].category, Category::kExplicitBreak);

  // Advice per class: the explicit breaks of both places in one item.
  bool print_advised = false, explicit_advised = false;
  for (const auto& a : d.advice) {
    if (a.category == Category::kPrintLogging) {
      print_advised = true;
      EXPECT_EQ(bare(a.compile_ids), Strings{"0/0"});
    }
    if (a.category == Category::kExplicitBreak) {
      explicit_advised = true;
      EXPECT_EQ(bare(a.compile_ids), (Strings{"1/0", "2/0", "3/0"}));
    }
  }
  EXPECT_TRUE(print_advised);
  EXPECT_TRUE(explicit_advised);
}

// Failures of a frame: type, reason and its root cause, the user frame,
// whether the frame then ran eagerly (no later success of that compile),
// data-dependent ones told apart; each advised.
TEST(Doctor, FailuresInFramesAreReportedAndAdvised) {
  std::string log = at(0, 0, start()) +
                    at(0, 0,
                       metrics("forward", 1.0,
                               {{"fail_type", "BackendCompilerFailed"},
                                {"fail_reason", "backend='inductor' raised:\nRuntimeError: boom"},
                                {"fail_user_frame_filename", "/home/u/model.py"},
                                {"fail_user_frame_lineno", 12}})) +
                    // frame 1 fails, then the same compile succeeds on a second attempt
                    at(1, 0, start()) +
                    at(1, 0,
                       metrics("step", 1.0,
                               {{"fail_type", "GuardOnDataDependentSymNode"},
                                {"fail_reason",
                                 "Could not guard on data-dependent "
                                 "expression Eq(u0, 1)"}})) +
                    at(1, 0, start(), {}, 1) + at(1, 0, metrics("step", 1.0), {}, 1);
  DoctorReport d = diagnose_log(log);

  EXPECT_EQ(d.totals.failures, 2u);
  ASSERT_EQ(d.failures.size(), 2u);
  const FailureReport& f0 = d.failures[0];
  ASSERT_TRUE(f0.compile_id);
  EXPECT_EQ(f0.compile_id->id.bare(), "0/0");
  EXPECT_EQ(f0.fail_type, "BackendCompilerFailed");
  EXPECT_EQ(f0.reason, "backend='inductor' raised:\nRuntimeError: boom");
  EXPECT_EQ(f0.root_cause, "RuntimeError: boom");
  EXPECT_EQ(f0.user_frame, "/home/u/model.py:12");
  EXPECT_EQ(f0.category, Category::kCompileError);
  EXPECT_TRUE(f0.ran_eagerly);
  EXPECT_FALSE(f0.outside_frame);
  EXPECT_FALSE(f0.page.empty());

  const FailureReport& f1 = d.failures[1];
  EXPECT_EQ(f1.compile_id->id.bare(), "1/0");
  EXPECT_EQ(f1.category, Category::kDataDependent);
  EXPECT_FALSE(f1.ran_eagerly);  // attempt 1 compiled

  // The frames count their failed compiles.
  EXPECT_EQ(frame_named(d, "forward")->failures, 1u);
  EXPECT_EQ(frame_named(d, "step")->failures, 1u);
  std::vector<Category> advised;
  for (const auto& a : d.advice) advised.push_back(a.category);
  EXPECT_NE(std::find(advised.begin(), advised.end(), Category::kCompileError), advised.end());
  EXPECT_NE(std::find(advised.begin(), advised.end(), Category::kDataDependent), advised.end());
}

// Failures outside any frame (export, make_fx): the interpreter's error and
// the partial graph after it are one failure; another error is another.
TEST(Doctor, FailuresOutsideFramesGroupTheirArtifacts) {
  const std::string interp =
      "Traceback (most recent call last):\n  File \"/home/u/export_me.py\", line 7, in f\n"
      "ValueError: shapes do not match\nGraphModule: class M(torch.nn.Module): ...";
  std::string log = rec(artifact("fx_interpreter_error", "string"), interp) +
                    rec(artifact("make_fx_fail_partial", "string"), std::string("graph():")) +
                    rec(artifact("fx_interpreter_error", "string"),
                        std::string("ZeroDivisionError: division by zero"));
  DoctorReport d = diagnose_log(log);

  ASSERT_EQ(d.failures.size(), 2u);
  const FailureReport& f = d.failures[0];
  EXPECT_TRUE(f.outside_frame);
  EXPECT_FALSE(f.compile_id);
  EXPECT_EQ(f.fail_type, "fx_interpreter_error");
  EXPECT_EQ(f.artifacts, (Strings{"fx_interpreter_error", "make_fx_fail_partial"}));
  // The reason stops before the graph; the user frame is the traceback's.
  EXPECT_EQ(f.reason.find("GraphModule"), std::string::npos) << f.reason;
  EXPECT_EQ(f.root_cause, "ValueError: shapes do not match");
  EXPECT_EQ(f.user_frame, "/home/u/export_me.py:7");
  EXPECT_FALSE(f.page.empty());

  EXPECT_EQ(d.failures[1].artifacts, Strings{"fx_interpreter_error"});
  EXPECT_EQ(d.failures[1].root_cause, "ZeroDivisionError: division by zero");
  EXPECT_EQ(d.totals.failures, 2u);
  EXPECT_EQ(d.totals.frames, 0u);
  EXPECT_FALSE(d.totals.empty());  // a failure is something
}

// A frame that reached the recompile limit: flagged, counted, advised once
// with all its compiles, and its failure not advised as a compile error.
TEST(Doctor, RecompileLimitIsFlaggedAndAdvised) {
  std::string log = at(0, 0, start()) + at(0, 0, metrics("loop", 1.0)) +
                    recompile(0, 1, {"0/0: L['n'] == 1"}, "loop", 1.0) + at(0, 2, start()) +
                    at(0, 2,
                       metrics("loop", 0.1,
                               {{"fail_type", "RecompileLimitExceeded"},
                                {"fail_reason", "cache_size_limit reached"}}));
  DoctorReport d = diagnose_log(log);
  ASSERT_EQ(d.frames.size(), 1u);
  EXPECT_TRUE(d.frames[0].recompile_limit_hit);
  EXPECT_EQ(d.totals.recompile_limit_hits, 1u);
  int limit = 0, compile_error = 0;
  for (const auto& a : d.advice) {
    if (a.category == Category::kRecompileLimit) {
      ++limit;
      EXPECT_EQ(bare(a.compile_ids), (Strings{"0/0", "0/1", "0/2"}));
      EXPECT_NE(a.message.find("`loop`"), std::string::npos);
    }
    if (a.category == Category::kCompileError) ++compile_error;
  }
  EXPECT_EQ(limit, 1);
  EXPECT_EQ(compile_error, 0);
  ASSERT_EQ(d.failures.size(), 1u);

  // Many compiles without a word of the limit are not a limit hit.
  std::string many = at(0, 0, start()) + at(0, 0, metrics("loop", 1.0));
  for (int i = 1; i <= 9; ++i)
    many += recompile(0, i, {"0/0: L['n'] == " + std::to_string(i)}, "loop", 0.1);
  d = diagnose_log(many);
  EXPECT_FALSE(d.frames[0].recompile_limit_hit);
  EXPECT_EQ(d.totals.recompile_limit_hits, 0u);
  EXPECT_EQ(d.frames[0].recompiles, 9u);
}

// A large frame recompiled three times or more gets its own advice.
TEST(Doctor, LargeFrameRecompiledOftenIsAdvised) {
  std::string log = at(0, 0, start()) + at(0, 0, metrics("big", 1.0, {{"graph_op_count", 80}}));
  for (int i = 1; i <= 3; ++i)
    log += recompile(0, i, {"0/0: tensor 'x' size mismatch at index 0. expected 1, actual 2"},
                     "big", 0.1);
  DoctorReport d = diagnose_log(log);
  const Advice* large = nullptr;
  for (const auto& a : d.advice)
    if (a.category == Category::kLargeFrame) large = &a;
  ASSERT_TRUE(large);
  EXPECT_NE(large->message.find("(80 ops, 3 recompiles)"), std::string::npos) << large->message;
}

// Dynamo reset and compiled again: the same ids are a second run, its
// frames are other frames, and compile ids carry their run.
TEST(Doctor, SecondRunCountsItsOwnFramesAndCompiles) {
  std::string run =
      at(0, 0, start()) + at(0, 0, metrics("forward", 1.0)) +
      recompile(0, 1, {"0/0: tensor 'x' size mismatch at index 0. expected 1, actual 2"}, "forward",
                1.0);
  DoctorReport d = diagnose_log(run + run);
  EXPECT_EQ(d.totals.runs, 2u);
  EXPECT_TRUE(d.several_runs());
  EXPECT_EQ(d.totals.frames, 2u);
  EXPECT_EQ(d.totals.compiles, 4u);
  EXPECT_EQ(d.totals.recompiles, 2u);
  ASSERT_EQ(d.frames.size(), 2u);
  std::vector<uint32_t> runs = {d.frames[0].run, d.frames[1].run};
  std::sort(runs.begin(), runs.end());
  EXPECT_EQ(runs, (std::vector<uint32_t>{1, 2}));
  for (const auto& f : d.frames) {
    ASSERT_EQ(f.recompile_reasons.size(), 1u);
    EXPECT_EQ(f.recompile_reasons[0].compile_id.run, f.run);
    for (const auto& id : f.compile_ids) EXPECT_EQ(id.run, f.run);
  }
  // One shape advice for both runs, listing each run's recompile.
  ASSERT_EQ(d.advice.size(), 1u);
  EXPECT_EQ(refs_text(d.advice[0].compile_ids, true), "run 1: 0/1; run 2: 0/1");
}

// A compile id met again after its metrics begins a second run, whether
// the ids are small or too large to be kept packed in 64 bits.
TEST(Doctor, SecondRunIsFoundWhateverTheSizeOfTheIds) {
  for (auto [frame, compile] : {std::pair{0, 0}, std::pair{1 << 24, 0}, std::pair{3, 1 << 23}}) {
    std::string run = at(frame, compile, start()) + at(frame, compile, metrics("forward", 1.0)) +
                      at(frame, compile + 1, start()) +
                      at(frame, compile + 1, metrics("forward", 1.0));
    DoctorReport d = diagnose_log(run + run);
    EXPECT_EQ(d.totals.runs, 2u) << frame << "/" << compile;
    EXPECT_EQ(d.totals.frames, 2u) << frame << "/" << compile;
    EXPECT_EQ(d.totals.compiles, 4u) << frame << "/" << compile;
  }
}

// The slowest compiles, with their phases: the metrics' nested times, or
// the chromium events' tree when the log has them.
TEST(Doctor, SlowestCompilesCarryTheirPhases) {
  auto event = [](const char* ph, const char* name, double ts_us) {
    return at(0, 0, {{"chromium_event", json::object()}},
              json({{"ph", ph}, {"name", name}, {"ts", ts_us}, {"args", {{"compile_id", "0/0"}}}})
                  .dump());
  };
  std::string log =
      at(0, 0, start()) + event("B", "dynamo", 0) + event("B", "backend_compile", 1e6) +
      event("E", "backend_compile", 3e6) + event("E", "dynamo", 4e6) +
      at(0, 0, metrics("forward", 4.0, {{"backend_compile_time_s", 2.0}})) + at(1, 0, start()) +
      at(1, 0,
         metrics("other", 9.0,
                 {{"backend_compile_time_s", 6.0},
                  {"inductor_compile_time_s", 5.0},
                  {"code_gen_time_s", 1.5}}));
  DoctorReport d = diagnose_log(log);
  ASSERT_EQ(d.slowest.size(), 2u);
  // Slowest first.
  const SlowCompile& other = d.slowest[0];
  EXPECT_EQ(other.compile_id.id.bare(), "1/0");
  EXPECT_EQ(other.frame_name, "other");
  EXPECT_DOUBLE_EQ(other.seconds, 9.0);
  ASSERT_EQ(other.phase_tree.size(), 3u);
  EXPECT_EQ(other.phase_tree[0].name, "backend");
  EXPECT_EQ(other.phase_tree[0].depth, 0u);
  EXPECT_EQ(other.phase_tree[1].name, "inductor");
  EXPECT_EQ(other.phase_tree[1].depth, 1u);
  EXPECT_EQ(other.phase_tree[2].name, "code_gen");
  EXPECT_EQ(other.phase_tree[2].depth, 2u);
  EXPECT_DOUBLE_EQ(other.phases.at("code_gen"), 1.5);

  const SlowCompile& fwd = d.slowest[1];
  ASSERT_EQ(fwd.phase_tree.size(), 2u);
  EXPECT_EQ(fwd.phase_tree[0].name, "dynamo");
  EXPECT_EQ(fwd.phase_tree[0].depth, 0u);
  EXPECT_DOUBLE_EQ(fwd.phase_tree[0].seconds, 4.0);
  EXPECT_EQ(fwd.phase_tree[1].name, "backend_compile");
  EXPECT_EQ(fwd.phase_tree[1].depth, 1u);
  EXPECT_DOUBLE_EQ(fwd.phase_tree[1].seconds, 2.0);
  // The flat list keeps the metrics' names and adds the events'.
  EXPECT_DOUBLE_EQ(fwd.phases.at("backend"), 2.0);
  EXPECT_DOUBLE_EQ(fwd.phases.at("dynamo"), 4.0);
  EXPECT_DOUBLE_EQ(fwd.phases.at("backend_compile"), 2.0);
}

// `diff` reads no compiler phases (IngestOptions::phases): the model then
// holds none, and what diff reads of the doctor (its figures) is the same.
TEST(Doctor, WithoutPhasesTheDiffsFiguresAreTheSame) {
  auto event = [](int frame, const char* ph, const char* name, double ts_us) {
    std::string id = std::to_string(frame) + "/0";
    return at(
        frame, 0, {{"chromium_event", json::object()}},
        json({{"ph", ph}, {"name", name}, {"ts", ts_us}, {"args", {{"compile_id", id}}}}).dump());
  };
  std::string log =
      at(0, 0, start()) + event(0, "B", "dynamo", 0) + event(0, "E", "dynamo", 4e6) +
      at(0, 0, metrics("forward", 4.0)) +
      recompile(0, 1, {"0/0: tensor 'L['x']' size mismatch at index 0"}, "forward", 2.0) +
      at(1, 0, start()) + event(1, "B", "inductor", 5e6) + event(1, "E", "inductor", 6e6) +
      at(1, 0, metrics("other", 1.0));
  auto [with_model, with] = fold_log(log, true);
  auto [without_model, without] = fold_log(log, false);
  EXPECT_EQ(with_model.chromium.phases.size(), 2u);
  EXPECT_TRUE(without_model.chromium.phases.empty());
  EXPECT_EQ(without_model.chromium.events, with_model.chromium.events);
  EXPECT_EQ(without_model.chromium.events, 4u);
  ASSERT_EQ(with.slowest.size(), 3u);
  EXPECT_FALSE(with.slowest[0].phase_tree.empty());
  std::string want = tlscope_test::figures_text(figures_of(with));
  EXPECT_EQ(tlscope_test::figures_text(figures_of(without)), want);
  EXPECT_NE(want.find("size mismatch at index 0 |  | 1\n"), std::string::npos) << want;
  EXPECT_NE(want.find("frame 1/1: other present 1 compiles 1 recompiles 0 "), std::string::npos)
      << want;
}

TEST(RefLabel, NamesTheRunOnlyWhenAsked) {
  EXPECT_EQ(ref_label(ref("0/1"), false), "0/1");
  EXPECT_EQ(ref_label(ref("0/1", 2), true), "0/1 (run 2)");
  EXPECT_EQ(ref_label(ref("!1/2/0"), false), "!1/2/0");
}

TEST(RefsText, ListsIdsWithRunsAndCutsAtMax) {
  EXPECT_EQ(refs_text({}, false), "");
  EXPECT_EQ(refs_text({ref("0/1"), ref("0/2")}, false), "0/1 0/2");
  EXPECT_EQ(refs_text({ref("0/1"), ref("0/0", 2), ref("0/1", 2)}, true),
            "run 1: 0/1; run 2: 0/0 0/1");
  EXPECT_EQ(refs_text({ref("0/1"), ref("0/2"), ref("0/3")}, false, 2), "0/1 0/2 ...");
  EXPECT_EQ(refs_text({ref("0/1"), ref("0/2")}, false, 2), "0/1 0/2");
}

}  // namespace
}  // namespace tlscope::analysis
