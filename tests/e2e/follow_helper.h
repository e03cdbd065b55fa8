// What the --follow tests share: a writer appending a log in pieces, and
// waiting for a spawned tlscope and for text to appear in a file.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {

// Waits for tlscope to end; its exit status and what it wrote.
inline RunResult wait_for(pid_t pid, const fs::path& out, const fs::path& err) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid");
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// The bytes of `p`, or "" when there is no such file (yet).
inline std::string read_if_there(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Whether `file` holds `text` within 20 s (it may not exist at first).
inline bool appears(const fs::path& file, const std::string& text) {
  for (int i = 0; i < 2000; ++i) {
    if (read_if_there(file).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Appends `data` to `log` in pieces of 1 byte to 20 KB, pausing up to 10 ms
// after some: a program writing its trace.
inline void append_in_pieces(const fs::path& log, const std::string& data, unsigned seed) {
  std::mt19937 rng(seed);
  std::ofstream out(log, std::ios::binary | std::ios::app);
  for (size_t at = 0; at < data.size();) {
    size_t n = std::min<size_t>(data.size() - at, 1 + rng() % 20000);
    out.write(data.data() + at, static_cast<std::streamsize>(n));
    out.flush();
    at += n;
    if (rng() % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 10000));
  }
}

// The recorded traces (tests/data/recorded/*.log.gz).
inline std::vector<fs::path> recorded_logs() {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(kData / "recorded"))
    if (e.path().extension() == ".gz") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

inline size_t count_matching(const std::string& err, const std::regex& re) {
  size_t n = 0;
  for (const auto& l : split_lines(err))
    if (std::regex_search(l, re)) ++n;
  return n;
}

}  // namespace tlscope_test
