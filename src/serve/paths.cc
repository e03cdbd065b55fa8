// What the server module (http_module.cc) answers a request with: which file
// it names, and that file's Content-Type (serve.h).
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "serve/serve.h"

namespace tlscope::serve {
namespace fs = std::filesystem;

namespace {

// Whether `p` is `root` or below it, by whole path components.
bool inside(const fs::path& root, const fs::path& p) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q)
    if (q == p.end() || *r != *q) return false;
  return true;
}

bool is_regular(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::string resolve_request(const std::string& folder, const std::string& path) {
  std::error_code ec;
  fs::path root = fs::canonical(folder, ec);
  if (ec) return "";
  std::string rel = path;
  rel.erase(0, rel.find_first_not_of('/'));
  if (rel.find('\0') != std::string::npos) return "";
  fs::path want = fs::canonical(root / rel, ec);  // follows links and `..`
  if (ec || !inside(root, want)) return "";
  if (fs::is_directory(want, ec)) {
    want = fs::canonical(want / "index.html", ec);
    if (ec || !inside(root, want)) return "";
  }
  return is_regular(want) ? want.string() : "";
}

std::string content_type(const std::string& file) {
  std::string ext = fs::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "application/javascript; charset=utf-8"},
      {".json", "application/json; charset=utf-8"},
      {".jsonl", "application/jsonl; charset=utf-8"},
      {".txt", "text/plain; charset=utf-8"},
      {".log", "text/plain; charset=utf-8"},
      {".py", "text/x-python; charset=utf-8"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".svg", "image/svg+xml"},
      {".gz", "application/gzip"}};
  for (auto [e, type] : kTypes)
    if (ext == e) return type;
  return "application/octet-stream";
}

}  // namespace tlscope::serve
