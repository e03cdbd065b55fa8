#include "io/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tlscope::io {

bool read_file(const std::string& path, std::string* out, std::string* error, uint64_t max_bytes) {
  out->clear();
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = std::strerror(errno);
    return false;
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (out->size() + n > max_bytes) {
      std::fclose(f);
      *error = "more than " + std::to_string(max_bytes) + " bytes";
      return false;
    }
    out->append(buf, n);
  }
  bool ok = !std::ferror(f);
  std::fclose(f);
  if (!ok) *error = "read error";
  return ok;
}

}  // namespace tlscope::io
