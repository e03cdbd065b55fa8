// A job's folder of rank logs watched while its ranks write them (--follow
// on a TORCH_TRACE folder): each rank log found, now or later, is handed to
// a thread of its own; the watch ends when told to stop, or when every
// rank's thread has ended and no new rank log came for `idle_s`.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "io/rank_logs.h"

namespace tlscope::io {

struct RankWatch {
  std::string dir;
  double idle_s = 0;  // 0: only `stop` ends the watch
  const std::atomic<bool>* stop = nullptr;
  double poll_s = 0.2;
  // On the rank's own thread: follows its log to the end (until `stop`, or
  // its own idle time).
  std::function<void(const RankLog&)> follow;
  // On the watching thread, before its thread starts.
  std::function<void(const RankLog&)> on_new_rank;
  // On the watching thread, about every poll.
  std::function<void()> every_poll;
};

// The rank logs followed, in rank order, once every thread has ended.
std::vector<RankLog> watch_rank_logs(const RankWatch& w);

}  // namespace tlscope::io
