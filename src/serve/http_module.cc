// The server of --serve (serve.h), on cpp-httplib: built as the module
// tlscope-http.so (base/module.h), so that only --serve loads cpp-httplib
// and what it links (OpenSSL, brotli).
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "serve/http_module.h"
#include "serve/serve.h"

namespace tlscope::serve {
namespace {

constexpr size_t kWorkers = 64;

void not_found(httplib::Response& res) {
  res.status = 404;
  res.set_content("404 Not Found", "text/plain; charset=utf-8");
}

// Streams the file: a 1 GB raw.log is not read into memory.
void send_file(const std::string& file, httplib::Response& res) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    if (fd >= 0) ::close(fd);
    return not_found(res);
  }
  auto shared_fd = std::make_shared<int>(fd);
  res.set_content_provider(
      static_cast<size_t>(st.st_size), content_type(file),
      [shared_fd](size_t offset, size_t length, httplib::DataSink& sink) {
        char buf[64 << 10];
        ssize_t n =
            ::pread(*shared_fd, buf, std::min(length, sizeof buf), static_cast<off_t>(offset));
        if (n <= 0) return false;
        return sink.write(buf, static_cast<size_t>(n));
      },
      [shared_fd](bool) { ::close(*shared_fd); });
}

// SIGINT and SIGTERM, whichever thread they reach, wake the thread that stops
// the server through this pipe (write() is safe in a signal handler).
int stop_pipe[2] = {-1, -1};
void on_stop_signal(int) {
  char c = 1;
  [[maybe_unused]] ssize_t n = ::write(stop_pipe[1], &c, 1);
}

// Ctrl+C and SIGTERM write to the stop pipe (the stopper thread waits on it).
bool catch_stop_signals() {
  if (::pipe2(stop_pipe, O_CLOEXEC) != 0) {
    std::perror("Error: pipe");
    return false;
  }
  struct sigaction sa {};
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
    std::fprintf(stderr,
                 "Error: Failed to start server on %s:%u: the port is in use or not allowed\n",
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
  std::string shown_host =
      opts.host == "127.0.0.1" || opts.host == "0.0.0.0" ? "localhost" : opts.host;
  std::printf("Serving %s at http://%s:%d/\n", opts.folder.c_str(), shown_host.c_str(), port);
}

// Serves until SIGINT or SIGTERM (serve_folder).
int serve(const ServeOptions& opts) {
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

// A server on a thread of its own (BackgroundServer).
struct Background {
  httplib::Server server;
  std::atomic<bool> done{false};  // the listening thread has ended
  std::thread thread;
};

void* start(const ServeOptions& opts) {
  auto b = std::make_unique<Background>();
  configure(b->server, opts.folder);
  int port = bind_port(b->server, opts);
  if (port < 0) return nullptr;
  say_serving(opts, port);
  std::fflush(stdout);
  b->thread = std::thread([b = b.get()] {
    b->server.listen_after_bind();
    b->done = true;
  });
  return b.release();
}

void stop(void* server) {
  std::unique_ptr<Background> b(static_cast<Background*>(server));
  // stop() before the listening thread is under way would be lost: asked
  // again until that thread has ended.
  while (!b->done.load()) {
    b->server.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (b->thread.joinable()) b->thread.join();
}

constexpr HttpModule kModule = {base::module_header<HttpModule>(), serve, start, stop};

}  // namespace
}  // namespace tlscope::serve

extern "C" __attribute__((visibility("default"))) const void* tlscope_http_module() {
  return &tlscope::serve::kModule;
}
