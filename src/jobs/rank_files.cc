#include "jobs/rank_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "io/read_file.h"

namespace tlscope::jobs {
namespace fs = std::filesystem;

namespace {

constexpr const char* kListingFormat = "tlscope rank logs";

// "<host>-<pid>": unique among the tasks of a job writing to one shared folder.
std::string task_tag() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::string h;
  for (const char* c = host; *c; ++c)
    h += (std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' || *c == '.') ? *c : '_';
  return fmt::format("{}-{}", h.empty() ? "host" : h, ::getpid());
}

// A folder we may replace: a rank folder of ours (or a rank report of an
// --all-ranks-html run from before rank summaries existed).
bool looks_like_rank_folder(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / kRankSummaryFile, ec) ||
         (fs::exists(dir / "index.html", ec) &&
          (fs::exists(dir / "compile_directory.json", ec) || fs::exists(dir / "raw.jsonl", ec)));
}

std::string sys_error(const std::string& what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

}  // namespace

std::string rank_folder_name(uint32_t rank) { return fmt::format("rank_{}", rank); }

std::optional<uint32_t> rank_of_folder_name(const std::string& name) {
  if (name.rfind("rank_", 0) != 0 || name.size() == 5) return std::nullopt;
  uint32_t r = 0;
  const char* b = name.data() + 5;
  const char* e = name.data() + name.size();
  auto res = std::from_chars(b, e, r);
  if (res.ec != std::errc() || res.ptr != e || *b == '+') return std::nullopt;
  return r;
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string* error) {
  std::string tmp = fmt::format("{}.tmp-{}", path, task_tag());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    *error = sys_error("Cannot write " + tmp);
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok &= std::fclose(f) == 0;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = sys_error("Cannot write " + path);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

std::optional<std::string> begin_rank_folder(const std::string& final_dir, std::string* error) {
  fs::path final(final_dir);
  if (final.filename().empty()) final = final.parent_path();  // "out/rank_0/"
  fs::path parent = final.parent_path().empty() ? fs::path(".") : final.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (!fs::is_directory(parent, ec)) {
    *error = "Cannot create " + parent.string() + (ec ? ": " + ec.message() : "");
    return std::nullopt;
  }
  auto st = fs::symlink_status(final, ec);
  if (fs::exists(st)) {
    if (fs::is_symlink(st) || !fs::is_directory(st)) {
      *error = final_dir + (fs::is_symlink(st) ? " is a symbolic link" : " is a file") +
               ", not a folder: -o names the rank's report folder";
      return std::nullopt;
    }
    if (!fs::is_empty(final, ec) && !looks_like_rank_folder(final)) {
      *error = "Refusing to replace " + final_dir +
               ": it is not empty and does not look like a tlscope rank report (no " +
               kRankSummaryFile + ")";
      return std::nullopt;
    }
  }
  fs::path built = parent / fmt::format(".{}.partial-{}", final.filename().string(), task_tag());
  fs::remove_all(built, ec);
  if (!fs::create_directory(built, ec)) {
    *error = "Cannot create " + built.string() + (ec ? ": " + ec.message() : "");
    return std::nullopt;
  }
  return built.string();
}

bool install_rank_folder(const std::string& built, const std::string& final_dir,
                         std::string* error) {
  std::error_code ec;
  if (::renameat2(AT_FDCWD, built.c_str(), AT_FDCWD, final_dir.c_str(), RENAME_NOREPLACE) == 0)
    return true;
  if (errno == EEXIST || errno == ENOTEMPTY) {
    // An earlier folder (a retried task): swap them in one step, then drop it.
    if (::renameat2(AT_FDCWD, built.c_str(), AT_FDCWD, final_dir.c_str(), RENAME_EXCHANGE) == 0) {
      fs::remove_all(built, ec);
      return true;
    }
  }
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    *error = sys_error("Cannot move " + built + " to " + final_dir);
    fs::remove_all(built, ec);
    return false;
  }
  // A file system without renameat2's flags (some network file systems):
  // move the earlier folder aside first; a reader may see no folder for a
  // moment, never half of one.
  std::string old = built + ".old";
  bool had = fs::exists(fs::symlink_status(final_dir, ec));
  if ((had && std::rename(final_dir.c_str(), old.c_str()) != 0) ||
      std::rename(built.c_str(), final_dir.c_str()) != 0) {
    *error = sys_error("Cannot move " + built + " to " + final_dir);
    fs::remove_all(built, ec);
    return false;
  }
  if (had) fs::remove_all(old, ec);
  return true;
}

bool write_rank_listing(const std::string& out_dir, const RankListing& listing,
                        std::string* error) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const auto& l : listing.logs) ranks.push_back({{"rank", l.rank}, {"log", l.path}});
  nlohmann::ordered_json j = {
      {"format", kListingFormat}, {"version", 1}, {"folder", listing.folder}, {"ranks", ranks}};
  return write_file_atomically(
      (fs::path(out_dir) / kRankListingFile).string(),
      j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n", error);
}

std::optional<RankListing> read_rank_listing(const std::string& out_dir, std::string* error) {
  error->clear();
  fs::path path = fs::path(out_dir) / kRankListingFile;
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  std::string text, why;
  io::read_file(path.string(), &text, &why);  // unreadable: not a listing, said below
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  RankListing listing;
  auto is = [&](const char* key, auto check) { return j.contains(key) && check(j[key]); };
  bool ok = j.is_object() && is("format", [](auto& v) { return v == kListingFormat; }) &&
            is("version", [](auto& v) { return v == 1; }) &&
            is("folder", [](auto& v) { return v.is_string(); }) &&
            is("ranks", [](auto& v) { return v.is_array(); });
  if (ok) {
    listing.folder = j["folder"].get<std::string>();
    for (const auto& r : j["ranks"]) {
      if (!r.is_object() || !r.contains("rank") || !r["rank"].is_number_unsigned() ||
          r["rank"].get<uint64_t>() > UINT32_MAX || !r.contains("log") || !r["log"].is_string()) {
        ok = false;
        break;
      }
      listing.logs.push_back({r["rank"].get<uint32_t>(), r["log"].get<std::string>()});
    }
  }
  if (!ok) {
    *error = path.string() + " is not a rank listing written by tlscope rank; it was ignored";
    return std::nullopt;
  }
  return listing;
}

}  // namespace tlscope::jobs
