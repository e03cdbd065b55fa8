// The tar writer: the writing itself is the module tlscope-archive.so
// (archive_module.cc), loaded here when a bundle is written (base/module.h).
#include "bundle/archive.h"

#include "bundle/archive_module.h"

namespace tlscope::bundle {

std::optional<Compression> compression_of(const std::string& path) {
  auto ends = [&](std::string_view e) {
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".tar.zst") || ends(".tzst")) return Compression::kZstd;
  if (ends(".tar.gz") || ends(".tgz")) return Compression::kGzip;
  if (ends(".tar.xz") || ends(".txz")) return Compression::kXz;
  return std::nullopt;
}

TarWriter::~TarWriter() {
  if (tar_) module_->discard(tar_);
}

bool TarWriter::open(const std::string& path, Compression c, std::string* error) {
  module_ = base::load_module<TarModule>(kArchiveModuleFile, kArchiveModuleSymbol, error);
  if (!module_) return false;
  tar_ = module_->open(path, c, error);
  return tar_ != nullptr;
}

bool TarWriter::add(const std::string& name, std::string_view data, std::string* error) {
  return module_->add(tar_, name, data, error);
}

bool TarWriter::add_file(const std::string& name, const std::string& path, std::string* error) {
  return module_->add_file(tar_, name, path, error);
}

bool TarWriter::close(std::string* error) {
  if (!tar_) return true;
  void* tar = tar_;
  tar_ = nullptr;
  return module_->close(tar, error);
}

}  // namespace tlscope::bundle
