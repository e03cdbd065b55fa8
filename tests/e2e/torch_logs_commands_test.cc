// Every command on TORCH_LOGS text (issue 22): the report of text (no
// artifact folders, the doctor's summary.json, each compile and guard dump
// on the page), ranks kept apart in summary, check and the report, `show`
// of one compile, `diff` of two captures, and input that is neither refused
// by every command. The bundle of text is checked with every other log in
// bundle_property_test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {
namespace {

using nlohmann::json;
const fs::path kText = fs::path(TLSCOPE_DATA) / "torch_logs";

json without_command(json s) {
  s["source"].erase("command_line");
  return s;
}

size_t count_of(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

class TextReport : public ::testing::TestWithParam<std::string> {
 protected:
  TempDir tmp_;
};

TEST_P(TextReport, TheDoctorsPageWithoutArtifactFolders) {
  fs::path file = kText / GetParam();
  fs::path out = tmp_ / "out";
  RunResult r = run_tlscope({file.string(), "-o", out.string(), "--no-browser"}, tmp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  RunResult s = run_tlscope({"summary", file.string(), "--json"}, tmp_.path());
  ASSERT_EQ(s.exit_code, 0);
  json want = json::parse(s.out);
  EXPECT_EQ(r.err, "TORCH_LOGS text: " + std::to_string(want["source"]["text"]["lines"].get<int>()) +
                       " lines, " +
                       std::to_string(want["source"]["text"]["other_lines"].get<int>()) +
                       " of them not TORCH_LOGS messages\n");
  // index.html, summary.json and the style sheet and scripts: nothing the
  // text does not have (no compile folders, no compile_directory.json).
  for (const auto& f : list_files(out))
    EXPECT_TRUE(f == "index.html" || f == "summary.json" || f == ".tlscope-report" ||
                f.rfind("static/", 0) == 0)
        << f;
  EXPECT_EQ(without_command(json::parse(read_file(out / "summary.json"))), without_command(want));
  std::string page = read_file(out / "index.html");
  EXPECT_NE(page.find("This report was made from TORCH_LOGS text."), std::string::npos);
  EXPECT_NE(page.find("TORCH_TRACE=/tmp/trace python train.py"), std::string::npos);
  // A row, with an anchor the doctor's links reach, for every compile.
  std::set<std::string> ids;
  for (const auto& f : want["frames"])
    for (const auto& id : f["compile_ids"]) ids.insert(id.get<std::string>());
  for (const auto& g : want["graph_breaks"])  // a break names its compile
    for (const auto& id : g["compile_ids"]) ids.insert(id.get<std::string>());
  for (const auto& id : ids)
    EXPECT_NE(page.find("<tr id=\"[" + id + "]\">"), std::string::npos) << id;
  EXPECT_EQ(count_of(page, "<tr id=\"["), ids.size());
  // Each recompile's failing guards are listed under it; each guard dump
  // the text printed is on the page.
  size_t reasons = 0;
  for (const auto& f : want["frames"]) reasons += f["recompile_reasons"].size();
  EXPECT_EQ(count_of(page, "<li><em>"), reasons);
  EXPECT_EQ(count_of(page, "<details id=\"guards-"),
            want["source"]["text"]["guard_dumps"].get<size_t>());
  // Text has no compile times: none is shown as 0.
  EXPECT_EQ(page.find("0.00 s compiling"), std::string::npos);
  EXPECT_EQ(page.find("<td>0.000</td>"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TextReport,
                         ::testing::Values("glog_2024.txt", "eras_mixed.txt", "paste_crlf.txt",
                                           "pasted_shapes.txt"),
                         [](const auto& info) { return param_name(info.param); });

TEST(TextRanks, EachRankApartInSummaryCheckAndReport) {
  TempDir tmp;
  fs::path file = kText / "ranks.txt";
  RunResult r = run_tlscope({"summary", file.string(), "--json"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(r.out);
  ASSERT_EQ(s["ranks"].size(), 2u);
  EXPECT_EQ(s["ranks"][0]["rank"], 0);
  EXPECT_EQ(s["ranks"][0]["summary"]["totals"]["recompiles"], 2);
  EXPECT_EQ(s["ranks"][0]["summary"]["totals"]["graph_breaks"], 0);
  EXPECT_EQ(s["ranks"][1]["rank"], 1);
  EXPECT_EQ(s["ranks"][1]["summary"]["totals"]["recompiles"], 1);
  EXPECT_EQ(s["ranks"][1]["summary"]["totals"]["graph_breaks"], 1);
  EXPECT_EQ(s["ranks"][1]["summary"]["graph_breaks"][0]["category"], "print_logging");
  // The same compile id (0/1) on two ranks is two recompiles, one a rank.
  EXPECT_EQ(s["ranks"][0]["summary"]["frames"][0]["recompile_reasons"][0]["category"], "shape");
  EXPECT_EQ(s["ranks"][1]["summary"]["frames"][0]["recompile_reasons"][0]["category"],
            "train_eval");

  r = run_tlscope({"summary", file.string()}, tmp.path());
  EXPECT_EQ(r.out.rfind("tlscope summary: TORCH_LOGS text of 2 ranks (" + file.string() + ")\n", 0),
            0u)
      << r.out;

  r = run_tlscope({"check", file.string(), "--max-recompiles", "1"}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "tlscope check: rank 0: recompiles: 2 > 1\n");
  r = run_tlscope({"check", file.string(), "--max-recompiles", "2"}, tmp.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "tlscope check: ok (3 recompiles, 1 graph break, 0 failures, 0.00 s, 2 ranks)\n");

  fs::path out = tmp / "out";
  r = run_tlscope({file.string(), "-o", out.string(), "--no-browser"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "TORCH_LOGS text: 24 lines, 2 of them not TORCH_LOGS messages; 2 ranks, each in "
                   "rank_N/\n");
  std::string index = read_file(out / "index.html");
  EXPECT_NE(index.find("<a href=\"rank_0/index.html\">Rank 0</a>"), std::string::npos);
  EXPECT_NE(index.find("<a href=\"rank_1/index.html\">Rank 1</a>"), std::string::npos);
  EXPECT_EQ(json::parse(read_file(out / "summary.json"))["ranks"].size(), 2u);
  for (int rank : {0, 1}) {
    fs::path dir = out / ("rank_" + std::to_string(rank));
    json one = json::parse(read_file(dir / "summary.json"));
    EXPECT_EQ(without_command(one), without_command(s["ranks"][rank]["summary"]));
    EXPECT_NE(read_file(dir / "index.html").find("(rank " + std::to_string(rank) + ")"),
              std::string::npos);
  }
  // Rank 0's guard dump belongs to its compile 0/2.
  std::string page0 = read_file(out / "rank_0/index.html");
  EXPECT_NE(page0.find("<summary>Guards of [0/2] (7 lines)</summary>"), std::string::npos);
  EXPECT_NE(page0.find("TENSOR_MATCH"), std::string::npos);
  EXPECT_EQ(read_file(out / "rank_1/index.html").find("TENSOR_MATCH"), std::string::npos);
}

TEST(TextShow, OneCompileOfTheText) {
  TempDir tmp;
  std::string file = (kText / "glog_2024.txt").string();
  RunResult r = run_tlscope({"show", file, "0/2"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "recompiles\t0/2\t1\n");
  r = run_tlscope({"show", file, "0/2", "recompiles"}, tmp.path());
  EXPECT_EQ(r.out,
            "Recompiling function forward in /home/ann/proj/model.py:12\n"
            "    triggered by the following guard failure(s):\n"
            "    - 0/1: L['self'].training == True                           # if self.training:  "
            "# model.py:14 in forward\n"
            "    - 0/0: tensor 'L['x']' size mismatch at index 0. expected 8, actual 9\n");
  r = run_tlscope({"show", file, "1/0", "graph_breaks"}, tmp.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Graph Break Reason: Unsupported: builtin: print"), std::string::npos);
  EXPECT_NE(r.out.find("    print(\"loss\", loss)\n"), std::string::npos);
  r = run_tlscope({"show", (kText / "eras_mixed.txt").string(), "3/1", "guards"}, tmp.path());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "GUARDS:\n  ___check_type_id(L['x'], 94262044434976)\n"
                   "  hasattr(L['x'], '_dynamo_dynamic_indices') == False\n");
  r = run_tlscope({"show", file, "7/7"}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error: compile id 7/7 does not occur in " + file +
                       " (TORCH_LOGS text; its compile ids: 0/0, 0/1, 0/2, 1/0)\n");
  r = run_tlscope({"show", file, "0/2", "output_code"}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("graphs, generated code and metrics are in a TORCH_TRACE log"),
            std::string::npos);
}

TEST(TextDiff, TwoCapturesOfOneProgram) {
  TempDir tmp;
  fs::path a = kText / "glog_2024.txt";
  std::string text = read_file(a);
  RunResult r = run_tlscope({"diff", a.string(), a.string()}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("No meaningful change: the same compiles, reasons and artifacts"), std::string::npos) << r.out;
  // One guard changed in the second capture: one reason gone, one new.
  std::string changed = text;
  size_t at = changed.find("L['self'].training == True");
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, 26, "L['mode'] == 2");
  write_file(tmp / "b.txt", changed);
  r = run_tlscope({"diff", a.string(), (tmp / "b.txt").string(), "--json"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  json d = json::parse(r.out);
  std::string all = d.dump();
  EXPECT_NE(all.find("L['mode'] == 2"), std::string::npos);
  EXPECT_NE(all.find("L['self'].training == True"), std::string::npos);
  // -o: both reports (of text) and the diff page.
  r = run_tlscope({"diff", a.string(), (tmp / "b.txt").string(), "-o", (tmp / "d").string()},
                  tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "d/a/index.html"));
  EXPECT_TRUE(fs::exists(tmp / "d/b/summary.json"));
  EXPECT_TRUE(fs::exists(tmp / "d/diff.html"));
  // Text of several ranks is one process too many for a diff.
  r = run_tlscope({"diff", (kText / "ranks.txt").string(), a.string()}, tmp.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is TORCH_LOGS text of 2 ranks; this command reads one process"),
            std::string::npos)
      << r.err;
}

TEST(TextBundle, MessagesKeptOutputAndCodeLeftOut) {
  TempDir tmp;
  fs::path file = kText / "ranks.txt";
  RunResult r = run_tlscope({"bundle", file.string(), "-o", (tmp / "b.tar.zst").string()},
                            tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(run_shell("cd '" + tmp.path().string() + "' && tar --zstd -xf b.tar.zst"), 0);
  fs::path dir = tmp / "tlscope-bundle";
  json manifest = json::parse(read_file(dir / "manifest.json"));
  EXPECT_EQ(manifest["log"]["kind"], "torch_logs");
  EXPECT_EQ(manifest["log"]["file"], "ranks.txt");
  std::string text = read_file(dir / "ranks.txt");
  EXPECT_EQ(text.find("epoch 1 loss 0.25"), std::string::npos);        // the program's output
  EXPECT_EQ(text.find("loss_value_for_this_step"), std::string::npos);  // user code
  EXPECT_EQ(text.find("/srv/app"), std::string::npos);                  // folders
  EXPECT_NE(text.find("[tlscope bundle: line 13 is not a TORCH_LOGS message; 17 bytes redacted]"),
            std::string::npos);
  EXPECT_NE(text.find("Recompiling function forward in <dir-1>/model.py:20"), std::string::npos);
  EXPECT_NE(read_file(dir / "README.txt").find("TORCH_LOGS text"), std::string::npos);
  json s = json::parse(read_file(dir / "summary.json"));
  EXPECT_EQ(s["ranks"].size(), 2u);
}

TEST(TextInput, NeitherIsRefusedByEveryCommand) {
  TempDir tmp;
  fs::path notes = tmp / "notes.txt";
  write_file(notes, "hello\nworld\n");
  std::string why = "Error: " + notes.string() +
                    " is neither a TORCH_TRACE log nor TORCH_LOGS text: no line in it is a trace "
                    "record or a TORCH_LOGS message\n";
  std::vector<std::vector<std::string>> commands = {
      {notes.string(), "-o", (tmp / "out").string(), "--no-browser"},
      {"summary", notes.string()},
      {"check", notes.string()},
      {"show", notes.string(), "0/0"},
      {"diff", notes.string(), (kText / "glog_2024.txt").string()},
      {"bundle", notes.string(), "-o", (tmp / "b.tar.zst").string()}};
  for (const auto& args : commands) {
    RunResult r = run_tlscope(args, tmp.path());
    SCOPED_TRACE(args[0]);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, why);
  }
  EXPECT_FALSE(fs::exists(tmp / "out"));
  EXPECT_FALSE(fs::exists(tmp / "b.tar.zst"));
}

}  // namespace
}  // namespace tlscope_test
