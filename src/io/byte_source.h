// Byte sources for trace logs: a plain file, or a gzip/zstd stream decoded on
// the fly. The format is told by the file's magic bytes, not its name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tlscope::io {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `n` bytes; returns the count, 0 at end of input, -1 on error
  // (then error() says why).
  virtual long read(char* buf, size_t n) = 0;
  // Bytes consumed from the underlying file so far (for progress).
  virtual uint64_t file_offset() const = 0;
  const std::string& error() const { return error_; }
  // True when the source decodes a compressed file; gzip() when it is gzip.
  virtual bool compressed() const { return false; }
  virtual bool gzip() const { return false; }

 protected:
  std::string error_;
};

// Opens `path`; returns nullptr and fills `error` when it cannot.
std::unique_ptr<ByteSource> open_source(const std::string& path, std::string* error);
// Whether open_source() would decode `path` (gzip or zstd); false when it
// cannot be opened.
bool compressed_file(const std::string& path);

}  // namespace tlscope::io
