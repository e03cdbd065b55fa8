#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace tlscope::cli {

Progress::Progress(uint64_t total_bytes, uint64_t min_bytes)
    : enabled_(::isatty(STDERR_FILENO) && total_bytes >= min_bytes),
      start_(std::chrono::steady_clock::now()) {}

void Progress::update(uint64_t done, uint64_t total) {
  if (!enabled_ || total == 0) return;
  int percent = static_cast<int>(done * 100 / total);
  if (percent > 100) percent = 100;
  if (percent == last_percent_) return;
  last_percent_ = percent;
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double mbps = secs > 0 ? done / secs / 1e6 : 0;
  char bar[41];
  int fill = percent * 40 / 100;
  for (int i = 0; i < 40; ++i) bar[i] = i < fill ? '#' : '.';
  bar[40] = 0;
  std::fprintf(stderr, "\r[%s] %3d%%  %.0f MB/s ", bar, percent, mbps);
}

void Progress::finish() {
  if (enabled_ && last_percent_ >= 0) std::fprintf(stderr, "\r%60s\r", "");
}

}  // namespace tlscope::cli
