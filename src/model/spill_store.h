// A list of plain values (trivially copyable: written to a file as their
// bytes) that keeps at most a given number of chunks of them in memory, the
// others in an unlinked temporary file (in $TMPDIR, or /tmp), read back a
// chunk at a time when asked for: what the list takes in memory no longer
// grows with it. A log's payload files (PayloadFileStore: a diff of two 1 GB
// logs makes 190,000 of them) and a diff's changed artifacts (64,000 for an
// unrelated pair of 1 GB logs) grow with the logs. Without a temporary file
// to be had, or once one fails to be written, all are kept in memory.
//
// Not safe to share between threads, reads included (a read may load a
// chunk): each is used by one thread at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tlscope::model {

namespace spill {
// An unlinked file of our own in $TMPDIR (or /tmp); -1 when none can be made.
int temporary_file();
bool read_at(int fd, uint64_t at, void* bytes, size_t n);
bool write_at(int fd, uint64_t at, const void* bytes, size_t n);
void close_file(int fd);
// Chunks that could not be read back from any store's file in this process
// (its disk failed, or the file was cut short): each is counted when it
// happens, and the command says so and fails (cli's main()), whatever it
// was writing.
void note_lost_chunk();
uint64_t lost_chunks();
// What to tell the user of them; "" when there are none.
std::string lost_chunks_message();
}  // namespace spill

// An iterator over a list whose operator[] gives copies (values read back
// from a file, or put together from several lists): each step one copy.
template <typename List, typename T>
class CopyIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = T;
  CopyIterator(const List* list, size_t i) : list_(list), i_(i) {}
  T operator*() const { return (*list_)[i_]; }
  CopyIterator& operator++() {
    ++i_;
    return *this;
  }
  bool operator==(const CopyIterator& o) const { return i_ == o.i_; }

 private:
  const List* list_;
  size_t i_;
};

template <typename T, size_t kChunk>
class SpillStore {
  static_assert(std::is_trivially_copyable_v<T>, "values are written to the file as their bytes");

 public:
  static constexpr size_t kChunkItems = kChunk;
  // All in memory.
  SpillStore() = default;
  // At most `resident_chunks` chunks in memory (at least 1).
  explicit SpillStore(size_t resident_chunks) : limit_(resident_chunks ? resident_chunks : 1) {}
  ~SpillStore() { spill::close_file(fd_); }
  SpillStore(SpillStore&& other) noexcept { *this = std::move(other); }
  SpillStore& operator=(SpillStore&& other) noexcept {
    if (this == &other) return *this;
    spill::close_file(fd_);
    chunks_ = std::exchange(other.chunks_, {});
    resident_ = std::exchange(other.resident_, {});
    clock_ = other.clock_;
    limit_ = other.limit_;
    fd_ = std::exchange(other.fd_, -1);
    no_file_ = other.no_file_;
    lost_ = other.lost_;
    size_ = std::exchange(other.size_, 0);
    return *this;
  }
  SpillStore(const SpillStore&) = delete;
  SpillStore& operator=(const SpillStore&) = delete;

  // Its number.
  uint32_t add(const T& v) {
    size_t c = size_ / kChunk;
    if (c == chunks_.size()) {
      auto k = make_room(SIZE_MAX);
      if (k) {
        k->items.fill(T{});  // (so that its file's bytes are a new chunk's; add marks it dirty)
      } else {
        k = std::make_unique<Chunk>();
      }
      chunks_.push_back(std::move(k));
      resident_.push_back(c);
    }
    Chunk& k = chunk(c);
    k.items[size_ % kChunk] = v;
    k.dirty = true;
    return static_cast<uint32_t>(size_++);
  }
  void push_back(const T& v) { add(v); }
  // A copy (a value-initialized one past the end).
  T get(size_t i) const { return i < size_ ? chunk(i / kChunk).items[i % kChunk] : T{}; }
  T operator[](size_t i) const { return get(i); }
  void set(size_t i, const T& v) {
    if (i >= size_) return;
    Chunk& k = chunk(i / kChunk);
    k.items[i % kChunk] = v;
    k.dirty = true;
  }
  // The value itself (i < size()), for one too large to copy each time it
  // is read: good until the next call on the list. And to change in place.
  const T& ref(size_t i) const { return chunk(i / kChunk).items[i % kChunk]; }
  T& edit(size_t i) {
    Chunk& k = chunk(i / kChunk);
    k.dirty = true;
    return k.items[i % kChunk];
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Chunks held in memory now, and whether any lives in the file.
  size_t resident_chunks() const { return resident_.size(); }
  bool spilled() const { return fd_ >= 0; }
  // A chunk that could not be read back (the file's disk failed): its
  // values read as value-initialized ones.
  bool lost() const { return lost_; }

  // In order, each a copy.
  using const_iterator = CopyIterator<SpillStore, T>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  struct Chunk {
    std::array<T, kChunk> items{};
    uint64_t used = 0;  // clock_ when last asked for: the least recent leaves first
    bool dirty = true;  // differs from its copy in the file (or has none)
  };
  static constexpr size_t kChunkBytes = sizeof(std::array<T, kChunk>);

  Chunk& chunk(size_t c) const {
    if (!chunks_[c]) {
      auto k = make_room(c);
      if (!k) k = std::make_unique<Chunk>();
      if (!spill::read_at(fd_, c * kChunkBytes, k->items.data(), kChunkBytes)) {
        lost_ = true;
        spill::note_lost_chunk();
        k->items.fill(T{});
      }
      k->dirty = false;
      chunks_[c] = std::move(k);
      resident_.push_back(c);
    }
    chunks_[c]->used = ++clock_;
    return *chunks_[c];
  }

  // Below the limit, writing out the least recently asked-for chunk other
  // than `keep` while not. The last chunk written out, for the caller's
  // next one (a chunk read back took an allocation of 32-96 KB), or null.
  std::unique_ptr<Chunk> make_room(size_t keep) const {
    std::unique_ptr<Chunk> freed;
    while (resident_.size() >= limit_ && !no_file_) {
      size_t at = SIZE_MAX;  // in resident_
      for (size_t i = 0; i < resident_.size(); ++i)
        if (resident_[i] != keep &&
            (at == SIZE_MAX || chunks_[resident_[i]]->used < chunks_[resident_[at]]->used))
          at = i;
      if (at == SIZE_MAX) return freed;
      size_t victim = resident_[at];
      const Chunk& k = *chunks_[victim];
      if (k.dirty && !write(victim, k)) {
        no_file_ = true;  // kept in memory from here on
        return freed;
      }
      freed = std::move(chunks_[victim]);
      resident_[at] = resident_.back();
      resident_.pop_back();
    }
    return freed;
  }

  bool write(size_t c, const Chunk& k) const {
    if (fd_ < 0 && (fd_ = spill::temporary_file()) < 0) return false;
    return spill::write_at(fd_, c * kChunkBytes, k.items.data(), kChunkBytes);
  }

  // Null: in the file only (at c * kChunkBytes).
  mutable std::vector<std::unique_ptr<Chunk>> chunks_;
  mutable std::vector<size_t> resident_;  // the chunks in memory
  mutable uint64_t clock_ = 0;
  size_t limit_ = SIZE_MAX;
  mutable int fd_ = -1;
  mutable bool no_file_ = false, lost_ = false;
  size_t size_ = 0;
};

}  // namespace tlscope::model
