// (f) gzip and zstd input. The first byte picks what the file is: the rest
// of the input as it is (its magic bytes decide how it is read), or the rest
// compressed with gzip or zstd and, when the second byte says so, cut short
// or with one byte changed. Compressed whole, it must read back exactly;
// otherwise it must end cleanly, with an error or without.
#include <zlib.h>
#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "checks.h"
#include "io/byte_source.h"
#include "io/line_reader.h"

namespace {

std::string gzip(std::string_view in) {
  z_stream z{};
  deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(std::string_view in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 1);
  out.resize(ZSTD_isError(n) ? 0 : n);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  int kind = data[0] % 3, damage = data[1];
  std::string file = kind == 0 ? std::string(rest) : kind == 1 ? gzip(rest) : zstd(rest);
  bool whole = kind == 0 || damage < 128 || file.empty();
  if (!whole) {
    size_t at = (static_cast<size_t>(damage) * 7919) % file.size();
    if (damage & 1)
      file.resize(at);
    else
      file[at] = static_cast<char>(file[at] ^ (damage | 1));
  }
  tlscope::fuzz::Scratch s;
  auto path = s.write("in.log", file);
  std::string error;
  auto source = tlscope::io::open_source(path.string(), &error);
  if (!source) tlscope::fuzz::fail("open_source: " + error);
  std::string decoded;
  char buf[4096];
  long n;
  while ((n = source->read(buf, sizeof buf)) > 0) decoded.append(buf, static_cast<size_t>(n));
  if (n < 0 && source->error().empty()) tlscope::fuzz::fail("a read error without a reason");
  if (whole && kind != 0 && (n < 0 || decoded != rest))
    tlscope::fuzz::fail("a whole compressed file did not read back: " + source->error());
  // The same file through the line reader, to its end.
  auto again = tlscope::io::open_source(path.string(), &error);
  tlscope::io::LineReader lines(std::move(again));
  tlscope::io::Line line;
  size_t total = 0;
  while (lines.next(&line)) total += line.text.size();
  if (total > decoded.size() + 1 && n >= 0)
    tlscope::fuzz::fail("more line bytes than decoded bytes");
  return 0;
}
