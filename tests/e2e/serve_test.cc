// --serve (K1): the report folder over HTTP on a free loopback port, fetched
// with a plain socket client; nothing outside the folder is served, whatever
// the path says; Ctrl+C (SIGINT) ends it with exit 0.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "run_helper.h"

namespace tlscope_test {
namespace {
using namespace std::chrono_literals;

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// A port no one listens on now (the kernel's choice for port 0).
int free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t n = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &n);
  ::close(s);
  return ntohs(a.sin_port);
}

int connect_to(int port) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(s);
    return -1;
  }
  return s;
}

struct Response {
  int status = 0;
  std::string content_type, body;
};

// GET `target` as written (no normalisation), HTTP/1.1, Connection: close;
// a reply that takes more than `timeout_s` seconds is none.
Response get(int port, const std::string& target, int timeout_s = 30) {
  Response r;
  int s = connect_to(port);
  if (s < 0) return r;
  timeval tv{timeout_s, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string req = "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  if (::write(s, req.data(), req.size()) != static_cast<ssize_t>(req.size())) return r;
  std::string all;
  char buf[65536];
  for (ssize_t n; (n = ::read(s, buf, sizeof buf)) > 0;) all.append(buf, static_cast<size_t>(n));
  ::close(s);
  size_t end = all.find("\r\n\r\n");
  if (all.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return r;
  r.status = std::stoi(all.substr(9, 3));
  std::smatch m;
  std::string head = all.substr(0, end);
  if (std::regex_search(head, m, std::regex("\r\nContent-Type: ([^\r]*)", std::regex::icase)))
    r.content_type = m[1];
  r.body = all.substr(end + 4);
  return r;
}

// tlscope running in the background, stdout and stderr to files.
class Server {
 public:
  Server(const std::vector<std::string>& args, const fs::path& dir)
      : out_(dir / "serve.out"), err_(dir / "serve.err") {
    pid_ = spawn_tlscope(args, out_, err_);
  }
  ~Server() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // The port from "Serving <dir> at http://localhost:<port>/", once it is printed.
  int wait_port() {
    std::regex re(R"(Serving .* at http://localhost:(\d+)/\nPress Ctrl\+C to stop\n)");
    for (auto until = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < until;) {
      std::smatch m;
      std::string s = read_file(out_);
      if (std::regex_search(s, m, re)) return std::stoi(m[1]);
      if (exited()) return -1;
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }
  bool exited() {
    if (exited_) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exited_ = true;
      code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return exited_;
  }
  // Sends `sig` and waits (at most 10 s) for the exit status.
  int stop(int sig = SIGINT) {
    ::kill(pid_, sig);
    for (auto until = std::chrono::steady_clock::now() + 10s; std::chrono::steady_clock::now() < until;) {
      if (exited()) return code_;
      std::this_thread::sleep_for(20ms);
    }
    return -1;
  }
  std::string out() const { return read_file(out_); }
  std::string err() const { return read_file(err_); }
  int code() const { return code_; }

 private:
  fs::path out_, err_;
  pid_t pid_ = -1;
  bool exited_ = false;
  int code_ = -1;
};

class Serve : public ::testing::Test {
 protected:
  fs::path out() const { return tmp_ / "report"; }
  TempDir tmp_;
};

TEST_F(Serve, ServesTheReportAndNothingElse) {
  int port = free_port();
  Server srv({kExample.string(), "-o", out().string(), "--serve", "--port", std::to_string(port)},
             tmp_.path());
  ASSERT_EQ(srv.wait_port(), port) << srv.out() << srv.err();

  Response r = get(port, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.body, read_file(out() / "index.html"));
  // Query strings are not part of the file name (the pages' links carry them).
  EXPECT_EQ(get(port, "/index.html?ranks=0&x=1").body, r.body);
  r = get(port, "/static/tlscope.css");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/css; charset=utf-8");
  r = get(port, "/compile_directory.json");
  EXPECT_EQ(r.content_type, "application/json; charset=utf-8");
  // Large files come whole (streamed).
  r = get(port, "/raw.log");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, read_file(kExample));
  // A folder with an index.html gives it.
  fs::create_directories(out() / "sub");
  write_file(out() / "sub" / "index.html", "<p>sub</p>");
  EXPECT_EQ(get(port, "/sub/").body, "<p>sub</p>");
  // Percent-decoding as UTF-8: "é" is %C3%A9.
  write_file(out() / "\xC3\xA9t\xC3\xA9.txt", "summer");
  r = get(port, "/%C3%A9t%C3%A9.txt");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "summer");

  // Outside the folder: 404, however it is spelled.
  write_file(tmp_ / "secret.txt", "secret");
  fs::create_directory_symlink(tmp_.path(), out() / "up");
  fs::create_symlink(tmp_ / "secret.txt", out() / "secret_link.txt");
  for (const char* target :
       {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/sub/../../secret.txt",
        "/up/secret.txt", "/secret_link.txt", "//etc/passwd", "/%2Fetc%2Fpasswd", "/nope.html",
        "/-_0_0_0/", "/%00index.html"}) {
    SCOPED_TRACE(target);
    r = get(port, target);
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.body, "404 Not Found");
  }
  EXPECT_EQ(srv.stop(SIGINT), 0) << srv.err();
}

