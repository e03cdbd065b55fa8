#include "report/output_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include <fmt/format.h>

#include "trace/md5.h"

namespace tlscope::report {

std::string safe_segment(std::string_view name) {
  std::string s;
  s.reserve(name.size());
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-' || c == '+';
    s += ok ? c : '_';
  }
  if (s.empty() || s[0] == '.') s = "_" + s;
  constexpr size_t kMax = 160;
  if (s.size() > kMax) {
    size_t h = std::hash<std::string_view>{}(name);
    s = s.substr(0, kMax - 17) + fmt::format("-{:016x}", h);
  }
  return s;
}

PageWriter::~PageWriter() { dir_->write_file(rel_, std::move(buf_)); }

namespace {
// Pending bytes beyond which the producer waits: bounds memory on huge logs.
constexpr size_t kMaxQueuedBytes = 64u << 20;
}  // namespace

OutputDir::OutputDir(std::string root, unsigned writers) : root_(std::move(root)) {
  for (unsigned i = 0; i < writers; ++i) threads_.emplace_back([this] { worker(); });
}

OutputDir::~OutputDir() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  has_work_.notify_all();
  for (auto& t : threads_) t.join();
}

void OutputDir::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    has_work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop requested and nothing left
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++busy_;
    lock.unlock();
    run_job(job);
    lock.lock();
    --busy_;
    queued_bytes_ -= job.data.size();
    has_room_.notify_all();
  }
}

void OutputDir::drain() {
  if (threads_.empty()) return;
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [this] { return queue_.empty() && busy_ == 0; });
}

std::unique_ptr<PageWriter> OutputDir::open(const std::string& rel) {
  return std::make_unique<PageWriter>(this, rel);
}

void OutputDir::write_file(const std::string& rel, std::string_view content) {
  if (threads_.empty()) return write_now(rel, content);
  write_file(rel, std::string(content));
}

void OutputDir::write_file(const std::string& rel, std::string&& content) {
  enqueue(Job{Job::kWrite, rel, std::move(content), {}});
}

void OutputDir::write_payload(const std::string& rel, std::string_view payload,
                              std::string_view md5) {
  enqueue(Job{Job::kWrite, rel, std::string(payload), std::string(md5)});
}

void OutputDir::copy_file(const std::string& rel, const std::string& src) {
  enqueue(Job{Job::kCopy, rel, src, {}});
}

void OutputDir::enqueue(Job job) {
  if (discard_) return;
  if (threads_.empty()) return run_job(job);
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [&] { return queued_bytes_ < kMaxQueuedBytes; });
  queued_bytes_ += job.data.size();
  queue_.push_back(std::move(job));
  lock.unlock();
  has_work_.notify_one();
}

void OutputDir::run_job(const Job& job) {
  if (job.kind == Job::kCopy) return copy_now(job.rel, job.data);
  write_now(job.rel, job.data);
  if (!job.md5.empty() && !trace::md5_matches(job.data, job.md5)) ++md5_failures_;
}

// In-kernel copy where the file system allows it, else read/write.
void OutputDir::copy_now(const std::string& rel, const std::string& src) {
  int in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC);
  FILE* out = in >= 0 ? open_raw(rel) : nullptr;
  if (!out) {
    if (in >= 0) ::close(in);
    ++errors_;
    return;
  }
  int fd = ::fileno(out);
  bool ok = true;
  for (;;) {
    ssize_t n = ::copy_file_range(in, nullptr, fd, nullptr, 1 << 30, 0);
    if (n > 0) continue;
    if (n == 0) break;
    // Not supported here (or across file systems): plain copy from where we are.
    char buf[1 << 16];
    ssize_t r;
    while ((r = ::read(in, buf, sizeof buf)) > 0)
      if (::write(fd, buf, static_cast<size_t>(r)) != r) {
        ok = false;
        break;
      }
    if (r < 0) ok = false;
    break;
  }
  ::close(in);
  if (std::fclose(out) != 0 || !ok) ++errors_;
}

void OutputDir::write_now(const std::string& rel, std::string_view content) {
  if (discard_) return;
  FILE* f = open_raw(rel);
  if (!f) return;
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) ++errors_;
}

bool OutputDir::ensure_parent(const std::string& rel) {
  size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return true;
  std::string dir = rel.substr(0, slash);
  std::lock_guard<std::mutex> lock(dirs_mu_);
  return ensure_dir_locked(dir);
}

bool OutputDir::ensure_dir_locked(const std::string& dir) {
  if (dirs_.count(dir)) return true;
  size_t up = dir.rfind('/');
  if (up != std::string::npos && !ensure_dir_locked(dir.substr(0, up))) return false;
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
  if (discard_) return nullptr;
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

}  // namespace tlscope::report
