// tlscope bundle LOG -o FILE.tar.zst (issue 13): on a log made here with a
// marker in every place redaction covers, nothing that was redacted survives
// in any byte of the bundle and the bundle's log reads as the original does;
// the options and errors of the command. The same promises on every real
// log: bundle_property_test.cc.
#include <algorithm>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "bundle_helpers.h"
#include "log_oracle.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

// ---- A log with a marker in every place redaction covers ----------------

json ids(int frame, int fcid) {
  return {{"frame_id", frame}, {"frame_compile_id", fcid}, {"attempt", 0}};
}
json with(json a, const json& b) {
  a.update(b);
  return a;
}
std::string artifact(int frame, int fcid, const std::string& name, const std::string& encoding,
                     const std::string& payload) {
  return record(with({{"artifact", {{"name", name}, {"encoding", encoding}}}}, ids(frame, fcid)),
                payload);
}

const std::string kHome = "/home/SECRETUSER/SECRETPROJECT";

std::string marker_log() {
  std::string log;
  log += record({{"str", {kHome + "/model.py", 0}}});
  json frame = {{"line", 3}, {"name", "forward"}, {"filename", 0}, {"loc", "y = SECRETLOC(x)"}};
  log += record(with({{"dynamo_start", {{"stack", {frame}}}}}, ids(0, 0)));
  log += record(with({{"dynamo_output_graph", {{"sizes", {{"l_x_", {4, 4}}}}}}}, ids(0, 0)),
                "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_):\n"
                "        y = L_x_ + 1  # SECRETGRAPHCOMMENT\n        return (y,)");
  log += record(with({{"dynamo_guards", json::object()}}, ids(0, 0)),
                json::array({{{"code", "L['mode'] == 'SECRETGUARD'"}}}).dump());
  log += record(with({{"dynamo_cpp_guards_str", json::object()}}, ids(0, 0)),
                "TREE_GUARD_MANAGER:\n| +- EQUALS_MATCH: L['mode'] == 'SECRETGUARD'   "
                "# if mode == SECRETSOURCE:  # model.py:4 in forward");
  log += record(
      with({{"inductor_output_code", {{"filename", "/tmp/torchinductor_SECRETUSER/ab/cab.py"}}}},
           ids(0, 0)),
      "def call(args):\n    SECRETKERNEL = 1");
  log += artifact(0, 0, "fx_graph_cache_miss", "json",
                  json({{"components", {"gm: def forward(self): SECRETCACHE"}}}).dump());
  log += record(
      with({{"link", {{"name", "profile"}, {"url", "file://" + kHome + "/p.html"}}}}, ids(0, 0)));
  log += record(with({{"chromium_event", json::object()}}, ids(0, 0)),
                json({{"name", "compile"},
                      {"ph", "B"},
                      {"ts", 1},
                      {"pid", 0},
                      {"tid", 0},
                      {"args", {{"cwd", kHome + "/runs/SECRETRUN/x.txt"}}}})
                    .dump());
  json m0 = {{"co_name", "forward"},
             {"co_filename", kHome + "/model.py"},
             {"co_firstlineno", 3},
             {"entire_frame_compile_time_s", 1.5},
             {"graph_op_count", 3}};
  log += record(with({{"compilation_metrics", m0}}, ids(0, 0)));
  // Code and paths where no rule keyed by name looks: a data artifact that
  // quotes the graph, a chromium event with a compiler flag and a path as a
  // key, a traceback escaped twice, source lines of an export-mode record.
  log += artifact(0, 0, "fx_graph_cache_hash", "json",
                  json({{"key", "abc"},
                        {"components",
                         {"[h] gm: <lambda>()\n\ndef forward(self, SECRETARG):\n"
                          "    SECRETVAR = torch.ops.aten.mul.Tensor(SECRETARG, 2)\n"
                          "    return (SECRETVAR,)"}}})
                      .dump());
  log += record(with({{"chromium_event", json::object()}}, ids(0, 0)),
                json({{"name", "cache"},
                      {"ph", "i"},
                      {"ts", 2},
                      {"pid", 0},
                      {"tid", 0},
                      {"args",
                       {{"cmd", "gcc -I/home/SECRETUSER2/.local/include -shared x.c"},
                        {"/data/SECRETDATA/external/x.bin", 1}}}})
                    .dump());
  log += artifact(0, 0, "inductor_provenance_tracking_kernel_stack_traces", "json",
                  json({{"triton_poi_0",
                         {"  File \"/srv/SECRETSRV/m.py\", line 3, in f\\n"
                          "    q = SECRETQ(x) * 2\\n"}}})
                      .dump());
  log +=
      record(with({{"expression_created",
                    {{"method", "add"},
                     {"result", "s0 + 1"},
                     {"user_stack",
                      {{{"line", 3}, {"name", "f"}, {"filename", 0}, {"loc", "z = SECRETZ + 1"}}}},
                     {"floc", "  File \"m.py\", line 3, in f\n    return SECRETRET(x)"}}}},
                  ids(0, 0)));
  // A recompile on a string constant, and a graph break with a traceback.
  log += artifact(0, 1, "recompile_reasons", "json",
                  json::array({"0/0: L['mode'] == 'SECRETGUARD'"}).dump());
  log += artifact(0, 1, "dynamo_graph_break_reason", "string",
                  "Graph break in user code at " + kHome +
                      "/model.py:5\n"
                      "Graph Break Reason: Call to `print` (builtin 'SECRETARG')\n"
                      "User code traceback:\n  File \"" +
                      kHome + "/model.py\", line 5, in forward\n    print(SECRETTRACEBACK)");
  json m1 = {{"co_name", "forward"},
             {"co_filename", kHome + "/model.py"},
             {"co_firstlineno", 3},
             {"entire_frame_compile_time_s", 0.5},
             {"fail_type", "RuntimeError"},
             {"fail_reason", "bad value 'SECRETFAIL' in " + kHome + "/model.py"}};
  log += record(with({{"compilation_metrics", m1}}, ids(0, 1)));
  // A line that is no record, an envelope that is no JSON, and a stale digest.
  log += "SECRETJUNK printed by the program\n";
  log += envelope_line("{\"SECRETBADJSON\": ") + "\n";
  std::string stale = record(with({{"dynamo_output_graph", json::object()}}, ids(1, 0)), "x = 1");
  size_t at = stale.find(md5_hex("x = 1"));
  stale.replace(at, 32, md5_hex("SECRETSTALE"));
  log += stale;
  return log;
}

