// OutputDir's writer threads: jobs handed over in batches, MD5 checks of a
// batch side by side, buffers handed back for reuse, and file copies done a
// piece at a time between batches.
#include "report/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "trace/md5.h"

namespace tlscope::report {

namespace {
// Memory held by queued files (their buffers' capacity) beyond which the
// producer waits: bounds memory on huge logs.
constexpr size_t kMaxQueuedBytes = 64u << 20;
// Buffers kept for reuse: at most this many, each at most this large.
constexpr size_t kPoolBuffers = 32;
constexpr size_t kPoolBufferBytes = 512u << 10;
// A pending copy advances by this much after each batch (at least), and by
// the larger step when there is nothing else to do.
constexpr size_t kBatchCopyBytes = 1u << 20;
constexpr size_t kIdleCopyBytes = 8u << 20;
// A batch goes to the writers when it holds this many bytes or jobs.
constexpr size_t kBatchBytes = 2u << 20;
constexpr size_t kBatchJobs = 256;
}  // namespace

// Each writer takes every batch that is waiting, so that its MD5 checks can
// fill the lanes of md5_many.
void OutputDir::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    has_work_.wait(lock, [this] { return stop_ || !queue_.empty() || copy_ready(); });
    if (queue_.empty()) {
      if (!copy_ready()) return;  // stop requested and nothing left
      copy_step(lock, kIdleCopyBytes);
      continue;
    }
    Batch batch = std::move(queue_.front());
    queue_.pop_front();
    while (!queue_.empty() && threads_.size() == 1) {
      for (auto& job : queue_.front()) batch.push_back(std::move(job));
      queue_.pop_front();
    }
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
    // A copy advances with the other files, so that no long copy holds them up.
    if (copy_ready()) copy_step(lock, std::max(kBatchCopyBytes, bytes / 2));
    has_room_.notify_all();
  }
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
      if (n > 0) ok = write_all(c->out, std::string_view(buf, static_cast<size_t>(n)));
      else if (n < 0 && errno != EINTR) ok = false;
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

std::string OutputDir::take_buffer(size_t size_hint) {
  if (producer_pool_.empty()) {
    std::lock_guard<std::mutex> lock(pool_mu_);
    producer_pool_.swap(pool_);
  }
  // A buffer big enough, among the last few.
  for (size_t i = producer_pool_.size(), tries = 0; i-- > 0 && tries < 8; ++tries) {
    if (producer_pool_[i].capacity() < size_hint) continue;
    std::string s = std::move(producer_pool_[i]);
    producer_pool_[i] = std::move(producer_pool_.back());
    producer_pool_.pop_back();
    return s;
  }
  std::string s;
  if (!producer_pool_.empty()) {
    s = std::move(producer_pool_.back());
    producer_pool_.pop_back();
  }
  s.reserve(size_hint);
  return s;
}

void OutputDir::give_back(Batch& batch) {
  std::lock_guard<std::mutex> lock(pool_mu_);
  for (auto& job : batch) {
    if (pool_.size() >= kPoolBuffers) break;
    if (job.data.capacity() > kPoolBufferBytes) continue;
    job.data.clear();
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
  has_room_.wait(lock, [this] { return queue_.empty() && busy_ == 0 && copies_.empty(); });
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
  if (discard_) return;
  Copy c;
  c.in = ::open(src.c_str(), O_RDONLY | O_CLOEXEC);
  if (c.in < 0) {
    ++errors_;
    return;
  }
  c.out = create(rel);
  if (c.out < 0) {
    ::close(c.in);
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
  if (discard_) return;
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

void OutputDir::run_batch(Batch& batch) {
  std::vector<std::string_view> payloads;
  std::vector<const Job*> checked;
  for (const auto& job : batch) {
    if (job.md5.empty()) continue;
    payloads.push_back(job.data);
    checked.push_back(&job);
  }
  std::vector<trace::Md5Digest> digests(payloads.size());
  trace::md5_many(payloads.data(), payloads.size(), digests.data());
  for (size_t i = 0; i < checked.size(); ++i)
    if (!trace::md5_hex_equals(digests[i], checked[i]->md5)) ++md5_failures_;
  thread_local std::string scratch;  // escaped pages; keeps its room
  for (const auto& job : batch) run_job(job, &scratch);
  if (scratch.capacity() > kPoolBufferBytes) std::string().swap(scratch);
}

void OutputDir::run_job(const Job& job, std::string* scratch) {
  if (job.kind != Job::kWrite) return;
  if (job.escapes.empty()) return write_now(job.rel, job.data);
  scratch->clear();
  size_t from = 0;
  for (const auto& e : job.escapes) {
    scratch->append(job.data, from, e.at - from);
    append_escaped(scratch, std::string_view(job.data).substr(e.at, e.size));
    from = e.at + e.size;
  }
  scratch->append(job.data, from);
  write_now(job.rel, *scratch);
}

}  // namespace tlscope::report
