// Compile doctor on real logs: the tlparse corpus and our PyTorch 2.11
// recordings (tests/data/recorded). The expected numbers were read off the
// logs by hand (zcat | grep compilation_metrics / recompile_reasons /
// dynamo_graph_break_reason): frames, compiles (distinct frame/compile ids of
// compilation_metrics), recompiles (frame_compile_id >= 1), graph breaks
// (restart_reasons, else dynamo_graph_break_reason artifacts) and failures
// (fail_type set). `summary --json` and the report's summary.json must agree.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "doctor_helpers.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

struct Frame {
  int id;
  std::string name, filename;
  int line, compiles, recompiles, restarts, failures;
  bool limit_hit;
};

struct Break {
  std::string category, reason;
  int count;
  std::vector<std::string> ids;
  std::string user_frame;
};

struct Failure {
  std::string compile_id, fail_type, reason_start;
};

struct Log {
  std::string name;
  fs::path path;
  int frames, compiles, recompiles, graph_breaks, failures;
  double seconds;
  std::vector<Frame> frame_list;
  int reasons;                  // recompile reason entries over all frames
  std::string reason_category;  // of every entry
  std::string first_reason;     // "id|failed|reason" that must be among them
  std::map<std::string, std::vector<std::string>> advice;  // internal_restart aside
  std::vector<Break> breaks;                               // internal_restart aside
  std::vector<Failure> failures_list;
};

std::ostream& operator<<(std::ostream& os, const Log& l) { return os << l.name; }

const std::string kOpt = "/opt/torch/.venv/lib/python3.12/site-packages/torch/optim/";
const std::string kManyFrames = "/Users/skarjala/Desktop/tlparse/tests/gen_many_frames.py";
const std::string kTestMisc = "/data/users/jjwu/a/pytorch/test/dynamo/test_misc.py";
const std::string kXmfanMisc = "/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py";

