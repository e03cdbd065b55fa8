// A tar file written and read with libarchive (ustar entries), compressed
// with zstd, gzip or xz as its name says.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

struct archive;

namespace tlscope::bundle {

enum class Compression { kZstd, kGzip, kXz };

// The compression a file name asks for: .tar.zst/.tzst, .tar.gz/.tgz,
// .tar.xz/.txz; nullopt for any other name.
std::optional<Compression> compression_of(const std::string& path);

class TarWriter {
 public:
  TarWriter() = default;
  TarWriter(const TarWriter&) = delete;
  TarWriter& operator=(const TarWriter&) = delete;
  ~TarWriter();

  bool open(const std::string& path, Compression c, std::string* error);
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
