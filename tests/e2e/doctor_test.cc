// Compile doctor (issue 3) on the synthetic logs of `bench/gen_trace.py
// --doctor-case NAME`: one log per class; `tlscope summary --json` must name
// the class with the right compile ids, count the frame's compiles and
// recompiles, group the graph break and report the failure.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "log_oracle.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

const std::string kProj = "/home/user/project/";
const std::string kMlp = kProj + "models/mlp.py";

struct GraphBreak {
  std::string category, reason;
  bool restart = true;  // the compile restarted as attempt 1
};

struct Failure {
  std::string compile_id, fail_type, reason_start, user_frame;
};

struct Case {
  std::string name;
  // totals
  int frames, compiles, recompiles, graph_breaks, failures;
  double seconds;
  // frame 0
  std::string frame_name, filename;
  int line;
  bool limit_hit;
  // recompile reasons: how many entries, their class, and the one for 0/1 (from 0/0)
  int reasons;
  std::string reason_category, reason_0_1;
  // advice: class -> compile ids, exactly these classes
  std::map<std::string, std::vector<std::string>> advice;
  std::string phrase_category, phrase;
  std::optional<GraphBreak> graph_break;
  std::optional<Failure> failure;
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

const std::string kLimitText = "Dynamo recompile limit exceeded";

std::vector<Case> cases() {
  std::vector<Case> v = {
      {.name = "shape",
       .frames = 1,
       .compiles = 4,
       .recompiles = 3,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 2.25,
       .frame_name = "forward",
       .filename = kMlp,
       .line = 61,
       .limit_hit = false,
       .reasons = 6,
       .reason_category = "shape",
       .reason_0_1 = "tensor 'x' size mismatch at index 0. expected 2, actual 3",
       .advice = {{"shape", id_range(0, 1, 3)}},
       .phrase_category = "shape",
       .phrase = "torch._dynamo.mark_dynamic"},
      {.name = "constant",
       .frames = 1,
       .compiles = 2,
       .recompiles = 1,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 1.25,
       .frame_name = "apply_temperature",
       .filename = kProj + "models/heads.py",
       .line = 30,
       .limit_hit = false,
       .reasons = 1,
       .reason_category = "constant",
       .reason_0_1 = "c == 0.5                                                 #   # "
                     "models/heads.py:32 in apply_temperature",
       .advice = {{"constant", {"0/1"}}},
       .phrase_category = "constant",
       .phrase = "torch.tensor(0.5)"},
      // model.train()/model.eval() flipped inside the loop: 3 recompiles
      // on `.training`, more than the one a switch of mode costs.
      {.name = "train_eval_flips",
       .frames = 1,
       .compiles = 4,
       .recompiles = 3,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 1.75,
       .frame_name = "forward",
       .filename = kMlp,
       .line = 61,
       .limit_hit = false,
       .reasons = 6,
       .reason_category = "train_eval",
       .reason_0_1 = "L['self'].training == True",
       .advice = {{"train_eval", id_range(0, 1, 3)}},
       .phrase_category = "train_eval",
       .phrase = "One graph per mode is expected (one recompile)"},
      {.name = "optimizer_constant",
       .frames = 1,
       .compiles = 4,
       .recompiles = 3,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 2.0,
       .frame_name = "step",
       .filename = "/home/user/.venv/lib/python3.11/site-packages/torch/optim/adam.py",
       .line = 214,
       .limit_hit = false,
       .reasons = 6,
       .reason_category = "optimizer_constant",
       .reason_0_1 = "self.param_groups[0]['lr'] == 0.01                       # for group in "
                     "self.param_groups:  # optim/adam.py:229 in step",
       .advice = {{"optimizer_constant", id_range(0, 1, 3)}},
       .phrase_category = "optimizer_constant",
       .phrase = "tensor learning rate"},
      {.name = "object_identity",
       .frames = 1,
       .compiles = 3,
       .recompiles = 2,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 1.25,
       .frame_name = "forward",
       .filename = kProj + "models/attention.py",
       .line = 40,
       .limit_hit = false,
       .reasons = 3,
       .reason_category = "object_identity",
       .reason_0_1 = "___check_obj_id(L['mod'], 139820487530896)",
       .advice = {{"object_identity", id_range(0, 1, 2)}},
       .phrase_category = "object_identity",
       .phrase = "outside the loop"},
      {.name = "global_state",
       .frames = 1,
       .compiles = 2,
       .recompiles = 1,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 0.75,
       .frame_name = "forward",
       .filename = kMlp,
       .line = 61,
       .limit_hit = false,
       .reasons = 1,
       .reason_category = "global_state",
       .reason_0_1 = "GLOBAL_STATE changed: grad_mode",
       .advice = {{"global_state", {"0/1"}}},
       .phrase_category = "global_state",
       .phrase = "grad mode"},
      {.name = "tensor_property",
       .frames = 1,
       .compiles = 2,
       .recompiles = 1,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 0.75,
       .frame_name = "forward",
       .filename = kMlp,
       .line = 61,
       .limit_hit = false,
       .reasons = 1,
       .reason_category = "tensor_property",
       .reason_0_1 = "tensor 'x' dtype mismatch. expected Float, actual Half",
       .advice = {{"tensor_property", {"0/1"}}},
       .phrase_category = "tensor_property",
       .phrase = "dtype, device or requires_grad"},
      {.name = "recompile_limit",
       .frames = 1,
       .compiles = 9,
       .recompiles = 8,
       .graph_breaks = 0,
       .failures = 1,
       .seconds = 1.8775,
       .frame_name = "forward",
       .filename = kMlp,
       .line = 61,
       .limit_hit = true,
       .reasons = 36,
       .reason_category = "shape",
       .reason_0_1 = "tensor 'x' size mismatch at index 0. expected 2, actual 3",
       .advice = {{"shape", id_range(0, 1, 8)},
                  {"recompile_limit", id_range(0, 0, 8)},
                  {"compile_error", {"0/8"}}},
       .phrase_category = "recompile_limit",
       .phrase = "cache_size_limit",
       .failure = Failure{"0/8", "Unsupported", kLimitText, ""}},
      {.name = "large_frame",
       .frames = 1,
       .compiles = 5,
       .recompiles = 4,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 12.0,
       .frame_name = "forward",
       .filename = kProj + "models/transformer.py",
       .line = 120,
       .limit_hit = false,
       .reasons = 10,
       .reason_category = "constant",
       .reason_0_1 = "L['temperature'] == 0.7                 #   # models/transformer.py:131 "
                     "in forward",
       .advice = {{"constant", id_range(0, 1, 4)}, {"large_frame", id_range(0, 0, 4)}},
       .phrase_category = "large_frame",
       .phrase = "(500 ops, 4 recompiles)"},
      {.name = "unclassified",
       .frames = 1,
       .compiles = 2,
       .recompiles = 1,
       .graph_breaks = 0,
       .failures = 0,
       .seconds = 0.75,
       .frame_name = "forward",
       .filename = kProj + "models/heads.py",
       .line = 36,
       .limit_hit = false,
       .reasons = 1,
       .reason_category = "unclassified",
       .reason_0_1 = "not ___dict_contains('use_fast_path', G['FLAGS'])  # if 'use_fast_path' "
                     "in FLAGS:  # models/heads.py:40 in forward",
       .advice = {{"unclassified", {"0/1"}}},
       .phrase_category = "unclassified",
       .phrase = "as PyTorch wrote them"},
      {.name = "compile_error",
       .frames = 1,
       .compiles = 1,
       .recompiles = 0,
       .graph_breaks = 0,
       .failures = 1,
       .seconds = 2.5,
       .frame_name = "forward",
       .filename = kProj + "models/attention.py",
       .line = 40,
       .limit_hit = false,
       .reasons = 0,
       .advice = {{"compile_error", {"0/0"}}},
       .phrase_category = "compile_error",
       .phrase = "dynamo_error",
       .failure = Failure{"0/0", "BackendCompilerFailed",
                          "backend='inductor' raised:\nRuntimeError: Triton Error [CUDA]: out of "
                          "resource: shared memory, Required: 262144, Hardware limit: 232448.",
                          kProj + "models/attention.py:52"}},
  };
  // Graph breaks: frame 0 breaks at mlp.py:66, frame 1 (and 2) resume there.
  struct Gb {
    std::string name, category, reason, phrase;
  } gbs[] = {
      {"print_logging", "print_logging", "Failed to trace builtin operator",
       "torch._dynamo.config.reorderable_logging_functions"},
      {"data_dependent", "data_dependent", "Data-dependent branching", "torch.where"},
      {"dynamic_shape_op", "dynamic_shape_op", "Dynamic shape operator",
       "capture_dynamic_output_shape_ops = True"},
      {"numpy", "numpy", "attempted to trace numpy function unsupported by PyTorch", "NumPy"},
      {"skipped", "skipped", "Skip calling `torch.compiler.disable()`d function",
       "torch.compiler.disable"},
      {"explicit_graph_break", "explicit_graph_break", "Call to `torch._dynamo.graph_break()`",
       "torch._dynamo.graph_break()"},
      {"context_manager", "context_manager", "Unsupported context manager", "`with` block"},
      {"unsupported_bytecode", "unsupported_bytecode", "Missing bytecode handler", "cannot trace"},
  };
  for (const auto& g : gbs) {
    bool dd = g.name == "data_dependent";  // breaks without a restart; two resume frames
    v.push_back({.name = g.name,
                 .frames = dd ? 3 : 2,
                 .compiles = dd ? 3 : 2,
                 .recompiles = 0,
                 .graph_breaks = 1,
                 .failures = 0,
                 .seconds = dd ? 0.75 : 0.625,
                 .frame_name = "forward",
                 .filename = kMlp,
                 .line = 61,
                 .limit_hit = false,
                 .reasons = 0,
                 .advice = {{g.category, {"0/0"}}},
                 .phrase_category = g.category,
                 .phrase = g.phrase,
                 .graph_break = GraphBreak{g.category, g.reason, !dd}});
  }
  return v;
}

class DoctorCase : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    log_ = gen_doctor_case(GetParam().name, tmp_.path());
    s_ = summary_json(log_, tmp_.path());
    ASSERT_TRUE(s_.is_object());
  }
  TempDir tmp_;
  fs::path log_;
  json s_;
};

