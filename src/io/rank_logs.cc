#include "io/rank_logs.h"

#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <system_error>

namespace tlscope::io {
namespace fs = std::filesystem;

namespace {
constexpr std::string_view kPrefix = "dedicated_log_torch_trace_rank_";
}  // namespace

std::optional<uint32_t> rank_of_log_name(const std::string& name) {
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  std::string_view rest(name);
  rest.remove_prefix(kPrefix.size());
  bool ok_ext = false;
  for (std::string_view ext : {".log", ".log.gz", ".log.zst"})
    if (rest.size() > ext.size() && rest.substr(rest.size() - ext.size()) == ext) {
      rest.remove_suffix(ext.size());
      ok_ext = true;
      break;
    }
  if (!ok_ext) return std::nullopt;
  std::string_view first = rest.substr(0, rest.find('_'));
  uint32_t r = 0;
  auto res = std::from_chars(first.data(), first.data() + first.size(), r);
  if (res.ec != std::errc() || res.ptr != first.data() + first.size() || first.empty())
    return std::nullopt;
  return r;
}

bool discover_rank_logs(const std::string& dir, std::vector<RankLog>* logs,
                        std::vector<std::string>* ignored, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = "Input path " + dir + " must be a directory when using --all-ranks-html";
    return false;
  }
  std::map<uint32_t, std::string> found;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    std::string name = it->path().filename().string();
    auto r = it->is_regular_file(e2) ? rank_of_log_name(name) : std::nullopt;
    if (!r) {
      ignored->push_back(name + " (not a rank log)");
      continue;
    }
    auto [slot, inserted] = found.try_emplace(*r, it->path().string());
    if (!inserted) {
      // Two logs for one rank (J27): keep the first by name, name the other.
      std::string keep = std::min(slot->second, it->path().string());
      std::string drop = std::max(slot->second, it->path().string());
      slot->second = keep;
      ignored->push_back(fs::path(drop).filename().string() + " (another log for rank " +
                         std::to_string(*r) + ")");
    }
  }
  for (auto& [r, p] : found) logs->push_back({r, p});
  if (logs->empty()) {
    *error = "No rank log files found in directory " + dir;
    return false;
  }
  return true;
}

}  // namespace tlscope::io
