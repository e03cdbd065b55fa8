#include "io/byte_source.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace tlscope::io {
namespace {

class FdSource : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}
  ~FdSource() override { ::close(fd_); }
  long read(char* buf, size_t n) override {
    for (;;) {
      ssize_t r = ::read(fd_, buf, n);
      if (r >= 0) {
        offset_ += static_cast<uint64_t>(r);
        return static_cast<long>(r);
      }
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return -1;
    }
  }
  uint64_t file_offset() const override { return offset_; }
  int fd() const { return fd_; }

 private:
  int fd_;
  uint64_t offset_ = 0;
};

// Reads compressed input through a file buffer of its own.
class CompressedSource : public ByteSource {
 public:
  explicit CompressedSource(int fd) : file_(fd), in_(1 << 20) {}
  uint64_t file_offset() const override { return file_.file_offset(); }
  bool compressed() const override { return true; }

 protected:
  // Refills the input buffer when it is drained; false at end of file or error.
  bool refill() {
    if (in_pos_ < in_len_) return true;
    long r = file_.read(in_.data(), in_.size());
    if (r < 0) {
      error_ = file_.error();
      return false;
    }
    in_pos_ = 0;
    in_len_ = static_cast<size_t>(r);
    return r > 0;
  }
  FdSource file_;
  std::vector<char> in_;
  size_t in_pos_ = 0, in_len_ = 0;
};

class GzipSource : public CompressedSource {
 public:
  explicit GzipSource(int fd) : CompressedSource(fd) {
    std::memset(&zs_, 0, sizeof zs_);
    ok_ = inflateInit2(&zs_, 15 + 32) == Z_OK;  // 32: accept gzip and zlib headers
  }
  ~GzipSource() override { inflateEnd(&zs_); }
  bool gzip() const override { return true; }
  long read(char* buf, size_t n) override {
    if (!ok_) {
      error_ = "cannot initialise zlib";
      return -1;
    }
    if (done_) return 0;
    zs_.next_out = reinterpret_cast<Bytef*>(buf);
    zs_.avail_out = static_cast<uInt>(n);
    while (zs_.avail_out == n) {
      if (!refill()) {
        if (!error_.empty()) return -1;
        if (zs_.avail_out == n) {
          error_ = "truncated gzip stream";
          return -1;
        }
        break;
      }
      zs_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      zs_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
      int rc = inflate(&zs_, Z_NO_FLUSH);
      in_pos_ = in_len_ - zs_.avail_in;
      if (rc == Z_STREAM_END) {
        // Concatenated gzip members are legal; continue with the next one.
        if (in_pos_ < in_len_ || refill()) {
          inflateReset(&zs_);
          continue;
        }
        done_ = true;
        break;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        error_ = std::string("gzip: ") + (zs_.msg ? zs_.msg : "corrupt data");
        return -1;
      }
    }
    return static_cast<long>(n - zs_.avail_out);
  }

 private:
  z_stream zs_;
  bool ok_ = false;
  bool done_ = false;
};

class ZstdSource : public CompressedSource {
 public:
  explicit ZstdSource(int fd) : CompressedSource(fd), ds_(ZSTD_createDStream()) {
    ZSTD_initDStream(ds_);
  }
  ~ZstdSource() override { ZSTD_freeDStream(ds_); }
  long read(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos == 0) {
      if (!refill()) {
        if (!error_.empty()) return -1;
        if (!frame_done_) {
          error_ = "truncated zstd stream";
          return -1;
        }
        return 0;
      }
      ZSTD_inBuffer in{in_.data(), in_len_, in_pos_};
      size_t rc = ZSTD_decompressStream(ds_, &out, &in);
      in_pos_ = in.pos;
      if (ZSTD_isError(rc)) {
        error_ = std::string("zstd: ") + ZSTD_getErrorName(rc);
        return -1;
      }
      frame_done_ = rc == 0;
    }
    return static_cast<long>(out.pos);
  }

 private:
  ZSTD_DStream* ds_;
  bool frame_done_ = true;
};

enum class Encoding { kPlain, kGzip, kZstd };

// What the first bytes of the open file `fd` say it is.
Encoding encoding_of(int fd) {
  unsigned char magic[4] = {0, 0, 0, 0};
  ssize_t got = ::pread(fd, magic, sizeof magic, 0);
  if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) return Encoding::kGzip;
  if (got == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd)
    return Encoding::kZstd;
  return Encoding::kPlain;
}

}  // namespace

bool compressed_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool compressed = encoding_of(fd) != Encoding::kPlain;
  ::close(fd);
  return compressed;
}

std::unique_ptr<ByteSource> open_source(const std::string& path, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return nullptr;
  }
  switch (encoding_of(fd)) {
    case Encoding::kGzip:
      return std::make_unique<GzipSource>(fd);
    case Encoding::kZstd:
      return std::make_unique<ZstdSource>(fd);
    case Encoding::kPlain:
      break;
  }
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  return std::make_unique<FdSource>(fd);
}

}  // namespace tlscope::io
