#include "io/line_reader.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace tlscope::io {
namespace {
constexpr size_t kInitialCapacity = 1 << 20;
}

LineReader::LineReader(std::unique_ptr<ByteSource> source) : source_(std::move(source)) {
  cap_ = kInitialCapacity;
  buf_ = static_cast<char*>(std::malloc(cap_ + kPadding));
  if (!buf_) throw std::bad_alloc();
  std::memset(buf_ + cap_, 0, kPadding);
}

LineReader::~LineReader() { std::free(buf_); }

// Moves unread bytes to the front, grows the buffer when a single line fills
// it, and reads more input. Returns false when nothing more can be read.
bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_, buf_ + begin_, end_ - begin_);
    base_ += begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {
    size_t new_cap = cap_ * 2;
    char* grown = static_cast<char*>(std::realloc(buf_, new_cap + kPadding));
    if (!grown) throw std::bad_alloc();
    buf_ = grown;
    cap_ = new_cap;
  }
  long n = source_->read(buf_ + end_, cap_ - end_);
  if (n < 0) {
    error_ = source_->error();
    eof_ = true;
    return false;
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  if (tee_) tee_(buf_ + end_, static_cast<size_t>(n));
  end_ += static_cast<size_t>(n);
  std::memset(buf_ + end_, 0, kPadding);
  return true;
}

bool LineReader::next(Line* line) {
  if (pushed_back_) {
    pushed_back_ = false;
    *line = last_;
    return true;
  }
  size_t scan_from = begin_;
  for (;;) {
    const char* nl =
        static_cast<const char*>(std::memchr(buf_ + scan_from, '\n', end_ - scan_from));
    if (nl) {
      size_t len = static_cast<size_t>(nl - (buf_ + begin_));
      const char* start = buf_ + begin_;
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      last_ = Line{std::string_view(start, len), ++line_no_};
      *line = last_;
      return true;
    }
    size_t pending = end_ - begin_;
    if (!fill()) {
      if (end_ == begin_) return false;
      // Last line without a final newline.
      const char* start = buf_ + begin_;
      size_t len = end_ - begin_;
      begin_ = end_;
      if (len > 0 && start[len - 1] == '\r') --len;
      std::memset(buf_ + end_, 0, kPadding);
      last_ = Line{std::string_view(start, len), ++line_no_};
      *line = last_;
      return true;
    }
    scan_from = begin_ + pending;
  }
}

void LineReader::read_tab_lines(std::string* out, uint64_t* last_line) {
  bool first = true;
  tab_at_ = tab_end_ = 0;
  Line line;
  for (;;) {
    if (pushed_back_ || begin_ == end_) {
      // The general path: a line put back, or the buffer needs more input.
      if (!next(&line)) return;
    } else {
      const char* start = buf_ + begin_;
      const char* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
      if (!nl) {
        if (!next(&line)) return;  // refills, or the last line without a newline
      } else {
        size_t len = static_cast<size_t>(nl - start);
        begin_ += len + 1;
        if (len > 0 && start[len - 1] == '\r') --len;
        line = last_ = Line{std::string_view(start, len), ++line_no_};
      }
    }
    if (line.text.empty()) continue;
    if (line.text[0] != '\t') {
      unread();
      return;
    }
    if (!first) out->push_back('\n');
    if (first) tab_at_ = base_ + static_cast<uint64_t>(line.text.data() - buf_);
    first = false;
    out->append(line.text.data() + 1, line.text.size() - 1);
    tab_end_ = base_ + static_cast<uint64_t>(line.text.data() + line.text.size() - buf_);
    *last_line = line.number;
  }
}

void payload_of_tab_lines(std::string_view bytes, std::string* out) {
  out->clear();
  bool first = true;
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    std::string_view line = bytes.substr(0, nl);
    bytes = nl == std::string_view::npos ? std::string_view() : bytes.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (!first) out->push_back('\n');
    first = false;
    out->append(line.substr(1));
  }
}

}  // namespace tlscope::io