TEST_F(Serve, ListensOnLoopbackAndServesInParallel) {
  int port = free_port();
  Server srv({kExample.string(), "-o", out().string(), "--serve", "--port", std::to_string(port)},
             tmp_.path());
  ASSERT_EQ(srv.wait_port(), port) << srv.err();
  // The listening socket is bound to 127.0.0.1 (/proc/net/tcp: 0100007F, state 0A).
  char hex[16];
  std::snprintf(hex, sizeof hex, ":%04X", port);
  bool loopback = false, anywhere = false;
  std::ifstream tcp("/proc/net/tcp");
  for (std::string line; std::getline(tcp, line);) {
    if (!has(line, std::string(hex) + " ") || !has(line, " 0A ")) continue;
    loopback |= has(line, "0100007F" + std::string(hex));
    anywhere |= has(line, "00000000" + std::string(hex));
  }
  EXPECT_TRUE(loopback);
  EXPECT_FALSE(anywhere);
  // A client that never finishes its request does not hold up the next one.
  int stalled = connect_to(port);
  ASSERT_GE(stalled, 0);
  ASSERT_EQ(::write(stalled, "GET /ind", 8), 8);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(get(port, "/index.html").status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  ::close(stalled);
  EXPECT_EQ(srv.stop(SIGTERM), 0);
}

// A port in use is in use, by tlscope too: a second server on the same
// --port fails (exit 1); without --port it takes the next free one.
TEST_F(Serve, TwoServersDoNotShareAPort) {
  int port = free_port();
  Server first({kExample.string(), "-o", out().string(), "--serve", "--port", std::to_string(port)},
               tmp_.path());
  ASSERT_EQ(first.wait_port(), port) << first.err();
  fs::create_directories(tmp_ / "second");
  RunResult r = run_tlscope({kExample.string(), "-o", (tmp_ / "r2").string(), "--serve", "--port",
                             std::to_string(port)},
                            tmp_ / "second");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "Error: Failed to start server on 127.0.0.1:" + std::to_string(port)))
      << r.err;
  EXPECT_EQ(first.stop(), 0);
  // Without --port: two servers take two ports of 8000-8099, and each
  // answers for its own folder only (no sharing of one port).
  Server third({kExample.string(), "-o", (tmp_ / "r3").string(), "--serve"}, tmp_ / "second");
  int a = third.wait_port();
  ASSERT_GE(a, 8000) << third.err();
  write_file(tmp_ / "r3" / "only_in_r3.txt", "r3");
  fs::create_directories(tmp_ / "fourth");
  Server fourth({kExample.string(), "-o", (tmp_ / "r4").string(), "--serve"}, tmp_ / "fourth");
  int b = fourth.wait_port();
  ASSERT_GE(b, 8000) << fourth.err();
  EXPECT_NE(a, b);
  EXPECT_LE(std::max(a, b), 8099);
  for (int i = 0; i < 4; ++i) {  // the same answer every time, from the right server
    EXPECT_EQ(get(a, "/only_in_r3.txt").status, 200);
    EXPECT_EQ(get(b, "/only_in_r3.txt").status, 404);
  }
  EXPECT_EQ(fourth.stop(), 0);
  EXPECT_EQ(third.stop(), 0);
}

