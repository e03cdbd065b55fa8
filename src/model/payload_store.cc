#include "model/payload_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>

#include "io/read_file.h"

namespace tlscope::model {

static_assert(std::is_trivially_copyable_v<PayloadFile>, "a PayloadFile is written as its bytes");

namespace {

constexpr size_t kChunkBytes = sizeof(std::array<PayloadFile, PayloadFileStore::kChunkFiles>);

// An unlinked file of our own in $TMPDIR (or /tmp); -1 when none can be made.
int temporary_file() {
  const char* env = std::getenv("TMPDIR");
  std::string dir = env && *env ? env : "/tmp";
#ifdef O_TMPFILE
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
#endif
  std::string name = dir + "/tlscope-XXXXXX";
  int fd2 = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd2 >= 0) ::unlink(name.c_str());
  return fd2;
}

}  // namespace

PayloadFileStore::PayloadFileStore(size_t resident_chunks)
    : limit_(resident_chunks ? resident_chunks : 1) {}

PayloadFileStore::~PayloadFileStore() {
  if (fd_ >= 0) ::close(fd_);
}

PayloadFileStore::PayloadFileStore(PayloadFileStore&& other) noexcept { *this = std::move(other); }

PayloadFileStore& PayloadFileStore::operator=(PayloadFileStore&& other) noexcept {
  if (this == &other) return *this;
  if (fd_ >= 0) ::close(fd_);
  chunks_ = std::move(other.chunks_);
  resident_ = std::move(other.resident_);
  other.resident_.clear();
  clock_ = other.clock_;
  limit_ = other.limit_;
  fd_ = std::exchange(other.fd_, -1);
  no_file_ = other.no_file_;
  lost_ = other.lost_;
  size_ = std::exchange(other.size_, 0);
  other.chunks_.clear();
  return *this;
}

uint32_t PayloadFileStore::add(const PayloadFile& f) {
  size_t c = size_ / kChunkFiles;
  if (c == chunks_.size()) {
    make_room(SIZE_MAX);
    chunks_.push_back(std::make_unique<Chunk>());
    resident_.push_back(c);
  }
  Chunk& k = chunk(c);
  k.files[size_ % kChunkFiles] = f;
  k.dirty = true;
  return static_cast<uint32_t>(size_++);
}

PayloadFile PayloadFileStore::get(uint32_t id) const {
  if (id >= size_) return {};
  return chunk(id / kChunkFiles).files[id % kChunkFiles];
}

void PayloadFileStore::set(uint32_t id, const PayloadFile& f) {
  if (id >= size_) return;
  Chunk& k = chunk(id / kChunkFiles);
  k.files[id % kChunkFiles] = f;
  k.dirty = true;
}

PayloadFileStore::Chunk& PayloadFileStore::chunk(size_t c) const {
  if (!chunks_[c]) {
    make_room(c);
    auto k = std::make_unique<Chunk>();
    auto* bytes = reinterpret_cast<char*>(k->files.data());
    if (!io::read_at(fd_, c * kChunkBytes, bytes, kChunkBytes)) {
      lost_ = true;
      k->files = {};
    }
    k->dirty = false;
    chunks_[c] = std::move(k);
    resident_.push_back(c);
  }
  chunks_[c]->used = ++clock_;
  return *chunks_[c];
}

// Below the limit, writing out the least recently asked-for chunk other
// than `keep` while not.
void PayloadFileStore::make_room(size_t keep) const {
  while (resident_.size() >= limit_ && !no_file_) {
    size_t at = SIZE_MAX;  // in resident_
    for (size_t i = 0; i < resident_.size(); ++i)
      if (resident_[i] != keep &&
          (at == SIZE_MAX || chunks_[resident_[i]]->used < chunks_[resident_[at]]->used))
        at = i;
    if (at == SIZE_MAX) return;
    size_t victim = resident_[at];
    const Chunk& k = *chunks_[victim];
    if (k.dirty && !write(victim, k)) {
      no_file_ = true;  // kept in memory from here on
      return;
    }
    chunks_[victim].reset();
    resident_[at] = resident_.back();
    resident_.pop_back();
  }
}

bool PayloadFileStore::write(size_t c, const Chunk& k) const {
  if (fd_ < 0 && (fd_ = temporary_file()) < 0) return false;
  auto* bytes = reinterpret_cast<const char*>(k.files.data());
  return io::write_at(fd_, c * kChunkBytes, bytes, kChunkBytes);
}

}  // namespace tlscope::model