TEST_P(DoctorCase, Totals) {
  const Case& c = GetParam();
  const json& t = s_["totals"];
  EXPECT_EQ(t["frames"], c.frames) << t;
  EXPECT_EQ(t["compiles"], c.compiles) << t;
  EXPECT_EQ(t["recompiles"], c.recompiles) << t;
  EXPECT_EQ(t["graph_breaks"], c.graph_breaks) << t;
  EXPECT_EQ(t["failures"], c.failures) << t;
  EXPECT_NEAR(t["compile_time_s"].get<double>(), c.seconds, 1e-9) << t;
  double per_frame = 0;
  for (const auto& f : s_["frames"]) per_frame += f["compile_time_s"].get<double>();
  EXPECT_NEAR(per_frame, c.seconds, 1e-9);
}

TEST_P(DoctorCase, FrameCountsAndPlace) {
  const Case& c = GetParam();
  json f = frame_of(s_, 0);
  ASSERT_TRUE(f.is_object()) << s_["frames"].dump(1);
  EXPECT_EQ(f["name"], c.frame_name);
  EXPECT_EQ(f["filename"], c.filename);
  EXPECT_EQ(f["line"], c.line);
  EXPECT_EQ(f["compiles"], c.compiles - (c.frames - 1)) << f;  // other frames compile once
  EXPECT_EQ(f["recompiles"], c.recompiles) << f;
  EXPECT_EQ(f["recompile_limit_hit"], c.limit_hit) << f;
  EXPECT_EQ(f["failures"], c.failures) << f;
  EXPECT_EQ(f["restarts"], c.graph_break && c.graph_break->restart ? 1 : 0) << f;
  EXPECT_EQ(strings_of(f["compile_ids"]), id_range(0, 0, c.compiles - c.frames));
  // The most recompiled frame comes first.
  EXPECT_EQ(s_["frames"][0]["frame_id"], 0);
  for (int id = 1; id < c.frames; ++id) {
    json r = frame_of(s_, id);
    ASSERT_TRUE(r.is_object()) << "frame " << id;
    EXPECT_EQ(r["name"], "torch_dynamo_resume_in_forward_at_66");
    EXPECT_EQ(r["compiles"], 1);
    EXPECT_EQ(r["recompiles"], 0);
  }
}

