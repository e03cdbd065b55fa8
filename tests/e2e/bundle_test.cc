// tlscope bundle LOG -o FILE.tar.zst (issue 13): the bundle's log reads as
// the original does (compile ids, counts, doctor classes, line statistics),
// and nothing that was redacted survives in any byte of the bundle. Runs on
// a log made here with a marker in every place redaction covers, on the
// recorded PyTorch traces and on every corpus log.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "doctor_helpers.h"
#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

struct Bundle {
  int exit_code = -1;
  std::string err;
  std::string tar;  // the decompressed archive, every byte of it
  std::vector<std::string> files;
  fs::path log;  // the bundle's log, extracted
  json manifest, summary;
};

Bundle make_bundle(const fs::path& log, const fs::path& dir, std::vector<std::string> extra = {}) {
  Bundle b;
  fs::create_directories(dir / "x");
  std::vector<std::string> args = {"bundle", log.string(), "-o", (dir / "b.tar.zst").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_tlscope(args, dir);
  b.exit_code = r.exit_code;
  b.err = r.err;
  if (r.exit_code != 0) return b;
  EXPECT_EQ(r.out, (dir / "b.tar.zst").string() + "\n");
  EXPECT_EQ(run_shell("zstd -dqc '" + (dir / "b.tar.zst").string() + "' > '" +
                      (dir / "b.tar").string() + "'"),
            0);
  b.tar = read_file(dir / "b.tar");
  EXPECT_EQ(
      run_shell("tar -xf '" + (dir / "b.tar").string() + "' -C '" + (dir / "x").string() + "'"), 0);
  for (const auto& f : list_files(dir / "x")) b.files.push_back(f);
  b.manifest = json::parse(read_file(dir / "x/tlscope-bundle/manifest.json"), nullptr, false);
  b.summary = json::parse(read_file(dir / "x/tlscope-bundle/summary.json"), nullptr, false);
  if (b.manifest.is_object())
    b.log = dir / "x/tlscope-bundle" / b.manifest["log"]["file"].get<std::string>();
  return b;
}

// What redaction must not change in `tlscope summary --json`: every count,
// compile id and class; reason texts and file paths may change.
json doctor_shape(const json& s) {
  json frames = json::array(), breaks = json::array(), failures = json::array(),
       advice = json::array(), slowest = json::array();
  for (const auto& f : s["frames"]) {
    json reasons = json::array();
    for (const auto& r : f["recompile_reasons"])
      reasons.push_back({r["compile_id"], r["failed_compile_id"], r["category"]});
    frames.push_back({f["frame_id"], f["run"], f["name"], f["line"], f["compiles"], f["recompiles"],
                      f["restarts"], f["failures"], f["compile_time_s"], f["compile_ids"],
                      f["recompile_limit_hit"], reasons});
  }
  for (const auto& g : s["graph_breaks"])
    breaks.push_back({g["category"], g["count"], g["compile_ids"]});
  for (const auto& f : s["failures"])
    failures.push_back({f["compile_id"], f["category"], f["fail_type"], f["ran_eagerly"]});
  for (const auto& a : s["advice"]) advice.push_back({a["category"], a["compile_ids"]});
  for (const auto& c : s["slowest_compiles"]) slowest.push_back({c["compile_id"], c["seconds"]});
  return {{"totals", s["totals"]}, {"frames", frames}, {"graph_breaks", breaks},
          {"failures", failures},  {"advice", advice}, {"slowest", slowest}};
}

// The line statistics and compile folders of a full report of `log`.
struct ReportFacts {
  std::map<std::string, long long> stats;
  std::set<std::string> compile_ids;
  std::map<std::string, std::vector<std::string>> artifacts;  // per compile id, names
};
ReportFacts report_facts(const fs::path& log, const fs::path& out, const fs::path& scratch) {
  ReportFacts f;
  RunResult r =
      run_tlscope({log.string(), "-o", out.string(), "--no-browser", "--overwrite"}, scratch);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  f.stats = parse_stats(r.err);
  f.stats.erase("invalid_utf8");  // replaced code payloads take their bytes with them
  json dir = json::parse(read_file(out / "compile_directory.json"), nullptr, false);
  for (auto it = dir.begin(); it != dir.end(); ++it) {
    f.compile_ids.insert(it.key());
    for (const auto& a : it.value()["artifacts"]) {
      std::string url = a.value("url", "");
      // Links point where the log says; their targets are paths, redacted.
      if (url.rfind("http", 0) == 0 || url.find("://") != std::string::npos) continue;
      f.artifacts[it.key()].push_back(a["name"].get<std::string>());
    }
  }
  return f;
}

void expect_same_reading(const fs::path& original, const Bundle& b, const fs::path& scratch) {
  ASSERT_FALSE(b.log.empty());
  json a = summary_json(original, scratch), c = summary_json(b.log, scratch);
  EXPECT_EQ(doctor_shape(a), doctor_shape(c))
      << "original:\n"
      << doctor_shape(a).dump(1).substr(0, 3000) << "\nbundle:\n"
      << doctor_shape(c).dump(1).substr(0, 3000);
  // summary.json in the bundle is the doctor of the bundle's log.
  EXPECT_EQ(doctor_shape(b.summary), doctor_shape(c));
  ReportFacts fa = report_facts(original, scratch / "ra", scratch);
  ReportFacts fb = report_facts(b.log, scratch / "rb", scratch);
  EXPECT_EQ(fa.stats, fb.stats);
  EXPECT_EQ(fa.compile_ids, fb.compile_ids);
  EXPECT_EQ(fa.artifacts, fb.artifacts);
}

void expect_absent(const Bundle& b, const std::string& what, const std::string& why) {
  EXPECT_EQ(b.tar.find(what), std::string::npos) << why << ": \"" << what << "\" is in the bundle";
}

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
            (std::vector<std::string>{"tlscope-bundle/README.txt", "tlscope-bundle/manifest.json",
                                      "tlscope-bundle/secret.log", "tlscope-bundle/summary.json"}));
  ASSERT_FALSE(b.tar.empty());
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
  EXPECT_EQ(c["folders_replaced"], 2);  // the project (also behind file://) and runs/SECRETRUN
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

