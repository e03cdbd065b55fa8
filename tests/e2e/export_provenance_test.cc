// REPORT_FEATURES Part I items 8-16 and 18 (export report, provenance line
// maps with the reference's exact values, kernel stack-trace companion), and
// the graph-inputs table built from describe_* records.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

class CorpusModeTest : public ::testing::Test {
 protected:
  RunResult run(const std::string& input, const std::vector<std::string>& flags) {
    std::vector<std::string> args = {(corpus_inputs() / input).string(), "-o", out().string(),
                                     "--no-browser"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto r = run_tlscope(args, tmp_.path());
    files_ = fs::exists(out()) ? list_files(out()) : std::vector<std::string>{};
    return r;
  }
  fs::path out() const { return tmp_ / "out"; }
  bool has(const std::string& prefix) const {
    for (const auto& f : files_)
      if (f.rfind(prefix, 0) == 0) return true;
    return false;
  }
  bool has_exact(const std::string& path) const {
    for (const auto& f : files_)
      if (f == path) return true;
    return false;
  }
  // The lineMappings JSON embedded in a provenance page.
  json mappings(const std::string& page) const {
    std::string html = read_file(out() / page);
    std::smatch m;
    std::regex re(R"(<script id="lineMappings" type="application/json">([\s\S]*?)</script>)");
    EXPECT_TRUE(std::regex_search(html, m, re)) << page;
    return json::parse(m[1].str());
  }
  static std::set<std::string> keys(const json& j) {
    std::set<std::string> s;
    for (auto it = j.begin(); it != j.end(); ++it) s.insert(it.key());
    return s;
  }
  TempDir tmp_;
  std::vector<std::string> files_;
};

TEST_F(CorpusModeTest, ExportReportFindsTheDataDependentError) {
  auto r = run("export.log", {"--export"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has("-_-_-_-/exported_program"));
  EXPECT_TRUE(has("-_-_-_-/symbolic_guard_information"));
  std::string index = read_file(out() / "index.html");
  EXPECT_NE(index.find("Draft Export Report"), std::string::npos);
  EXPECT_NE(index.find("1 issue(s) were found during export"), std::string::npos);
  EXPECT_NE(index.find("Data Dependent Error"), std::string::npos);
  EXPECT_NE(index.find("href=\"-_-_-_-/exported_program_1.txt\""), std::string::npos);
  // The guard page shows the expression escaped, and its provenance tree.
  std::string page = read_file(out() / "-_-_-_-/symbolic_guard_information_0.html");
  EXPECT_NE(page.find("Eq((((-u0)//3)) + 5, 0)"), std::string::npos);
  EXPECT_NE(page.find("class=\"card\""), std::string::npos);
}

TEST_F(CorpusModeTest, ExportReportFindsTheEvaluatedGuard) {
  auto r = run("export_guard_added.log", {"--export"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has("-_-_-_-/exported_program"));
  EXPECT_TRUE(has("-_-_-_-/symbolic_guard_information"));
  std::string index = read_file(out() / "index.html");
  EXPECT_NE(index.find("Guard Evaluated"), std::string::npos);
  EXPECT_EQ(index.find("Data Dependent Error"), std::string::npos);
}

TEST_F(CorpusModeTest, ExportHonoursStrict) {
  // export.log has a payload with a stale MD5; the reference ignores --strict here (J31).
  auto r = run("export.log", {"--export", "--strict"});
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.error_lines().size(), 1u) << r.err;
  EXPECT_NE(r.error_lines()[0].find("fail_payload_md5: 1"), std::string::npos);
}

TEST_F(CorpusModeTest, ProvenanceAotCuda) {
  auto r = run("inductor_provenance_aot_cuda_log.txt", {"--inductor-provenance"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_exact("-_-_-_-/before_pre_grad_graph_0.txt"));
  EXPECT_TRUE(has_exact("-_-_-_-/after_post_grad_graph_6.txt"));
  EXPECT_TRUE(has_exact("provenance_tracking_-_-_-_-.html"));
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_provenance_tracking_node_mappings_12.json"));
  json m = mappings("provenance_tracking_-_-_-_-.html");
  EXPECT_EQ(keys(m), (std::set<std::string>{"cppCodeToPost", "postToCppCode", "postToPre",
                                            "postToPyCode", "preToPost", "pyCodeToPost"}));
  EXPECT_EQ(m["cppCodeToPost"]["1060"], json({14, 27, 24}));
  EXPECT_EQ(m["postToCppCode"]["24"], json({1071, 1060, 1079}));
  EXPECT_TRUE(m["pyCodeToPost"].empty());
  EXPECT_TRUE(m["postToPyCode"].empty());
  EXPECT_NE(read_file(out() / "index.html").find("provenance_tracking_-_-_-_-.html"),
            std::string::npos);
}

TEST_F(CorpusModeTest, ProvenanceAotDebugHandle) {
  auto r = run("inductor_provenance_aot_debug_handle_log.txt", {"-i"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has_exact("-_-_-_-/before_pre_grad_graph_0.txt"));
  EXPECT_TRUE(has_exact("-_-_-_-/after_post_grad_graph_6.txt"));
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_provenance_tracking_node_mappings_10.json"));
  json m = mappings("provenance_tracking_-_-_-_-.html");
  EXPECT_EQ(m["cppCodeToPost"]["1079"], json({19, 16, 13}));
}

TEST_F(CorpusModeTest, ProvenanceAotLog) {
  ASSERT_EQ(run("inductor_provenance_aot_log.txt", {"-i"}).exit_code, 0);
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_provenance_tracking_node_mappings_11.json"));
  json m = mappings("provenance_tracking_-_-_-_-.html");
  EXPECT_EQ(keys(m["cppCodeToPost"]), (std::set<std::string>{"813", "821", "829", "834"}));
}

TEST_F(CorpusModeTest, ProvenanceAotLogOldNamesUseTheFallbacks) {
  ASSERT_EQ(run("inductor_provenance_aot_log_old.txt", {"-i"}).exit_code, 0);
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_pre_grad_graph_0.txt"));
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_post_grad_graph_8.txt"));
  EXPECT_TRUE(has_exact("-_-_-_-/inductor_provenance_tracking_node_mappings_11.json"));
  json m = mappings("provenance_tracking_-_-_-_-.html");
  EXPECT_EQ(keys(m["cppCodeToPost"]), (std::set<std::string>{"704", "717"}));
}

TEST_F(CorpusModeTest, ProvenanceJitCuda) {
  ASSERT_EQ(run("inductor_provenance_jit_cuda_log.txt", {"-i"}).exit_code, 0);
  EXPECT_TRUE(has_exact("-_0_0_0/before_pre_grad_graph_1.txt"));
  EXPECT_TRUE(has_exact("-_0_0_0/after_post_grad_graph_8.txt"));
  EXPECT_TRUE(has_exact("-_0_0_0/inductor_provenance_tracking_node_mappings_14.json"));
  EXPECT_TRUE(has_exact("provenance_tracking_-_0_0_0.html"));
  json m = mappings("provenance_tracking_-_0_0_0.html");
  EXPECT_EQ(keys(m["pyCodeToPost"]), (std::set<std::string>{"186", "192", "197", "201", "207"}));
  EXPECT_TRUE(m["cppCodeToPost"].empty());
  EXPECT_TRUE(m["postToCppCode"].empty());
}

TEST_F(CorpusModeTest, ProvenanceJitLog) {
  ASSERT_EQ(run("inductor_provenance_jit_log.txt", {"-i"}).exit_code, 0);
  EXPECT_TRUE(has_exact("-_0_0_0/inductor_provenance_tracking_node_mappings_13.json"));
  json m = mappings("provenance_tracking_-_0_0_0.html");
  EXPECT_EQ(keys(m["pyCodeToPost"]), (std::set<std::string>{"132", "138", "142", "147"}));
}

TEST_F(CorpusModeTest, ProvenanceJitDebugHandleExactMap) {
  ASSERT_EQ(run("inductor_provenance_jit_debug_handle_log.txt", {"-i"}).exit_code, 0);
  EXPECT_TRUE(has_exact("-_0_0_0/after_post_grad_graph_11.txt"));
  EXPECT_TRUE(has_exact("-_0_0_0/inductor_provenance_tracking_node_mappings_14.json"));
  json m = mappings("provenance_tracking_-_0_0_0.html");
  EXPECT_EQ(m["pyCodeToPost"], json::parse(R"({"197": [5], "204": [12, 9, 6, 29], "211": [15],
      "216": [18], "223": [26, 22, 19, 25, 24, 23]})"));
}

TEST_F(CorpusModeTest, ProvenancePageEscapesTheCode) {
  ASSERT_EQ(run("inductor_provenance_jit_log.txt", {"-i", "-p"}).exit_code, 0);
  std::string page = read_file(out() / "provenance_tracking_-_0_0_0.html");
  // Python code is shown as text: its quotes and comparisons arrive escaped.
  EXPECT_EQ(page.find("<module>"), std::string::npos);
  EXPECT_NE(page.find("def call(args)"), std::string::npos);
}

TEST_F(CorpusModeTest, KernelStackTraceCompanionIsReadable) {
  ASSERT_EQ(run("inductor_provenance_extended_log.txt", {}).exit_code, 0);
  std::string json_file, readable;
  for (const auto& f : files_) {
    if (f.find("inductor_provenance_tracking_kernel_stack_traces") != std::string::npos &&
        f.size() > 5 && f.substr(f.size() - 5) == ".json")
      json_file = f;
    if (f.size() > 14 && f.substr(f.size() - 14) == "_readable.html") readable = f;
  }
  ASSERT_FALSE(json_file.empty());
  ASSERT_FALSE(readable.empty());
  // Same stem: the companion belongs to the JSON file.
  EXPECT_EQ(readable, json_file.substr(0, json_file.size() - 5) + "_readable.html");
  std::string html = read_file(out() / readable);
  EXPECT_NE(html.find("line 1\n  foo()"), std::string::npos);
  EXPECT_EQ(html.find("\\n"), std::string::npos);
  std::string index = read_file(out() / "index.html");
  EXPECT_NE(index.find("_readable.html\">readable_html</a>"), std::string::npos);
  // compile_directory.json: the readable_url of the JSON entry, and its number
  // is the one its file name carries (J26 fixed).
  json dir = json::parse(read_file(out() / "compile_directory.json"));
  bool found = false;
  for (auto& [key, entry] : dir.items())
    for (auto& a : entry["artifacts"])
      if (a["url"] == json_file) {
        found = true;
        EXPECT_EQ(a["readable_url"], readable);
        std::string n = std::to_string(a["number"].get<int>());
        EXPECT_NE(json_file.find("_" + n + ".json"), std::string::npos) << json_file;
      }
  EXPECT_TRUE(found);
}

TEST_F(CorpusModeTest, GraphInputsTableFromDescribeRecords) {
  ASSERT_EQ(run("simple.log", {}).exit_code, 0);
  std::string page = read_file(out() / "-_0_0_0/compilation_metrics_9.html");
  size_t table = page.find("<h2>Graph inputs</h2>");
  ASSERT_NE(table, std::string::npos);
  std::string rows = page.substr(table);
  // Values may wrap between their parts (<wbr>), never inside one.
  EXPECT_NE(rows.find("torch.<wbr>float32"), std::string::npos);
  EXPECT_NE(rows.find("[1,<wbr> 320,<wbr> 128,<wbr> 128]"), std::string::npos);
  for (size_t at; (at = rows.find("<wbr>")) != std::string::npos;) rows.erase(at, 5);
  EXPECT_NE(rows.find("<code>L[&#39;x&#39;]</code>"), std::string::npos);
  EXPECT_NE(rows.find("[1, 320, 128, 128]"), std::string::npos);
  EXPECT_NE(rows.find("torch.float32"), std::string::npos);
  EXPECT_NE(rows.find("device(type=&#39;cuda&#39;, index=0)"), std::string::npos);
}

}  // namespace
}  // namespace tlscope_test
