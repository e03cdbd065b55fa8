#include "io/input_path.h"

#include <filesystem>
#include <system_error>

namespace tlscope::io {
namespace fs = std::filesystem;

bool resolve_input(const std::string& path, bool latest, std::string* file, std::string* error) {
  std::error_code ec;
  if (!latest) {
    if (!fs::is_regular_file(path, ec)) {
      *error = path + " is not a file";
      return false;
    }
    *file = path;
    return true;
  }
  if (!fs::is_directory(path, ec)) {
    *error = "Input path " + path + " is not a directory (required when using --latest)";
    return false;
  }
  fs::file_time_type newest{};
  std::string best;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!it->is_regular_file(ec2)) continue;
    auto t = it->last_write_time(ec2);
    if (ec2) continue;  // a file that vanished or cannot be read is skipped
    // Ties broken by name, so the choice does not depend on listing order.
    if (best.empty() || t > newest || (t == newest && it->path().string() > best)) {
      newest = t;
      best = it->path().string();
    }
  }
  if (best.empty()) {
    *error = "No files found in directory " + path;
    return false;
  }
  *file = best;
  return true;
}

}  // namespace tlscope::io