class BundleTest : public ::testing::Test {
 protected:
  TempDir tmp_;
};

TEST_F(BundleTest, NoMarkerSurvivesAnywhereInTheBundle) {
  write_file(tmp_ / "secret.log", marker_log());
  Bundle b = make_bundle(tmp_ / "secret.log", tmp_ / "b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.files,
            (std::vector<std::string>{"tlscope-bundle/ISSUE.md", "tlscope-bundle/README.txt",
                                      "tlscope-bundle/manifest.json", "tlscope-bundle/secret.log",
                                      "tlscope-bundle/summary.json"}));
  ASSERT_FALSE(b.tar.empty());
  // In every file, the drafted ISSUE.md included.
  expect_absent(b, "SECRET", "a marker");
  // What stays: names, numbers, shapes, file names and the placeholders.
  std::string log = read_file(b.log);
  for (std::string kept : std::vector<std::string>{
           "\"l_x_\":[4,4]", "\"co_name\":\"forward\"", "<dir-1>/model.py",
           "<inductor-cache>/ab/cab.py", "L['mode'] == '<str-1>'",
           "redacted: 2 lines, md5 " + md5_hex("def call(args):\n    SECRETKERNEL = 1"),
           "    <code>", "   # <code>  # model.py:4 in forward", "\"loc\":\"<code>\""})
    EXPECT_NE(log.find(kept), std::string::npos) << kept << "\n" << log;
  const json& c = b.manifest["counts"];
  EXPECT_EQ(c["code_payloads_replaced"], 4);  // graph x2, output code, cache-miss JSON
  EXPECT_EQ(c["lines_not_records_replaced"], 1);
  EXPECT_EQ(c["invalid_json_replaced"], 1);
  // Every physical line, payload lines included.
  std::string original = marker_log();
  EXPECT_EQ(c["lines_read"], std::count(original.begin(), original.end(), '\n') +
                                 (original.empty() || original.back() == '\n' ? 0 : 1));
  // The project (also behind file://), runs/SECRETRUN, the -I folder, the
  // folder in a key and the one in the twice-escaped traceback.
  EXPECT_EQ(c["folders_replaced"], 5);
  EXPECT_EQ(b.manifest["code_payloads_by_kind"], json({{"artifact fx_graph_cache_miss", 1},
                                                       {"dynamo_output_graph", 2},
                                                       {"inductor_output_code", 1}}));
  EXPECT_EQ(b.manifest["redacted"], json({{"code", true}, {"paths", true}, {"strings", true}}));
  EXPECT_EQ(b.manifest["tlscope_version"].get<std::string>().empty(), false);
  expect_same_reading(tmp_ / "secret.log", b, tmp_.path());
}