TEST_P(DoctorCase, RecompileReasons) {
  const Case& c = GetParam();
  json f = frame_of(s_, 0);
  ASSERT_TRUE(f.is_object());
  const json& rs = f["recompile_reasons"];
  ASSERT_EQ(rs.size(), static_cast<size_t>(c.reasons)) << rs.dump(1);
  if (c.reasons == 0) return;
  // Every cached entry's failure is listed: compile 0/k names 0/0 .. 0/(k-1).
  std::set<std::string> seen;
  for (const auto& r : rs) {
    EXPECT_EQ(r["category"], c.reason_category) << r;
    std::string id = r["compile_id"], failed = r["failed_compile_id"];
    int k = std::stoi(id.substr(2)), j = std::stoi(failed.substr(2));
    EXPECT_LT(j, k) << r;
    EXPECT_TRUE(seen.insert(id + "<" + failed).second) << "listed twice: " << r;
  }
  EXPECT_EQ(all_reasons(s_).size(), static_cast<size_t>(c.reasons));
  std::string want = "0/1|0/0|" + c.reason_category + "|" + c.reason_0_1;
  auto all = all_reasons(s_);
  EXPECT_NE(std::find(all.begin(), all.end(), want), all.end()) << "missing " << want << " in\n"
                                                                << rs.dump(1);
}

