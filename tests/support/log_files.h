// The logs a test reads from a folder of them (tests/data/recorded, the
// corpus), in name order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace tlscope_test {

// The files under `dir` (and its folders) whose names end with `ending`.
inline std::vector<std::filesystem::path> logs_in(const std::string& dir,
                                                  const std::string& ending) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > ending.size() &&
        name.compare(name.size() - ending.size(), ending.size(), ending) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tlscope_test
