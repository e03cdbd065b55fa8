#include "io/follow_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace tlscope::io {
namespace {

class FollowSource : public ByteSource {
 public:
  FollowSource(int fd, std::string path, FollowOptions opts)
      : fd_(fd), path_(std::move(path)), opts_(std::move(opts)) {}
  ~FollowSource() override { ::close(fd_); }

  long read(char* buf, size_t n) override {
    auto last_byte = std::chrono::steady_clock::now();
    for (;;) {
      ssize_t r = ::read(fd_, buf, n);
      if (r > 0) {
        offset_ += static_cast<uint64_t>(r);
        return static_cast<long>(r);
      }
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) {
        error_ = std::strerror(errno);
        return -1;
      }
      // At the end for now: wait, unless told to stop or idle too long.
      if (stopped() || replaced()) return 0;
      std::chrono::duration<double> idle = std::chrono::steady_clock::now() - last_byte;
      if (opts_.idle_s > 0 && idle.count() >= opts_.idle_s) return 0;
      if (opts_.on_wait) opts_.on_wait();
      std::this_thread::sleep_for(std::chrono::duration<double>(opts_.poll_s));
    }
  }
  uint64_t file_offset() const override { return offset_; }

 private:
  bool stopped() const { return opts_.stop && opts_.stop->load(); }

  // The file cut shorter than what was read, or another file under its name
  // (a new run): what was read stays; following stops there, said once.
  bool replaced() {
    struct stat now {}, named {};
    if (::fstat(fd_, &now) != 0) return false;
    bool shorter = static_cast<uint64_t>(now.st_size) < offset_;
    bool other = ::stat(path_.c_str(), &named) == 0 &&
                 (named.st_ino != now.st_ino || named.st_dev != now.st_dev);
    if (!shorter && !other) return false;
    std::fprintf(stderr,
                 "Warning: %s was %s while followed; the results cover what was read before\n",
                 path_.c_str(), shorter ? "truncated" : "replaced by another file");
    return true;
  }

  int fd_;
  std::string path_;
  FollowOptions opts_;
  uint64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> follow_file(const std::string& path, FollowOptions opts,
                                        std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return nullptr;
  }
  unsigned char magic[4] = {};
  ssize_t got = ::pread(fd, magic, sizeof magic, 0);
  bool gz = got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  bool zst = got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd;
  if (gz || zst) {
    ::close(fd);
    *error = path + " is compressed: --follow reads a log as it is written, uncompressed";
    return nullptr;
  }
  return std::make_unique<FollowSource>(fd, path, std::move(opts));
}

}  // namespace tlscope::io
