// What --serve decides without a server (serve.h): which file a request
// names, a file's Content-Type, whether --host can be listened on. In the
// binary, and in the server module too (http_module.cc).
#include <arpa/inet.h>
#include <netinet/in.h>

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

std::optional<std::string> host_problem(const std::string& host) {
  if (host.empty()) return "--host: the address is empty";
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, host.c_str(), &v6) == 1)
    return std::nullopt;
  // Digits and dots that are no IPv4 address (999.1.1.1), or a colon that
  // is no IPv6 one: a typo, not a name to look up.
  bool dotted = host.find_first_not_of("0123456789.") == std::string::npos;
  if (dotted || host.find(':') != std::string::npos)
    return "--host " + host + ": not an address (e.g. 127.0.0.1, 0.0.0.0 or ::1)";
  for (char c : host)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
      return "--host " + host + ": not an address or a host name";
  return std::nullopt;
}

}  // namespace tlscope::serve
