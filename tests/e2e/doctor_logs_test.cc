// The compile doctor on the kinds of real logs a newcomer brings (issue 10):
// times written only in microseconds, logs of several runs (Dynamo reset),
// failures outside any frame (export, make_fx), and a terminal summary that
// stays short and names the log.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "log_oracle.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

json ids(int frame, int fcid, int attempt = 0) {
  return {{"frame_id", frame}, {"frame_compile_id", fcid}, {"attempt", attempt}};
}

std::string start(int frame, int fcid, int attempt = 0) {
  json e = ids(frame, fcid, attempt);
  e["dynamo_start"] = {{"stack", json::array()}};
  return record(e);
}

std::string metrics(int frame, int fcid, json fields, int attempt = 0) {
  json m = {{"co_name", "f"},
            {"co_filename", "/p/m.py"},
            {"co_firstlineno", 3},
            {"restart_reasons", json::array()},
            {"graph_op_count", 4}};
  if (fields.is_object()) m.update(fields);  // {} arrives as null
  json e = ids(frame, fcid, attempt);
  e["compilation_metrics"] = m;
  return record(e);
}

std::string reasons(int frame, int fcid, const json& list) {
  json e = ids(frame, fcid);
  e["artifact"] = {{"name", "recompile_reasons"}, {"encoding", "json"}};
  return record(e, list.dump());
}

// An artifact logged outside any compile (no frame id).
std::string loose_artifact(const std::string& name, const std::string& payload) {
  return record({{"artifact", {{"name", name}, {"encoding", "string"}}}}, payload);
}

// "run/frame name xN" of a summary.json frame.
std::string fmt_frame(int run, int frame, const json& name, int compiles) {
  return std::to_string(run) + "/" + std::to_string(frame) + " " + name.get<std::string>() + " x" +
         std::to_string(compiles);
}

class DoctorLogs : public ::testing::Test {
 protected:
  fs::path write(const std::string& name, const std::string& log) {
    fs::path p = tmp_ / name;
    write_file(p, log);
    return p;
  }
  json summary(const fs::path& log) { return summary_json(log, tmp_.path()); }
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  TempDir tmp_;
};
class CorpusDoctorLogs : public DoctorLogs {};

// ---------------------------------------------------------------- times

