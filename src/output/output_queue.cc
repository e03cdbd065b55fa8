// OutputDir's writer threads: jobs handed over in batches, MD5 checks of a
// batch side by side, buffers handed back for reuse, and file copies done a
// piece at a time between batches.
#include "output/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "output/escape.h"
#include "trace/md5.h"

namespace tlscope::output {

namespace {
// Memory held by queued files (their buffers' capacity) beyond which the
// producer waits: bounds memory on huge logs.
constexpr size_t kMaxQueuedBytes = 8u << 20;
// Buffers kept for reuse: this much memory on each side of the pool, in
// buffers of at most this size. Reused buffers spare the kernel from handing
// out and zeroing fresh pages, which costs more than the copies themselves.
constexpr size_t kPoolBytes = 6u << 20;
constexpr size_t kPoolBufferBytes = 4u << 20;
constexpr size_t kPoolMinBufferBytes = 4u << 10;
// A pending copy advances by this much after each batch (at least), and by
// the larger step when there is nothing else to do.
constexpr size_t kBatchCopyBytes = 1u << 20;
constexpr size_t kIdleCopyBytes = 8u << 20;
// Payloads are checked once this many wait, or this many bytes.
constexpr size_t kMd5Messages = 1024;
constexpr size_t kMd5Bytes = 4u << 20;
// A batch goes to the writers when it holds this many bytes or jobs.
constexpr size_t kBatchBytes = 2u << 20;
constexpr size_t kBatchJobs = 256;
// A page's log text is escaped and written this much at a time.
constexpr size_t kEscapePieceBytes = 1u << 20;
}  // namespace

// The writer takes one batch at a time; the MD5 checks of several batches
// are gathered (run_batch), so that they fill the lanes of md5_many.
void OutputDir::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    has_work_.wait(lock, [this] { return stop_ || !queue_.empty() || copy_ready(); });
    if (queue_.empty()) {
      if (!copy_ready()) return;  // stop requested and nothing left
      copy_step(lock, kIdleCopyBytes);
      continue;
    }
    size_t bytes = run_queued(lock);
    // A copy advances with the other files, so that no long copy holds them up.
    if (copy_ready()) copy_step(lock, std::max(kBatchCopyBytes, bytes / 2));
  }
}

// Runs the oldest queued batch without holding `lock`; returns the memory
// its buffers held. Batches run one at a time, in order, so that a later
// write to the same path wins.
size_t OutputDir::run_queued(std::unique_lock<std::mutex>& lock) {
  Batch batch = std::move(queue_.front());
  queue_.pop_front();
  ++busy_;
  lock.unlock();
  size_t bytes = 0;
  for (const auto& job : batch) bytes += job.data.capacity();
  run_batch(batch);
  give_back(batch);
  batch.clear();
  lock.lock();
  --busy_;
  queued_bytes_ -= bytes;
  behind_.store(queued_bytes_ > kMaxQueuedBytes / 2, std::memory_order_relaxed);
  has_room_.notify_all();
  return bytes;
}

bool OutputDir::copy_ready() const { return !copies_.empty() && !copy_busy_; }

// Copies the next `bytes` of the oldest pending copy, without holding `lock`.
void OutputDir::copy_step(std::unique_lock<std::mutex>& lock, size_t bytes) {
  copy_busy_ = true;
  Copy c = copies_.front();
  lock.unlock();
  bool done = copy_chunk(&c, bytes);
  lock.lock();
  copy_busy_ = false;
  copies_.front() = c;
  if (done) {
    copies_.pop_front();
    has_room_.notify_all();
  }
}

// In-kernel copy where the file system allows it, else read/write. True when
// the copy is complete (or failed); its files are then closed.
bool OutputDir::copy_chunk(Copy* c, size_t bytes) {
  bool ok = true, done = false;
  while (bytes > 0 && ok) {
    ssize_t n;
    if (!c->plain) {
      n = ::copy_file_range(c->in, nullptr, c->out, nullptr, bytes, 0);
      if (n < 0 && errno != EINTR) {
        c->plain = true;  // not supported here (or across file systems)
        continue;
      }
    } else {
      char buf[1 << 16];
      n = ::read(c->in, buf, std::min(bytes, sizeof buf));
      if (n > 0)
        ok = write_all(c->out, std::string_view(buf, static_cast<size_t>(n)));
      else if (n < 0 && errno != EINTR)
        ok = false;
    }
    if (n == 0) {
      done = true;
      break;
    }
    if (n > 0) bytes -= static_cast<size_t>(n);
  }
  if (done || !ok) {
    ::close(c->in);
    if (::close(c->out) != 0 || !ok) ++errors_;
    return true;
  }
  return false;
}

