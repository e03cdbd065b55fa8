// Compile doctor front ends: `tlscope check` (limits for CI), `tlscope show`
// (one artifact of one compile), the "Compile doctor" section of index.html,
// and the terminal text of `tlscope summary`.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "log_oracle.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

class Doctor : public ::testing::Test {
 protected:
  RunResult run(std::vector<std::string> args) { return run_tlscope(args, tmp_.path()); }
  fs::path gen(const std::string& name) { return gen_doctor_case(name, tmp_.path()); }
  TempDir tmp_;
};
// The tests that read the corpus.
class CorpusDoctor : public Doctor {};

// ---------------------------------------------------------------- check

TEST_F(Doctor, CheckReportsTheExceededLimit) {
  fs::path log = gen("shape");  // 3 recompiles
  RunResult r = run({"check", log.string(), "--max-recompiles", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "tlscope check: recompiles: 3 > 1\n");
}

TEST_F(Doctor, CheckReportsEveryExceededLimitOnItsOwnLine) {
  fs::path log = gen("recompile_limit");  // 8 recompiles, 1 failure, 1.8775 s, no graph break
  RunResult r = run({"check", log.string(), "--max-recompiles", "1", "--max-graph-breaks", "0",
                     "--max-failures", "0", "--max-compile-seconds", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out,
            "tlscope check: recompiles: 8 > 1\n"
            "tlscope check: failures: 1 > 0\n"
            "tlscope check: compile seconds: 1.88 > 1\n");

  log = gen("print_logging");
  r = run({"check", log.string(), "--max-graph-breaks", "0", "--max-recompiles", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "tlscope check: graph breaks: 1 > 0\n");
}

TEST_F(Doctor, CheckPassesWithinLimits) {
  fs::path log = gen("shape");
  RunResult r = run({"check", log.string(), "--max-recompiles", "3", "--max-graph-breaks", "0",
                     "--max-failures", "0", "--max-compile-seconds", "2.5"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "tlscope check: ok (3 recompiles, 0 graph breaks, 0 failures, 2.25 s)\n");
  // No limit given: nothing can be exceeded.
  r = run({"check", log.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("tlscope check: ok (", 0), 0u) << r.out;
}

// A gate that checks nothing must not pass: an empty file, a log whose
// records hold no compile (a run that stopped before compiling), TORCH_LOGS
// text without a compile. --allow-empty accepts them (not a file that is no
// log at all); summary --json says "empty".
TEST_F(Doctor, CheckFailsOnNothingUnlessAllowed) {
  write_file(tmp_ / "empty.log", "");
  write_file(tmp_ / "no_compile.log",
             "V1202 10:00:00.000000 7 torch/_logging/structured.py:29] {\"str\": [\"/a/b.py\", 0]}\n");
  write_file(tmp_ / "guards_only.txt",
             "V1202 10:00:00.000000 7 torch/_dynamo/guards.py:2200] [__guards] GUARDS:\n"
             "V1202 10:00:00.000000 7 torch/_dynamo/guards.py:2200] [__guards] TREE_GUARD_MANAGER:\n");
  write_file(tmp_ / "noise.bin", std::string("\x01\x02\xff\xfe binary", 12));
  const std::string empty = (tmp_ / "empty.log").string();
  for (const char* name : {"no_compile.log", "guards_only.txt"}) {
    std::string log = (tmp_ / name).string();
    RunResult r = run({"check", log, "--max-recompiles", "0"});
    EXPECT_EQ(r.exit_code, 1) << name;
    EXPECT_EQ(r.out, "tlscope check: nothing was compiled (no frame, graph break or failure in " +
                         log + "); pass --allow-empty if that is expected\n");
    r = run({"check", log, "--max-recompiles", "0", "--allow-empty"});
    EXPECT_EQ(r.exit_code, 0) << name;
    EXPECT_EQ(r.out,
              "tlscope check: ok (0 recompiles, 0 graph breaks, 0 failures, 0.00 s, nothing "
              "compiled)\n");
    json s = json::parse(run({"summary", log, "--json"}).out);
    EXPECT_EQ(s["empty"], true) << name;
    EXPECT_TRUE(has(run({"summary", log}).out, "Nothing was compiled"));
  }
  RunResult r = run({"check", empty, "--max-recompiles", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error: " + empty + " is empty: it is neither a TORCH_TRACE log nor TORCH_LOGS text\n");
  r = run({"check", empty, "--allow-empty"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "tlscope check: ok (nothing compiled: " + empty + " is empty; --allow-empty)\n");
  // Input of the wrong kind stays an error.
  r = run({"check", (tmp_ / "noise.bin").string(), "--allow-empty"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "is neither a TORCH_TRACE log nor TORCH_LOGS text")) << r.err;
  // A log that compiled is not empty.
  json s = json::parse(run({"summary", gen("shape").string(), "--json"}).out);
  EXPECT_EQ(s["empty"], false);
}

// A failure is summarised by its root cause (the innermost exception), the
// whole message one click away: example.log's 3/0 is a ValueError wrapped in
// Inductor's CompilationError.
TEST_F(Doctor, AFailureShowsItsRootCause) {
  const std::string log = (fs::path(TLSCOPE_EXAMPLES) / "example.log").string();
  RunResult r = run({"summary", log});
  EXPECT_TRUE(has(r.out, "  3/0 BackendCompilerFailed: ValueError('Cannot broadcast, rank mismatch"))
      << r.out;
  json s = json::parse(run({"summary", log, "--json"}).out);
  ASSERT_EQ(s["failures"].size(), 1u);
  EXPECT_EQ(s["failures"][0]["root_cause"],
            "ValueError('Cannot broadcast, rank mismatch: [\\'64\\'], [\\'64\\', \\'1\\']')");
  EXPECT_EQ(s["failures"][0]["reason"].get<std::string>().rfind("backend='inductor' raised:", 0), 0u);
  report_summary(log, tmp_ / "out", tmp_.path());
  std::string page = read_file(tmp_ / "out" / "index.html");
  EXPECT_TRUE(has(page, "<details><summary>ValueError(&#39;Cannot broadcast")) << "no root cause";
  EXPECT_TRUE(has(page, "backend=&#39;inductor&#39; raised:\nCompilationError: at 12:11:"));
}

// adam_exponential_lr has two graph breaks; its third restart reason is
// Dynamo's internal TensorifyScalarRestartAnalysis, not a break in user code.
TEST_F(Doctor, CheckCountsGraphBreaksNotInternalRestarts) {
  RunResult r = run(
      {"check", (kRecorded / "adam_exponential_lr.log.gz").string(), "--max-graph-breaks", "2"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  r = run(
      {"check", (kRecorded / "adam_exponential_lr.log.gz").string(), "--max-graph-breaks", "1"});
  EXPECT_EQ(r.out, "tlscope check: graph breaks: 2 > 1\n");
}

// The doctor does not check payload digests (most of its time when it did):
// what it says is the same whether they match or not.
TEST_F(Doctor, PayloadDigestsDoNotChangeTheDiagnosis) {
  fs::path log = gen("shape");
  std::string text = read_file(log);
  std::regex digest(R"("has_payload": ?"[0-9a-f]{32}")");
  std::string broken = std::regex_replace(text, digest, R"("has_payload": "00000000000000000000000000000000")");
  ASSERT_NE(broken, text);
  write_file(tmp_ / "broken.log", broken);
  auto summary = [&](const fs::path& p) {
    RunResult r = run({"summary", p.string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json j = json::parse(r.out);
    j.erase("source");  // the path and command line
    return j;
  };
  json a = summary(log), b = summary(tmp_ / "broken.log");
  EXPECT_EQ(a, b);
  EXPECT_GT(a["totals"]["recompiles"].get<int>(), 0);
  RunResult c = run({"check", (tmp_ / "broken.log").string(), "--max-recompiles", "1"});
  EXPECT_EQ(c.out, "tlscope check: recompiles: 3 > 1\n");
  // The report still checks them and counts each failure.
  RunResult r = run({(tmp_ / "broken.log").string(), "-o", (tmp_ / "r").string(), "--no-browser"});
  EXPECT_TRUE(std::regex_search(r.err, std::regex("fail_payload_md5: [1-9]"))) << r.err;
}

TEST_F(Doctor, CheckUsageErrorsExitTwo) {
  fs::path log = gen("shape");
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"check"},
                                             {"check", log.string(), "--max-recompiles", "many"},
                                             {"check", log.string(), "--max-recompiles", "-1"},
                                             {"check", log.string(), "--bogus-limit", "3"},
                                             {"check", log.string(), log.string()}}) {
    RunResult r = run(args);
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_EQ(r.out.find("tlscope check: ok"), std::string::npos) << cmd;
  }
}

// ---------------------------------------------------------------- show

TEST_F(Doctor, ShowRecompilesPrintsTheReasonText) {
  fs::path log = gen("shape");
  RunResult r = run({"show", log.string(), "0/1", "recompiles"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(R"(^==> recompile_reasons \[0/1\] line \d+ <==\n)")))
      << r.out;
  EXPECT_TRUE(has(r.out, "\n0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3\n"))
      << r.out;
  // A JSON list of reasons: one reason a line, not JSON.
  r = run({"show", log.string(), "0/2", "recompiles"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out,
                  "\n0/1: tensor 'x' size mismatch at index 0. expected 3, actual 4\n"
                  "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 4\n"))
      << r.out;
  EXPECT_FALSE(has(r.out, "[\n")) << r.out;
  // PyTorch's plain-text single reason (tests/data/recorded).
  r = run({"show", (kRecorded / "shape_change.log.gz").string(), "0/1", "recompiles"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\n0/0: tensor 'x' size mismatch at index 0. expected 3, actual 4\n"))
      << r.out;
}

TEST_F(Doctor, ShowWithoutArtifactListsTheCompilesRecords) {
  fs::path log = gen("shape");
  RunResult r = run({"show", log.string(), "0/0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> names;
  for (const auto& l : split_lines(r.out)) {
    auto tab = l.find('\t');
    ASSERT_NE(tab, std::string::npos) << l;
    EXPECT_TRUE(
        std::regex_search(l, std::regex(R"(^[a-z_]+\t0/0\t(\d+ bytes|no payload)\tline \d+$)")))
        << l;
    names.insert(l.substr(0, tab));
  }
  EXPECT_EQ(names, (std::set<std::string>{"chromium_event", "dynamo_start", "dynamo_output_graph",
                                          "dynamo_cpp_guards_str", "compilation_metrics"}))
      << r.out;
  // 0/1 adds its recompile_reasons artifact.
  r = run({"show", log.string(), "0/1"});
  EXPECT_TRUE(has(r.out, "recompile_reasons\t0/1\t")) << r.out;
}

TEST_F(Doctor, ShowGraphCodeGuardsAndGraphBreaks) {
  fs::path log = gen("print_logging");
  RunResult r = run({"show", log.string(), "0/0", "graph_code"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "==> dynamo_output_graph [0/0_1] line ")) << r.out;
  EXPECT_TRUE(has(r.out, "class GraphModule(torch.nn.Module):\n")) << r.out;
  EXPECT_TRUE(has(r.out, "= torch.sin(l_x_);")) << r.out;

  r = run({"show", log.string(), "0/0", "guards"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "TREE_GUARD_MANAGER:")) << r.out;

  // Both records of the break: the artifact of attempt 0, the restart reason of attempt 1.
  r = run({"show", log.string(), "0/0", "graph_breaks"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "==> dynamo_graph_break_reason [0/0] line ")) << r.out;
  EXPECT_TRUE(has(r.out, "Graph break in user code at /home/user/project/models/mlp.py:66\n"));
  EXPECT_TRUE(has(r.out, "==> restart_reasons [0/0_1] line ")) << r.out;
  EXPECT_TRUE(has(r.out, "Failed to trace builtin operator\n"));

  // One attempt only.
  r = run({"show", log.string(), "0/0_1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "compilation_metrics\t0/0_1\t")) << r.out;
  EXPECT_FALSE(has(r.out, "dynamo_graph_break_reason")) << r.out;
}

TEST_F(Doctor, ShowErrors) {
  fs::path log = gen("shape");
  RunResult r = run({"show", log.string(), "99/0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "does not occur")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;

  r = run({"show", log.string(), "0/0", "no_such_artifact"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "no no_such_artifact for 0/0")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;

  r = run({"show", log.string(), "0/0", "recompiles"});  // the first compile has no reasons
  EXPECT_EQ(r.exit_code, 1);

  // A compile id that is none is a usage error, said before the log is
  // read (no warning about the log), with everyday examples.
  r = run({"show", log.string(), "zero/one"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "Error: zero/one is not a compile id: write it as PyTorch prints it, e.g. 0/1 (frame "
            "0, its first recompile), 0/1_1 (attempt 1 of it) or !0/0/0 (compiled autograd)\n");
  r = run({"show", (tmp_ / "no_such.log").string(), "x"});
  EXPECT_EQ(r.exit_code, 2);  // the id first, then the file

  r = run({"show", log.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// ---------------------------------------------------------------- index.html

// The doctor section of index.html, from its heading to the end of the section.
std::string doctor_section(const std::string& html) {
  auto b = html.find("<h2>Compile doctor</h2>");
  if (b == std::string::npos) return "";
  auto e = html.find("</section>", b);
  return html.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

// Every href="#..." of the section names an id of the page.
void expect_anchors_resolve(const std::string& html, const std::string& what) {
  std::set<std::string> ids;
  static const std::regex id_re(R"re(\bid="([^"]*)")re");
  for (std::sregex_iterator it(html.begin(), html.end(), id_re), end; it != end; ++it)
    ids.insert((*it)[1]);
  std::string section = doctor_section(html);
  static const std::regex href_re(R"re(href="#([^"]*)")re");
  int n = 0;
  for (std::sregex_iterator it(section.begin(), section.end(), href_re), end; it != end; ++it) {
    ++n;
    EXPECT_TRUE(ids.count((*it)[1])) << what << ": no anchor " << (*it)[1];
  }
  EXPECT_GT(n, 0) << what << ": no compile-id links in\n" << section.substr(0, 2000);
}

TEST_F(Doctor, IndexHasTheDoctorSectionWithWorkingLinks) {
  fs::path log = gen("recompile_limit");
  fs::path out = tmp_ / "out";
  RunResult r = run({log.string(), "-o", out.string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = read_file(out / "index.html");
  std::string s = doctor_section(html);
  ASSERT_FALSE(s.empty());
  EXPECT_TRUE(has(s, "1 frame, 9 compiles, 8 recompiles, 0 graph breaks, 1 failure, "))
      << s.substr(0, 500);
  EXPECT_TRUE(has(s, "<li><strong>recompile_limit</strong>: <code>forward</code> reached the recompile limit"))
      << s;
  EXPECT_TRUE(has(s, "cache_size_limit"));
  EXPECT_TRUE(has(s, "<a href=\"#[0/8]\">[0/8]</a>")) << s;
  EXPECT_TRUE(has(s, "<td>9</td><td>8 (limit)</td>")) << s;  // the frames table
  expect_anchors_resolve(html, "recompile_limit");
  // summary.json is written next to index.html.
  auto j = json::parse(read_file(out / "summary.json"));
  EXPECT_EQ(j["totals"]["recompiles"], 8);
}

void expect_doctor_links_resolve(const std::vector<fs::path>& logs, const fs::path& tmp) {
  int i = 0;
  for (const auto& log : logs) {
    fs::path out = tmp / ("out" + std::to_string(i++));
    RunResult r = run_tlscope({log.string(), "-o", out.string(), "--no-browser"}, tmp);
    ASSERT_EQ(r.exit_code, 0) << log << "\n" << r.err;
    expect_anchors_resolve(read_file(out / "index.html"), log.filename().string());
  }
}

TEST_F(Doctor, DoctorLinksResolveForEveryCaseAndRecordedLog) {
  std::vector<fs::path> logs;
  for (const char* c : {"shape", "optimizer_constant", "large_frame", "print_logging",
                        "data_dependent", "skipped", "unclassified", "compile_error"})
    logs.push_back(gen(c));
  for (const char* r :
       {"adam_exponential_lr.log.gz", "data_dependent_branch.log.gz", "recompile_limit.log.gz"})
    logs.push_back(kRecorded / r);
  expect_doctor_links_resolve(logs, tmp_.path());
}

TEST_F(CorpusDoctor, DoctorLinksResolve) {
  expect_doctor_links_resolve(
      {corpus_inputs() / "comp_metrics.log",
       corpus_inputs() / "collectives_parity/dedicated_log_torch_trace_rank_0.log"},
      tmp_.path());
}

// Hostile text from the log: a frame called <lambda> (a real co_name), a
// recompile reason and a graph break carrying markup, a failure type with tags.
std::string markup_log() {
  auto ids = [](json e, int frame, int fcid, int attempt = 0) {
    e["frame_id"] = frame;
    e["frame_compile_id"] = fcid;
    e["attempt"] = attempt;
    return e;
  };
  auto metrics = [&](int frame, int fcid, json extra) {
    json m = {{"co_name", "<lambda>"}, {"co_filename", "/p/<b>m.py"},
              {"co_firstlineno", 3},   {"restart_reasons", json::array()},
              {"graph_op_count", 60},  {"entire_frame_compile_time_s", 0.5}};
    m.update(extra);
    return record(ids({{"compilation_metrics", m}}, frame, fcid));
  };
  auto reasons = [&](int fcid, const std::string& payload) {
    return record(
        ids({{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}}}, 0, fcid),
        payload);
  };
  std::string log;
  log += record(ids({{"dynamo_start", {{"stack", json::array()}}}}, 0, 0));
  log += record(
      ids({{"artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}}}, 0, 0),
      "Graph break in user code at /p/<b>m.py:5\nGraph Break Reason: Data-dependent "
      "branching <img src=x onerror=alert(2)>\n  Explanation: attempted to jump\n");
  log += metrics(0, 0, json::object());
  for (int k = 1; k <= 3; ++k) {
    log += reasons(k, json::array({std::to_string(0) + "/" + std::to_string(k - 1) +
                                   ": L['s'] == '<script>alert(1)</script>'"})
                          .dump());
    log += metrics(0, k, json::object());
  }
  log += metrics(1, 0, {{"fail_type", "<i>Bad</i>"}, {"fail_reason", "<script>alert(3)</script>"}});
  return log;
}

TEST_F(Doctor, IndexEscapesLogText) {
  fs::path log = tmp_ / "markup.log";
  write_file(log, markup_log());
  fs::path out = tmp_ / "out";
  RunResult r = run({log.string(), "-o", out.string(), "--no-browser"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = read_file(out / "index.html");
  std::string s = doctor_section(html);
  ASSERT_FALSE(s.empty());
  for (const char* raw : {"<script>alert", "<img src=x", "<i>Bad</i>", "<lambda>", "<b>m.py"})
    EXPECT_FALSE(has(html, raw)) << raw;
  // ...but shown, escaped (with places to wrap, <wbr>, between its parts).
  for (size_t at; (at = s.find("<wbr>")) != std::string::npos;) s.erase(at, 5);
  EXPECT_TRUE(has(s, "L[&#39;s&#39;] == &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;")) << s;
  EXPECT_TRUE(has(s, "&lt;img src=x onerror=alert(2)&gt;")) << s;
  EXPECT_TRUE(has(s, "&lt;i&gt;Bad&lt;/i&gt;")) << s;
  EXPECT_TRUE(has(s, "&lt;lambda&gt;")) << s;
  EXPECT_TRUE(has(s, "<code>&lt;lambda&gt;</code> is large")) << s;  // large_frame names the frame
  // summary.json keeps the text as it was.
  auto j = json::parse(read_file(out / "summary.json"));
  auto all = all_reasons(j);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0], "0/1|0/0|constant|L['s'] == '<script>alert(1)</script>'");
  ASSERT_EQ(j["failures"].size(), 1u);
  EXPECT_EQ(j["failures"][0]["fail_type"], "<i>Bad</i>");
}

// A data-dependent branch inside a logging library is a data-dependent break:
// the artifact's paths and traceback do not change what the break is.
TEST_F(Doctor, GraphBreakClassComesFromTheReasonNotFromPaths) {
  const std::string lib =
      "/home/user/.venv/lib/python3.11/site-packages/lightning/pytorch/loggers/tensorboard.py";
  json start = {{"dynamo_start", {{"stack", json::array()}}},
                {"frame_id", 0},
                {"frame_compile_id", 0},
                {"attempt", 0}};
  json art = {{"artifact", {{"name", "dynamo_graph_break_reason"}, {"encoding", "string"}}},
              {"frame_id", 0},
              {"frame_compile_id", 0},
              {"attempt", 0}};
  json met = {{"compilation_metrics",
               {{"co_name", "log_metrics"},
                {"co_filename", lib},
                {"co_firstlineno", 180},
                {"restart_reasons", json::array()},
                {"entire_frame_compile_time_s", 0.25}}},
              {"frame_id", 0},
              {"frame_compile_id", 0},
              {"attempt", 0}};
  std::string text =
      "Graph break in user code at " + lib +
      ":184\nGraph Break Reason: Data-dependent branching\n"
      "  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo "
      "does not support tracing dynamic control flow.\n  Hint: Use `torch.cond` to express "
      "dynamic control flow.\n\n  Developer debug context: attempted to jump with "
      "TensorVariable()\n\nUser code traceback:\n  File \"/home/user/project/train.py\", line 97, "
      "in train\n  File \"" +
      lib + "\", line 184, in log_metrics\n\nNoneType: None\n";
  fs::path log = tmp_ / "lib.log";
  write_file(log, record(start) + record(art, text) + record(met));
  json s = summary_json(log, tmp_.path());
  ASSERT_EQ(s["graph_breaks"].size(), 1u) << s;
  EXPECT_EQ(s["graph_breaks"][0]["reason"], "Data-dependent branching");
  EXPECT_EQ(s["graph_breaks"][0]["user_frame"], lib + ":184");
  EXPECT_EQ(s["graph_breaks"][0]["category"], "data_dependent");
}

// ---------------------------------------------------------------- summary text

// Code points of a UTF-8 line; -1 when it is not valid UTF-8.
long utf8_columns(const std::string& s) {
  long n = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return -1;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return -1;
    i += len;
    ++n;
  }
  return n;
}

void expect_terminal_text(const std::string& out, const std::string& what) {
  EXPECT_FALSE(has(out, "\033")) << what << ": ANSI escape in text written to a file";
  int ln = 0;
  for (const auto& line : split_lines(out)) {
    ++ln;
    long cols = utf8_columns(line);
    EXPECT_GE(cols, 0) << what << " line " << ln << " is not valid UTF-8: " << line;
    EXPECT_LE(cols, 100) << what << " line " << ln << " has " << cols << " columns: " << line;
  }
}

void expect_summary_fits(const std::vector<fs::path>& logs, const fs::path& tmp) {
  for (const auto& log : logs) {
    RunResult r = run_tlscope({"summary", log.string()}, tmp);
    ASSERT_EQ(r.exit_code, 0) << log << "\n" << r.err;
    expect_terminal_text(r.out, log.filename().string());
  }
}

TEST_F(Doctor, SummaryTextFitsHundredColumnsWithoutEscapes) {
  std::vector<fs::path> logs;
  for (const char* c :
       {"shape", "constant", "optimizer_constant", "object_identity", "global_state",
        "tensor_property", "recompile_limit", "large_frame", "print_logging", "data_dependent",
        "dynamic_shape_op", "numpy", "skipped", "explicit_graph_break", "context_manager",
        "unsupported_bytecode", "unclassified", "compile_error"})
    logs.push_back(gen(c));
  for (const char* r : {"adam_exponential_lr.log.gz", "recompile_limit.log.gz",
                        "print_graph_break.log.gz", "compile_error.log.gz"})
    logs.push_back(kRecorded / r);
  expect_summary_fits(logs, tmp_.path());
}

TEST_F(CorpusDoctor, SummaryTextFitsHundredColumnsWithoutEscapes) {
  expect_summary_fits({corpus_inputs() / "multi_rank_logs/dedicated_log_torch_trace_rank_1.log",
                       corpus_inputs() / "comp_metrics.log"},
                      tmp_.path());
}

TEST_F(Doctor, SummaryTextContent) {
  RunResult r = run({"summary", gen("shape").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(r.out);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("tlscope summary: ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1],
            "1 frame, 4 compiles, 3 recompiles, 0 graph breaks, 0 failures, 2.25 s "
            "compiling");
  EXPECT_TRUE(has(r.out,
                  "        3x [shape] (0/1 0/2 0/3) tensor 'x' size mismatch at index 0. "
                  "expected 2, actual 3\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "- [shape] ")) << r.out;
  EXPECT_TRUE(has(r.out, "(0/1 0/2 0/3)")) << r.out;

  // Unclassified reasons are listed, not hidden, under their class name.
  r = run({"summary", gen("unclassified").string()});
  EXPECT_TRUE(
      has(r.out, "1x [unclassified] (0/1) not ___dict_contains('use_fast_path', G['FLAGS'])"))
      << r.out;
  EXPECT_TRUE(has(r.out, "- [unclassified] ")) << r.out;

  r = run({"summary", gen("recompile_limit").string()});
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n +0 forward +9 +8! +0 +1\.87[78]\n)")))
      << r.out;
  EXPECT_TRUE(has(r.out, "\nFailures\n  0/8 Unsupported: Dynamo recompile limit exceeded\n"))
      << r.out;
}

// Long non-ASCII text is clipped on a character boundary.
// Many frames that compiled once with nothing wrong: the frames with
// something to say, the slowest five of the others, one line for the rest;
// --all lists them all. Long names are not cut where the line has room.
TEST_F(Doctor, SummaryListsTheFramesThatMatter) {
  auto ids = [](int f, int c) {
    return json{{"frame_id", f}, {"frame_compile_id", c}, {"attempt", 0}};
  };
  auto metrics = [&](int f, int c, const std::string& name, double secs) {
    json m = {{"co_name", name}, {"co_filename", "/p/m.py"}, {"co_firstlineno", 10 + f},
              {"entire_frame_compile_time_s", secs}, {"restart_reasons", json::array()}};
    json e = ids(f, c);
    e["compilation_metrics"] = m;
    return record(e);
  };
  std::string log;
  for (int f = 0; f < 12; ++f) log += metrics(f, 0, "quiet_" + std::to_string(f), 0.1 * (f + 1));
  const std::string longname = "torch_dynamo_resume_in_forward_at_1234_of_encoder";
  log += metrics(12, 0, longname, 0.05);
  json r = ids(12, 1);
  r["artifact"] = {{"name", "recompile_reasons"}, {"encoding", "json"}};
  log += record(r, json::array({"12/0: L['n'] == 3"}).dump());
  log += metrics(12, 1, longname, 0.05);
  write_file(tmp_ / "many.log", log);
  RunResult out = run({"summary", (tmp_ / "many.log").string()});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_TRUE(has(out.out, "     12 " + longname + " ")) << out.out;
  for (int f = 11; f >= 7; --f)  // the five slowest of the quiet ones
    EXPECT_TRUE(has(out.out, "quiet_" + std::to_string(f) + " ")) << f << out.out;
  for (int f = 0; f <= 6; ++f) EXPECT_FALSE(has(out.out, "quiet_" + std::to_string(f) + " ")) << f;
  EXPECT_TRUE(has(out.out, "  ... 7 more frames compiled once, 2.80 s (--all lists them)\n"))
      << out.out;
  RunResult all = run({"summary", (tmp_ / "many.log").string(), "--all"});
  for (int f = 0; f < 12; ++f) EXPECT_TRUE(has(all.out, "quiet_" + std::to_string(f) + " ")) << f;
  EXPECT_FALSE(has(all.out, "more frames compiled once"));
  for (const auto& line : split_lines(out.out)) EXPECT_LE(line.size(), 100u) << line;
}

TEST_F(Doctor, SummaryTextClipsUtf8OnCharacterBoundaries) {
  std::string value;
  for (int i = 0; i < 60; ++i) value += "\xc3\xa9";  // é
  std::string reason = "0/0: L['s'] == '" + value + "'";
  json start = {{"dynamo_start", {{"stack", json::array()}}},
                {"frame_id", 0},
                {"frame_compile_id", 0},
                {"attempt", 0}};
  auto met = [](int k) {
    return record({{"compilation_metrics",
                    {{"co_name", "f"},
                     {"co_filename", "/p/m.py"},
                     {"co_firstlineno", 1},
                     {"entire_frame_compile_time_s", 0.5}}},
                   {"frame_id", 0},
                   {"frame_compile_id", k},
                   {"attempt", 0}});
  };
  std::string log = record(start) + met(0) +
                    record({{"artifact", {{"name", "recompile_reasons"}, {"encoding", "json"}}},
                            {"frame_id", 0},
                            {"frame_compile_id", 1},
                            {"attempt", 0}},
                           json::array({reason}).dump()) +
                    met(1);
  fs::path p = tmp_ / "utf8.log";
  write_file(p, log);
  RunResult r = run({"summary", p.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_terminal_text(r.out, "utf8.log");
  EXPECT_TRUE(has(r.out, "1x [constant] (0/1) L['s'] == '\xc3\xa9\xc3\xa9")) << r.out;
  // The JSON has the whole reason.
  json s = summary_json(p, tmp_.path());
  EXPECT_EQ(all_reasons(s), std::vector<std::string>{"0/1|0/0|constant|" + reason.substr(5)});
}

}  // namespace
}  // namespace tlscope_test
