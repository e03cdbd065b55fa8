// Multi-rank reports as a map and a reduce (docs/cluster.md): `tlscope rank`
// per rank log or per share of a folder (--shard, --from-env under mpirun or
// a Slurm array), then `tlscope merge`. The result equals what
// --all-ranks-html writes for the same logs, file for file, apart from the
// command line each page's footer names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "multirank_helper.h"
#include "run_helper.h"

namespace tlscope_test {
namespace {

const std::string kGenTrace = TLSCOPE_GEN_TRACE;

// Every file under `root` but the hidden ones, with the command line taken
// out of page footers and summary.json (the only bytes that name the command
// that wrote them).
std::map<std::string, std::string> tree(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& rel : list_files(root)) {
    if (rel[0] == '.' || rel.find("/.") != std::string::npos) continue;
    std::string text = read_file(root / rel);
    if (rel.size() > 5 && rel.substr(rel.size() - 5) == ".html") {
      const std::string open = "<footer class=\"made-by\">";
      size_t a = text.find(open);
      size_t b = a == std::string::npos ? a : text.find("</footer>", a);
      if (b != std::string::npos) text.replace(a + open.size(), b - a - open.size(), "FOOTER");
    } else if (fs::path(rel).filename() == "summary.json") {
      auto j = nlohmann::json::parse(text);
      j["source"]["command_line"] = "";
      text = j.dump(2);
    }
    out.emplace(rel, std::move(text));
  }
  return out;
}

void expect_same_tree(const fs::path& want, const fs::path& got) {
  auto a = tree(want), b = tree(got);
  std::vector<std::string> only_a, only_b, differ;
  for (const auto& [rel, text] : a) {
    auto it = b.find(rel);
    if (it == b.end())
      only_a.push_back(rel);
    else if (it->second != text)
      differ.push_back(rel);
  }
  for (const auto& [rel, text] : b)
    if (!a.count(rel)) only_b.push_back(rel);
  EXPECT_TRUE(only_a.empty()) << "only in " << want << ": " << only_a.front();
  EXPECT_TRUE(only_b.empty()) << "only in " << got << ": " << only_b.front();
  EXPECT_TRUE(differ.empty()) << differ.size() << " file(s) differ, first " << differ.front();
  // The job-wide files are there and the landing page names every rank.
  EXPECT_TRUE(a.count("index.html"));
  EXPECT_GT(a.size(), 10u);
}

// Sets environment variables for the runs in its scope.
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::map<std::string, std::string>& vars) : vars_(vars) {
    for (const auto& [k, v] : vars_) ::setenv(k.c_str(), v.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [k, v] : vars_) ::unsetenv(k.c_str());
  }

 private:
  std::map<std::string, std::string> vars_;
};

class Cluster : public ::testing::Test {
 protected:
  TempDir tmp_;
  RunResult run(const std::vector<std::string>& args) { return run_tlscope(args, tmp_.path()); }
  fs::path p(const std::string& rel) { return tmp_ / rel; }

  // The all-ranks run of `dir` into `out`.
  void all_ranks(const fs::path& dir, const fs::path& out) {
    auto r = run_all_ranks(dir, out, tmp_.path());
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;  // 1: a rank without a report
  }
  // `tlscope rank DIR --shard i/k -o OUT` for every i, then `tlscope merge OUT`.
  RunResult map_and_merge(const fs::path& dir, const fs::path& out, int k) {
    for (int i = 0; i < k; ++i) {
      auto r = run({"rank", dir.string(), "--shard", std::to_string(i) + "/" + std::to_string(k),
                    "-o", out.string()});
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    }
    return run({"merge", out.string()});
  }
  // An 8-rank job from bench/gen_trace.py.
  fs::path synthetic_job() {
    fs::path dir = p("job");
    std::string cmd = "python3 '" + kGenTrace + "' --ranks 8 --out-dir '" + dir.string() +
                      "' --size-mb 0.2 --jobs 1 > '" + p("gen.txt").string() + "' 2>&1";
    if (run_shell(cmd) != 0) ADD_FAILURE() << read_file(p("gen.txt"));
    return dir;
  }
};

