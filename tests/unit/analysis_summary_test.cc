// The doctor in words (src/analysis/summary.h): the totals line, the
// terminal summary and summary.json, on doctors of logs written here.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/doctor.h"
#include "analysis/ranks.h"
#include "analysis/summary.h"
#include "analysis/text.h"
#include "analysis_log.h"
#include "model/report_model.h"

namespace tlscope::analysis {
namespace {

using namespace analysis_log;  // the log builder (analysis_log.h)
using nlohmann::json;
using Strings = std::vector<std::string>;

// A log with something in every section: a frame recompiled twice for
// shapes, one switched to eval() once, a graph break with its place, a
// failed compile and a failure outside any frame.
std::string busy_log() {
  return at(0, 0, start()) +
         at(0, 0, metrics("forward", 2.0, {{"pytorch_version", "2.6.0+cu124"}})) +
         recompile(0, 1, {"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 16"},
                   "forward", 1.0) +
         recompile(0, 2,
                   {"0/0: tensor 'x' size mismatch at index 0. expected 8, actual 32",
                    "0/1: tensor 'x' size mismatch at index 0. expected 16, actual 32"},
                   "forward", 0.5) +
         at(1, 0, start()) + at(1, 0, metrics("evaluate", 0.25)) +
         recompile(1, 1, {"1/0: L['self'].training == True"}, "evaluate", 0.25) +
         at(2, 0, start()) +
         at(2, 0, artifact("dynamo_graph_break_reason", "string"),
            std::string("Graph break in user code at /home/u/model.py:42\nGraph Break Reason: "
                        "Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted "
                        "graph break.")) +
         at(2, 0, metrics("with_break", 0.5)) + at(3, 0, start()) +
         at(3, 0,
            metrics("broken", 0.5,
                    {{"fail_type", "BackendCompilerFailed"},
                     {"fail_reason", "backend='inductor' raised:\nRuntimeError: boom"}})) +
         rec(artifact("fx_interpreter_error", "string"),
             std::string("Traceback (most recent call last):\n  File \"/home/u/export_me.py\", "
                         "line 7, in f\nValueError: shapes do not match"));
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Strings lines_of(const std::string& text) {
  Strings out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The line that holds `part`, "" if none.
std::string line_with(const std::string& text, const std::string& part) {
  for (const auto& l : lines_of(text))
    if (has(l, part)) return l;
  return "";
}

TEST(TotalsLine, CountsWithPluralsAndTime) {
  Totals t;
  t.frames = 1;
  t.compiles = 3;
  t.recompiles = 2;
  t.compile_time_s = 1.25;
  EXPECT_EQ(totals_line(t),
            "1 frame, 3 compiles, 2 recompiles, 0 graph breaks, 0 failures, 1.25 s compiling");
  t = Totals{};
  t.frames = 2;
  t.compiles = 1;
  t.recompiles = 1;
  t.graph_breaks = 1;
  t.failures = 2;
  t.compile_time_s = 0.004;
  EXPECT_EQ(totals_line(t),
            "2 frames, 1 compile, 1 recompile, 1 graph break, 2 failures, 0.00 s compiling");
  EXPECT_EQ(totals_line(Totals{}),
            "0 frames, 0 compiles, 0 recompiles, 0 graph breaks, 0 failures, 0.00 s compiling");
}

// TORCH_LOGS text has no times: the limit hits take their place.
TEST(TotalsLine, UntimedTextCountsLimitHitsInstead) {
  Totals t;
  t.timed = false;
  t.frames = 1;
  t.compiles = 9;
  t.recompiles = 8;
  t.recompile_limit_hits = 1;
  t.compile_time_s = 5;
  EXPECT_EQ(totals_line(t),
            "1 frame, 9 compiles, 8 recompiles, 0 graph breaks, 0 failures, "
            "1 recompile limit hit");
  t.recompile_limit_hits = 2;
  EXPECT_TRUE(has(totals_line(t), ", 2 recompile limit hits"));
  EXPECT_FALSE(has(totals_line(t), "compiling"));
}

TEST(SummaryText, EmptyLogSaysNothingWasCompiled) {
  model::ReportModel empty;
  std::string s = summary_text(diagnose(empty), "/tmp/empty.log", false);
  EXPECT_EQ(s,
            "tlscope summary: /tmp/empty.log\n"
            "0 frames, 0 compiles, 0 recompiles, 0 graph breaks, 0 failures, 0.00 s compiling\n"
            "Nothing was compiled: the log holds no frame, graph break or failure.\n");
}

TEST(SummaryText, EverySectionSaysWhatTheLogHolds) {
  DoctorReport d = diagnose_log(busy_log());
  std::string s = summary_text(d, "busy.log", false);
  SCOPED_TRACE(s);
  Strings lines = lines_of(s);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "tlscope summary: busy.log");
  EXPECT_EQ(lines[1], "PyTorch 2.6.0+cu124");
  EXPECT_EQ(lines[2], totals_line(d.totals));
  EXPECT_EQ(lines[2],
            "4 frames, 7 compiles, 3 recompiles, 1 graph break, 2 failures, 5.00 s compiling");
  EXPECT_FALSE(has(s, "Nothing was compiled"));
  EXPECT_FALSE(has(s, "\033["));  // no colour unless asked

  // Frames: the most recompiled first, each with its row and its reasons,
  // one line per pattern.
  EXPECT_TRUE(has(s, "Frames (most recompiled first)"));
  std::string fwd = line_with(s, " forward ");
  ASSERT_FALSE(fwd.empty());
  std::istringstream cells(fwd);
  std::string frame, name, compiles, recompiles, restarts, time;
  cells >> frame >> name >> compiles >> recompiles >> restarts >> time;
  EXPECT_EQ(Strings({frame, name, compiles, recompiles, restarts, time}),
            (Strings{"0", "forward", "3", "2", "0", "3.500"}));
  EXPECT_LT(s.find(" forward "), s.find(" evaluate "));
  EXPECT_TRUE(has(s,
                  "2x [shape] (0/1 0/2) tensor 'x' size mismatch at index 0. expected 8, "
                  "actual 16\n"));
  EXPECT_TRUE(has(s, "1x [train_eval] (1/1) L['self'].training == True\n"));
  // Two rows of frames that compiled once and cleanly, and nothing hidden.
  EXPECT_FALSE(line_with(s, " with_break ").empty());
  EXPECT_FALSE(line_with(s, " broken ").empty());
  EXPECT_FALSE(has(s, "more frames compiled once"));

  EXPECT_TRUE(has(s, "\nGraph breaks\n"));
  EXPECT_TRUE(has(s,
                  "    1x [explicit_graph_break] Call to `torch._dynamo.graph_break()`\n"
                  "       at /home/u/model.py:42\n"));

  EXPECT_TRUE(has(s, "\nFailures\n"));
  EXPECT_TRUE(has(s, "  3/0 BackendCompilerFailed: RuntimeError: boom\n"));
  EXPECT_TRUE(has(s,
                  "  (no frame) fx_interpreter_error: ValueError: shapes do not match\n"
                  "       at /home/u/export_me.py:7\n"));

  // What to do before what is expected; each item with its compile ids.
  size_t todo = s.find("\nWhat to do\n"), expected = s.find("\nExpected\n");
  ASSERT_NE(todo, std::string::npos);
  ASSERT_NE(expected, std::string::npos);
  EXPECT_LT(todo, expected);
  std::string after_todo = s.substr(todo, expected - todo);
  EXPECT_TRUE(has(after_todo, "- [shape] Input sizes changed between calls of `forward`"));
  EXPECT_TRUE(has(after_todo, "(0/1 0/2)"));
  EXPECT_TRUE(has(after_todo, "- [explicit_graph_break]"));
  EXPECT_TRUE(has(after_todo, "- [compile_error]"));
  EXPECT_FALSE(has(after_todo, "[train_eval]"));
  std::string after_expected = s.substr(expected);
  EXPECT_TRUE(has(after_expected,
                  "- [train_eval] `evaluate` recompiled when a module was "
                  "switched"));
  EXPECT_TRUE(has(after_expected, "(1/1)"));
}

TEST(SummaryText, KeepsToTheWidthAndColoursOnlyWhenAsked) {
  DoctorReport d = diagnose_log(busy_log());
  for (size_t width : {80u, 100u}) {
    std::string s = summary_text(
        d, "/a/very/long/path/to/some/folder/of/logs/written/by/a/training/job/on/node7/busy.log",
        false, width);
    for (const auto& l : lines_of(s)) EXPECT_LE(l.size(), width) << l;
    // The header keeps the log's name when the path does not fit.
    EXPECT_EQ(lines_of(s)[0], "tlscope summary: .../busy.log");
  }
  // Narrower, the totals line and the frame table keep their width (the
  // name column is at least 28 wide); the reasons, breaks, failures and
  // advice are still cut or wrapped to it.
  std::string narrow = summary_text(d, "busy.log", false, 60);
  size_t checked = 0;
  for (const auto& l : lines_of(narrow))
    if (l.rfind("        ", 0) == 0 || l.rfind("- ", 0) == 0 || l.rfind("    1x", 0) == 0) {
      EXPECT_LE(l.size(), 60u) << l;
      ++checked;
    }
  EXPECT_GE(checked, 6u);
  EXPECT_TRUE(has(narrow, "        2x [shape] (0/1 0/2) tensor 'x' size mismatch at ...\n"))
      << narrow;  // the long shape reason was cut
  std::string colour = summary_text(d, "busy.log", true);
  EXPECT_TRUE(has(colour, "\033[1mtlscope summary\033[0m"));
  EXPECT_TRUE(has(colour, "\033[1mFrames\033[0m"));
}

// Control bytes from a log (an escape sequence in a function name, a \r in
// a reason) never reach the terminal: they are '?', in colour or not, and
// the doctor's own colour codes stay.
TEST(SummaryText, ControlBytesOfTheLogBecomeQuestionMarks) {
  std::string name = "f\u001b]0;owned\u0007\u001b[2J";
  std::string log = at(0, 0, start()) + at(0, 0, metrics(name, 2.0)) +
                    recompile(0, 1, {"0/0: L['x'] == 1\r\u001b[1A hidden"}, name, 1.0);
  DoctorReport d = diagnose_log(log);
  for (bool colour : {false, true}) {
    std::string s = summary_text(d, "ctl.log", colour);
    EXPECT_TRUE(has(s, "f?]0;owned??[2J")) << s;
    EXPECT_TRUE(has(s, "L['x'] == 1??[1A hidden")) << s;
    for (size_t i = 0; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == 0x1b) {
        ASSERT_TRUE(colour) << "escape without colour at " << i;
        std::string_view rest = std::string_view(s).substr(i);
        EXPECT_TRUE(rest.starts_with("\033[1m") || rest.starts_with("\033[33m") ||
                    rest.starts_with("\033[0m"))
            << rest.substr(0, 10);
      } else {
        EXPECT_TRUE(c == '\n' || (c >= 0x20 && c != 0x7f)) << int(c) << " at " << i;
      }
    }
  }
}

TEST(SummaryText, TerminalSafeKeepsTextAndOurColoursOnly) {
  EXPECT_EQ(terminal_safe("a\tb\r\nc\x7f", false), "a b?\nc?");
  EXPECT_EQ(terminal_safe("\033[1mx\033[0m \033[31my", true), "\033[1mx\033[0m ?[31my");
  EXPECT_EQ(terminal_safe("\033[1mx", false), "?[1mx");
  EXPECT_EQ(terminal_safe("csi\xc2\x9b" "2J \xc3\xa9t\xc3\xa9", false), "csi?2J \xc3\xa9t\xc3\xa9");
}

// Frames that compiled once and cleanly: the five slowest shown, the rest
// in one line (with their time), unless every frame is asked for.
TEST(SummaryText, QuietFramesBeyondTheSlowestFiveAreOneLine) {
  std::string log;
  for (int i = 0; i < 8; ++i)
    log += at(i, 0, start()) + at(i, 0, metrics("quiet" + std::to_string(i), 1.0 + i));
  DoctorReport d = diagnose_log(log);
  std::string s = summary_text(d, "quiet.log", false);
  SCOPED_TRACE(s);
  for (int i = 3; i < 8; ++i) EXPECT_TRUE(has(s, " quiet" + std::to_string(i) + " "));
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(has(s, " quiet" + std::to_string(i) + " "));
  // 1 + 2 + 3 s hidden.
  EXPECT_TRUE(has(s, "  ... 3 more frames compiled once, 6.00 s (--all lists them)\n"));
  // The slowest first.
  EXPECT_LT(s.find(" quiet7 "), s.find(" quiet3 "));

  std::string all = summary_text(d, "quiet.log", false, 100, true);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(has(all, " quiet" + std::to_string(i) + " "));
  EXPECT_FALSE(has(all, "more frames"));

  // Six quiet frames: hiding one would save nothing, so all six are shown.
  std::string six;
  for (int i = 0; i < 6; ++i)
    six += at(i, 0, start()) + at(i, 0, metrics("quiet" + std::to_string(i), 1.0));
  std::string s6 = summary_text(diagnose_log(six), "six.log", false);
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(has(s6, " quiet" + std::to_string(i) + " "));
}

TEST(SummaryText, SeveralRunsAreSaidAndLabelled) {
  std::string run =
      at(0, 0, start()) +
      at(0, 0,
         metrics("forward", 1.0,
                 {{"fail_type", "BackendCompilerFailed"}, {"fail_reason", "RuntimeError: boom"}}));
  DoctorReport d = diagnose_log(run + run);
  ASSERT_EQ(d.totals.runs, 2u);
  std::string s = summary_text(d, "runs.log", false);
  SCOPED_TRACE(s);
  EXPECT_TRUE(has(s, "This log holds 2 runs"));
  EXPECT_TRUE(has(s, "  0/0 (run 1) BackendCompilerFailed: RuntimeError: boom\n"));
  EXPECT_TRUE(has(s, "  0/0 (run 2) BackendCompilerFailed: RuntimeError: boom\n"));
  EXPECT_TRUE(has(s, "run frame"));
  EXPECT_TRUE(has(s, "(run 1: 0/0; run 2: 0/0)"));  // the advice's ids
}

TEST(SummaryText, TorchLogsTextHasNoTimes) {
  DoctorReport d = diagnose_log(at(0, 0, start()) + at(0, 0, metrics("forward", 1.5)));
  d.source_kind = "torch_logs";
  d.totals.timed = false;
  d.text_lines = 120;
  d.text_unknown_lines = 17;
  std::string s = summary_text(d, "train.txt", false);
  SCOPED_TRACE(s);
  EXPECT_TRUE(has(s, "TORCH_LOGS text: 120 lines, 17 of them not TORCH_LOGS messages."));
  EXPECT_FALSE(has(s, "1.500"));
  std::string row = line_with(s, " forward ");
  ASSERT_FALSE(row.empty());
  EXPECT_EQ(row.back(), '-');
}

TEST(SummaryJson, EmptyLog) {
  model::ReportModel empty;
  json j =
      json::parse(summary_json(diagnose(empty), "empty.log", "tlscope summary --json empty.log"));
  EXPECT_EQ(j["tool"]["name"], "tlscope");
  EXPECT_EQ(j["source"]["log"], "empty.log");
  EXPECT_EQ(j["source"]["kind"], "torch_trace");
  EXPECT_EQ(j["source"]["command_line"], "tlscope summary --json empty.log");
  EXPECT_TRUE(j["source"]["pytorch_version"].is_null());
  EXPECT_FALSE(j["source"].contains("text"));
  EXPECT_EQ(j["empty"], true);
  EXPECT_EQ(j["totals"]["frames"], 0);
  EXPECT_EQ(j["totals"]["runs"], 1);
  for (const char* k :
       {"frames", "graph_breaks", "failures", "advice", "expected", "slowest_compiles"}) {
    ASSERT_TRUE(j[k].is_array()) << k;
    EXPECT_TRUE(j[k].empty()) << k;
  }
}

TEST(SummaryJson, SaysWhatTheDoctorFound) {
  DoctorReport d = diagnose_log(busy_log());
  json j = json::parse(summary_json(d, "busy.log", "tlscope summary --json busy.log"));
  EXPECT_EQ(j["empty"], false);
  EXPECT_EQ(j["source"]["pytorch_version"], "2.6.0+cu124");
  EXPECT_EQ(j["totals"]["frames"], 4);
  EXPECT_EQ(j["totals"]["compiles"], 7);
  EXPECT_EQ(j["totals"]["recompiles"], 3);
  EXPECT_EQ(j["totals"]["graph_breaks"], 1);
  EXPECT_EQ(j["totals"]["failures"], 2);
  EXPECT_DOUBLE_EQ(j["totals"]["compile_time_s"].get<double>(), 5.0);

  ASSERT_EQ(j["frames"].size(), 4u);
  const json& fwd = j["frames"][0];
  EXPECT_EQ(fwd["name"], "forward");
  EXPECT_EQ(fwd["filename"], "/home/u/model.py");
  EXPECT_EQ(fwd["line"], 10);
  EXPECT_EQ(fwd["compile_ids"], json({"0/0", "0/1", "0/2"}));
  ASSERT_EQ(fwd["recompile_reasons"].size(), 3u);
  EXPECT_EQ(fwd["recompile_reasons"][2],
            json({{"compile_id", "0/2"},
                  {"failed_compile_id", "0/1"},
                  {"reason", "tensor 'x' size mismatch at index 0. expected 16, actual 32"},
                  {"category", "shape"}}));

  ASSERT_EQ(j["graph_breaks"].size(), 1u);
  EXPECT_EQ(j["graph_breaks"][0]["category"], "explicit_graph_break");
  EXPECT_EQ(j["graph_breaks"][0]["count"], 1);
  EXPECT_EQ(j["graph_breaks"][0]["compile_ids"], json({"2/0"}));
  EXPECT_EQ(j["graph_breaks"][0]["runs"], json({1}));
  EXPECT_EQ(j["graph_breaks"][0]["user_frame"], "/home/u/model.py:42");

  ASSERT_EQ(j["failures"].size(), 2u);
  EXPECT_EQ(j["failures"][0]["compile_id"], "3/0");
  EXPECT_EQ(j["failures"][0]["root_cause"], "RuntimeError: boom");
  EXPECT_EQ(j["failures"][0]["ran_eagerly"], true);
  EXPECT_TRUE(j["failures"][1]["compile_id"].is_null());
  EXPECT_TRUE(j["failures"][1]["run"].is_null());
  EXPECT_EQ(j["failures"][1]["outside_frame"], true);
  EXPECT_EQ(j["failures"][1]["artifacts"], json({"fx_interpreter_error"}));

  ASSERT_EQ(j["expected"].size(), 1u);
  EXPECT_EQ(j["expected"][0]["category"], "train_eval");
  EXPECT_EQ(j["expected"][0]["compile_ids"], json({"1/1"}));
  bool shape = false;
  for (const auto& a : j["advice"])
    if (a["category"] == "shape") {
      shape = true;
      EXPECT_EQ(a["compile_ids"], json({"0/1", "0/2"}));
      EXPECT_EQ(a["runs"], json({1, 1}));
    }
  EXPECT_TRUE(shape);

  // Every compile with a time, slowest first.
  ASSERT_EQ(j["slowest_compiles"].size(), 7u);
  EXPECT_EQ(j["slowest_compiles"][0]["compile_id"], "0/0");
  EXPECT_DOUBLE_EQ(j["slowest_compiles"][0]["seconds"].get<double>(), 2.0);
  for (size_t i = 1; i < j["slowest_compiles"].size(); ++i)
    EXPECT_GE(j["slowest_compiles"][i - 1]["seconds"].get<double>(),
              j["slowest_compiles"][i]["seconds"].get<double>());
}

TEST(SummaryJson, TorchLogsTextCountsItsLines) {
  DoctorReport d;
  d.source_kind = "torch_logs";
  d.text_lines = 50;
  d.text_unknown_lines = 3;
  d.text_guard_dumps = 2;
  json j = json::parse(summary_json(d, "x.txt", ""));
  EXPECT_EQ(j["source"]["kind"], "torch_logs");
  EXPECT_EQ(j["source"]["text"], json({{"lines", 50}, {"other_lines", 3}, {"guard_dumps", 2}}));
}

// What json::dump(2) of the parsed text writes: the streamed text must be it,
// byte for byte (keys in dump's order, its indentation and escapes).
std::string redumped(const std::string& text) {
  return json::parse(text).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// A busy doctor whose every text holds what must be escaped: quotes, a
// backslash, control bytes, non-ASCII text and a byte that is not UTF-8.
DoctorReport odd_doctor() {
  std::string odd = "a \"quoted\" C:\\path\n\ttab \x01 \xc3\xa9t\xc3\xa9 \xff end";
  DoctorReport d = diagnose_log(busy_log());
  d.torch_version = odd;
  for (auto& f : d.frames) {
    f.name = odd;
    f.filename = odd;
    for (auto& r : f.recompile_reasons) r.reason = odd;
  }
  for (auto& g : d.graph_breaks) g.reason = g.explanation = g.user_frame = odd;
  for (auto& f : d.failures) f.reason = f.root_cause = f.fail_type = odd;
  for (auto& a : d.advice) a.message = odd;
  for (auto& e : d.expected) e.message = odd;
  return d;
}

TEST(SummaryJson, IsWhatDumpOfTheWholeValueWrites) {
  DoctorReport d = odd_doctor();
  ASSERT_FALSE(d.frames.empty());
  ASSERT_FALSE(d.graph_breaks.empty());
  ASSERT_FALSE(d.failures.empty());
  ASSERT_FALSE(d.advice.empty());
  ASSERT_FALSE(d.expected.empty());
  std::string text = summary_json(d, "busy \"log\".log", "tlscope summary --json \xff");
  EXPECT_EQ(text, redumped(text));
  EXPECT_TRUE(
      has(text, "\\\"quoted\\\" C:\\\\path\\n\\ttab \\u0001 \xc3\xa9t\xc3\xa9 \xef\xbf\xbd end"))
      << text;
  // The same text through a FILE.
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  write_summary_json(f, d, "busy \"log\".log", "tlscope summary --json \xff");
  std::string written(static_cast<size_t>(std::ftell(f)), '\0');
  std::rewind(f);
  ASSERT_EQ(std::fread(written.data(), 1, written.size(), f), written.size());
  std::fclose(f);
  EXPECT_EQ(written, text);
}

TEST(SummaryJson, RanksSummaryIsWhatDumpWrites) {
  std::vector<RankDiagnosis> ranks(3);
  for (uint32_t i = 0; i < ranks.size(); ++i) {
    ranks[i].log.rank = i;
    ranks[i].log.path = "rank_" + std::to_string(i) + ".log";
    ranks[i].doctor = odd_doctor();
  }
  ranks[1].error = "cannot read \"rank_1.log\"";
  MultiRankAnalysis a;
  a.ranks = {0, 2};
  a.left_out = {1};
  a.doctor.push_back({"recompiles", {{0}, {2}}, "0/1"});
  std::string text = ranks_summary_json(ranks, a, "tlscope summary --json dir");
  EXPECT_EQ(text, redumped(text));
  json j = json::parse(text);
  ASSERT_EQ(j["ranks"].size(), 3u);
  EXPECT_EQ(j["ranks"][1]["error"], "cannot read \"rank_1.log\"");
  EXPECT_FALSE(j["ranks"][1].contains("summary"));
  EXPECT_EQ(j["ranks"][2]["summary"]["source"]["log"], "rank_2.log");
  EXPECT_EQ(j["ranks"][2]["summary"]["totals"]["compiles"], 7);
  EXPECT_EQ(j["totals"]["compiles"], 14);  // ranks 0 and 2
  EXPECT_EQ(j["divergence"][0]["first_compile_id"], "0/1");
}

}  // namespace
}  // namespace tlscope::analysis