TEST_P(DoctorCase, AdviceClassesIdsAndRemedy) {
  const Case& c = GetParam();
  auto got = advice_ids(s_);
  auto want = c.advice;
  drop_limit_failure_advice(&got, &want);
  EXPECT_EQ(got, want) << s_["advice"].dump(1);
  std::string msg = advice_message(s_, c.phrase_category);
  EXPECT_TRUE(has(msg, c.phrase)) << c.phrase << " not in: " << msg;
}

TEST_P(DoctorCase, GraphBreakGroup) {
  const Case& c = GetParam();
  const json& gbs = s_["graph_breaks"];
  if (!c.graph_break) {
    EXPECT_TRUE(gbs.empty()) << gbs.dump(1);
    return;
  }
  ASSERT_EQ(gbs.size(), 1u) << gbs.dump(1);
  const json& g = gbs[0];
  EXPECT_EQ(g["category"], c.graph_break->category);
  EXPECT_EQ(g["reason"], c.graph_break->reason);
  EXPECT_EQ(g["count"], 1);
  EXPECT_EQ(strings_of(g["compile_ids"]), std::vector<std::string>{"0/0"});
  EXPECT_EQ(g["user_frame"], kMlp + ":66");
}

TEST_P(DoctorCase, Failure) {
  const Case& c = GetParam();
  const json& fs_ = s_["failures"];
  if (!c.failure) {
    EXPECT_TRUE(fs_.empty()) << fs_.dump(1);
    return;
  }
  ASSERT_EQ(fs_.size(), 1u) << fs_.dump(1);
  const json& f = fs_[0];
  EXPECT_EQ(f["compile_id"], c.failure->compile_id);
  EXPECT_EQ(f["fail_type"], c.failure->fail_type);
  EXPECT_EQ(f["reason"].get<std::string>().rfind(c.failure->reason_start, 0), 0u) << f["reason"];
  EXPECT_EQ(f["user_frame"], c.failure->user_frame);
  EXPECT_EQ(f["ran_eagerly"], true);  // no later successful compile of that id
}