TEST_F(Cluster, MapAndMergeEqualAllRanksHtmlOnASyntheticJob) {
  fs::path job = synthetic_job();
  all_ranks(job, p("a"));
  auto m = map_and_merge(job, p("b"), 3);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_TRUE(has(m.out, "Report: " + p("b/index.html").string())) << m.out;
  expect_same_tree(p("a"), p("b"));
  EXPECT_EQ(rank_links(read_file(p("b/index.html"))),
            (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  auto listing = json::parse(read_file(p("b/rank_logs.json")));
  EXPECT_EQ(listing["folder"], job.string());
  EXPECT_EQ(listing["ranks"].size(), 8u);
  EXPECT_EQ(listing["ranks"][5]["rank"], 5);
}

TEST_F(Cluster, MapAndMergeEqualAllRanksHtmlOnARecordedJob) {
  all_ranks(kTwoRanksAborted, p("a"));
  ASSERT_EQ(map_and_merge(kTwoRanksAborted, p("b"), 2).exit_code, 0);
  expect_same_tree(p("a"), p("b"));
}

class ClusterCorpus : public Cluster, public ::testing::WithParamInterface<std::string> {};

TEST_P(ClusterCorpus, MapAndMergeEqualAllRanksHtml) {
  fs::path dir =
      GetParam() == "graph_exec_order_tests" ? exec_order_ranks() : corpus_inputs() / GetParam();
  all_ranks(dir, p("a"));
  ASSERT_EQ(map_and_merge(dir, p("b"), 2).exit_code, 0);
  expect_same_tree(p("a"), p("b"));
}

INSTANTIATE_TEST_SUITE_P(Corpus, ClusterCorpus,
                         ::testing::Values("multi_rank_logs", "multi_rank_messy_input",
                                           "multi_rank_runtime", "multi_rank_schedule",
                                           "collectives_parity", "graph_exec_order_tests"),
                         [](const auto& info) { return param_name(info.param); });

TEST_F(Cluster, TheMergeReadsNoRankLog) {
  fs::path job = synthetic_job();
  all_ranks(job, p("a"));
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(
        run({"rank", job.string(), "--shard", std::to_string(i) + "/2", "-o", p("b").string()})
            .exit_code,
        0);
  fs::rename(job, p("moved"));  // the logs are gone when the merge runs
  auto m = run({"merge", p("b").string()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  expect_same_tree(p("a"), p("b"));
}

TEST_F(Cluster, ASlurmArrayTakesItsTaskFromTheEnvironment) {
  fs::path job = synthetic_job();
  all_ranks(job, p("a"));
  // --array=10-16:3 gives ids 10, 13, 16: tasks 0, 1, 2 of 3.
  for (int id : {10, 13, 16}) {
    ScopedEnv env({{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
                   {"SLURM_ARRAY_TASK_COUNT", "3"},
                   {"SLURM_ARRAY_TASK_MIN", "10"},
                   {"SLURM_ARRAY_TASK_STEP", "3"}});
    auto r = run({"rank", "--from-env", job.string(), "-o", p("b").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int task = (id - 10) / 3;
    EXPECT_TRUE(has(r.out, "Task " + std::to_string(task) +
                               " of 3 (SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT): " +
                               (task < 2 ? "3" : "2") + " of the 8 rank logs"))
        << r.out;
  }
  ASSERT_EQ(run({"merge", p("b").string()}).exit_code, 0);
  expect_same_tree(p("a"), p("b"));
  // Without a launcher's variables --from-env is a usage error.
  auto r = run({"rank", "--from-env", job.string(), "-o", p("c").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "Error: --from-env: no launcher's variables are set")) << r.err;
}

// Open MPI's mpirun (Debian's openmpi-bin, installed by scripts/setup) runs
// the map as 4 processes over the 8-rank job on this machine.
TEST_F(Cluster, MpirunRunsTheMap) {
  ASSERT_EQ(run_shell("command -v mpirun > /dev/null 2>&1"), 0)
      << "mpirun is missing: scripts/setup installs openmpi-bin (make test runs it)";
  fs::path job = synthetic_job();
  all_ranks(job, p("a"));
  std::string cmd = "mpirun --oversubscribe " +
                    std::string(::geteuid() == 0 ? "--allow-run-as-root " : "") + "-n 4 '" + kBin +
                    "' rank --from-env '" + job.string() + "' -o '" + p("b").string() + "' > '" +
                    p("mpi.txt").string() + "' 2>&1";
  ASSERT_EQ(run_shell(cmd), 0) << read_file(p("mpi.txt"));
  std::string log = read_file(p("mpi.txt"));
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(has(log, "Task " + std::to_string(i) +
                             " of 4 (OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE): 2 of the 8 rank "
                             "logs"))
        << log;
  EXPECT_EQ(count_of(log, "Processing rank "), 8u) << log;
  ASSERT_EQ(run({"merge", p("b").string()}).exit_code, 0);
  expect_same_tree(p("a"), p("b"));
}

TEST_F(Cluster, OneLogIntoItsRankFolder) {
  fs::path job = synthetic_job();
  all_ranks(job, p("a"));
  // Each log by itself: the rank comes from the file name.
  for (const auto& e : fs::directory_iterator(job)) {
    std::string name = e.path().filename().string();
    std::string rank = name.substr(31, name.find('_', 31) - 31);  // ..._rank_<N>_<id>.log
    auto r = run({"rank", e.path().string(), "-o", p("b/rank_" + rank).string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(has(r.out, "Processing rank " + rank + " \u2192 " + p("b/rank_" + rank).string()));
  }
  auto m = run({"merge", p("b").string()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  // Without rank_logs.json the landing page is the same; only that file is missing.
  fs::remove(p("a/rank_logs.json"));
  expect_same_tree(p("a"), p("b"));
}

TEST_F(Cluster, TheRankOfALogComesFromItsNameTheFolderOrRank) {
  fs::path log = copy_as(kExample, p("logs"), "example.log");
  auto r = run({"rank", log.string(), "-o", p("out/r").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: cannot tell which rank " + log.string() +
                                     " is: its name is not dedicated_log_torch_trace_rank_<N>..., "
                                     "nor is -o rank_<N>; pass --rank N"});
  EXPECT_FALSE(fs::exists(p("out")));
  ASSERT_EQ(run({"rank", log.string(), "-o", p("out/rank_6").string()}).exit_code, 0);
  EXPECT_EQ(json::parse(read_file(p("out/rank_6/rank_summary.json")))["rank"], 6);
  ASSERT_EQ(run({"rank", log.string(), "--rank", "2", "-o", p("out/x").string()}).exit_code, 0);
  EXPECT_EQ(json::parse(read_file(p("out/x/rank_summary.json")))["rank"], 2);
  fs::path named = copy_as(kExample, p("logs"), rank_log_name(3, "_abc"));
  r = run({"rank", named.string(), "-o", p("out/rank_4").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: -o " + p("out/rank_4").string() +
                                     " names rank 4, but the log is rank 3's: use -o "
                                     ".../rank_3 or --rank 4"});
  r = run({"rank", named.string(), "--shard", "0/2", "-o", p("out").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "is a file: --shard and --from-env pick rank logs from a folder"));
  r = run({"rank", p("nope.log").string(), "-o", p("out/rank_0").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: " + p("nope.log").string() + ": no such file"});
}

TEST_F(Cluster, ARetriedRankReplacesItsFolderWhole) {
  fs::path log = copy_as(kExample, p("logs"), rank_log_name(0));
  fs::path dir = p("out/rank_0");
  ASSERT_EQ(run({"rank", log.string(), "-o", dir.string()}).exit_code, 0);
  auto first = tree(dir);
  write_file(dir / "left_by_the_first_try.txt", "x");
  auto r = run({"rank", log.string(), "-o", dir.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir / "left_by_the_first_try.txt"));
  EXPECT_EQ(tree(dir), first);
  // Nothing is left beside it: the folder it was built in was renamed into place.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(p("out"))) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"rank_0"});
  // A folder that is not a rank report is not replaced.
  fs::create_directories(p("mine/rank_0"));
  write_file(p("mine/rank_0/notes.txt"), "keep me");
  r = run({"rank", log.string(), "-o", p("mine/rank_0").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: Refusing to replace " + p("mine/rank_0").string() +
                                     ": it is not empty and does not look like a tlscope rank "
                                     "report (no rank_summary.json)"});
  EXPECT_EQ(read_file(p("mine/rank_0/notes.txt")), "keep me");
  EXPECT_EQ(list_files(p("mine")), std::vector<std::string>{"rank_0/notes.txt"});
}

// The merge of a job whose rank 1 and rank 3 did not finish, rank 2 failed
// and rank 5's summary is rank 4's.
TEST_F(Cluster, MissingAndBrokenRanksAreProblemsNotErrors) {
  fs::path job = synthetic_job();
  ASSERT_EQ(run({"rank", job.string(), "-o", p("b").string()}).exit_code, 0);
  fs::remove_all(p("b/rank_1"));
  fs::remove(p("b/rank_3/rank_summary.json"));
  write_file(p("b/rank_6/rank_summary.json"), "{\"format\": \"tlscope rank summary\", ");
  auto s2 = json::parse(read_file(p("b/rank_2/rank_summary.json")));
  s2["error"] = "the log could not be read";
  s2["problem"] = "rank 2: no report (the log could not be read)";
  write_file(p("b/rank_2/rank_summary.json"), s2.dump());
  fs::copy_file(p("b/rank_4/rank_summary.json"), p("b/rank_5/rank_summary.json"),
                fs::copy_options::overwrite_existing);
  fs::create_directory(p("b/.rank_7.partial-node1-123"));
  auto m = run({"merge", p("b").string()});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const std::string missing = "is missing: the rank's `tlscope rank` task did not finish";
  for (const std::string& want :
       {"Ignoring " + p("b/.rank_7.partial-node1-123").string() +
            ": the folder of a rank task that did not finish",
        "rank 1: no report (rank_1/rank_summary.json " + missing + ")",
        std::string("rank 2: no report (the log could not be read)"),
        "rank 3: no report (rank_3/rank_summary.json " + missing + ")",
        std::string("rank 5: no report (rank_5/rank_summary.json is the summary of rank 4)"),
        std::string("Warning: 5 ranks have no report; the page lists them")})
    EXPECT_TRUE(has(m.err, want)) << want << "\n" << m.err;
  EXPECT_TRUE(has(m.err, "rank 6: no report (rank_6/rank_summary.json not valid JSON: "));
  std::string page = read_file(p("b/index.html"));
  EXPECT_TRUE(has(page,
                  "<li>rank 1: no report (rank_1/rank_summary.json is missing: the rank&#39;s "
                  "`tlscope rank` task did not finish)</li>"))
      << section(page, "problems", "</ul>");
  EXPECT_EQ(rank_links(page), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(has(page, "Ranks 1-3, 5-6 were not compared")) << section(page, "<h2", "</ul>");
  auto strict = run({"merge", p("b").string(), "--strict"});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_TRUE(has(strict.err, "Error: --strict: the page lists 5 problem(s)")) << strict.err;
  // Without rank_logs.json, a rank with no folder is a gap in the numbers.
  fs::remove(p("b/rank_logs.json"));
  m = run({"merge", p("b").string()});
  EXPECT_TRUE(has(m.err, "no rank_<N> folder for rank 1\n")) << m.err;
}

TEST_F(Cluster, MergeOfAFolderWithoutRanks) {
  auto r = run({"merge", p("none").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: " + p("none").string() + ": no such folder"});
  fs::create_directory(p("empty"));
  r = run({"merge", p("empty").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error_lines(),
            std::vector<std::string>{"Error: " + p("empty").string() +
                                     " holds no rank_<N> folder: run `tlscope rank` for each "
                                     "rank log first (docs/cluster.md)"});
  EXPECT_FALSE(fs::exists(p("empty/index.html")));
}

}  // namespace
}  // namespace tlscope_test
