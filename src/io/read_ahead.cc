#include "io/read_ahead.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tlscope::io {
namespace {

class ReadAhead : public ByteSource {
 public:
  ReadAhead(std::unique_ptr<ByteSource> inner, size_t block_bytes, size_t blocks)
      : inner_(std::move(inner)),
        compressed_(inner_->compressed()),
        gzip_(inner_->gzip()),
        slots_(std::max<size_t>(blocks, 2)) {
    for (Slot& s : slots_) s.bytes.resize(std::max<size_t>(block_bytes, 4096));
    thread_ = std::thread([this] { fill_slots(); });
  }

  ~ReadAhead() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  long read(char* buf, size_t n) override {
    if (n == 0) return 0;
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return filled_ > 0; });
    Slot& s = slots_[head_];
    if (s.status < 0) {
      error_ = s.error;
      return -1;
    }
    if (s.status == 0) return 0;  // the end, kept for every later call
    lock.unlock();
    size_t take = std::min(n, s.len - s.pos);
    std::memcpy(buf, s.bytes.data() + s.pos, take);
    s.pos += take;
    offset_ = s.offset;
    if (s.pos == s.len) {
      lock.lock();
      head_ = (head_ + 1) % slots_.size();
      --filled_;
      lock.unlock();
      changed_.notify_all();
    }
    return static_cast<long>(take);
  }

  uint64_t file_offset() const override { return offset_; }
  bool compressed() const override { return compressed_; }
  bool gzip() const override { return gzip_; }

 private:
  struct Slot {
    std::vector<char> bytes;
    size_t len = 0, pos = 0;
    int status = 1;  // 1: bytes, 0: the end, -1: an error
    std::string error;
    uint64_t offset = 0;  // inner's file_offset() after this block
  };

  // The reading thread: fills free slots in turn until the end or an error.
  void fill_slots() {
    size_t tail = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        changed_.wait(lock, [&] { return stop_ || filled_ < slots_.size(); });
        if (stop_) return;
      }
      Slot& s = slots_[tail];
      long r = inner_->read(s.bytes.data(), s.bytes.size());
      s.len = r > 0 ? static_cast<size_t>(r) : 0;
      s.pos = 0;
      s.status = r > 0 ? 1 : static_cast<int>(r < 0 ? -1 : 0);
      if (r < 0) s.error = inner_->error();
      s.offset = inner_->file_offset();
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++filled_;
      }
      changed_.notify_all();
      if (r <= 0) return;  // the slot stays filled: every later read sees it
      tail = (tail + 1) % slots_.size();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  const bool compressed_, gzip_;
  std::vector<Slot> slots_;
  std::mutex mu_;
  std::condition_variable changed_;
  size_t head_ = 0, filled_ = 0;  // guarded by mu_
  bool stop_ = false;             // guarded by mu_
  uint64_t offset_ = 0;           // the reader's thread only
  std::thread thread_;
};

}  // namespace

std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner, size_t block_bytes,
                                       size_t blocks) {
  return std::make_unique<ReadAhead>(std::move(inner), block_bytes, blocks);
}

}  // namespace tlscope::io