TEST_P(DoctorCase, SlowestCompilesAreSortedAndSumToTheTotal) {
  const json& slow = s_["slowest_compiles"];
  ASSERT_FALSE(slow.empty());
  double sum = 0, prev = 1e300;
  for (const auto& c : slow) {
    double secs = c["seconds"].get<double>();
    EXPECT_LE(secs, prev) << slow.dump(1);
    prev = secs;
    sum += secs;
  }
  // Every case has fewer than 20 compiles, so all are listed.
  EXPECT_NEAR(sum, s_["totals"]["compile_time_s"].get<double>(), 1e-9);
  EXPECT_EQ(slow.size(), s_["totals"]["compiles"].get<size_t>());
}

INSTANTIATE_TEST_SUITE_P(Cases, DoctorCase, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return info.param.name; });

// One switch of mode (model.eval() after training) is expected: its class
// and explanation in the text, JSON and page, and no advice.
TEST(DoctorTrainEval, OneSwitchIsExpectedNotAdvised) {
  TempDir tmp;
  fs::path log = gen_doctor_case("train_eval", tmp.path());
  json s = summary_json(log, tmp.path());
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["totals"]["recompiles"], 1);
  EXPECT_EQ(s["frames"][0]["recompile_reasons"][0]["category"], "train_eval");
  EXPECT_TRUE(s["advice"].empty()) << s["advice"].dump(1);
  ASSERT_EQ(s["expected"].size(), 1u);
  EXPECT_EQ(s["expected"][0]["category"], "train_eval");
  EXPECT_EQ(strings_of(s["expected"][0]["compile_ids"]), std::vector<std::string>{"0/1"});
  const std::string why =
      "`forward` recompiled when a module was switched between train() and eval() (a guard on "
      "`.training` failed). One graph per mode is expected and costs one recompile: nothing to "
      "fix.";
  EXPECT_EQ(s["expected"][0]["message"], why);
  RunResult t = run_tlscope({"summary", log.string()}, tmp.path());
  EXPECT_TRUE(has(t.out, "\nExpected\n- [train_eval] `forward` recompiled when a module")) << t.out;
  EXPECT_FALSE(has(t.out, "What to do")) << t.out;
  json r = report_summary(log, tmp / "out", tmp.path());
  std::string page = read_file(tmp / "out" / "index.html");
  EXPECT_TRUE(has(page, "<h3>Expected</h3>")) << page.substr(0, 2000);
  EXPECT_TRUE(has(page, "<strong>train_eval</strong>"));
  EXPECT_TRUE(has(page, "<code>forward</code> recompiled when a module")) << "backticks as code";
  EXPECT_FALSE(has(page, "<h3>What to do</h3>"));
  EXPECT_FALSE(has(page, "Nothing to fix: no recompiles"));
}

// The generator rejects names it does not know; the case list is the one the
// tests cover.
TEST(DoctorGenerator, EveryClassHasACaseAndUnknownNamesAreRejected) {
  TempDir tmp;
  std::set<std::string> names;
  for (const auto& c : cases()) names.insert(c.name);
  EXPECT_EQ(names.size(), 19u);
  std::string cmd = "python3 '" + kGenTrace + "' '" + (tmp / "x.log").string() +
                    "' --doctor-case no_such_case > /dev/null 2>&1";
  EXPECT_NE(run_shell(cmd), 0);
  EXPECT_FALSE(fs::exists(tmp / "x.log"));
}

// The generated logs are valid: no parse failures, every payload's MD5 right.
TEST(DoctorGenerator, CaseLogsAreCleanTraces) {
  TempDir tmp;
  for (const auto& c : cases()) {
    fs::path log = gen_doctor_case(c.name, tmp.path());
    RunResult r = run_tlscope(
        {log.string(), "-o", (tmp / ("out_" + c.name)).string(), "--no-browser"}, tmp.path());
    ASSERT_EQ(r.exit_code, 0) << c.name << "\n" << r.err;
    // Every envelope line (string-table records aside) is read without a failure.
    long long records = 0;
    for (const auto& l : split_lines(read_file(log)))
      if (!l.empty() && l[0] != '\t' && !has(l, "] {\"str\": [")) ++records;
    auto stats = parse_stats(r.err);
    EXPECT_EQ(stats, (std::map<std::string, long long>{{"ok", records}})) << c.name << "\n"
                                                                          << r.err;
    EXPECT_TRUE(r.error_lines().empty()) << c.name << "\n" << r.err;
  }
}

