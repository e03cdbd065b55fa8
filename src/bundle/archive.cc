#include "bundle/archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

namespace tlscope::bundle {

TarWriter::~TarWriter() {
  if (a_) archive_write_free(a_);
}

bool TarWriter::fail(std::string* error) {
  *error = archive_error_string(a_) ? archive_error_string(a_) : "archive error";
  return false;
}

std::optional<Compression> compression_of(const std::string& path) {
  auto ends = [&](std::string_view e) {
    return path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".tar.zst") || ends(".tzst")) return Compression::kZstd;
  if (ends(".tar.gz") || ends(".tgz")) return Compression::kGzip;
  if (ends(".tar.xz") || ends(".txz")) return Compression::kXz;
  return std::nullopt;
}

bool TarWriter::open(const std::string& path, Compression c, std::string* error) {
  a_ = archive_write_new();
  int filter = c == Compression::kGzip ? archive_write_add_filter_gzip(a_)
               : c == Compression::kXz ? archive_write_add_filter_xz(a_)
                                       : archive_write_add_filter_zstd(a_);
  if (filter != ARCHIVE_OK ||
      archive_write_set_format_ustar(a_) != ARCHIVE_OK ||
      archive_write_open_filename(a_, path.c_str()) != ARCHIVE_OK)
    return fail(error);
  return true;
}

bool TarWriter::header(const std::string& name, uint64_t size, std::string* error) {
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> e(archive_entry_new(),
                                                             archive_entry_free);
  archive_entry_set_pathname(e.get(), name.c_str());
  archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
  archive_entry_set_filetype(e.get(), AE_IFREG);
  archive_entry_set_perm(e.get(), 0644);
  archive_entry_set_mtime(e.get(), std::time(nullptr), 0);
  if (archive_write_header(a_, e.get()) != ARCHIVE_OK) return fail(error);
  return true;
}

bool TarWriter::add(const std::string& name, std::string_view data, std::string* error) {
  if (!header(name, data.size(), error)) return false;
  if (!data.empty() && archive_write_data(a_, data.data(), data.size()) < 0) return fail(error);
  return true;
}

bool TarWriter::add_file(const std::string& name, const std::string& path, std::string* error) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) {
    *error = "cannot read " + path;
    return false;
  }
  std::fseek(f.get(), 0, SEEK_END);
  long size = std::ftell(f.get());
  std::fseek(f.get(), 0, SEEK_SET);
  if (size < 0 || !header(name, static_cast<uint64_t>(size), error)) return false;
  std::vector<char> buf(1 << 20);
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0)
    if (archive_write_data(a_, buf.data(), n) < 0) return fail(error);
  return true;
}

bool TarWriter::close(std::string* error) {
  if (!a_) return true;
  bool ok = archive_write_close(a_) == ARCHIVE_OK;
  if (!ok) fail(error);
  archive_write_free(a_);
  a_ = nullptr;
  return ok;
}

bool read_archive(const std::string& path,
                  const std::function<void(const std::string&, const std::string&)>& entry,
                  std::string* error) {
  std::unique_ptr<archive, int (*)(archive*)> a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    *error = archive_error_string(a.get()) ? archive_error_string(a.get()) : "cannot open";
    return false;
  }
  archive_entry* e;
  int r;
  std::string data;
  std::vector<char> buf(1 << 16);
  while ((r = archive_read_next_header(a.get(), &e)) == ARCHIVE_OK) {
    data.clear();
    la_ssize_t n;
    while ((n = archive_read_data(a.get(), buf.data(), buf.size())) > 0)
      data.append(buf.data(), static_cast<size_t>(n));
    if (n < 0) break;
    if (archive_entry_filetype(e) == AE_IFREG) entry(archive_entry_pathname(e), data);
  }
  if (r != ARCHIVE_EOF) {
    *error = archive_error_string(a.get()) ? archive_error_string(a.get()) : "read error";
    return false;
  }
  return true;
}

}  // namespace tlscope::bundle