// Stalled connections (a request begun and never finished) do not starve
// the others: 30 stall while 20 clients make 20 requests each, and every
// request is answered within the client's 5 s.
TEST_F(Serve, StalledConnectionsDoNotStarveTheOthers) {
  int port = free_port();
  Server srv({kExample.string(), "-o", out().string(), "--serve", "--port", std::to_string(port)},
             tmp_.path());
  ASSERT_EQ(srv.wait_port(), port) << srv.err();
  std::vector<int> stalled;
  for (int i = 0; i < 30; ++i) {
    int s = connect_to(port);
    ASSERT_GE(s, 0);
    ASSERT_EQ(::write(s, "GET /index.html HTTP/1.1\r\nHost: x", 33), 33);
    stalled.push_back(s);
  }
  std::atomic<int> ok{0}, failed{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 20; ++c)
    clients.emplace_back([&] {
      for (int i = 0; i < 20; ++i) (get(port, "/index.html", 5).status == 200 ? ok : failed)++;
    });
  for (auto& t : clients) t.join();
  for (int s : stalled) ::close(s);
  EXPECT_EQ(ok.load(), 400);
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(srv.stop(), 0);
}

TEST_F(Serve, PortChoiceAndErrors) {
  // No --port: the first free one from 8000.
  {
    Server srv({kExample.string(), "-o", out().string(), "--serve"}, tmp_.path());
    int port = srv.wait_port();
    EXPECT_GE(port, 8000) << srv.out() << srv.err();
    EXPECT_LE(port, 8099);
    EXPECT_EQ(get(port, "/").status, 200);
    EXPECT_EQ(srv.stop(), 0);
  }
  // A port in use: an error, exit 1, after the report is written.
  int busy = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(busy, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(busy, 1), 0);
  socklen_t n = sizeof a;
  ::getsockname(busy, reinterpret_cast<sockaddr*>(&a), &n);
  RunResult r = run_tlscope({kExample.string(), "-o", (tmp_ / "r2").string(), "--serve", "--port",
                             std::to_string(ntohs(a.sin_port))},
                            tmp_.path());
  ::close(busy);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "Error: Failed to start server on 127.0.0.1:")) << r.err;
  EXPECT_TRUE(fs::is_regular_file(tmp_ / "r2" / "index.html"));
  // --port out of range, --port or --host without --serve, and a host that
  // is no address are usage errors, said at once (no report is made).
  r = run_tlscope({kExample.string(), "-o", (tmp_ / "r3").string(), "--serve", "--port", "70000"},
                  tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  r = run_tlscope({kExample.string(), "-o", (tmp_ / "r4").string(), "--no-browser", "--port", "9"},
                  tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "Error: --port is for --serve: add --serve to serve the report\n");
  r = run_tlscope({kExample.string(), "-o", (tmp_ / "r4").string(), "--host", "0.0.0.0"},
                  tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "Error: --host is for --serve: add --serve to serve the report\n");
  auto t0 = std::chrono::steady_clock::now();
  r = run_tlscope({kExample.string(), "-o", (tmp_ / "r6").string(), "--serve", "--host", "999.1.1.1"},
                  tmp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "Error: --host 999.1.1.1: not an address (e.g. 127.0.0.1, 0.0.0.0 or ::1)\n");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);  // not after a name lookup
  EXPECT_FALSE(fs::exists(tmp_ / "r4"));
  EXPECT_FALSE(fs::exists(tmp_ / "r6"));
  // A report that fails serves nothing.
  r = run_tlscope({(tmp_ / "missing.log").string(), "-o", (tmp_ / "r5").string(), "--serve"}, tmp_.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(has(r.out, "Serving"));
}

}  // namespace
}  // namespace tlscope_test
