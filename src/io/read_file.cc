#include "io/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace tlscope::io {

bool read_file(const std::string& path, std::string* out, std::string* error, uint64_t max_bytes) {
  out->clear();
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = std::strerror(errno);
    return false;
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (out->size() + n > max_bytes) {
      std::fclose(f);
      *error = "more than " + std::to_string(max_bytes) + " bytes";
      return false;
    }
    out->append(buf, n);
  }
  bool ok = !std::ferror(f);
  std::fclose(f);
  if (!ok) *error = "read error";
  return ok;
}

namespace {

// All of `size` bytes at `at` moved by `io` (pread or pwrite of a part:
// done so far, left, where).
template <typename Io>
bool whole(size_t size, uint64_t at, Io io) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = io(done, size - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

bool read_at(int fd, uint64_t at, char* bytes, size_t size) {
  return whole(size, at, [&](size_t done, size_t left, off_t where) {
    return ::pread(fd, bytes + done, left, where);
  });
}

bool write_at(int fd, uint64_t at, const char* bytes, size_t size) {
  return whole(size, at, [&](size_t done, size_t left, off_t where) {
    return ::pwrite(fd, bytes + done, left, where);
  });
}

}  // namespace tlscope::io
