#include "report/output_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace tlscope::report {

std::string safe_segment(std::string_view name) {
  std::string s;
  s.reserve(name.size());
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+';
    s += ok ? c : '_';
  }
  if (s.empty() || s[0] == '.') s.insert(0, "_");
  constexpr size_t kMax = 160;
  if (s.size() > kMax) {
    size_t h = std::hash<std::string_view>{}(name);
    s = s.substr(0, kMax - 17) + fmt::format("-{:016x}", h);
  }
  return s;
}

PageWriter::~PageWriter() {
  flush();
  if (std::fclose(f_) != 0) ok_ = false;
}

void PageWriter::flush() {
  if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ok_ = false;
  buf_.clear();
}

void PageWriter::put_escaped(std::string_view log_text) {
  append_escaped(&buf_, log_text);
  if (buf_.size() >= kFlushAt) flush();
}

bool OutputDir::ensure_parent(const std::string& rel) {
  size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return true;
  std::string dir = rel.substr(0, slash);
  if (dirs_.count(dir)) return true;
  if (!ensure_parent(dir)) return false;
  std::string full = root_ + "/" + dir;
  if (::mkdir(full.c_str(), 0755) != 0 && errno != EEXIST) return false;
  struct stat st;
  // A symlink or a file in the way is never followed.
  if (::lstat(full.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  dirs_.insert(dir);
  return true;
}

namespace {
// Every segment non-empty and neither "." nor "..": a last line of defence
// behind safe_segment().
bool relative_and_inside(const std::string& rel) {
  size_t start = 0;
  for (;;) {
    size_t slash = rel.find('/', start);
    std::string_view seg(rel.data() + start, (slash == std::string::npos ? rel.size() : slash) - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
}
}  // namespace

FILE* OutputDir::open_raw(const std::string& rel) {
  if (!relative_and_inside(rel) || !ensure_parent(rel)) {
    ++errors_;
    return nullptr;
  }
  std::string full = root_ + "/" + rel;
  int fd = ::open(full.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    ++errors_;
    std::fprintf(stderr, "Cannot write %s: %s\n", full.c_str(), std::strerror(errno));
    return nullptr;
  }
  FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    ::close(fd);
    ++errors_;
    return nullptr;
  }
  ++files_;
  return f;
}

std::unique_ptr<PageWriter> OutputDir::open(const std::string& rel) {
  FILE* f = open_raw(rel);
  return f ? std::make_unique<PageWriter>(f) : nullptr;
}

bool OutputDir::write_file(const std::string& rel, std::string_view content) {
  FILE* f = open_raw(rel);
  if (!f) return false;
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) ++errors_;
  return ok;
}

}  // namespace tlscope::report
