#include "output/output_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace tlscope::output {

OutputDir::OutputDir(std::string root, unsigned writers) : root_(std::move(root)) {
  if (!root_.empty()) root_fd_ = ::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (unsigned i = 0; i < writers; ++i) threads_.emplace_back([this] { worker(); });
}

OutputDir::~OutputDir() {
  flush_pending();
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  has_work_.notify_all();
  for (auto& t : threads_) t.join();
  if (root_fd_ >= 0) ::close(root_fd_);
}

bool OutputDir::write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void OutputDir::write_now(const std::string& rel, std::string_view content) {
  std::string part;
  int fd = open_whole(rel, &part);
  if (fd < 0) return;
  close_whole(rel, part, fd, write_all(fd, content));
}

int OutputDir::open_whole(const std::string& rel, std::string* part) {
  *part = atomic_.load(std::memory_order_relaxed) ? rel + "~" : rel;
  return create(*part);
}

void OutputDir::close_whole(const std::string& rel, const std::string& part, int fd, bool ok) {
  bool atomic = part != rel;
  ok = ::close(fd) == 0 && ok;
  // rename() replaces a link of that name itself, never what it points to.
  if (atomic && ok) ok = ::renameat(root_fd_, part.c_str(), root_fd_, rel.c_str()) == 0;
  if (!ok) ++errors_;
  if (!ok && atomic) ::unlinkat(root_fd_, part.c_str(), 0);  // no part file left to be served
}

bool OutputDir::ensure_parent(const std::string& rel) {
  size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return true;
  std::string dir = rel.substr(0, slash);
  std::lock_guard<std::mutex> lock(dirs_mu_);
  return root_fd_ >= 0 && ensure_dir_locked(dir);
}

bool OutputDir::ensure_dir_locked(const std::string& dir) {
  if (dirs_.count(dir)) return true;
  size_t up = dir.rfind('/');
  if (up != std::string::npos && !ensure_dir_locked(dir.substr(0, up))) return false;
  if (::mkdirat(root_fd_, dir.c_str(), 0755) != 0 && errno != EEXIST) return false;
  struct stat st;
  // A symlink or a file in the way is never followed.
  if (::fstatat(root_fd_, dir.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
    return false;
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
    std::string_view seg(rel.data() + start,
                         (slash == std::string::npos ? rel.size() : slash) - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
}
}  // namespace

// Creates (or truncates) a file below the root, relative to the root's
// descriptor, never following a symlink in its place.
int OutputDir::create(const std::string& rel) {
  if (!relative_and_inside(rel) || !ensure_parent(rel)) {
    ++errors_;
    return -1;
  }
  int fd =
      ::openat(root_fd_, rel.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    ++errors_;
    std::fprintf(stderr, "Cannot write %s/%s: %s\n", root_.c_str(), rel.c_str(),
                 std::strerror(errno));
  } else {
    ++files_;
  }
  return fd;
}

FILE* OutputDir::open_raw(const std::string& rel) {
  int fd = create(rel);
  if (fd < 0) return nullptr;
  FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    ::close(fd);
    ++errors_;
  }
  return f;
}

}  // namespace tlscope::output
