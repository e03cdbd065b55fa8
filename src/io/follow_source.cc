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
    if (n == 0) return 0;
    auto last_byte = std::chrono::steady_clock::now();
    for (;;) {
      ssize_t r = ::read(fd_, buf, n);
      if (r > 0) {
        pos_ += static_cast<uint64_t>(r);
        return delivered(buf, r);
      }
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) {
        error_ = std::strerror(errno);
        return -1;
      }
      // At the end for now: wait, unless told to stop or idle too long.
      if (stopped()) return 0;
      if (start_again()) {
        last_byte = std::chrono::steady_clock::now();
        // A line the old bytes left open ends here, not in the new ones.
        if (last_ != '\n' && delivered_ > 0) {
          buf[0] = '\n';
          return delivered(buf, 1);
        }
        continue;
      }
      std::chrono::duration<double> idle = std::chrono::steady_clock::now() - last_byte;
      if (opts_.idle_s > 0 && idle.count() >= opts_.idle_s) return 0;
      if (opts_.on_wait) opts_.on_wait();
      std::this_thread::sleep_for(std::chrono::duration<double>(opts_.poll_s));
    }
  }
  uint64_t file_offset() const override { return delivered_; }

 private:
  bool stopped() const { return opts_.stop && opts_.stop->load(); }

  long delivered(const char* buf, ssize_t r) {
    delivered_ += static_cast<uint64_t>(r);
    last_ = buf[r - 1];
    return static_cast<long>(r);
  }

  // The file cut shorter than what was read of it (written again from its
  // start), or another file under its name (a new run): said once, and
  // read from its start; what was read before stays.
  bool start_again() {
    struct stat now {}, named {};
    if (::fstat(fd_, &now) != 0) return false;
    bool shorter = static_cast<uint64_t>(now.st_size) < pos_;
    bool other = ::stat(path_.c_str(), &named) == 0 &&
                 (named.st_ino != now.st_ino || named.st_dev != now.st_dev);
    if (!shorter && !other) return false;
    if (other) {
      int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return false;  // gone again: wait on the old one
      ::close(fd_);
      fd_ = fd;
    } else if (::lseek(fd_, 0, SEEK_SET) != 0) {
      return false;
    }
    pos_ = 0;
    std::fprintf(stderr, "Warning: %s was %s while followed; reading it again from its start\n",
                 path_.c_str(), other ? "replaced by another file" : "truncated");
    return true;
  }

  int fd_;
  std::string path_;
  FollowOptions opts_;
  uint64_t pos_ = 0;        // read of the file now open
  uint64_t delivered_ = 0;  // bytes returned by read(), over every file
  char last_ = '\n';
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
