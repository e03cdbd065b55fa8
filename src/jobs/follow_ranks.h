// A job's TORCH_TRACE folder followed while its ranks write it (`tlscope
// TRACE_DIR --follow` on rank logs, issue 29): each rank log, and each that
// appears later, followed on a thread of its own into out/rank_<N> (as
// build_report --follow writes one log, with its rank_summary.json rewritten
// at each snapshot), and the landing page merged from those every few
// seconds. At the end, the report --all-ranks-html writes of the logs as read.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "jobs/multirank.h"
#include "model/report_model.h"

namespace tlscope::jobs {

struct FollowRanks {
  std::string dir;      // the job's folder of rank logs
  std::string out_dir;  // already prepared
  Options opts;
  // A rank's log ends after this long without new bytes, and the job when
  // every rank's has and no new rank log came for as long; 0: at `stop` only.
  double idle_s = 0;
  const std::atomic<bool>* stop = nullptr;
  double snapshot_s = 2;
  // After each record of a rank, on its thread (calls come from several).
  std::function<void(uint32_t rank, const model::ReportModel&)> after_record;
  // A new rank log followed.
  std::function<void(const io::RankLog&)> on_new_rank;
};

MultiRankResult follow_ranks(const FollowRanks& f);

}  // namespace tlscope::jobs