// The producer's side of the pool is sorted by capacity: it takes the
// smallest buffer that fits, so that big ones stay for big files. When none
// fits, it takes over what the writers have handed back since.
std::string OutputDir::take_buffer(size_t size_hint) {
  auto by_capacity = [](const std::string& a, const std::string& b) {
    return a.capacity() < b.capacity();
  };
  for (int pass = 0; pass < 2; ++pass) {
    auto fit = std::lower_bound(producer_pool_.begin(), producer_pool_.end(), size_hint,
                                [](const std::string& s, size_t n) { return s.capacity() < n; });
    if (fit != producer_pool_.end()) {
      std::string s = std::move(*fit);
      producer_pool_.erase(fit);
      return s;
    }
    if (pass == 1) break;
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      if (pool_.empty()) break;
      for (auto& b : pool_) producer_pool_.push_back(std::move(b));
      pool_.clear();
      pool_bytes_ = 0;
    }
    std::sort(producer_pool_.begin(), producer_pool_.end(), by_capacity);
    // Bounded like the writers' side: the smallest go first.
    size_t held = 0;
    for (const auto& b : producer_pool_) held += b.capacity();
    size_t drop = 0;
    while (held > kPoolBytes && drop < producer_pool_.size())
      held -= producer_pool_[drop++].capacity();
    producer_pool_.erase(producer_pool_.begin(),
                         producer_pool_.begin() + static_cast<ptrdiff_t>(drop));
  }
  std::string s;
  s.reserve(size_hint);  // none big enough: keep the smaller ones for smaller files
  return s;
}

void OutputDir::give_back(Batch& batch) {
  std::lock_guard<std::mutex> lock(pool_mu_);
  for (auto& job : batch) {
    size_t cap = job.data.capacity();
    if (cap < kPoolMinBufferBytes || cap > kPoolBufferBytes || pool_bytes_ + cap > kPoolBytes)
      continue;
    job.data.clear();
    pool_bytes_ += cap;
    pool_.push_back(std::move(job.data));
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
  // A full queue means the writers are behind: rather than wait, move a
  // pending copy on (batches stay with the writers, which keep their order).
  while (queued_bytes_ >= kMaxQueuedBytes) {
    if (copy_ready())
      copy_step(lock, kBatchCopyBytes);
    else
      has_room_.wait(lock);
  }
  queued_bytes_ += bytes;
  behind_.store(queued_bytes_ > kMaxQueuedBytes / 2, std::memory_order_relaxed);
  queue_.push_back(std::move(batch));
  lock.unlock();
  has_work_.notify_one();
}

void OutputDir::drain() {
  if (!threads_.empty()) {
    flush_pending();
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      if (copy_ready())
        copy_step(lock, kIdleCopyBytes);
      else if (queue_.empty() && busy_ == 0 && copies_.empty())
        break;
      else
        has_room_.wait(lock);
    }
  }
  flush_md5();
}

void OutputDir::write_file(const std::string& rel, std::string_view content) {
  if (threads_.empty()) return write_now(rel, content);
  std::string data = take_buffer(content.size());
  data.assign(content);
  write_file(rel, std::move(data));
}

void OutputDir::write_file(const std::string& rel, std::string&& content) {
  enqueue(Job(Job::kWrite, rel, std::move(content)));
}

void OutputDir::write_page(const std::string& rel, std::string&& content,
                           std::vector<EscapeRange>&& escapes) {
  Job job(Job::kWrite, rel, std::move(content));
  job.escapes = std::move(escapes);
  if (threads_.empty()) {  // not expected: PageWriter only defers to threads
    Batch one;
    one.push_back(std::move(job));
    return run_batch(one);
  }
  enqueue(std::move(job));
}

void OutputDir::write_payload(const std::string& rel, std::string_view payload,
                              std::string_view md5) {
  std::string data = take_buffer(payload.size());
  data.assign(payload);
  write_payload(rel, std::move(data), md5);
}

void OutputDir::write_payload(const std::string& rel, std::string&& payload, std::string_view md5) {
  enqueue(Job(Job::kWrite, rel, std::move(payload), std::string(md5)));
}

void OutputDir::check_payload(std::string_view payload, std::string_view md5) {
  std::string data = take_buffer(payload.size());
  data.assign(payload);
  enqueue(Job(Job::kCheck, {}, std::move(data), std::string(md5)));
}

void OutputDir::copy_file(const std::string& rel, const std::string& src) {
  int in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    ++errors_;
    return;
  }
  start_copy(rel, in, {});
}

