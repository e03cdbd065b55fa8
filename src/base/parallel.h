// f(i) for every i of a range, spread over threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace tlscope::base {

// Calls f(i) for i in [begin, end) on `jobs` threads (the calling one among
// them), each taking the next i as it finishes one.
template <typename F>
void in_parallel(size_t begin, size_t end, unsigned jobs, const F& f) {
  if (end <= begin) return;
  std::atomic<size_t> next{begin};
  auto work = [&] {
    for (size_t i; (i = next++) < end;) f(i);
  };
  size_t n = std::max<size_t>(1, std::min<size_t>(jobs, end - begin));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
}

}  // namespace tlscope::base
