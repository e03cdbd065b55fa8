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
// A batch goes to the writers when it holds this many bytes or jobs.
constexpr size_t kBatchBytes = 2u << 20;
constexpr size_t kBatchJobs = 256;

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}
}  // namespace

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

// Each writer takes every batch that is waiting, so that its MD5 checks can
// fill the lanes of md5_many.
void OutputDir::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    has_work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop requested and nothing left
    Batch batch = std::move(queue_.front());
    queue_.pop_front();
    while (!queue_.empty() && threads_.size() == 1) {
      for (auto& job : queue_.front()) batch.push_back(std::move(job));
      queue_.pop_front();
    }
    ++busy_;
    lock.unlock();
    size_t bytes = 0;
    for (const auto& job : batch) bytes += job.data.size();
    run_batch(batch);
    batch.clear();
    lock.lock();
    --busy_;
    queued_bytes_ -= bytes;
    has_room_.notify_all();
  }
}

void OutputDir::flush_pending() {
  Batch batch;
  size_t bytes;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    if (pending_.empty()) return;
    batch.swap(pending_);
    bytes = std::exchange(pending_bytes_, 0);
  }
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [&] { return queued_bytes_ < kMaxQueuedBytes; });
  queued_bytes_ += bytes;
  queue_.push_back(std::move(batch));
  lock.unlock();
  has_work_.notify_one();
}

void OutputDir::drain() {
  if (threads_.empty()) return;
  flush_pending();
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

void OutputDir::check_payload(std::string_view payload, std::string_view md5) {
  enqueue(Job{Job::kCheck, {}, std::string(payload), std::string(md5)});
}

void OutputDir::copy_file(const std::string& rel, const std::string& src) {
  enqueue(Job{Job::kCopy, rel, src, {}});
}

void OutputDir::enqueue(Job job) {
  if (discard_) return;
  if (threads_.empty()) {
    Batch one;
    one.push_back(std::move(job));
    return run_batch(one);
  }
  bool full;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    pending_bytes_ += job.data.size();
    pending_.push_back(std::move(job));
    full = pending_bytes_ >= kBatchBytes || pending_.size() >= kBatchJobs;
  }
  if (full) flush_pending();
}

void OutputDir::run_batch(Batch& batch) {
  std::vector<std::string_view> payloads;
  std::vector<const Job*> checked;
  for (const auto& job : batch) {
    if (job.kind == Job::kCopy || job.md5.empty()) continue;
    payloads.push_back(job.data);
    checked.push_back(&job);
  }
  std::vector<trace::Md5Digest> digests(payloads.size());
  trace::md5_many(payloads.data(), payloads.size(), digests.data());
  for (size_t i = 0; i < checked.size(); ++i)
    if (!trace::md5_hex_equals(digests[i], checked[i]->md5)) ++md5_failures_;
  for (const auto& job : batch) run_job(job);
}

void OutputDir::run_job(const Job& job) {
  if (job.kind == Job::kCopy) return copy_now(job.rel, job.data);
  if (job.kind == Job::kWrite) write_now(job.rel, job.data);
}

// In-kernel copy where the file system allows it, else read/write.
void OutputDir::copy_now(const std::string& rel, const std::string& src) {
  int in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC);
  int fd = in >= 0 ? create(rel) : -1;
  if (fd < 0) {
    if (in >= 0) ::close(in);
    else ++errors_;
    return;
  }
  bool ok = true;
  for (;;) {
    ssize_t n = ::copy_file_range(in, nullptr, fd, nullptr, 1 << 30, 0);
    if (n > 0) continue;
    if (n == 0) break;
    // Not supported here (or across file systems): plain copy from where we are.
    char buf[1 << 16];
    ssize_t r;
    while ((r = ::read(in, buf, sizeof buf)) > 0)
      if (!write_all(fd, std::string_view(buf, static_cast<size_t>(r)))) {
        ok = false;
        break;
      }
    if (r < 0) ok = false;
    break;
  }
  ::close(in);
  if (::close(fd) != 0 || !ok) ++errors_;
}

void OutputDir::write_now(const std::string& rel, std::string_view content) {
  if (discard_) return;
  int fd = create(rel);
  if (fd < 0) return;
  bool ok = write_all(fd, content);
  ok = ::close(fd) == 0 && ok;
  if (!ok) ++errors_;
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
    std::string_view seg(rel.data() + start, (slash == std::string::npos ? rel.size() : slash) - start);
    if (seg.empty() || seg == "." || seg == "..") return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
}
}  // namespace

// Creates (or truncates) a file below the root, relative to the root's
// descriptor, never following a symlink in its place.
int OutputDir::create(const std::string& rel) {
  if (discard_) return -1;
  if (!relative_and_inside(rel) || !ensure_parent(rel)) {
    ++errors_;
    return -1;
  }
  int fd = ::openat(root_fd_, rel.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                    0644);
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

}  // namespace tlscope::report
