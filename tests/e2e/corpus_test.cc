// Every real log we have (the tlparse corpus' top-level *.log / *.txt and our
// recorded PyTorch 2.11 logs): the run succeeds, compile_directory.json has
// exactly the compile ids of the log (computed independently, log_oracle.h),
// and index.html lists the same entries with links that resolve.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "log_oracle.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {
using nlohmann::json;

// The tlparse corpus' top-level logs (none when the corpus is absent).
std::vector<fs::path> corpus_logs() {
  std::vector<fs::path> v;
  if (!corpus_present()) return v;
  for (auto& e : fs::directory_iterator(kCorpusRoot / "tlparse" / "inputs")) {
    auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".log" || ext == ".txt")) v.push_back(e.path());
  }
  std::sort(v.begin(), v.end());
  return v;
}

// Our own recorded PyTorch logs (tests/data/recorded).
std::vector<fs::path> recorded_logs() {
  std::vector<fs::path> v;
  for (auto& e : fs::directory_iterator(kData / "recorded")) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 7 && name.substr(name.size() - 7) == ".log.gz")
      v.push_back(e.path());
  }
  std::sort(v.begin(), v.end());
  return v;
}

std::set<std::string> names_of(const std::vector<fs::path>& logs) {
  std::set<std::string> names;
  for (auto& p : logs) names.insert(p.filename().string());
  return names;
}

// A sample of both sources, so a wrong path cannot silently skip them.
TEST(CorpusInventory, FindsAllLogs) {
  auto names = names_of(corpus_logs());
  for (auto n :
       {"simple.log", "comp_metrics.log", "cache_hit_miss.log", "inductor_provenance_jit_log.txt"})
    EXPECT_EQ(names.count(n), 1u) << n;
  EXPECT_GE(names.size(), 19u);
  EXPECT_TRUE(fs::is_directory(corpus_inputs()));
}

TEST(RecordedInventory, FindsAllLogs) {
  auto names = names_of(recorded_logs());
  for (auto n : {"mlp_training.log.gz", "recompile_limit.log.gz", "compile_error.log.gz"})
    EXPECT_EQ(names.count(n), 1u) << n;
  EXPECT_GE(names.size(), 9u);
}

// Products list of index.html: each entry's label and its number of outputs.
struct IndexEntry {
  std::string label;
  int outputs = 0;
};
std::vector<IndexEntry> products(const std::string& html) {
  std::vector<IndexEntry> v;
  size_t start = html.find("<ul class=\"products\">");
  if (start == std::string::npos) return v;
  const std::string open = "<li><a id=\"";
  size_t pos = html.find(open, start);
  while (pos != std::string::npos) {
    size_t q = html.find('"', pos + open.size());
    IndexEntry e;
    e.label = html.substr(pos + open.size(), q - pos - open.size());
    size_t end = html.find("</ul></li>", q);
    std::string body = html.substr(q, end - q);
    for (size_t k = body.find("<li>"); k != std::string::npos; k = body.find("<li>", k + 1))
      ++e.outputs;
    v.push_back(e);
    pos = html.find(open, end);
  }
  return v;
}

// Unescapes the few entities a label or href may carry.
std::string unescape(std::string s) {
  const std::pair<const char*, const char*> ents[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (auto [from, to] : ents) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + 1))
      s.replace(p, std::strlen(from), to);
  }
  return s;
}

// Values of href="..." / href='...' and src="..." attributes.
std::vector<std::string> link_targets(const std::string& html) {
  std::vector<std::string> v;
  static const std::regex re(R"re((?:href|src)=(?:"([^"]*)"|'([^']*)'))re");
  for (std::sregex_iterator it(html.begin(), html.end(), re), end; it != end; ++it)
    v.push_back(unescape((*it)[1].matched ? (*it)[1].str() : (*it)[2].str()));
  return v;
}

class RealLog : public ::testing::TestWithParam<fs::path> {
 protected:
  void SetUp() override {
    log_ = GetParam();
    result_ = run_tlscope({log_.string(), "-o", out().string(), "--no-browser"}, tmp_.path());
  }
  fs::path out() const { return tmp_ / "out"; }
  fs::path log_;
  TempDir tmp_;
  RunResult result_;
};

TEST_P(RealLog, CompileDirectoryHasExactlyTheLogsCompileIds) {
  ASSERT_EQ(result_.exit_code, 0) << result_.err;
  auto stats = parse_stats(result_.err);
  EXPECT_GT(stats["ok"], 0);
  EXPECT_EQ(stats.count("fail_glog"), 0u);
  EXPECT_EQ(stats.count("fail_json"), 0u);
  json dir = json::parse(read_file(out() / "compile_directory.json"));
  ASSERT_TRUE(dir.is_object());
  std::set<std::string> expected = expected_compile_ids(load_log(log_));
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(json_keys(dir), expected);
  // Every listed file exists; numbers are unique.
  std::set<long long> numbers;
  for (auto& [key, entry] : dir.items()) {
    for (auto& a : entry["artifacts"]) {
      EXPECT_TRUE(numbers.insert(a["number"].get<long long>()).second) << key << " " << a.dump();
      std::string url = a["url"];
      bool external = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
      if (!external) {
        EXPECT_TRUE(fs::is_regular_file(out() / url)) << key << ": " << url;
      }
    }
  }
}

TEST_P(RealLog, IndexListsTheEntriesAndItsLinksResolve) {
  ASSERT_EQ(result_.exit_code, 0) << result_.err;
  ASSERT_TRUE(fs::is_regular_file(out() / "index.html"));
  std::string html = read_file(out() / "index.html");
  json dir = json::parse(read_file(out() / "compile_directory.json"));

  auto entries = products(html);
  std::set<std::string> labels;
  for (auto& e : entries) labels.insert(e.label == "(unknown)" ? "unknown" : unescape(e.label));
  EXPECT_EQ(labels, json_keys(dir));
  // One <li> per entry; more only when two entries share a display form.
  EXPECT_EQ(entries.size(), labels.size());
  for (auto& e : entries) {
    std::string key = e.label == "(unknown)" ? "unknown" : unescape(e.label);
    if (dir.contains(key)) {
      EXPECT_EQ(e.outputs, static_cast<int>(dir[key]["artifacts"].size())) << key;
    }
  }

  int relative = 0;
  for (const std::string& target : link_targets(html)) {
    if (target.empty() || target[0] == '#' || target.rfind("http://", 0) == 0 ||
        target.rfind("https://", 0) == 0)
      continue;
    std::string path = target.substr(0, target.find_first_of("#?"));
    ++relative;
    EXPECT_TRUE(fs::is_regular_file(out() / path)) << "dangling link " << target;
    EXPECT_TRUE(inside(out(), out() / path)) << target;
  }
  EXPECT_GT(relative, 0);
  // Stack-trie anchors point at existing entries.
  static const std::regex anchor(R"re(<a href='#([^']*)' class='status-)re");
  for (std::sregex_iterator it(html.begin(), html.end(), anchor), end; it != end; ++it)
    EXPECT_EQ(labels.count(unescape((*it)[1])), 1u) << (*it)[1];
}

std::string log_param_name(const ::testing::TestParamInfo<fs::path>& info) {
  return param_name(info.param.filename().string());
}
INSTANTIATE_TEST_SUITE_P(Corpus, RealLog, ::testing::ValuesIn(corpus_logs()), log_param_name);
INSTANTIATE_TEST_SUITE_P(Recorded, RealLog, ::testing::ValuesIn(recorded_logs()), log_param_name);

}  // namespace
}  // namespace tlscope_test
