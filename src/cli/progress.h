// A progress bar on stderr, drawn only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>

namespace tlscope::cli {

class Progress {
 public:
  // Draws nothing unless stderr is a TTY and the input is at least `min_bytes`.
  Progress(uint64_t total_bytes, uint64_t min_bytes = 32u << 20);
  void update(uint64_t done, uint64_t total);
  void finish();

 private:
  bool enabled_ = false;
  int last_percent_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tlscope::cli