TEST_F(DoctorLogs, MicrosecondTimesAreUsedWhenSecondsAreMissing) {
  fs::path log = write(
      "us.log", start(0, 0) + metrics(0, 0,
                                      {{"dynamo_cumulative_compile_time_us", 1500000},
                                       {"aot_autograd_cumulative_compile_time_us", 1200000},
                                       {"inductor_cumulative_compile_time_us", 900000},
                                       {"inductor_code_gen_cumulative_compile_time_us", 300000}}));
  json s = summary(log);
  EXPECT_DOUBLE_EQ(s["totals"]["compile_time_s"].get<double>(), 1.5);
  ASSERT_EQ(s["slowest_compiles"].size(), 1u);
  const json& c = s["slowest_compiles"][0];
  EXPECT_DOUBLE_EQ(c["seconds"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(c["phases"]["backend"].get<double>(), 1.2);
  EXPECT_DOUBLE_EQ(c["phases"]["inductor"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(c["phases"]["code_gen"].get<double>(), 0.3);
  // Nested: AOT autograd holds Inductor, which holds code generation.
  EXPECT_EQ(c["phase_tree"], json::parse(R"([{"name":"backend","depth":0,"seconds":1.2},
      {"name":"inductor","depth":1,"seconds":0.9},{"name":"code_gen","depth":2,"seconds":0.3}])"));
  RunResult r = run({"check", log.string(), "--max-compile-seconds", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out, "tlscope check: compile seconds: 1.50 > 1\n");
  // duration_us is the last resort.
  log = write("duration.log", metrics(0, 0, {{"duration_us", 250000}}));
  EXPECT_DOUBLE_EQ(summary(log)["totals"]["compile_time_s"].get<double>(), 0.25);
}

TEST_F(DoctorLogs, SecondsWinOverMicroseconds) {
  fs::path log = write("both.log", metrics(0, 0,
                                           {{"entire_frame_compile_time_s", 0.5},
                                            {"dynamo_cumulative_compile_time_us", 9000000}}));
  EXPECT_DOUBLE_EQ(summary(log)["totals"]["compile_time_s"].get<double>(), 0.5);
  // The metrics page shows the time either way.
  RunResult r =
      run({write("us_only.log", metrics(0, 0, {{"dynamo_cumulative_compile_time_us", 2500000}}))
               .string(),
           "-o", (tmp_ / "out").string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page;
  for (const auto& f : list_files(tmp_ / "out"))
    if (f.rfind("-_0_0_0/compilation_metrics", 0) == 0) page = read_file(tmp_ / "out" / f);
  EXPECT_TRUE(has(page, "<td>2.5</td>")) << page;
}

TEST_F(CorpusDoctorLogs, CompileTimeOfLogsWithMicrosecondsOnly) {
  struct Want {
    const char* log;
    double seconds;
  };
  // Sums of dynamo_cumulative_compile_time_us of each log's compilation_metrics.
  for (Want w :
       {Want{"simple.log", 1.659332}, Want{"chromium_events.log", 0.157247},
        Want{"cache_hit_miss.log", (142473 + 4298670 + 88329 + 242984 + 86006 + 3438591) / 1e6}}) {
    SCOPED_TRACE(w.log);
    json s = summary(corpus_inputs() / w.log);
    EXPECT_NEAR(s["totals"]["compile_time_s"].get<double>(), w.seconds, 1e-9);
  }
  RunResult r =
      run({"check", (corpus_inputs() / "simple.log").string(), "--max-compile-seconds", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out, "tlscope check: compile seconds: 1.66 > 1\n");
  r = run({"summary", (corpus_inputs() / "simple.log").string()});
  EXPECT_TRUE(has(
      r.out, "1 frame, 1 compile, 0 recompiles, 0 graph breaks, 0 failures, 1.66 s compiling\n"))
      << r.out;
}

// ---------------------------------------------------------------- runs

// Two runs of the same program (torch._dynamo.reset() in between): the same
// compile ids compile twice, and the second run compiles another function.
std::string two_run_log(bool with_starts) {
  std::string log;
  auto compile = [&](int frame, int fcid, const std::string& name, double secs) {
    if (with_starts) log += start(frame, fcid);
    log += metrics(frame, fcid, {{"co_name", name}, {"entire_frame_compile_time_s", secs}});
  };
  compile(0, 0, "forward", 1.0);
  log += reasons(0, 1,
                 json::array({"0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"}));
  compile(0, 1, "forward", 0.5);
  compile(1, 0, "loss", 0.25);
  compile(0, 0, "forward", 2.0);  // run 2
  compile(1, 0, "step", 0.125);
  return log;
}

TEST_F(DoctorLogs, EveryRunOfAResetLogIsCounted) {
  for (bool with_starts : {true, false}) {
    SCOPED_TRACE(with_starts ? "with dynamo_start" : "metrics only");
    json s = summary(write("runs.log", two_run_log(with_starts)));
    const json& t = s["totals"];
    EXPECT_EQ(t["runs"], 2);
    EXPECT_EQ(t["compiles"], 5);
    EXPECT_EQ(t["recompiles"], 1);
    EXPECT_EQ(t["frames"], 4);
    EXPECT_DOUBLE_EQ(t["compile_time_s"].get<double>(), 3.875);
    std::set<std::string> frames;
    for (const auto& f : s["frames"])
      frames.insert(fmt_frame(f["run"].get<int>(), f["frame_id"].get<int>(), f["name"],
                              f["compiles"].get<int>()));
    EXPECT_EQ(frames, (std::set<std::string>{"1/0 forward x2", "1/1 loss x1", "2/0 forward x1",
                                             "2/1 step x1"}));
    // The recompile reason belongs to run 1's frame 0 only.
    for (const auto& f : s["frames"])
      EXPECT_EQ(f["recompile_reasons"].size(), f["run"] == 1 && f["frame_id"] == 0 ? 1u : 0u) << f;
  }
  RunResult r = run({"summary", write("runs.log", two_run_log(true)).string()});
  EXPECT_TRUE(has(r.out, "This log holds 2 runs")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n +2 +1 step +1 +0 +0 +0\.125\n)"))) << r.out;
  fs::path out = tmp_ / "out";
  r = run({(tmp_ / "runs.log").string(), "-o", out.string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = read_file(out / "index.html");
  EXPECT_TRUE(has(html, "<p class=\"runs\">This log holds 2 runs")) << html.substr(0, 3000);
  EXPECT_TRUE(has(html, "<th>Run</th><th>Frame</th>"));
}

TEST_F(DoctorLogs, RestartsStayInTheirRun) {
  // A restart: one dynamo_start at attempt 0, the metrics at attempt 1.
  std::string log = start(0, 0) +
                    metrics(0, 0, {{"restart_reasons", json::array({"restart"})}}, 1) +
                    start(1, 0) + metrics(1, 0, {});
  json s = summary(write("restart.log", log));
  EXPECT_EQ(s["totals"]["runs"], 1);
  EXPECT_EQ(s["totals"]["compiles"], 2);
  // Recorded logs of one run each.
  for (const char* r :
       {"adam_exponential_lr.log.gz", "recompile_limit.log.gz", "mlp_training.log.gz"})
    EXPECT_EQ(summary(kRecorded / r)["totals"]["runs"], 1) << r;
}

TEST_F(CorpusDoctorLogs, CacheHitMissHoldsThreeRuns) {
  fs::path log = corpus_inputs() / "cache_hit_miss.log";
  json s = summary(log);
  EXPECT_EQ(s["totals"]["runs"], 3);
  EXPECT_EQ(s["totals"]["compiles"], 6);
  EXPECT_EQ(s["totals"]["frames"], 6);
  std::set<std::string> frames;
  for (const auto& f : s["frames"])
    frames.insert(fmt_frame(f["run"].get<int>(), f["frame_id"].get<int>(), f["name"],
                            f["compiles"].get<int>()));
  EXPECT_EQ(frames, (std::set<std::string>{"1/0 _flex_attention_hop_wrapper x1", "1/1 fn x1",
                                           "2/0 _flex_attention_hop_wrapper x1", "2/1 fn x1",
                                           "3/0 _flex_attention_hop_wrapper x1", "3/1 fn2 x1"}));
  RunResult r = run({"summary", log.string()});
  EXPECT_TRUE(has(r.out, "6 frames, 6 compiles, 0 recompiles")) << r.out;
  EXPECT_TRUE(has(r.out, "This log holds 3 runs")) << r.out;
}

// ---------------------------------------------------------------- outside frames

const std::string kInterpreterError =
    "Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).\n\n"
    "While executing %item : [num_users=1] = call_method[target=item](args = (%x,))\n"
    "Original traceback:\n"
    "  File \"/home/u/.venv/lib/python3.12/site-packages/torch/nn/modules/module.py\", line 1775, "
    "in _call_impl\n"
    "    return forward_call(*args, **kwargs)\n"
    "  File \"/home/u/model.py\", line 12, in forward\n"
    "    if x.item() == 1:\n"
    "\nGraphModule: class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        pass\n";

TEST_F(DoctorLogs, FailuresOutsideAnyFrameAreCountedAndAdvised) {
  std::string log = start(0, 0) + metrics(0, 0, {{"entire_frame_compile_time_s", 0.5}});
  // One export failure leaves three records in a row.
  log += loose_artifact("fx_interpreter_error", kInterpreterError);
  log += loose_artifact("make_fx_fail_partial", "def forward(self, x):\n    item = x.item()\n");
  log += record({{"compilation_metrics",
                  {{"fail_type", "GuardOnDataDependentSymNode"},
                   {"fail_reason", "Could not guard on data-dependent expression Eq(u0, 1)"},
                   {"fail_user_frame_filename", "/home/u/model.py"},
                   {"fail_user_frame_lineno", 12}}}});
  // A second, separate failure: make_fx alone.
  log += start(1, 0) + metrics(1, 0, {});
  log += loose_artifact("make_fx_fail_partial", "def forward(self, y):\n    return y\n");
  json s = summary(write("export.log", log));
  EXPECT_EQ(s["totals"]["failures"], 2) << s["failures"];
  EXPECT_EQ(s["totals"]["compiles"], 2);
  ASSERT_EQ(s["failures"].size(), 2u);
  const json& a = s["failures"][0];
  EXPECT_TRUE(a["compile_id"].is_null());
  EXPECT_EQ(a["outside_frame"], true);
  EXPECT_EQ(a["fail_type"], "GuardOnDataDependentSymNode");
  EXPECT_EQ(a["category"], "data_dependent");
  EXPECT_EQ(a["user_frame"], "/home/u/model.py:12");
  EXPECT_EQ(a["artifacts"], json::array({"fx_interpreter_error", "make_fx_fail_partial"}));
  const json& b = s["failures"][1];
  EXPECT_EQ(b["fail_type"], "make_fx_fail_partial");
  EXPECT_EQ(b["category"], "compile_error");
  EXPECT_TRUE(has(b["reason"].get<std::string>(), "make_fx could not trace the function")) << b;
  // The data-dependent advice applies.
  EXPECT_TRUE(has(advice_message(s, "data_dependent"), "torch._check")) << s["advice"];

  RunResult r = run({"summary", (tmp_ / "export.log").string()});
  EXPECT_TRUE(has(r.out,
                  "  (no frame) GuardOnDataDependentSymNode: Could not guard on data-dependent "
                  "expression Eq(u0, 1)\n       at /home/u/model.py:12\n"))
      << r.out;
  r = run({"check", (tmp_ / "export.log").string(), "--max-failures", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "tlscope check: failures: 2 > 1\n");
}

TEST_F(DoctorLogs, InterpreterErrorAloneGivesItsFirstLineAndUserFrame) {
  std::string log = loose_artifact("fx_interpreter_error", kInterpreterError);
  json s = summary(write("interp.log", log));
  ASSERT_EQ(s["failures"].size(), 1u);
  const json& f = s["failures"][0];
  EXPECT_EQ(f["fail_type"], "fx_interpreter_error");
  EXPECT_EQ(f["user_frame"], "/home/u/model.py:12");  // not the site-packages frame
  EXPECT_EQ(f["category"], "data_dependent");
  EXPECT_FALSE(has(f["reason"].get<std::string>(), "GraphModule")) << f["reason"];
  RunResult r = run({"summary", (tmp_ / "interp.log").string()});
  EXPECT_TRUE(
      has(r.out, "(no frame) fx_interpreter_error: Could not guard on data-dependent expression"))
      << r.out;
}

// ---------------------------------------------------------------- terminal text

// A frame recompiled 14 times; each recompile lists every cached entry whose
// guard failed: 1 + 2 + ... + 14 = 105 reasons.
std::string many_reasons_log() {
  std::string log = start(0, 0) + metrics(0, 0, {{"entire_frame_compile_time_s", 0.1}});
  for (int k = 1; k <= 14; ++k) {
    json list = json::array();
    for (int j = 0; j < k; ++j)
      list.push_back("0/" + std::to_string(j) + ": tensor 'x' size mismatch at index 0. expected " +
                     std::to_string(j + 2) + ", actual " + std::to_string(k + 2));
    log +=
        start(0, k) + reasons(0, k, list) + metrics(0, k, {{"entire_frame_compile_time_s", 0.1}});
  }
  return log;
}

TEST_F(DoctorLogs, RepeatedRecompileReasonsAreCollapsed) {
  fs::path log = write("many.log", many_reasons_log());
  json s = summary(log);
  EXPECT_EQ(all_reasons(s).size(), 105u);  // the JSON keeps them all
  RunResult r = run({"summary", log.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int reason_lines = 0;
  for (const auto& l : split_lines(r.out)) reason_lines += l.rfind("        ", 0) == 0;
  EXPECT_EQ(reason_lines, 1) << r.out;
  EXPECT_TRUE(
      has(r.out, "        14x [shape] (0/1 0/2 0/3 0/4 0/5 0/6 ...) tensor 'x' size mismatch"))
      << r.out;
  EXPECT_TRUE(has(r.out, "1 frame, 15 compiles, 14 recompiles, 0 graph breaks, 0 failures"))
      << r.out;
}

TEST_F(DoctorLogs, HeaderNamesTheLogFile) {
  fs::path dir = tmp_ / std::string(60, 'd') / std::string(40, 'e');
  fs::create_directories(dir);
  fs::path log = dir / "dedicated_log_torch_trace_rank_0_abcdefgh.log";
  write_file(log, start(0, 0) + metrics(0, 0, {}));
  RunResult r = run({"summary", log.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string first = split_lines(r.out)[0];
  EXPECT_EQ(first, "tlscope summary: .../dedicated_log_torch_trace_rank_0_abcdefgh.log");
  // A short path is shown whole.
  r = run({"summary", write("a.log", start(0, 0) + metrics(0, 0, {})).string()});
  EXPECT_EQ(split_lines(r.out)[0], "tlscope summary: " + (tmp_ / "a.log").string());
  EXPECT_EQ(split_lines(r.out)[1],
            "1 frame, 1 compile, 0 recompiles, 0 graph breaks, 0 failures, 0.00 s compiling");
}

}  // namespace
}  // namespace tlscope_test