TEST_F(BundleTest, TheDoctorReadsTheBundleAsTheOriginal) {
  write_file(tmp_ / "secret.log", marker_log());
  Bundle b = make_bundle(tmp_ / "secret.log", tmp_ / "b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  json s = summary_json(b.log, tmp_.path());
  ASSERT_EQ(s["frames"].size(), 1u);  // frame 1 has no metrics
  EXPECT_EQ(s["frames"][0]["recompile_reasons"][0]["category"], "constant");
  EXPECT_EQ(s["graph_breaks"][0]["category"], "print_logging");
  EXPECT_EQ(s["failures"][0]["compile_id"], "0/1");
  EXPECT_EQ(s["graph_breaks"][0]["user_frame"], "<dir-1>/model.py:5");
  ReportFacts f = report_facts(b.log, tmp_ / "r", tmp_.path());
  EXPECT_EQ(f.stats["fail_glog"], 1);
  EXPECT_GE(f.stats["fail_json"], 1);
  EXPECT_EQ(f.stats["fail_payload_md5"], 1);  // the stale digest stays stale
}

TEST_F(BundleTest, RedactOnlyWhatIsAskedFor) {
  write_file(tmp_ / "secret.log", marker_log());
  Bundle paths = make_bundle(tmp_ / "secret.log", tmp_ / "p", {"--redact", "paths"});
  ASSERT_EQ(paths.exit_code, 0) << paths.err;
  expect_absent(paths, "SECRETUSER", "a folder");
  expect_absent(paths, "SECRETPROJECT", "a folder");
  EXPECT_NE(paths.tar.find("SECRETKERNEL"), std::string::npos);
  EXPECT_NE(paths.tar.find("'SECRETGUARD'"), std::string::npos);
  EXPECT_EQ(paths.manifest["redacted"],
            json({{"code", false}, {"paths", true}, {"strings", false}}));
  expect_same_reading(tmp_ / "secret.log", paths, tmp_.path());

  Bundle two = make_bundle(tmp_ / "secret.log", tmp_ / "t", {"--redact", "code,strings"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  expect_absent(two, "SECRETKERNEL", "code");
  expect_absent(two, "SECRETGUARD", "a string constant");
  EXPECT_NE(two.tar.find("SECRETPROJECT"), std::string::npos);
  EXPECT_EQ(two.manifest["redacted"], json({{"code", true}, {"paths", false}, {"strings", true}}));
}

TEST_F(BundleTest, UsageErrors) {
  write_file(tmp_ / "a.log", marker_log());
  RunResult bad = run_tlscope({"bundle", (tmp_ / "a.log").string(), "--redact", "secrets", "-o",
                               (tmp_ / "b.tar.zst").string()},
                              tmp_.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(
      bad.error_lines(),
      std::vector<std::string>{"Error: --redact secrets: use code, paths, strings, all or none"});
  write_file(tmp_ / "b.tar.zst", "keep me");
  RunResult exists = run_tlscope(
      {"bundle", (tmp_ / "a.log").string(), "-o", (tmp_ / "b.tar.zst").string()}, tmp_.path());
  EXPECT_EQ(exists.exit_code, 1);
  EXPECT_EQ(read_file(tmp_ / "b.tar.zst"), "keep me");
  EXPECT_NE(exists.err.find("--overwrite"), std::string::npos) << exists.err;
  RunResult missing = run_tlscope({"bundle", (tmp_ / "nope.log").string()}, tmp_.path());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(list_files(tmp_.path()), (std::vector<std::string>{"a.log", "b.tar.zst"}));
}

// The name says how the bundle is compressed (zstd, gzip, xz: each read
// back by tar), and a name of another kind is refused before anything is
// written.
TEST_F(BundleTest, CompressionFollowsTheName) {
  write_file(tmp_ / "a.log", marker_log());
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"b.tar.zst", "\x28\xb5\x2f\xfd"}, {"b.tar.gz", "\x1f\x8b"}, {"b.tgz", "\x1f\x8b"},
      {"b.tar.xz", "\xfd\x37\x7a\x58\x5a"}};
  for (const auto& [name, magic] : kinds) {
    RunResult r = run_tlscope({"bundle", (tmp_ / "a.log").string(), "-o", (tmp_ / name).string()},
                              tmp_.path());
    ASSERT_EQ(r.exit_code, 0) << name << r.err;
    EXPECT_EQ(read_file(tmp_ / name).substr(0, magic.size()), magic) << name;
    fs::create_directories(tmp_ / ("x_" + name));
    EXPECT_EQ(run_shell("tar -xaf '" + (tmp_ / name).string() + "' -C '" +
                        (tmp_ / ("x_" + name)).string() + "'"),
              0)
        << name;
    EXPECT_TRUE(fs::exists(tmp_ / ("x_" + name) / "tlscope-bundle" / "manifest.json")) << name;
  }
  for (const char* name : {"b.zip", "b.tar", "b.gz"}) {
    RunResult r = run_tlscope({"bundle", (tmp_ / "a.log").string(), "-o", (tmp_ / name).string()},
                              tmp_.path());
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_EQ(r.err, "Error: -o " + (tmp_ / name).string() +
                         ": a bundle is a tar archive; name it .tar.zst, .tar.gz or .tar.xz (the "
                         "compression follows the name)\n");
    EXPECT_FALSE(fs::exists(tmp_ / name));
  }
}

TEST_F(BundleTest, CompressedInputAndOverwrite) {
  gzip_file(marker_log(), tmp_ / "secret.log.gz");
  Bundle b = make_bundle(tmp_ / "secret.log.gz", tmp_ / "b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.manifest["log"]["file"], "secret.log");
  expect_absent(b, "SECRET", "a marker");
  Bundle again = make_bundle(tmp_ / "secret.log.gz", tmp_ / "b", {"--overwrite"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  // Nothing left beside the bundle.
  for (const auto& f : list_files(tmp_ / "b"))
    EXPECT_TRUE(f == "b.tar.zst" || f == "b.tar" || f.rfind("x/", 0) == 0) << f;
}

}  // namespace
}  // namespace tlscope_test
