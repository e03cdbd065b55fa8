// vLLM mode (UPSTREAM K4-K8): the reference's [compat] cases on its
// vllm_post_grad_diff.log (corpus) and on our own vllm_sample.log
// (tests/data/vllm/, built by make_vllm_sample.py after the structure of the
// upstream one), and logs built here for what the two do not show.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
size_t count_of(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}
// The text between `from` and the next `to` after it.
std::string between(const std::string& s, const std::string& from, const std::string& to) {
  size_t a = s.find(from);
  if (a == std::string::npos) return "";
  size_t b = s.find(to, a + from.size());
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

class Vllm : public ::testing::Test {
 protected:
  RunResult report(const fs::path& log) {
    RunResult r = run_tlscope({log.string(), "-o", out().string(), "--no-browser", "--strict", "--overwrite"},
                              tmp_.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    files_ = list_files(out());
    index_ = read_file(out() / "index.html");
    return r;
  }
  RunResult report_text(const std::string& log) {
    write_file(tmp_ / "in.log", log);
    return report(tmp_ / "in.log");
  }
  bool has_prefix(const std::string& p) const {
    for (auto& f : files_)
      if (f.rfind(p, 0) == 0) return true;
    return false;
  }
  fs::path out() const { return tmp_ / "out"; }
  TempDir tmp_;
  std::vector<std::string> files_;
  std::string index_;
};
class CorpusVllm : public Vllm {};

// test_parse_vllm_post_grad_diff.
TEST_F(CorpusVllm, PostGradPassDiffs) {
  report(upstream_inputs() / "vllm_post_grad_diff.log");
  std::vector<std::string> folder;
  for (auto& f : files_)
    if (f.rfind("-_0_0_0/", 0) == 0) folder.push_back(f.substr(8));
  std::sort(folder.begin(), folder.end());
  EXPECT_EQ(folder, (std::vector<std::string>{"before_post_grad_graph_1.txt", "vllm_patterns.FusionPass_0.py",
                                              "vllm_post_grad.0.FusionPass.diff.html",
                                              "vllm_post_grad.0.FusionPass_2.txt",
                                              "vllm_post_grad.1.ReshapePass.diff.html",
                                              "vllm_post_grad.1.ReshapePass_4.txt"}));
  std::string first = read_file(out() / "-_0_0_0" / "vllm_post_grad.0.FusionPass.diff.html");
  EXPECT_TRUE(has(first, "<title>Pass Diff: 0.FusionPass</title>"));
  EXPECT_TRUE(has(first, "<h1>Pass Diff: 0.FusionPass</h1>"));
  EXPECT_TRUE(has(first, "diff-add"));
  EXPECT_TRUE(has(first, "diff-del"));
  // One hunk, headed as unified diffs are (the reference writes "@@ @@ -1,4 +1,3 @@ @@").
  EXPECT_EQ(count_of(first, "class=\"diff-hunk\""), 1u);
  EXPECT_TRUE(has(first, "<tr class=\"diff-hunk\"><td colspan=\"4\">@@ -1,4 +1,3 @@</td></tr>")) << first;
  // Line 1 equal; old 2-4 deleted, new 2-3 inserted, paired row by row.
  EXPECT_TRUE(has(first, "<td class=\"line-num\">2</td><td class=\"code-cell diff-del\">    a = torch.sin(x)</td>"
                         "<td class=\"line-num right-num\">2</td><td class=\"code-cell diff-add\">    "
                         "fused_sincos = torch.ops.fused_sincos(x)</td>"));
  EXPECT_TRUE(has(first, "<td class=\"line-num\">4</td><td class=\"code-cell diff-del\">    return a + b</td>"
                         "<td class=\"line-num right-num\"></td><td class=\"code-cell\"></td>"));
  std::string second = read_file(out() / "-_0_0_0" / "vllm_post_grad.1.ReshapePass.diff.html");
  EXPECT_TRUE(has(second, "Pass Diff: 1.ReshapePass"));
  EXPECT_TRUE(has(second, ">@@ -1,3 +1,4 @@<"));
  // index.html is the vLLM page; the usual index is beside it.
  EXPECT_TRUE(has(index_, "<h1>vLLM Compilation Summary</h1>"));
  EXPECT_TRUE(has(index_, "<a href=\"tlparse_index.html\">View original tlparse output"));
  std::string usual = read_file(out() / "tlparse_index.html");
  EXPECT_TRUE(has(usual, "<title>tlscope report</title>"));
  EXPECT_TRUE(has(usual, "-_0_0_0/vllm_post_grad.0.FusionPass.diff.html"));
  // Patterns and passes before any subgraph are shown (the reference shows
  // the passes nowhere).
  EXPECT_TRUE(has(index_, "<h2>Inductor Pass Patterns</h2>"));
  EXPECT_TRUE(has(index_, "<a href=\"-_0_0_0/vllm_post_grad.1.ReshapePass.diff.html\">vllm_post_grad.1.ReshapePass.diff</a>"));
}

// test_parse_vllm_sample, on our own sample log; and its compile calls.
TEST_F(Vllm, SampleLog) {
  report(kData / "vllm" / "vllm_sample.log");
  for (const char* p : {"-_0_0_0/vllm_compilation_config", "-_0_0_0/vllm_piecewise_split_graph",
                        "-_-_-_-/vllm_submod_0", "-_-_-_-/vllm_submod_2"})
    EXPECT_TRUE(has_prefix(p)) << p;
  for (const char* s : {"vLLM Compilation Summary", "Dynamo Compilation", "Compilation Configuration",
                        "Piecewise Split Graph", "range [1, 16384]", "size 8", "submod_0", "submod_2"})
    EXPECT_TRUE(has(index_, s)) << s;
  // Two compile calls, the first open; the second hit the AOT cache.
  EXPECT_TRUE(has(index_, "<details class=\"compile-call-section\" open><summary><h2>Compile Call 1: backbone</h2>"));
  EXPECT_TRUE(has(index_, "<details class=\"compile-call-section\"><summary><h2>Compile Call 2: eagle_head "
                          "<span title=\"AOT cache hit\">&#x2705;</span></h2>"));
  EXPECT_EQ(count_of(index_, "&#x2705;"), 1u);
  std::string call1 = between(index_, "Compile Call 1", "Compile Call 2");
  std::string call2 = between(index_, "Compile Call 2", "</body>");
  // Call 1: groups in first-seen order, subgraphs named, files attached.
  EXPECT_LT(call1.find("<h3>range [1, 16384]</h3>"), call1.find("<h3>size 8</h3>"));
  EXPECT_EQ(count_of(call1, "<summary>Subgraphs (2)</summary>"), 2u);
  std::string sub0 = between(call1, "<h4>submod_0</h4>", "</div>");
  EXPECT_TRUE(has(sub0, "-_-_-_-/vllm_piecewise_compile_start_6.json"))  // its own start (reference: the previous)
      << sub0;
  EXPECT_TRUE(has(sub0, "-_-_-_-/vllm_submod_0_7.txt"));
  EXPECT_TRUE(has(sub0, "<summary>Inductor Pass Graphs &amp; Diffs (4 files)</summary>"));
  EXPECT_TRUE(has(sub0, "vllm_post_grad.0.FusionPass.diff.html"));
  // Dynamo's files are the call's own: its graph and metrics, not a subgraph's.
  std::string dynamo1 = between(call1, "<h2>Dynamo Compilation</h2>", "</ul>");
  EXPECT_TRUE(has(dynamo1, "-_0_0_0/dynamo_output_graph_1.txt"));
  EXPECT_TRUE(has(dynamo1, "compilation_metrics_38.html"));
  std::string dynamo2 = between(call2, "<h2>Dynamo Compilation</h2>", "</ul>");
  EXPECT_TRUE(has(dynamo2, "-_1_0_0/dynamo_output_graph_40.txt")) << call2;
  EXPECT_TRUE(has(call2, "<tr><th>Prefix</th><td>eagle_head</td></tr>"));
  EXPECT_FALSE(has(index_, "(shared)"));  // the prefixes differ
  // The config is written twice, as the reference does (file numbers stay its own).
  EXPECT_EQ(read_file(out() / "-_0_0_0" / "vllm_compilation_config_2.json"),
            read_file(out() / "-_0_0_0" / "vllm_compilation_config_3.json"));
  // Pass diffs of each subgraph against its own baseline.
  std::string diff = read_file(out() / "-_-_-_-" / "vllm_post_grad.1.NoOpEliminationPass.diff.html");
  EXPECT_TRUE(has(diff, ">@@ -1,4 +1,5 @@<")) << diff;
}

json ids(int frame) { return {{"frame_id", frame}, {"frame_compile_id", 0}, {"attempt", 0}, {"rank", 0}}; }
json with(json a, const json& b) {
  a.update(b);
  return a;
}
std::string config_record(int frame, const json& config) {
  return record(with({{"artifact", {{"name", "vllm_compilation_config"}, {"encoding", "json"}}}}, ids(frame)),
                config.dump());
}
std::string event_record(int frame, const std::string& type) {
  return record(with({{"artifact", {{"name", "vllm_compile_event"}, {"encoding", "json"}}}}, ids(frame)),
                json({{"type", type}}).dump());
}

TEST_F(Vllm, SharedConfigIsShownOnce) {
  json config = {{"model", "m"}, {"prefix", ""}, {"backend", "inductor"},
                 {"compile_ranges_endpoints", "1,8192"}, {"use_inductor_graph_partition", true}};
  std::string log;
  for (int k : {0, 1}) {
    log += record(with({{"dynamo_output_graph", json::object()}}, ids(k)), std::string("graph"));
    if (k == 1) log += event_record(k, "aot_cache_hit");
    log += config_record(k, config);
  }
  report_text(log);
  EXPECT_EQ(count_of(index_, "<h2>Compilation Configuration"), 1u);
  EXPECT_TRUE(has(index_, "<h2>Compilation Configuration (shared)</h2>"));
  // Endpoints stand for the split points of older vLLM; flags as words.
  EXPECT_TRUE(has(index_, "<tr><th>Compile Ranges</th><td>1,8192</td></tr>"));
  EXPECT_TRUE(has(index_, "<tr><th>Use Inductor Graph Partition</th><td>true</td></tr>"));
  // An empty prefix is not shown; the event goes to the call of the next config.
  EXPECT_TRUE(has(index_, "<h2>Compile Call 1</h2>"));
  EXPECT_TRUE(has(index_, "<h2>Compile Call 2 <span title=\"AOT cache hit\">&#x2705;</span></h2>"));
}

TEST_F(Vllm, OnlyVllmRecordsMakeTheVllmPage) {
  // An ordinary log: no vLLM page.
  report_text(record(with({{"dynamo_output_graph", json::object()}}, ids(0)), std::string("graph")));
  EXPECT_FALSE(fs::exists(out() / "tlparse_index.html"));
  EXPECT_FALSE(has(index_, "vLLM"));
  // A config whose list setting is a real list is not vLLM's config; a
  // compile event alone does not count either.
  report_text(config_record(0, {{"splitting_ops", json::array({"a", "b"})}}) + event_record(0, "fresh_compile"));
  EXPECT_FALSE(fs::exists(out() / "tlparse_index.html"));
  // Log text in the config is escaped on the page.
  report_text(config_record(0, {{"model", "<script>alert(1)</script>"}, {"prefix", "p&q"}}));
  EXPECT_TRUE(fs::exists(out() / "tlparse_index.html"));
  EXPECT_FALSE(has(index_, "<script>alert"));
  EXPECT_TRUE(has(index_, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(has(index_, "<tr><th>Prefix</th><td>p&amp;q</td></tr>"));
}

TEST_F(Vllm, PassWithoutChangesAndFirstPassWithoutBaseline) {
  std::string g = "def forward(self, x):\n    return x";
  auto dump = [&](const std::string& name, const std::string& payload) {
    return record(with({{"graph_dump", {{"name", name}}}}, ids(0)), payload);
  };
  report_text(dump("vllm_post_grad.0.NoOpPass", g) +
              record(with({{"artifact", {{"name", "before_post_grad_graph"}, {"encoding", "string"}}}}, ids(0)), g) +
              dump("vllm_post_grad.1.SamePass", g));
  // The first pass has nothing before it: no diff page.
  EXPECT_FALSE(has_prefix("-_0_0_0/vllm_post_grad.0.NoOpPass.diff.html"));
  std::string same = read_file(out() / "-_0_0_0" / "vllm_post_grad.1.SamePass.diff.html");
  EXPECT_TRUE(has(same, "<div class=\"no-changes\">(no changes)</div>"));
  EXPECT_FALSE(has(same, "diff-table"));
}

}  // namespace
}  // namespace tlscope_test