std::vector<Log> all_logs() {
  const fs::path rec = kRecorded;
  // Paths only: the list is built before any test runs, corpus or not.
  const fs::path corpus = kCorpusRoot / "tlparse" / "inputs";
  return {
      // 15 compiles of one frame with a raised cache limit: no compile failed,
      // so the recompile limit was not reached.
      {"multi_rank_1",
       corpus / "multi_rank_logs/dedicated_log_torch_trace_rank_1.log",
       1,
       15,
       14,
       0,
       0,
       4.573422,
       {{0, "kernel", kManyFrames, 6, 15, 14, 0, 0, false}},
       105,
       "shape",
       "0/1|0/0|tensor 'x' size mismatch at index 0. expected 2, actual 3",
       {{"shape", id_range(0, 1, 14)}},
       {},
       {}},
      {"multi_rank_3",
       corpus / "multi_rank_logs/dedicated_log_torch_trace_rank_3.log",
       1,
       7,
       6,
       0,
       0,
       10.518427,
       {{0, "kernel", kManyFrames, 6, 7, 6, 0, 0, false}},
       21,
       "shape",
       "0/6|0/5|tensor 'x' size mismatch at index 0. expected 7, actual 8",
       {{"shape", id_range(0, 1, 6)}},
       {},
       {}},
      {"collectives_parity",
       corpus / "collectives_parity/dedicated_log_torch_trace_rank_0.log",
       1,
       4,
       3,
       0,
       0,
       6.660633,
       {{0, "inner", "/home/skarjala/pytorch/torch/_dynamo/external_utils.py", 66, 4, 3, 0, 0,
         false}},
       3,
       "object_identity",
       "0/2|0/0|___check_obj_id(fn, 140439264606080)",
       {{"object_identity", id_range(0, 1, 3)}},
       {},
       {}},
      // Older PyTorch: torch._dynamo.graph_break() as a skipped function, twice.
      {"comp_metrics",
       corpus / "comp_metrics.log",
       3,
       3,
       0,
       2,
       0,
       0.02303147315979004,
       {{0, "fn", kTestMisc, 9549, 1, 0, 1, 0, false},
        {1, "torch_dynamo_resume_in_fn_at_9551", kTestMisc, 9551, 1, 0, 1, 0, false},
        {2, "torch_dynamo_resume_in_fn_at_9553", kTestMisc, 9553, 1, 0, 0, 0, false}},
       0,
       "",
       "",
       {{"explicit_graph_break", {"0/0", "1/0"}}},
       {{"explicit_graph_break",
         "'skip function graph_break in file "
         "/data/users/jjwu/a/pytorch/torch/_dynamo/decorators.py'",
         2,
         {"0/0", "1/0"},
         ""}},
       {}},
      // Times in microseconds only (dynamo_cumulative_compile_time_us).
      {"comp_failure",
       corpus / "comp_failure.log",
       1,
       1,
       0,
       0,
       1,
       0.157247,
       {{0, "fn", kXmfanMisc, 10755, 1, 0, 0, 1, false}},
       0,
       "",
       "",
       {{"compile_error", {"0/0"}}},
       {},
       {{"0/0", "BackendCompilerFailed",
         "backend='broken_backend' raised:\nRuntimeError: broken backend"}}},
      {"chromium_events",
       corpus / "chromium_events.log",
       1,
       1,
       0,
       0,
       1,
       0.157247,
       {{0, "fn", kXmfanMisc, 10755, 1, 0, 0, 1, false}},
       0,
       "",
       "",
       {{"compile_error", {"0/0"}}},
       {},
       {{"0/0", "BackendCompilerFailed",
         "backend='broken_backend' raised:\nRuntimeError: broken backend"}}},
      // recompile_limit = 4: 0/4 fails with "Dynamo recompile limit exceeded".
      {"recorded_recompile_limit",
       rec / "recompile_limit.log.gz",
       1,
       5,
       4,
       0,
       1,
       1.123418,
       {{0, "f", "<string>", 10, 5, 4, 0, 1, true}},
       10,
       "shape",
       "0/4|0/0|tensor 'x' size mismatch at index 0. expected 2, actual 6",
       {{"shape", id_range(0, 1, 4)},
        {"recompile_limit", id_range(0, 0, 4)},
        {"compile_error", {"0/4"}}},
       {},
       {{"0/4", "Unsupported",
         "Dynamo recompile limit exceeded\n  Explanation: Dynamo attempted"}}},
      // Adam + ExponentialLR with a float lr. Two graph breaks (a skipped
      // function, the optimizer's own torch._dynamo.graph_break()); 2/1_1 is a
      // TensorifyScalarRestartAnalysis restart, which is not a graph break.
      {"recorded_adam_exponential_lr",
       rec / "adam_exponential_lr.log.gz",
       4,
       7,
       3,
       2,
       0,
       2.934475,
       {{0, "step", "<string>", 7, 1, 0, 1, 0, false},
        {1, "wrapper", kOpt + "optimizer.py", 512, 1, 0, 1, 0, false},
        {2, "step", kOpt + "adam.py", 214, 4, 3, 1, 0, false},
        {3, "torch_dynamo_resume_in_wrapper_at_533", kOpt + "optimizer.py", 533, 1, 0, 0, 0,
         false}},
       6,
       "optimizer_constant",
       "2/1|2/0|self.param_groups[0]['lr'] == 0.01                       # for group in "
       "self.param_groups:  # optim/adam.py:229 in step",
       {{"optimizer_constant", id_range(2, 1, 3)},
        {"skipped", {"0/0"}},
        {"explicit_graph_break", {"1/0"}}},
       {{"skipped", "Attempted to call function marked as skipped", 1, {"0/0"}, "<string>:9"},
        {"explicit_graph_break",
         "Call to `torch._dynamo.graph_break()`",
         1,
         {"1/0"},
         kOpt + "optimizer.py:80"}},
       {}},
      {"recorded_print_graph_break",
       rec / "print_graph_break.log.gz",
       2,
       2,
       0,
       1,
       0,
       1.438372,
       {{0, "f", "<string>", 4, 1, 0, 1, 0, false},
        {1, "torch_dynamo_resume_in_f_at_7", "<string>", 7, 1, 0, 0, 0, false}},
       0,
       "",
       "",
       {{"print_logging", {"0/0"}}},
       {{"print_logging", "Failed to trace builtin operator", 1, {"0/0"}, "<string>:7"}},
       {}},
      {"recorded_explicit_graph_break",
       rec / "explicit_graph_break.log.gz",
       2,
       2,
       0,
       1,
       0,
       1.0500099999999999,
       {{0, "f", "<string>", 5, 1, 0, 1, 0, false},
        {1, "torch_dynamo_resume_in_f_at_8", "<string>", 8, 1, 0, 0, 0, false}},
       0,
       "",
       "",
       {{"explicit_graph_break", {"0/0"}}},
       {{"explicit_graph_break",
         "Call to `torch._dynamo.graph_break()`",
         1,
         {"0/0"},
         "<string>:8"}},
       {}},
      // No restart: the artifact of 0/0 is the only record of the break.
      {"recorded_data_dependent_branch",
       rec / "data_dependent_branch.log.gz",
       3,
       3,
       0,
       1,
       0,
       1.289135,
       {{0, "f", "<string>", 4, 1, 0, 0, 0, false},
        {1, "torch_dynamo_resume_in_f_at_6", "<string>", 6, 1, 0, 0, 0, false},
        {2, "torch_dynamo_resume_in_f_at_6", "<string>", 6, 1, 0, 0, 0, false}},
       0,
       "",
       "",
       {{"data_dependent", {"0/0"}}},
       {{"data_dependent", "Data-dependent branching", 1, {"0/0"}, "<string>:6"}},
       {}},
      {"recorded_float_constant",
       rec / "float_constant.log.gz",
       1,
       2,
       1,
       0,
       0,
       0.9786649999999999,
       {{0, "f", "<string>", 4, 2, 1, 0, 0, false}},
       1,
       "constant",
       "0/1|0/0|c == 0.5                                                 #   # <string>:6 in f",
       {{"constant", {"0/1"}}},
       {},
       {}},
      {"recorded_shape_change",
       rec / "shape_change.log.gz",
       1,
       2,
       1,
       0,
       0,
       1.21841,
       {{0, "f", "<string>", 4, 2, 1, 0, 0, false}},
       1,
       "shape",
       "0/1|0/0|tensor 'x' size mismatch at index 0. expected 3, actual 4",
       {{"shape", {"0/1"}}},
       {},
       {}},
      {"recorded_compile_error",
       rec / "compile_error.log.gz",
       1,
       1,
       0,
       0,
       1,
       0.104093,
       {{0, "f", "<string>", 8, 1, 0, 0, 1, false}},
       0,
       "",
       "",
       {{"compile_error", {"0/0"}}},
       {},
       {{"0/0", "BackendCompilerFailed",
         "backend='broken_backend' raised:\nRuntimeError: deliberate failure in the backend"}}},
  };
}

