// What the doctor reads a log with (ingest::doctor_options: no stacks, no
// payload digests, no outputs, no page facts) changes nothing it says: on
// every recorded log and every corpus log, the doctor's answer about the
// model read the report's way and about the model read the doctor's way is
// the same text, byte for byte; and so is the answer of the doctor fed the
// records as they are read, and the figures (what a diff reads) of the
// doctor that keeps only those. The doctor's model holds none of what only the
// report's pages read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "analysis/doctor.h"
#include "analysis/summary.h"
#include "figures_text.h"
#include "log_files.h"
#include "model/ingest/read_log.h"

namespace tlscope::ingest {
namespace {

namespace fs = std::filesystem;

using tlscope_test::figures_text;
using tlscope_test::frames_listed_twice;
using tlscope_test::logs_in;

// The rows of the failures page the report's model has (the doctor's has
// none).
size_t expect_same_answer(const fs::path& log) {
  auto full = read_log(log.string(), IngestOptions{});
  auto lean = read_log(log.string(), doctor_options(false));
  EXPECT_TRUE(full.ok && lean.ok) << log;
  if (!full.ok || !lean.ok) return 0;
  EXPECT_TRUE(lean.model.failures.empty()) << log;
  EXPECT_TRUE(lean.model.buckets.empty()) << log;
  EXPECT_EQ(lean.model.metrics.size(), full.model.metrics.size()) << log;
  std::string want = analysis::summary_json(analysis::diagnose(full.model), log.string(), "x");
  std::string got = analysis::summary_json(analysis::diagnose(lean.model), log.string(), "x");
  EXPECT_EQ(got, want) << log;
  // Folded as they are read, the records are not kept, and the answer is
  // the same.
  analysis::DoctorFold fold;
  IngestOptions opts = doctor_options(false);
  opts.feed = &fold;
  auto streamed = read_log(log.string(), opts);
  EXPECT_TRUE(streamed.ok) << log;
  EXPECT_TRUE(streamed.model.metrics.empty() && streamed.model.recompile_reasons.empty() &&
              streamed.model.graph_break_notes.empty() && streamed.model.loose_failures.empty())
      << log;
  EXPECT_EQ(analysis::summary_json(fold.finish(streamed.model), log.string(), "x"), want) << log;
  // The doctor that keeps only what a diff reads of it: the same figures.
  analysis::DoctorFold light(analysis::DoctorFold::Detail::kFigures);
  opts.feed = &light;
  auto lightly = read_log(log.string(), opts);
  EXPECT_TRUE(lightly.ok) << log;
  analysis::DoctorReport whole = analysis::diagnose(full.model),
                         figured = light.finish(lightly.model);
  EXPECT_EQ(figures_text(analysis::figures_of(figured)), figures_text(analysis::figures_of(whole)))
      << log;
  // It counts the failures and lists none.
  EXPECT_EQ(figured.totals.failures, whole.failures.size()) << log;
  EXPECT_EQ(whole.totals.failures, whole.failures.size()) << log;
  EXPECT_TRUE(figured.failures.empty()) << log;
  // Each frame once in either answer, as a diff's merge of two logs' frames
  // takes them.
  EXPECT_EQ(frames_listed_twice(whole), std::vector<std::string>()) << log;
  EXPECT_EQ(frames_listed_twice(figured), std::vector<std::string>()) << log;
  // Streamed member by member, it is what json::dump(2) of the whole value
  // writes (summary_json.cc gives the keys in dump's order).
  EXPECT_EQ(got, nlohmann::json::parse(got).dump(2, ' ', false,
                                                 nlohmann::json::error_handler_t::replace) +
                     "\n")
      << log;
  return full.model.failures.size();
}

TEST(DoctorOptions, SameAnswerAsTheReportsModelOnRecordedLogs) {
  auto logs = logs_in(TLSCOPE_DATA "/recorded", ".log.gz");
  logs.push_back(TLSCOPE_EXAMPLES "/example.log");
  ASSERT_GE(logs.size(), 10u);
  size_t rows = 0;
  for (const auto& log : logs) rows += expect_same_answer(log);
  EXPECT_GE(rows, 5u);  // restarts and failures among them
}

TEST(DoctorOptionsCorpus, SameAnswerAsTheReportsModelOnCorpusLogs) {
  auto logs = logs_in(TLSCOPE_CORPUS "/tlparse/inputs", ".log");
  ASSERT_GE(logs.size(), 25u);
  size_t rows = 0;
  for (const auto& log : logs) rows += expect_same_answer(log);
  EXPECT_GE(rows, 5u);  // restarts and failures among them
}

}  // namespace
}  // namespace tlscope::ingest
