#include "io/rank_watch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <thread>

namespace tlscope::io {

std::vector<RankLog> watch_rank_logs(const RankWatch& w) {
  using Clock = std::chrono::steady_clock;
  std::vector<RankLog> followed;
  std::set<uint32_t> seen;
  std::map<uint32_t, std::string> followed_path;
  std::set<std::string> warned;
  std::vector<std::thread> threads;
  std::atomic<size_t> running{0};
  auto last_new = Clock::now();
  auto idle = std::chrono::duration<double>(w.idle_s);
  for (;;) {
    std::vector<RankLog> logs;
    std::vector<std::string> ignored;
    std::string error;
    bool stopped = w.stop && w.stop->load();
    if (!stopped && discover_rank_logs(w.dir, &logs, &ignored, &error)) {
      for (const auto& log : logs) {
        if (!seen.insert(log.rank).second) {
          auto& first = followed_path[log.rank];
          if (log.path != first && warned.insert(log.path).second)
            std::fprintf(stderr, "Warning: rank %u has another log, %s; the one followed is %s\n",
                         log.rank, log.path.c_str(), first.c_str());
          continue;
        }
        followed_path[log.rank] = log.path;
        last_new = Clock::now();
        followed.push_back(log);
        if (w.on_new_rank) w.on_new_rank(log);
        ++running;
        threads.emplace_back([&w, &running, log] {
          try {
            w.follow(log);
          } catch (const std::exception& e) {
            std::fprintf(stderr, "Error: rank %u: internal error: %s\n", log.rank, e.what());
          }
          --running;
        });
      }
    }
    try {
      if (w.every_poll) w.every_poll();
    } catch (const std::exception& e) {  // the ranks' threads go on; said once each time
      std::fprintf(stderr, "Error: internal error: %s\n", e.what());
    }
    bool quiet = w.idle_s > 0 && Clock::now() - last_new >= idle;
    if ((stopped || quiet) && running.load() == 0) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(w.poll_s));
  }
  for (auto& t : threads) t.join();
  std::sort(followed.begin(), followed.end(),
            [](const RankLog& a, const RankLog& b) { return a.rank < b.rank; });
  return followed;
}

}  // namespace tlscope::io