// The logs of the corpus (when it is there) or our recorded ones.
std::vector<Log> logs(bool from_corpus) {
  std::vector<Log> v;
  if (from_corpus && !corpus_present()) return v;
  const std::string root = kCorpusRoot.string();
  for (auto& l : all_logs())
    if ((l.path.string().rfind(root, 0) == 0) == from_corpus) v.push_back(l);
  return v;
}

class DoctorLog : public ::testing::TestWithParam<Log> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(GetParam().path)) << GetParam().path;
    s_ = summary_json(GetParam().path, tmp_.path());
    ASSERT_TRUE(s_.is_object());
  }
  TempDir tmp_;
  json s_;
};

TEST_P(DoctorLog, Totals) {
  const Log& l = GetParam();
  const json& t = s_["totals"];
  EXPECT_EQ(t["frames"], l.frames) << t;
  EXPECT_EQ(t["compiles"], l.compiles) << t;
  EXPECT_EQ(t["recompiles"], l.recompiles) << t;
  EXPECT_EQ(t["graph_breaks"], l.graph_breaks) << t;
  EXPECT_EQ(t["failures"], l.failures) << t;
  EXPECT_NEAR(t["compile_time_s"].get<double>(), l.seconds, 1e-6) << t;
  EXPECT_EQ(t["runs"], 1) << t;  // none of these logs was reset
}

TEST_P(DoctorLog, Frames) {
  const Log& l = GetParam();
  ASSERT_EQ(s_["frames"].size(), l.frame_list.size()) << s_["frames"].dump(1);
  for (const Frame& e : l.frame_list) {
    json f = frame_of(s_, e.id);
    ASSERT_TRUE(f.is_object()) << "frame " << e.id;
    SCOPED_TRACE("frame " + std::to_string(e.id));
    EXPECT_EQ(f["name"], e.name);
    EXPECT_EQ(f["filename"], e.filename);
    EXPECT_EQ(f["line"], e.line);
    EXPECT_EQ(f["compiles"], e.compiles);
    EXPECT_EQ(f["recompiles"], e.recompiles);
    EXPECT_EQ(f["restarts"], e.restarts);
    EXPECT_EQ(f["failures"], e.failures);
    EXPECT_EQ(f["recompile_limit_hit"], e.limit_hit);
    EXPECT_EQ(f["compile_ids"].size(), static_cast<size_t>(e.compiles));
  }
  // Ranked: most recompiled first.
  for (size_t i = 1; i < s_["frames"].size(); ++i)
    EXPECT_GE(s_["frames"][i - 1]["recompiles"], s_["frames"][i]["recompiles"]);
}

