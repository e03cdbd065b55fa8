#include "serve/serve.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

namespace tlscope::serve {
namespace fs = std::filesystem;

namespace {

constexpr size_t kWorkers = 64;

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
      {".html", "text/html; charset=utf-8"},   {".htm", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},     {".js", "application/javascript; charset=utf-8"},
      {".json", "application/json; charset=utf-8"},
      {".jsonl", "application/jsonl; charset=utf-8"},
      {".txt", "text/plain; charset=utf-8"},   {".log", "text/plain; charset=utf-8"},
      {".py", "text/x-python; charset=utf-8"}, {".png", "image/png"},
      {".jpg", "image/jpeg"},                  {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},                   {".svg", "image/svg+xml"},
      {".gz", "application/gzip"}};
  for (auto [e, type] : kTypes)
    if (ext == e) return type;
  return "application/octet-stream";
}

namespace {

void not_found(httplib::Response& res) {
  res.status = 404;
  res.set_content("404 Not Found", "text/plain; charset=utf-8");
}

// Streams the file: a 1 GB raw.log is not read into memory.
void send_file(const std::string& file, httplib::Response& res) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st{};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    if (fd >= 0) ::close(fd);
    return not_found(res);
  }
  auto shared_fd = std::make_shared<int>(fd);
  res.set_content_provider(
      static_cast<size_t>(st.st_size), content_type(file),
      [shared_fd](size_t offset, size_t length, httplib::DataSink& sink) {
        char buf[64 << 10];
        ssize_t n = ::pread(*shared_fd, buf, std::min(length, sizeof buf), static_cast<off_t>(offset));
        if (n <= 0) return false;
        return sink.write(buf, static_cast<size_t>(n));
      },
      [shared_fd](bool) { ::close(*shared_fd); });
}

}  // namespace

namespace {

// SIGINT and SIGTERM, whichever thread they reach, wake the thread that stops
// the server through this pipe (write() is safe in a signal handler).
int stop_pipe[2] = {-1, -1};
void on_stop_signal(int) {
  char c = 1;
  [[maybe_unused]] ssize_t n = ::write(stop_pipe[1], &c, 1);
}

}  // namespace

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

namespace {

// Ctrl+C and SIGTERM write to the stop pipe (the stopper thread waits on it).
bool catch_stop_signals() {
  if (::pipe2(stop_pipe, O_CLOEXEC) != 0) {
    std::perror("Error: pipe");
    return false;
  }
  struct sigaction sa{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  // (Also takes back SIGINT from a shell that started us as a background job
  // with it ignored.)
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  return true;
}

void configure(httplib::Server& server, const std::string& folder) {
  server.Get(".*", [folder](const httplib::Request& req, httplib::Response& res) {
    // req.path is percent-decoded, the query string already split off.
    std::string file = resolve_request(folder, req.path);
    if (file.empty()) return not_found(res);
    send_file(file, res);
  });
  server.set_payload_max_length(1 << 20);
  // A port in use is in use: SO_REUSEADDR (a restart may bind over the last
  // run's TIME_WAIT) but not cpp-httplib's SO_REUSEPORT, with which a second
  // server would share the port and answer every other request.
  server.set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // Stalled or idle connections must not starve the others: a worker waits
  // at most a second for the next bytes of a request or the next request of
  // a kept-alive connection, and there are enough workers for a browser's
  // connections beside a few dozen stalled ones.
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
  server.set_read_timeout(1, 0);
  server.set_keep_alive_timeout(1);
  server.set_keep_alive_max_count(100);
}

// The port asked for, or the first free one of 8000-8099; -1 (said) when none.
int bind_port(httplib::Server& server, const ServeOptions& opts) {
  if (opts.port) {
    if (server.bind_to_port(opts.host, *opts.port)) return *opts.port;
    std::fprintf(stderr, "Error: Failed to start server on %s:%u: the port is in use or not allowed\n",
                 opts.host.c_str(), unsigned(*opts.port));
    return -1;
  }
  for (int p = 8000; p <= 8099; ++p)
    if (server.bind_to_port(opts.host, p)) return p;
  std::fprintf(stderr, "Error: No available ports in range 8000-8099 on %s\n", opts.host.c_str());
  return -1;
}

// "Serving FOLDER at http://HOST:PORT/" on standard output.
void say_serving(const ServeOptions& opts, int port) {
  std::string shown_host = opts.host == "127.0.0.1" || opts.host == "0.0.0.0" ? "localhost" : opts.host;
  std::printf("Serving %s at http://%s:%d/\n", opts.folder.c_str(), shown_host.c_str(), port);
}

}  // namespace

int serve_folder(const ServeOptions& opts) {
  if (!catch_stop_signals()) return 1;
  httplib::Server server;
  configure(server, opts.folder);
  int port = bind_port(server, opts);
  if (port < 0) return 1;
  say_serving(opts, port);
  std::printf("Press Ctrl+C to stop\n");
  std::fflush(stdout);
  std::thread stopper([&] {
    char c = 0;
    while (::read(stop_pipe[0], &c, 1) < 0 && errno == EINTR) {
    }
    server.stop();
  });
  bool listened = server.listen_after_bind();
  on_stop_signal(0);  // the server ended by itself: let the stopper go
  stopper.join();
  return listened ? 0 : 1;
}

struct BackgroundServer::Impl {
  httplib::Server server;
  std::atomic<bool> done{false};  // the listening thread has ended
  std::thread thread;
};

BackgroundServer::BackgroundServer() = default;
BackgroundServer::~BackgroundServer() { stop(); }

bool BackgroundServer::start(const ServeOptions& opts) {
  impl_ = std::make_unique<Impl>();
  configure(impl_->server, opts.folder);
  int port = bind_port(impl_->server, opts);
  if (port < 0) {
    impl_.reset();
    return false;
  }
  say_serving(opts, port);
  std::fflush(stdout);
  impl_->thread = std::thread([impl = impl_.get()] {
    impl->server.listen_after_bind();
    impl->done = true;
  });
  return true;
}

void BackgroundServer::stop() {
  if (!impl_) return;
  // stop() before the listening thread is under way would be lost: asked
  // again until that thread has ended.
  while (!impl_->done.load()) {
    impl_->server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_.reset();
}

}  // namespace tlscope::serve
