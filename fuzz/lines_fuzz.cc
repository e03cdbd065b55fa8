// (a) The line reader and the glog prefix scanner: input bytes handed over in
// pieces whose sizes the input's first bytes choose, every line scanned for
// a glog prefix, payload (TAB) lines read as a block. A second reader skips
// the payloads instead (skip_tab_lines) and must meet the same lines, and
// the bytes where a payload was must make it again (payload_of_tab_lines).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "checks.h"
#include "io/byte_source.h"
#include "io/line_reader.h"
#include "trace/glog_prefix.h"

namespace {

using tlscope::fuzz::fail;

class PieceSource : public tlscope::io::ByteSource {
 public:
  PieceSource(std::string data, uint8_t step) : data_(std::move(data)), step_(step) {}
  long read(char* buf, size_t n) override {
    size_t left = data_.size() - pos_;
    step_ = static_cast<uint8_t>(step_ * 73 + 41);
    size_t take = std::min({n, left,
                            static_cast<size_t>(1 + step_ % 97) * static_cast<size_t>(1 + (step_ & 7))});
    std::memcpy(buf, data_.data() + pos_, take);
    pos_ += take;
    return static_cast<long>(take);
  }
  uint64_t file_offset() const override { return pos_; }

 private:
  std::string data_;
  size_t pos_ = 0;
  uint8_t step_;
};

bool inside(std::string_view part, std::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  tlscope::io::LineReader reader(std::make_unique<PieceSource>(input, data[0]));
  tlscope::io::LineReader skipper(std::make_unique<PieceSource>(input, data[0]));
  tlscope::io::Line line, skipped;
  uint64_t last = 0, bytes = 0;
  std::string payload, again;
  for (;;) {
    bool more = reader.next(&line);
    if (skipper.next(&skipped) != more) fail("skipping payloads ends elsewhere");
    if (!more) break;
    if (skipped.text != line.text || skipped.number != line.number)
      fail("skipping payloads meets other lines");
    if (line.number <= last) fail("line numbers do not increase");
    last = line.number;
    bytes += line.text.size() + 1;
    if (line.text.find('\n') != std::string_view::npos) fail("a line holds a newline");
    if (auto g = tlscope::trace::scan_glog_prefix(line.text)) {
      if (!inside(g->json, line.text) || !inside(g->pathname, line.text) ||
          !inside(g->thread_digits, line.text) || !inside(g->lineno_digits, line.text))
        fail("a glog field lies outside its line");
      if (g->level == 0) fail("a glog prefix without its level");
      uint64_t before = last;
      payload.clear();
      reader.read_tab_lines(&payload, &last);
      skipper.skip_tab_lines();
      if (last < before) fail("payload lines go backwards");
      uint64_t at = reader.tab_lines_at(), end = reader.tab_lines_end();
      if (at > end || end > input.size()) fail("a payload's place lies outside the input");
      tlscope::io::payload_of_tab_lines(std::string_view(input).substr(at, end - at), &again);
      if (again != payload) fail("a payload's place does not make the payload");
    }
  }
  if (bytes > input.size() + 1) fail("more line bytes than input bytes");
  return 0;
}