TEST_P(DoctorLog, RecompileReasons) {
  const Log& l = GetParam();
  auto all = all_reasons(s_);
  ASSERT_EQ(all.size(), static_cast<size_t>(l.reasons)) << s_["frames"].dump(1);
  for (const auto& r : all)
    EXPECT_NE(r.find("|" + l.reason_category + "|"), std::string::npos) << r;
  if (!l.first_reason.empty()) {
    auto bar = l.first_reason.find('|', l.first_reason.find('|') + 1);
    std::string want =
        l.first_reason.substr(0, bar) + "|" + l.reason_category + l.first_reason.substr(bar);
    EXPECT_NE(std::find(all.begin(), all.end(), want), all.end()) << "missing " << want;
  }
}

TEST_P(DoctorLog, GraphBreaks) {
  const Log& l = GetParam();
  std::vector<Break> got;
  for (const auto& g : s_["graph_breaks"]) {
    if (g["category"] == "internal_restart") continue;
    got.push_back(
        {g["category"], g["reason"], g["count"], strings_of(g["compile_ids"]), g["user_frame"]});
  }
  ASSERT_EQ(got.size(), l.breaks.size()) << s_["graph_breaks"].dump(1);
  int counted = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(l.breaks[i].reason);
    EXPECT_EQ(got[i].category, l.breaks[i].category);
    EXPECT_EQ(got[i].reason, l.breaks[i].reason);
    EXPECT_EQ(got[i].count, l.breaks[i].count);
    EXPECT_EQ(got[i].ids, l.breaks[i].ids);
    EXPECT_EQ(got[i].user_frame, l.breaks[i].user_frame);
    counted += got[i].count;
  }
  EXPECT_EQ(counted, l.graph_breaks);
}

TEST_P(DoctorLog, Failures) {
  const Log& l = GetParam();
  const json& fs_ = s_["failures"];
  ASSERT_EQ(fs_.size(), l.failures_list.size()) << fs_.dump(1);
  for (size_t i = 0; i < fs_.size(); ++i) {
    EXPECT_EQ(fs_[i]["compile_id"], l.failures_list[i].compile_id);
    EXPECT_EQ(fs_[i]["fail_type"], l.failures_list[i].fail_type);
    EXPECT_EQ(fs_[i]["reason"].get<std::string>().rfind(l.failures_list[i].reason_start, 0), 0u)
        << fs_[i]["reason"];
    EXPECT_EQ(fs_[i]["user_frame"], "");  // PyTorch logged no user frame for these
    EXPECT_EQ(fs_[i]["ran_eagerly"], true);
  }
}

TEST_P(DoctorLog, Advice) {
  const Log& l = GetParam();
  auto got = advice_ids(s_);
  auto want = l.advice;
  got.erase("internal_restart");
  drop_limit_failure_advice(&got, &want);
  EXPECT_EQ(got, want) << s_["advice"].dump(1);
}

TEST_P(DoctorLog, ReportSummaryJsonAgreesWithSummaryJson) {
  json rep = report_summary(GetParam().path, tmp_ / "report", tmp_.path());
  ASSERT_TRUE(rep.is_object());
  json a = s_, b = rep;
  EXPECT_TRUE(has(b["source"]["command_line"].get<std::string>(), "-o"));
  a["source"].erase("command_line");
  b["source"].erase("command_line");
  EXPECT_EQ(a, b) << "summary --json:\n"
                  << a.dump(1).substr(0, 3000) << "\nsummary.json:\n"
                  << b.dump(1).substr(0, 3000);
  EXPECT_EQ(a["source"]["log"], GetParam().path.string());
}

std::string log_name(const ::testing::TestParamInfo<Log>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Corpus, DoctorLog, ::testing::ValuesIn(logs(true)), log_name);
INSTANTIATE_TEST_SUITE_P(Recorded, DoctorLog, ::testing::ValuesIn(logs(false)), log_name);

// Recorded with PyTorch 2.11 (tests/data/recorded/VERSIONS.txt).
TEST(DoctorVersion, RecordedLogsNameTheirPyTorch) {
  TempDir tmp;
  json s = summary_json(kRecorded / "shape_change.log.gz", tmp.path());
  EXPECT_EQ(s["source"]["pytorch_version"], "2.11.0+cu130");
}

TEST(DoctorCorpusVersion, NoVersionWhenTheLogHasNone) {
  TempDir tmp;
  json c = summary_json(corpus_inputs() / "comp_metrics.log", tmp.path());
  EXPECT_TRUE(c["source"]["pytorch_version"].is_null()) << c["source"];
}

}  // namespace
}  // namespace tlscope_test