void OutputDir::move_after(const std::string& rel, std::string_view head, const std::string& part) {
  int in = ::openat(root_fd_, part.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (in < 0) {
    ++errors_;
    return;
  }
  ::unlinkat(root_fd_, part.c_str(), 0);  // still readable through `in`
  start_copy(rel, in, head);
}

void OutputDir::start_copy(const std::string& rel, int in, std::string_view head) {
  Copy c;
  c.in = in;
  c.out = create(rel);
  if (c.out < 0) {
    ::close(c.in);
    return;
  }
  if (!write_all(c.out, head)) {
    ++errors_;
    ::close(c.in);
    ::close(c.out);
    return;
  }
  if (threads_.empty()) {
    while (!copy_chunk(&c, size_t{1} << 30)) {
    }
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    copies_.push_back(c);
  }
  has_work_.notify_one();
}

void OutputDir::enqueue(Job job) {
  if (threads_.empty()) {
    Batch one;
    one.push_back(std::move(job));
    return run_batch(one);
  }
  bool full;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    pending_bytes_ += job.data.capacity();  // memory held, not just content
    pending_.push_back(std::move(job));
    full = pending_bytes_ >= kBatchBytes || pending_.size() >= kBatchJobs;
  }
  if (full) flush_pending();
}

// Files are written at once; payloads to check wait in md5_jobs_ until there
// are enough of them to keep the lanes of md5_many busy (a file batch holds
// only a few, and one long payload among them would leave most lanes idle).
void OutputDir::run_batch(Batch& batch) {
  thread_local std::string scratch;  // escaped pages; keeps its room
  for (const auto& job : batch) run_job(job, &scratch);
  if (scratch.capacity() > kPoolBufferBytes) std::string().swap(scratch);
  Batch to_hash;
  {
    std::lock_guard<std::mutex> lock(md5_mu_);
    for (auto& job : batch) {
      if (job.md5.empty()) continue;
      md5_bytes_ += job.data.size();
      md5_jobs_.push_back(std::move(job));
    }
    if (md5_jobs_.size() < kMd5Messages && md5_bytes_ < kMd5Bytes) return;
    to_hash.swap(md5_jobs_);
    md5_bytes_ = 0;
  }
  check_md5(to_hash);
}

// Checks the digests of `jobs` side by side, then recycles their buffers.
void OutputDir::check_md5(Batch& jobs) {
  std::vector<std::string_view> payloads;
  payloads.reserve(jobs.size());
  for (const auto& job : jobs) payloads.push_back(job.data);
  std::vector<trace::Md5Digest> digests(payloads.size());
  trace::md5_many(payloads.data(), payloads.size(), digests.data());
  for (size_t i = 0; i < jobs.size(); ++i)
    if (!trace::md5_hex_equals(digests[i], jobs[i].md5)) ++md5_failures_;
  give_back(jobs);
}

// The payloads still waiting for their check (called once the writers are idle).
void OutputDir::flush_md5() {
  Batch to_hash;
  {
    std::lock_guard<std::mutex> lock(md5_mu_);
    to_hash.swap(md5_jobs_);
    md5_bytes_ = 0;
  }
  if (!to_hash.empty()) check_md5(to_hash);
}

// A page with log text to escape is escaped and written a piece at a time:
// a page that shows a long text (a large model's generated code) needs no
// second whole copy of it, nor a buffer that doubles to hold one.
void OutputDir::run_job(const Job& job, std::string* scratch) {
  if (job.kind != Job::kWrite) return;
  if (job.escapes.empty()) return write_now(job.rel, job.data);
  std::string part;
  int fd = open_whole(job.rel, &part);
  if (fd < 0) return;
  bool ok = true;
  scratch->clear();
  auto write_out = [&](bool last) {
    if (!last && scratch->size() < kEscapePieceBytes) return;
    ok = write_all(fd, *scratch) && ok;
    scratch->clear();
  };
  std::string_view data = job.data;
  size_t from = 0;
  for (const auto& e : job.escapes) {
    scratch->append(data.substr(from, e.at - from));
    for (std::string_view text = data.substr(e.at, e.size); !text.empty();) {
      size_t cut = escape_cut(text, std::min(text.size(), kEscapePieceBytes));
      append_escaped(scratch, text.substr(0, cut), e.utf8);
      text.remove_prefix(cut);
      write_out(false);
    }
    from = e.at + e.size;
  }
  scratch->append(data.substr(from));
  write_out(true);
  close_whole(job.rel, part, fd, ok);
}

}  // namespace tlscope::output
