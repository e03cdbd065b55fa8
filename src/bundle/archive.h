// A tar file written with libarchive (ustar entries), compressed with zstd,
// gzip or xz as its name says. libarchive is linked by the module
// tlscope-archive.so (archive_module.cc), not by the binary: opening the
// first archive loads it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tlscope::bundle {

enum class Compression { kZstd, kGzip, kXz };

// The compression a file name asks for: .tar.zst/.tzst, .tar.gz/.tgz,
// .tar.xz/.txz; nullopt for any other name.
std::optional<Compression> compression_of(const std::string& path);

struct TarModule;  // archive_module.h

class TarWriter {
 public:
  TarWriter() = default;
  TarWriter(const TarWriter&) = delete;
  TarWriter& operator=(const TarWriter&) = delete;
  ~TarWriter();

  // False with *error when the file cannot be written, or the module
  // cannot be loaded; add, add_file and close only after a true open.
  bool open(const std::string& path, Compression c, std::string* error);
  // One regular file of the archive holding `data`.
  bool add(const std::string& name, std::string_view data, std::string* error);
  // One regular file holding the contents of the file at `path`, streamed.
  bool add_file(const std::string& name, const std::string& path, std::string* error);
  bool close(std::string* error);

 private:
  const TarModule* module_ = nullptr;
  void* tar_ = nullptr;  // the module's archive, until closed
};

}  // namespace tlscope::bundle
