// --serve: the report folder over HTTP until interrupted (K1), with
// cpp-httplib. Better than the reference: loopback unless the user asks for
// another address, nothing outside the folder (real paths compared after
// following links and `..`), UTF-8 percent-decoding, query strings ignored,
// files streamed, requests served in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tlscope::serve {

struct ServeOptions {
  std::string folder;              // the report folder
  std::string host = "127.0.0.1";  // --host
  std::optional<uint16_t> port;    // --port; none: the first free one from 8000 to 8099
};

// Serves until SIGINT or SIGTERM: 0 then; 1 with a message when no port can
// be had. Prints "Serving <folder> at http://<host>:<port>/" first.
int serve_folder(const ServeOptions& opts);

// Serves a folder on threads of its own while the caller goes on (a report
// followed while it is written, then served until Ctrl+C). The caller
// handles the signals.
class BackgroundServer {
 public:
  BackgroundServer();
  ~BackgroundServer();  // stops
  // Binds and starts serving, printing "Serving <folder> at <url>" on
  // standard output; false, with a message, when no port can be had.
  bool start(const ServeOptions& opts);
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Why `host` cannot be listened on, said before the report is made
// (999.1.1.1 is no address); nullopt when it can be tried.
std::optional<std::string> host_problem(const std::string& host);

// Why no server can be had (its module, tlscope-http.so, is missing or does
// not load: base/module.h); nullopt when it is there.
std::optional<std::string> server_problem();

// In the module (paths.cc), as is content_type():
// the file a request path names inside `folder`, or "" when there is none
// (missing, a folder without index.html, or outside `folder` in any way).
// `path` is the decoded request path ("/rank_0/index.html").
std::string resolve_request(const std::string& folder, const std::string& path);

// The Content-Type of a file by its extension.
std::string content_type(const std::string& file);

}  // namespace tlscope::serve
