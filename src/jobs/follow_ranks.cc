#include "jobs/follow_ranks.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/doctor.h"
#include "io/follow_source.h"
#include "io/rank_watch.h"
#include "jobs/pipeline.h"
#include "jobs/rank_files.h"
#include "jobs/rank_map.h"
#include "jobs/rank_merge.h"

namespace tlscope::jobs {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class JobFollower {
 public:
  explicit JobFollower(const FollowRanks& f) : f_(f) { known_.listing.folder = f.dir; }

  MultiRankResult run() {
    io::RankWatch w;
    w.dir = f_.dir;
    w.idle_s = f_.idle_s;
    w.stop = f_.stop;
    w.on_new_rank = [this](const io::RankLog& log) { add_rank(log); };
    w.follow = [this](const io::RankLog& log) { follow_rank(rank(log.rank)); };
    w.every_poll = [this] { merge_live(); };
    io::watch_rank_logs(w);
    return finish();
  }

 private:
  static std::chrono::duration<double> seconds(double s) {
    return std::chrono::duration<double>(s);
  }

  // A rank log not followed before: into the listing (rank_logs.json).
  void add_rank(const io::RankLog& log) {
    {
      std::lock_guard<std::mutex> lock(ranks_mu_);  // rank threads look theirs up
      ranks_[log.rank] = std::make_unique<Rank>();
      ranks_[log.rank]->log = log;
    }
    known_.listing.logs.push_back(log);
    std::sort(known_.listing.logs.begin(), known_.listing.logs.end(),
              [](const io::RankLog& a, const io::RankLog& b) { return a.rank < b.rank; });
    std::string error;
    write_rank_listing(f_.out_dir, known_.listing, &error);
    if (f_.on_new_rank) f_.on_new_rank(log);
  }

  struct Rank;
  Rank* rank(uint32_t r) {
    std::lock_guard<std::mutex> lock(ranks_mu_);
    return ranks_.at(r).get();
  }

  // The landing page of what the ranks read so far, when one of them wrote a
  // snapshot and `snapshot_s` has passed.
  void merge_live() {
    if (!landing_dirty_.load() || Clock::now() - last_merge_ < seconds(f_.snapshot_s)) return;
    landing_dirty_ = false;
    Options live = f_.opts;
    live.live_generation = ++generation_;
    merge_ranks(f_.out_dir, live, 1, &known_, /*landing_only=*/true);
    last_merge_ = Clock::now();
  }

  struct Rank {
    io::RankLog log;
    std::string error;  // why it has no report (set on its thread, read after join)
  };

  // One rank: its report as build_report --follow writes it, straight into
  // out/rank_<N>; its rank_summary.json with each snapshot and at the end.
  void follow_rank(Rank* r) {
    std::string dir = (fs::path(f_.out_dir) / rank_folder_name(r->log.rank)).string();
    std::error_code ec;
    fs::create_directories(dir, ec);
    Options opts = f_.opts;
    opts.message_prefix = fmt::format("rank {}: ", r->log.rank);
    Follow follow;
    io::FollowOptions fo;
    fo.idle_s = f_.idle_s;
    fo.stop = f_.stop;
    fo.on_wait = [&] {
      if (follow.while_waiting) follow.while_waiting();
    };
    std::string why;
    follow.source = io::follow_file(r->log.path, fo, &why);
    RunResult run;
    if (!follow.source) {
      run.error = why;
    } else {
      follow.after_record = [&](const model::ReportModel& m) {
        if (f_.after_record) f_.after_record(r->log.rank, m);
      };
      follow.on_snapshot = [&](const model::ReportModel& m) {
        auto d = analysis::diagnose(m);
        write_rank_summary(dir, analysis::summarize_rank(r->log.rank, r->log.path, m, d), true);
        landing_dirty_ = true;
      };
      run = build_report(r->log.path, dir, opts, {}, &follow);
    }
    auto summary = summarize_run(r->log, dir, run);
    if (!write_rank_summary(dir, summary, true))
      r->error = "Cannot write " + (fs::path(dir) / kRankSummaryFile).string();
    landing_dirty_ = true;
  }

  MultiRankResult finish() {
    MultiRankResult result;
    if (ranks_.empty()) {
      result.error = "No rank log appeared in " + f_.dir;
      return result;
    }
    for (const auto& [rank, r] : ranks_)
      if (!r->error.empty()) known_.errors[rank] = r->error;
    add_merge(merge_ranks(f_.out_dir, f_.opts, std::max(1u, std::thread::hardware_concurrency()),
                          &known_),
              f_.out_dir, &result);
    return result;
  }

  const FollowRanks& f_;
  MapOutcome known_;
  std::mutex ranks_mu_;
  std::map<uint32_t, std::unique_ptr<Rank>> ranks_;
  std::atomic<bool> landing_dirty_{false};
  Clock::time_point last_merge_{};
  uint64_t generation_ = 0;
};

}  // namespace

MultiRankResult follow_ranks(const FollowRanks& f) { return JobFollower(f).run(); }

}  // namespace tlscope::jobs
