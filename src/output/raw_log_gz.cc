#include "output/raw_log_gz.h"

#include <fcntl.h>
#include <unistd.h>

#include <libdeflate.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace tlscope::output {
namespace {

constexpr size_t kChunk = 1u << 20;
constexpr int kLevel = 1;  // speed first: the report is made at the same time

}  // namespace

RawLogGzip::RawLogGzip(OutputDir& out, std::string source, std::string rel)
    : out_(out), source_(std::move(source)), rel_(std::move(rel)) {
  thread_ = std::thread([this] { run(); });
}

RawLogGzip::~RawLogGzip() { wait(); }

bool RawLogGzip::wait() {
  if (thread_.joinable()) thread_.join();
  return ok_;
}

void RawLogGzip::run() {
  int in = ::open(source_.c_str(), O_RDONLY | O_CLOEXEC);
  FILE* gz = in >= 0 ? out_.open_raw(rel_) : nullptr;
  std::unique_ptr<libdeflate_compressor, void (*)(libdeflate_compressor*)> c(
      libdeflate_alloc_compressor(kLevel), libdeflate_free_compressor);
  bool ok = in >= 0 && gz && c;
  if (ok) {
    std::setvbuf(gz, nullptr, _IONBF, 0);  // whole members are written at once
    std::vector<char> buf(kChunk), packed(libdeflate_gzip_compress_bound(c.get(), kChunk));
    for (;;) {
      ssize_t n = ::read(in, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) ok = false;
      if (n <= 0) break;
      size_t m = libdeflate_gzip_compress(c.get(), buf.data(), static_cast<size_t>(n), packed.data(),
                                          packed.size());
      if (m == 0 || std::fwrite(packed.data(), 1, m, gz) != m) {
        ok = false;
        break;
      }
    }
  }
  if (gz && std::fclose(gz) != 0) ok = false;
  if (in >= 0) ::close(in);
  if (!ok) {
    std::fprintf(stderr, "Cannot write %s/%s: %s\n", out_.root().c_str(), rel_.c_str(),
                 std::strerror(errno));
    out_.count_error();
  }
  ok_ = ok;
}

}  // namespace tlscope::output
