// A .tar.zst file written and read with libarchive (ustar entries, zstd).
#pragma once

#include <functional>
#include <string>
#include <string_view>

struct archive;

namespace tlscope::bundle {

class TarZstWriter {
 public:
  TarZstWriter() = default;
  TarZstWriter(const TarZstWriter&) = delete;
  TarZstWriter& operator=(const TarZstWriter&) = delete;
  ~TarZstWriter();

  bool open(const std::string& path, std::string* error);
  // One regular file of the archive holding `data`.
  bool add(const std::string& name, std::string_view data, std::string* error);
  // One regular file holding the contents of the file at `path`, streamed.
  bool add_file(const std::string& name, const std::string& path, std::string* error);
  bool close(std::string* error);

 private:
  bool header(const std::string& name, uint64_t size, std::string* error);
  bool fail(std::string* error);
  struct archive* a_ = nullptr;
};

// Calls `entry` with the name and contents of each regular file of a
// .tar.zst (or any archive libarchive reads); false with *error if it
// cannot be read.
bool read_archive(
    const std::string& path,
    const std::function<void(const std::string& name, const std::string& data)>& entry,
    std::string* error);

}  // namespace tlscope::bundle
