#include "model/spill_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "io/read_file.h"
#include "model/payload_store.h"

namespace tlscope::model {

static_assert(std::is_trivially_copyable_v<PayloadFile>, "a PayloadFile is written as its bytes");

namespace spill {

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

bool read_at(int fd, uint64_t at, void* bytes, size_t n) {
  return io::read_at(fd, at, static_cast<char*>(bytes), n);
}

bool write_at(int fd, uint64_t at, const void* bytes, size_t n) {
  return io::write_at(fd, at, static_cast<const char*>(bytes), n);
}

void close_file(int fd) {
  if (fd >= 0) ::close(fd);
}

namespace {
std::atomic<uint64_t> lost{0};
}

void note_lost_chunk() { lost.fetch_add(1, std::memory_order_relaxed); }
uint64_t lost_chunks() { return lost.load(std::memory_order_relaxed); }

std::string lost_chunks_message() {
  uint64_t n = lost_chunks();
  if (!n) return {};
  const char* env = std::getenv("TMPDIR");
  return (n == 1 ? std::string("a chunk") : std::to_string(n) + " chunks") +
         " of tlscope's temporary files (in " + (env && *env ? env : "/tmp") +
         ") could not be read back: what this command wrote or printed is incomplete. Check "
         "that folder's disk, or set TMPDIR to another folder, and run it again.";
}

}  // namespace spill
}  // namespace tlscope::model
