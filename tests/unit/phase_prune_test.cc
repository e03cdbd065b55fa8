// ChromiumSummary::on_metrics and prune: the phases of compiles that can no longer be among
// the doctor's longest are let go as the log is read, and those of every
// compile that can still be shown are kept whole. Checked against the
// longest compiles of the whole list, on random compile times with ties,
// compiles that have phases but no metrics yet, and restarts (two metrics
// records for one bucket).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <set>

#include "model/report_model.h"

namespace {
using tlscope::model::ChromiumSummary;
using tlscope::model::CompileRef;
using tlscope::model::MetricsRecord;
using tlscope::trace::CompileId;
using tlscope::trace::parse_bare_compile_id;

CompileId id_of(int frame, int attempt = 0) {
  return *parse_bare_compile_id(std::to_string(frame) + "/0" +
                                (attempt ? "_" + std::to_string(attempt) : std::string()));
}

// The refs of the `keep` longest compiles, the first of equal ones first.
std::set<std::pair<uint32_t, std::string>> longest(const std::deque<MetricsRecord>& metrics,
                                                   size_t keep) {
  std::vector<const MetricsRecord*> timed;
  for (const auto& r : metrics)
    if (r.id && r.entire_frame_s) timed.push_back(&r);
  std::stable_sort(timed.begin(), timed.end(),
                   [](auto* a, auto* b) { return *a->entire_frame_s > *b->entire_frame_s; });
  if (timed.size() > keep) timed.resize(keep);
  std::set<std::pair<uint32_t, std::string>> out;
  for (auto* r : timed) out.insert({r->run, r->id->metrics_bucket().display()});
  return out;
}

TEST(PhasePrune, TheLongestCompilesKeepEveryPhase) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    std::deque<MetricsRecord> metrics;
    ChromiumSummary chromium;

    // Odd seeds: frame ids too large for the packed keys of the compiles.
    const int first = seed % 2 ? 1 << 24 : 0;
    for (int frame = first; frame < first + 3000; ++frame) {
      CompileRef ref{1, id_of(frame).metrics_bucket()};
      // Phases before the metrics (as logged), one in ten compiles restarts.
      bool restarts = rng() % 10 == 0;
      for (int p = 0; p < 4; ++p) {
        chromium.phases[ref].push_back({0, static_cast<uint32_t>(p), 0, 0.0, 0.5});

      }
      for (int attempt = 0; attempt <= (restarts ? 1 : 0); ++attempt) {
        MetricsRecord r;
        r.id = id_of(frame, attempt);
        if (rng() % 7) r.entire_frame_s = static_cast<double>(rng() % 400) / 10;  // ties
        metrics.push_back(r);
        chromium.on_metrics(r);
        if (metrics.size() % 512 == 0) chromium.prune(512);
      }
    }
    // A compile whose metrics are still to come keeps its phases.
    CompileRef pending{1, id_of(99999).metrics_bucket()};
    chromium.phases[pending].push_back({0, 0, 0, 0.0, 1.0});
    chromium.prune(512);
    EXPECT_TRUE(chromium.phases.count(pending));
    for (const auto& [run, id] : longest(metrics, 20)) {
      auto it = chromium.phases.find({run, *parse_bare_compile_id(id)});
      ASSERT_NE(it, chromium.phases.end()) << id;
      EXPECT_EQ(it->second.size(), 4u) << id;
    }
    // Most are gone: what is left does not grow with the compiles.
    EXPECT_LT(chromium.phases.size(), 1200u);
  }
}

// A restart: attempt 0 was short, the prune comes before attempt 1, which
// is the longest of all. The bucket's phases must still be there.
TEST(PhasePrune, ARestartsNextAttemptFindsItsPhases) {
  std::deque<MetricsRecord> metrics;
  ChromiumSummary chromium;
  for (int frame = 0; frame < 1000; ++frame) {
    MetricsRecord r;
    r.id = id_of(frame);
    r.entire_frame_s = 1.0 + frame % 50;
    metrics.push_back(r);
    chromium.on_metrics(r);
  }
  CompileRef restarted{1, id_of(5000).metrics_bucket()};
  chromium.phases[restarted].push_back({0, 0, 0, 0.0, 0.1});
  MetricsRecord first;
  first.id = id_of(5000, 0);
  first.entire_frame_s = 0.1;
  metrics.push_back(first);
  chromium.on_metrics(first);
  chromium.prune(512);  // between the attempts
  MetricsRecord second;
  second.id = id_of(5000, 1);
  second.entire_frame_s = 1000.0;
  metrics.push_back(second);
  chromium.on_metrics(second);
  ASSERT_TRUE(longest(metrics, 20).count({1, restarted.id.display()}));
  EXPECT_TRUE(chromium.phases.count(restarted));
}

TEST(PhasePrune, NothingGoesBeforeThereAreEnoughCompiles) {
  std::deque<MetricsRecord> metrics;
  ChromiumSummary chromium;
  for (int frame = 0; frame < 600; ++frame) {
    chromium.phases[{1, id_of(frame).metrics_bucket()}].push_back({0, 0, 0, 0.0, 1.0});
    MetricsRecord r;
    r.id = id_of(frame);  // no times: none can be among the longest, none is dropped for it
    metrics.push_back(r);
    chromium.on_metrics(r);
  }
  chromium.prune(512);
  EXPECT_EQ(chromium.phases.size(), 600u);
}

}  // namespace
