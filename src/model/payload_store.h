// Every PayloadFile of a log, numbered in the order they were added. A diff
// of two 1 GB logs makes 190,000 of them; held in memory they were the
// largest part of its heap, and they grow with the log. With a limit, all
// but that many chunks of them live in an unlinked temporary file (in
// $TMPDIR, or /tmp), read back a chunk at a time when asked for: the memory
// they take no longer grows with the log. Without a temporary file to be
// had, or once one fails to be written, they are all kept in memory.
//
// Not safe to share between threads, reads included (a read may load a
// chunk): each log's store is used by one thread at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/payload_file.h"

namespace tlscope::model {

class PayloadFileStore {
 public:
  // Files per chunk (22 KB): a compile's files are read back in a chunk or
  // two, whatever order compiles are asked for in (`tlscope diff` keeps 32
  // in memory: on a pair of 1 GB logs it reads 1,900 chunks back a log).
  static constexpr size_t kChunkFiles = 256;
  // All in memory.
  PayloadFileStore() = default;
  // At most `resident_chunks` chunks in memory (at least 1).
  explicit PayloadFileStore(size_t resident_chunks);
  ~PayloadFileStore();
  PayloadFileStore(PayloadFileStore&& other) noexcept;
  PayloadFileStore& operator=(PayloadFileStore&& other) noexcept;
  PayloadFileStore(const PayloadFileStore&) = delete;
  PayloadFileStore& operator=(const PayloadFileStore&) = delete;

  uint32_t add(const PayloadFile& f);
  PayloadFile get(uint32_t id) const;
  void set(uint32_t id, const PayloadFile& f);
  size_t size() const { return size_; }
  // Chunks held in memory now, and whether any lives in the file.
  size_t resident_chunks() const { return resident_.size(); }
  bool spilled() const { return fd_ >= 0; }
  // A chunk that could not be read back (the file's disk failed): its files
  // read as empty ones.
  bool lost() const { return lost_; }

 private:
  struct Chunk {
    std::array<PayloadFile, kChunkFiles> files{};
    uint64_t used = 0;  // clock_ when last asked for: the least recent leaves first
    bool dirty = true;  // differs from its copy in the file (or has none)
  };
  Chunk& chunk(size_t c) const;
  void make_room(size_t keep) const;
  bool write(size_t c, const Chunk& k) const;

  // Null: in the file only (at c * sizeof(Chunk::files)).
  mutable std::vector<std::unique_ptr<Chunk>> chunks_;
  mutable std::vector<size_t> resident_;  // the chunks in memory
  mutable uint64_t clock_ = 0;
  size_t limit_ = SIZE_MAX;
  mutable int fd_ = -1;
  mutable bool no_file_ = false, lost_ = false;
  size_t size_ = 0;
};

}  // namespace tlscope::model
