// The doctor names the cause of every graph break (issue 21), as a property
// of every log we have: no break of the corpus, the recorded PyTorch traces
// or the logs of tests/ is `unclassified`, none is one of Dynamo's internal
// restarts, each has advice of its class naming its compile ids, and where
// the log links PyTorch's page on the break, summary.json carries it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "doctor_helpers.h"
#include "every_log.h"

namespace tlscope_test {
namespace {

using nlohmann::json;

class GraphBreakClasses : public ::testing::TestWithParam<RealLog> {
 protected:
  TempDir tmp_;
};

void expect_classified(const json& s);

TEST_P(GraphBreakClasses, EveryBreakHasAClassAndAdvice) {
  RunResult r = run_tlscope({"summary", GetParam().path.string(), "--json"}, tmp_.path());
  if (!is_log_file(GetParam().path)) {
    // Not a log: refused, with nothing on standard output.
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, neither_error(GetParam().path));
    EXPECT_EQ(r.out, "");
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json whole = json::parse(r.out);
  // TORCH_LOGS text of several ranks: each rank's summary.
  std::vector<json> summaries;
  if (whole.contains("ranks"))
    for (const auto& rank : whole["ranks"]) summaries.push_back(rank["summary"]);
  else
    summaries.push_back(whole);
  for (const auto& s : summaries) expect_classified(s);
}

void expect_classified(const json& s) {
  for (const auto& g : s["graph_breaks"]) {
    std::string cat = g["category"];
    SCOPED_TRACE(g.dump());
    EXPECT_NE(cat, "unclassified");
    EXPECT_NE(cat, "internal_restart");
    bool advised = false;
    for (const auto& a : s["advice"])
      if (a["category"] == cat) {
        std::set<std::string> ids(a["compile_ids"].begin(), a["compile_ids"].end());
        bool all = true;
        for (const auto& id : g["compile_ids"]) all = all && ids.count(id.get<std::string>());
        advised = advised || all;
        EXPECT_GT(a["message"].get<std::string>().size(), 60u);
      }
    EXPECT_TRUE(advised) << s["advice"].dump(1);
    std::string id = g["registry_id"], url = g["registry_url"];
    if (!url.empty()) {
      ASSERT_EQ(id.size(), 6u);
      std::string low = "gb" + id.substr(2) + ".html";
      EXPECT_NE(url.find(low), std::string::npos) << url;
      EXPECT_EQ(url.rfind("https://", 0), 0u);
    }
  }
}

std::string name_of(const ::testing::TestParamInfo<RealLog>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Logs, GraphBreakClasses, ::testing::ValuesIn(every_log()), name_of);

// The recorded traces of PyTorch 2.11 link the registry page of each break.
TEST(GraphBreakRegistry, RecordedBreaksLinkTheirPage) {
  TempDir tmp;
  RunResult r = run_tlscope(
      {"summary", (kRecorded / "print_graph_break.log.gz").string(), "--json"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(r.out);
  ASSERT_EQ(s["graph_breaks"].size(), 1u);
  const json& g = s["graph_breaks"][0];
  EXPECT_EQ(g["category"], "print_logging");
  EXPECT_EQ(g["registry_id"], "GB0059");
  EXPECT_EQ(g["registry_url"],
            "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
  EXPECT_EQ(g["explanation"].get<std::string>().rfind(
                "Dynamo does not know how to trace builtin operator `print`", 0),
            0u);
  RunResult text =
      run_tlscope({"summary", (kRecorded / "print_graph_break.log.gz").string()}, tmp.path());
  // The advice ends with the page (the terminal wraps it at spaces).
  EXPECT_NE(text.out.find("(GB0059): https://meta-pytorch.github.io/compile-graph-break-site/gb/"
                          "gb0059.html (0/0)"),
            std::string::npos)
      << text.out;
}

}  // namespace
}  // namespace tlscope_test