// Graph breaks group by normalised reason and user location: the same print
// in a recompile of the frame joins its group, the same print elsewhere and
// another reason at the same place do not.
TEST(DoctorGrouping, GraphBreaksGroupByReasonAndPlace) {
  auto ids = [](json e, int frame, int fcid, int attempt) {
    e["frame_id"] = frame;
    e["frame_compile_id"] = fcid;
    e["attempt"] = attempt;
    return e;
  };
  auto print_reason = [](const std::string& types) {
    return "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace "
           "builtin operator `print` with argument types " +
           types + " (has_kwargs False)";
  };
  const std::string dd =
      "Data-dependent branching\n  Explanation: Detected data-dependent "
      "branching (e.g. `if my_tensor.sum() > 0:`).";
  // One compile: dynamo_start, the artifact at attempt 0, metrics at attempt 1
  // (restart) or 0 (no restart).
  auto compile = [&](int frame, int fcid, const std::string& where, const std::string& why,
                     bool restart) {
    std::string log = record(ids({{"dynamo_start", {{"stack", json::array()}}}}, frame, fcid, 0));
    if (fcid > 0)
      log += record(ids({{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}}},
                        frame, fcid, 0),
                    json::array({std::to_string(frame) + "/0: tensor 'x' size mismatch at index "
                                                         "0. expected 2, actual 3"})
                        .dump());
    log +=
        record(ids({{"artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}}},
                   frame, fcid, 0),
               "Graph break in user code at " + where + "\nGraph Break Reason: " + why + "\n");
    json m = {{"co_name", "fn"},
              {"co_filename", "/p/a.py"},
              {"co_firstlineno", 1},
              {"entire_frame_compile_time_s", 0.5},
              {"restart_reasons", restart ? json::array({why}) : json::array()}};
    return log + record(ids({{"compilation_metrics", m}}, frame, fcid, restart ? 1 : 0));
  };
  std::string log = compile(0, 0, "/p/a.py:10", print_reason("['str', 'int']"), true) +
                    compile(0, 1, "/p/a.py:10", print_reason("['str', 'float']"), true) +
                    compile(1, 0, "/p/b.py:20", print_reason("['str', 'int']"), true) +
                    compile(2, 0, "/p/a.py:10", dd, false) + compile(2, 1, "/p/a.py:10", dd, false);
  TempDir tmp;
  write_file(tmp / "g.log", log);
  json s = summary_json(tmp / "g.log", tmp.path());
  EXPECT_EQ(s["totals"]["graph_breaks"], 5);
  EXPECT_EQ(s["totals"]["recompiles"], 2);
  std::map<std::string, std::string> got;  // "reason @ place" -> "category count ids"
  for (const auto& g : s["graph_breaks"]) {
    std::string ids_s;
    for (const auto& id : strings_of(g["compile_ids"])) ids_s += " " + id;
    got[g["reason"].get<std::string>() + " @ " + g["user_frame"].get<std::string>()] =
        g["category"].get<std::string>() + " " + std::to_string(g["count"].get<int>()) + ids_s;
  }
  EXPECT_EQ(got, (std::map<std::string, std::string>{
                     {"Failed to trace builtin operator @ /p/a.py:10", "print_logging 2 0/0 0/1"},
                     {"Failed to trace builtin operator @ /p/b.py:20", "print_logging 1 1/0"},
                     {"Data-dependent branching @ /p/a.py:10", "data_dependent 2 2/0 2/1"}}))
      << s["graph_breaks"].dump(1);
  // Most frequent first; one advice per class with every compile id.
  EXPECT_EQ(s["graph_breaks"][2]["count"], 1);
  auto advice = advice_ids(s);
  EXPECT_EQ(advice["print_logging"], (std::vector<std::string>{"0/0", "0/1", "1/0"}));
  EXPECT_EQ(advice["data_dependent"], (std::vector<std::string>{"2/0", "2/1"}));
  EXPECT_EQ(advice["shape"], (std::vector<std::string>{"0/1", "2/1"}));
}

}  // namespace
}  // namespace tlscope_test
