// The bundle's promise as a property, checked on every log we have (the
// corpus, the recorded PyTorch traces, the logs of tests/ and examples/) in
// every redaction mode: no line of code and no folder of an absolute path
// of the original survives anywhere in the bundle (tests/support/
// leak_detector.h looks for the things themselves, in every file and every
// JSON-decoded form), and the doctor reads the bundle's log as it reads the
// original. With --redact none the same detector must find what is there,
// so that a detector that finds nothing cannot pass for a safe bundle.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "bundle_helpers.h"
#include "every_log.h"
#include "leak_detector.h"

namespace tlscope_test {
namespace {

namespace lk = leaks;

struct Mode {
  std::string name;
  std::vector<std::string> args;
  bool code, paths;
};
const std::vector<Mode> kModes = {{"all", {}, true, true},
                                  {"code", {"--redact", "code"}, true, false},
                                  {"paths", {"--redact", "paths"}, false, true},
                                  {"strings", {"--redact", "strings"}, false, false},
                                  {"none", {"--redact", "none"}, false, false}};

void PrintTo(const Mode& m, std::ostream* os) { *os << m.name; }

std::string listing(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < 5; ++i) s += "\n    " + v[i].substr(0, 160);
  if (v.size() > 5) s += "\n    ... " + std::to_string(v.size() - 5) + " more";
  return s;
}

// The doctor's shape of a summary, or of each rank's (text of several ranks).
json shapes(const json& s) {
  if (!s.contains("ranks")) return doctor_shape(s);
  json all = json::array();
  for (const auto& r : s["ranks"]) all.push_back({r["rank"], doctor_shape(r["summary"])});
  return all;
}

json text_counts(const json& s) {
  if (!s.contains("ranks")) return s["source"]["text"];
  json all = json::array();
  for (const auto& r : s["ranks"]) all.push_back(r["summary"]["source"]["text"]);
  return all;
}

class BundleProperty : public ::testing::TestWithParam<std::tuple<RealLog, Mode>> {
 protected:
  TempDir tmp_;
};

TEST_P(BundleProperty, NoCodeNoFoldersAndTheSameDoctor) {
  const auto& [log, mode] = GetParam();
  Bundle b = make_bundle(log.path, tmp_ / "b", mode.args);
  // Files of the corpus that are no log (messy rank folders) are refused,
  // as by every command, and no bundle is written.
  if (!is_log_file(log.path)) {
    EXPECT_EQ(b.exit_code, 1);
    EXPECT_EQ(b.err, neither_error(log.path));
    EXPECT_FALSE(fs::exists(tmp_ / "b" / "b.tar.zst"));
    return;
  }
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ASSERT_FALSE(b.tar.empty());
  std::string original = load_log(log.path);
  lk::Leaks l = lk::find_leaks(original, b.tar, mode.code, mode.paths);
  EXPECT_TRUE(l.code.empty()) << l.code.size()
                              << " lines of code of the original survive:" << listing(l.code);
  EXPECT_TRUE(l.folders.empty()) << l.folders.size()
                                 << " folders of the original survive:" << listing(l.folders);
  if (mode.name == "none") {
    // Nothing was redacted: what the original holds, the detector finds.
    lk::Leaks all = lk::find_leaks(original, b.tar);
    EXPECT_EQ(all.code.empty(), lk::code_lines(original).empty());
    EXPECT_EQ(all.folders.size(), lk::path_folders(original).size()) << listing(all.folders);
  }
  json a = summary_json(log.path, tmp_.path()), c = summary_json(b.log, tmp_.path());
  EXPECT_EQ(shapes(a), shapes(c)) << "original:\n"
                                  << shapes(a).dump(1).substr(0, 3000) << "\nbundle:\n"
                                  << shapes(c).dump(1).substr(0, 3000);
  EXPECT_EQ(shapes(b.summary), shapes(c));
  if (b.manifest["log"]["kind"] == "torch_logs") {
    // Text: its lines, the program's output among them, and guard dumps
    // are counted as in the original.
    EXPECT_EQ(text_counts(a), text_counts(c));
    return;
  }
  // The full report (line statistics, compile ids, artifacts) once per log.
  if (mode.name == "all") expect_same_reading(log.path, b, tmp_.path());
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<RealLog, Mode>>& info) {
  return std::get<0>(info.param).name + "_" + std::get<1>(info.param).name;
}
// The corpus's names start with "Corpus": a lone clone leaves them out.
INSTANTIATE_TEST_SUITE_P(Logs, BundleProperty,
                         ::testing::Combine(::testing::ValuesIn(every_log()),
                                            ::testing::ValuesIn(kModes)),
                         case_name);

// ---- The detector itself: it finds what is there ------------------------

TEST(LeakDetector, FindsCodeAndFoldersInEveryForm) {
  std::string original =
      R"x({"loc": "total_secret_loss = criterion(output, target)"})x"
      "\n\tdef forward(self, L_x_ : torch.Tensor):\n"
      R"x({"components": ["gm:\n    add = torch.ops.aten.add.Tensor(erf, 1);  erf = None\n"]})x"
      "\n-I/home/alice/.local/include /data/team/external/x.bin file:///srv/www/p.html\n";
  std::set<std::string> code = lk::code_lines(original);
  EXPECT_EQ(code, (std::set<std::string>{"def forward(self, L_x_ : torch.Tensor):",
                                         "add = torch.ops.aten.add.Tensor(erf, 1);  erf = None",
                                         "total_secret_loss = criterion(output, target)"}));
  EXPECT_EQ(lk::path_folders(original),
            (std::set<std::string>{"/home/alice/", "/data/team/", "/srv/www/"}));
  // Found again when the bundle holds them escaped once more.
  std::string shared = json(original).dump();
  lk::Leaks l = lk::find_leaks(original, shared);
  EXPECT_EQ(l.code.size(), 3u);
  EXPECT_EQ(l.folders.size(), 3u);
  EXPECT_FALSE(lk::find_leaks(original, "<code> <dir-1>/x.bin").any());
}

TEST(LeakDetector, LeavesProseGuardsAndRelativePaths) {
  for (std::string_view text :
       {"L['x'].size()[0] == 4  # a guard, not code, even if it is long",
        "source=L['x'], accessed_by=DictGetItemGuardAccessor('x')",
        "subclass_inp_meta=[PlainTensorMeta(unwrapped_idx=0, memory_format=None)]",
        "return value is not supported"})
    EXPECT_TRUE(lk::code_lines(text).empty()) << text;
  EXPECT_TRUE(
      lk::path_folders("torch/_dynamo/utils.py https://github.com/pytorch/pytorch (s0)/s1/s2/")
          .empty());
}

}  // namespace
}  // namespace tlscope_test
