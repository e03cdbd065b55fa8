// TORCH_LOGS text read by the doctor (issue 22): each fixture of
// tests/data/torch_logs (written for the forms of spec/TORCH_LOGS.md: every
// prefix, eras mixed in one file, a paste with noise, indentation and CRLF)
// counted exactly; standard input reads as the file does; input that is
// neither a trace nor text is an error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {
namespace {

using nlohmann::json;
const fs::path kText = fs::path(TLSCOPE_DATA) / "torch_logs";

struct Frame {
  std::string name;
  int compiles, recompiles;
  bool limit;
  std::vector<std::string> reason_classes;
};
struct Break {
  std::string category;
  int count;
  std::string user_frame;
};
struct Fixture {
  std::string file;
  int lines, other_lines, guard_dumps;
  int recompiles, graph_breaks, limit_hits;
  std::vector<Frame> frames;  // those with recompiles or a limit hit, in summary order
  std::vector<Break> breaks;
};

const std::vector<Fixture> kFixtures = {
    {"glog_2024.txt",
     27,
     4,
     1,
     2,
     2,
     1,
     {{"forward", 3, 2, true, {"shape", "train_eval", "shape"}}},
     {{"print_logging", 2, "/home/ann/proj/model.py:20"}}},
    {"eras_mixed.txt",
     51,
     0,
     2,
     5,
     7,
     2,
     {{"g", 4, 3, true, {"constant", "constant", "constant"}},
      {"prep", 2, 1, false, {"tensor_property"}},
      {"torch_dynamo_resume_in_forward_at_836", 2, 1, false, {"shape"}},
      {"fwd", 1, 0, true, {}}},
     {{"unsupported_builtin", 1, "/a/c.py:30"},
      {"skipped", 1, "/a/d.py:11"},
      {"data_dependent", 1, "/a/e.py:5"},
      {"skipped", 1, "/a/f.py:3"},
      {"skipped", 1, "/a/g.py:7"},
      {"data_dependent", 1, "/a/h.py:9"},
      {"context_manager", 1, "/a/i.py:40"}}},
    {"paste_crlf.txt",
     16,
     2,
     0,
     2,
     2,
     0,
     {{"g", 3, 2, false, {"constant", "constant", "constant"}}},
     {{"autograd", 2, "/a/b.py:9"}}},
    // Shapes seen in real pastes: a prefix glued after a program's output
    // on one line, the one-word logger of 2022 with WONT CONVERT, two frames
    // of one name in one file told apart by their first line, a prefix cut
    // down to `[0/1] [__recompiles]`, a limit hit that names no function.
    {"pasted_shapes.txt",
     20,
     4,
     0,
     1,
     2,
     3,
     {{"decode", 2, 1, false, {"constant"}},
      {"forward", 1, 0, true, {}},
      {"forward", 1, 0, true, {}},
      {"", 1, 0, true, {}}},
     {{"unsupported_builtin", 1, "/srv/demo/layers.py:40"},
      {"skipped", 1, "tests/test_demo.py:120"}}},
};

class TorchLogs : public ::testing::TestWithParam<Fixture> {
 protected:
  TempDir tmp_;
};

TEST_P(TorchLogs, CountsEveryRecordExactly) {
  const Fixture& f = GetParam();
  RunResult r = run_tlscope({"summary", (kText / f.file).string(), "--json"}, tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  json s = json::parse(r.out);
  EXPECT_EQ(s["source"]["kind"], "torch_logs");
  EXPECT_EQ(s["source"]["text"]["lines"], f.lines);
  EXPECT_EQ(s["source"]["text"]["other_lines"], f.other_lines);
  EXPECT_EQ(s["source"]["text"]["guard_dumps"], f.guard_dumps);
  EXPECT_EQ(s["totals"]["recompiles"], f.recompiles);
  EXPECT_EQ(s["totals"]["graph_breaks"], f.graph_breaks);
  EXPECT_EQ(s["totals"]["recompile_limit_hits"], f.limit_hits);
  std::vector<json> frames;
  for (const auto& fr : s["frames"])
    if (fr["recompiles"] > 0 || fr["recompile_limit_hit"] == true) frames.push_back(fr);
  ASSERT_EQ(frames.size(), f.frames.size()) << s["frames"].dump(1);
  for (size_t i = 0; i < frames.size(); ++i) {
    SCOPED_TRACE(f.frames[i].name);
    EXPECT_EQ(frames[i]["name"], f.frames[i].name);
    EXPECT_EQ(frames[i]["compiles"], f.frames[i].compiles);
    EXPECT_EQ(frames[i]["recompiles"], f.frames[i].recompiles);
    EXPECT_EQ(frames[i]["recompile_limit_hit"], f.frames[i].limit);
    std::vector<std::string> classes;
    for (const auto& rr : frames[i]["recompile_reasons"]) classes.push_back(rr["category"]);
    EXPECT_EQ(classes, f.frames[i].reason_classes);
  }
  ASSERT_EQ(s["graph_breaks"].size(), f.breaks.size()) << s["graph_breaks"].dump(1);
  for (size_t i = 0; i < f.breaks.size(); ++i) {
    const json& g = s["graph_breaks"][i];
    EXPECT_EQ(g["category"], f.breaks[i].category) << g.dump();
    EXPECT_EQ(g["count"], f.breaks[i].count) << g.dump();
    EXPECT_EQ(g["user_frame"], f.breaks[i].user_frame) << g.dump();
  }
}

// `python train.py 2>&1 | tlscope summary -` reads as the saved file does.
TEST_P(TorchLogs, StandardInputReadsAsTheFile) {
  const Fixture& f = GetParam();
  fs::path file = kText / f.file;
  RunResult from_file = run_tlscope({"summary", file.string()}, tmp_.path());
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  fs::path out = tmp_ / "stdin.txt";
  ASSERT_EQ(run_shell("'" + std::string(TLSCOPE_BIN) + "' summary - < '" + file.string() + "' > '" +
                      out.string() + "'"),
            0);
  std::string piped = read_file(out);
  // Only the header line names the input.
  auto body = [](const std::string& s) { return s.substr(s.find('\n')); };
  EXPECT_EQ(body(piped), body(from_file.out));
}

TEST_P(TorchLogs, CheckAppliesItsLimits) {
  const Fixture& f = GetParam();
  fs::path file = kText / f.file;
  RunResult ok =
      run_tlscope({"check", file.string(), "--max-recompiles", std::to_string(f.recompiles),
                   "--max-graph-breaks", std::to_string(f.graph_breaks)},
                  tmp_.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  RunResult over = run_tlscope(
      {"check", file.string(), "--max-recompiles", std::to_string(f.recompiles - 1)}, tmp_.path());
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_EQ(over.out, "tlscope check: recompiles: " + std::to_string(f.recompiles) + " > " +
                          std::to_string(f.recompiles - 1) + "\n");
}

std::string name_of(const ::testing::TestParamInfo<Fixture>& info) {
  return param_name(info.param.file);
}
INSTANTIATE_TEST_SUITE_P(Fixtures, TorchLogs, ::testing::ValuesIn(kFixtures), name_of);

TEST(TorchLogsInput, NeitherTraceNorTextIsAnError) {
  TempDir tmp;
  write_file(tmp / "notes.txt", "hello\nworld\n");
  write_file(tmp / "empty.log", "");
  for (const char* cmd : {"summary", "check"}) {
    RunResult r = run_tlscope({cmd, (tmp / "notes.txt").string()}, tmp.path());
    EXPECT_EQ(r.exit_code, 1) << cmd;
    EXPECT_EQ(r.err, "Error: " + (tmp / "notes.txt").string() +
                         " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in it is a "
                         "trace record or a TORCH_LOGS message\n");
    r = run_tlscope({cmd, (tmp / "empty.log").string()}, tmp.path());
    EXPECT_EQ(r.exit_code, 1) << cmd;
    EXPECT_EQ(r.err, "Error: " + (tmp / "empty.log").string() +
                         " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text\n");
  }
  // A trace log stays a trace log.
  RunResult t = run_tlscope(
      {"summary", (fs::path(TLSCOPE_EXAMPLES) / "example.log").string(), "--json"}, tmp.path());
  ASSERT_EQ(t.exit_code, 0);
  EXPECT_EQ(json::parse(t.out)["source"]["kind"], "torch_trace");
}

// Hostile text: a 50 MB line, binary noise, a record of 100,000 lines. Each
// ends cleanly with the counts it holds, in bounded time and memory.
TEST(TorchLogsInput, HostileText) {
  TempDir tmp;
  write_file(tmp / "long.txt", "Graph break in user code at /a/b.py:3 " +
                                   std::string(50u << 20, 'x') + "\nReason: Unsupported: x\n");
  RunResult r = run_tlscope({"summary", (tmp / "long.txt").string(), "--json"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
  EXPECT_EQ(json::parse(r.out)["totals"]["graph_breaks"], 1);

  std::string noise;
  uint32_t x = 7;
  for (int i = 0; i < (1 << 20); ++i)
    noise.push_back(static_cast<char>((x = x * 1103515245 + 12345) >> 16));
  write_file(tmp / "binary.bin", noise);
  r = run_tlscope({"summary", (tmp / "binary.bin").string()}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is neither a TORCH_TRACE log nor TORCH_LOGS text"), std::string::npos)
      << r.err.substr(0, 500);

  std::string many =
      "Recompiling function f in /a/b.py:3\n    triggered by the following guard failure(s):\n";
  for (int i = 0; i < 100000; ++i) many += "    - L['n'] == " + std::to_string(i) + "\n";
  many += "Recompiling function f in /a/b.py:3\n    - L['n'] == -1\n";
  write_file(tmp / "many.txt", many);
  r = run_tlscope({"summary", (tmp / "many.txt").string(), "--json"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(r.out);
  EXPECT_EQ(s["totals"]["recompiles"], 2);
  EXPECT_EQ(s["source"]["text"]["lines"], 100004);
}

}  // namespace
}  // namespace tlscope_test