// ---- Real logs: recorded traces and the corpus ---------------------------

// Folders an original log names in fields that are always paths: the str
// table and co_filename. Their first two levels must not reach the bundle.
std::set<std::string> folder_prefixes(const std::string& log) {
  std::set<std::string> out;
  static const std::regex path_re(R"re("(?:str": \[|co_filename": )"(/[^"]+)")re");
  for (std::sregex_iterator it(log.begin(), log.end(), path_re), end; it != end; ++it) {
    std::string p = (*it)[1];
    size_t second = p.find('/', 1);
    size_t third = second == std::string::npos ? second : p.find('/', second + 1);
    if (third == std::string::npos) continue;  // "/x.py", "/a/x.py": too short to be telling
    out.insert(p.substr(0, third + 1));
  }
  return out;
}

// Long lines of generated code: payload lines of inductor_output_code.
std::set<std::string> code_lines(const std::string& log) {
  std::set<std::string> out;
  bool in_code = false;
  for (const auto& line : split_lines(log)) {
    if (line.empty()) continue;
    if (line[0] != '\t') {
      in_code = line.find("\"inductor_output_code\"") != std::string::npos;
      continue;
    }
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    std::string t = line.substr(start);
    if (in_code && t.size() >= 40 && t[0] != '#' && t.find("import ") == std::string::npos)
      out.insert(t);
  }
  return out;
}

struct RealLog {
  std::string name;
  fs::path path;
};

std::vector<RealLog> real_logs(bool corpus) {
  std::vector<RealLog> v;
  if (!corpus) {
    for (const auto& e : fs::directory_iterator(kRecorded))
      if (e.is_regular_file() && e.path().extension() == ".gz")
        v.push_back({param_name(e.path().stem().stem().string()), e.path()});
  } else if (corpus_present()) {
    for (fs::path dir :
         {kCorpusRoot / "tlparse/inputs", kCorpusRoot / "tlparse_upstream/tests/inputs"})
      if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir))
          if (e.is_regular_file())
            v.push_back({param_name(dir.parent_path().filename().string() + "_" +
                                    e.path().filename().string()),
                         e.path()});
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return v;
}

class BundleRealLog : public ::testing::TestWithParam<RealLog> {
 protected:
  TempDir tmp_;
};

TEST_P(BundleRealLog, ReadsAsTheOriginalAndHidesFoldersAndCode) {
  const RealLog& l = GetParam();
  Bundle b = make_bundle(l.path, tmp_ / "b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  expect_same_reading(l.path, b, tmp_.path());
  std::string log = load_log(l.path);
  for (const auto& p : folder_prefixes(log)) expect_absent(b, p, "a folder of a source path");
  for (const auto& c : code_lines(log)) expect_absent(b, c, "a line of generated code");
}

std::string real_name(const ::testing::TestParamInfo<RealLog>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Recorded, BundleRealLog, ::testing::ValuesIn(real_logs(false)), real_name);
INSTANTIATE_TEST_SUITE_P(Corpus, BundleRealLog, ::testing::ValuesIn(real_logs(true)), real_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BundleRealLog);

}  // namespace
}  // namespace tlscope_test
