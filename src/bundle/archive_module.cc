// The tar writer of `tlscope bundle` (archive.h) on libarchive: built as the
// module tlscope-archive.so (base/module.h), so that only `bundle` loads
// libarchive and what it links.
#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

#include "bundle/archive_module.h"

namespace tlscope::bundle {
namespace {

struct Tar {
  struct archive* a = nullptr;
  ~Tar() {
    if (a) archive_write_free(a);
  }
  bool fail(std::string* error) {
    *error = archive_error_string(a) ? archive_error_string(a) : "archive error";
    return false;
  }
  bool header(const std::string& name, uint64_t size, std::string* error) {
    std::unique_ptr<archive_entry, void (*)(archive_entry*)> e(archive_entry_new(),
                                                               archive_entry_free);
    archive_entry_set_pathname(e.get(), name.c_str());
    archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_mtime(e.get(), std::time(nullptr), 0);
    if (archive_write_header(a, e.get()) != ARCHIVE_OK) return fail(error);
    return true;
  }
};

void* open(const std::string& path, Compression c, std::string* error) {
  auto t = std::make_unique<Tar>();
  t->a = archive_write_new();
  int filter = c == Compression::kGzip ? archive_write_add_filter_gzip(t->a)
               : c == Compression::kXz ? archive_write_add_filter_xz(t->a)
                                       : archive_write_add_filter_zstd(t->a);
  if (filter != ARCHIVE_OK || archive_write_set_format_ustar(t->a) != ARCHIVE_OK ||
      archive_write_open_filename(t->a, path.c_str()) != ARCHIVE_OK) {
    t->fail(error);
    return nullptr;
  }
  return t.release();
}

bool add(void* tar, const std::string& name, std::string_view data, std::string* error) {
  Tar* t = static_cast<Tar*>(tar);
  if (!t->header(name, data.size(), error)) return false;
  if (!data.empty() && archive_write_data(t->a, data.data(), data.size()) < 0)
    return t->fail(error);
  return true;
}

bool add_file(void* tar, const std::string& name, const std::string& path, std::string* error) {
  Tar* t = static_cast<Tar*>(tar);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) {
    *error = "cannot read " + path;
    return false;
  }
  std::fseek(f.get(), 0, SEEK_END);
  long size = std::ftell(f.get());
  std::fseek(f.get(), 0, SEEK_SET);
  if (size < 0 || !t->header(name, static_cast<uint64_t>(size), error)) return false;
  std::vector<char> buf(1 << 20);
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0)
    if (archive_write_data(t->a, buf.data(), n) < 0) return t->fail(error);
  return true;
}

bool close(void* tar, std::string* error) {
  std::unique_ptr<Tar> t(static_cast<Tar*>(tar));
  bool ok = archive_write_close(t->a) == ARCHIVE_OK;
  if (!ok) t->fail(error);
  return ok;
}

void discard(void* tar) { delete static_cast<Tar*>(tar); }

constexpr TarModule kModule = {
    base::module_header<TarModule>(), open, add, add_file, close, discard};

}  // namespace
}  // namespace tlscope::bundle

extern "C" __attribute__((visibility("default"))) const void* tlscope_archive_module() {
  return &tlscope::bundle::kModule;
}
